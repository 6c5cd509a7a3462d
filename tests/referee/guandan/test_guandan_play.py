"""Guandan play (seed 004 四.6 出牌和接风, 五.2, 九): turns, passes, 接风, finishing order."""

from __future__ import annotations

import pytest

from referee.errors import InvalidRecordError

SUITS = {0: "S", 1: "D", 2: "C", 3: "H"}
RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]


def drain(ev, seat: int, others: tuple[int, ...] | None = None, pairs: int = 13, skip: str = "") -> list[dict]:
    """`seat` leads `pairs` pairs of its own suit (ranks 3…2, `skip` left out); others pass."""
    events = []
    if others is None:
        others = tuple((seat + k) % 4 for k in (1, 2, 3))
    ranks = [r for r in RANKS if r not in skip.split()]
    for rank in ranks[:pairs]:
        card = rank + SUITS[seat]
        events.append(ev.play(seat, f"{card} {card}"))
        events.extend(ev.passes(*others))
    return events


def test_turn_passes_to_the_next_seat_004_s4_6(replay, ev):
    deal = replay([ev.play(0, "3S")])["deals"][0]
    assert deal["phase"] == "playing"
    assert deal["next_to_play"] == 1
    assert deal["cards_left"] == [26, 27, 27, 27]
    assert deal["plays"][0]["combo"] == {"kind": "single", "rank": "3", "size": 1}


def test_three_passes_give_a_new_lead_to_the_last_player_004_s4_6(replay, ev):
    deal = replay([ev.play(0, "3S"), ev.play(1, "5S"), *ev.passes(2, 3, 0)])["deals"][0]
    assert deal["next_to_play"] == 1
    assert deal["violations"] == []


def test_new_lead_may_play_any_combination_004_s4_6(replay, ev, violations):
    result = replay([ev.play(0, "3S"), *ev.passes(1, 2, 3), ev.play(0, "4S 4D")])
    assert violations(result) == []
    assert result["deals"][0]["next_to_play"] == 1


def test_partner_leads_after_player_goes_out_jiefeng_004_s4_6(replay, ev):
    events = drain(ev, 0) + [ev.play(0, "BJ"), *ev.passes(1, 2, 3)]
    deal = replay(events)["deals"][0]
    assert deal["cards_left"][0] == 0
    assert deal["next_to_play"] == 2  # 接风: the partner leads
    assert deal["violations"] == []


def test_beaten_last_play_returns_lead_to_beater_not_partner_004_s4_6(replay, ev):
    events = drain(ev, 0) + [ev.play(0, "SJ"), ev.play(1, "BJ"), *ev.passes(2, 3)]
    deal = replay(events)["deals"][0]
    assert deal["next_to_play"] == 1


def test_player_out_is_skipped_in_turn_order_004_s5_2(replay, ev):
    events = drain(ev, 0) + [ev.play(0, "BJ"), *ev.passes(1, 2, 3), ev.play(2, "3C")]
    deal = replay(events)["deals"][0]
    assert deal["next_to_play"] == 3
    events += [ev.pass_(3), ev.pass_(1)]
    assert replay(events)["deals"][0]["next_to_play"] == 2


def test_double_down_ends_the_deal_004_s3_4(replay, ev):
    events = drain(ev, 0) + [ev.play(0, "BJ"), *ev.passes(1, 2, 3)]
    events += drain(ev, 2, others=(3, 1)) + [ev.play(2, "SJ")]
    deal = replay(events)["deals"][0]
    assert deal["phase"] == "finished"
    assert deal["order"][:2] == [0, 2]
    assert sorted(deal["order"][2:]) == [1, 3]
    assert deal["outcome"] == {"side": 0, "levels_up": 3, "passed_a": False}
    assert deal["next_to_play"] is None


def test_three_out_gives_the_last_player_and_plus_two_004_s5_2(replay, ev):
    events = drain(ev, 0) + [ev.play(0, "BJ"), *ev.passes(1, 2, 3)]  # 接风: seat 2 leads
    events += [ev.play(2, "3C"), ev.pass_(3), ev.play(1, "5H"), *ev.passes(2, 3)]
    events += drain(ev, 1, others=(2, 3))  # seat 1 goes out on its 13th pair; 接风 to 3
    events += [ev.play(3, "3H"), ev.play(2, "6H"), ev.pass_(3)]
    events += drain(ev, 2, others=(3,), pairs=12, skip="3") + [ev.play(2, "SJ")]
    deal = replay(events)["deals"][0]
    assert deal["phase"] == "finished"
    assert deal["order"] == [0, 1, 2, 3]
    assert deal["outcome"] == {"side": 0, "levels_up": 2, "passed_a": False}
    assert deal["cards_left"][:3] == [0, 0, 0] and deal["violations"] == []


def test_event_after_the_deal_end_is_invalid(replay, ev):
    events = [ev.result([0, 2, 1, 3]), ev.play(1, "3S")]
    with pytest.raises(InvalidRecordError) as caught:
        replay(events)
    assert (caught.value.deal, caught.value.event) == (1, 1)


def test_not_a_combination_is_a_violation_004_s9_1(replay, ev, violations):
    result = replay([ev.play(0, "3S 4D")])
    assert violations(result) == ["not_a_combination"]
    assert result["deals"][0]["plays"][0]["combo"] is None
    assert result["deals"][0]["cards_left"][0] == 25


def test_does_not_beat_is_a_violation_004_s9_1(replay, ev, violations):
    # seed 九.1: "如打3，用4压3" out of shape, or a lower card.
    result = replay([ev.play(0, "5S"), ev.play(1, "4S")])
    assert violations(result) == ["does_not_beat"]
    result = replay([ev.play(0, "5S"), ev.play(1, "6S 6D")])
    assert violations(result) == ["does_not_beat"]
    result = replay([ev.play(0, "5S 6D 7C 8C 9S"), ev.play(1, "5D 6C 7D 8D 9D")])
    assert violations(result) == ["does_not_beat"]


def test_failed_play_leaves_the_table_unchanged(replay, ev):
    deal = replay([ev.play(0, "9S"), ev.play(1, "4S"), *ev.passes(2, 3)])["deals"][0]
    assert deal["next_to_play"] == 0


def test_out_of_turn_is_a_violation_004_s9_3(replay, ev, violations):
    result = replay([ev.play(0, "5S"), ev.play(2, "6S")])
    assert violations(result) == ["out_of_turn"]
    assert result["deals"][0]["violations"][0]["event"] == 1
    assert result["deals"][0]["next_to_play"] == 3


def test_pass_on_lead_is_a_violation(replay, ev, violations):
    result = replay([ev.play(0, "5S"), *ev.passes(1, 2, 3), ev.pass_(0)])
    assert violations(result) == ["pass_on_lead"]


def test_stated_reading_is_used_004_s3_3(replay, ev, violations):
    events = [ev.play(0, "5S 5D 5C 2H 2H", combo={"kind": "full_house"}), ev.play(1, "6S 6D 6C 3S 3D")]
    result = replay(events)
    assert violations(result) == []
    assert result["deals"][0]["plays"][0]["combo"]["kind"] == "full_house"
    # Without the statement the five 5s are a bomb, which the full house cannot beat.
    result = replay([ev.play(0, "5S 5D 5C 2H 2H"), ev.play(1, "6S 6D 6C 3S 3D")])
    assert violations(result) == ["does_not_beat"]


def test_impossible_stated_reading_is_not_a_combination(replay, ev, violations):
    result = replay([ev.play(0, "5S 5D", combo={"kind": "straight"})])
    assert violations(result) == ["not_a_combination"]


def test_third_copy_of_a_card_is_invalid_004_s1_1(replay, ev):
    events = [ev.play(0, "5S 5S"), ev.play(1, "6S 6S"), ev.play(2, "7S 5S")]
    with pytest.raises(InvalidRecordError) as caught:
        replay(events)
    assert (caught.value.deal, caught.value.event) == (1, 2)
    assert "5S" in str(caught.value)


def test_more_cards_than_held_is_invalid_004_s1_1(replay, ev):
    events = drain(ev, 0) + [ev.play(0, "AD 4D")]
    with pytest.raises(InvalidRecordError) as caught:
        replay(events)
    assert caught.value.event == len(events) - 1


@pytest.mark.parametrize(
    "event",
    [
        {"type": "play", "seat": 4, "cards": ["3S"]},
        {"type": "play", "seat": 0, "cards": ["XX"]},
        {"type": "play", "seat": 0, "cards": []},
        {"type": "dance", "seat": 0},
        {"type": "penalty", "seat": 0, "kind": "rude"},
        {"type": "result", "order": [0, 1]},
        {"type": "result", "order": [0, 0, 1, 2]},
    ],
)
def test_unreadable_events_are_invalid(replay, event):
    with pytest.raises(InvalidRecordError) as caught:
        replay([{"type": "play", "seat": 0, "cards": ["3S"]}, event])
    assert (caught.value.deal, caught.value.event) == (1, 1)


def test_cards_left_count_tribute_and_return_004_s4_4(replay, ev):
    events2 = [ev.tribute(3, 0, "BJ"), ev.return_(0, 3, "3S"), ev.play(3, "4D")]
    deal = replay([ev.result([0, 1, 2, 3])], events2)["deals"][1]
    assert deal["cards_left"] == [27, 27, 27, 26]
    deal = replay([ev.result([0, 1, 2, 3])], events2[:1])["deals"][1]
    assert deal["cards_left"] == [28, 27, 27, 26]
    assert deal["phase"] == "tribute"


def test_first_deal_leader_when_recorded_004_s4_1(replay, ev, violations):
    result = replay({"leader": 2, "events": [ev.play(0, "3S")]})
    assert violations(result) == ["wrong_leader"]
    assert violations(replay({"leader": 0, "events": [ev.play(0, "3S")]})) == []
    assert violations(replay([ev.play(3, "3S")])) == []  # unknown leader: anyone may lead


def test_partial_record_reports_state_so_far(replay, ev):
    result = replay([ev.play(0, "3S"), ev.pass_(1)])
    assert result["match"]["finished"] is False
    assert result["deals"][0]["outcome"] is None
    assert result["deals"][0]["levels_after"] == ["2", "2"]


def test_unfinished_deal_followed_by_another_is_invalid(replay, ev):
    with pytest.raises(InvalidRecordError) as caught:
        replay([ev.play(0, "3S")], [ev.play(0, "4S")])
    assert caught.value.deal == 1


@pytest.mark.parametrize(
    "event",
    [
        {"type": ["play"], "seat": 0},
        {"type": "play", "seat": 0, "cards": [3]},
        {"type": "play", "seat": 0, "cards": " "},
        {"type": "play", "seat": 0, "cards": "3S QQ"},
        {"type": "play", "seat": True, "cards": ["3S"]},
        {"type": "play", "seat": 0, "cards": ["3S"], "combo": {"kind": "single", "rank": "X"}},
        "play 0 3S",
    ],
)
def test_malformed_events_are_invalid_not_crashes(replay, event):
    with pytest.raises(InvalidRecordError) as caught:
        replay([event])
    assert (caught.value.deal, caught.value.event) == (1, 0)


def test_stated_rank_narrows_the_reading_004_s3_3(replay, ev, violations):
    # 3-4-5-6 + wild at level 2: 3-7 unless the referee states 2-6 (rank 6, "T"-style too).
    res = replay([ev.play(0, "3S 4D 5C 6C 2H", combo={"kind": "straight", "rank": "6"})])
    assert res["deals"][0]["plays"][0]["combo"] == {"kind": "straight", "rank": "6", "size": 5}
    res = replay([ev.play(0, "6S 7D 8C 9C 2H", combo={"kind": "straight", "rank": "T"})])
    assert res["deals"][0]["plays"][0]["combo"]["rank"] == "10"
    assert violations(res) == []


def test_cards_may_be_one_string(replay, ev, violations):
    res = replay([{"type": "play", "seat": 0, "cards": "3S,3D"}, {"type": "play", "seat": 1, "cards": "♠5 ♦5"}])
    assert violations(res) == []
    assert res["deals"][0]["plays"][1]["cards"] == ["5S", "5D"]
