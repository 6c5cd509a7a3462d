"""Fixtures for the Guandan engine tests: the guandan-lyg rulebook and a record builder."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from referee.cards import Rank, parse_cards
from referee.guandan import replay_guandan
from referee.guandan.combos import Combo, classify, readings
from referee.rulebooks import Rulebook, find_rulebook

Replay = Callable[..., dict[str, Any]]


@pytest.fixture
def rulebook() -> Rulebook:
    """The guandan-lyg preset (seed 004)."""
    return find_rulebook("guandan-lyg")


@pytest.fixture
def replay(rulebook: Rulebook) -> Replay:
    """replay(deal_events, ..., levels=["2", "2"], on_table=0, options={}) → result JSON.

    Each positional argument is one deal: a list of events, or a dict with `events`.
    """

    def run(*deals: Any, options: dict[str, Any] | None = None, **doc: Any) -> dict[str, Any]:
        book = rulebook.with_options(options) if options else rulebook
        record = {
            "format": "table-record/1",
            "game": "guandan",
            "rulebook": "guandan-lyg",
            "deals": [d if isinstance(d, dict) else {"events": d} for d in deals],
            **doc,
        }
        return replay_guandan(book, record)

    return run


@pytest.fixture
def combo() -> Callable[[str, str], Combo | None]:
    """combo("3S 4S 5S 6S 7S", "2") → the strongest reading at level 2."""

    def run(cards: str, level: str = "2") -> Combo | None:
        return classify(parse_cards(cards), Rank(level))

    return run


@pytest.fixture
def kinds() -> Callable[[str, str], list[tuple[str, str]]]:
    """kinds("…", level) → every reading as (kind, rank), strongest first."""

    def run(cards: str, level: str = "2") -> list[tuple[str, str]]:
        return [(c.kind, c.rank.value) for c in readings(parse_cards(cards), Rank(level))]

    return run


def play(seat: int, cards: str, **extra: Any) -> dict[str, Any]:
    """A `play` event from a card string."""
    return {"type": "play", "seat": seat, "cards": cards.split(), **extra}


def pass_(seat: int) -> dict[str, Any]:
    """A `pass` event."""
    return {"type": "pass", "seat": seat}


@pytest.fixture
def ev() -> Any:
    """Event builders: ev.play(seat, "3S 3D"), ev.pass_(seat), ev.result([...]), …"""

    class Events:
        @staticmethod
        def play(seat: int, cards: str, **extra: Any) -> dict[str, Any]:
            return play(seat, cards, **extra)

        @staticmethod
        def pass_(seat: int) -> dict[str, Any]:
            return pass_(seat)

        @staticmethod
        def passes(*seats: int) -> list[dict[str, Any]]:
            return [pass_(s) for s in seats]

        @staticmethod
        def result(order: list[int]) -> dict[str, Any]:
            return {"type": "result", "order": order}

        @staticmethod
        def tribute(giver: int, receiver: int, card: str) -> dict[str, Any]:
            return {"type": "tribute", "from": giver, "to": receiver, "card": card}

        @staticmethod
        def return_(giver: int, receiver: int, card: str) -> dict[str, Any]:
            return {"type": "return", "from": giver, "to": receiver, "card": card}

        @staticmethod
        def anti(seat: int, cards: str) -> dict[str, Any]:
            return {"type": "anti_tribute", "seat": seat, "cards": cards.split()}

        @staticmethod
        def penalty(seat: int, kind: str, **extra: Any) -> dict[str, Any]:
            return {"type": "penalty", "seat": seat, "kind": kind, **extra}

        @staticmethod
        def report(seat: int, remaining: int) -> dict[str, Any]:
            return {"type": "report", "seat": seat, "remaining": remaining}

    return Events()


def kinds_of(result: dict[str, Any], deal: int = 0) -> list[str]:
    """Violation kinds of one deal."""
    return [v["kind"] for v in result["deals"][deal]["violations"]]


@pytest.fixture
def violations() -> Callable[..., list[str]]:
    """violations(result, deal=0) → the violation kinds of that deal."""
    return kinds_of
