"""Live pages: publish/subscribe over server-sent events that works across app servers.

`publish(channel, data)` stores a `LiveMessage` row; `/live/<channel>` streams the rows of
one channel as SSE, polling the database (every `LIVE_POLL_SECONDS`, sooner when this
process published). Because the database is the bus, several app servers sharing one
PostgreSQL see each other's messages; an in-process queue alone would not.

Channels: `match-<id>`, `table-<id>`, `event-<id>` (published by `web.services` after each
change, data = the match summary), and whatever other parts publish (`clock-<id>`…).

Browser side: `static/js/live.js` listens on every element with `data-live="<channel>"`
and fires the htmx event `live` on it (`hx-trigger="live"` refreshes a fragment), plus a
DOM event `live:message` with the data.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from flask import Blueprint, Response, abort, current_app, request
from sqlalchemy import delete, func, select

from web.extensions import db
from web.models import LiveMessage, utcnow

bp = Blueprint("live", __name__)

CHANNEL = re.compile(r"^[a-z][a-z0-9_-]{0,79}$")
KEEP = timedelta(hours=2)
RESCAN_SECONDS = 3.0
_wakeup = threading.Condition()


def publish_in_session(channel: str, data: dict[str, Any]) -> None:
    """Add a message to the current transaction (sent when the caller commits)."""
    db.session.add(LiveMessage(channel=channel, data=data))
    if random.random() < 0.01:  # now and then, drop old messages
        db.session.execute(delete(LiveMessage).where(LiveMessage.created_at < utcnow() - KEEP))


def publish(channel: str, data: dict[str, Any]) -> None:
    """Publish `data` (JSON-able) on `channel` to every subscriber on every app server."""
    publish_in_session(channel, data)
    db.session.commit()
    notify_local()


def notify_local() -> None:
    """Wake this process's streams at once (others notice at their next poll)."""
    with _newest_lock:
        _newest.clear()  # the next stream to wake re-reads the newest id
    with _wakeup:
        _wakeup.notify_all()


def latest_id(channel: str) -> int:
    """The id of the newest message on `channel` (0 if none)."""
    value = db.session.execute(
        select(func.max(LiveMessage.id)).where(LiveMessage.channel == channel)
    ).scalar()
    return int(value or 0)


def messages_after(channel: str, after: int, limit: int = 50) -> list[tuple[int, dict[str, Any]]]:
    """(id, data) of the messages on `channel` newer than `after`, oldest first."""
    rows = db.session.execute(
        select(LiveMessage.id, LiveMessage.data)
        .where(LiveMessage.channel == channel, LiveMessage.id > after)
        .order_by(LiveMessage.id)
        .limit(limit)
    ).all()
    return [(int(row[0]), dict(row[1] or {})) for row in rows]


_newest: dict[str, tuple[int, float]] = {}  # database URL -> (newest id, when read)
_newest_lock = threading.Lock()


def newest_any(app: Any, poll: float) -> int:
    """The newest message id on any channel, read at most once per `poll` per process.

    Every stream of this process shares the one query; a stream reads its own channel
    only when something new arrived somewhere.
    """
    url = str(app.config["SQLALCHEMY_DATABASE_URI"])
    with _newest_lock:
        newest, checked = _newest.get(url, (0, 0.0))
        if time.monotonic() - checked < poll:
            return newest
        with app.app_context():
            value = db.session.execute(select(func.max(LiveMessage.id))).scalar()
            db.session.remove()
        _newest[url] = (int(value or 0), time.monotonic())
        return _newest[url][0]


def _format(message_id: int, data: dict[str, Any]) -> str:
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"id: {message_id}\nevent: update\ndata: {payload}\n\n"


@bp.get("/live/<channel>")
def stream(channel: str) -> Response:
    """The SSE stream of one channel (read-only; the browser reconnects with Last-Event-ID)."""
    if not CHANNEL.match(channel):
        abort(404)
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    resume = request.headers.get("Last-Event-ID") or request.args.get("after") or ""
    after = int(resume) if resume.isdigit() else latest_id(channel)
    db.session.remove()
    poll = float(app.config["LIVE_POLL_SECONDS"])
    lifetime = float(app.config["LIVE_STREAM_SECONDS"])

    def generate() -> Iterator[str]:
        last = after
        seen_anywhere = -1  # read the channel once at the start
        read_at = time.monotonic()
        deadline = time.monotonic() + lifetime
        quiet_since = time.monotonic()
        yield f"retry: 2000\nid: {last}\n\n"
        while time.monotonic() < deadline:
            rows: list[tuple[int, dict[str, Any]]] = []
            newest = newest_any(app, poll)
            # Re-read now and then even when nothing looks new: on PostgreSQL a smaller id
            # can commit after a larger one was already seen.
            if newest != seen_anywhere or time.monotonic() - read_at > RESCAN_SECONDS:
                with app.app_context():
                    rows = messages_after(channel, last)
                    db.session.remove()
                seen_anywhere = newest
                read_at = time.monotonic()
            for message_id, data in rows:
                last = message_id
                yield _format(message_id, data)
            if rows:
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since > 15:
                quiet_since = time.monotonic()
                yield ": keep-alive\n\n"
            with _wakeup:
                _wakeup.wait(timeout=poll)

    return Response(
        generate(),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
