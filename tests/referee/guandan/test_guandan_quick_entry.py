"""Quick entry (RECORD_FORMAT.md `result`): the finishing order alone gives the same
promotion, levels, A counts and next tribute duties as the deal played card by card."""

from __future__ import annotations

import pytest

from referee.errors import InvalidRecordError
from referee.guandan import replay_guandan, simulate_guandan

SAME = ("order", "outcome", "levels_after", "tribute_next", "a_attempts", "a_series", "level", "on_table")


@pytest.mark.parametrize("seed", [2, 11])
def test_quick_entry_matches_played_deals_004_s5_2(rulebook, seed):
    doc = simulate_guandan(rulebook, seed)
    played = replay_guandan(rulebook, doc)
    quick_doc = dict(doc)
    quick_doc["deals"] = [
        {"events": [{"type": "result", "order": deal["order"]}]} for deal in played["deals"]
    ]
    quick = replay_guandan(rulebook, quick_doc)
    for full, short in zip(played["deals"], quick["deals"], strict=True):
        assert {k: full[k] for k in SAME} == {k: short[k] for k in SAME}
        assert short["violations"] == [] and short["quick_entry"] is True
    assert played["match"] == quick["match"]


def test_short_order_for_double_down_is_completed(replay):
    deal = replay([{"type": "result", "order": [1, 3]}])["deals"][0]
    assert deal["order"][:2] == [1, 3] and sorted(deal["order"][2:]) == [0, 2]
    assert deal["outcome"] == {"side": 1, "levels_up": 3, "passed_a": False}


def test_three_seats_complete_the_order(replay):
    deal = replay([{"type": "result", "order": [1, 0, 3]}])["deals"][0]
    assert deal["order"] == [1, 0, 3, 2]


def test_short_order_that_does_not_end_the_deal_is_invalid(replay):
    with pytest.raises(InvalidRecordError):
        replay([{"type": "result", "order": [1, 0]}])


def test_result_after_some_plays_must_agree_with_seats_out(replay, ev):
    events = []
    for rank in ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]:
        events += [ev.play(0, f"{rank}S {rank}S"), *ev.passes(1, 2, 3)]
    events.append(ev.play(0, "BJ"))  # seat 0 is out first
    assert replay([*events, ev.result([0, 2, 1, 3])])["deals"][0]["order"] == [0, 2, 1, 3]
    with pytest.raises(InvalidRecordError) as caught:
        replay([*events, ev.result([1, 0, 2, 3])])
    assert caught.value.event == len(events)


def test_result_after_partial_play_keeps_the_tribute_record(replay, ev, violations):
    first = [ev.result([0, 1, 2, 3])]
    second = [ev.tribute(3, 0, "BJ"), ev.return_(0, 3, "3S"), ev.play(3, "4D"), ev.result([1, 3, 0, 2])]
    res = replay(first, second)
    assert violations(res, 1) == []
    assert res["deals"][1]["outcome"]["side"] == 1


def test_confirming_result_after_play_is_accepted(replay, ev):
    events = []
    for rank in ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]:
        events += [ev.play(0, f"{rank}S {rank}S"), *ev.passes(1, 2, 3)]
    events.append(ev.play(0, "BJ"))
    events += [*ev.passes(1, 2, 3)]
    for rank in ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]:
        events += [ev.play(2, f"{rank}C {rank}C"), *ev.passes(3, 1)]
    events.append(ev.play(2, "SJ"))
    deal = replay([*events, ev.result([0, 2])])["deals"][0]
    assert deal["order"][:2] == [0, 2] and deal["quick_entry"] is False
    with pytest.raises(InvalidRecordError):
        replay([*events, ev.result([2, 0])])
