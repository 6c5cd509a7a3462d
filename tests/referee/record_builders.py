"""Small builders for Shengji table records used by the deal, match, CLI and golden tests."""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

from referee.rulebooks import find_rulebook
from referee.shengji.simulate import simulate_match

ZERO_BOTTOM = ["3D", "3D", "4D", "4D", "6D", "6D", "7D", "7D"]
BOTTOM_25 = ["5C", "10C", "KC", "3D", "3D", "4D", "4D", "6D"]  # 25 points


def record(rulebook: str, deals: list[dict[str, Any]], levels: tuple[str, str] = ("2", "2"),
           **extra: Any) -> dict[str, Any]:
    """A table-record/1 document."""
    doc: dict[str, Any] = {
        "format": "table-record/1",
        "game": "shengji",
        "rulebook": rulebook,
        "players": ["赵", "钱", "孙", "李"],
        "levels": list(levels),
        "deals": deals,
    }
    doc.update(extra)
    return doc


def quick_deal(
    declarer: int,
    declare: list[str],
    dealer: int,
    defender_points: int,
    *,
    last_winner: int | None = None,
    bottom: list[str] | None = None,
    shape: str = "single",
    trump: bool = False,
    extra: list[dict[str, Any]] | None = None,
    given_dealer: int | None = None,
) -> dict[str, Any]:
    """declare → bury by the dealer → a quick `result` (bottom points from `bottom`)."""
    bottom = bottom or ZERO_BOTTOM
    points = {"5": 5, "10": 10, "K": 10}
    bottom_points = sum(points.get(card[:-1], 0) for card in bottom)
    events: list[dict[str, Any]] = [
        {"type": "declare", "seat": declarer, "cards": declare},
        {"type": "bury", "seat": dealer, "cards": bottom},
        *(extra or []),
        {
            "type": "result",
            "defender_points": defender_points,
            "bottom_points": bottom_points,
            "last_trick_winner": dealer if last_winner is None else last_winner,
            "last_trick_shape": shape,
            "last_trick_trump": trump,
        },
    ]
    deal: dict[str, Any] = {"events": events}
    if given_dealer is not None:
        deal["dealer"] = given_dealer
    return deal


@lru_cache(maxsize=32)
def _simulated(rulebook: str, seed: int, deals: int) -> dict[str, Any]:
    return simulate_match(find_rulebook(rulebook), seed, deals=deals)


def simulated(rulebook: str, seed: int, deals: int = 1) -> dict[str, Any]:
    """A (copied) simulated record, cached per (rulebook, seed, deals)."""
    return copy.deepcopy(_simulated(rulebook, seed, deals))


def first_trick_index(events: list[dict[str, Any]]) -> int:
    """Index of the first trick event."""
    return next(i for i, e in enumerate(events) if e["type"] == "trick")
