"""The simulated declaration phase is legal, conserves the 108 cards and is deterministic."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import Card, two_decks
from referee.rulebooks import PRESETS
from referee.shengji.declaration import (
    DealSetup,
    resolve_declarations,
    simulate_declaration_phase,
    simulate_declarations,
)
from referee.shengji.events import parse_events

SHENGJI = ["union-2deck", "shuangsheng-17", "eighty-rr", "shuangkou-simple"]
LEVELS = ["2", "3", "5", "10", "A"]


def deal_cards(seed: int) -> tuple[list[Counter[Card]], list[Card]]:
    deck = two_decks()
    random.Random(seed).shuffle(deck)
    return [Counter(deck[25 * i : 25 * (i + 1)]) for i in range(4)], deck[100:]


def setup_for(name: str, number: int, levels: tuple[str, str], seat: int) -> DealSetup:
    grab = number == 1 and PRESETS[name].first_dealer == "grab"
    return DealSetup(number, levels, dealer=None if grab else seat, first_drawer=seat)


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(SHENGJI),
    seed=st.integers(0, 10**6),
    number=st.integers(1, 3),
    levels=st.tuples(st.sampled_from(LEVELS), st.sampled_from(LEVELS)),
    seat=st.integers(0, 3),
)
def test_simulated_declarations_replay_clean_and_conserve_cards(
    name: str, seed: int, number: int, levels: tuple[str, str], seat: int
) -> None:
    """Invariant: a simulated phase replays without violations; 108 cards conserved (§1)."""
    rulebook = PRESETS[name]
    hands, bottom = deal_cards(seed)
    setup = setup_for(name, number, levels, seat)
    result = simulate_declaration_phase(rulebook, setup, hands, bottom, random.Random(seed))
    if result.redeal:
        assert result.events == [] and rulebook.nobody_declares == "redeal"
        return
    out = resolve_declarations(rulebook, setup, parse_events(result.events, number))
    assert out.violations == ()
    assert (out.dealer, out.trump_suit, out.level, out.phase) == (
        result.dealer,
        result.trump_suit,
        result.level,
        "ready",
    )
    assert [sum(hand.values()) for hand in result.hands] == [25, 25, 25, 25]
    total = sum(result.hands, Counter()) + Counter(out.bottom)
    assert total == Counter(two_decks())
    for shown_seat, cards in out.declared.items():  # shown cards stay in the hand to be played
        assert not Counter(cards) - result.hands[shown_seat]


@pytest.mark.parametrize("name", SHENGJI)
def test_simulation_is_deterministic_per_seed(name: str) -> None:
    """Replay is deterministic: the same seed gives the same events."""
    hands, bottom = deal_cards(7)
    setup = setup_for(name, 1, ("2", "2"), 0)
    first = simulate_declarations(PRESETS[name], setup, hands, bottom, random.Random(7))
    second = simulate_declarations(PRESETS[name], setup, hands, bottom, random.Random(7))
    assert first == second
    assert first[0] and first[0][-1]["type"] == "bury"


@pytest.mark.parametrize("name", SHENGJI)
def test_simulation_covers_overcalls_and_flips(name: str) -> None:
    """Across seeds the simulator produces declarations, overcalls and (where used) flips."""
    kinds: Counter[str] = Counter()
    for seed in range(40):
        hands, bottom = deal_cards(seed)
        setup = setup_for(name, 1 + seed % 2, ("2", "2"), seed % 4)
        events = simulate_declarations(PRESETS[name], setup, hands, bottom, random.Random(seed))[0]
        kinds.update(event["type"] for event in events)
    assert kinds["declare"] and kinds["overcall"] and kinds["bury"] >= 38
    if PRESETS[name].overcall_takes_bottom_later:
        assert kinds["bury"] > 40  # some 反主抄底 re-buries
