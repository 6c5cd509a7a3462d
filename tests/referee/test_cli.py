"""The command line: `python -m referee replay FILE|-` and `python -m referee simulate`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from record_builders import quick_deal, record

from referee.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=120,
    )


def good_record() -> dict[str, Any]:
    return record("union-2deck", [quick_deal(0, ["2S"], 0, 40)])


def test_replay_file_prints_result_json_exit_0(tmp_path: Path) -> None:
    """`replay FILE` prints the table-result/1 JSON (UTF-8, indented) and exits 0."""
    path = tmp_path / "match.json"
    path.write_text(json.dumps(good_record(), ensure_ascii=False), encoding="utf-8")
    done = run("replay", str(path))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["format"] == "table-result/1"
    assert result["deals"][0]["levels_after"] == ["3", "2"]
    assert result["match"] == {**result["match"], "finished": False, "winner": None}
    assert "\n  " in done.stdout  # indent 2
    assert done.stderr == ""


def test_replay_dash_reads_stdin() -> None:
    """`replay -` reads the record from standard input."""
    done = run("replay", "-", stdin=json.dumps(good_record()))
    assert done.returncode == 0
    assert json.loads(done.stdout)["deals"][0]["defender_total"] == 40


def test_replay_keeps_chinese_unescaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ensure_ascii=False: the scoresheet's Chinese text stays readable."""
    path = tmp_path / "m.json"
    path.write_text(json.dumps(good_record()), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\\u" not in out


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        (json.dumps({"format": "table-record/9", "game": "shengji", "rulebook": "union-2deck",
                     "deals": []}), "format"),
        (json.dumps({"format": "table-record/1", "game": "shengji", "rulebook": "nope",
                     "deals": []}), "unknown rulebook"),
        (json.dumps(record("union-2deck", [{"events": [
            {"type": "declare", "seat": 7, "cards": ["2S"]}]}])), "deal 1, event 0"),
        (json.dumps(record("union-2deck", [{"events": [
            {"type": "declare", "seat": 0, "cards": ["2X"]}]}])), "2X"),
    ],
)
def test_invalid_record_exit_1_one_line_no_traceback(text: str, needle: str) -> None:
    """RECORD_FORMAT.md: invalid → exit 1, one clear error line on stderr, never a traceback."""
    done = run("replay", "-", stdin=text)
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert needle in lines[0]
    assert "Traceback" not in done.stderr


def test_missing_file_is_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An unreadable file is an error line too, not a traceback."""
    assert main(["replay", str(tmp_path / "missing.json")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: cannot read")


def test_third_copy_error_names_deal_and_event(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    """A card played more often than two decks hold names the deal and event index."""
    events = [
        {"type": "declare", "seat": 0, "cards": ["2S"]},
        {"type": "bury", "seat": 0, "cards": ["3D", "3D", "4D", "4D", "6D", "6D", "7D", "7D"]},
        {"type": "trick", "leader": 0, "plays": [["3D"], ["4C"], ["5C"], ["6C"]]},
    ]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record("union-2deck", [{"events": events}])), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert "deal 1, event 2" in err and "3D" in err


@pytest.mark.parametrize("rulebook", ["union-2deck", "eighty-rr"])
def test_simulate_prints_a_record_that_replays_cleanly(rulebook: str) -> None:
    """`simulate --rulebook R --seed N` prints a complete legal record; replay finds nothing."""
    done = run("simulate", "--rulebook", rulebook, "--seed", "4", "--deals", "2")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["format"] == "table-record/1" and doc["rulebook"] == rulebook
    assert len(doc["deals"]) == 2
    replayed = run("replay", "-", stdin=done.stdout)
    assert replayed.returncode == 0
    result = json.loads(replayed.stdout)
    assert all(deal["violations"] == [] for deal in result["deals"])
    assert all(deal["phase"] == "finished" for deal in result["deals"])


def test_simulate_is_deterministic_per_seed(capsys: pytest.CaptureFixture[str]) -> None:
    """The same seed prints the same record; another seed another one."""
    outputs = []
    for seed in ("5", "5", "6"):
        assert main(["simulate", "--rulebook", "shuangkou-simple", "--seed", seed, "--deals", "1"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] != outputs[2]


def test_simulate_unknown_rulebook_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown rulebook name: exit 1, one line."""
    assert main(["simulate", "--rulebook", "nope", "--seed", "1"]) == 1
    assert capsys.readouterr().err.startswith("error: ")


def test_simulate_and_replay_guandan_delegate(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    """`simulate --rulebook guandan-lyg` delegates to the Guandan simulator; replay too."""
    assert main(["simulate", "--rulebook", "guandan-lyg", "--seed", "2"]) == 0
    text = capsys.readouterr().out
    doc = json.loads(text)
    assert doc["game"] == "guandan" and doc["deals"]
    path = tmp_path / "g.json"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["format"] == "table-result/1" and len(result["deals"]) == len(doc["deals"])
