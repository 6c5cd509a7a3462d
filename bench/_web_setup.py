"""Shared set-up of the web benchmarks: a SQLite app with 17-deal matches and p50/p95 summaries."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

SEED = 8  # a shuangsheng-17 simulation with exactly 17 deals


def percentile(values: list[float], q: float) -> float:
    """The q-quantile by nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def summary(name: str, values: list[float]) -> dict[str, float]:
    """Count, median, 95th percentile and maximum of timings in milliseconds."""
    return {
        f"{name}_n": float(len(values)),
        f"{name}_p50_ms": round(statistics.median(values), 2),
        f"{name}_p95_ms": round(percentile(values, 0.95), 2),
        f"{name}_max_ms": round(max(values), 2),
    }


def seeded_app(tmp: str, matches: int) -> tuple[Any, str, list[int], dict[str, Any]]:
    """An app on a fresh SQLite file with `matches` shuangsheng-17 matches imported up to the
    start of deal 17: (app, table token, match ids, deal 17 of the simulated record)."""
    from app import create_app
    from referee.rulebooks import find_rulebook
    from referee.shengji.simulate import simulate_match
    from web import services
    from web.extensions import db
    from web.models import Event, Match, Pair, Player, Table

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
        assert len(doc["deals"]) == 17, len(doc["deals"])
        event = Event(name="bench", game="shengji", rulebook="shuangsheng-17")
        pairs = []
        for name in ("A", "B"):
            pair = Pair(event=event, name=name)
            pair.players = [Player(name=name + "1", position=0), Player(name=name + "2", position=1)]
            pairs.append(pair)
        table = Table(event=event, number=1)
        created = []
        for _ in range(matches):
            match = Match(event=event, table=table, pair_a=pairs[0], pair_b=pairs[1])
            db.session.add(match)
            db.session.flush()
            match.seats = doc["players"]
            created.append(match)
        db.session.commit()
        last = doc["deals"][16]
        head = {**doc, "deals": [*doc["deals"][:16], {**last, "events": []}]}
        for match in created:
            services.import_record(match.id, head, actor="bench")
        return app, table.token, [m.id for m in created], last
