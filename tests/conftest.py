"""Shared fixtures: `app`, `client`, `runner` and `factory`, on SQLite and PostgreSQL;
`carddata`, the development card photos (skips where they are not beside the checkout).

Every test using `app` runs on a fresh SQLite file in tmp, and, when `TEST_DATABASE_URL`
is set (CI sets it), again on PostgreSQL in a schema of its own (dropped afterwards), so
parallel runs never see each other's tables. CSRF is off in `app` (forms are posted
directly); `make_app(**config)` builds another app on the same database, e.g. with CSRF on.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

BACKENDS = ["sqlite"] + (["postgresql"] if os.environ.get("TEST_DATABASE_URL") else [])


def _postgres_url(schema: str) -> str:
    base = os.environ["TEST_DATABASE_URL"]
    if base.startswith("postgresql://"):
        base = "postgresql+psycopg://" + base[len("postgresql://") :]
    separator = "&" if "?" in base else "?"
    return f"{base}{separator}options=-csearch_path%3D{schema}"


@pytest.fixture(scope="session")
def carddata() -> Path:
    from vision.labels import carddata_dir

    root = carddata_dir()
    if not (root / "roboflow_zk7wu").is_dir():
        pytest.skip(f"card photos not found at {root}")
    return root


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: a SQLite file, or a new PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'referee.sqlite'}"
        return
    import sqlalchemy

    schema = f"t_{uuid.uuid4().hex[:12]}"
    engine = sqlalchemy.create_engine(_postgres_url("public"))
    with engine.begin() as connection:
        connection.execute(sqlalchemy.text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield _postgres_url(schema)
    finally:
        with engine.begin() as connection:
            connection.execute(sqlalchemy.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


@pytest.fixture
def make_app(database_url: str, tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """Build apps on this test's database (tables created once)."""
    from app import create_app
    from web import services
    from web.extensions import db

    apps: list[Any] = []

    def build(**config: Any) -> Any:
        settings = {
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "SQLALCHEMY_DATABASE_URI": database_url,
            "WTF_CSRF_ENABLED": False,
            "LIVE_POLL_SECONDS": 0.05,
            "LIVE_STREAM_SECONDS": 0.3,
        }
        settings.update(config)
        application = create_app(settings)
        with application.app_context():
            if not apps:
                db.create_all()
        apps.append(application)
        return application

    services.clear_cache()
    yield build
    services.clear_cache()
    for application in apps:
        with application.app_context():
            db.session.remove()
            db.engine.dispose()


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    """The app on a fresh database (CSRF off), inside an app context."""
    application = make_app()
    with application.app_context():
        yield application


@pytest.fixture
def client(app: Any) -> Any:
    """A test client of `app`."""
    return app.test_client()


@pytest.fixture
def runner(app: Any) -> Any:
    """A CLI runner of `app` (`runner.invoke(args=["demo", "load"])`)."""
    return app.test_cli_runner()


class Factory:
    """Builds directors, events, pairs, tables and matches with sensible defaults."""

    def __init__(self) -> None:
        self.counter = 0

    def _next(self) -> int:
        self.counter += 1
        return self.counter

    def director(self, username: str = "td", password: str = "secret-pass") -> Any:
        from web.extensions import db
        from web.models import User

        user = User(username=username, is_director=True)
        user.set_password(password)
        db.session.add(user)
        db.session.commit()
        return user

    def event(
        self,
        game: str = "shengji",
        rulebook: str = "union-2deck",
        options: dict[str, Any] | None = None,
        start_levels: list[str] | None = None,
        name: str = "",
    ) -> Any:
        from web.extensions import db
        from web.models import Event

        event = Event(
            name=name or f"赛事 {self._next()}",
            game=game,
            rulebook=rulebook,
            options=options or {},
            start_levels=start_levels or ["2", "2"],
        )
        db.session.add(event)
        db.session.commit()
        return event

    def pair(self, event: Any, name: str = "", players: tuple[str, str] | None = None) -> Any:
        from web.extensions import db
        from web.models import Pair, Player

        n = self._next()
        first, second = players or (f"甲{n}", f"乙{n}")
        pair = Pair(event=event, name=name or f"队{n}")
        pair.players = [Player(name=first, position=0), Player(name=second, position=1)]
        db.session.add(pair)
        db.session.commit()
        return pair

    def table(self, event: Any, number: int | None = None) -> Any:
        from web.extensions import db
        from web.models import Table

        table = Table(event=event, number=number or self._next())
        db.session.add(table)
        db.session.commit()
        return table

    def match(self, event: Any | None = None, table: Any | None = None, round: int = 1, **event_args: Any) -> Any:
        """A match at a (new) table between two new pairs, seats from the pairs."""
        from web.extensions import db
        from web.models import Match

        event = event or self.event(**event_args)
        table = table or self.table(event)
        match = Match(
            event=event, round=round, table=table, pair_a=self.pair(event), pair_b=self.pair(event)
        )
        db.session.add(match)
        db.session.flush()
        match.seats = match.default_seats()
        db.session.commit()
        return match


@pytest.fixture
def factory(app: Any) -> Factory:
    """Model factories bound to `app`'s database."""
    return Factory()


def login(client: Any, username: str = "td", password: str = "secret-pass") -> Any:
    """Log `client` in as a director (CSRF must be off, as in `app`)."""
    return client.post(
        "/director/login", data={"username": username, "password": password}, follow_redirects=False
    )


@pytest.fixture(name="login")
def login_fixture() -> Callable[..., Any]:
    """`login(client, username, password)`: post the director login form."""
    return login


@pytest.fixture
def director_client(client: Any, factory: Factory) -> Any:
    """A client logged in as director `td`."""
    factory.director()
    response = login(client)
    assert response.status_code == 302
    return client
