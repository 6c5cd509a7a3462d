"""Round life cycle: open with pairings and tables, confirm scoresheets, close, pair the next."""

from __future__ import annotations

from typing import Any

import pytest
from events_helpers import finish_eighty, make_event

from web.events import services as ts
from web.events.models import PairingOverride, Round, ScoresheetConfirmation
from web.extensions import db
from web.models import Match, Table


def _matches(event: Any, number: int) -> list[Match]:
    return list(
        db.session.execute(
            db.select(Match).filter_by(event_id=event.id, round=number).order_by(Match.id)
        ).scalars()
    )


def test_open_round1_by_recorded_draw_creates_tables_and_matches_002_s2(app: Any, factory: Any) -> None:
    """Seed 002 §二 第一场比赛通过抽签决定: the draw's seed is stored and reproduces it."""
    event = make_event(factory, 8)
    round1 = ts.open_round(event.id, actor="td", seed=424242)
    assert (round1.number, round1.method, round1.seed, round1.status) == (1, "draw", 424242, "open")
    matches = _matches(event, 1)
    assert len(matches) == 4
    assert sorted(t.number for t in db.session.execute(db.select(Table)).scalars()) == [1, 2, 3, 4]
    assert all(m.seats == m.default_seats() for m in matches)
    from referee.tournament import draw_first_round

    again = draw_first_round([p.id for p in event.pairs], 424242)
    assert [[p.table, p.home, p.away] for p in again] == [
        [r["table"], r["home"], r["away"]] for r in round1.pairings
    ]


def test_round_closes_only_when_every_match_finished_and_confirmed(app: Any, factory: Any) -> None:
    event = make_event(factory, 4)
    round1 = ts.open_round(event.id, actor="td", seed=1)
    first, second = _matches(event, 1)
    with pytest.raises(ts.TournamentError):
        ts.open_round(event.id, actor="td")  # round 1 still open
    with pytest.raises(ts.TournamentError):
        ts.confirm_scoresheet(first.id, actor="ref")  # not finished
    finish_eighty(first.id, 0)
    ts.confirm_scoresheet(first.id, actor="ref A", device="ipad")
    with pytest.raises(ts.TournamentError):  # 1 of 2 finished
        ts.close_round(round1.id, actor="td")
    finish_eighty(second.id, None)
    with pytest.raises(ts.TournamentError):  # 2 of 2 finished, 1 confirmed
        ts.close_round(round1.id, actor="td")
    ts.confirm_scoresheet(second.id, actor="ref B")
    again = ts.confirm_scoresheet(second.id, actor="someone else")
    assert again.confirmed_by == "ref B"  # idempotent
    assert db.session.execute(db.select(ScoresheetConfirmation)).scalars().all().__len__() == 2
    closed = ts.close_round(round1.id, actor="td")
    assert closed.status == "closed" and closed.closed_by == "td"


def _play_round(event: Any, number: int, winners: dict[int, int | None] | None = None) -> None:
    """Finish (home wins unless told otherwise), confirm and close round `number`."""
    for match in _matches(event, number):
        finish_eighty(match.id, (winners or {}).get(match.pair_a_id, 0))
        ts.confirm_scoresheet(match.id, actor="ref")
    round_ = db.session.execute(db.select(Round).filter_by(event_id=event.id, number=number)).scalar_one()
    ts.close_round(round_.id, actor="td")


def test_eighty_rr_three_rounds_never_repeat_and_follow_standing_002_s2(app: Any, factory: Any) -> None:
    """Later rounds by standing (第二场开始按照各组的积分从高到低排序), never a rematch."""
    event = make_event(factory, 8)
    ts.open_round(event.id, actor="td", seed=7)
    _play_round(event, 1)
    standing = ts.event_standings(event.id)
    assert [r.match_points for r in standing] == [2, 2, 2, 2, 0, 0, 0, 0]
    round2 = ts.open_round(event.id, actor="td")
    assert round2.method == "standing"
    winners = {r.pair for r in standing[:4]}
    for p in round2.pairings:  # winners meet winners
        assert (p["home"] in winners) == (p["away"] in winners)
    _play_round(event, 2)
    round3 = ts.open_round(event.id, actor="td")
    _play_round(event, 3)
    met = [frozenset((p["home"], p["away"])) for r in (ts.rounds_of(event.id)) for p in r.pairings]
    assert len(met) == len(set(met)) == 12
    rows = ts.event_standings(event.id)
    assert rows[0].match_points == 6.0 and rows[0].rank == 1
    assert sum(r.match_points for r in rows) == 24.0
    assert round3.number == 3


def test_odd_field_gets_a_bye_scored_as_a_win(app: Any, factory: Any) -> None:
    event = make_event(factory, 5)
    round1 = ts.open_round(event.id, actor="td", seed=3)
    byes = [p["home"] for p in round1.pairings if p["away"] is None]
    assert len(byes) == 1 and len(_matches(event, 1)) == 2
    rows = {r.pair: r for r in ts.event_standings(event.id)}
    assert rows[byes[0]].byes == 1 and rows[byes[0]].match_points == 2.0


def test_forbidden_same_club_pairing_avoided(app: Any, factory: Any) -> None:
    """Pairs of one unit (单位) do not meet in the draw when avoidable."""
    event = make_event(factory, 4, clubs=["A", "A", "B", "B"])
    ids = [p.id for p in event.pairs]
    for seed in range(10):
        new, pairing = ts.compute_next_round(event.id, seed=seed)
        for p in pairing:
            assert {p.home, p.away} not in ({ids[0], ids[1]}, {ids[2], ids[3]})
        db.session.rollback()


def test_director_override_records_before_after_who_and_why(app: Any, factory: Any) -> None:
    event = make_event(factory, 4)
    round1 = ts.open_round(event.id, actor="td", seed=11)
    computed = [dict(r) for r in round1.computed]
    a, b = computed[0]["home"], computed[1]["home"]
    with pytest.raises(ts.TournamentError):
        ts.swap_pairs(round1.id, a, b, actor="td", reason=" ")  # a reason is required
    ts.swap_pairs(round1.id, a, b, actor="td", reason="队伍迟到 late arrival")
    override = db.session.execute(db.select(PairingOverride)).scalar_one()
    assert (override.actor, override.reason) == ("td", "队伍迟到 late arrival")
    assert override.before == computed
    round1 = db.session.get(Round, round1.id)
    assert round1.computed == computed  # the computed pairing is kept
    assert round1.pairings != computed
    diff = ts.pairing_diff(round1)
    assert all(row["changed"] for row in diff)
    matches = _matches(event, 1)
    assert {frozenset((m.pair_a_id, m.pair_b_id)) for m in matches} == {
        frozenset((r["home"], r["away"])) for r in round1.pairings
    }
    # once a match has started it cannot be re-paired
    finish_eighty(matches[0].id, 0)
    with pytest.raises(ts.TournamentError):
        ts.swap_pairs(round1.id, a, b, actor="td", reason="again")


def test_round_robin_format_plays_every_opponent(app: Any, factory: Any) -> None:
    event = make_event(factory, 4, rulebook="union-2deck")
    ts.update_settings(event.id, actor="td", format="round_robin")
    seen = set()
    for number in (1, 2, 3):
        round_ = ts.open_round(event.id, actor="td")
        assert round_.number == number
        seen.update(frozenset((p["home"], p["away"])) for p in round_.pairings)
        round_.status = "closed"  # the life cycle is tested above; skip playing here
        db.session.commit()
    assert len(seen) == 6
    with pytest.raises(ts.TournamentError):
        ts.open_round(event.id, actor="td")


def test_knockout_format_advances_winners(app: Any, factory: Any) -> None:
    event = make_event(factory, 4)
    ts.update_settings(event.id, actor="td", format="knockout")
    round1 = ts.open_round(event.id, actor="td")
    assert round1.stage == "knockout" and len(_matches(event, 1)) == 2
    _play_round(event, 1)  # home pairs win
    final = ts.open_round(event.id, actor="td")
    homes = {r["home"] for r in round1.pairings}
    assert {final.pairings[0]["home"], final.pairings[0]["away"]} <= homes
    _play_round(event, 2)
    with pytest.raises(ts.TournamentError):  # the knockout is complete
        ts.open_round(event.id, actor="td")


def test_tiebreak_order_setting_validated(app: Any, factory: Any) -> None:
    event = make_event(factory, 2)
    ts.update_settings(event.id, actor="td", tiebreaks=["match_points", "head_to_head"])
    assert ts.tiebreak_order(event, ts.settings_for(event.id)) == ("match_points", "head_to_head")
    with pytest.raises(ts.TournamentError):
        ts.update_settings(event.id, actor="td", tiebreaks=["nope"])


def test_multi_stage_groups_then_knockout_of_winners_and_runners_up(app: Any, factory: Any) -> None:
    """Two snake-seeded groups of four play a round robin, then A1–B2 / B1–A2 and the final."""
    event = make_event(factory, 8)
    ts.update_settings(event.id, actor="td", format="groups_knockout", group_count=2,
                       advance_per_group=2)
    ids = [p.id for p in event.pairs]
    groups = [ids[0::4] + ids[3::4], ids[1::4] + ids[2::4]]  # snake: 1 4 5 8 | 2 3 6 7
    met = set()
    for number in (1, 2, 3):
        round_ = ts.open_round(event.id, actor="td")
        assert (round_.stage, len(round_.pairings)) == ("group", 4)
        for p in round_.pairings:  # group games stay inside a group
            assert (p["home"] in groups[0]) == (p["away"] in groups[0])
            met.add(frozenset((p["home"], p["away"])))
        _play_round(event, number)
    assert len(met) == 12  # each group's round robin is complete
    semis = ts.open_round(event.id, actor="td")
    assert (semis.stage, semis.method, len(semis.pairings)) == ("knockout", "group_knockout", 2)
    for p in semis.pairings:
        assert (p["home"] in groups[0]) != (p["away"] in groups[0])  # never two of one group
    _play_round(event, 4)
    final = ts.open_round(event.id, actor="td")
    assert len(final.pairings) == 1 and final.stage == "knockout"
    _play_round(event, 5)
    with pytest.raises(ts.TournamentError):  # the knockout is complete
        ts.open_round(event.id, actor="td")
