"""Golden Guandan table records (tests/referee/records/guandan_*.json) replayed end to end,
through `referee.record` and through `python -m referee replay` / `simulate`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.record import load_record, replay_document
from tests.referee.test_golden import subset_problems

ROOT = Path(__file__).resolve().parents[3]
RECORDS = ROOT / "tests" / "referee" / "records"
GOLDEN = sorted(p for p in RECORDS.glob("guandan_*.json") if not p.name.endswith(".expected.json"))


def test_subset_comparison_catches_differences():
    assert subset_problems({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2, "c": 3}]}) == []
    assert subset_problems({"a": [1]}, {"a": [1, 2]})
    assert subset_problems({"a": {"b": 1}}, {"a": {"b": 2}})


def test_golden_records_exist():
    assert len(GOLDEN) >= 5


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_record_replays_to_expected(path):
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    result = replay_document(load_record(path.read_text(encoding="utf-8")))
    assert result["format"] == "table-result/1"
    problems = subset_problems(expected, result)
    assert not problems, "\n".join(problems[:20])


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee", *args], cwd=ROOT, input=stdin,
        capture_output=True, text=True, timeout=120, check=False,
    )


def test_cli_replays_a_guandan_golden_record():
    path = RECORDS / "guandan_tribute_violations.json"
    done = run_cli("replay", str(path))
    assert done.returncode == 0, done.stderr
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    assert subset_problems(expected, json.loads(done.stdout)) == []


def test_cli_rejects_a_third_copy_with_deal_and_event():
    doc = {
        "format": "table-record/1", "game": "guandan", "rulebook": "guandan-lyg",
        "deals": [{"events": [
            {"type": "play", "seat": 0, "cards": ["5S", "5S"]},
            {"type": "pass", "seat": 1},
            {"type": "play", "seat": 2, "cards": ["5S"]},
        ]}],
    }
    done = run_cli("replay", "-", stdin=json.dumps(doc))
    assert done.returncode == 1
    assert "deal 1, event 2" in done.stderr and "Traceback" not in done.stderr


def test_cli_simulates_a_legal_guandan_match():
    done = run_cli("simulate", "--rulebook", "guandan-lyg", "--seed", "3")
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["game"] == "guandan" and record["deals"]
    replayed = run_cli("replay", "-", stdin=done.stdout)
    assert replayed.returncode == 0, replayed.stderr
    result = json.loads(replayed.stdout)
    assert result["match"]["finished"] is True
    assert all(deal["violations"] == [] for deal in result["deals"])
