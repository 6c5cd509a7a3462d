"""Guandan engine speed: classify + compare per play (target ≤ 20 µs median) and a whole
simulated deal replayed (target ≤ 3 ms), on plays from simulated legal matches.

`_cold` figures clear the readings cache first (every play classified from scratch);
the plain figures are what a live table sees (the cache holds recent plays).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from referee.cards import Card, Rank, parse_cards
from referee.guandan import replay_guandan, simulate_guandan
from referee.guandan.combos import Combo, choose_reading, clear_readings_cache, readings
from referee.rulebooks import find_rulebook

MATCHES = 8
REPEAT = 50


def _plays(result: dict[str, Any]) -> list[tuple[tuple[Card, ...], Rank, Combo | None]]:
    """(cards, level, combo on the table) for every play of a replayed match."""
    found = []
    for deal in result["deals"]:
        level = Rank(deal["level"])
        table: Combo | None = None
        holder = None
        for play in deal["plays"]:
            cards = parse_cards(play["cards"])
            if play["seat"] == holder:
                table = None  # everyone passed: a new lead
            found.append((cards, level, table))
            combo, _ = choose_reading(readings(cards, level), table)
            table, holder = combo, play["seat"]
    return found


def main() -> dict[str, float]:
    """Print and return the medians: µs per play (warm, cold) and ms per deal (warm, cold)."""
    rulebook = find_rulebook("guandan-lyg")
    docs = [simulate_guandan(rulebook, seed) for seed in range(MATCHES)]
    plays = [p for doc in docs for p in _plays(replay_guandan(rulebook, doc))]

    warm: list[float] = []
    cold: list[float] = []
    for cards, level, table in plays:
        start = time.perf_counter_ns()
        for _ in range(REPEAT):
            choose_reading(readings(cards, level), table)
        warm.append((time.perf_counter_ns() - start) / REPEAT / 1000)
        start = time.perf_counter_ns()
        for _ in range(REPEAT):
            clear_readings_cache()
            choose_reading(readings(cards, level), table)
        cold.append((time.perf_counter_ns() - start) / REPEAT / 1000)

    per_deal: list[float] = []
    per_deal_cold: list[float] = []
    for doc in docs:
        deals = len(doc["deals"])
        for figures, clear in ((per_deal, False), (per_deal_cold, True)):
            runs = []
            for _ in range(5):
                if clear:
                    clear_readings_cache()
                start = time.perf_counter_ns()
                replay_guandan(rulebook, doc)
                runs.append((time.perf_counter_ns() - start) / deals / 1e6)
            figures.append(min(runs))

    results = {
        "plays_measured": float(len(plays)),
        "classify_compare_us_median": statistics.median(warm),
        "classify_compare_us_median_cold": statistics.median(cold),
        "classify_compare_us_p95_cold": sorted(cold)[int(len(cold) * 0.95)],
        "deal_replay_ms_median": statistics.median(per_deal),
        "deal_replay_ms_median_cold": statistics.median(per_deal_cold),
    }
    for name, value in results.items():
        print(f"{name:36s} {value:10.2f}")
    return results


if __name__ == "__main__":
    main()
