"""Access control: director login (Flask-Login) and table-scoped referee access.

A referee reaches exactly one table, by its unguessable token (`/t/<token>/…`) or by its
PIN, which marks the session for that table only. Nothing here grants another table.

For the tablet blueprint:

    from web.auth import table_referee_required

    @bp.get("/t/<token>/")
    @table_referee_required
    def table_home(table):             # `token` (or `table_id`) is replaced by `table`
        ...

    if web.auth.check_table_pin(table, pin): web.auth.grant_table(table)   # PIN login
"""

from __future__ import annotations

import functools
import hmac
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, abort, g, session
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from web.extensions import db, login_manager
from web.models import Table, User

F = TypeVar("F", bound=Callable[..., Any])
SESSION_TABLES = "referee_tables"


def init_app(app: Flask) -> None:
    """Wire Flask-Login to the `User` model and the director's login page."""
    login_manager.login_view = "director.login"
    login_manager.login_message = _l("Please log in as director.")

    @login_manager.user_loader
    def load_user(user_id: str) -> User | None:
        return db.session.get(User, int(user_id))


def is_director() -> bool:
    """True when a director is logged in."""
    return bool(current_user.is_authenticated and getattr(current_user, "is_director", False))


def director_required(view: F) -> F:
    """Views for directors only: anonymous users go to the login page, others get 403."""

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not current_user.is_authenticated:
            return login_manager.unauthorized()
        if not is_director():
            abort(403)
        return view(*args, **kwargs)

    return wrapped  # type: ignore[return-value]


def table_from_token(token: str) -> Table:
    """The table whose referee token is `token`; 404 for anything else (no hint either way)."""
    if not token or len(token) > 64:
        abort(404)
    table = db.session.execute(db.select(Table).filter_by(token=token)).scalar_one_or_none()
    if table is None or not hmac.compare_digest(table.token, token):
        abort(404)
    return table


def check_table_pin(table: Table, pin: str) -> bool:
    """True when `pin` is this table's PIN (constant-time comparison)."""
    return bool(pin) and hmac.compare_digest(table.pin.encode(), str(pin).strip().encode())


def grant_table(table: Table) -> None:
    """Mark the session as this table's referee (after a correct PIN)."""
    tables = [t for t in session.get(SESSION_TABLES, []) if t != table.id]
    session[SESSION_TABLES] = [*tables, table.id][-4:]


def revoke_table(table: Table) -> None:
    """Forget the referee marker of this table (log out of the tablet)."""
    session[SESSION_TABLES] = [t for t in session.get(SESSION_TABLES, []) if t != table.id]


def may_referee(table: Table) -> bool:
    """True when this request may read and write `table`: its token, its PIN marker, a director."""
    if getattr(g, "referee_table_id", None) == table.id:
        return True
    return table.id in session.get(SESSION_TABLES, []) or is_director()


def table_referee_required(view: F) -> F:
    """For views with `<token>` or `<int:table_id>` in the URL: call them with `table=`.

    With a token: the token's table (404 if unknown). With a table id: only a session
    marked by that table's PIN (or a director); anyone else gets 403.
    """

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if "token" in kwargs:
            table = table_from_token(kwargs.pop("token"))
        elif "table_id" in kwargs:
            table = db.session.get(Table, kwargs.pop("table_id"))
            if table is None:
                abort(404)
            if not (table.id in session.get(SESSION_TABLES, []) or is_director()):
                abort(403)
        else:
            abort(404)
        g.referee_table_id = table.id
        g.referee_table = table
        return view(*args, table=table, **kwargs)

    return wrapped  # type: ignore[return-value]


def match_belongs_to(table: Table, match_id: int) -> bool:
    """True when `match_id` is played at `table` (a token never reaches another table's match)."""
    from web.models import Match

    match = db.session.get(Match, match_id)
    return match is not None and match.table_id == table.id


# -- director login rate limit ---------------------------------------------------------------

LOGIN_MAX_FAILURES = 5  # failures per user name within LOGIN_WINDOW_SECONDS → locked
LOGIN_WINDOW_SECONDS = 60.0
LOGIN_LOCK_SECONDS = 60.0


class LoginThrottle:
    """Failed director logins per user name (in this process): 5 within a minute lock the name
    for a minute. `now` is injectable so tests need no sleeping."""

    def __init__(self, now: Callable[[], float] | None = None) -> None:
        import threading
        import time

        self.now = now or time.monotonic
        self._failures: dict[str, list[float]] = {}
        self._locked_until: dict[str, float] = {}
        self._lock = threading.Lock()

    @staticmethod
    def _key(username: str) -> str:
        return username.strip().casefold()[:120]

    def locked_for(self, username: str) -> float:
        """Seconds this user name stays locked (0 when it may try)."""
        with self._lock:
            until = self._locked_until.get(self._key(username), 0.0)
            return max(0.0, until - self.now())

    def failed(self, username: str) -> None:
        key, now = self._key(username), self.now()
        with self._lock:
            recent = [t for t in self._failures.get(key, []) if now - t < LOGIN_WINDOW_SECONDS]
            recent.append(now)
            if len(recent) >= LOGIN_MAX_FAILURES:
                self._locked_until[key] = now + LOGIN_LOCK_SECONDS
                recent = []
            self._failures[key] = recent

    def succeeded(self, username: str) -> None:
        with self._lock:
            self._failures.pop(self._key(username), None)


def login_throttle(app: Flask) -> LoginThrottle:
    """The app's login throttle (one per app, created on first use)."""
    throttle = app.extensions.get("login_throttle")
    if throttle is None:
        throttle = app.extensions["login_throttle"] = LoginThrottle()
    return throttle  # type: ignore[no-any-return]
