"""Database models: directors, events, pairs, tables, matches and the append-only match log.

A match's state is never stored as truth: it is always the engine's replay of its
`LogEntry` rows (see `web.services`). `Match.state_cache` only keeps a small summary
(levels, finished, winner) for lists and standings.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Any

from flask_login import UserMixin
from sqlalchemy import JSON, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship
from werkzeug.security import check_password_hash, generate_password_hash

from web.extensions import db

__all__ = ["Event", "LiveMessage", "LogEntry", "Match", "Pair", "Player", "Table", "User", "utcnow"]

GAMES = ("shengji", "guandan")


def utcnow() -> datetime:
    """Now in UTC, naive (both SQLite and PostgreSQL store it as written)."""
    return datetime.now(UTC).replace(tzinfo=None)


def new_token() -> str:
    """An unguessable referee token for a table link (128 bits, URL-safe)."""
    return secrets.token_urlsafe(16)


def new_pin() -> str:
    """A six-digit PIN a referee can type on the tablet."""
    return f"{secrets.randbelow(1_000_000):06d}"


class User(UserMixin, db.Model):  # type: ignore[name-defined,misc]
    """A tournament director (总裁判 / 裁判长); the password is stored hashed."""

    __tablename__ = "user"

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(80), unique=True)
    password_hash: Mapped[str] = mapped_column(String(256))
    is_director: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    def set_password(self, password: str) -> None:
        """Store a salted hash of `password`, never the password."""
        self.password_hash = generate_password_hash(password)

    def check_password(self, password: str) -> bool:
        """True when `password` matches the stored hash."""
        return check_password_hash(self.password_hash, password)


class Event(db.Model):  # type: ignore[name-defined,misc]
    """A competition: one game, one rulebook (with option overrides) and start levels."""

    __tablename__ = "event"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    game: Mapped[str] = mapped_column(String(20), default="shengji")
    rulebook: Mapped[str] = mapped_column(String(60), default="union-2deck")
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    start_levels: Mapped[list[str]] = mapped_column(JSON, default=lambda: ["2", "2"])
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    pairs: Mapped[list[Pair]] = relationship(
        back_populates="event", cascade="all, delete-orphan", order_by="Pair.id"
    )
    tables: Mapped[list[Table]] = relationship(
        back_populates="event", cascade="all, delete-orphan", order_by="Table.number"
    )
    matches: Mapped[list[Match]] = relationship(
        back_populates="event",
        cascade="all, delete-orphan",
        order_by="(Match.round, Match.table_id, Match.id)",
    )


class Pair(db.Model):  # type: ignore[name-defined,misc]
    """A pair (Shengji) or team (Guandan) of two players who sit opposite each other."""

    __tablename__ = "pair"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(120))
    club: Mapped[str] = mapped_column(String(120), default="")

    event: Mapped[Event] = relationship(back_populates="pairs")
    players: Mapped[list[Player]] = relationship(
        back_populates="pair", cascade="all, delete-orphan", order_by="Player.position"
    )

    @property
    def player_names(self) -> list[str]:
        """The players' names in seating order within the pair."""
        return [player.name for player in self.players]


class Player(db.Model):  # type: ignore[name-defined,misc]
    """One player of a pair; `position` 0 or 1 says who sits first."""

    __tablename__ = "player"

    id: Mapped[int] = mapped_column(primary_key=True)
    pair_id: Mapped[int] = mapped_column(ForeignKey("pair.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(120))
    position: Mapped[int] = mapped_column(default=0)

    pair: Mapped[Pair] = relationship(back_populates="players")


class Table(db.Model):  # type: ignore[name-defined,misc]
    """A physical table; its referee reaches it by an unguessable token or its PIN."""

    __tablename__ = "table"
    __table_args__ = (UniqueConstraint("event_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column()
    name: Mapped[str] = mapped_column(String(120), default="")
    token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    pin: Mapped[str] = mapped_column(String(12), default=new_pin)

    event: Mapped[Event] = relationship(back_populates="tables")
    matches: Mapped[list[Match]] = relationship(back_populates="table", order_by="Match.round")

    @property
    def label(self) -> str:
        """The table's name, or its number."""
        return self.name or str(self.number)

    def current_match(self) -> Match | None:
        """The table's unfinished match of the lowest round (else its last match)."""
        matches = sorted(self.matches, key=lambda m: (m.round, m.id))
        for match in matches:
            if not (match.state_cache or {}).get("finished"):
                return match
        return matches[-1] if matches else None


class Match(db.Model):  # type: ignore[name-defined,misc]
    """One match at one table in one round: pair A holds seats 0 and 2, pair B seats 1 and 3.

    `seats` names the four players in seat order; `state_cache` is a summary of the last
    replay (seq, levels, finished, winner, deals) for lists, never the truth.
    """

    __tablename__ = "match"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    round: Mapped[int] = mapped_column(default=1)
    table_id: Mapped[int | None] = mapped_column(
        ForeignKey("table.id", ondelete="SET NULL"), index=True
    )
    pair_a_id: Mapped[int | None] = mapped_column(ForeignKey("pair.id", ondelete="SET NULL"))
    pair_b_id: Mapped[int | None] = mapped_column(ForeignKey("pair.id", ondelete="SET NULL"))
    seats: Mapped[list[str]] = mapped_column(JSON, default=lambda: ["", "", "", ""])
    state_cache: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    last_seq: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    event: Mapped[Event] = relationship(back_populates="matches")
    table: Mapped[Table | None] = relationship(back_populates="matches")
    pair_a: Mapped[Pair | None] = relationship(foreign_keys=[pair_a_id])
    pair_b: Mapped[Pair | None] = relationship(foreign_keys=[pair_b_id])
    log: Mapped[list[LogEntry]] = relationship(
        back_populates="match", cascade="all, delete-orphan", order_by="LogEntry.seq"
    )

    def default_seats(self) -> list[str]:
        """Seats from the pairs: A's first player, B's first, A's second, B's second."""
        a = self.pair_a.player_names if self.pair_a else []
        b = self.pair_b.player_names if self.pair_b else []
        a += [""] * (2 - len(a))
        b += [""] * (2 - len(b))
        return [a[0], b[0], a[1], b[1]]

    @property
    def title(self) -> str:
        """`Pair A – Pair B` for lists."""
        a = self.pair_a.name if self.pair_a else "?"
        b = self.pair_b.name if self.pair_b else "?"
        return f"{a} – {b}"


class LogEntry(db.Model):  # type: ignore[name-defined,misc]
    """One append-only entry of a match log: who logged what, when, on which device, why.

    kinds: `seat` (players in seat order), `deal_start` (a new deal; dealer etc.),
    `event` (a table-record event of the current deal), `undo` (removes `target`),
    `correction` (replaces `target`'s event; a director's, with a reason).
    """

    __tablename__ = "log_entry"
    __table_args__ = (
        UniqueConstraint("match_id", "seq"),
        UniqueConstraint("match_id", "idempotency_key"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column()
    kind: Mapped[str] = mapped_column(String(20))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    target_seq: Mapped[int | None] = mapped_column(default=None)
    actor: Mapped[str] = mapped_column(String(120), default="")
    device: Mapped[str] = mapped_column(String(200), default="")
    reason: Mapped[str] = mapped_column(Text, default="")
    idempotency_key: Mapped[str | None] = mapped_column(String(100), default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    match: Mapped[Match] = relationship(back_populates="log")

    def to_json(self) -> dict[str, Any]:
        """The entry as exported in the audit trail."""
        return {
            "seq": self.seq,
            "kind": self.kind,
            "payload": self.payload,
            "target_seq": self.target_seq,
            "actor": self.actor,
            "device": self.device,
            "reason": self.reason,
            "created_at": self.created_at.isoformat() if self.created_at else None,
        }


class LiveMessage(db.Model):  # type: ignore[name-defined,misc]
    """A message for live pages; streams poll this table, so it works across app servers."""

    __tablename__ = "live_message"

    id: Mapped[int] = mapped_column(primary_key=True)
    channel: Mapped[str] = mapped_column(String(80), index=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
