"""Measure the detector's size gain (`vision.detector.SIZE_GAIN`) after a detector is trained.

    python -m vision.training.size_gain        # median labelled / predicted index size

The detector's size head reads index boxes smaller than they are labelled, and the crop
classifier must see the framing it was trained on, so the runtime multiplies every size by
`SIZE_GAIN`. This script runs the shipped detector, or `--model`, as the recogniser runs
it (`Detector.candidates`) on the training photos (never the held-back fifth, never the
hold-out), pairs each labelled index with the strongest candidate on it (`mine.on_index`),
and prints the median of labelled size / predicted size, the size being the longer side.
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


def size_ratios(items: list[LabelledImage], det: Detector, threshold: float = 0.3) -> list[float]:
    """Labelled / predicted longer side (without `SIZE_GAIN`) of every labelled index that
    has a candidate with a score of at least `threshold` on it."""
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
                out.append(side / (max(best.w, best.h) / SIZE_GAIN))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--threshold", type=float, default=0.3, help="weakest candidate paired")
    ap.add_argument("--model", type=Path, default=MODEL_PATH, help="the detector to measure")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    items = [it for it in load_dev_set() if not it.held_back]
    ratios = size_ratios(items, Detector(args.model), args.threshold)
    if not ratios:
        raise SystemExit("no labelled index has a candidate on it")
    q = statistics.quantiles(ratios, n=4)
    print(f"{len(ratios)} indices: labelled / predicted size median "
          f"{statistics.median(ratios):.3f} (quartiles {q[0]:.3f}, {q[2]:.3f}); "
          f"SIZE_GAIN is {SIZE_GAIN}")


if __name__ == "__main__":
    main()
