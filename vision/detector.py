"""Find corner indices with the detector network and read them with the crop classifier
(both ONNX, run by `cv2.dnn`).

Pure OpenCV + numpy; the training code reuses `prepare`, `decode`, `crop_at` and
`Detector.candidates` so that what it trains on is what the recogniser sees.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import cv2
import numpy as np

from vision.labels import BACK, CLASSES, JOKER, RANK_CLASSES, SUITS, split_class

MODEL_PATH = Path(__file__).resolve().parent / "models" / "corner_net.onnx"
CLS_MODEL_PATH = Path(__file__).resolve().parent / "models" / "corner_cls.onnx"


def model_meta(model: Path = CLS_MODEL_PATH) -> dict[str, Any]:
    """What `vision/training/train_crops.py` wrote beside the classifier (`corner_cls.json`):
    `crop_px`, the crop size it was trained for, and `trained_on`, `"all"` when the
    held-back fifth of the development set was trained on too, else `"train"`."""
    meta: dict[str, Any] = json.loads(model.with_suffix(".json").read_text(encoding="utf-8"))
    return meta


def ensemble_members(model: Path = CLS_MODEL_PATH) -> list[Path]:
    """The further classifiers whose readings `Detector.read_framed` averages with this
    one's: the files `members` of its `.json` names (in its folder; none when absent)."""
    return _named_members(model, model_meta(model))


def _named_members(model: Path, meta: dict[str, Any]) -> list[Path]:
    return [model.parent / name for name in meta.get("members", [])]


def members_below(model: Path = CLS_MODEL_PATH) -> float | None:
    """How unsure this classifier must be of a crop before its `ensemble_members` read it
    too: the `.json`'s `members_below` (its crops read below this best probability, as
    `TTA_BELOW` measures it); None (absent) has the members read every crop."""
    return _members_below(model_meta(model))


def _members_below(meta: dict[str, Any]) -> float | None:
    gate = meta.get("members_below")
    return None if gate is None else float(gate)


def sureness(probs: np.ndarray) -> np.ndarray:
    """How sure each reading (N x len(CLASSES)) is of what it reads: its best class
    probability, or that of "not an index" (the rest), whichever is higher (`TTA_BELOW`
    and `members_below` are on this scale)."""
    return np.maximum(probs.max(axis=1), 1.0 - probs.sum(axis=1))


CROP_PX = int(model_meta()["crop_px"])  # the classifier reads a square crop this many pixels wide
CROP_SCALE = 1.3  # crop side = CROP_SCALE x the longer side of the index box
TTA_SCALES = (0.85, 1.0, 1.2)  # crop sizes (x CROP_SCALE) whose readings are averaged
# only crops whose best class probability is below this are read at every size (0.6: the
# lowest that keeps the 48 px classifier's training-split F1; 0.7 read 8 % more crops
# there, docs/VISION_TRIALS.md)
TTA_BELOW = 0.6
# the unsure crops are also read turned by each of these angles (degrees, at their own
# size) and those readings averaged in as well; () reads them upright only
TTA_ANGLES: tuple[float, ...] = ()
# The size head misjudges a few index boxes by nearly 2x (a one-card photo's second corner
# read from a crop twice too wide), while the indices of one photo are about one size: an
# unsure crop whose side is more than SIZE_PRIOR times off the median side of the photo's
# sure corners is also read at that median side (at SIZE_PRIOR_SCALES of it, averaged), and
# the surer of the two readings is kept; only for peaks scoring SIZE_PRIOR_MIN_SCORE or more
# (weaker ones seldom are a card, and each costs two crops). None turns it off. All three
# chosen on the training split (mean F1 0.965; 1.4: 0.963; at TTA_SCALES 0.962-0.964; off:
# 0.954; docs/VISION_TRIALS.md).
SIZE_PRIOR: float | None = 1.2
SIZE_PRIOR_SCALES = (0.9, 1.1)
SIZE_PRIOR_MIN_SCORE = 0.25
# The classifier was trained with the rare classes drawn more often (jokers above all);
# its joker probability is multiplied by this prior correction and the reading
# renormalised, so that only a clear joker corner reads as one (measured on the training
# split: without it, pips and picture cards read as jokers).
JOKER_PRIOR = 0.3
# A classifier with a framing head (`corner_cls.json`: `frame_head`) also reads, for each
# crop, how far its side is off the side the index's labelled box would give (log of the
# ratio; `vision/training/train_crops.py`). The size head misjudges the big indices of
# close-up photos by up to 1.7x, and an index cut that much too wide is misread (a club as
# a spade) where the classifier reads it right at the right framing. A corner whose crop
# the head reads as more than REFRAME off, and whose first reading is at least
# REFRAME_MIN_CARD sure of a card, is cut again at the side the head reads and read again;
# with REFRAME_KEEP "always" the new reading replaces the first (with "surer", only where
# it is surer), and the corner's box takes the new size. None turns it off (a classifier
# without the head never reframes). Chosen on the training split (mean F1 of the three
# subsets, honest classifier): 1.15 "always" 0.9643, 1.4 "always" 0.9643 (16:9 webcam row
# 0.961 against 0.965), 1.25 "always" 0.9630, 1.25 "surer" 0.9586, off 0.9536
# (docs/VISION_TRIALS.md, 2026-12-03, afternoon).
REFRAME: float | None = 1.15
REFRAME_KEEP = "always"
REFRAME_MIN_CARD = 0.5
STRIDE = 4
SHORT_SIDE = 640  # the development photos are 640 px high; frames are scaled to match
LONG_SIDE_MAX = 1152
PEAK_THRESHOLD = 0.2
NET_COPIES = 4  # detector networks kept set up, one per input shape (`Detector.shape_net`)
# the classifier reads crops in batches of at most CLS_BATCH, each batch size through a
# network of its own (`Detector.cls_net`), so no network ever sees a new input shape:
# cv2.dnn sets a network up again whenever its input shape changes, and a frame's four
# reads (the first reading, then the re-cut, the unsure and the re-sized crops, each a
# different number) cost about 10 ms a frame more through one network on the 2026-12-03
# late-evening machine (docs/PERFORMANCE.md); the same readings to the bit
CLS_BATCH = 8
BUFFER_COPIES = 16  # arrays `pyramid` keeps for reuse (four a view: two resized copies, two blobs)
# the classifier reads at most this many peaks, best first: 32 (48 before 2026-12-03 late
# evening) reads the training split as 48 does with the lite classifier (mean F1 0.9483
# against 0.9486, the held-back fifth the same, jokers the same) in 9 % less time a frame
# (docs/VISION_TRIALS.md); training mines at most MINE_CANDIDATES, what the shipped classifier
# learnt from (vision/training/mine.py)
MAX_CANDIDATES = 32
MINE_CANDIDATES = 48
# A crowded photo (a fan, a trick with a throw) has more indices than MAX_CANDIDATES: when
# at least CROWDED_SHARE of the last MAX_CANDIDATES peaks read reads as an index (their
# card classes at least CROWDED_CARD), the next MAX_CANDIDATES peaks are read too, up to
# CROWDED_LIMIT in all (`Detector.read_peaks`); None: never (docs/VISION_TRIALS.md,
# "Crowded frames")
CROWDED_SHARE: float | None = 0.5
CROWDED_CARD = 0.5
CROWDED_LIMIT = 128
# The network is trained on indices 14-100 px high; a second pass at half scale reads the
# big indices of close-up phone photos.
PASSES = (1.0, 0.5)
# The full-scale pass is also run on the image turned by each of these angles (degrees
# clockwise, multiples of 90), and its peaks, turned back, are added where the other passes
# have none (`Detector._turned_peaks`, `add_new`): a test-time augmentation of the
# detector, for indices it scores low at the angle they lie at. Merged as the passes are
# (`merge`, the higher score stays), they took the place of indices found
# (docs/VISION_TRIALS.md, "Turned detector passes"). Off.
TURNED_PASSES: tuple[int, ...] = ()
_ROTATE = {90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180, 270: cv2.ROTATE_90_COUNTERCLOCKWISE}
TOP_K = 5
# The size head under-reads the index box, and compresses its range: small indices are
# read far too small, big ones nearly right (labelled / predicted longer side on the
# training photos: 2.73 at 12-20 px, 1.93 at 20-33, 1.43 at 33-55, 1.15 above 55 px;
# `python -m vision.training.size_gain`). The gain is SIZE_GAIN at SIZE_GAIN_REF working
# pixels and scales as (predicted / SIZE_GAIN_REF) ** SIZE_GAIN_SLOPE, within
# SIZE_GAIN_RANGE (`size_gain`). The shipped classifier learnt its mined crops at one gain
# for every size (SLOPE 0, SIZE_GAIN the overall median); the fit, about 10.6 /
# sqrt(predicted), is SLOPE -0.5 at REF 41 px, which brings every size to the labelled
# framing but needs a classifier trained on its crops and the reader's pairing range
# (PAIR_MIN, PAIR_MAX) and SIZE_PRIOR chosen again (docs/VISION_TRIALS.md, 2026-12-03).
SIZE_GAIN = 1.65
SIZE_GAIN_REF = 41.0
SIZE_GAIN_SLOPE = 0.0
SIZE_GAIN_RANGE = (1.0, 3.0)
# Small indices: when a frame's typical index (`typical_index`: the median longer side, in
# working pixels after the size gain, of its surest peaks) is under SMALL_INDEX, the frame
# is looked at again at SMALL_INDEX_ZOOM times the working scale, and those peaks replace
# the first ones (the crops are cut from the image either way). None never zooms. A larger
# working scale for every frame (`SHORT_SIDE` 768) read webcam and blackgold better and
# phone_std worse (docs/VISION_TRIALS.md, 2026-12-05); this zooms only frames whose indices
# are small. Tried at 42 with fifth 3's fully honest models and not kept (held-back webcam
# 0.949 -> 0.903, blackgold the same; docs/VISION_TRIALS.md, 2026-12-06): off.
SMALL_INDEX: float | None = None
SMALL_INDEX_ZOOM = 1.2
SMALL_INDEX_SURE = 0.4  # the peaks `typical_index` measures score at least this
SMALL_INDEX_PEAKS = 2  # and there are at least this many of them, or no zoom


# A corner's confidence is score ** PEAK_WEIGHT x p ** (1 - PEAK_WEIGHT) (`Corner.confidence`:
# the peak's score, the class probability of its first reading); 0.5, the geometric mean,
# as shipped (docs/VISION_TRIALS.md, "How much the peak score weighs").
PEAK_WEIGHT = 0.5


@dataclass(frozen=True)
class Corner:
    """One corner index found in the image: its class scores and box (image pixels)."""

    x: float
    y: float
    w: float
    h: float
    score: float  # objectness of the peak
    classes: tuple[tuple[str, float], ...]  # best first: (class, probability)

    @property
    def label(self) -> str:
        return self.classes[0][0]

    @property
    def confidence(self) -> float:
        """Geometric mean of "an index is here" and "it reads as this class", the first
        weighted `PEAK_WEIGHT` (0.5: the plain geometric mean, as shipped)."""
        if PEAK_WEIGHT == 0.5:
            return float((self.score * self.classes[0][1]) ** 0.5)
        return float(self.score ** PEAK_WEIGHT * self.classes[0][1] ** (1.0 - PEAK_WEIGHT))


def working_scale(height: int, width: int, zoom: float = 1.0) -> float:
    """The factor an image is resized by before the network sees it (`zoom` times it for
    a frame of small indices, `SMALL_INDEX`)."""
    scale = SHORT_SIDE / min(height, width)
    if max(height, width) * scale > LONG_SIDE_MAX:
        scale = LONG_SIDE_MAX / max(height, width)
    return scale * zoom


def typical_index(corners: list[Corner], scale: float) -> float | None:
    """The median longer side, in working pixels (`scale`: the working scale), of the
    corners scoring at least `SMALL_INDEX_SURE`; None with fewer than `SMALL_INDEX_PEAKS`."""
    sides = [max(c.w, c.h) * scale for c in corners if c.score >= SMALL_INDEX_SURE]
    if len(sides) < SMALL_INDEX_PEAKS:
        return None
    return float(np.median(sides))


def prepare(image: np.ndarray, factor: float = 1.0) -> tuple[np.ndarray, float]:
    """BGR uint8 image -> (NCHW float32 blob padded to a multiple of 32, scale used)."""
    h, w = image.shape[:2]
    scale = working_scale(h, w) * factor
    nh, nw = max(32, round(h * scale)), max(32, round(w * scale))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    resized = cv2.resize(image, (nw, nh), interpolation=interp)
    ph, pw = -nh % 32, -nw % 32
    if ph or pw:
        resized = cv2.copyMakeBorder(resized, 0, ph, 0, pw, cv2.BORDER_CONSTANT, value=(0, 0, 0))
    blob = resized.astype(np.float32).transpose(2, 0, 1)[None] * (1 / 255.0)
    return np.ascontiguousarray(blob), scale


def _buffer(buffers: dict[tuple[object, ...], np.ndarray] | None, shape: tuple[int, ...],
            dtype: type) -> np.ndarray:
    """An array of this shape and type: kept in `buffers` (the detector's, reused frame
    after frame) when given, else new."""
    if buffers is None:
        return np.empty(shape, dtype)
    key = (*shape, np.dtype(dtype).str)
    if key not in buffers:
        if len(buffers) >= BUFFER_COPIES:  # photos of many sizes: start again
            buffers.clear()
        buffers[key] = np.empty(shape, dtype)
    return buffers[key]


def _blob(resized: np.ndarray,
          buffers: dict[tuple[object, ...], np.ndarray] | None = None) -> np.ndarray:
    """uint8 BGR image -> NCHW float32 blob in 0..1, padded with zeros to a multiple of 32.

    Written plane by plane into one array, scaled as converted: the same values as
    cv2.dnn.blobFromImage, which took 14 ms for a 1152x640 frame against 2 ms so. A new
    8 MB array each frame costs as much again in page faults on these machines, so the
    detector passes `buffers` to reuse (docs/PERFORMANCE.md)."""
    nh, nw = resized.shape[:2]
    bh, bw = nh + -nh % 32, nw + -nw % 32
    blob = _buffer(buffers, (1, 3, bh, bw), np.float32)
    blob[0, :, nh:, :] = 0.0
    blob[0, :, :nh, nw:] = 0.0
    for channel, plane in enumerate(cv2.split(resized)):
        np.multiply(plane, np.float32(1 / 255.0), out=blob[0, channel, :nh, :nw],
                    casting="unsafe")
    return blob


def _resized(image: np.ndarray, scale: float,
             buffers: dict[tuple[object, ...], np.ndarray] | None = None) -> np.ndarray:
    """`image` resized by `scale` (at least 32 px a side; the image itself when that is
    its size), into an array of `buffers` when given (`_buffer`)."""
    h, w = image.shape[:2]
    nh, nw = max(32, round(h * scale)), max(32, round(w * scale))
    if (nh, nw) == (h, w):
        return image
    interp = cv2.INTER_AREA if scale < 0.5 else cv2.INTER_LINEAR
    return cv2.resize(image, (nw, nh), dst=_buffer(buffers, (nh, nw, 3), np.uint8),
                      interpolation=interp)


def pyramid(image: np.ndarray, buffers: dict[tuple[object, ...], np.ndarray] | None = None,
            zoom: float = 1.0) -> list[tuple[np.ndarray, float]]:
    """The blobs of every pass in `PASSES` and their scales; the frame is resized once to
    the working scale (times `zoom`) and the smaller passes are taken from that resized
    copy. With `buffers` (`Detector.buffers`) the arrays are reused from one call to the
    next: the blobs returned are valid until the next call with the same buffers."""
    scale = working_scale(*image.shape[:2], zoom)
    base = _resized(image, scale, buffers)
    nh, nw = base.shape[:2]
    out = []
    for factor in PASSES:
        if factor == 1.0:
            out.append((_blob(base, buffers), scale))
            continue
        fh, fw = max(32, round(nh * factor)), max(32, round(nw * factor))
        small = cv2.resize(base, (fw, fh), dst=_buffer(buffers, (fh, fw, 3), np.uint8),
                           interpolation=cv2.INTER_AREA)
        out.append((_blob(small, buffers), scale * factor))
    return out


def _softmax(x: np.ndarray, axis: int) -> np.ndarray:
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def size_gain(predicted: np.ndarray) -> np.ndarray:
    """The factor each predicted box is multiplied by, for its longer side `predicted` in
    working-scale pixels (the image at `working_scale`, whatever the pass)."""
    gain = SIZE_GAIN * (np.maximum(predicted, 1.0) / SIZE_GAIN_REF) ** SIZE_GAIN_SLOPE
    return np.clip(gain, *SIZE_GAIN_RANGE)


def decode(
    heat: np.ndarray,
    size: np.ndarray,
    scale: float,
    threshold: float = PEAK_THRESHOLD,
    base_scale: float | None = None,
    gain: bool = True,
) -> list[Corner]:
    """Network outputs (1xCxHxW each) -> corners in original-image pixels, not yet read
    (`classes` is empty until the crop classifier reads them). `scale` is the pass's scale,
    `base_scale` the working scale (default: `scale`, a full-scale pass); the boxes are
    multiplied by `size_gain` unless `gain` is false (`vision.training.size_gain` measures
    the raw boxes)."""
    hm = 1.0 / (1.0 + np.exp(-heat[0, 0]))
    peaks = cv2.dilate(hm, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((hm >= peaks) & (hm >= threshold))
    if len(ys) == 0:
        return []
    sizes = np.exp(size[0][:, ys, xs].T) * STRIDE / scale
    if gain:
        working = sizes.max(axis=1) * (scale if base_scale is None else base_scale)
        sizes = sizes * size_gain(working)[:, None]
    corners = [
        Corner(x=(x + 0.5) * STRIDE / scale, y=(y + 0.5) * STRIDE / scale,
               w=float(sizes[i, 0]), h=float(sizes[i, 1]), score=float(hm[y, x]), classes=())
        for i, (y, x) in enumerate(zip(ys, xs, strict=True))
    ]
    corners.sort(key=lambda c: -c.score)
    return corners


def _clash(k: Corner, c: Corner) -> bool:
    """Whether two peaks lie at one place: each centre within half the larger box of the
    other's, across and down."""
    return abs(k.x - c.x) < 0.5 * max(k.w, c.w) and abs(k.y - c.y) < 0.5 * max(k.h, c.h)


def merge(a: list[Corner], b: list[Corner]) -> list[Corner]:
    """Union of two passes' corners; of two at the same place the higher score stays."""
    out = list(a)
    for c in b:
        clash = [i for i, k in enumerate(out) if _clash(k, c)]
        if not clash:
            out.append(c)
        elif all(out[i].score < c.score for i in clash):
            for i in sorted(clash, reverse=True):
                del out[i]
            out.append(c)
    out.sort(key=lambda k: -k.score)
    return out


def add_new(a: list[Corner], b: list[Corner]) -> list[Corner]:
    """`a` and those of `b` that lie where no corner of `a` is (as `merge` tells a clash),
    best first: `a` is never replaced."""
    out = list(a)
    for c in b:
        if not any(_clash(k, c) for k in a):
            out.append(c)
    out.sort(key=lambda k: -k.score)
    return out


# where a crop is cut: its centre (x, y), side and angle in degrees (`crop_at`'s arguments)
Spot = tuple[float, float, float, float]


def crop_at(image: np.ndarray, cx: float, cy: float, side: float, angle: float = 0.0,
            ax: float = 1.0, px: int = CROP_PX) -> np.ndarray:
    """A `px` (CROP_PX) square of `side` pixels around (cx, cy), turned by `angle` degrees,
    with the source stretched horizontally by `ax` first (training uses the last two)."""
    s = px / max(side, 2.0)
    a = np.array([[ax, 0, 0], [0, 1, 0], [0, 0, 1]], np.float64)
    t = np.array([[1, 0, -cx * ax], [0, 1, -cy], [0, 0, 1]], np.float64)
    r = np.vstack([cv2.getRotationMatrix2D((0, 0), angle, s), [0, 0, 1]])
    o = np.array([[1, 0, px / 2], [0, 1, px / 2], [0, 0, 1]], np.float64)
    m = (o @ r @ t @ a)[:2]
    interp = cv2.INTER_AREA if s * ax < 0.8 else cv2.INTER_LINEAR
    return cv2.warpAffine(image, m, (px, px), flags=interp,
                          borderMode=cv2.BORDER_REPLICATE)


def _crops_blob(crops: list[np.ndarray]) -> np.ndarray:
    """Crops (each px x px x 3, uint8) as the classifier's input (N x 3 x px x px, 0..1)."""
    return np.stack(crops).transpose(0, 3, 1, 2).astype(np.float32) * (1 / 255.0)


def crop_side(c: Corner) -> float:
    """The side of the square the classifier reads around a corner (`CROP_SCALE` x its box)."""
    return max(c.w, c.h) * CROP_SCALE


def class_probs(rank_logits: np.ndarray, suit_logits: np.ndarray) -> np.ndarray:
    """N x len(CLASSES) probabilities from the classifier's rank and suit outputs
    (p(card) = p(rank) x p(suit); the rest is the "not an index" share), with the joker
    prior correction (`JOKER_PRIOR`) applied."""
    pr = _softmax(rank_logits, axis=1)
    ps = _softmax(suit_logits, axis=1)
    out = np.zeros((len(pr), len(CLASSES)), np.float64)
    for j, name in enumerate(CLASSES):
        rank, suit = split_class(name)
        r = RANK_CLASSES.index(rank)
        out[:, j] = pr[:, r] * (ps[:, SUITS.index(suit)] if suit else 1.0)
    none = pr[:, RANK_CLASSES.index("NONE")]
    out[:, CLASSES.index(JOKER)] *= JOKER_PRIOR
    return out / (out.sum(axis=1) + none)[:, None]


def crowded(probs: np.ndarray) -> bool:
    """Whether a full batch of readings (`MAX_CANDIDATES` x len(CLASSES)) is crowded: at
    least `CROWDED_SHARE` of them read as an index (card classes, jokers included, at least
    `CROWDED_CARD`). A shorter batch means the peaks ran out; never with the option off."""
    if CROWDED_SHARE is None or len(probs) < MAX_CANDIDATES:
        return False
    card = probs[:, : CLASSES.index(BACK)].sum(axis=1)
    return bool(np.mean(card >= CROWDED_CARD) >= CROWDED_SHARE)


def reclassify(corners: list[Corner], probs: np.ndarray) -> list[Corner]:
    """The corners with the crop classifier's reading (N x len(CLASSES)), best first."""
    out = []
    for c, p in zip(corners, probs, strict=True):
        order = np.argsort(-p)[:TOP_K]
        out.append(Corner(c.x, c.y, c.w, c.h, c.score,
                          tuple((CLASSES[j], float(p[j])) for j in order)))
    return out


class Detector:
    """Loads the shipped ONNX models once: `candidates` finds corner indices,
    `first_reading` and `reread_unsure` read them (`vision.reader` runs them per view)."""

    def __init__(self, model_path: Path = MODEL_PATH, cls_path: Path = CLS_MODEL_PATH,
                 members: list[Path] | None = None,
                 gate: float | None | Literal["json"] = "json") -> None:
        self.model_bytes = np.fromfile(model_path, np.uint8)  # read once, for each copy
        # one copy of the detector per input shape (`shape_net`): cv2.dnn sets a network up
        # again whenever its input shape changes, which cost 12 ms a 1280x720 frame when one
        # network read both passes (docs/PERFORMANCE.md)
        self.shape_nets: dict[tuple[int, ...], Any] = {}
        self.buffers: dict[tuple[object, ...], np.ndarray] = {}  # `pyramid`'s arrays
        # the crop classifier, and any further classifiers whose readings are averaged with
        # its own (`members`, default `ensemble_members(cls_path)`); its .json read once
        first = model_meta(cls_path)
        paths = [cls_path, *(_named_members(cls_path, first) if members is None else members)]
        metas = [first, *(model_meta(path) for path in paths[1:])]
        # the crop size each classifier reads: a member of another size than the first
        # reads crops cut again from the image at its own (`read_spots`)
        self.member_px = [int(meta["crop_px"]) for meta in metas]
        self.cls_bytes = [np.fromfile(path, np.uint8) for path in paths]
        # per classifier: batch size -> network (`cls_net`)
        self.member_nets: list[dict[int, Any]] = [{} for _ in paths]
        self.cls_nets = self.member_nets[0]
        self.member_heads = [bool(meta.get("frame_head", False)) for meta in metas]
        self.frame_head = any(self.member_heads)
        # the members read only the crops the first classifier reads below this (None:
        # every crop; default the .json's `members_below`)
        self.gate = _members_below(first) if gate == "json" else gate

    def shape_net(self, shape: tuple[int, ...]) -> Any:
        """The detector network that reads inputs of this shape: one per shape, for the
        last `NET_COPIES` shapes read (a camera's frames need one per pass of `PASSES`; a
        photo narrower than 16:9 is read in two views, so four)."""
        net = self.shape_nets.pop(shape, None)
        if net is None:
            if len(self.shape_nets) >= NET_COPIES + 2 * len(TURNED_PASSES):
                del self.shape_nets[next(iter(self.shape_nets))]  # the least recently used
            net = cv2.dnn.readNetFromONNX(self.model_bytes)
            net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
            net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
        self.shape_nets[shape] = net
        return net

    def cls_net(self, batch: int, member: int = 0) -> Any:
        """The classifier network (of `member`, 0 the shipped classifier) that reads
        batches of this many crops (1..`CLS_BATCH`), set up on first use and kept."""
        nets = self.member_nets[member]
        net = nets.get(batch)
        if net is None:
            net = nets[batch] = cv2.dnn.readNetFromONNX(self.cls_bytes[member])
        return net

    def read_spots(self, image: np.ndarray,
                   spots: list[Spot]) -> tuple[np.ndarray, np.ndarray]:
        """`read_framed` of the crops of `image` at these spots (`crop_at`'s centre, side
        and angle), each classifier's cut at its own crop size."""
        crops = [crop_at(image, *spot, px=self.member_px[0]) for spot in spots]

        def recut(px: int, rows: np.ndarray) -> list[np.ndarray]:
            return [crop_at(image, *spots[i], px=px) for i in rows]

        return self.read_framed(crops, recut)

    def read_framed(self, crops: list[np.ndarray],
                    recut: Callable[[int, np.ndarray], list[np.ndarray]] | None = None,
                    ) -> tuple[np.ndarray, np.ndarray]:
        """Class probabilities (N x len(CLASSES)) from the crop classifier, and its framing
        head's reading (N: log of the right crop side / this crop's side; zeros for a
        classifier without the head). Read in batches of `CLS_BATCH`. With several
        classifiers (`ensemble_members`) both are their means, over every crop or, with a
        `gate`, over the crops the first classifier reads below it (the rest keep its
        reading alone). A member that reads another crop size than the first reads the
        crops `recut` (size, rows) cuts again at its size (`read_spots` gives it)."""
        blob = _crops_blob(crops)
        probs, framing = self._read_member(blob, 0)
        if len(self.member_heads) == 1:
            return probs, framing
        rows = np.arange(len(crops))
        if self.gate is not None:
            rows = rows[sureness(probs) < self.gate]
            if not len(rows):
                return probs, framing
        heads = int(self.member_heads[0])
        more_probs, more_framing = probs[rows], framing[rows]
        for member in range(1, len(self.member_heads)):
            px = self.member_px[member]
            if px == self.member_px[0]:
                p, f = self._read_member(blob[rows], member)
            elif recut is None:
                raise ValueError(f"classifier {member} reads {px} px crops, not "
                                 f"{self.member_px[0]}: read the image (read_spots)")
            else:
                p, f = self._read_member(_crops_blob(recut(px, rows)), member)
            more_probs, more_framing = more_probs + p, more_framing + f
            heads += int(self.member_heads[member])
        probs[rows] = more_probs / len(self.member_heads)
        framing[rows] = more_framing / max(1, heads)
        return probs, framing

    def _read_member(self, blob: np.ndarray, member: int) -> tuple[np.ndarray, np.ndarray]:
        """One classifier's class probabilities and framing reading (zeros without the
        head) of a batch of crops (N x 3 x px x px, its size), read CLS_BATCH at a time."""
        head = self.member_heads[member]
        outputs = ["rank", "suit", "frame"] if head else ["rank", "suit"]
        parts = []
        for start in range(0, len(blob), CLS_BATCH):
            chunk = blob[start:start + CLS_BATCH]
            net = self.cls_net(len(chunk), member)
            net.setInput(chunk)
            parts.append(net.forward(outputs))
        rank, suit, *frame = (np.concatenate(out) for out in zip(*parts, strict=True))
        framing = frame[0].reshape(-1).astype(np.float64) if frame else np.zeros(len(blob))
        return class_probs(rank, suit), framing

    def read_crops(self, crops: list[np.ndarray]) -> np.ndarray:
        """Class probabilities (N x len(CLASSES)) from the crop classifier."""
        return self.read_framed(crops)[0]

    def candidates(self, image: np.ndarray, threshold: float = PEAK_THRESHOLD,
                   gain: bool = True, limit: int | None = None) -> list[Corner]:
        """The detector's best `limit` (default `MAX_CANDIDATES`) peaks over every pass,
        not yet read by the crop classifier (training mines these to teach the classifier
        its real inputs); `gain=False` leaves the boxes as the size head reads them
        (`decode`). A frame of small indices is looked at again, zoomed (`SMALL_INDEX`)."""
        corners = self._peaks(image, threshold, gain, 1.0)
        if SMALL_INDEX is not None and gain:
            typical = typical_index(corners, working_scale(*image.shape[:2]))
            if typical is not None and typical < SMALL_INDEX:
                corners = self._peaks(image, threshold, gain, SMALL_INDEX_ZOOM)
        return corners[: MAX_CANDIDATES if limit is None else limit]

    def _peaks(self, image: np.ndarray, threshold: float, gain: bool,
               zoom: float) -> list[Corner]:
        """Every pass's peaks, merged, at `zoom` times the working scale."""
        corners: list[Corner] = []
        h, w = image.shape[:2]
        base = working_scale(h, w, zoom)
        for blob, scale in pyramid(image, self.buffers, zoom):
            net = self.shape_net(blob.shape)
            net.setInput(blob)
            # the shipped graph has no class head: train.py exports heat and size only
            # (cv2.dnn computes every layer of a graph; the crop classifier reads better)
            heat, size = net.forward(["heat", "size"])
            corners = merge(corners, decode(heat, size, scale, threshold, base, gain))
        for angle in TURNED_PASSES:
            corners = add_new(corners, self._turned_peaks(image, angle, threshold, gain, base))
        return corners

    def _turned_peaks(self, image: np.ndarray, angle: int, threshold: float, gain: bool,
                      scale: float) -> list[Corner]:
        """The full-scale pass's peaks on the image turned `angle` degrees clockwise
        (`TURNED_PASSES`), turned back into the image's pixels (`scale`: the working scale),
        and those at one place made one (`merge`, as `_peaks` does a pass's)."""
        h, w = image.shape[:2]
        blob = _blob(cv2.rotate(_resized(image, scale), _ROTATE[angle]))
        net = self.shape_net(blob.shape)
        net.setInput(blob)
        heat, size = net.forward(["heat", "size"])
        out = []
        for c in decode(heat, size, scale, threshold, scale, gain):
            if angle == 90:  # (x, y) was turned to (h - y, x)
                x, y, bw, bh = c.y, h - c.x, c.h, c.w
            elif angle == 180:
                x, y, bw, bh = w - c.x, h - c.y, c.w, c.h
            else:  # 270: (x, y) was turned to (y, w - x)
                x, y, bw, bh = w - c.y, c.x, c.h, c.w
            out.append(Corner(x, y, bw, bh, c.score, c.classes))
        return merge([], out)

    def first_reading(self, image: np.ndarray,
                      corners: list[Corner]) -> tuple[np.ndarray, np.ndarray]:
        """The classifier's reading (N x len(CLASSES)) of each corner's crop at its size,
        and its framing head's (N; `read_framed`)."""
        if not corners:
            return np.zeros((0, len(CLASSES))), np.zeros(0)
        return self.read_spots(image, [(c.x, c.y, crop_side(c), 0.0) for c in corners])

    def read_peaks(self, image: np.ndarray, peaks: list[Corner],
                   first: int = MAX_CANDIDATES) -> tuple[list[Corner], np.ndarray, np.ndarray]:
        """`first_reading` of the best `first` of `peaks` (best first, as `candidates` gives
        them; the caller bounds them, the recogniser to `CROWDED_LIMIT`), and, with
        `CROWDED_SHARE`, of further batches of `MAX_CANDIDATES` while the last batch read is
        crowded (`crowded`) and peaks are left. Returns the peaks read and their readings."""
        n = min(len(peaks), max(first, 0))
        probs, frame = self.first_reading(image, peaks[:n])
        while n < len(peaks) and crowded(probs[-MAX_CANDIDATES:]):
            more = peaks[n:n + MAX_CANDIDATES]
            p, f = self.first_reading(image, more)
            probs, frame = np.concatenate([probs, p]), np.concatenate([frame, f])
            n += len(more)
        return peaks[:n], probs, frame

    def reframe(self, image: np.ndarray, corners: list[Corner], probs: np.ndarray,
                frame: np.ndarray) -> tuple[list[Corner], np.ndarray]:
        """`REFRAME`: the corners whose crop the framing head (`frame`, from
        `first_reading`) reads as more than REFRAME off, and whose first reading is at
        least `REFRAME_MIN_CARD` sure of a card, are cut again at the side the head reads
        and read again (one batch); the new reading replaces the first (`REFRAME_KEEP`
        "always"; with "surer" only where it is surer), and the corner's box then takes
        the new size. Returns the corners and their readings."""
        if REFRAME is None or not self.frame_head or not corners:
            return corners, probs
        limit = float(np.log(REFRAME))
        off = [i for i in range(len(corners))
               if abs(frame[i]) > limit and probs[i].sum() > REFRAME_MIN_CARD]
        if not off:
            return corners, probs
        gains = np.exp(frame[off])
        spots = [(corners[i].x, corners[i].y, crop_side(corners[i]) * g, 0.0)
                 for i, g in zip(off, gains, strict=True)]
        again = self.read_spots(image, spots)[0]
        out, corners = probs.copy(), list(corners)
        for i, g, reading in zip(off, gains, again, strict=True):
            if REFRAME_KEEP == "always" or reading.max() > probs[i].max():
                out[i] = reading
                c = corners[i]
                corners[i] = Corner(c.x, c.y, c.w * g, c.h * g, c.score, c.classes)
        return corners, out

    def reread_unsure(self, image: np.ndarray, corners: list[Corner],
                      probs: np.ndarray) -> tuple[list[Corner], np.ndarray]:
        """Crops the classifier is unsure of are read again at the other sizes and turned
        by `TTA_ANGLES` (one batch), and the readings averaged; sure ones keep their single
        reading. An unsure crop far off the photo's index size is also read at that size
        (`SIZE_PRIOR`); where that reading is surer, it is kept and the corner's box takes
        that size. Returns the corners and their readings."""
        views = [(k, 0.0) for k in TTA_SCALES if k != 1.0] + [(1.0, a) for a in TTA_ANGLES]
        if not corners or not views:
            return corners, probs
        sure = sureness(probs)
        unsure = [i for i in range(len(corners)) if sure[i] < TTA_BELOW]
        if not unsure:
            return corners, probs
        out = probs.copy()
        spots = [(corners[i].x, corners[i].y, crop_side(corners[i]) * k, a)
                 for k, a in views for i in unsure]
        more = self.read_spots(image, spots)[0].reshape(len(views), len(unsure), -1).sum(axis=0)
        out[unsure] = (probs[unsure] + more) / (1 + len(views))
        if SIZE_PRIOR is None:
            return corners, out
        return self._read_at_index_size(image, corners, probs, out, unsure, SIZE_PRIOR)

    def _read_at_index_size(self, image: np.ndarray, corners: list[Corner], first: np.ndarray,
                            out: np.ndarray, unsure: list[int],
                            ratio: float) -> tuple[list[Corner], np.ndarray]:
        """`SIZE_PRIOR`: the unsure corners whose crop side is more than `ratio` off the
        median side of the corners the first reading (`first`) is sure are a card, and whose
        peak scores `SIZE_PRIOR_MIN_SCORE`, are read at that median side; a surer reading
        replaces theirs in `out`, and the corner's box is scaled to that size."""
        card = first[:, : CLASSES.index(BACK)].max(axis=1)
        sure_sides = [crop_side(c) for c, p in zip(corners, card, strict=True) if p >= TTA_BELOW]
        if not sure_sides:
            return corners, out
        typical = float(np.median(sure_sides))
        off = [i for i in unsure if corners[i].score >= SIZE_PRIOR_MIN_SCORE
               and max(crop_side(corners[i]) / typical, typical / crop_side(corners[i])) > ratio]
        if not off:
            return corners, out
        spots = [(corners[i].x, corners[i].y, typical * k, 0.0)
                 for k in SIZE_PRIOR_SCALES for i in off]
        alt = self.read_spots(image, spots)[0].reshape(len(SIZE_PRIOR_SCALES), len(off),
                                                       -1).mean(axis=0)
        corners = list(corners)
        for i, reading in zip(off, alt, strict=True):
            if reading.max() > out[i].max():
                out[i] = reading
                c = corners[i]
                k = typical / crop_side(c)
                corners[i] = Corner(c.x, c.y, c.w * k, c.h * k, c.score, c.classes)
        return corners, out
