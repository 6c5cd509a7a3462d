"""Measure the detector's size gain (`vision.detector.SIZE_GAIN`) after a detector is trained.

    python -m vision.training.size_gain        # median labelled / predicted index size

The detector's size head reads index boxes smaller than they are labelled, and the crop
classifier must see the framing it was trained on, so the runtime multiplies every size by
`SIZE_GAIN`. This script runs the shipped detector, or `--model`, as the recogniser runs
it (`Detector.candidates`) on the training photos (never the held-back fifth, never the
hold-out), pairs each labelled index with the strongest candidate on it (`mine.on_index`),
and prints the median of labelled size / predicted size, the size being the longer side,
and that median for bands of predicted size (`by_band`): the size head compresses its range
(small indices are read far too small, big ones nearly right; docs/VISION.md, 2026-12-03),
which one `SIZE_GAIN` does not undo.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

import cv2

from vision.detector import MODEL_PATH, SIZE_GAIN, Detector
from vision.labels import BACK, LabelledImage, load_dev_set
from vision.reader import load_image
from vision.training.mine import on_index

BANDS = (12.0, 20.0, 33.0, 55.0)  # predicted longer side (px, without SIZE_GAIN) band edges


def size_ratios(items: list[LabelledImage], det: Detector, threshold: float = 0.3) -> list[float]:
    """Labelled / predicted longer side (without `SIZE_GAIN`) of every labelled index that
    has a candidate with a score of at least `threshold` on it."""
    return [labelled / predicted for predicted, labelled in size_pairs(items, det, threshold)]


def size_pairs(items: list[LabelledImage], det: Detector,
               threshold: float = 0.3) -> list[tuple[float, float]]:
    """(predicted longer side without `SIZE_GAIN`, labelled longer side) of every labelled
    index that has a candidate with a score of at least `threshold` on it."""
    out = []
    for it in items:
        img = load_image(it.path)
        h, w = img.shape[:2]
        cands = det.candidates(img, threshold)
        for name, x, y, bw, bh in it.boxes:
            if name == BACK:
                continue
            side = max(bw * w, bh * h)
            on = [c for c in cands if on_index(c, x * w, y * h, side)]
            if on:
                best = max(on, key=lambda c: c.score)
                out.append((max(best.w, best.h) / SIZE_GAIN, side))
    return out


def by_band(pairs: list[tuple[float, float]],
            edges: tuple[float, ...] = BANDS) -> list[tuple[float, float, int, float]]:
    """(low, high, count, median labelled / predicted size) for each band of predicted
    size between `edges` (the first from 0, the last open); empty bands are left out."""
    bounds = [0.0, *edges, float("inf")]
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
        ratios = [lab / pred for pred, lab in pairs if lo <= pred < hi]
        if ratios:
            out.append((lo, hi, len(ratios), statistics.median(ratios)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--threshold", type=float, default=0.3, help="weakest candidate paired")
    ap.add_argument("--model", type=Path, default=MODEL_PATH, help="the detector to measure")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    items = [it for it in load_dev_set() if not it.held_back]
    pairs = size_pairs(items, Detector(args.model), args.threshold)
    ratios = [lab / pred for pred, lab in pairs]
    if not ratios:
        raise SystemExit("no labelled index has a candidate on it")
    q = statistics.quantiles(ratios, n=4)
    print(f"{len(ratios)} indices: labelled / predicted size median "
          f"{statistics.median(ratios):.3f} (quartiles {q[0]:.3f}, {q[2]:.3f}); "
          f"SIZE_GAIN is {SIZE_GAIN}")
    for lo, hi, n, median in by_band(pairs):
        print(f"  predicted {lo:>3.0f}-{hi:<4.0f}px: {n:>4} indices, median {median:.3f}")


if __name__ == "__main__":
    main()
