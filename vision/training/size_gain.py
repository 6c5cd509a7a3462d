"""Measure the detector's size gain (`vision.detector.size_gain`) after a detector is trained.

    python -m vision.training.size_gain          # labelled / predicted index size, by band
    python -m vision.training.size_gain --write  # ... and set detector.SIZE_GAIN to the median

The detector's size head reads index boxes smaller than they are labelled, and compresses
its range (small indices are read far too small, big ones nearly right), while the crop
classifier must see the framing it was trained on: the runtime multiplies every box by
`size_gain(predicted)`, `SIZE_GAIN` at `SIZE_GAIN_REF` working pixels and scaling as
(predicted / SIZE_GAIN_REF) ** SIZE_GAIN_SLOPE. This script runs the shipped detector, or
`--model`, as the recogniser runs it (`Detector.candidates`, the boxes left as the size
head reads them) on the training photos (never the held-back fifth, never the hold-out),
pairs each labelled index with the strongest candidate on it (`mine.on_index`), and prints
the median of labelled size / predicted size (the longer side, in working-scale pixels)
for bands of predicted size (`by_band`), the least-squares fit of its logarithm on the
predicted size's (which `SIZE_GAIN_SLOPE` and `SIZE_GAIN_REF` are set from), and what is
left after the gain (each band's median should be near 1). With `--write` the overall
median, to three decimals, becomes `SIZE_GAIN` in vision/detector.py (`set_size_gain`), so
that the mining and the classifiers of a rebuild (`rebuild.sh`, each stage a new process)
cut their crops at the new detector's gain, not the last one's.
"""

from __future__ import annotations

import argparse
import math
import re
import statistics
from pathlib import Path

import cv2
import numpy as np

from vision.detector import (
    MINE_CANDIDATES,
    MODEL_PATH,
    SIZE_GAIN,
    SIZE_GAIN_RANGE,
    SIZE_GAIN_REF,
    SIZE_GAIN_SLOPE,
    Detector,
    size_gain,
    working_scale,
)
from vision.labels import BACK, LabelledImage, load_dev_set
from vision.reader import load_image
from vision.training.mine import on_index

DETECTOR_SOURCE = Path(__file__).resolve().parents[1] / "detector.py"
GAIN_LINE = re.compile(r"^SIZE_GAIN = [0-9.]+$", re.MULTILINE)
BANDS = (12.0, 20.0, 33.0, 55.0)  # band edges: predicted longer side, working-scale px


def size_pairs(items: list[LabelledImage], det: Detector,
               threshold: float = 0.3) -> list[tuple[float, float]]:
    """(predicted longer side without the gain, labelled longer side), in working-scale
    pixels, of every labelled index that has a candidate with a score of at least
    `threshold` on it."""
    out = []
    for it in items:
        img = load_image(it.path)
        h, w = img.shape[:2]
        cands = det.candidates(img, threshold, gain=False, limit=MINE_CANDIDATES)
        base = working_scale(h, w)
        for name, x, y, bw, bh in it.boxes:
            if name == BACK:
                continue
            side = max(bw * w, bh * h)
            on = [c for c in cands if on_index(c, x * w, y * h, side)]
            if on:
                best = max(on, key=lambda c: c.score)
                out.append((max(best.w, best.h) * base, side * base))
    return out


def fit(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    """(slope, intercept) of the least-squares line log(labelled / predicted) =
    intercept + slope * log(predicted)."""
    x = np.log([pred for pred, _ in pairs])
    y = np.log([lab for _, lab in pairs]) - x
    slope, intercept = np.polyfit(x, y, 1)
    return float(slope), float(intercept)


def by_band(pairs: list[tuple[float, float]], edges: tuple[float, ...] = BANDS,
            gained: list[tuple[float, float]] | None = None,
            ) -> list[tuple[float, float, int, float]]:
    """(low, high, count, median labelled / predicted size) for each band of predicted
    size between `edges` (the first from 0, the last open); empty bands are left out.
    With `gained` (the same indices' (gained size, labelled size)), the medians are of
    labelled / gained size, still banded by the predicted size of `pairs`."""
    bounds = [0.0, *edges, float("inf")]
    rows = gained if gained is not None else pairs
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
        ratios = [lab / size for (pred, _), (size, lab) in zip(pairs, rows, strict=True)
                  if lo <= pred < hi]
        if ratios:
            out.append((lo, hi, len(ratios), statistics.median(ratios)))
    return out


def set_size_gain(source: str, gain: float) -> str:
    """`source` (vision/detector.py's text) with its one `SIZE_GAIN = …` line set to `gain`
    (three decimals). Raises ValueError unless there is exactly one such line, and for a
    gain outside `SIZE_GAIN_RANGE`, so a rebuild stops rather than train on a wrong gain."""
    if not SIZE_GAIN_RANGE[0] <= gain <= SIZE_GAIN_RANGE[1]:  # NaN too
        raise ValueError(f"size gain {gain} outside {SIZE_GAIN_RANGE}")
    if len(GAIN_LINE.findall(source)) != 1:
        raise ValueError("vision/detector.py must hold exactly one 'SIZE_GAIN = <number>' line")
    return GAIN_LINE.sub(f"SIZE_GAIN = {gain:.3f}", source)


def gain_pairs(pairs: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The `pairs` with each predicted size multiplied by its `size_gain` (one call)."""
    gains = size_gain(np.array([pred for pred, _ in pairs], np.float64))
    return [(pred * float(g), lab) for (pred, lab), g in zip(pairs, gains, strict=True)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--threshold", type=float, default=0.3, help="weakest candidate paired")
    ap.add_argument("--model", type=Path, default=MODEL_PATH, help="the detector to measure")
    ap.add_argument("--write", action="store_true",
                    help="set SIZE_GAIN in vision/detector.py to the median measured")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    items = [it for it in load_dev_set() if not it.held_back]
    pairs = size_pairs(items, Detector(args.model), args.threshold)
    if not pairs:
        raise SystemExit("no labelled index has a candidate on it")
    overall = statistics.median(lab / pred for pred, lab in pairs)
    slope, intercept = fit(pairs)
    print(f"{len(pairs)} indices: labelled / predicted size median "
          f"{overall:.3f}; least squares: log ratio = {intercept:.3f} "
          f"{slope:+.3f} log predicted, {SIZE_GAIN} at "
          f"{math.exp((math.log(SIZE_GAIN) - intercept) / slope):.1f} px "
          f"(SIZE_GAIN {SIZE_GAIN}, SIZE_GAIN_REF {SIZE_GAIN_REF}, SIZE_GAIN_SLOPE {SIZE_GAIN_SLOPE})")
    gained = gain_pairs(pairs)
    for (lo, hi, n, median), (*_, left) in zip(by_band(pairs), by_band(pairs, gained=gained),
                                               strict=True):
        print(f"  predicted {lo:>3.0f}-{hi:<4.0f}px: {n:>4} indices, median {median:.3f}, "
              f"after the gain {left:.3f}")
    if args.write:
        DETECTOR_SOURCE.write_text(set_size_gain(DETECTOR_SOURCE.read_text(encoding="utf-8"),
                                                 overall), encoding="utf-8")
        print(f"SIZE_GAIN = {overall:.3f} written to {DETECTOR_SOURCE}")


if __name__ == "__main__":
    main()
