"""Golden table records: grab → overcall → bury → play → next deal's declaration, per rulebook.

Each `records/decl_*.json` is replayed through `python -m referee replay`; the declaration
fields of every deal (dealer, level, trump, history, final bottom, violations) and the
promotion that decides the next deal's dealer must equal `decl_*.expected.json`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

RECORDS = Path(__file__).parent / "records"
ROOT = Path(__file__).resolve().parents[2]
GOLDEN = sorted(p for p in RECORDS.glob("decl_*.json") if not p.name.endswith(".expected.json"))


def replay(path: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "referee", "replay", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_every_rulebook_has_a_golden_declaration_record() -> None:
    """RULEBOOKS.md §2: a full sequence for each of the four Shengji rulebooks."""
    rulebooks = {json.loads(p.read_text("utf-8"))["rulebook"] for p in GOLDEN}
    assert rulebooks == {"union-2deck", "shuangsheng-17", "eighty-rr", "shuangkou-simple"}


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_declaration_record_replays_as_expected(path: Path) -> None:
    """The CLI replay gives the expected dealer, trump, history and bottom for every deal."""
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text("utf-8"))
    result = replay(path)
    assert len(result["deals"]) == len(expected["deals"])
    for got, want in zip(result["deals"], expected["deals"], strict=True):
        if "next_dealer" in want:
            assert got["outcome"]["next_dealer"] == want["next_dealer"], got["number"]
        for key, value in want.items():
            if key != "next_dealer":
                assert got.get(key) == value, (got["number"], key)
    for key, value in expected["match"].items():
        assert result["match"][key] == value, key


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_record_next_deal_dealer_follows_previous_result(path: Path) -> None:
    """000 十一 / 001 十 / 002 3.1.1 / 003 六: each deal's dealer is the previous next_dealer
    unless a declaration took the deal (deal 1 grab, shuangsheng own-level declaration)."""
    result = replay(path)
    for before, after in zip(result["deals"], result["deals"][1:], strict=False):
        if before["phase"] == "redeal":
            continue
        took = any(
            row["accepted"] and "takes the deal" in row["effect"] for row in after["declarations"]
        )
        assert took or after["dealer"] == before["outcome"]["next_dealer"]
