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
