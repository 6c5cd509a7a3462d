"""Checking one new call before it is logged: verify_call / can_call / legal_calls."""

from __future__ import annotations

from collections import Counter

import pytest

from referee.cards import parse_cards
from referee.errors import IllegalPlayError, InvalidRecordError
from referee.rulebooks import find_rulebook
from referee.shengji.declaration import DealSetup, can_call, legal_calls, verify_call
from referee.shengji.events import parse_event, parse_events


def test_verify_call_names_the_rule_000_art13() -> None:
    """000 第十三条二: 反主只能反别人 — the tablet is told which rule, by rule_id."""
    rulebook = find_rulebook("union-2deck")
    events = parse_events([{"type": "declare", "seat": 0, "cards": ["2S"]}], 1)
    own = parse_event({"type": "overcall", "seat": 0, "cards": ["2H", "2H"]}, 1)
    with pytest.raises(IllegalPlayError) as caught:
        verify_call(rulebook, DealSetup(1, ("2", "2")), events, own)
    assert caught.value.rule_id == "shengji.overcall.self" and caught.value.params["event"] == 1
    other = parse_event({"type": "overcall", "seat": 1, "cards": ["2H", "2H"]}, 1)
    verify_call(rulebook, DealSetup(1, ("2", "2")), events, other)
    assert can_call(rulebook, DealSetup(1, ("2", "2")), events, other)
    assert not can_call(rulebook, DealSetup(1, ("2", "2")), events, own)


def test_verify_call_ignores_earlier_violations_000_art13() -> None:
    """Earlier findings are already on the sheet; only the new event is judged."""
    rulebook = find_rulebook("union-2deck")
    events = parse_events([{"type": "declare", "seat": 0, "cards": ["7S"]}], 2)
    new = parse_event({"type": "declare", "seat": 1, "cards": ["2S"]}, 1)
    assert can_call(rulebook, DealSetup(2, ("2", "2"), dealer=0), events, new)


def test_can_call_false_for_an_impossible_bury_000_art3() -> None:
    """000 第三条: a bury is 8 cards; 7 cannot be logged."""
    rulebook = find_rulebook("union-2deck")
    bury = parse_event({"type": "bury", "seat": 0, "cards": "3C 4C 6C 7C 8C 9C 3D"}, 0)
    assert not can_call(rulebook, DealSetup(2, ("2", "2"), dealer=0), [], bury)
    with pytest.raises(InvalidRecordError):
        verify_call(rulebook, DealSetup(2, ("2", "2"), dealer=0), [], bury)


def test_legal_calls_for_the_shuangsheng_grab_001_s3_1() -> None:
    """001 三.1: level card + matching joker, or the pair + joker (定主); never a joker pair."""
    calls = legal_calls(find_rulebook("shuangsheng-17"), DealSetup(1, ("2", "2")), [], 0)
    assert {kind for kind, _ in calls} == {"declare"}
    assert len(calls) == 8 and all(any(c.is_joker for c in cards) for _, cards in calls)
    assert parse_cards("SJ SJ") not in [cards for _, cards in calls]


def test_legal_calls_respect_the_hand_and_the_standing_call_000_art13() -> None:
    """000 第十三条二: after a single ♠2, a player holding 2♥ 2♥ may overcall with them."""
    rulebook = find_rulebook("union-2deck")
    events = parse_events([{"type": "declare", "seat": 0, "cards": ["2S"]}], 1)
    hand = Counter(parse_cards("2H 2H 2D 5C"))
    calls = legal_calls(rulebook, DealSetup(1, ("2", "2")), events, 1, hand)
    assert calls == [("overcall", parse_cards("2H 2H"))]
    assert legal_calls(rulebook, DealSetup(1, ("2", "2")), events, 0, hand) == []


def test_legal_calls_after_a_flip_are_none_003_s4() -> None:
    """003 四: after the flip 任何人不能再反主."""
    rulebook = find_rulebook("shuangkou-simple")
    events = parse_events([{"type": "flip", "card": "9H"}], 1)
    assert legal_calls(rulebook, DealSetup(1, ("2", "2"), first_drawer=0), events, 1) == []
