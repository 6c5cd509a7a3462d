"""Invariants over simulated matches (hypothesis): 108 cards conserved, 200 points per deal,
simulated deals are clean, replay is deterministic, events print back as they were read."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cards import parse_card, two_decks
from referee.record import replay_document
from referee.rulebooks import find_rulebook
from referee.shengji.events import event_to_json, parse_events
from referee.shengji.simulate import simulate_match

RULEBOOKS = ["union-2deck", "shuangsheng-17", "eighty-rr", "shuangkou-simple"]
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

matches = st.builds(
    lambda rulebook, seed, deals: (rulebook, simulate_match(find_rulebook(rulebook), seed, deals)),
    st.sampled_from(RULEBOOKS),
    st.integers(min_value=0, max_value=2**32),
    st.integers(min_value=1, max_value=3),
)


def played_cards(deal: dict[str, Any]) -> Counter[str]:
    cards: Counter[str] = Counter()
    for event in deal["events"]:
        if event["type"] == "trick":
            for play in event["plays"]:
                cards.update(play)
    return cards


@SETTINGS
@given(matches)
def test_108_cards_conserved_in_every_deal(match: tuple[str, dict[str, Any]]) -> None:
    """§1: two decks, 108 cards: the 100 played and the 8 of the final bottom."""
    _, doc = match
    result = replay_document(doc)
    for deal, replayed in zip(doc["deals"], result["deals"], strict=True):
        if replayed["phase"] == "redeal":
            continue
        cards = played_cards(deal) + Counter(replayed["bottom_cards"])
        assert cards == Counter(str(card) for card in two_decks())


@SETTINGS
@given(matches)
def test_captured_plus_dealer_points_plus_bottom_is_200(match: tuple[str, dict[str, Any]]) -> None:
    """§1: 200 points in the two decks: defenders' tricks + dealer side's tricks + bottom."""
    _, doc = match
    for deal in replay_document(doc)["deals"]:
        if deal["phase"] == "redeal":
            continue
        dealer_side = deal["dealer"] % 2
        dealer_points = sum(t["points"] for t in deal["tricks"] if t["winner"] % 2 == dealer_side)
        assert deal["captured"] + dealer_points + deal["bottom"]["points"] == 200


@SETTINGS
@given(matches)
def test_simulated_deals_have_no_violations(match: tuple[str, dict[str, Any]]) -> None:
    """The simulator plays only legal cards: the referee finds nothing."""
    _, doc = match
    for deal in replay_document(doc)["deals"]:
        assert deal["violations"] == [], deal["violations"]
        assert deal["phase"] in ("finished", "redeal")


@SETTINGS
@given(matches)
def test_replay_is_deterministic(match: tuple[str, dict[str, Any]]) -> None:
    """Replaying the same record twice (and after a JSON round trip) gives the same result."""
    _, doc = match
    first = replay_document(doc)
    second = replay_document(json.loads(json.dumps(doc)))
    assert first == second


@SETTINGS
@given(matches)
def test_events_print_back_as_read(match: tuple[str, dict[str, Any]]) -> None:
    """parse ∘ print is the identity on every simulated event."""
    _, doc = match
    for number, deal in enumerate(doc["deals"], start=1):
        events = parse_events(deal["events"], number)
        assert [event_to_json(e) for e in events] == deal["events"]


@SETTINGS
@given(st.sampled_from(RULEBOOKS), st.integers(min_value=0, max_value=2**32))
def test_simulation_is_deterministic_per_seed(rulebook: str, seed: int) -> None:
    """`simulate --seed N` is a pure function of the seed."""
    book = find_rulebook(rulebook)
    assert simulate_match(book, seed, 1) == simulate_match(book, seed, 1)


def test_levels_only_move_by_the_promotion_table() -> None:
    """Across a whole simulated match each deal's levels_after is the next deal's start."""
    doc = simulate_match(find_rulebook("union-2deck"), 21, 6)
    result = replay_document(doc)
    levels = ["2", "2"]
    for deal in result["deals"]:
        if deal["phase"] == "redeal":
            continue
        assert deal["level"] == levels[deal["dealer"] % 2]
        levels = deal["levels_after"]
    assert result["match"]["levels"] == levels
    assert parse_card(result["deals"][0]["bottom_cards"][0])


MUTATIONS = st.lists(
    st.tuples(st.integers(0, 6), st.integers(0, 10_000), st.integers(0, 10_000)),
    min_size=1,
    max_size=4,
)


def _mutate(doc: dict[str, Any], steps: list[tuple[int, int, int]]) -> None:
    for op, a, b in steps:
        deal = doc["deals"][a % len(doc["deals"])]
        events = deal["events"]
        if not events:
            continue
        j, k = a % len(events), b % len(events)
        event = events[j]
        if op == 0:
            del events[j]
        elif op == 1:
            events.insert(k, json.loads(json.dumps(event)))
        elif op == 2:
            events[j], events[k] = events[k], events[j]
        elif op == 3 and event["type"] == "trick":
            event["leader"] = b % 4
        elif op == 4 and event["type"] == "trick" and event["plays"][b % 4]:
            event["plays"][b % 4].pop()
        elif op == 5:
            kinds = ["failed_throw", "wrong_follow", "hidden_card", "card_count", "talking"]
            events.insert(j, {"type": "penalty", "seat": b % 4, "kind": kinds[b % 5]})
        elif op == 6:
            deal["events"] = events[:j]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULEBOOKS), st.integers(0, 50), MUTATIONS)
def test_mutated_records_replay_or_are_invalid_never_crash(
    rulebook: str, seed: int, steps: list[tuple[int, int, int]]
) -> None:
    """Dropped, repeated, swapped or cut events: a result or InvalidRecordError, nothing else."""
    from referee.errors import InvalidRecordError

    doc = simulate_match(find_rulebook(rulebook), seed, 2)
    _mutate(doc, steps)
    try:
        result = replay_document(doc)
    except InvalidRecordError as error:
        assert str(error)
    else:
        assert result["format"] == "table-result/1"
