"""Match scoring, standings and tie-breaks per rulebook; time-up rule; match clocks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rulebooks import find_rulebook
from referee.tournament import (
    MatchFacts,
    PlayedMatch,
    clock_remaining,
    facts_from_result,
    level_index,
    may_start_deal,
    score_match,
    scoring_for,
    standings,
    time_up_winner,
)

EIGHTY = find_rulebook("eighty-rr")
SHUANGKOU = find_rulebook("shuangkou-simple")
UNION = find_rulebook("union-2deck")
GUANDAN = find_rulebook("guandan-lyg")


def _lv(a: str, b: str) -> tuple[int, int]:
    return level_index(a), level_index(b)


# -- eighty-rr --------------------------------------------------------------------------------


def test_eighty_rr_match_summed_deal_points_win_2_draw_1_loss_0_002_s2() -> None:
    """Seed 002 §二 每场比赛打4副牌，赢组积2分，打平各积1分，输组积0分."""
    doc = {
        "deals": [
            {"match_points": [4, 0]},
            {"match_points": [0, 3]},
            {"match_points": [2, 0]},
            {"match_points": [0, 2]},
        ],
        "match": {"levels": ["2", "2"], "finished": True, "winner": None},
    }
    facts = facts_from_result(EIGHTY, doc)
    assert facts.deal_points == (6, 5)
    assert facts.winner == 0
    home, away = score_match("eighty", facts)
    assert (home.match_points, away.match_points) == (2.0, 0.0)
    drawn = facts_from_result(EIGHTY, {"deals": [{"match_points": [3, 0]}, {"match_points": [0, 3]}]})
    assert drawn.winner is None
    assert [s.match_points for s in score_match("eighty", drawn)] == [1.0, 1.0]


def test_eighty_rr_standings_rank_by_match_points_002_s2() -> None:
    """积分最高的组为冠军: three rounds, ranked by 积分, deal points then split a tie."""
    m = [
        PlayedMatch(1, 1, 2, MatchFacts(winner=0, deal_points=(8, 2))),
        PlayedMatch(1, 3, 4, MatchFacts(winner=None, deal_points=(5, 5))),
        PlayedMatch(2, 1, 3, MatchFacts(winner=1, deal_points=(3, 6))),
        PlayedMatch(2, 2, 4, MatchFacts(winner=0, deal_points=(7, 3))),
    ]
    rows = standings([1, 2, 3, 4], m, "eighty")
    assert [(r.pair, r.match_points) for r in rows] == [(3, 3.0), (1, 2.0), (2, 2.0), (4, 1.0)]
    # 1 and 2 tie on 2 match points; deal points 11 vs 9 decide, and the row shows them
    assert rows[1].decided_by == (("match_points", 2.0), ("deal_points", 11.0), ("head_to_head", None))
    assert rows[1].rank == 2 and rows[2].rank == 3
    assert not any(r.playoff for r in rows)


# -- shuangkou-simple -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("levels", "points", "standard"),
    [
        (("9", "6"), (2.0, 0.0), (13, 7)),  # 高出3級（含）即標準分為13：7（含）以上 → 2:0
        (("A", "2"), (2.0, 0.0), (20, 0)),  # capped at 20
        (("8", "6"), (1.5, 0.5), (12, 8)),  # 2級（含）以下 → 1.5 : 0.5
        (("7", "6"), (1.5, 0.5), (11, 9)),
        (("5", "5"), (1.0, 1.0), (10, 10)),  # 相同 → 10:10, 1 each
        (("6", "9"), (0.0, 2.0), (7, 13)),
    ],
)
def test_shuangkou_standard_score_20_0_and_match_points_003_s11(
    levels: tuple[str, str], points: tuple[float, float], standard: tuple[int, int]
) -> None:
    """Seed 003 §十一 標準分「20：0制」, 場分 2 / 1.5 / 1 / 0.5 / 0 by level difference."""
    home, away = score_match("shuangkou", MatchFacts(winner=None, levels=_lv(*levels)))
    assert (home.match_points, away.match_points) == points
    assert (home.standard_score, away.standard_score) == standard
    assert home.level_difference == -away.level_difference


def test_shuangkou_small_points_break_match_point_tie_003_s11() -> None:
    """若积分相同则计算小分 (A's won minus A's lost, soft and hard alike)."""
    m = [
        PlayedMatch(1, 1, 2, MatchFacts(winner=None, levels=_lv("9", "5"), aces=(1, 0))),
        PlayedMatch(1, 3, 4, MatchFacts(winner=None, levels=_lv("9", "5"), aces=(0, 0))),
    ]
    rows = standings([1, 2, 3, 4], m, "shuangkou")
    assert [r.pair for r in rows[:2]] == [1, 3]
    assert rows[0].decided_by[:2] == (("match_points", 2.0), ("small_points", 1.0))
    assert rows[1].decided_by[:2] == (("match_points", 2.0), ("small_points", 0.0))


def test_shuangkou_total_level_difference_then_head_to_head_003_s11() -> None:
    """小分也相同 → 所贏級差的總數; 總數也相同 → 以對壘時的勝方為先."""
    m = [
        # 1 and 2 each win 2:0 and draw each other; level differences +3 and +4
        PlayedMatch(1, 1, 3, MatchFacts(winner=None, levels=_lv("9", "6"))),  # 1: +3
        PlayedMatch(1, 2, 4, MatchFacts(winner=None, levels=_lv("10", "6"))),  # 2: +4
        PlayedMatch(2, 1, 2, MatchFacts(winner=None, levels=_lv("5", "5"))),  # draw
    ]
    rows = standings([1, 2, 3, 4], m, "shuangkou")
    assert [r.pair for r in rows[:2]] == [2, 1]  # level difference 4 > 3
    assert rows[0].decided_by[2] == ("level_difference", 4.0)



def test_shuangkou_head_to_head_orders_pairs_tied_on_everything_else_003_s11() -> None:
    """Two pairs equal on 积分, 小分 and 级差: the winner of their own match goes first."""
    m = [
        PlayedMatch(1, 1, 2, MatchFacts(winner=None, levels=_lv("7", "6"))),  # 1 beats 2: 1.5/0.5, ±1
        PlayedMatch(2, 1, 3, MatchFacts(winner=None, levels=_lv("5", "6"))),  # 1 loses: 0.5, −1
        PlayedMatch(2, 2, 4, MatchFacts(winner=None, levels=_lv("7", "6"))),  # 2 wins: 1.5, +1
    ]
    rows = standings([1, 2, 3, 4], m, "shuangkou")
    one, two = (next(r for r in rows if r.pair == p) for p in (1, 2))
    assert one.match_points == two.match_points == 2.0
    assert one.small_points == two.small_points == 0
    assert one.level_difference == two.level_difference == 0
    assert one.rank < two.rank
    assert dict(one.decided_by)["head_to_head"] == 1.5
    assert not one.playoff


def test_shuangkou_unplayed_tie_is_flagged_for_a_playoff_003_s11() -> None:
    """若雙方未對壘，則可以采取加時賽方法分出勝負: same rank, `playoff` set."""
    m = [
        PlayedMatch(1, 1, 3, MatchFacts(winner=None, levels=_lv("9", "6"))),
        PlayedMatch(1, 2, 4, MatchFacts(winner=None, levels=_lv("9", "6"))),
    ]
    rows = standings([1, 2, 3, 4], m, "shuangkou")
    assert rows[0].rank == rows[1].rank == 1
    assert rows[0].playoff and rows[1].playoff
    assert dict(rows[0].decided_by)["head_to_head"] is None
    assert rows[2].rank == 3


def test_director_can_reorder_tie_breaks() -> None:
    """Level difference before small points changes the order; the rows show both values."""
    m = [
        PlayedMatch(1, 1, 3, MatchFacts(winner=None, levels=_lv("9", "6"), aces=(2, 0))),
        PlayedMatch(1, 2, 4, MatchFacts(winner=None, levels=_lv("A", "6"), aces=(0, 0))),
    ]
    default = standings([1, 2, 3, 4], m, "shuangkou")
    assert [r.pair for r in default[:2]] == [1, 2]
    reordered = standings(
        [1, 2, 3, 4], m, "shuangkou", ["match_points", "level_difference", "small_points"]
    )
    assert [r.pair for r in reordered[:2]] == [2, 1]
    assert [name for name, _ in reordered[0].decided_by] == [
        "match_points",
        "level_difference",
        "small_points",
    ]
    with pytest.raises(ValueError):
        standings([1], [], "wdl", ["nonsense"])


# -- win/draw/loss rulebooks and byes ----------------------------------------------------------


def test_union_win_draw_loss_with_level_difference_secondary() -> None:
    m = [
        PlayedMatch(1, 1, 2, MatchFacts(winner=0, levels=_lv("Q", "9"))),
        PlayedMatch(1, 3, 4, MatchFacts(winner=0, levels=_lv("K", "J"))),
    ]
    rows = standings([1, 2, 3, 4], m, scoring_for(UNION))
    assert [(r.pair, r.won, r.level_difference) for r in rows] == [
        (1, 1, 3),
        (3, 1, 2),
        (4, 0, -2),
        (2, 0, -3),
    ]


def test_bye_scores_a_win_by_default() -> None:
    m = [PlayedMatch(1, 5, None, None)]
    rows = standings([5], m, "eighty")
    assert (rows[0].byes, rows[0].match_points, rows[0].played) == (1, 2.0, 0)
    assert standings([5], m, "eighty", bye_points=1.0)[0].match_points == 1.0


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(1, 8),
            st.integers(1, 8),
            st.integers(0, 12),
            st.integers(0, 12),
            st.sampled_from([0, 1, None]),
        ),
        max_size=30,
    ),
    st.sampled_from(["eighty", "shuangkou", "wdl"]),
)
def test_standings_are_a_ranking_of_every_pair(
    raw: list[tuple[int, int, int, int, int | None]], scoring: str
) -> None:
    """Property: every pair once; ranks non-decreasing; match points sorted; points conserved."""
    matches = [
        PlayedMatch(1, a, b, MatchFacts(winner=w, levels=(la, lb), deal_points=(la, lb)))
        for a, b, la, lb, w in raw
        if a != b
    ]
    rows = standings(range(1, 9), matches, scoring)
    assert sorted(r.pair for r in rows) == list(range(1, 9))
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    assert [r.match_points for r in rows] == sorted((r.match_points for r in rows), reverse=True)
    assert sum(r.match_points for r in rows) == pytest.approx(2.0 * len(matches))
    assert sum(r.level_difference for r in rows) == 0


# -- time-up rule -----------------------------------------------------------------------------


def test_union_time_up_higher_level_wins_000() -> None:
    """Seed 000: 两小时内没有结束，哪一方级别升得最高为获胜方."""
    doc = {"match": {"levels": ["J", "9"], "finished": False, "winner": None}, "deals": []}
    assert time_up_winner(UNION, doc) == 0
    facts = facts_from_result(UNION, doc, time_up=True)
    assert facts.winner == 0


def test_guandan_time_up_equal_levels_side_on_table_wins_004_s6() -> None:
    """Seed 004 §六.1 时间到，领先者胜，如级别相同，台上一方算胜."""
    doc = {
        "match": {"levels": ["8", "8"], "finished": False, "winner": None},
        "deals": [{"phase": "finished", "outcome": {"side": 1, "levels_up": 2}}],
    }
    assert time_up_winner(GUANDAN, doc) == 1
    in_progress = {
        "match": {"levels": ["8", "8"]},
        "deals": [{"phase": "playing", "dealer": 2, "outcome": None}],
    }
    assert time_up_winner(UNION, in_progress) == 0  # dealer seat 2 → side 0 on the table


@pytest.mark.parametrize(
    ("match", "winner"),
    [
        ({"levels": ["A", "K"], "soft_a": [0, 2]}, 1),  # (2) more soft A's
        ({"levels": ["A", "K"], "soft_a": [1, 1]}, 0),  # (3) higher level
        ({"levels": ["9", "9"], "soft_a": [0, 0]}, None),  # (4) draw
        ({"levels": ["J", "9"], "finished": True, "winner": 1}, 1),  # (1) past A ended it
    ],
)
def test_shuangkou_timed_mode_hard_a_soft_a_level_draw_003_s10(
    match: dict[str, object], winner: int | None
) -> None:
    """Seed 003 §十 定时法: 超過A → 軟A → 級別 → 平局."""
    assert time_up_winner(SHUANGKOU, {"match": match, "deals": []}) == winner


def test_shuangkou_soft_a_summed_from_deal_outcomes() -> None:
    doc = {
        "match": {"levels": ["5", "5"]},
        "deals": [{"outcome": {"soft_a": [0, 1]}}, {"outcome": {"soft_a": [0, 1]}}],
    }
    assert time_up_winner(SHUANGKOU, doc) == 1
    assert facts_from_result(SHUANGKOU, doc).aces == (0, 2)


# -- match clocks -------------------------------------------------------------------------------


def test_clock_counts_down_from_the_rulebook_limit() -> None:
    """guandan-lyg 1.5 h (seed 004 §六.1 时间不超过1.5小时); union-2deck 2 h."""
    limit = GUANDAN.time_limit_minutes * 60  # type: ignore[operator]
    assert clock_remaining(limit, None, 99.0) == 5400.0
    assert clock_remaining(limit, 0.0, 600.0) == 4800.0
    assert clock_remaining(limit, 0.0, 10_000.0) == 0.0
    # paused for 300 s: the pause does not count
    assert clock_remaining(limit, 0.0, 1200.0, paused_seconds=300.0) == 4500.0
    assert clock_remaining(limit, 0.0, 9999.0, paused_at=600.0) == 4800.0
    assert UNION.time_limit_minutes == 120


def test_shuangkou_timed_no_new_deal_in_last_three_minutes_003_s10() -> None:
    """Seed 003 §十 最後三分鐘停止下一副牌的比賽."""
    timed = SHUANGKOU.with_options({"shuangkou_mode": "timed", "time_limit_minutes": 60})
    assert may_start_deal(timed, 181.0)
    assert not may_start_deal(timed, 179.0)
    assert not may_start_deal(UNION, 0.0)
    assert may_start_deal(UNION, 1.0)
    assert may_start_deal(UNION, None)


# -- from real engine results -----------------------------------------------------------------

_ZERO_BOTTOM = ["3D", "3D", "4D", "4D", "6D", "6D", "7D", "7D"]


def _quick(dealer: int, defender_points: int, level: str = "2", aces: int | None = None) -> dict[str, object]:
    result: dict[str, object] = {
        "type": "result",
        "defender_points": defender_points,
        "bottom_points": 0,
        "last_trick_winner": dealer,
        "last_trick_shape": "single",
        "last_trick_trump": False,
    }
    if aces is not None:
        result["last_trick_aces"] = aces
    return {
        "events": [
            {"type": "declare", "seat": dealer, "cards": [level + "S"]},
            {"type": "bury", "seat": dealer, "cards": _ZERO_BOTTOM},
            result,
        ]
    }


def _replay(rulebook: str, deals: list[dict[str, object]], **extra: object) -> dict[str, object]:
    from referee.record import replay_document

    doc = {
        "format": "table-record/1",
        "game": "shengji",
        "rulebook": rulebook,
        "players": ["赵", "钱", "孙", "李"],
        "levels": ["2", "2"],
        "deals": deals,
        **extra,
    }
    return replay_document(doc)


def test_shuangkou_engine_result_passed_a_scores_2_0_with_small_points_003_s9_s11() -> None:
    """閑家沒得分 → 莊家直接升到A + 軟A; then a hard A passes A: 20:0, 2 : 0, 小分 +2."""
    result = _replay("shuangkou-simple", [_quick(0, 0), _quick(0, 0, "A", aces=1)])
    facts = facts_from_result(SHUANGKOU, result)
    assert facts.winner == 0 and facts.aces == (2, 0)
    home, away = score_match("shuangkou", facts)
    assert (home.match_points, away.match_points) == (2.0, 0.0)
    assert (home.standard_score, away.standard_score) == (20, 0)
    assert (home.small_points, away.small_points) == (2, -2)


def test_eighty_rr_engine_result_deal_points_002_s2() -> None:
    """Four deals: dealer side holds the defenders to 0 → 4 each; 100 → defenders 2."""
    result = _replay("eighty-rr", [_quick(0, 0), _quick(1, 0), _quick(2, 0), _quick(3, 100)])
    facts = facts_from_result(EIGHTY, result)
    assert facts.deal_points == (10, 4) and facts.winner == 0


def test_union_engine_time_up_record_field_000() -> None:
    """The record's `time_up`: the engine ends the match; the higher level wins."""
    result = _replay("union-2deck", [_quick(0, 0)], time_up=True)
    facts = facts_from_result(UNION, result, time_up=True)
    assert facts.winner == 0 and facts.levels == _lv("5", "2")
    assert time_up_winner(UNION, result) == 0
