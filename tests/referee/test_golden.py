"""Golden table records replayed end to end (`tests/referee/records/*.json`).

Each `NAME.json` record has `NAME.expected.json` beside it: the parts of the result that
must come out exactly (a recursive subset: objects may hold more keys, lists must match
element by element). `python tests/referee/test_golden.py NAME…` (re)writes the expected
file of Shengji records from the current engine, for review before committing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.record import load_record, replay_document

RECORDS = Path(__file__).resolve().parent / "records"
OTHERS = ("guandan_", "decl_")  # replayed by test_guandan_* and test_declaration_records.py
NAMES = sorted(
    path.name[: -len(".json")]
    for path in RECORDS.glob("*.json")
    if not path.name.endswith(".expected.json") and not path.name.startswith(OTHERS)
)
DEAL_KEYS = (
    "number", "phase", "dealer", "level", "trump", "tricks", "captured", "bottom",
    "penalties", "defender_total", "outcome", "levels_after", "match_points", "next_leader",
    "next_dealer", "promotion",
    "bottom_cards",
)


def subset_problems(expected: Any, actual: Any, path: str = "$") -> list[str]:
    """Where `actual` does not contain `expected` (empty list: it does)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {actual!r}"]
        problems = []
        for key, value in expected.items():
            if key not in actual:
                problems.append(f"{path}.{key}: missing")
            else:
                problems += subset_problems(value, actual[key], f"{path}.{key}")
        return problems
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: expected {len(expected)} items, got {actual!r}"[:300]]
        problems = []
        for index, (want, got) in enumerate(zip(expected, actual, strict=True)):
            problems += subset_problems(want, got, f"{path}[{index}]")
        return problems
    return [] if expected == actual else [f"{path}: expected {expected!r}, got {actual!r}"]


def test_subset_matching_catches_differences() -> None:
    """The comparison itself fails on a changed, missing or extra list item."""
    assert subset_problems({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2, "c": 3}], "d": 4}) == []
    assert subset_problems({"a": [1]}, {"a": [2]})
    assert subset_problems({"a": 1}, {})
    assert subset_problems([1], [1, 2])


@pytest.mark.parametrize("name", NAMES)
def test_golden_record(name: str) -> None:
    """The record replays and its result holds the expected figures."""
    expected_path = RECORDS / f"{name}.expected.json"
    assert expected_path.exists(), f"{expected_path.name} is missing"
    doc = load_record((RECORDS / f"{name}.json").read_text(encoding="utf-8"))
    result = replay_document(doc)
    expected = json.loads(expected_path.read_text(encoding="utf-8"))
    problems = subset_problems(expected, result)
    assert not problems, "\n".join(problems[:20])


def expected_for(result: dict[str, Any]) -> dict[str, Any]:
    """The expected subset of a Shengji result: deal figures, violation kinds, match."""
    deals = []
    for deal in result["deals"]:
        kept = {key: deal[key] for key in DEAL_KEYS if key in deal}
        kept["violations"] = [
            {k: v for k, v in violation.items() if k in ("event", "seat", "kind", "proof_event")}
            for violation in deal["violations"]
        ]
        deals.append(kept)
    return {"format": result["format"], "deals": deals, "match": result["match"]}


def regenerate(names: list[str]) -> None:
    """Write NAME.expected.json for the given Shengji records."""
    for name in names:
        doc = load_record((RECORDS / f"{name}.json").read_text(encoding="utf-8"))
        result = replay_document(doc)
        text = json.dumps(expected_for(result), ensure_ascii=False, indent=1)
        (RECORDS / f"{name}.expected.json").write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    regenerate(sys.argv[1:])
