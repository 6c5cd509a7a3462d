"""Helpers for the event tests: an eighty-rr event with pairs, and quick results per match."""

from __future__ import annotations

from typing import Any

from web import services

ZERO_BOTTOM = ["3D", "3D", "4D", "4D", "6D", "6D", "7D", "7D"]


def quick_deal_events(dealer: int, defender_points: int) -> list[dict[str, Any]]:
    """declare → bury → quick `result` for one deal with `dealer` (seat)."""
    return [
        {"type": "declare", "seat": dealer, "cards": ["2S"]},
        {"type": "bury", "seat": dealer, "cards": ZERO_BOTTOM},
        {
            "type": "result",
            "defender_points": defender_points,
            "bottom_points": 0,
            "last_trick_winner": dealer,
            "last_trick_shape": "single",
            "last_trick_trump": False,
        },
    ]


# eighty-rr (seed 002 §二): dealers rotate 0, 1, 2, 3; defenders' total 0 → dealer side 4,
# 100 → defenders 2. Deal points per outcome: home 10:4, away 4:10, draw 8:8.
EIGHTY_PLANS = {
    0: [(0, 0), (1, 0), (2, 0), (3, 100)],
    1: [(0, 100), (1, 0), (2, 0), (3, 0)],
    None: [(0, 0), (1, 0), (2, 0), (3, 0)],
}


def finish_eighty(match_id: int, winner: int | None) -> dict[str, Any]:
    """Play a 4-deal eighty-rr match by quick results so that side `winner` wins (None: draw)."""
    state: dict[str, Any] = {}
    for dealer, points in EIGHTY_PLANS[winner]:
        for event in quick_deal_events(dealer, points):
            state = services.append_event(
                match_id,
                event,
                expected_seq=None,
                idempotency_key=None,
                actor="test",
                device="pytest",
            )
    assert state["finished"], state.get("result", {}).get("match")
    return state


def make_event(factory: Any, pairs: int, rulebook: str = "eighty-rr", clubs: list[str] | None = None) -> Any:
    """An event with `pairs` pairs (named 队1…), optionally with clubs."""
    from web.extensions import db

    event = factory.event(rulebook=rulebook, name="测试赛")
    for i in range(pairs):
        pair = factory.pair(event, name=f"队{i + 1}")
        if clubs:
            pair.club = clubs[i]
    db.session.commit()
    return event
