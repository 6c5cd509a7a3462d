"""Declaration phase speed: `resolve_declarations` on a whole simulated deal (calls, bury,
25 tricks), the same on the declaration events alone, `verify_call` for one new call as
the tablet logs it, and `simulate_declaration_phase` per deal, for the four Shengji
rulebooks.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from typing import Any

from referee.cards import Card, two_decks
from referee.rulebooks import PRESETS
from referee.shengji.declaration import (
    DealSetup,
    resolve_declarations,
    simulate_declaration_phase,
    verify_call,
)
from referee.shengji.events import Event, Trick, parse_events

RULEBOOKS = ("union-2deck", "shuangsheng-17", "eighty-rr", "shuangkou-simple")
DEALS = 40
REPEAT = 20


def _deal(seed: int) -> tuple[list[Counter[Card]], list[Card]]:
    deck = two_decks()
    random.Random(seed).shuffle(deck)
    return [Counter(deck[25 * i : 25 * (i + 1)]) for i in range(4)], deck[100:]


def _timed_us(function: Any, *args: Any) -> float:
    start = time.perf_counter_ns()
    for _ in range(REPEAT):
        function(*args)
    return (time.perf_counter_ns() - start) / REPEAT / 1000


def main() -> dict[str, float]:
    """Print and return medians in µs (resolve, verify) and ms (simulate)."""
    whole: list[float] = []
    calls_only: list[float] = []
    verify: list[float] = []
    simulate: list[float] = []
    for name in RULEBOOKS:
        rulebook = PRESETS[name]
        for seed in range(DEALS):
            grab = seed % 2 == 0 and rulebook.first_dealer == "grab"
            setup = DealSetup(
                1 + seed % 2, ("2", "2"), dealer=None if grab else seed % 4, first_drawer=seed % 4
            )
            hands, bottom = _deal(seed)
            start = time.perf_counter_ns()
            phase = simulate_declaration_phase(rulebook, setup, hands, bottom, random.Random(seed))
            simulate.append((time.perf_counter_ns() - start) / 1e6)
            if phase.redeal:
                continue
            events: list[Event] = parse_events(phase.events, setup.number)
            # 25 dummy tricks stand in for the play: the resolver only skips over them.
            tricks: list[Event] = [Trick(len(events) + i, 0, ((), (), (), ())) for i in range(25)]
            calls_only.append(_timed_us(resolve_declarations, rulebook, setup, events))
            whole.append(_timed_us(resolve_declarations, rulebook, setup, events + tricks))
            verify.append(_timed_us(verify_call, rulebook, setup, events[:-1], events[-1]))
    results = {
        "deals_measured": float(len(whole)),
        "resolve_whole_deal_us_median": statistics.median(whole),
        "resolve_calls_only_us_median": statistics.median(calls_only),
        "verify_call_us_median": statistics.median(verify),
        "verify_call_us_p95": sorted(verify)[int(len(verify) * 0.95)],
        "simulate_phase_ms_median": statistics.median(simulate),
        "simulate_phase_ms_p95": sorted(simulate)[int(len(simulate) * 0.95)],
    }
    for key, value in results.items():
        print(f"{key:36s} {value:10.2f}")
    return results


if __name__ == "__main__":
    main()
