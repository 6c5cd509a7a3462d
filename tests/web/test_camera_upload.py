"""POST /camera/recognize: a photo in, detections per seat out; bad uploads refused clearly.

Nothing is recorded by this endpoint (the referee confirms on the tablet), so the tests
check only the answer.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from web.camera.routes import MAX_UPLOAD_BYTES, assign_seats


def post(client: Any, data: bytes, name: str = "photo.jpg", **fields: str) -> Any:
    form: dict[str, Any] = {"image": (io.BytesIO(data), name)}
    form.update(fields)
    return client.post("/camera/recognize", data=form, content_type="multipart/form-data")


def test_non_image_is_refused_with_a_clear_message(client: Any) -> None:
    resp = post(client, b"%PDF-1.4 this is a document", "scoresheet.pdf")
    assert resp.status_code == 415
    body = resp.get_json()
    assert body["ok"] is False and body["error"] == "not_image"
    assert "不是图片" in body["message"] or "not an image" in body["message"]


def test_corrupt_jpeg_is_refused(client: Any) -> None:
    resp = post(client, b"\xff\xd8\xff\xe0" + b"\x00" * 200)
    assert resp.status_code == 415
    assert resp.get_json()["error"] == "not_image"


def test_oversized_upload_is_refused(client: Any) -> None:
    big = b"\xff\xd8\xff" + b"\x00" * (MAX_UPLOAD_BYTES + 10)
    resp = post(client, big)
    assert resp.status_code == 413
    body = resp.get_json()
    assert body["error"] == "too_large" and "8 MB" in body["message"]


def test_missing_file_is_refused(client: Any) -> None:
    resp = client.post("/camera/recognize", data={}, content_type="multipart/form-data")
    assert resp.status_code == 400
    assert resp.get_json()["error"] == "no_image"


def test_bad_expected_field_is_refused(client: Any) -> None:
    ok, png = cv2.imencode(".png", np.full((64, 64, 3), 200, np.uint8))
    resp = post(client, png.tobytes(), "x.png", expected="{not json")
    assert resp.status_code == 400 and resp.get_json()["error"] == "bad_field"


def test_real_photo_gives_cards_per_seat(client: Any, carddata: Path) -> None:
    root = carddata / "roboflow_zk7wu" / "webcam_multi" / "images"
    photo = sorted(root.glob("*.jpg"))[0]
    resp = post(client, photo.read_bytes(), photo.name)
    assert resp.status_code == 200, resp.get_json()
    body = resp.get_json()
    assert body["ok"] and body["cards"]
    first = body["cards"][0]
    assert {"card", "confidence", "box"} <= set(first)
    seated = sum(len(v) for v in body["per_seat"].values())
    assert seated == len(body["cards"]) and set(body["per_seat"]) == {"0", "1", "2", "3"}


def card(x: int, y: int, name: str = "AS") -> dict[str, Any]:
    return {"card": name, "confidence": 0.9, "box": [x, y, 10, 10]}


def test_assign_seats_by_side_of_the_trick() -> None:
    """Bottom seat at the photo's bottom, play counter-clockwise: +1 right, +2 top, +3 left."""
    cards = [card(500, 900, "2S"), card(900, 500, "3S"), card(500, 100, "4S"), card(100, 500, "5S")]
    per = assign_seats(cards, bottom_seat=2)
    assert {s: [c["card"] for c in v] for s, v in per.items()} == {
        2: ["2S"], 3: ["3S"], 0: ["4S"], 1: ["5S"]}


def test_assign_seats_balances_to_expected_counts() -> None:
    """Each seat must play 2 cards: a card that drifted into a neighbour's side moves back."""
    cards = [card(480, 900), card(520, 900), card(900, 480), card(900, 700),
             card(480, 100), card(520, 100), card(100, 480), card(100, 520)]
    per = assign_seats(cards, 0, {0: 2, 1: 2, 2: 2, 3: 2})
    assert [len(per[s]) for s in range(4)] == [2, 2, 2, 2]


def test_camera_page_includes_the_partial(client: Any) -> None:
    resp = client.get("/camera/")
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    assert "data-camera" in html and "js/camera.js" in html


def test_csrf_is_required_when_enabled(make_app: Any, tmp_path: Path) -> None:
    app = make_app(WTF_CSRF_ENABLED=True)
    resp = post(app.test_client(), b"\xff\xd8\xff")
    assert resp.status_code == 400
