"""Typed Shengji table-record events, parsed from (and printed back to) JSON objects.

Every event keeps its 0-based `index` within its deal, which violations cite.

>>> e = parse_event({"type": "declare", "seat": 1, "cards": ["2S"]}, 0)
>>> e, event_to_json(e)
(Declare(index=0, seat=1, cards=(Card('2S'),), face_down=False), {'type': 'declare', 'seat': 1, 'cards': ['2S']})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.cards import Card, format_cards, parse_cards
from referee.errors import InvalidRecordError, NotationError

__all__ = [
    "PENALTY_KINDS",
    "Bury",
    "Declare",
    "Event",
    "Flip",
    "Overcall",
    "Pass",
    "Penalty",
    "QuickResult",
    "Reinforce",
    "ThrowFail",
    "Trick",
    "event_to_json",
    "parse_event",
    "parse_events",
]

PENALTY_KINDS = (
    "failed_throw",
    "wrong_follow",
    "hidden_card",
    "card_count",
    "wrong_declaration",
    "talking",
    "timeout",
    "other",
)
LAST_TRICK_SHAPES_FIXED = ("single", "pair", "throw")


@dataclass(frozen=True, slots=True)
class Declare:
    """亮主 / 报主 / 抢亮: cards shown from the hand to declare trump."""

    index: int
    seat: int
    cards: tuple[Card, ...]
    face_down: bool = False


@dataclass(frozen=True, slots=True)
class Overcall:
    """反主: a stronger declaration over the current one."""

    index: int
    seat: int
    cards: tuple[Card, ...]
    face_down: bool = False


@dataclass(frozen=True, slots=True)
class Pass:
    """不反: `seat` says it does not overcall, in the eighty-rr round (seed 002 3.4).

    >>> event_to_json(parse_event({"type": "pass", "seat": 2}, 1))
    {'type': 'pass', 'seat': 2}
    """

    index: int
    seat: int


@dataclass(frozen=True, slots=True)
class Reinforce:
    """防反: the twin added to one's own single declaration."""

    index: int
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Flip:
    """定主: the top bottom card turned because nobody declared."""

    index: int
    card: Card


@dataclass(frozen=True, slots=True)
class Bury:
    """扣底: the 8 cards put down (again after 反主抄底)."""

    index: int
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Trick:
    """One trick: four plays in play order, starting with `leader`."""

    index: int
    leader: int
    plays: tuple[tuple[Card, ...], ...]

    def seat_of(self, position: int) -> int:
        """The seat that made the play at `position` (0 = the leader)."""
        return (self.leader + position) % 4


@dataclass(frozen=True, slots=True)
class ThrowFail:
    """甩牌失败: `seat` tried to throw `attempted`; `blocker` showed `blocking`."""

    index: int
    seat: int
    attempted: tuple[Card, ...]
    blocker: int
    blocking: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Penalty:
    """违例: a penalty the referee gave; `points` None = the rulebook's default."""

    index: int
    seat: int
    kind: str
    points: int | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class QuickResult:
    """Quick entry (`result`): what the table agreed instead of the tricks."""

    index: int
    defender_points: int
    bottom_points: int
    last_trick_winner: int
    last_trick_shape: str
    last_trick_trump: bool
    last_trick_throw_largest: str | None = None


Event = Declare | Overcall | Pass | Reinforce | Flip | Bury | Trick | ThrowFail | Penalty | QuickResult


def _seat(data: Mapping[str, Any], key: str, where: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise NotationError(
            repr(value), where, f"{key} must be a seat 0..3, not {value!r}", rule_id="record.seat"
        )
    return value


def _cards(data: Mapping[str, Any], key: str, where: str) -> tuple[Card, ...]:
    value = data.get(key)
    if not isinstance(value, list | tuple | str):
        raise NotationError(repr(value), where, f"{key} must be a list of cards")
    return parse_cards(value, f"{where}, {key}")


def _int(data: Mapping[str, Any], key: str, where: str, *, optional: bool = False) -> int | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise NotationError(repr(value), where, f"{key} must be an integer, not {value!r}")
    return value


def _shape(value: Any, where: str, key: str) -> str:
    if isinstance(value, str) and (
        value in LAST_TRICK_SHAPES_FIXED
        or (value.startswith("tractor") and (value == "tractor" or value[7:].isdigit()))
    ):
        return "tractor2" if value == "tractor" else value
    raise NotationError(repr(value), where, f"{key} must be single, pair, tractorN or throw")


def parse_event(data: Mapping[str, Any], index: int, where: str = "") -> Event:
    """Read one Shengji event; raise `NotationError` naming the field that is wrong."""
    where = where or f"event {index}"
    if not isinstance(data, Mapping):
        raise NotationError(repr(data), where, "an event must be a JSON object")
    kind = data.get("type")
    face_down = bool(data.get("face_down", False))
    if kind == "declare":
        return Declare(index, _seat(data, "seat", where), _cards(data, "cards", where), face_down)
    if kind == "overcall":
        return Overcall(index, _seat(data, "seat", where), _cards(data, "cards", where), face_down)
    if kind == "pass":
        return Pass(index, _seat(data, "seat", where))
    if kind == "reinforce":
        return Reinforce(index, _seat(data, "seat", where), _cards(data, "cards", where))
    if kind == "flip":
        card = data.get("card")
        if not isinstance(card, str):
            raise NotationError(repr(card), where, "flip needs one card")
        return Flip(index, parse_cards([card], where)[0])
    if kind == "bury":
        return Bury(index, _seat(data, "seat", where), _cards(data, "cards", where))
    if kind == "trick":
        plays = data.get("plays")
        if not isinstance(plays, list | tuple) or len(plays) != 4:
            raise NotationError(repr(plays), where, "a trick needs four plays")
        return Trick(
            index,
            _seat(data, "leader", where),
            tuple(parse_cards(p, f"{where}, play {i + 1}") for i, p in enumerate(plays)),
        )
    if kind == "throw_fail":
        return ThrowFail(
            index,
            _seat(data, "seat", where),
            _cards(data, "attempted", where),
            _seat(data, "blocker", where),
            _cards(data, "blocking", where),
        )
    if kind == "penalty":
        penalty_kind = data.get("kind")
        if penalty_kind not in PENALTY_KINDS:
            raise NotationError(
                repr(penalty_kind), where, f"penalty kind must be one of {', '.join(PENALTY_KINDS)}"
            )
        note = data.get("note", "")
        return Penalty(
            index,
            _seat(data, "seat", where),
            str(penalty_kind),
            _int(data, "points", where, optional=True),
            str(note) if note is not None else "",
        )
    if kind == "result":
        largest = data.get("last_trick_throw_largest")
        return QuickResult(
            index,
            _int(data, "defender_points", where) or 0,
            _int(data, "bottom_points", where) or 0,
            _seat(data, "last_trick_winner", where),
            _shape(data.get("last_trick_shape"), where, "last_trick_shape"),
            bool(data.get("last_trick_trump", False)),
            None if largest is None else _shape(largest, where, "last_trick_throw_largest"),
        )
    raise NotationError(repr(kind), where, f"unknown event type {kind!r}")


def parse_events(events: Sequence[Mapping[str, Any]], deal: int) -> list[Event]:
    """Read a deal's events; any unreadable one makes the record invalid (names deal and index)."""
    if not isinstance(events, list | tuple):
        raise InvalidRecordError("events must be a list", deal=deal, rule_id="record.events")
    parsed = []
    for index, data in enumerate(events):
        try:
            parsed.append(parse_event(data, index))
        except NotationError as error:
            raise InvalidRecordError(
                str(error), deal=deal, event=index, rule_id=error.rule_id
            ) from error
    return parsed


def event_to_json(event: Event) -> dict[str, Any]:
    """Print an event back in the canonical record form (parse ∘ print is the identity)."""
    match event:
        case Declare(_, seat, cards, face_down) | Overcall(_, seat, cards, face_down):
            data: dict[str, Any] = {
                "type": "declare" if isinstance(event, Declare) else "overcall",
                "seat": seat,
                "cards": [str(c) for c in cards],
            }
            if face_down:
                data["face_down"] = True
            return data
        case Pass(_, seat):
            return {"type": "pass", "seat": seat}
        case Reinforce(_, seat, cards):
            return {"type": "reinforce", "seat": seat, "cards": [str(c) for c in cards]}
        case Flip(_, card):
            return {"type": "flip", "card": str(card)}
        case Bury(_, seat, cards):
            return {"type": "bury", "seat": seat, "cards": [str(c) for c in cards]}
        case Trick(_, leader, plays):
            return {"type": "trick", "leader": leader, "plays": [[str(c) for c in p] for p in plays]}
        case ThrowFail(_, seat, attempted, blocker, blocking):
            return {
                "type": "throw_fail",
                "seat": seat,
                "attempted": [str(c) for c in attempted],
                "blocker": blocker,
                "blocking": [str(c) for c in blocking],
            }
        case Penalty(_, seat, kind, points, note):
            data = {"type": "penalty", "seat": seat, "kind": kind}
            if points is not None:
                data["points"] = points
            if note:
                data["note"] = note
            return data
        case QuickResult():
            data = {
                "type": "result",
                "defender_points": event.defender_points,
                "bottom_points": event.bottom_points,
                "last_trick_winner": event.last_trick_winner,
                "last_trick_shape": event.last_trick_shape,
                "last_trick_trump": event.last_trick_trump,
            }
            if event.last_trick_throw_largest is not None:
                data["last_trick_throw_largest"] = event.last_trick_throw_largest
            return data
    raise AssertionError(f"unknown event {event!r}")  # pragma: no cover


def describe(cards: tuple[Card, ...]) -> str:
    """Cards for messages: `10H 10H`."""
    return format_cards(cards)
