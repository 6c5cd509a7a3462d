"""Shengji trick speed: one trick evaluation (target ≤ 50 µs median) and the hindsight checks
of a 25-trick deal, on tricks from simulated legal play (random_lead + legal_follow)."""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from typing import Any

from referee.cards import NATURAL_RANKS, SUITS, parse_cards, two_decks
from referee.rulebooks import find_rulebook
from referee.shengji.events import Trick
from referee.shengji.follow import hindsight_violations, legal_follow, random_lead
from referee.shengji.order import TrumpContext
from referee.shengji.tricks import classify_lead, evaluate_trick

# Seed 002 3.6.2's over-ruff examples and a tractor throw ruffed twice (trump ♥, level 2).
FIXED = {
    "seed002_ex1_singles_throw": ("AS KS 10S 9S", "SJ 8H 7H 4H", "BJ 3H 2H 5H", "3S 4S 5S 6S"),
    "seed002_ex2_pair_throw": ("10S 10S AS QS JS", "7H 7H SJ 5H 6H", "9H 9H BJ 4H 3H",
                               "3S 4S 5S 6S 8S"),
    "tractor_throw_two_ruffs": ("AS AS KS KS 9S", "3H 3H 4H 4H 5H", "3S 4S 5S 6S 8S",
                                "6H 6H 7H 7H 8H"),
}
DEALS = 40
REPEAT = 50


def simulated_deal(seed: int) -> tuple[TrumpContext, list[Trick]]:
    """25 tricks of random legal play from a random deal."""
    rng = random.Random(seed)
    ctx = TrumpContext.of(rng.choice(NATURAL_RANKS), rng.choice([*SUITS, None]))
    deck = two_decks()
    rng.shuffle(deck)
    hands = [Counter(deck[i * 25 : (i + 1) * 25]) for i in range(4)]
    leader = rng.randrange(4)
    tricks: list[Trick] = []
    for t in range(25):
        others = [hands[(leader + k) % 4] for k in (1, 2, 3)]
        lead = random_lead(ctx, hands[leader], others, rng)
        plays = [lead] + [legal_follow(ctx, lead, hands[(leader + k) % 4], rng) for k in (1, 2, 3)]
        for k, play in enumerate(plays):
            hands[(leader + k) % 4] -= Counter(play)
        trick = Trick(t, leader, tuple(plays))
        tricks.append(trick)
        leader = evaluate_trick(ctx, leader, trick.plays).winner
        if not hands[leader]:
            break
    return ctx, tricks


def _per_call_us(fn: Any, repeat: int, bursts: int = 5) -> float:
    """µs per call: the best of `bursts` bursts (the machine is shared; the best is the cost)."""
    best = float("inf")
    for _ in range(bursts):
        start = time.perf_counter_ns()
        for _ in range(repeat):
            fn()
        best = min(best, (time.perf_counter_ns() - start) / repeat / 1000)
    return best


def main() -> dict[str, float]:
    """Print and return the medians (µs) per trick, per lead kind, and per deal's hindsight."""
    deals = [simulated_deal(seed) for seed in range(DEALS)]
    per_trick: list[float] = []
    by_kind: dict[str, list[float]] = {}
    for ctx, tricks in deals:
        for trick in tricks:
            plays = trick.plays
            leader = trick.leader
            us = _per_call_us(lambda: evaluate_trick(ctx, leader, plays), REPEAT)  # noqa: B023
            per_trick.append(us)
            by_kind.setdefault(classify_lead(ctx, plays[0]).kind, []).append(us)
    rulebook = find_rulebook("union-2deck")
    hindsight = [
        _per_call_us(lambda: hindsight_violations(ctx, rulebook, tricks, {}), 5)  # noqa: B023
        for ctx, tricks in deals
    ]
    hearts = TrumpContext.of(NATURAL_RANKS[0], SUITS[1])
    for name, texts in FIXED.items():
        fixed = [parse_cards(t) for t in texts]
        by_kind.setdefault(name, []).append(
            _per_call_us(lambda: evaluate_trick(hearts, 0, fixed), REPEAT)  # noqa: B023
        )
    figures = {
        "trick_median_us": statistics.median(per_trick),
        "trick_p90_us": statistics.quantiles(per_trick, n=10)[-1],
        "trick_max_us": max(per_trick),
        "hindsight_deal_median_us": statistics.median(hindsight),
        "tricks": float(len(per_trick)),
    }
    for kind, values in sorted(by_kind.items()):
        figures[f"{kind}_median_us"] = statistics.median(values)
        figures[f"{kind}_count"] = float(len(values))
    print(f"shengji tricks: {len(per_trick)} tricks from {DEALS} simulated deals")
    for name, value in figures.items():
        print(f"  {name:40s} {value:10.1f}")
    return figures


if __name__ == "__main__":
    main()
