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

import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

SEED = 8  # a shuangsheng-17 simulation with exactly 17 deals
MATCHES = 3
SECTION = "Tablet (table pages)"


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def _summary(name: str, values: list[float]) -> dict[str, float]:
    return {
        f"{name}_n": float(len(values)),
        f"{name}_p50_ms": round(statistics.median(values), 2),
        f"{name}_p95_ms": round(_percentile(values, 0.95), 2),
        f"{name}_max_ms": round(max(values), 2),
    }


def main() -> dict[str, Any]:
    """Run the benchmark, print the figures, return them."""
    from app import create_app
    from referee.rulebooks import find_rulebook
    from referee.shengji.simulate import simulate_match
    from web import services
    from web.extensions import db
    from web.models import Event, Match, Pair, Player, Table

    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(tmp) / 'bench.sqlite'}",
                "SECRET_KEY": "bench",
                "WTF_CSRF_ENABLED": False,
            }
        )
        with app.app_context():
            db.create_all()
            doc = simulate_match(find_rulebook("shuangsheng-17"), SEED)
            event = Event(name="bench", game="shengji", rulebook="shuangsheng-17")
            pairs = []
            for name in ("A", "B"):
                pair = Pair(event=event, name=name)
                pair.players = [Player(name=name + "1", position=0), Player(name=name + "2", position=1)]
                pairs.append(pair)
            table = Table(event=event, number=1)
            matches = []
            for _ in range(MATCHES):
                match = Match(event=event, table=table, pair_a=pairs[0], pair_b=pairs[1])
                db.session.add(match)
                matches.append(match)
            db.session.commit()
            last = doc["deals"][16]
            head = {**doc, "deals": [*doc["deals"][:16], {**last, "events": []}]}
            for match in matches:
                services.import_record(match.id, head, actor="bench")
            token = table.token
            match_ids = [m.id for m in matches]
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
        figures.update(_summary("tablet_post", posts))
        figures.update(_summary("tablet_state", reads))
        figures.update(_summary("tablet_page", pages))
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
