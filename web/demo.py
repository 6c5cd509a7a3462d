"""`flask demo load`: a demo director, one event per game, tables and simulated matches.

Idempotent: a second run finds the demo events and only prints the URLs again. Records
come from the engine's simulators, imported through `web.services.import_record`, so
they are replayed and checked like any import.
"""

from __future__ import annotations

import os
from typing import Any

import click
from flask import Flask
from flask.cli import AppGroup

from web.extensions import db
from web.models import Event, Match, Pair, Player, Table, User

demo_cli = AppGroup("demo", help="Demo data.")

DEMO_USER = "director"
DEMO_PASSWORD_DEFAULT = "referee-demo"
BASE_URL_DEFAULT = "http://127.0.0.1:5000"

SHENGJI_PAIRS = [
    ("东风队", "赵一", "钱二"), ("南山队", "孙三", "李四"), ("西湖队", "周五", "吴六"),
    ("北海队", "郑七", "王八"), ("中原队", "冯九", "陈十"), ("江南队", "褚明", "卫东"),
]
GUANDAN_TEAMS = [
    ("连云港一队", "蒋海", "沈波"), ("连云港二队", "韩雪", "杨光"),
    ("淮安队", "朱峰", "秦岭"), ("徐州队", "尤强", "许静"),
]


def _simulate(game: str, rulebook_name: str, seed: int) -> dict[str, Any] | None:
    from referee.rulebooks import find_rulebook

    rulebook = find_rulebook(rulebook_name)
    try:
        if game == "guandan":
            from referee.guandan import simulate_guandan

            return dict(simulate_guandan(rulebook, seed))
        from referee.shengji.simulate import simulate_match

        return dict(simulate_match(rulebook, seed))
    except ImportError:
        return None


def _partial(doc: dict[str, Any], deals: int, events: int) -> dict[str, Any]:
    """The record cut inside a deal: a match in progress for the live pages."""
    cut = dict(doc)
    kept = [dict(deal) for deal in doc["deals"][: deals + 1]]
    if kept:
        kept[-1]["events"] = list(kept[-1].get("events", []))[:events]
    cut["deals"] = kept
    return cut


def _make_event(
    name: str, game: str, rulebook: str, pairs: list[tuple[str, str, str]], tables: int
) -> Event:
    event = Event(name=name, game=game, rulebook=rulebook, options={}, start_levels=["2", "2"])
    db.session.add(event)
    for pair_name, first, second in pairs:
        pair = Pair(event=event, name=pair_name)
        pair.players = [Player(name=first, position=0), Player(name=second, position=1)]
        db.session.add(pair)
    for number in range(1, tables + 1):
        db.session.add(Table(event=event, number=number))
    db.session.flush()
    for index, table in enumerate(event.tables):
        a, b = event.pairs[2 * index], event.pairs[2 * index + 1]
        match = Match(event=event, round=1, table=table, pair_a=a, pair_b=b)
        db.session.add(match)
        db.session.flush()
        match.seats = match.default_seats()
    db.session.commit()
    return event


def _fill(event: Event, seed: int) -> None:
    from web import services

    matches = list(event.matches)
    for index, match in enumerate(matches):
        if match.last_seq:
            continue
        doc = _simulate(event.game, event.rulebook, seed + index)
        if doc is None:
            click.echo(f"  (no simulator for {event.game} yet: match {match.id} left empty)")
            continue
        doc["players"] = list(match.seats)
        if index == len(matches) - 1 and len(doc["deals"]) > 1:
            doc = _partial(doc, deals=1, events=9)  # the last table is still playing
        try:
            services.import_record(match.id, doc, actor="demo", device="flask demo load")
        except services.ServiceError as error:
            click.echo(f"  match {match.id}: simulated record rejected: {error.message}")


@demo_cli.command("load")
@click.option("--base-url", default=lambda: os.environ.get("BASE_URL", BASE_URL_DEFAULT))
def load(base_url: str) -> None:
    """Create the demo director, a Shengji and a Guandan event with simulated matches."""
    password = os.environ.get("DEMO_PASSWORD", DEMO_PASSWORD_DEFAULT)
    user = db.session.execute(db.select(User).filter_by(username=DEMO_USER)).scalar_one_or_none()
    if user is None:
        user = User(username=DEMO_USER, is_director=True)
        user.set_password(password)
        db.session.add(user)
        db.session.commit()
    specs = [
        ("演示赛 · 升级 (union-2deck)", "shengji", "union-2deck", SHENGJI_PAIRS, 3, 100),
        ("演示赛 · 掼蛋 (guandan-lyg)", "guandan", "guandan-lyg", GUANDAN_TEAMS, 2, 200),
    ]
    events = []
    for name, game, rulebook, pairs, tables, seed in specs:
        event = db.session.execute(db.select(Event).filter_by(name=name)).scalar_one_or_none()
        if event is None:
            event = _make_event(name, game, rulebook, pairs, tables)
        _fill(event, seed)
        events.append(event)
    base = base_url.rstrip("/")
    click.echo("Table Referee demo")
    click.echo(f"  start page:  {base}/")
    click.echo(f"  director:    {base}/director/login   user {DEMO_USER!r}, password {password!r}")
    for event in events:
        click.echo(f"  {event.name}")
        click.echo(f"    public:    {base}/public/events/{event.id}")
        click.echo(f"    director:  {base}/director/events/{event.id}/overview")
        for table in event.tables:
            click.echo(f"    table {table.number}:   referee {base}/t/{table.token}/  PIN {table.pin}")
        for match in event.matches:
            click.echo(f"    scoresheet {base}/public/matches/{match.id}/scoresheet")


def init_app(app: Flask) -> None:
    """Register `flask demo …`."""
    app.cli.add_command(demo_cli)
