"""Routes of the camera blueprint; see `web/camera/__init__.py`."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request
from flask_babel import gettext as _

bp = Blueprint("camera", __name__, url_prefix="/camera")

MAX_UPLOAD_BYTES = 8 * 1024 * 1024
IMAGE_MAGIC = (b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n", b"RIFF", b"BM", b"GIF8")


def _error(status: int, code: str, message: str) -> tuple[Response, int]:
    return jsonify({"ok": False, "error": code, "message": message}), status


def _json_field(name: str) -> Any:
    raw = request.form.get(name, "").strip()
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        raise ValueError(name) from None


def _int_map(value: Any) -> dict[str, int]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ValueError("map")
    return {str(k): int(v) for k, v in value.items()}


def assign_seats(
    cards: list[dict[str, Any]],
    bottom_seat: int = 0,
    expected: Mapping[int, int] | None = None,
) -> dict[int, list[dict[str, Any]]]:
    """Split the detections among the 4 seats by where they lie around the trick's centre.

    The seat `bottom_seat` sits at the photo's bottom edge; play goes counter-clockwise
    (逆时针), so `bottom_seat + 1` is on the right, `+ 2` at the top and `+ 3` on the left.
    With `expected` counts per seat, cards of a seat with too many move to a neighbour
    with too few (the card nearest that neighbour's side first).
    """
    per: dict[int, list[dict[str, Any]]] = {s: [] for s in range(4)}
    if not cards:
        return per
    centres = [(c["box"][0] + c["box"][2] / 2, c["box"][1] + c["box"][3] / 2) for c in cards]
    mx = sum(x for x, _ in centres) / len(centres)
    my = sum(y for _, y in centres) / len(centres)
    # angle measured counter-clockwise on the table as seen from above, 0 = bottom
    angles = [math.degrees(math.atan2(x - mx, y - my)) % 360 for x, y in centres]

    def sector_seat(angle: float) -> int:
        return (bottom_seat + int(((angle + 45) % 360) // 90)) % 4

    where = [sector_seat(a) for a in angles]
    if expected:
        for _round in range(len(cards) * 4):
            counts = [where.count(s) for s in range(4)]
            moved = False
            for s in range(4):
                if counts[s] <= expected.get(s, counts[s]):
                    continue
                for n in ((s + 1) % 4, (s - 1) % 4, (s + 2) % 4):
                    if counts[n] >= expected.get(n, counts[n]):
                        continue
                    target = ((n - bottom_seat) % 4) * 90.0
                    mine = [i for i, w in enumerate(where) if w == s]
                    best = min(mine, key=lambda i: abs((angles[i] - target + 180) % 360 - 180))
                    where[best] = n
                    moved = True
                    break
                if moved:
                    break
            if not moved:
                break
    for card, seat in zip(cards, where, strict=True):
        per[seat].append(card)
    return per


@bp.get("/")
def page() -> str:
    """A stand-alone page with the camera partial and a read-only preview of the picker."""
    return render_template("camera/page.html")


@bp.post("/recognize")
def recognize_upload() -> tuple[Response, int]:
    if request.content_length is not None and request.content_length > MAX_UPLOAD_BYTES + 65536:
        return _error(413, "too_large", _("The photo is too large (照片太大): at most 8 MB."))
    upload = request.files.get("image")
    if upload is None:
        return _error(400, "no_image", _("No photo was sent (没有收到照片)."))
    data = upload.read(MAX_UPLOAD_BYTES + 1)
    if len(data) > MAX_UPLOAD_BYTES:
        return _error(413, "too_large", _("The photo is too large (照片太大): at most 8 MB."))
    not_image = _("This file is not an image (不是图片): send a JPEG or PNG photo.")
    if not data.startswith(IMAGE_MAGIC):
        return _error(415, "not_image", not_image)
    try:
        expected = {int(k): v for k, v in _int_map(_json_field("expected")).items()}
        played = _int_map(_json_field("played"))
        bottom_seat = int(request.form.get("bottom_seat", "0") or 0) % 4
    except (ValueError, TypeError):
        return _error(400, "bad_field", _("A form field is not valid JSON (参数格式错误)."))

    from vision import Constraints, NotAnImageError, recognize

    count = sum(expected.values()) if expected else None
    try:
        found = recognize(data, Constraints(count=count or None, played=played))
    except NotAnImageError:
        return _error(415, "not_image", not_image)
    cards = [d.to_json() | {"alternatives": [list(a) for a in d.alternatives]} for d in found]
    per_seat = assign_seats(cards, bottom_seat, expected or None)
    return jsonify({
        "ok": True,
        "cards": cards,
        "per_seat": {str(s): [c["card"] for c in v] for s, v in per_seat.items()},
        "per_seat_detail": {str(s): v for s, v in per_seat.items()},
    }), 200
