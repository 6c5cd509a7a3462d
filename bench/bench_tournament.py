"""Tournament speed: pairing a 200-pair eighty-rr round (≤ 1 s), standings of 200 × 9 (≤ 100 ms)."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from referee.tournament import (
    MatchFacts,
    Pairing,
    PlayedMatch,
    draw_first_round,
    pair_by_standing,
    standings,
)

PAIRS = 200
ROUNDS = 9


def _event(seed: int) -> tuple[list[list[Pairing]], list[PlayedMatch]]:
    """A 200-pair, 9-round eighty-rr event with random deal points, paired by standing."""
    rng = random.Random(seed)
    pairs = list(range(1, PAIRS + 1))
    history: list[list[Pairing]] = [draw_first_round(pairs, seed)]
    played: list[PlayedMatch] = []
    for round_number in range(1, ROUNDS + 1):
        for p in history[-1]:
            if p.away is None:
                played.append(PlayedMatch(round_number, p.home, None, None))
                continue
            dp = (rng.randint(0, 12), rng.randint(0, 12))
            winner = 0 if dp[0] > dp[1] else 1 if dp[1] > dp[0] else None
            played.append(PlayedMatch(round_number, p.home, p.away, MatchFacts(winner, deal_points=dp)))
        if round_number < ROUNDS:
            ranking = [row.pair for row in standings(pairs, played, "eighty")]
            history.append(pair_by_standing(ranking, history))
    return history, played


def _best(fn: Any, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def main() -> dict[str, float]:
    """Print and return the figures (seconds)."""
    history, played = _event(2026)
    pairs = list(range(1, PAIRS + 1))
    ranking = [row.pair for row in standings(pairs, played, "eighty")]
    # pair round 10 of a 200-pair event after 9 rounds (the hardest: most opponents met)
    pair_best, pair_median = _best(lambda: pair_by_standing(ranking, history), 5)
    first_best, _ = _best(lambda: draw_first_round(pairs, 7), 5)
    stand_best, stand_median = _best(lambda: standings(pairs, played, "eighty"), 20)
    shuangkou_best, _ = _best(lambda: standings(pairs, played, "shuangkou"), 20)
    figures = {
        "pair_round_200_after_9_s": pair_best,
        "pair_round_200_after_9_median_s": pair_median,
        "draw_round1_200_s": first_best,
        "standings_200x9_s": stand_best,
        "standings_200x9_median_s": stand_median,
        "standings_200x9_shuangkou_s": shuangkou_best,
    }
    for name, value in figures.items():
        print(f"{name:36s} {value * 1000:9.2f} ms")
    return figures


if __name__ == "__main__":
    main()
