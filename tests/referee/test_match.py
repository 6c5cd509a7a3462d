"""A Shengji match: levels, dealer rotation, A, 17-deal limit with 台上, 4-deal matches."""

from __future__ import annotations

from typing import Any

import pytest
from record_builders import quick_deal, record

from referee.errors import InvalidRecordError
from referee.record import replay_document

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def shuangsheng_deal(dealer: int, level: str, x: int, **kw: Any) -> dict[str, Any]:
    """The dealer declares its level ♠ with the small joker (001 三), then a quick result."""
    return quick_deal(dealer, [f"{level}S", "SJ"], dealer, x, **kw)


def test_shuangsheng_17_deals_equal_levels_side_on_the_table_wins_001_s1() -> None:
    """001 一: 比赛局数为17局 … 同级时，台上一方获胜 (the side dealing next)."""
    deals = []
    dealer = 0
    for _ in range(17):
        deals.append(shuangsheng_deal(dealer, "2", 100))  # 80–115: switch, levels stay
        dealer = (dealer + 1) % 4  # lost → dealer's 下家
    result = replay_document(record("shuangsheng-17", deals))
    match = result["match"]
    assert match["finished"] is True
    assert match["levels"] == ["2", "2"]
    assert dealer == 1 and match["winner"] == 1  # seat 1 is on the table after deal 17
    assert [d["dealer"] for d in result["deals"]][:5] == [0, 1, 2, 3, 0]


def test_shuangsheng_17_deals_higher_level_wins_001_s1() -> None:
    """After 17 deals the higher level wins."""
    deals = [shuangsheng_deal(0, "2", 60)]  # side 0 → 3, partner deals
    dealer, level = 2, "3"
    for _ in range(16):
        deals.append(shuangsheng_deal(dealer, level, 100))
        dealer = (dealer + 1) % 4
        level = "3" if dealer % 2 == 0 else "2"
    match = replay_document(record("shuangsheng-17", deals))["match"]
    assert match["levels"] == ["3", "2"]
    assert (match["finished"], match["winner"]) == (True, 0)


def test_shuangsheng_unfinished_before_17_deals() -> None:
    """16 deals: the match is not over."""
    deals = []
    dealer = 0
    for _ in range(16):
        deals.append(shuangsheng_deal(dealer, "2", 100))
        dealer = (dealer + 1) % 4
    match = replay_document(record("shuangsheng-17", deals))["match"]
    assert (match["finished"], match["winner"]) == (False, None)


def test_shuangsheng_passing_a_before_17_deals_wins_at_once_I7() -> None:
    """I-7: a side that passes A before deal 17 wins at once; a further deal is invalid."""
    deals = []
    dealer, level = 0, 0
    for _ in range(5):  # 2 → 5 → 8 → J → A → past A, x = 0 each time (+3)
        deals.append(shuangsheng_deal(dealer, RANKS[min(level, 12)], 0))
        dealer = (dealer + 2) % 4
        level += 3
    result = replay_document(record("shuangsheng-17", deals))
    assert [d["levels_after"][0] for d in result["deals"]] == ["5", "8", "J", "A", "A"]
    assert result["deals"][-1]["promotion"]["passed_a"] == 0
    assert (result["match"]["finished"], result["match"]["winner"]) == (True, 0)
    deals.append(shuangsheng_deal(dealer, "A", 0))
    with pytest.raises(InvalidRecordError) as error:
        replay_document(record("shuangsheng-17", deals))
    assert error.value.deal == 6


def test_shuangsheng_second_talking_violation_disqualifies_001_s11() -> None:
    """001 十一: 违例两次取消比赛资格，判对方胜."""
    talk = {"type": "penalty", "seat": 1, "kind": "talking"}
    deals = [shuangsheng_deal(0, "2", 60, extra=[talk]), shuangsheng_deal(2, "3", 60, extra=[talk])]
    match = replay_document(record("shuangsheng-17", deals[:1]))["match"]
    assert match["finished"] is False
    match = replay_document(record("shuangsheng-17", deals))["match"]
    assert (match["finished"], match["winner"]) == (True, 0)


def test_eighty_match_is_four_deals_with_rotation_002_s3_1() -> None:
    """002: 每场比赛打4副牌, 按照次序轮流坐庄, 只打2; 赢组积2分."""
    xs = [0, 120, 40, 200]  # deal points: dealer 4; defenders 3; dealer 2; defenders 5
    deals = [quick_deal(d, ["2S"], d, x, last_winner=d) for d, x in zip(range(4), xs, strict=True)]
    result = replay_document(record("eighty-rr", deals))
    assert [d["dealer"] for d in result["deals"]] == [0, 1, 2, 3]
    assert [d["match_points"] for d in result["deals"]] == [[4, 0], [3, 0], [2, 0], [5, 0]]
    match = result["match"]
    assert match["finished"] is True and match["winner"] == 0
    assert match["deal_points"] == [14, 0] and match["match_points"] == [2, 0]
    assert match["levels"] == ["2", "2"]
    with pytest.raises(InvalidRecordError):
        replay_document(record("eighty-rr", [*deals, quick_deal(0, ["2S"], 0, 40)]))


def test_eighty_draw_gives_one_match_point_each_002_s2() -> None:
    """打平各积1分: equal deal points → winner null, 1 : 1."""
    xs = [40, 40, 80, 80]  # dealer 2 (side 0), dealer 2 (side 1), defenders 2 (side 1), (side 0)
    deals = [quick_deal(d, ["2S"], d, x) for d, x in zip(range(4), xs, strict=True)]
    match = replay_document(record("eighty-rr", deals))["match"]
    assert match["deal_points"] == [4, 4]
    assert (match["finished"], match["winner"], match["match_points"]) == (True, None, [1, 1])


def union_deal(dealer: int, level: str, x: int, **kw: Any) -> dict[str, Any]:
    return quick_deal(dealer, [f"{level}S"], dealer, x, **kw)


def test_union_first_side_past_a_wins_with_must_play_stops_000_s15() -> None:
    """000 第十五条: 2、J、A必打，先打过A者为胜方."""
    deals, levels = [], []
    dealer, level = 0, "2"
    for _ in range(6):
        deals.append(union_deal(dealer, level, 0))  # x = 0: dealer +3, partner deals
        result = replay_document(record("union-2deck", deals))
        level = result["match"]["levels"][0]
        levels.append(level)
        dealer = (dealer + 2) % 4
        if result["match"]["finished"]:
            break
    assert levels == ["5", "8", "J", "A", "A"]  # 8 + 3 = J; J + 3 = A; A passes
    assert result["deals"][-1]["promotion"]["passed_a"] == 0
    assert (result["match"]["finished"], result["match"]["winner"]) == (True, 0)


def test_union_next_dealer_partner_when_won_xiajia_when_lost_000_s11() -> None:
    """000 十一: 若庄家获胜，由其同伴继续坐庄；若庄家失败，由其下家坐庄."""
    deals = [union_deal(1, "2", 40, given_dealer=None)]
    deals[0]["events"][0]["seat"] = 1
    result = replay_document(record("union-2deck", deals))
    assert result["deals"][0]["dealer"] == 1
    assert result["match"]["next_dealer"] == 3
    deals.append(union_deal(3, "3", 100))
    result = replay_document(record("union-2deck", deals))
    assert result["deals"][1]["dealer"] == 3
    assert result["match"]["next_dealer"] == 0
    assert result["match"]["levels"] == ["2", "3"]


def test_record_dealer_contradicting_the_rulebook_is_wrong_dealer() -> None:
    """RECORD_FORMAT.md: a given `dealer` that contradicts the rulebook → `wrong_dealer`."""
    deals = [union_deal(0, "2", 40), union_deal(2, "3", 40, given_dealer=1)]
    result = replay_document(record("union-2deck", deals))
    assert any(v["kind"] == "wrong_dealer" for v in result["deals"][1]["violations"])
    assert result["deals"][1]["dealer"] == 2


def test_record_levels_are_the_starting_levels() -> None:
    """`levels` in the record are where the sides start; the deal is at the dealer's level."""
    deal = quick_deal(1, ["9H"], 1, 60)
    deal["events"][0]["face_down"] = True
    result = replay_document(record("shuangkou-simple", [deal], levels=("5", "9")))
    assert result["deals"][0]["level"] == "9"
    assert result["deals"][0]["trump"] == {"suit": "H", "level": "9"}
    assert result["match"]["levels"] == ["5", "J"]  # 200 − 60 = 140 → +2


def test_shuangkou_same_dealer_after_a_win_003_s6() -> None:
    """003 六: 庄家那一方赢，由上局庄家继续坐庄; 输了由下家坐庄."""
    down = {"face_down": True}
    deals = [quick_deal(1, ["2S"], 1, 60)]
    deals[0]["events"][0].update(down)
    result = replay_document(record("shuangkou-simple", deals))
    assert result["deals"][0]["levels_after"] == ["2", "4"]  # 200 − 60 = 140 → +2
    assert result["match"]["next_dealer"] == 1
    second = quick_deal(1, ["4H"], 1, 120)
    second["events"][0].update(down)
    result = replay_document(record("shuangkou-simple", [*deals, second]))
    assert result["match"]["next_dealer"] == 2
    assert result["match"]["levels"] == ["6", "4"]  # defenders 120 → +4


def shuangkou_at_a(x: int, aces: int | None) -> dict[str, Any]:
    deal = quick_deal(0, ["AS"], 0, x, last_winner=2, shape="pair", trump=True)
    deal["events"][0]["face_down"] = True
    if aces is not None:
        deal["events"][-1]["last_trick_aces"] = aces
    return record("shuangkou-simple", [deal], levels=("A", "5"))


def test_shuangkou_hard_a_at_a_wins_the_match_003_s9_4() -> None:
    """003 九.4 + 十 直胜法: the dealer at A wins with x < 80 and its A taking the last trick."""
    result = replay_document(shuangkou_at_a(60, 2))
    assert result["deals"][0]["promotion"]["hard_a"] == [2, 0]
    assert (result["match"]["finished"], result["match"]["winner"]) == (True, 0)
    assert result["match"]["hard_a"] == [2, 0]


def test_shuangkou_at_a_without_the_a_keeps_dealing_003_s9_4() -> None:
    """Without the dealer's A on the last trick the dealer at A has not passed A."""
    result = replay_document(shuangkou_at_a(60, 0))
    assert result["match"]["finished"] is False
    assert result["match"]["next_dealer"] == 0
    assert replay_document(shuangkou_at_a(60, None))["match"]["finished"] is False


def test_deal_after_an_unfinished_deal_is_invalid() -> None:
    """A deal may only follow a finished one."""
    unfinished = {"events": [{"type": "declare", "seat": 0, "cards": ["2S"]}]}
    with pytest.raises(InvalidRecordError) as error:
        replay_document(record("union-2deck", [unfinished, union_deal(0, "2", 40)]))
    assert error.value.deal == 2


def test_time_up_higher_level_wins_union_000_s15() -> None:
    """000 第十五条: 两小时内没有结束，哪一方级别升得最高为获胜方 (record `time_up`)."""
    doc = record("union-2deck", [union_deal(0, "2", 40)], time_up=True)
    match = replay_document(doc)["match"]
    assert (match["finished"], match["winner"]) == (True, 0)


def test_eighty_first_dealer_is_the_records_seat_then_rotation_002_s3_1() -> None:
    """002 3.1.1: rotation from whoever deals first; the record's deal-1 dealer is accepted."""
    deals = [quick_deal(2, ["2S"], 2, 40, given_dealer=2), quick_deal(3, ["2S"], 3, 40)]
    result = replay_document(record("eighty-rr", deals))
    assert [d["dealer"] for d in result["deals"]] == [2, 3]
    assert all(d["violations"] == [] for d in result["deals"])


def test_time_up_shuangkou_soft_a_then_level_then_draw_003_s10() -> None:
    """003 十 定时法: no side past A → more soft A's; else higher level; else a draw."""
    zero = quick_deal(0, ["2S"], 0, 0)  # x = 0: side 0 straight to A + 1 soft A
    zero["events"][0]["face_down"] = True
    match = replay_document(record("shuangkou-simple", [zero], time_up=True))["match"]
    assert (match["finished"], match["winner"], match["soft_a"]) == (True, 0, [1, 0])
    level = quick_deal(0, ["2S"], 0, 60)  # +2 for side 0
    level["events"][0]["face_down"] = True
    assert replay_document(record("shuangkou-simple", [level], time_up=True))["match"]["winner"] == 0
    draw = replay_document(record("shuangkou-simple", [], time_up=True))["match"]
    assert (draw["finished"], draw["winner"]) == (True, None)


def test_time_up_eighty_by_deal_points_002() -> None:
    """An unfinished eighty-rr match stopped by the clock: more deal points wins."""
    deals = [quick_deal(0, ["2S"], 0, 120)]  # defenders (side 1) 3 points
    match = replay_document(record("eighty-rr", deals, time_up=True))["match"]
    assert (match["finished"], match["winner"]) == (True, 1)
