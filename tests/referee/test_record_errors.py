"""Stable `rule_id`s on `InvalidRecordError` (RECORD_FORMAT.md: a record that cannot be replayed).

The web layer translates a rejected record by `rule_id`, never by the message text.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.errors import InvalidRecordError
from referee.record import load_record, replay_document
from tests.referee.record_builders import ZERO_BOTTOM, record


def _rule_id(doc: Any) -> str:
    with pytest.raises(InvalidRecordError) as caught:
        replay_document(doc)
    return caught.value.rule_id


def _deal(*events: dict[str, Any]) -> dict[str, Any]:
    return {"events": list(events)}


DECLARE = {"type": "declare", "seat": 1, "cards": ["2S"]}
BURY = {"type": "bury", "seat": 1, "cards": ZERO_BOTTOM}
TRICK = {"type": "trick", "leader": 1, "plays": [["3S"], ["4S"], ["5S"], ["6S"]]}


def test_default_rule_id_is_record_invalid() -> None:
    assert InvalidRecordError("something").rule_id == "record.invalid"


def test_unreadable_json_and_document() -> None:
    with pytest.raises(InvalidRecordError) as caught:
        load_record("{")
    assert caught.value.rule_id == "record.json"
    assert _rule_id([1]) == "record.document"
    assert _rule_id(record("union-2deck", []) | {"format": "x"}) == "record.format"
    assert _rule_id(record("no-such", [])) == "record.rulebook"
    assert _rule_id(record("union-2deck", [], options={"nope": 1})) == "record.options"


def test_play_before_bury_000_s8() -> None:
    """The dealer buries (扣底) before the first lead."""
    assert _rule_id(record("union-2deck", [_deal(DECLARE, TRICK)])) == (
        "record.order.play_before_bury"
    )


def test_third_copy_of_a_card_is_card_copies() -> None:
    """Two decks hold two of each card (RULEBOOKS.md §1)."""
    triple = {"type": "declare", "seat": 1, "cards": ["2S", "2S", "2S"]}
    assert _rule_id(record("union-2deck", [_deal(triple)])) == "record.card_copies"


def test_bad_seat_and_bad_card_notation() -> None:
    bad_seat = {"type": "declare", "seat": 7, "cards": ["2S"]}
    assert _rule_id(record("union-2deck", [_deal(bad_seat)])) == "record.seat"
    bad_card = {"type": "declare", "seat": 1, "cards": ["XX"]}
    assert _rule_id(record("union-2deck", [_deal(bad_card)])) == "record.notation"


def test_bury_must_hold_eight_cards() -> None:
    short = {"type": "bury", "seat": 1, "cards": ZERO_BOTTOM[:7]}
    assert _rule_id(record("union-2deck", [_deal(DECLARE, short)])) == "record.bury_size"


def test_guandan_rule_ids_004() -> None:
    doc = {
        "format": "table-record/1",
        "game": "guandan",
        "rulebook": "guandan-lyg",
        "deals": [{"events": [{"type": "play", "seat": 9, "cards": ["3S"]}]}],
    }
    assert _rule_id(doc) == "record.seat"
    doc["deals"] = [{"events": [{"type": "play", "seat": 0, "cards": ["3S"] * 3}]}]
    assert _rule_id(doc) == "record.card_copies"
    doc["deals"] = [{"events": [{"type": "dance"}]}]
    assert _rule_id(doc) == "record.notation"


def test_every_record_rule_id_is_documented() -> None:
    """docs/RECORD_FORMAT.md lists every `record.*` rule id the engine raises."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    used = {
        match
        for path in (root / "referee").rglob("*.py")
        for match in re.findall(r'"(record\.[a-z_.]+)"', path.read_text("utf-8"))
    }
    doc = (root / "docs" / "RECORD_FORMAT.md").read_text("utf-8")
    assert len(used) > 20
    assert sorted(rule for rule in used if f"`{rule}`" not in doc) == []
