"""Tablet benchmark: what the referee waits for after the confirm tap.

A shuangsheng-17 match of 17 simulated deals is imported up to the start of deal 17; then
every event of deal 17 is posted through the tablet's route (`POST /t/<token>/match/<id>/post`,
Flask test client, SQLite file) and timed until the tablet's view (`web.table.view`) is
parsed. Also timed: the state read after a live update (`GET …/state`) and the first page
load of the match.

Target (issue 5): p95 ≤ 50 ms for a post, warm.

    .venv/bin/python -m bench.bench_tablet
"""

from __future__ import annotations

import tempfile
import time
from typing import Any

from bench._web_setup import seeded_app, summary

MATCHES = 3
SECTION = "Tablet (table pages)"


def main() -> dict[str, Any]:
    """Run the benchmark, print the figures, return them."""
    from web.extensions import db

    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        app, token, match_ids, last = seeded_app(tmp, MATCHES)
        client = app.test_client()
        posts: list[float] = []
        reads: list[float] = []
        pages: list[float] = []
        for match_id in match_ids:
            base = f"/t/{token}/match/{match_id}"
            start = time.perf_counter()
            page = client.get(base)
            pages.append((time.perf_counter() - start) * 1000)
            assert page.status_code == 200
            seq = client.get(base + "/state").get_json()["seq"]
            for i, item in enumerate(last["events"]):
                body = {"kind": "event", "event": item, "expected_seq": seq,
                        "idempotency_key": f"bench-{match_id}-{i:04d}", "device": "bench"}
                start = time.perf_counter()
                response = client.post(base + "/post", json=body)
                view = response.get_json()["state"]
                posts.append((time.perf_counter() - start) * 1000)
                assert response.status_code == 200, response.get_json()
                seq = view["seq"]
                start = time.perf_counter()
                client.get(base + "/state").get_json()
                reads.append((time.perf_counter() - start) * 1000)
        figures.update(summary("tablet_post", posts))
        figures.update(summary("tablet_state", reads))
        figures.update(summary("tablet_page", pages))
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
    for key, value in figures.items():
        print(f"{key:28} {value}")
    return figures


def render(figures: dict[str, Any]) -> str:
    """The tablet's section of docs/PERFORMANCE.md from one run's figures."""
    import os
    import platform

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    rows = [
        ("confirm tap → new view (POST …/post, deal 17 of 17)", "tablet_post", "≤ 50 ms p95"),
        ("live update → view (GET …/state)", "tablet_state", "—"),
        ("first load of the match page", "tablet_page", "—"),
    ]
    lines = [
        f"Measured {stamp} on the shared build machine ({os.cpu_count()} vCPU, Python "
        f"{platform.python_version()}, load average {load:.1f} from other jobs), "
        "`python -m bench.bench_tablet`: a shuangsheng-17 match of 17 simulated deals imported "
        "up to deal 17, then each event of deal 17 posted through the tablet's route and "
        "timed until the tablet's view (`web.table.view.table_view`) is parsed.",
        "",
        "| figure | target | p50 | p95 | max | n |",
        "|---|---|---|---|---|---|",
    ]
    for label, key, target in rows:
        lines.append(
            f"| {label} | {target} | {figures.get(key + '_p50_ms')} ms | "
            f"{figures.get(key + '_p95_ms')} ms | {figures.get(key + '_max_ms')} ms | "
            f"{int(figures.get(key + '_n', 0))} |"
        )
    lines += [
        "",
        "The view reads only the tail of the match log (the last entries, for undo and the "
        "\"last entries\" list), never the whole log; the engine's state comes from "
        "`web.services` and its caches.",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
