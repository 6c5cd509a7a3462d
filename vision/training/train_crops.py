"""Train the corner-index classifier and export it to `vision/models/corner_cls.onnx`.

    python -m vision.training.train_crops --epochs 30

The detector (`train.py`) finds where corner indices are; this small network reads each
one from a square crop (`CROP_PX` pixels) around it: the 52 cards, `JOKER`, `BACK` and
`NONE` (not a corner index: it lets the reader drop false detections). Crops come from
the development set's labelled boxes (not its held-back fifth), the 52 large index crops
and synthetic scenes, with rotation (any multiple of 90 degrees plus a tilt), aspect,
scale, shift, blur, noise and colour changes.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from vision.detector import CLS_MODEL_PATH, CROP_PX, CROP_SCALE, crop_at
from vision.labels import CLASSES, RANK_CLASSES, SUITS, load_dev_set, split_class
from vision.training.train import Sample, load_corner_crops, load_samples, photometric

NONE = len(CLASSES)  # the extra "not a corner index" class
CACHE = Path(__file__).resolve().parent / "cache"


class CropNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()

        def block(i: int, o: int) -> nn.Sequential:
            return nn.Sequential(nn.Conv2d(i, o, 3, 1, 1, bias=False), nn.BatchNorm2d(o),
                                 nn.ReLU(True), nn.Conv2d(o, o, 3, 1, 1, bias=False),
                                 nn.BatchNorm2d(o), nn.ReLU(True), nn.MaxPool2d(2))

        self.features = nn.Sequential(block(3, 16), block(16, 32), block(32, 64), block(64, 96))
        self.drop = nn.Dropout(0.2)
        # factorised reading: rank (13 + JOKER + BACK + NONE) and suit (4), each class of
        # the product sees four (thirteen) times more examples than a 52-way head would
        self.rank = nn.Linear(96, len(RANK_CLASSES))
        self.suit = nn.Linear(96, len(SUITS))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        f = self.features(x)
        f = self.drop(torch.flatten(F.adaptive_avg_pool2d(f, 1), 1))
        return self.rank(f), self.suit(f)


def sample_crop(s: Sample, rnd: random.Random) -> tuple[np.ndarray, int]:
    ax = rnd.uniform(*s.aspect_range)
    if len(s.boxes) and rnd.random() < 0.85:
        x, y, w, h, c = s.boxes[rnd.randrange(len(s.boxes))]
        side = max(w * ax, h) * CROP_SCALE * math.exp(rnd.gauss(0, 0.12))
        jx, jy = rnd.gauss(0, 0.07) * side, rnd.gauss(0, 0.07) * side
        if rnd.random() < 0.75:
            angle = rnd.choice((0, 180)) + rnd.gauss(0, 12)
        else:
            angle = rnd.uniform(0, 360)
        return crop_at(s.image, x + jx / ax, y + jy, side, angle, ax), int(c)
    # a background crop: away from every labelled box
    h_img, w_img = s.image.shape[:2]
    med = float(np.median(s.boxes[:, 3])) if len(s.boxes) else 40.0
    for _ in range(20):
        cx, cy = rnd.uniform(0, w_img), rnd.uniform(0, h_img)
        if all(abs(cx - b[0]) > b[2] * 0.9 or abs(cy - b[1]) > b[3] * 0.9 for b in s.boxes):
            side = med * CROP_SCALE * math.exp(rnd.gauss(0, 0.4))
            return crop_at(s.image, cx, cy, side, rnd.uniform(0, 360), ax), NONE
    x, y, w, h, c = s.boxes[0]
    return crop_at(s.image, x, y, max(w, h) * CROP_SCALE, 0, ax), int(c)


def synth_crops(rnd: random.Random, n: int) -> list[tuple[np.ndarray, int]]:
    from vision.training.synth import render_scene

    out: list[tuple[np.ndarray, int]] = []
    while len(out) < n:
        img, boxes = render_scene(rnd, 256)
        s = Sample(img, boxes, (0.85, 1.15))
        for _ in range(min(12, n - len(out))):
            out.append(sample_crop(s, rnd))
    return out


def jpeg(img: np.ndarray, rnd: random.Random) -> np.ndarray:
    """Re-encode at a low JPEG quality half of the time (camera compression artefacts)."""
    if rnd.random() < 0.5:
        return img
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, rnd.randint(20, 80)])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else img


def batch(samples: list[Sample], n: int, rnd: random.Random, synth: float,
          jpeg_noise: bool = False):
    items = [sample_crop(samples[rnd.randrange(len(samples))], rnd)
             for _ in range(n - int(n * synth))]
    items += synth_crops(rnd, int(n * synth)) if synth > 0 else []
    if jpeg_noise:
        items = [(jpeg(img, rnd), c) for img, c in items]
    xs = np.stack([photometric(img, rnd).transpose(2, 0, 1) for img, _ in items])
    ys = np.array([c for _, c in items], np.int64)
    return torch.from_numpy(xs).float() / 255.0, torch.from_numpy(ys)


def split_targets(y: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    names = CLASSES + ("NONE",)
    pairs = [split_class(names[int(k)]) for k in y]
    return (torch.tensor([RANK_CLASSES.index(r) for r, _ in pairs]),
            torch.tensor([SUITS.index(s) if s else -1 for _, s in pairs]))


def held_back_accuracy(model: CropNet, items: list) -> float:
    """Recognition-only accuracy on the held-back labelled boxes (crops of the GT boxes)."""
    model.eval()
    right = total = 0
    with torch.no_grad():
        for s in items:
            crops, labels = [], []
            for x, y, w, h, c in s.boxes:
                crops.append(crop_at(s.image, x, y, max(w, h) * CROP_SCALE, 0))
                labels.append(int(c))
            if not crops:
                continue
            x_t = torch.from_numpy(np.stack(crops).transpose(0, 3, 1, 2).copy()).float() / 255
            pr, ps = model(x_t)
            for r, su, c in zip(pr.argmax(1).tolist(), ps.argmax(1).tolist(), labels,
                                strict=True):
                name = RANK_CLASSES[r] + (SUITS[su] if len(RANK_CLASSES[r]) <= 2 else "")
                right += name == CLASSES[c]
            total += len(labels)
    model.train()
    return right / max(total, 1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--synth", type=float, default=0.2)
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--jpeg", action="store_true", help="JPEG re-encoding augmentation")
    ap.add_argument("--init", type=Path, default=None)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", type=Path, default=CLS_MODEL_PATH)
    ap.add_argument("--eval-every", type=int, default=250)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    rnd = random.Random(1)
    np.random.seed(1)
    torch.manual_seed(1)
    dev = load_dev_set()
    train = load_samples([it for it in dev if args.all or not it.held_back]) + load_corner_crops()
    val = load_samples([it for it in dev if it.held_back])
    model = CropNet()
    if args.init:
        model.load_state_dict(torch.load(args.init))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, args.lr, total_steps=args.steps,
                                                pct_start=0.1)
    t0 = time.time()
    CACHE.mkdir(parents=True, exist_ok=True)
    for step in range(1, args.steps + 1):
        x, y = batch(train, args.batch, rnd, args.synth, args.jpeg)
        rank_y, suit_y = split_targets(y)
        pr, ps = model(x)
        loss = F.cross_entropy(pr, rank_y, label_smoothing=0.05)
        has_suit = suit_y >= 0
        if has_suit.any():
            loss = loss + F.cross_entropy(ps[has_suit], suit_y[has_suit], label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 50 == 0:
            print(f"step {step} loss {loss.item():.3f} {time.time() - t0:.0f}s", flush=True)
        if step % args.eval_every == 0 or step == args.steps:
            export(model, args.out)
            torch.save(model.state_dict(), CACHE / "cls_last.pt")
            print("held-back crop accuracy", round(held_back_accuracy(model, val), 3), flush=True)


def export(model: CropNet, path: Path) -> None:
    model.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 3, CROP_PX, CROP_PX), str(path),
                      input_names=["crops"], output_names=["rank", "suit"], opset_version=13,
                      dynamic_axes={"crops": {0: "n"}, "rank": {0: "n"}, "suit": {0: "n"}},
                      dynamo=False)
    model.train()


if __name__ == "__main__":
    main()
