"""From corner indices to cards: grouping, jokers, and the engine's constraints.

A card usually shows two corner indices (角标); a trick photo often shows only one per card
because the cards overlap. Two identical cards are normal with two decks, so detections of
the same card are merged only when their positions fit one card (the two corners of a
card lie about a card's diagonal apart), and the engine's knowledge (how many cards are in
the photo, at most two copies of a card, copies already played) decides between readings.
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision import detector
from vision.detector import PEAK_THRESHOLD, Corner, Detector, reclassify
from vision.labels import BACK, JOKER

DEFAULT_THRESHOLD = 0.4
# A joker is reported only from this confidence (None: at `threshold` as any card). The
# lite classifier reads a few corners of 16:9 frames as jokers at 0.40-0.52, where real
# jokers read 0.44-0.68 (training split, honest classifier). Chosen on the training split
# (mean F1 of the three subsets): 0.53 and None tie at 0.9487, the 16:9 webcam row 0.963
# against 0.961 (false jokers in 1280x720 frames 0 of 30 against 3; joker photos read with
# one 10 of 11 against 11); 0.5: 0.9473 (docs/VISION_TRIALS.md).
JOKER_MIN: float | None = 0.53
PAIR_FLOOR = 0.7  # a corner this fraction of the threshold may still count with its twin
CANDIDATE_THRESHOLD = 0.08  # weaker corners, used only to reach an expected count
# Two one-corner cards read as one card when the engine's count says there are too many:
# the joint probability of the card on both corners must reach this.
JOINT_FLOOR = 0.05
# A trick photo holds at least one card: when no card reaches the threshold and the engine
# sent no count, the surest card whose confidence reaches AT_LEAST_ONE is still reported
# (a joker needs `JOKER_MIN` too; None: off). docs/VISION_TRIALS.md, "At least one card".
AT_LEAST_ONE: float | None = 0.2
# Distance between a card's two corner indices, in units of the index box height.
PAIR_MIN, PAIR_MAX = 2.2, 9.5
# A photo may have been reshaped after it was taken: the development set's webcam frames are
# 16:9 frames stretched to 640x640 (carddata README, caveat 1), which makes their indices
# 56 % as wide as on the table. A photo narrower than a 16:9 frame is also read widened to
# 16:9, and the view whose best corners read surer is kept (`_choose_view`).
FRAME_ASPECT = 16 / 9
FRAME_SLACK = 0.97  # a photo within 3 % of 16:9 is taken as a frame of that shape
# The views are compared by the mean confidence of their best VIEW_TOP_K corners, read
# after the framing head's re-cut (`Detector.reframe`); the widened view must be VIEW_MARGIN
# times surer to be kept (both chosen on the training split). Compared on the first reading
# instead, as before 2026-12-03 night, the big indices of close-up phone photos, cut too
# wide at first, made the widened view look surer (docs/VISION_TRIALS.md, "Views compared after
# the re-cut").
VIEW_TOP_K = 4
VIEW_MARGIN = 1.05


class NotAnImageError(ValueError):
    """The input could not be decoded as an image."""


@dataclass(frozen=True)
class Detection:
    """One card seen in the photo.

    `card` is the canonical notation (`10H`, `AS`, `BJ` 大王, `SJ` 小王); `confidence` is
    0..1; `box` is `[x, y, w, h]` in image pixels around the card's best corner index;
    `corners` says how many corner indices were read for it; `alternatives` the next
    readings with their probabilities (for the picker's suggestions).
    """

    card: str
    confidence: float
    box: tuple[int, int, int, int]
    corners: int = 1
    alternatives: tuple[tuple[str, float], ...] = ()

    def to_json(self) -> dict[str, object]:
        return {"card": self.card, "confidence": round(self.confidence, 3),
                "box": list(self.box)}

    @property
    def center(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return x + w / 2, y + h / 2


@dataclass(frozen=True)
class Constraints:
    """What the engine knows about the photo; every field is optional.

    `count`: how many cards the photo shows (the trick's size: seats x cards each).
    `played`: copies of each card already played in this deal (canonical notation).
    `max_copies`: copies of a card in the decks (2 for two decks).
    """

    count: int | None = None
    played: Mapping[str, int] = field(default_factory=dict)
    max_copies: int = 2

    def room(self, card: str) -> int:
        return max(0, self.max_copies - self.played.get(card, 0))


_DETECTOR: Detector | None = None
# cv2.dnn networks are not safe to run from two threads at once (the web app serves each
# request in a thread): one photo at a time reads through the shared detector
_DETECTOR_LOCK = threading.Lock()


def _detector() -> Detector:
    global _DETECTOR
    if _DETECTOR is None:
        _DETECTOR = Detector()
    return _DETECTOR


def load_image(image: np.ndarray | bytes | str | Path) -> np.ndarray:
    """A BGR uint8 image from an array, encoded bytes or a file path."""
    if isinstance(image, np.ndarray):
        arr = image
    else:
        if isinstance(image, (str, Path)):
            try:
                data = Path(image).read_bytes()
            except OSError as exc:
                raise NotAnImageError(f"cannot read {image}: {exc.strerror}") from exc
        else:
            data = image
        buf = np.frombuffer(data, np.uint8)
        arr = cv2.imdecode(buf, cv2.IMREAD_COLOR) if buf.size else None
        if arr is None:
            raise NotAnImageError("not an image (JPEG, PNG, WebP or BMP expected)")
    if arr.ndim == 2:
        arr = cv2.cvtColor(arr, cv2.COLOR_GRAY2BGR)
    elif arr.ndim == 3 and arr.shape[2] == 4:
        arr = cv2.cvtColor(arr, cv2.COLOR_BGRA2BGR)
    if arr.ndim != 3 or arr.shape[2] != 3 or min(arr.shape[:2]) < 16:
        raise NotAnImageError("not a colour image of a usable size")
    if arr.dtype != np.uint8:
        arr = np.clip(arr, 0, 255).astype(np.uint8)
    return arr


def joker_colour(image: np.ndarray, corner: Corner) -> str:
    """`BJ` (大王, the coloured joker) when the corner's ink is red, else `SJ` (小王)."""
    x0 = max(0, int(corner.x - corner.w / 2))
    y0 = max(0, int(corner.y - corner.h / 2))
    x1 = min(image.shape[1], int(corner.x + corner.w / 2) + 1)
    y1 = min(image.shape[0], int(corner.y + corner.h / 2) + 1)
    patch = image[y0:y1, x0:x1]
    if patch.size == 0:
        return "SJ"
    hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV)
    hue, sat, val = hsv[..., 0].astype(int), hsv[..., 1], hsv[..., 2]
    red = ((hue < 10) | (hue > 165)) & (sat > 90) & (val > 60)
    ink = (sat > 90) | (val < 90)
    return "BJ" if red.sum() > 0.25 * max(int(ink.sum()), 1) else "SJ"


def _card_of(label: str, image: np.ndarray, corner: Corner) -> str:
    return joker_colour(image, corner) if label == JOKER else label


@dataclass
class _Group:
    card: str
    corners: list[Corner]
    readings: list[tuple[str, float]]

    @property
    def confidence(self) -> float:
        best = max(c.confidence for c in self.corners)
        if len(self.corners) > 1:  # two corners agreeing make the reading surer
            second = sorted(c.confidence for c in self.corners)[-2]
            best = 1 - (1 - best) * (1 - second * 0.6)
        return min(best, 1.0)

    def detection(self) -> Detection:
        c = max(self.corners, key=lambda k: k.confidence)
        box = (int(round(c.x - c.w / 2)), int(round(c.y - c.h / 2)),
               int(round(c.w)), int(round(c.h)))
        alts = tuple((k, round(p, 3)) for k, p in self.readings if k != self.card)[:3]
        return Detection(self.card, float(self.confidence), box, len(self.corners), alts)


def _same_card(a: Corner, b: Corner) -> bool:
    size = max(a.w, a.h, b.w, b.h, 1.0)
    d = math.hypot(a.x - b.x, a.y - b.y)
    return PAIR_MIN * size <= d <= PAIR_MAX * size


def _group(image: np.ndarray, corners: list[Corner]) -> list[_Group]:
    """Pair same-card corners that fit one card's geometry; every other corner is a card."""
    by_card: dict[str, list[Corner]] = {}
    for c in corners:
        by_card.setdefault(_card_of(c.label, image, c), []).append(c)
    groups: list[_Group] = []
    for card, cs in by_card.items():
        cs = sorted(cs, key=lambda k: -k.confidence)
        used = [False] * len(cs)
        for i, c in enumerate(cs):
            if used[i]:
                continue
            used[i] = True
            members = [c]
            for j in range(i + 1, len(cs)):
                if not used[j] and _same_card(c, cs[j]):
                    used[j] = True
                    members.append(cs[j])
                    break
            readings = [(_card_of(k, image, c) if k == JOKER else k, p) for k, p in c.classes]
            groups.append(_Group(card, members, readings))
    return groups


def _apply_constraints(groups: list[_Group], spare: list[Corner], image: np.ndarray,
                       cons: Constraints) -> list[_Group]:
    groups = sorted(groups, key=lambda g: -g.confidence)
    # 1. at most `room(card)` copies: extra copies take their next reading that has room
    kept: list[_Group] = []
    counts: Counter[str] = Counter()
    for g in groups:
        if counts[g.card] < cons.room(g.card):
            kept.append(g)
            counts[g.card] += 1
            continue
        for alt, p in g.readings[1:]:
            if alt != BACK and p >= 0.05 and counts[alt] < cons.room(alt):
                kept.append(_Group(alt, g.corners, [(alt, p)] + g.readings))
                counts[alt] += 1
                break
    if cons.count is None:
        return kept
    # 2. too many: two one-corner cards that lie as one card's two corners are that card,
    #    read by both corners (`_merge_surplus`); then the least sure are dropped
    while len(kept) > cons.count and _merge_surplus(kept, image, counts, cons):
        pass
    kept.sort(key=lambda g: -g.confidence)
    if len(kept) > cons.count:
        return kept[: cons.count]
    # 3. too few: split pairs that could be two identical cards, then weaker corners
    for g in sorted(kept, key=lambda g: -g.confidence):
        if len(kept) >= cons.count:
            break
        if len(g.corners) == 2 and counts[g.card] < cons.room(g.card):
            kept.remove(g)
            kept.append(_Group(g.card, [g.corners[0]], g.readings))
            kept.append(_Group(g.card, [g.corners[1]], g.readings))
            counts[g.card] += 1
    for c in sorted(spare, key=lambda k: -k.confidence):
        if len(kept) >= cons.count:
            break
        card = _card_of(c.label, image, c)
        if card == BACK or counts[card] >= cons.room(card):
            continue
        if any(_near(c, k) for g in kept for k in g.corners):
            continue
        kept.append(_Group(card, [c], [(card, 1.0)] + list(c.classes)))
        counts[card] += 1
    return kept


def _joint_readings(a: Corner, b: Corner, image: np.ndarray) -> list[tuple[float, str]]:
    """The cards two corners of one card may read together, the top reading of either,
    each with the product of the two corners' probabilities of it."""
    pa, pb = dict(a.classes), dict(b.classes)
    return [(pa.get(k, 0.0) * pb.get(k, 0.0), _card_of(k, image, a)) for k in {a.label, b.label}]


def _merge_surplus(kept: list[_Group], image: np.ndarray, counts: Counter[str],
                   cons: Constraints) -> bool:
    """With more cards than the engine's count, merge the two one-corner cards whose
    corners fit one card's geometry and agree best on a joint reading (`_joint_readings`,
    at least `JOINT_FLOOR`, a card with room left). Two corners of one card often disagree
    on a hard face (a 10 read as Q on one corner); two confident different cards never
    share such a reading. Returns whether a pair was merged."""
    singles = [g for g in kept if len(g.corners) == 1]
    fits = [(joint, card, a, b)
            for i, a in enumerate(singles) for b in singles[i + 1:]
            if _same_card(a.corners[0], b.corners[0])
            for joint, card in _joint_readings(a.corners[0], b.corners[0], image)
            if joint >= JOINT_FLOOR and card != BACK
            and cons.room(card) - counts[card] + (a.card == card) + (b.card == card) > 0]
    if not fits:
        return False
    joint, card, a, b = max(fits, key=lambda f: f[0])
    kept.remove(a)
    kept.remove(b)
    counts[a.card] -= 1
    counts[b.card] -= 1
    counts[card] += 1
    kept.append(_Group(card, a.corners + b.corners, [(card, joint)] + a.readings))
    return True


def _near(a: Corner, b: Corner) -> bool:
    return math.hypot(a.x - b.x, a.y - b.y) < 0.6 * max(a.h, b.h, a.w, b.w)


def views(image: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """The image as given, and, when it is narrower than a 16:9 frame but not portrait
    (a landscape or square photo that may have been squeezed, as the development set's
    webcam frames were), the image widened to 16:9; with the horizontal factor of each."""
    h, w = image.shape[:2]
    out = [(image, 1.0)]
    if h <= w < FRAME_ASPECT * h * FRAME_SLACK:
        wide = round(h * FRAME_ASPECT)
        out.append((cv2.resize(image, (wide, h), interpolation=cv2.INTER_LINEAR), wide / w))
    return out


def view_score(corners: list[Corner]) -> float:
    """How surely a view reads: the mean confidence of its `VIEW_TOP_K` best corners."""
    best = sorted((c.confidence for c in corners if c.label != BACK), reverse=True)[:VIEW_TOP_K]
    return sum(best) / VIEW_TOP_K


def peaks_to_read(constraints: Constraints | None) -> int:
    """How many of the detector's best peaks are read at first: `MAX_CANDIDATES`, and, with
    the crowded-frame option (`CROWDED_SHARE`) and a count from the engine, at least two a
    card (each card shows up to two corners), up to `CROWDED_LIMIT`."""
    count = constraints.count if constraints is not None else None
    if detector.CROWDED_SHARE is None or not count:
        return detector.MAX_CANDIDATES
    return max(detector.MAX_CANDIDATES, min(2 * count, detector.CROWDED_LIMIT))


def _choose_view(img: np.ndarray, threshold: float,
                 first: int | None = None) -> tuple[np.ndarray, float, list[Corner]]:
    """The view to read (`views`), its horizontal factor, and its corners. Each view's
    best `first` peaks (default `MAX_CANDIDATES`; more in a crowded frame,
    `Detector.read_peaks`) are read and those the framing head reads far off cut again
    (`Detector.reframe`), and the views are compared on that reading; only the kept view's
    unsure crops are read again at the other sizes (`Detector.reread_unsure`)."""
    det = _detector()
    first = detector.MAX_CANDIDATES if first is None else first
    # the peaks `read_peaks` may read: a crowded frame reads on up to CROWDED_LIMIT
    limit = first if detector.CROWDED_SHARE is None else max(first, detector.CROWDED_LIMIT)
    best: tuple[np.ndarray, float, list[Corner], np.ndarray, float] | None = None
    for view, factor in views(img):
        cands, probs, frame = det.read_peaks(view, det.candidates(view, threshold, limit=limit),
                                             first)
        cands, probs = det.reframe(view, cands, probs, frame)
        score = view_score(reclassify(cands, probs))
        if best is None or score > VIEW_MARGIN * best[4]:
            best = (view, factor, cands, probs, score)
    assert best is not None  # views() always gives the image as it is
    view, factor, cands, probs, _score = best
    return view, factor, reclassify(*det.reread_unsure(view, cands, probs))


def _floor(card: str, threshold: float) -> float:
    """The confidence a card needs to be reported: `threshold`, and at least `JOKER_MIN`
    for a joker."""
    if card in ("BJ", "SJ") and JOKER_MIN is not None:
        return max(threshold, JOKER_MIN)
    return threshold


def _surest_one(image: np.ndarray, corners: list[Corner], floor: float) -> list[_Group]:
    """The surest card the weak `corners` read (paired as `_group` pairs them), when its
    confidence reaches `floor` (`_floor` of it: a joker needs `JOKER_MIN`); else none."""
    fits = [g for g in _group(image, corners) if g.confidence >= _floor(g.card, floor)]
    return [max(fits, key=lambda g: g.confidence)] if fits else []


def _unwiden(c: Corner, factor: float) -> Corner:
    return Corner(c.x / factor, c.y, c.w / factor, c.h, c.score, c.classes)


def recognize(
    image: np.ndarray | bytes | str | Path,
    constraints: Constraints | None = None,
    *,
    threshold: float = DEFAULT_THRESHOLD,
) -> list[Detection]:
    """The cards in a photo, surest first.

    A photo narrower than a 16:9 frame is read as given and widened to 16:9, and the surer
    view is kept (`views`); the boxes are always in the given image's pixels.
    `image` is a BGR array, encoded image bytes or a path; raises `NotAnImageError` when it
    is none. `constraints` (optional) are what the engine knows (see `Constraints`).
    """
    img = load_image(image)
    floor = CANDIDATE_THRESHOLD if constraints is not None and constraints.count else threshold
    with _DETECTOR_LOCK:
        img, factor, corners = _choose_view(img, min(floor, PEAK_THRESHOLD),
                                            peaks_to_read(constraints))
    corners = [c for c in corners if c.label != BACK]
    # corners worth pairing; a card is kept when its (paired) confidence reaches threshold
    strong = [c for c in corners if c.confidence >= threshold * PAIR_FLOOR]
    groups = _group(img, strong)
    spare = [c for c in corners if c.confidence < threshold * PAIR_FLOOR]
    kept = []
    for g in groups:
        if g.confidence >= _floor(g.card, threshold):
            kept.append(g)
        else:  # still there to reach the count
            spare.extend(g.corners)
    groups = kept
    counted = constraints is not None and bool(constraints.count)
    if not groups and AT_LEAST_ONE is not None and not counted:
        groups = _surest_one(img, spare, AT_LEAST_ONE)
    if constraints is not None:
        groups = _apply_constraints(groups, spare, img, constraints)
    groups.sort(key=lambda g: -g.confidence)
    if factor != 1.0:  # boxes in the given image's pixels
        for g in groups:
            g.corners = [_unwiden(c, factor) for c in g.corners]
    return [g.detection() for g in groups]
