"""Synthetic trick scenes rendered from the public-domain card faces.

`render_scene(rnd, size)` lays 2-8 cards (vector faces from
`shared/carddata/templates/vector_pd_hayeah`, jokers included, duplicates allowed) on a
random background, rotated and overlapping like a trick on the table, and returns the
image with the visible corner-index boxes `(x, y, w, h, class index)`. Used for training
and by the tests (`tests/vision/test_synthetic.py`) to build scenes with known content.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache

import cv2
import numpy as np

from vision.labels import CLASS_INDEX, JOKER, carddata_dir

_RANK_FILE = {"2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9",
              "10": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
_SUIT_FILE = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}


def template_name(card: str) -> str:
    if card == "BJ":
        return "red_joker.png"
    if card == "SJ":
        return "black_joker.png"
    return f"{_RANK_FILE[card[:-1]]}_of_{_SUIT_FILE[card[-1]]}.png"


@lru_cache(maxsize=64)
def card_face(card: str) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """The card face on white (BGR, 323x222) and its top-left index box (x, y, w, h)."""
    path = carddata_dir() / "templates" / "vector_pd_hayeah" / template_name(card)
    rgba = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if rgba is None:
        raise FileNotFoundError(path)
    alpha = rgba[..., 3:4].astype(np.float32) / 255
    face = (rgba[..., :3].astype(np.float32) * alpha + 255 * (1 - alpha)).astype(np.uint8)
    h, w = face.shape[:2]
    ink = (face.min(axis=2) < 200).astype(np.uint8)
    region = ink[: int(h * (0.55 if card in ("BJ", "SJ") else 0.3)), : int(w * 0.2)]
    # the index is the ink touching the top-left corner area; take the connected blobs
    n, lab, stats, _ = cv2.connectedComponentsWithStats(region)
    xs, ys, xe, ye = [], [], [], []
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if area >= 4 and x < w * 0.12:
            xs.append(x)
            ys.append(y)
            xe.append(x + bw)
            ye.append(y + bh)
    x0, y0, x1, y1 = min(xs), min(ys), max(xe), max(ye)
    return face, (x0 - 2, y0 - 2, x1 - x0 + 4, y1 - y0 + 4)


def _background(rnd: random.Random, size: int) -> np.ndarray:
    base = np.array([rnd.randint(0, 255) for _ in range(3)], np.float32)
    img = np.empty((size, size, 3), np.float32)
    img[:] = base
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size
    img += (rnd.uniform(-60, 60) * xx + rnd.uniform(-60, 60) * yy)[..., None]
    noise = cv2.resize(np.random.normal(0, 1, (size // 8, size // 8, 3)).astype(np.float32),
                       (size, size))
    img += noise * rnd.uniform(0, 25)
    for _ in range(rnd.randint(0, 6)):
        p1 = (rnd.randrange(size), rnd.randrange(size))
        p2 = (rnd.randrange(size), rnd.randrange(size))
        col = tuple(rnd.randint(0, 255) for _ in range(3))
        cv2.line(img, p1, p2, col, rnd.randint(1, 12))
    return np.clip(img, 0, 255).astype(np.uint8)


def random_cards(rnd: random.Random, n: int) -> list[str]:
    from vision.labels import CARD_CLASSES

    pool = list(CARD_CLASSES) + ["BJ", "SJ"]
    cards = [rnd.choice(pool) for _ in range(n)]
    if n >= 2 and rnd.random() < 0.3:  # two decks: a pair of identical cards
        cards[1] = cards[0]
    return cards


def render_scene(
    rnd: random.Random,
    size: int,
    cards: list[str] | None = None,
    card_height: float | None = None,
    spread: float = 0.3,
    background: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """A trick-like scene: image (size x size BGR) and visible corner boxes (N x 5)."""
    if cards is None:
        cards = random_cards(rnd, rnd.randint(2, 8))
    img = _background(rnd, size) if background is None else background.copy()
    ch = card_height if card_height is not None else rnd.uniform(0.18, 0.6) * size
    masks: list[np.ndarray] = []
    boxes: list[tuple[float, float, float, float, int, int]] = []  # + owner card index
    cx0, cy0 = size / 2, size / 2
    for k, card in enumerate(cards):
        face, (bx, by, bw, bh) = card_face(card)
        fh, fw = face.shape[:2]
        s = ch / fh * rnd.uniform(0.92, 1.08)
        ang = rnd.uniform(0, 360)
        cx = cx0 + rnd.uniform(-spread, spread) * size
        cy = cy0 + rnd.uniform(-spread, spread) * size
        m = cv2.getRotationMatrix2D((fw / 2, fh / 2), ang, s)
        m[0, 2] += cx - fw / 2
        m[1, 2] += cy - fh / 2
        # mild perspective: shear one axis a little
        shear = np.array([[1, rnd.uniform(-0.08, 0.08), 0], [0, 1, 0]], np.float64)
        m = shear[:, :2] @ m
        m[0, 2] += shear[0, 2]
        card_mask = np.zeros((fh, fw), np.uint8)
        r = int(fw * 0.06)
        cv2.rectangle(card_mask, (r, 0), (fw - r, fh), 255, -1)
        cv2.rectangle(card_mask, (0, r), (fw, fh - r), 255, -1)
        for px, py in ((r, r), (fw - r, r), (r, fh - r), (fw - r, fh - r)):
            cv2.circle(card_mask, (px, py), r, 255, -1)
        warped = cv2.warpAffine(face, m, (size, size), flags=cv2.INTER_AREA)
        wmask = cv2.warpAffine(card_mask, m, (size, size), flags=cv2.INTER_LINEAR)
        # a soft shadow under the card
        shadow = cv2.GaussianBlur(wmask, (0, 0), max(1.0, ch * 0.02)).astype(np.float32) / 255
        img = (img.astype(np.float32) * (1 - 0.35 * shadow[..., None])).astype(np.uint8)
        a = wmask.astype(np.float32)[..., None] / 255
        img = (warped.astype(np.float32) * a + img.astype(np.float32) * (1 - a)).astype(np.uint8)
        masks.append(wmask > 127)
        # top-left index and the same index turned 180 degrees at the bottom right
        for qx, qy in ((bx, by), (fw - bx - bw, fh - by - bh)):
            pts = np.array([[qx, qy, 1], [qx + bw, qy, 1], [qx, qy + bh, 1],
                            [qx + bw, qy + bh, 1]], np.float64).T
            q = m @ pts
            x0, y0, x1, y1 = q[0].min(), q[1].min(), q[0].max(), q[1].max()
            shrink = 1.0 / (abs(math.cos(math.radians(ang))) + abs(math.sin(math.radians(ang))))
            w_, h_ = (x1 - x0), (y1 - y0)
            # the upright size of the index, rotated back into an axis-aligned estimate
            ww = max(w_ * shrink, 3.0)
            hh = max(h_ * shrink, 3.0)
            label = CLASS_INDEX[JOKER] if card in ("BJ", "SJ") else CLASS_INDEX[card]
            boxes.append(((x0 + x1) / 2, (y0 + y1) / 2, ww, hh, label, k))
    out = []
    for x, y, w, h, label, k in boxes:
        ix, iy = int(round(x)), int(round(y))
        if not (0 <= ix < size and 0 <= iy < size):
            continue
        # visible unless a later card covers the index centre or most of its box
        covered = any(masks[j][iy, ix] for j in range(k + 1, len(masks)))
        if covered:
            continue
        out.append((x, y, w, h, label))
    return img, np.array(out, np.float32).reshape(-1, 5)
