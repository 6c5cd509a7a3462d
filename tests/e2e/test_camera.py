"""Camera pre-fill end to end: Chromium's fake camera shows a development photo of cards,
the referee taps the camera button (拍照录入) then 拍照, and the picker preview is
pre-filled per seat.

The fake camera plays a Y4M file made here from a webcam photo of the development set
(`--use-file-for-fake-video-capture`); nothing is recorded (the page only pre-fills).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.labels import load_dev_set

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("carddata")]


def write_y4m(image: np.ndarray, path: Path) -> None:
    """One 4:2:0 frame (Chromium loops it) from a BGR image with even sides."""
    h, w = image.shape[:2]
    yuv = cv2.cvtColor(image, cv2.COLOR_BGR2YUV_I420)
    with path.open("wb") as f:
        f.write(f"YUV4MPEG2 W{w} H{h} F30:1 Ip A1:1 C420jpeg\n".encode())
        f.write(b"FRAME\n")
        f.write(yuv.tobytes())


@pytest.fixture
def fake_camera(tmp_path: Path) -> tuple[Path, set[str]]:
    photo = load_dev_set(("webcam_multi",))[0]
    img = cv2.imread(str(photo.path))
    frame = cv2.resize(img, (1280, 720), interpolation=cv2.INTER_LINEAR)  # undo the stretch
    path = tmp_path / "trick.y4m"
    write_y4m(frame, path)
    return path, photo.cards()


def test_camera_button_prefills_picker(playwright_instance: Any, live_server: str,
                                       fake_camera: tuple[Path, set[str]]) -> None:
    y4m, truth = fake_camera
    browser = playwright_instance.chromium.launch(
        executable_path="/usr/bin/chromium", headless=True,
        args=["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
              f"--use-file-for-fake-video-capture={y4m}"],
    )
    try:
        context = browser.new_context(viewport={"width": 1024, "height": 768}, locale="zh-CN")
        context.grant_permissions(["camera"], origin=live_server)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(live_server + "/camera/")
        page.evaluate("""() => { window.__det = null;
            document.addEventListener('camera:detections', (e) => { window.__det = e.detail; }); }""")
        page.click("[data-camera-open]")
        page.wait_for_function(
            "() => document.querySelector('[data-camera-video]').videoWidth > 0", timeout=15000)
        page.click("[data-camera-shoot]")
        page.wait_for_function("() => window.__det !== null", timeout=30000)
        detail = page.evaluate("() => window.__det")
        found = {c["card"] for c in detail["cards"]}
        # the photo's content came through (ranks: suits are the recogniser's weak point,
        # see docs/VISION.md; accuracy itself is measured by `make vision-eval`)
        ranks = {c[:-1] for c in found if c not in ("BJ", "SJ")}
        assert len(ranks & {c[:-1] for c in truth}) >= len(truth) // 2, (found, truth)
        # the preview (what a picker shows) is filled per seat, with confidences
        texts = page.locator("#camera-preview td.cards").all_inner_texts()
        assert sum(1 for t in texts if t.strip()) >= 2
        assert "%" in " ".join(texts)
        per_seat_total = sum(len(v) for v in detail["perSeat"].values())
        assert per_seat_total == len(detail["cards"])
        # the camera was closed after the shot; the status says how many cards were found
        assert page.locator("[data-camera-live]").get_attribute("class").find("hidden") >= 0
        assert page.locator("[data-camera-results] li").count() >= 2
        # hearts, diamonds and 大王 are printed red; a reading under 60 % is marked to check
        spans = page.eval_on_selector_all(
            "[data-camera-results] .camera-card", """els => els.map(e => ({card: e.dataset.card,
                red: e.classList.contains('red'), unsure: e.classList.contains('unsure'),
                color: getComputedStyle(e).color, bg: getComputedStyle(e).backgroundColor}))""")
        assert spans
        for sp in spans:
            assert sp["red"] == (sp["card"][-1] in "HD" or sp["card"] == "BJ"), sp
            assert (sp["color"] != "rgb(198, 40, 40)") != sp["red"], sp  # app.css .red
            assert (sp["bg"] != "rgba(0, 0, 0, 0)") == sp["unsure"], sp
        assert not errors
        context.close()
    finally:
        browser.close()


def test_file_upload_fallback_prefills(page: Any, live_server: str, tmp_path: Path) -> None:
    """Without a camera the file input sends the photo the same way."""
    items = load_dev_set(("phone_std",))
    page.goto(live_server + "/camera/")
    page.evaluate("""() => { window.__det = null;
        document.addEventListener('camera:detections', (e) => { window.__det = e.detail; }); }""")
    page.set_input_files("[data-camera-file]", str(items[0].path))
    page.wait_for_function("() => window.__det !== null", timeout=30000)
    detail = page.evaluate("() => window.__det")
    assert detail["cards"], detail


def test_non_image_upload_shows_the_error(page: Any, live_server: str, tmp_path: Path) -> None:
    bad = tmp_path / "notes.jpg"
    bad.write_text("not a photo")
    page.goto(live_server + "/camera/")
    page.set_input_files("[data-camera-file]", str(bad))
    status = page.locator("[data-camera-status]")
    status.wait_for(state="visible")
    page.wait_for_function(
        "() => document.querySelector('[data-camera-status]').classList.contains('error')")
    assert "不是图片" in status.inner_text() or "not an image" in status.inner_text()
