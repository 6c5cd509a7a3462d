"""`python -m vision recognize --json IMAGE...`: one JSON object per image; a file that is
not an image gets an error of its own and the other files are still read."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "vision", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.usefixtures("model")
def test_recognize_json_shape_and_bad_file(carddata: Path, tmp_path: Path) -> None:
    photo = sorted((carddata / "roboflow_zk7wu" / "phone_std" / "images").glob("*.jpg"))[0]
    bad = tmp_path / "notes.jpg"
    bad.write_text("not a photo")
    missing = tmp_path / "missing.png"
    proc = run_cli("recognize", "--json", str(bad), str(photo), str(missing))
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [d["image"] for d in lines] == [str(bad), str(photo), str(missing)]
    assert lines[0]["cards"] == [] and "not an image" in lines[0]["error"]
    assert "error" in lines[2]
    good = lines[1]
    assert "error" not in good and good["cards"], proc.stderr
    for card in good["cards"]:
        assert set(card) == {"card", "confidence", "box"}
        assert 0 <= card["confidence"] <= 1
        assert len(card["box"]) == 4 and all(isinstance(v, int) for v in card["box"])
    assert proc.returncode == 1  # some file failed; the others were still printed


@pytest.mark.usefixtures("model")
def test_recognize_all_good_exits_zero(carddata: Path) -> None:
    photo = sorted((carddata / "roboflow_zk7wu" / "webcam_multi" / "images").glob("*.jpg"))[0]
    proc = run_cli("recognize", "--json", str(photo))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["image"] == str(photo)


def test_pool_prints_the_pooled_rows_of_fold_files(tmp_path: Path) -> None:
    """`python -m vision pool FOLD.json...` (vision/training/crossval.sh ends with it): the
    summed rows, the fifths pooled and the ones missing; a fifth given twice is an error."""
    for fold, counts in ((1, [3, 1, 0]), (2, [5, 0, 1])):
        record = {"fold": fold, "threshold": 0.4, "trained_on": "train",
                  "rows": {"phone_std": [[f"IMG_{fold}", *counts]]}}
        (tmp_path / f"fold{fold}.json").write_text(json.dumps(record), encoding="utf-8")
    files = [str(tmp_path / "fold1.json"), str(tmp_path / "fold2.json")]
    proc = run_cli("pool", *files)
    assert proc.returncode == 0, proc.stderr
    row = next(line for line in proc.stdout.splitlines() if "phone_std" in line)
    assert row.split()[:3] == ["pooled", "phone_std", "2"]
    assert row.split()[5] == f"{2 * 8 / (2 * 8 + 1 + 1):.3f}"  # 8 right, 1 false, 1 missed
    assert "fifths 1, 2" in proc.stdout and "fifths 0, 3, 4 not yet" in proc.stdout
    doc = json.loads(run_cli("pool", "--json", *files).stdout)
    assert doc["folds"] == [1, 2] and doc["pooled"]["phone_std"]["tp"] == 8
    twice = run_cli("pool", files[0], files[0])
    assert twice.returncode == 2 and "fifth 1 is in both" in twice.stderr


@pytest.mark.usefixtures("model")
def test_evaluate_save_refuses_the_shipped_models(tmp_path: Path) -> None:
    """The shipped classifier saw every development photo: its held-back rows are not a
    fold's, so `--save` is refused before any photo is read, and nothing is written."""
    out = tmp_path / "fold0.json"
    proc = run_cli("evaluate", "--split", "held-back", "--save", str(out))
    assert proc.returncode == 2 and "trained on every development photo" in proc.stderr
    proc = run_cli("evaluate", "--save", str(out))
    assert proc.returncode == 2 and "--split held-back" in proc.stderr
    assert not out.exists()
