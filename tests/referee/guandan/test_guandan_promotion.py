"""Promotion, the level on the table, the A level and the match end (seed 004 五, 六)."""

from __future__ import annotations

import pytest

from referee.errors import InvalidRecordError


def result(order):
    return [{"type": "result", "order": order}]


@pytest.mark.parametrize(
    ("order", "side", "up"),
    [
        ([0, 2, 1, 3], 0, 3),  # 双下: partner second
        ([0, 2, 3, 1], 0, 3),
        ([0, 1, 2, 3], 0, 2),  # partner third
        ([0, 3, 2, 1], 0, 2),
        ([0, 1, 3, 2], 0, 1),  # partner last
        ([1, 3, 0, 2], 1, 3),
        ([3, 0, 1, 2], 1, 2),
        ([3, 2, 0, 1], 1, 1),
    ],
)
def test_promotion_by_partner_place_004_s5_2(replay, order, side, up):
    deal = replay(result(order))["deals"][0]
    assert deal["outcome"] == {"side": side, "levels_up": up, "passed_a": False}
    expected = ["2", "2"]
    expected[side] = str(2 + up)
    assert deal["levels_after"] == expected


def test_deal_played_at_level_of_side_on_table_004_s4_6(replay):
    res = replay(result([1, 3, 0, 2]), result([0, 1, 2, 3]), [], levels=["5", "8"], on_table=0)
    deals = res["deals"]
    assert (deals[0]["level"], deals[0]["on_table"]) == ("5", 0)
    assert (deals[1]["level"], deals[1]["on_table"]) == ("J", 1)  # side 1 won: 8 + 3
    assert (deals[2]["level"], deals[2]["on_table"]) == ("7", 0)  # side 0 won: 5 + 2


def test_first_deal_on_table_from_record(replay):
    deal = replay([], levels=["5", "8"], on_table=1)["deals"][0]
    assert (deal["level"], deal["on_table"], deal["phase"]) == ("8", 1, "playing")  # no tribute in deal 1


def test_a_must_be_played_promotion_stops_at_a_004_s5_1(replay):
    deal = replay(result([0, 2, 1, 3]), levels=["Q", "2"])["deals"][0]
    assert deal["levels_after"] == ["A", "2"]


def test_side_at_a_off_the_table_does_not_pass_by_winning_004_s5_1(replay):
    res = replay(result([1, 3, 0, 2]), levels=["5", "A"], on_table=0)
    assert res["deals"][0]["outcome"]["passed_a"] is False
    assert res["match"]["finished"] is False
    assert res["match"]["on_table"] == 1


def test_pass_a_with_first_and_second_wins_the_match_004_s6_2(replay):
    res = replay(result([0, 2, 1, 3]), levels=["A", "K"])
    assert res["deals"][0]["outcome"]["passed_a"] is True
    assert res["match"] == {
        "levels": ["A", "K"], "on_table": 0, "a_attempts": [0, 0], "a_series": [0, 0],
        "finished": True, "winner": 0, "reason": "passed_a",
    }


def test_deal_after_match_end_is_invalid(replay):
    with pytest.raises(InvalidRecordError) as caught:
        replay(result([0, 2, 1, 3]), result([0, 2, 1, 3]), levels=["A", "K"])
    assert caught.value.deal == 2


@pytest.mark.parametrize("order", [[0, 1, 2, 3], [0, 1, 3, 2], [1, 3, 0, 2], [1, 0, 2, 3]])
def test_a_not_passed_without_first_and_second_004_s6_2(replay, order):
    res = replay(result(order), levels=["A", "5"])
    assert res["match"]["finished"] is False
    assert res["deals"][0]["a_attempts"] == [1, 0]
    assert res["deals"][0]["levels_after"][0] == "A"


def test_three_failed_a_deals_back_to_j_004_s6_3(replay):
    res = replay(result([0, 1, 2, 3]), result([0, 1, 2, 3]), result([0, 1, 2, 3]), levels=["A", "2"])
    attempts = [d["a_attempts"][0] for d in res["deals"]]
    assert attempts == [1, 2, 0]
    assert res["deals"][2]["levels_after"] == ["J", "2"]
    assert res["match"]["a_series"] == [1, 0]
    assert res["match"]["finished"] is False


def test_failed_a_by_losing_counts_and_opponents_promote_004_s6_3(replay):
    # Side 0 at A on the table loses twice, wins back the table and fails a third time.
    deals = [result([1, 3, 0, 2]), result([0, 1, 2, 3]), result([0, 1, 3, 2])]
    res = replay(*deals, levels=["A", "2"])
    assert [d["level"] for d in res["deals"]] == ["A", "5", "A"]
    assert [d["a_attempts"] for d in res["deals"]] == [[1, 0], [1, 0], [2, 0]]
    assert res["deals"][0]["levels_after"] == ["A", "5"]


def test_second_series_of_failed_a_back_to_2_004_s6_3(replay):
    fail = result([0, 1, 2, 3])
    climb = result([0, 2, 1, 3])  # J + 3 → A (A stops the promotion)
    res = replay(fail, fail, fail, climb, fail, fail, fail, levels=["A", "2"])
    levels = [d["levels_after"][0] for d in res["deals"]]
    assert levels == ["A", "A", "J", "A", "A", "A", "2"]
    assert res["match"]["a_series"] == [2, 0]


def test_a_failures_option(replay):
    fail = result([0, 1, 2, 3])
    res = replay(fail, fail, levels=["A", "2"], options={"guandan_a_failures_to_j": 2})
    assert res["deals"][1]["levels_after"] == ["J", "2"]


def test_time_up_side_ahead_wins_004_s6_1(replay):
    res = replay(result([1, 3, 0, 2]), levels=["9", "2"], time_up=True)
    assert res["match"]["finished"] is True
    assert (res["match"]["winner"], res["match"]["reason"]) == (0, "time_up")


def test_time_up_equal_levels_side_on_table_wins_004_s6_1(replay):
    res = replay(result([1, 0, 3, 2]), levels=["4", "2"], time_up=True)  # side 1: 2 + 2 = 4
    assert res["match"]["levels"] == ["4", "4"]
    assert res["match"]["winner"] == 1  # side 1 won the deal: it is on the table


def test_time_up_by_elapsed_minutes_004_s6_1(replay):
    res = replay(result([1, 3, 0, 2]), levels=["9", "2"], elapsed_minutes=89)
    assert res["match"]["finished"] is False
    res = replay(result([1, 3, 0, 2]), levels=["9", "2"], elapsed_minutes=90)
    assert res["match"]["winner"] == 0


def test_time_up_event_abandons_the_deal_in_progress_004_s6_1(replay, ev):
    res = replay(result([1, 3, 0, 2]), [ev.anti(0, "BJ BJ"), ev.play(1, "3S"), {"type": "time_up"}],
                 levels=["9", "2"])
    assert res["deals"][1]["phase"] == "abandoned"
    assert res["match"]["finished"] is True and res["match"]["winner"] == 0


def test_document_time_up_abandons_an_unfinished_last_deal_004_s6_1(replay, ev):
    res = replay(result([1, 3, 0, 2]), [ev.anti(0, "BJ BJ"), ev.play(1, "3S")], levels=["9", "2"], time_up=True)
    assert res["deals"][1]["phase"] == "abandoned" and res["deals"][1]["next_to_play"] is None
    assert res["match"]["winner"] == 0
