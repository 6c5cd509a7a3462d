"""Penalties (seed 004 六.4 time, 六.6 报牌, 九 错牌/暴露张/越序, 九.4 disqualification)."""

from __future__ import annotations

RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def lead_pairs(ev, seat: int, suit: str, ranks: list[str]) -> list[dict]:
    """`seat` leads a pair of each rank (two copies of one card); the others pass."""
    others = [(seat + k) % 4 for k in (1, 2, 3)]
    events = []
    for rank in ranks:
        events.append(ev.play(seat, f"{rank}{suit} {rank}{suit}"))
        events.extend(ev.passes(*others))
    return events


def test_one_time_violation_costs_nothing_004_s6_4(replay, ev):
    res = replay([ev.penalty(0, "timeout"), ev.result([1, 3, 0, 2])], levels=["5", "2"])
    deal = res["deals"][0]
    assert deal["penalties"][0]["effect"] == "recorded"
    assert deal["levels_after"] == ["5", "5"]


def test_two_time_violations_drop_the_side_a_level_004_s6_4(replay, ev):
    events = [ev.penalty(0, "timeout"), ev.penalty(2, "timeout", note="tribute 50 s")]
    res = replay([*events, ev.result([1, 3, 0, 2])], levels=["5", "2"])
    deal = res["deals"][0]
    assert [p["effect"] for p in deal["penalties"]] == ["recorded", "level_drop"]
    assert deal["penalties"][1]["note"] == "tribute 50 s"
    assert deal["levels_after"] == ["4", "5"]


def test_time_violations_add_up_across_deals_004_s6_4(replay, ev):
    res = replay(
        [ev.penalty(1, "timeout"), ev.result([1, 3, 0, 2])],
        [ev.penalty(3, "timeout"), ev.result([1, 3, 0, 2])],
        levels=["5", "2"],
    )
    assert res["deals"][1]["penalties"][0]["effect"] == "level_drop"
    assert res["match"]["levels"] == ["5", "7"]  # 2 + 3 − 1 + 3


def test_level_never_drops_below_two(replay, ev):
    res = replay([ev.penalty(0, "timeout"), ev.penalty(0, "timeout")])
    assert res["deals"][0]["levels_after"] == ["2", "2"]


def test_no_report_take_back_of_the_last_play_004_s6_6(replay, ev):
    events = lead_pairs(ev, 0, "S", RANKS[:10])  # 7 cards left
    events += [ev.play(0, "KS KS"), ev.penalty(0, "no_report")]
    deal = replay(events)["deals"][0]
    assert deal["penalties"][0]["effect"] == "take_back"
    assert deal["cards_left"][0] == 7
    assert deal["next_to_play"] == 0
    assert deal["plays"][-1]["taken_back"] is True
    # The cards are back in the hand and may be played again.
    deal = replay([*events, ev.play(0, "KS KS"), ev.report(0, 5)])["deals"][0]
    assert deal["violations"] == [] and deal["cards_left"][0] == 5


def test_no_report_after_two_plays_drops_a_level_004_s6_6(replay, ev):
    events = lead_pairs(ev, 0, "S", RANKS[:10])
    events += [ev.play(0, "KS KS"), *ev.passes(1, 2, 3), ev.play(0, "AS AS"), ev.penalty(0, "no_report")]
    deal = replay(events, levels=["6", "2"])["deals"][0]
    assert deal["penalties"][0]["effect"] == "level_drop"
    assert deal["levels_after"] == ["5", "2"]
    assert deal["cards_left"][0] == 3


def test_no_report_when_reported_has_no_effect_004_s6_6(replay, ev):
    events = lead_pairs(ev, 0, "S", RANKS[:10])
    events += [ev.play(0, "KS KS"), ev.report(0, 5), ev.penalty(0, "no_report")]
    deal = replay(events)["deals"][0]
    assert deal["penalties"][0]["effect"] == "none"
    assert deal["cards_left"][0] == 5


def test_no_report_take_back_declined(replay, ev):
    events = lead_pairs(ev, 0, "S", RANKS[:10])
    events += [ev.play(0, "KS KS"), ev.penalty(0, "no_report", take_back=False)]
    assert replay(events)["deals"][0]["cards_left"][0] == 5


def test_wrong_report_count_is_a_violation(replay, ev, violations):
    events = lead_pairs(ev, 0, "S", RANKS[:10]) + [ev.play(0, "KS KS"), ev.report(0, 4)]
    assert violations(replay(events)) == ["wrong_report"]


def test_wrong_play_skips_one_round_004_s9_1(replay, ev, violations):
    events = [ev.play(0, "5S"), ev.play(1, "4S"), ev.penalty(1, "wrong_play"),
              ev.play(2, "6S"), ev.pass_(3), ev.play(0, "7S")]
    res = replay(events)
    assert violations(res) == ["does_not_beat"]
    deal = res["deals"][0]
    assert deal["penalties"][0]["effect"] == "skip_round"
    assert deal["next_to_play"] == 2  # seat 1's turn is passed over
    # The referee may still log the skipped turn as a pass: no out-of-turn.
    res = replay([*events, ev.pass_(1), ev.play(2, "8S")])
    assert violations(res) == ["does_not_beat"]


def test_dropped_card_and_out_of_turn_skip_one_round_004_s9_2_s9_3(replay, ev):
    for kind in ("dropped_card", "out_of_turn"):
        events = [ev.play(0, "5S"), ev.penalty(1, kind), ev.play(2, "6S")]
        deal = replay(events)["deals"][0]
        # Seat 1 was to play when the penalty came: its turn is skipped at once.
        assert deal["violations"] == [], kind
        assert deal["next_to_play"] == 3


def test_skipped_leader_hands_the_lead_on(replay, ev):
    events = [ev.play(0, "5S"), *ev.passes(1, 2), ev.penalty(0, "wrong_play"), ev.pass_(3)]
    deal = replay(events)["deals"][0]
    assert deal["next_to_play"] == 1


def test_three_fouls_disqualify_004_s9_4(replay, ev):
    events = [ev.penalty(1, "dropped_card"), ev.penalty(1, "out_of_turn")]
    res = replay(events)
    assert res["match"]["finished"] is False
    res = replay([*events, ev.penalty(1, "wrong_play")])
    deal = res["deals"][0]
    assert deal["penalties"][-1]["effect"] == "disqualified"
    assert deal["disqualified"] == 1 and deal["phase"] == "abandoned"
    assert (res["match"]["finished"], res["match"]["winner"], res["match"]["reason"]) == (
        True, 0, "disqualified",
    )


def test_fouls_add_up_across_deals_004_s9_4(replay, ev):
    res = replay(
        [ev.penalty(2, "talking"), ev.penalty(2, "other"), ev.result([0, 1, 2, 3])],
        [ev.penalty(2, "dropped_card")],
    )
    assert res["match"]["winner"] == 1
    assert res["match"]["reason"] == "disqualified"


def test_fouls_of_different_players_do_not_add_up(replay, ev):
    events = [ev.penalty(1, "dropped_card"), ev.penalty(3, "out_of_turn"), ev.penalty(1, "talking")]
    assert replay(events)["match"]["finished"] is False
