"""Shengji deal and match replay speed, as the web app replays a match on every request.

Targets (issue 2): a full 25-trick deal with all hindsight checks ≤ 2 ms median, a
17-deal match ≤ 30 ms. Records come from the simulator (seeded, so runs compare).

    python -m bench.bench_deal
"""

from __future__ import annotations

import json
import statistics
import time
from functools import partial
from typing import Any

from referee.record import replay_document
from referee.rulebooks import find_rulebook
from referee.shengji.deal import replay_deal
from referee.shengji.events import parse_events
from referee.shengji.match import MatchReplay, clear_deal_memo
from referee.shengji.simulate import simulate_match

SECTION = "Shengji deals and matches"
RULEBOOKS = ("union-2deck", "shuangsheng-17", "eighty-rr", "shuangkou-simple")
SEEDS = (1, 2, 3)
REPEAT = 5


def _time(function: Any, repeat: int, clock: Any = time.process_time) -> list[float]:
    """Run `function` `repeat` times; CPU time by default (the build machine is shared)."""
    times = []
    for _ in range(repeat):
        start = clock()
        function()
        times.append(clock() - start)
    return times


def _deal_times(doc: dict[str, Any]) -> tuple[list[float], list[float]]:
    """Per deal: (replay of parsed events, parse + replay) times in seconds."""
    rulebook = find_rulebook(doc["rulebook"])
    replay = MatchReplay(rulebook)
    plain: list[float] = []
    with_parse: list[float] = []
    for number, raw in enumerate(doc["deals"], start=1):
        setup = replay.setup(raw.get("dealer"), raw.get("first_drawer"), raw.get("redeal") is True)
        events = parse_events(raw["events"], number)
        result = replay_deal(rulebook, setup, events)
        if result.phase == "finished" and result.tricks:
            plain.append(min(_time(partial(replay_deal, rulebook, setup, events), REPEAT)))

            def parse_and_replay(raw: Any = raw, number: int = number, setup: Any = setup) -> None:
                replay_deal(rulebook, setup, parse_events(raw["events"], number))

            with_parse.append(min(_time(parse_and_replay, REPEAT)))
        replay.add(result)
    return plain, with_parse


def main() -> dict[str, float]:
    """Print and return medians in milliseconds."""
    plain: list[float] = []
    with_parse: list[float] = []
    tricks = 0
    for rulebook in RULEBOOKS:
        for seed in SEEDS:
            doc = simulate_match(find_rulebook(rulebook), seed, deals=6)
            p, w = _deal_times(doc)
            plain += p
            with_parse += w
            tricks += sum(1 for d in doc["deals"] for e in d["events"] if e["type"] == "trick")
    match_times: list[float] = []
    document_times: list[float] = []
    wall_times: list[float] = []
    memo_times: list[float] = []
    for seed in SEEDS:
        doc = simulate_match(find_rulebook("shuangsheng-17"), seed)
        assert len(doc["deals"]) >= 17
        text = json.dumps(doc)

        def cold(doc: dict[str, Any] = doc) -> None:
            clear_deal_memo()  # a full replay, every deal from scratch
            replay_document(doc)

        def from_text(text: str = text) -> None:
            clear_deal_memo()
            replay_document(json.loads(text))

        match_times.append(min(_time(cold, REPEAT)))
        document_times.append(min(_time(from_text, REPEAT)))
        wall_times += _time(cold, REPEAT, time.perf_counter)
        replay_document(doc)  # deals 1..n remembered, as after an earlier request
        memo_times.append(min(_time(partial(replay_document, doc), REPEAT)))
    figures = {
        "deal_replay_ms_median": statistics.median(plain) * 1000,
        "deal_replay_with_parse_ms_median": statistics.median(with_parse) * 1000,
        "deal_replay_ms_p95": sorted(with_parse)[int(len(with_parse) * 0.95)] * 1000,
        "match17_replay_ms_median": statistics.median(match_times) * 1000,
        "match17_from_json_ms_median": statistics.median(document_times) * 1000,
        "match17_wall_ms_median": statistics.median(wall_times) * 1000,
        "match17_memo_ms_median": statistics.median(memo_times) * 1000,
        "deals_measured": float(len(plain)),
        "tricks_measured": float(tricks),
    }
    for name, value in figures.items():
        print(f"{name:36} {value:10.3f}")
    return figures


def render(figures: dict[str, float]) -> str:
    """The `## Shengji deals and matches` section of docs/PERFORMANCE.md."""
    return "\n".join([
        "Measured with `python -m bench.bench_deal` (CPython 3.11, the shared 2-vCPU build "
        "machine, other jobs running):",
        f"{int(figures['deals_measured'])} simulated finished deals of the four Shengji "
        f"rulebooks ({int(figures['tricks_measured'])} tricks, 3 seeds × 6 deals each) and three "
        "simulated 17-deal `shuangsheng-17` matches. CPU time (`time.process_time`), best of 5 "
        "runs per deal or match, median over them; wall-clock time on the loaded machine is "
        "given for the match.",
        "",
        "| figure | target | measured |",
        "|---|---|---|",
        f"| full deal replay: declarations, 25 tricks, hindsight checks, scoring (median) | "
        f"≤ 2 ms | {figures['deal_replay_ms_median']:.2f} ms |",
        f"| same, parsing the JSON events too (median) | ≤ 2 ms | "
        f"{figures['deal_replay_with_parse_ms_median']:.2f} ms |",
        f"| same, 95th percentile | — | {figures['deal_replay_ms_p95']:.2f} ms |",
        f"| 17-deal match, `replay_document` (median) | ≤ 30 ms | "
        f"{figures['match17_replay_ms_median']:.1f} ms |",
        f"| same from the JSON text (`json.loads` + replay) | ≤ 30 ms | "
        f"{figures['match17_from_json_ms_median']:.1f} ms |",
        f"| 17-deal match, wall clock on the shared machine (median of 15) | — | "
        f"{figures['match17_wall_ms_median']:.1f} ms |",
        f"| 17-deal match again, earlier deals from the deal memo (`replay_deal_memo`) | — | "
        f"{figures['match17_memo_ms_median']:.1f} ms |",
        "",
        "Targets are checked against CPU time; the wall-clock figure swings with the other "
        "jobs on the two shared cores (18–52 ms seen for the same match during one afternoon). "
        "The ordering tables come from `TrumpContext.of` (cached per level, trump and chain); "
        "hindsight checks walk each seat's later plays once per trick. A 17-deal match costs "
        "about 0.6 ms a deal: parsing the events, resolving the declarations, evaluating 25 "
        "tricks, the hindsight pass and scoring. The match figures clear the deal memo first; "
        "the web app's repeated replays hit it for every unchanged deal (last row).",
    ])


if __name__ == "__main__":
    main()
