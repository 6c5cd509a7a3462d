"""Tribute (进贡), return (还贡) and anti-tribute (抗贡): seed 004 四.4, 四.5; I-12."""

from __future__ import annotations

import pytest

from referee.errors import InvalidRecordError

DOUBLE_DOWN = [{"type": "result", "order": [0, 2, 1, 3]}]  # seats 1 and 3 pay, 0 is first
SINGLE_DOWN = [{"type": "result", "order": [0, 1, 2, 3]}]  # seat 3 pays seat 0


def test_double_down_duties_and_level_004_s4_4(replay, ev):
    result = replay(DOUBLE_DOWN, [])
    assert result["deals"][0]["tribute_next"] == {
        "kind": "double_down", "payers": [1, 3], "receivers": [0, 2], "first": 0,
    }
    deal = result["deals"][1]
    assert deal["level"] == "5" and deal["on_table"] == 0 and deal["phase"] == "tribute"


def test_double_down_higher_tribute_to_first_and_its_payer_leads_004_s4_4(replay, ev, violations):
    events = [
        ev.tribute(1, 0, "BJ"), ev.tribute(3, 2, "AS"),
        ev.return_(0, 1, "3S"), ev.return_(2, 3, "4S"),
        ev.play(1, "6D"),
    ]
    result = replay(DOUBLE_DOWN, events)
    assert violations(result, 1) == []
    deal = result["deals"][1]
    assert deal["leader"] == 1
    assert deal["cards_left"] == [27, 26, 27, 27]


def test_double_down_higher_tribute_to_second_is_wrong_receiver_004_s4_4(replay, ev, violations):
    events = [
        ev.tribute(1, 2, "BJ"), ev.tribute(3, 0, "AS"),
        ev.return_(2, 1, "3S"), ev.return_(0, 3, "4S"),
        ev.play(1, "6D"),
    ]
    result = replay(DOUBLE_DOWN, events)
    assert violations(result, 1) == ["tribute_wrong_receiver"]
    assert result["deals"][1]["violations"][0]["event"] == 0


def test_double_down_lower_payer_leading_is_wrong_leader_004_s4_4(replay, ev, violations):
    events = [
        ev.tribute(1, 0, "BJ"), ev.tribute(3, 2, "AS"),
        ev.return_(0, 1, "3S"), ev.return_(2, 3, "4S"),
        ev.play(3, "6D"),
    ]
    assert violations(replay(DOUBLE_DOWN, events), 1) == ["wrong_leader"]


def test_equal_tributes_winners_choose_and_first_players_xiajia_leads_004_s4_4(replay, ev, violations):
    first_is_two = [{"type": "result", "order": [2, 0, 1, 3]}]
    events = [
        ev.tribute(1, 0, "AS"), ev.tribute(3, 2, "AD"),  # equal: any assignment
        ev.return_(0, 1, "3S"), ev.return_(2, 3, "4S"),
    ]
    result = replay(first_is_two, events)
    assert result["deals"][1]["leader"] == 3  # seat 2's 下家
    assert violations(replay(first_is_two, [*events, ev.play(3, "6D")]), 1) == []
    assert violations(replay(first_is_two, [*events, ev.play(1, "6D")]), 1) == ["wrong_leader"]


def test_single_down_last_pays_first_and_leads_004_s4_5(replay, ev, violations):
    result = replay(SINGLE_DOWN, [])
    assert result["deals"][0]["tribute_next"] == {
        "kind": "single_down", "payers": [3], "receivers": [0], "first": 0,
    }
    events = [ev.tribute(3, 0, "BJ"), ev.return_(0, 3, "10S"), ev.play(3, "6D")]
    result = replay(SINGLE_DOWN, events)
    assert violations(result, 1) == []
    assert result["deals"][1]["leader"] == 3


def test_single_down_when_partner_is_last_004_s4_5(replay, ev, violations):
    # order 0, 1, 3, 2: the first player's partner is last; the last player pays the first.
    result = replay([ev.result([0, 1, 3, 2])], [ev.tribute(2, 0, "BJ"), ev.return_(0, 2, "2S"), ev.play(2, "6D")])
    assert result["deals"][0]["outcome"]["levels_up"] == 1
    assert violations(result, 1) == []


def test_tribute_from_wrong_payer_004_s4_5(replay, ev, violations):
    events = [ev.tribute(1, 0, "BJ"), ev.return_(0, 1, "3S")]
    assert "tribute_wrong_payer" in violations(replay(SINGLE_DOWN, events), 1)
    # deal 1 owes no tribute at all
    assert violations(replay([ev.tribute(1, 0, "BJ")]), 0) == ["tribute_wrong_payer"]


def test_tribute_to_wrong_receiver_004_s4_5(replay, ev, violations):
    events = [ev.tribute(3, 2, "BJ"), ev.return_(2, 3, "3S"), ev.play(3, "6D")]
    assert violations(replay(SINGLE_DOWN, events), 1) == ["tribute_wrong_receiver"]


def test_return_above_ten_004_s4_4(replay, ev, violations):
    for card in ("JS", "AS", "SJ"):
        events = [ev.tribute(3, 0, "BJ"), ev.return_(0, 3, card), ev.play(3, "6D")]
        assert violations(replay(SINGLE_DOWN, events), 1) == ["return_too_high"], card
    events = [ev.tribute(3, 0, "BJ"), ev.return_(0, 3, "10D"), ev.play(3, "6D")]
    assert violations(replay(SINGLE_DOWN, events), 1) == []


def test_return_from_wrong_seat(replay, ev, violations):
    events = [ev.tribute(3, 0, "BJ"), ev.return_(2, 3, "3S"), ev.play(3, "6D")]
    assert violations(replay(SINGLE_DOWN, events), 1) == ["return_wrong_seat", "return_missing"]


def test_missing_tribute_is_reported_at_the_first_play(replay, ev, violations):
    result = replay(SINGLE_DOWN, [ev.play(3, "6D")])
    assert violations(result, 1) == ["tribute_missing"]


def test_tribute_after_play_started_is_invalid(replay, ev):
    with pytest.raises(InvalidRecordError) as caught:
        replay(SINGLE_DOWN, [ev.play(3, "6D"), ev.tribute(3, 0, "BJ")])
    assert (caught.value.deal, caught.value.event) == (2, 1)


def test_tribute_not_highest_proved_by_later_play_004_s4_5(replay, ev, violations):
    # Deal 2 is played at level 4 (side 0: 2 + 2). The payer gave an A but holds the ♠4.
    events = [ev.tribute(3, 0, "AS"), ev.return_(0, 3, "3S"), ev.play(3, "6D"),
              *ev.passes(0, 1, 2), ev.play(3, "4S")]
    result = replay(SINGLE_DOWN, events)
    assert result["deals"][1]["level"] == "4"
    assert violations(result, 1) == ["tribute_not_highest"]
    found = result["deals"][1]["violations"][0]
    assert (found["event"], found["seat"], found["proof_event"]) == (0, 3, 6)


def test_tribute_highest_excludes_heart_level_wild_i12(replay, ev, violations):
    events = [ev.tribute(3, 0, "AS"), ev.return_(0, 3, "3S"), ev.play(3, "4H")]
    assert violations(replay(SINGLE_DOWN, events), 1) == []
    result = replay(SINGLE_DOWN, events, options={"guandan_tribute_excludes_wild": False})
    assert violations(result, 1) == ["tribute_not_highest"]


def test_tribute_hindsight_ignores_the_returned_card(replay, ev, violations):
    events = [ev.tribute(3, 0, "9S"), ev.return_(0, 3, "10S"), ev.play(3, "10S")]
    assert violations(replay(SINGLE_DOWN, events), 1) == []
    events = [ev.tribute(3, 0, "9S"), ev.return_(0, 3, "10S"), ev.play(3, "10D")]
    assert violations(replay(SINGLE_DOWN, events), 1) == ["tribute_not_highest"]


def test_anti_tribute_single_down_two_big_jokers_first_leads_004_s4_5(replay, ev, violations):
    result = replay(SINGLE_DOWN, [ev.anti(3, "BJ BJ"), ev.play(0, "6D")])
    assert violations(result, 1) == []
    deal = result["deals"][1]
    assert deal["leader"] == 0 and deal["anti_tribute"] == {"seats": [3], "valid": True}
    assert deal["cards_left"] == [26, 27, 27, 27]


def test_anti_tribute_single_down_needs_both_jokers_in_payers_hand_004_s4_5(replay, ev, violations):
    result = replay(SINGLE_DOWN, [ev.anti(3, "BJ"), ev.anti(1, "BJ"), ev.play(0, "6D")])
    kinds = violations(result, 1)
    assert "anti_tribute_invalid" in kinds and "tribute_missing" in kinds


def test_anti_tribute_double_down_one_player_both_jokers_004_s4_4(replay, ev, violations):
    result = replay(DOUBLE_DOWN, [ev.anti(1, "BJ BJ"), ev.play(0, "6D")])
    assert violations(result, 1) == []
    assert result["deals"][1]["leader"] == 0


def test_anti_tribute_double_down_one_joker_each_004_s4_4(replay, ev, violations):
    result = replay(DOUBLE_DOWN, [ev.anti(1, "BJ"), ev.anti(3, "BJ"), ev.play(0, "6D")])
    assert violations(result, 1) == []
    deal = result["deals"][1]
    assert deal["anti_tribute"] == {"seats": [1, 3], "valid": True}
    assert violations(replay(DOUBLE_DOWN, [ev.anti(1, "BJ"), ev.anti(3, "BJ"), ev.play(1, "6D")]), 1) == [
        "wrong_leader"
    ]


def test_anti_tribute_with_one_joker_is_invalid_004_s4_4(replay, ev, violations):
    result = replay(DOUBLE_DOWN, [ev.anti(1, "BJ"), ev.play(0, "6D")])
    assert "anti_tribute_invalid" in violations(result, 1)


def test_anti_tribute_single_down_side_option(replay, ev, violations):
    events = [ev.anti(3, "BJ"), ev.anti(1, "BJ"), ev.play(0, "6D")]
    result = replay(SINGLE_DOWN, events, options={"guandan_single_down_anti_tribute": "side"})
    assert violations(result, 1) == []
    assert result["deals"][1]["anti_tribute"] == {"seats": [1, 3], "valid": True}


def test_phase_is_playing_once_tributes_and_returns_are_in_004_s4_4(replay, ev):
    """Seed 004 四.4: after 进贡 and 还贡 the deal is played; the phase says so before the lead."""
    events = [
        ev.tribute(1, 0, "BJ"), ev.tribute(3, 2, "AS"),
        ev.return_(0, 1, "3S"), ev.return_(2, 3, "4S"),
    ]
    for keep, phase in ((1, "tribute"), (2, "tribute"), (3, "tribute"), (4, "playing")):
        deal = replay(DOUBLE_DOWN, events[:keep])["deals"][1]
        assert deal["phase"] == phase, keep
    deal = replay(DOUBLE_DOWN, events)["deals"][1]
    assert (deal["next_to_play"], deal["leader"]) == (1, 1)


def test_phase_is_playing_after_single_down_return_004_s4_5(replay, ev):
    deal = replay(SINGLE_DOWN, [ev.tribute(3, 0, "BJ")])["deals"][1]
    assert deal["phase"] == "tribute"
    deal = replay(SINGLE_DOWN, [ev.tribute(3, 0, "BJ"), ev.return_(0, 3, "3S")])["deals"][1]
    assert (deal["phase"], deal["next_to_play"]) == ("playing", 3)


def test_phase_is_playing_after_valid_anti_tribute_004_s4_5(replay, ev, violations):
    result = replay(SINGLE_DOWN, [ev.anti(3, "BJ BJ")])
    deal = result["deals"][1]
    assert (deal["phase"], deal["next_to_play"]) == ("playing", 0)
    assert violations(result, 1) == []
    deal = replay(DOUBLE_DOWN, [ev.anti(1, "BJ")])["deals"][1]
    assert deal["phase"] == "tribute"  # one big joker cancels nothing
