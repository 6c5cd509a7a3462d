"""Run the corner-index network (`cv2.dnn`, ONNX) and decode its output into corner boxes.

Pure OpenCV + numpy; the training code reuses `prepare` and `decode` so that the figures
measured while training are those of the shipped recogniser.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.labels import CLASSES, RANK_CLASSES, SUITS, split_class

MODEL_PATH = Path(__file__).resolve().parent / "models" / "corner_net.onnx"
CLS_MODEL_PATH = Path(__file__).resolve().parent / "models" / "corner_cls.onnx"
CROP_PX = 48  # the classifier reads a square crop of this many pixels around each index
CROP_SCALE = 1.3  # crop side = CROP_SCALE x the longer side of the index box
TTA_SCALES = (0.85, 1.0, 1.2)  # crop sizes (x CROP_SCALE) whose readings are averaged
# only crops whose best class probability is below this are read at every size
TTA_BELOW = 0.7
CROP_WEIGHT = 0.8  # share of the crop classifier in the class probabilities
STRIDE = 4
SHORT_SIDE = 640  # the development photos are 640 px high; frames are scaled to match
LONG_SIDE_MAX = 1152
PEAK_THRESHOLD = 0.2
MAX_CANDIDATES = 48  # the classifier reads at most this many peaks, best first
# The network is trained on indices 14-100 px high; a second pass at half scale reads the
# big indices of close-up phone photos.
PASSES = (1.0, 0.5)
TOP_K = 5
# The size head under-reads the index box (median 0.65x on the training split, measured);
# this calibration brings the crops the classifier reads back to the trained framing.
SIZE_GAIN = 1.5


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
        """Geometric mean of "an index is here" and "it reads as this class"."""
        return float((self.score * self.classes[0][1]) ** 0.5)


def working_scale(height: int, width: int) -> float:
    """The factor an image is resized by before the network sees it."""
    scale = SHORT_SIDE / min(height, width)
    if max(height, width) * scale > LONG_SIDE_MAX:
        scale = LONG_SIDE_MAX / max(height, width)
    return scale


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


def _blob(resized: np.ndarray) -> np.ndarray:
    """uint8 BGR image -> NCHW float32 blob in 0..1, padded to a multiple of 32."""
    nh, nw = resized.shape[:2]
    ph, pw = -nh % 32, -nw % 32
    if ph or pw:
        resized = cv2.copyMakeBorder(resized, 0, ph, 0, pw, cv2.BORDER_CONSTANT, value=(0, 0, 0))
    return cv2.dnn.blobFromImage(resized, 1 / 255.0)


def pyramid(image: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """The blobs of every pass in `PASSES` and their scales; the frame is resized once to
    the working scale and the smaller passes are taken from that resized copy."""
    h, w = image.shape[:2]
    scale = working_scale(h, w)
    nh, nw = max(32, round(h * scale)), max(32, round(w * scale))
    interp = cv2.INTER_AREA if scale < 0.5 else cv2.INTER_LINEAR
    base = image if (nh, nw) == (h, w) else cv2.resize(image, (nw, nh), interpolation=interp)
    out = []
    for factor in PASSES:
        if factor == 1.0:
            out.append((_blob(base), scale))
            continue
        fh, fw = max(32, round(nh * factor)), max(32, round(nw * factor))
        small = cv2.resize(base, (fw, fh), interpolation=cv2.INTER_AREA)
        out.append((_blob(small), scale * factor))
    return out


def _softmax(x: np.ndarray, axis: int) -> np.ndarray:
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def decode(
    heat: np.ndarray,
    cls: np.ndarray,
    size: np.ndarray,
    scale: float,
    threshold: float = PEAK_THRESHOLD,
) -> list[Corner]:
    """Network outputs (1xCxHxW each) -> corners in original-image pixels."""
    hm = 1.0 / (1.0 + np.exp(-heat[0, 0]))
    peaks = cv2.dilate(hm, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((hm >= peaks) & (hm >= threshold))
    corners: list[Corner] = []
    if len(ys) == 0:
        return corners
    logits = cls[0][:, ys, xs].T  # N x C
    probs = _softmax(logits, axis=1)
    sizes = np.exp(size[0][:, ys, xs].T) * STRIDE / scale * SIZE_GAIN
    for i, (y, x) in enumerate(zip(ys, xs, strict=True)):
        order = np.argsort(-probs[i])[:TOP_K]
        corners.append(
            Corner(
                x=(x + 0.5) * STRIDE / scale,
                y=(y + 0.5) * STRIDE / scale,
                w=float(sizes[i, 0]),
                h=float(sizes[i, 1]),
                score=float(hm[y, x]),
                classes=tuple((CLASSES[j], float(probs[i, j])) for j in order),
            )
        )
    corners.sort(key=lambda c: -c.score)
    return corners


def merge(a: list[Corner], b: list[Corner]) -> list[Corner]:
    """Union of two passes' corners; of two at the same place the higher score stays."""
    out = list(a)
    for c in b:
        clash = [i for i, k in enumerate(out)
                 if abs(k.x - c.x) < 0.5 * max(k.w, c.w) and abs(k.y - c.y) < 0.5 * max(k.h, c.h)]
        if not clash:
            out.append(c)
        elif all(out[i].score < c.score for i in clash):
            for i in sorted(clash, reverse=True):
                del out[i]
            out.append(c)
    out.sort(key=lambda k: -k.score)
    return out


def crop_at(image: np.ndarray, cx: float, cy: float, side: float, angle: float = 0.0,
            ax: float = 1.0) -> np.ndarray:
    """A CROP_PX square of `side` pixels around (cx, cy), turned by `angle` degrees, with
    the source stretched horizontally by `ax` first (training uses the last two)."""
    s = CROP_PX / max(side, 2.0)
    a = np.array([[ax, 0, 0], [0, 1, 0], [0, 0, 1]], np.float64)
    t = np.array([[1, 0, -cx * ax], [0, 1, -cy], [0, 0, 1]], np.float64)
    r = np.vstack([cv2.getRotationMatrix2D((0, 0), angle, s), [0, 0, 1]])
    o = np.array([[1, 0, CROP_PX / 2], [0, 1, CROP_PX / 2], [0, 0, 1]], np.float64)
    m = (o @ r @ t @ a)[:2]
    interp = cv2.INTER_AREA if s * ax < 0.8 else cv2.INTER_LINEAR
    return cv2.warpAffine(image, m, (CROP_PX, CROP_PX), flags=interp,
                          borderMode=cv2.BORDER_REPLICATE)


def class_probs(rank_logits: np.ndarray, suit_logits: np.ndarray) -> np.ndarray:
    """N x len(CLASSES) probabilities from the classifier's rank and suit outputs
    (p(card) = p(rank) x p(suit); the rest is the "not an index" share)."""
    pr = _softmax(rank_logits, axis=1)
    ps = _softmax(suit_logits, axis=1)
    out = np.zeros((len(pr), len(CLASSES)), np.float64)
    for j, name in enumerate(CLASSES):
        rank, suit = split_class(name)
        r = RANK_CLASSES.index(rank)
        out[:, j] = pr[:, r] * (ps[:, SUITS.index(suit)] if suit else 1.0)
    return out


def reclassify(corners: list[Corner], probs: np.ndarray) -> list[Corner]:
    """Blend the crop classifier's reading (N x len(CLASSES)) into the corners."""
    out = []
    for c, p in zip(corners, probs, strict=True):
        det = np.zeros(len(CLASSES), np.float64)
        for name, q in c.classes:
            det[CLASSES.index(name)] = q
        blend = CROP_WEIGHT * p + (1 - CROP_WEIGHT) * det
        order = np.argsort(-blend)[:TOP_K]
        out.append(Corner(c.x, c.y, c.w, c.h, c.score,
                          tuple((CLASSES[j], float(blend[j])) for j in order)))
    return out


class Detector:
    """Loads the shipped ONNX models once; `corners(image)` finds and reads corner indices."""

    def __init__(self, model_path: Path = MODEL_PATH, cls_path: Path = CLS_MODEL_PATH) -> None:
        self.net = cv2.dnn.readNetFromONNX(str(model_path))
        self.net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
        self.net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
        self.cls_net = cv2.dnn.readNetFromONNX(str(cls_path)) if cls_path.exists() else None

    def read_crops(self, crops: list[np.ndarray]) -> np.ndarray | None:
        """Class probabilities (N x len(CLASSES)) from the crop classifier, if shipped."""
        if self.cls_net is None:
            return None
        blob = np.stack(crops).transpose(0, 3, 1, 2).astype(np.float32) * (1 / 255.0)
        self.cls_net.setInput(blob)
        rank, suit = self.cls_net.forward(["rank", "suit"])
        return class_probs(rank, suit)

    def corners(self, image: np.ndarray, threshold: float = PEAK_THRESHOLD) -> list[Corner]:
        corners: list[Corner] = []
        for blob, scale in pyramid(image):
            self.net.setInput(blob)
            heat, cls, size = self.net.forward(["heat", "cls", "size"])
            corners = merge(corners, decode(heat, cls, size, scale, threshold))
        corners = corners[:MAX_CANDIDATES]
        if not corners:
            return corners
        side = [max(c.w, c.h) * CROP_SCALE for c in corners]
        probs = self.read_crops([crop_at(image, c.x, c.y, sd) for c, sd in zip(corners, side,
                                                                            strict=True)])
        if probs is None:
            return corners
        # Crops the classifier is unsure of are read again at the other sizes (one batch)
        # and the readings averaged; sure ones keep their single reading.
        extra = [k for k in TTA_SCALES if k != 1.0]
        sure = np.maximum(probs.max(axis=1), 1.0 - probs.sum(axis=1))  # NONE is the rest
        unsure = [i for i in range(len(corners)) if sure[i] < TTA_BELOW]
        if extra and unsure:
            crops = [crop_at(image, corners[i].x, corners[i].y, side[i] * k)
                     for k in extra for i in unsure]
            more = self.read_crops(crops)
            if more is not None:
                more = more.reshape(len(extra), len(unsure), -1).sum(axis=0)
                probs[unsure] = (probs[unsure] + more) / (1 + len(extra))
        return reclassify(corners, probs)
