"""Mine the detector's candidates on the training photos, for the crop classifier.

    python -m vision.training.mine            # writes vision/training/cache/mined.npz

The crop classifier reads what the detector proposes: crops centred where the detector's
peak is, sized by its size head, and many that are not corner indices at all (a pip in a
card's middle, a suit without its rank, the blanket's pattern). Training it only on crops
of the labelled boxes teaches it a cleaner framing than it ever gets. This script runs the
shipped detector (`Detector.candidates`, the same passes and threshold as the recogniser)
on every training photo at its stretched and restored aspect, and labels each candidate
with the class of the labelled box it falls on, or `NONE`, and the side of the crop that box
would give (its longer side x `CROP_SCALE`, for the classifier's framing head; 0 for `NONE`).
The held-back fifth is read only with `--all` (for models trained on every development
photo); the hold-out never.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from vision.detector import CROP_SCALE, MINE_CANDIDATES, Corner, Detector, crop_side
from vision.labels import ASPECT, CLASSES, load_dev_set

NONE = len(CLASSES)
CACHE = Path(__file__).resolve().parent / "cache"
MINED = CACHE / "mined.npz"
MATCH = 0.6  # a candidate within this many box sizes of a labelled centre reads as it
THRESHOLD = 0.08  # the recogniser's weakest candidates (reader.CANDIDATE_THRESHOLD)


def on_index(c: Corner, x: float, y: float, side: float) -> bool:
    """Whether candidate `c` falls on the labelled index centred at (x, y) whose longer
    side is `side` (all in the pixels of the view the candidate was found in)."""
    return abs(c.x - x) < MATCH * side and abs(c.y - y) < MATCH * side


def aspects(subset: str) -> tuple[float, ...]:
    a = ASPECT[subset]
    return (1.0, a) if a > 1 else (1.0, 1.25, 0.8)


def mine(items: list, det: Detector) -> dict[str, np.ndarray]:
    rows = []
    for k, it in enumerate(items):
        img = cv2.imread(str(it.path), cv2.IMREAD_COLOR)
        if img is None:
            continue
        h, w = img.shape[:2]
        gt = np.array([(x * w, y * h, bw * w, bh * h) for _, x, y, bw, bh in it.boxes],
                      np.float64).reshape(-1, 4)
        names = [b[0] for b in it.boxes]
        for ax in aspects(it.subset):
            view = img if ax == 1.0 else cv2.resize(img, (round(w * ax), h))
            for c in det.candidates(view, THRESHOLD, limit=MINE_CANDIDATES):
                label, true_side = NONE, 0.0
                if len(gt):
                    gx, gy = gt[:, 0] * ax, gt[:, 1]
                    size = np.maximum(gt[:, 2] * ax, gt[:, 3])
                    dist = np.hypot(gx - c.x, gy - c.y)
                    j = int(np.argmin(dist))
                    if on_index(c, gx[j], gy[j], size[j]):
                        label = CLASSES.index(names[j])
                        true_side = float(size[j]) * CROP_SCALE
                side = crop_side(c)
                rows.append((k, c.x / ax, c.y, side, ax, c.score, label, true_side))
    arr = np.array(rows, np.float64).reshape(-1, 8)
    stems = np.array([f"{it.subset}/{it.stem}" for it in items])
    return {"rows": arr, "stems": stems}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=MINED)
    ap.add_argument("--all", action="store_true",
                    help="the held-back fifth too (for models trained with --all)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    items = [it for it in load_dev_set() if args.all or not it.held_back]
    data = mine(items, Detector())
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(args.out, **data)
    labels = data["rows"][:, 6]
    print(f"{len(labels)} candidates on {len(items)} photos, "
          f"{int((labels < NONE).sum())} on a labelled index; written to {args.out}")


if __name__ == "__main__":
    main()
