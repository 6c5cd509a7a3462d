"""Face-down declarations (shuangkou-simple): the record holds the card, the sheet says so."""

from __future__ import annotations

from typing import Any

import pytest

from referee.cards import Suit, parse_cards
from referee.errors import InvalidRecordError
from referee.rulebooks import find_rulebook
from referee.shengji.declaration import DealSetup, DeclarationOutcome, resolve_declarations
from referee.shengji.events import event_to_json, parse_events


def resolve(rulebook: str, events: list[dict[str, Any]], **setup: Any) -> DeclarationOutcome:
    return resolve_declarations(
        find_rulebook(rulebook), DealSetup(2, ("2", "2"), **setup), parse_events(events, 2)
    )


def test_shuangkou_declaration_is_shown_face_down_003_s2() -> None:
    """003 二: 必須將所亮的牌背面向上 — the trump suit still comes from the recorded card."""
    out = resolve(
        "shuangkou-simple",
        [{"type": "declare", "seat": 1, "cards": ["2H"], "face_down": True}],
        dealer=0,
    )
    row = out.history[0]
    assert (row.face_down, row.cards, out.trump_suit) == (True, parse_cards("2H"), Suit.HEARTS)
    assert row.to_json()["face_down"] is True


def test_shuangkou_rulebook_marks_calls_face_down_even_if_unflagged_003_s3() -> None:
    """003 三: 同樣必須將所亮的牌背面向上 — the rulebook's way of showing is face down."""
    out = resolve(
        "shuangkou-simple",
        [
            {"type": "declare", "seat": 1, "cards": ["2H"]},
            {"type": "overcall", "seat": 2, "cards": ["2C", "2C"]},
        ],
        dealer=0,
    )
    assert [row.face_down for row in out.history] == [True, True]


def test_shuangkou_joker_pair_overcall_face_up_003_s3() -> None:
    """003 三: （用大小王反主除外） — a joker pair is shown face up."""
    out = resolve(
        "shuangkou-simple",
        [
            {"type": "declare", "seat": 1, "cards": ["2H"]},
            {"type": "overcall", "seat": 2, "cards": ["SJ", "SJ"]},
        ],
        dealer=0,
    )
    assert [row.face_down for row in out.history] == [True, False]


def test_union_declaration_is_face_up_unless_recorded_000_art13() -> None:
    """000 第十三条一: 亮在桌面上 — union-2deck shows declarations face up."""
    out = resolve("union-2deck", [{"type": "declare", "seat": 1, "cards": ["2H"]}], dealer=0)
    assert out.history[0].face_down is False


def test_face_down_flag_round_trips_through_the_record_003_s2() -> None:
    """003 二: the face_down flag survives parse ∘ print of the event."""
    data = {"type": "declare", "seat": 1, "cards": ["2H"], "face_down": True}
    assert event_to_json(parse_events([data], 1)[0]) == data


def test_declared_cards_per_seat_include_rejected_and_reinforced_000_art13() -> None:
    """000 第十三条: cards shown come from the hand — the deal checks each is later played."""
    events = [
        {"type": "declare", "seat": 1, "cards": ["2H"]},
        {"type": "reinforce", "seat": 1, "cards": ["2H"]},
        {"type": "overcall", "seat": 2, "cards": ["2S", "2S"]},
        {"type": "declare", "seat": 3, "cards": ["7C"]},
    ]
    out = resolve("union-2deck", events, dealer=0)
    assert dict(out.declared) == {
        1: parse_cards("2H 2H"),
        2: parse_cards("2S 2S"),
        3: parse_cards("7C"),
    }


def test_more_cards_shown_than_two_decks_hold_is_invalid_000_art13() -> None:
    """000 第十三条: calls are shown from the hand; three ♥2 cannot be shown by two decks."""
    events = [
        {"type": "declare", "seat": 1, "cards": ["2H"]},
        {"type": "overcall", "seat": 2, "cards": ["2H", "2H"]},
    ]
    with pytest.raises(InvalidRecordError) as caught:
        resolve("union-2deck", events, dealer=0)
    assert (caught.value.deal, caught.value.event) == (2, 1)
