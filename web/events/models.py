"""Tournament models: the event's format settings, rounds, pairing overrides, match clocks
and the referee's scoresheet confirmations. Matches themselves are web-core's `Match` rows.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from web.extensions import db
from web.models import Event, Match, utcnow

__all__ = [
    "FORMATS",
    "MatchClock",
    "PairingOverride",
    "Round",
    "ScoresheetConfirmation",
    "TournamentSettings",
]

FORMATS = ("round_robin", "eighty_rr", "knockout", "groups_knockout")


class TournamentSettings(db.Model):  # type: ignore[name-defined,misc]
    """How an event is run: format (赛制), rounds, tie-break order, forbidden same-club pairings."""

    __tablename__ = "tournament_settings"

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(
        ForeignKey("event.id", ondelete="CASCADE"), unique=True, index=True
    )
    format: Mapped[str] = mapped_column(String(30), default="eighty_rr")
    rounds_planned: Mapped[int | None] = mapped_column(default=None)
    tiebreaks: Mapped[list[str] | None] = mapped_column(JSON, default=None)
    forbid_same_club: Mapped[bool] = mapped_column(default=True)
    group_count: Mapped[int] = mapped_column(default=2)
    advance_per_group: Mapped[int] = mapped_column(default=2)
    bye_points: Mapped[float] = mapped_column(default=2.0)
    seeding: Mapped[list[int] | None] = mapped_column(JSON, default=None)  # pair ids, best first

    event: Mapped[Event] = relationship()


class Round(db.Model):  # type: ignore[name-defined,misc]
    """One round (轮) of an event: its computed pairing, the pairing in force, open/closed.

    `computed` and `pairings` are lists of `{"table", "home", "away"}` (pair ids; `away`
    null = bye); `seed` is the recorded random seed of a drawn round (抽签).
    """

    __tablename__ = "tournament_round"
    __table_args__ = (UniqueConstraint("event_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column()
    stage: Mapped[str] = mapped_column(String(20), default="main")  # main, group, knockout
    method: Mapped[str] = mapped_column(String(40), default="")  # draw, standing, round_robin …
    seed: Mapped[int | None] = mapped_column(default=None)
    computed: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    pairings: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    status: Mapped[str] = mapped_column(String(10), default="open")  # open, closed
    opened_by: Mapped[str] = mapped_column(String(120), default="")
    opened_at: Mapped[datetime] = mapped_column(default=utcnow)
    closed_by: Mapped[str] = mapped_column(String(120), default="")
    closed_at: Mapped[datetime | None] = mapped_column(default=None)

    event: Mapped[Event] = relationship()
    overrides: Mapped[list[PairingOverride]] = relationship(
        back_populates="round", cascade="all, delete-orphan", order_by="PairingOverride.id"
    )


class PairingOverride(db.Model):  # type: ignore[name-defined,misc]
    """A director's change to a computed pairing: what it was, what it became, who and why."""

    __tablename__ = "pairing_override"

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(
        ForeignKey("tournament_round.id", ondelete="CASCADE"), index=True
    )
    before: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    after: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    actor: Mapped[str] = mapped_column(String(120), default="")
    reason: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    round: Mapped[Round] = relationship(back_populates="overrides")


class MatchClock(db.Model):  # type: ignore[name-defined,misc]
    """A match's clock, authoritative on the server: remaining = limit − (elapsed − paused)."""

    __tablename__ = "match_clock"

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(
        ForeignKey("match.id", ondelete="CASCADE"), unique=True, index=True
    )
    limit_seconds: Mapped[int] = mapped_column()
    started_at: Mapped[datetime | None] = mapped_column(default=None)
    started_by: Mapped[str] = mapped_column(String(120), default="")
    paused_at: Mapped[datetime | None] = mapped_column(default=None)
    paused_seconds: Mapped[float] = mapped_column(default=0.0)
    time_up_at: Mapped[datetime | None] = mapped_column(default=None)

    match: Mapped[Match] = relationship()


class ScoresheetConfirmation(db.Model):  # type: ignore[name-defined,misc]
    """The referee's confirmation of a finished match's scoresheet (记分表确认)."""

    __tablename__ = "scoresheet_confirmation"

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(
        ForeignKey("match.id", ondelete="CASCADE"), unique=True, index=True
    )
    seq: Mapped[int] = mapped_column(default=0)  # the log position that was confirmed
    confirmed_by: Mapped[str] = mapped_column(String(120), default="")
    device: Mapped[str] = mapped_column(String(200), default="")
    confirmed_at: Mapped[datetime] = mapped_column(default=utcnow)

    match: Mapped[Match] = relationship()


class PlayoffResult(db.Model):  # type: ignore[name-defined,misc]
    """Who advances from a drawn knockout match (加赛 play-off), entered by the director."""

    __tablename__ = "playoff_result"

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(
        ForeignKey("match.id", ondelete="CASCADE"), unique=True, index=True
    )
    winner_pair_id: Mapped[int] = mapped_column(ForeignKey("pair.id", ondelete="CASCADE"))
    reason: Mapped[str] = mapped_column(Text, default="")
    actor: Mapped[str] = mapped_column(String(120), default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    match: Mapped[Match] = relationship()
