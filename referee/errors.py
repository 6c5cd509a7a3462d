"""The engine's two error families: unreadable input and broken rules."""

from __future__ import annotations

from typing import Any


class RefereeError(Exception):
    """Base class of every error the engine raises on purpose."""


class NotationError(RefereeError, ValueError):
    """A token that cannot be read as a card (or a record field that cannot be read).

    >>> str(NotationError("XX", "deal 1, event 3"))
    "cannot read 'XX' (deal 1, event 3)"
    """

    def __init__(
        self, token: str, where: str = "", message: str = "", *, rule_id: str = "record.notation"
    ) -> None:
        self.token = token
        self.where = where
        self.rule_id = rule_id
        text = message or f"cannot read {token!r}"
        if where:
            text = f"{text} ({where})"
        super().__init__(text)


class IllegalPlayError(RefereeError):
    """A readable play or event that breaks a rule; `rule_id` is stable for translation.

    >>> IllegalPlayError("shengji.follow.pair", "must follow with a pair").rule_id
    'shengji.follow.pair'
    """

    def __init__(self, rule_id: str, message: str, **params: Any) -> None:
        self.rule_id = rule_id
        self.params = params
        super().__init__(message)


class InvalidRecordError(RefereeError, ValueError):
    """A table record that cannot be replayed at all (exit 1 of `python -m referee replay`).

    `event` is the 0-based index of the offending event within its deal (or None), `deal`
    its 1-based deal number (or None). `rule_id` is stable, for translation by the web
    layer (`record.card_copies`, `record.order.play_before_bury`, `record.seat`,
    `record.notation`, …; `record.invalid` when nothing more precise applies).

    >>> error = InvalidRecordError("unknown seat 7", deal=1, event=4, rule_id="record.seat")
    >>> str(error), error.rule_id
    ('deal 1, event 4: unknown seat 7', 'record.seat')
    """

    def __init__(
        self,
        message: str,
        *,
        deal: int | None = None,
        event: int | None = None,
        rule_id: str = "record.invalid",
    ) -> None:
        self.deal = deal
        self.event = event
        self.rule_id = rule_id
        prefix = ""
        if deal is not None:
            prefix = f"deal {deal}"
            if event is not None:
                prefix += f", event {event}"
        elif event is not None:
            prefix = f"event {event}"
        super().__init__(f"{prefix}: {message}" if prefix else message)
