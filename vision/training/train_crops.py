"""Train the corner-index classifier and export it to `vision/models/corner_cls.onnx`.

    python -m vision.training.mine        # first: the detector's candidates, labelled
    python -m vision.training.train_crops --px 48 --mined 0.35 --balanced --steps 10000

The detector (`train.py`) finds where corner indices are; this small network reads each
one from a square crop (`--px` pixels; the runtime reads the size from
`corner_cls.json`, written beside the model) around it: rank (13 + `JOKER` + `BACK` +
`NONE` = not a corner index, which lets the reader drop false detections) and suit. A
batch mixes crops of the development set's labelled boxes (not its held-back fifth; half
of them drawn class-balanced with `--balanced`), the detector's own candidates on the
training photos (`--mined`: the framing and the false peaks the classifier really gets),
the 52 large index crops and synthetic scenes, with rotation, aspect, scale, shift, blur,
noise, JPEG and colour changes. Batches are made in a worker process (`--workers`).

A third head, the framing (`frame`), reads how far the crop's side is off the side the
index's labelled box gives (log of labelled side x `CROP_SCALE` / crop side): the detector's
size head misjudges big indices by up to 1.7x, and an index cut that much too wide is
misread (a club read as a spade) where the same classifier reads it right at the labelled
framing. Crops of labelled boxes and mined candidates on an index teach it; `--frame-wide`
of the labelled crops are cut at up to 2x off their side for it (their class is taught only
when they are at most `CLASS_FRAME` off). The recogniser cuts such a corner again at the side
the head reads (`vision.detector.REFRAME`).
"""

from __future__ import annotations

import argparse
import json
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
from vision.training.net import dws
from vision.training.train import (
    SQUEEZE,
    Sample,
    load_corner_crops,
    load_samples,
    parse_repeat,
    photometric,
)

NONE = len(CLASSES)  # the extra "not a corner index" class
CACHE = Path(__file__).resolve().parent / "cache"


WIDTHS = (16, 32, 64, 128)


def _cbr(i: int, o: int, s: int = 1) -> list[nn.Module]:
    return [nn.Conv2d(i, o, 3, s, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(True)]


def lite_features() -> nn.Sequential:
    """The `lite` trunk (`--arch lite`): about half the `wide` one's time in `cv2.dnn`
    (a stride-2 first convolution instead of two full-size ones at 48 px, one convolution
    fewer at 24 px, a depthwise-separable last one)."""
    return nn.Sequential(
        *_cbr(3, 24, 2), *_cbr(24, 32), nn.MaxPool2d(2),
        *_cbr(32, 64), *_cbr(64, 64), nn.MaxPool2d(2),
        *_cbr(64, 128), *dws(128, 128), nn.MaxPool2d(2))


class CropNet(nn.Module):
    """`arch` "wide": four blocks of two 3x3 convolutions (`WIDTHS`); "lite":
    `lite_features`. Both end in 128 channels and the same three heads."""

    def __init__(self, widths: tuple[int, ...] = WIDTHS, arch: str = "wide") -> None:
        super().__init__()

        def block(i: int, o: int) -> nn.Sequential:
            return nn.Sequential(*_cbr(i, o), *_cbr(o, o), nn.MaxPool2d(2))

        if arch == "lite":
            self.features = lite_features()
            widths = (128,)  # the lite trunk's last width
        elif arch == "wide":
            chans = (3, *widths)
            pairs = zip(chans[:-1], chans[1:], strict=True)
            self.features = nn.Sequential(*(block(i, o) for i, o in pairs))
        else:
            raise ValueError(f"unknown --arch {arch!r}")
        self.drop = nn.Dropout(0.2)
        # factorised reading: rank (13 + JOKER + BACK + NONE) and suit (4), each class of
        # the product sees four (thirteen) times more examples than a 52-way head would
        self.rank = nn.Linear(widths[-1], len(RANK_CLASSES))
        self.suit = nn.Linear(widths[-1], len(SUITS))
        self.frame = nn.Linear(widths[-1], 1)  # log(right crop side / this crop's side)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        f = self.features(x)
        f = self.drop(torch.flatten(F.adaptive_avg_pool2d(f, 1), 1))
        return self.rank(f), self.suit(f), self.frame(f)[:, 0]


PX = CROP_PX  # the crop size trained for (`--px`); the runtime's CROP_PX must match
ANY_ANGLE = 0.25  # share of crops turned by any angle (the rest upright or upside down)
SIDE_JITTER = 0.12  # log-normal spread of the crop side (the detector's sizes are rough)
FRAME_WIDE = 0.0  # share of labelled crops cut at up to FRAME_RANGE off (`--frame-wide`)
FRAME_RANGE = 0.7  # log of the widest framing error taught to the framing head (2x)
CLASS_FRAME = 0.3  # a wide-framed crop's class is taught only this close (log) to its side
NO_CLASS = -1  # the class of a crop that teaches the framing head only
Item = tuple[np.ndarray, int, float]  # crop, class (NO_CLASS: none), framing target (nan: none)


def _angle(rnd: random.Random) -> float:
    if rnd.random() < ANY_ANGLE:
        return rnd.uniform(0, 360)
    return rnd.choice((0, 180)) + rnd.gauss(0, 12)


def sample_crop(s: Sample, rnd: random.Random, box: int | None = None) -> Item:
    ax = rnd.uniform(*s.aspect_range)
    if len(s.boxes) and (box is not None or rnd.random() < 0.85):
        k = rnd.randrange(len(s.boxes)) if box is None else box
        x, y, w, h, c = s.boxes[k]
        wide = rnd.random() < FRAME_WIDE
        g = rnd.uniform(-FRAME_RANGE, FRAME_RANGE) if wide else rnd.gauss(0, SIDE_JITTER)
        side = max(w * ax, h) * CROP_SCALE * math.exp(g)
        jx, jy = rnd.gauss(0, 0.07) * side, rnd.gauss(0, 0.07) * side
        label = int(c) if not wide or abs(g) <= CLASS_FRAME else NO_CLASS
        return crop_at(s.image, x + jx / ax, y + jy, side, _angle(rnd), ax, PX), label, -g
    # a background crop: away from every labelled box
    h_img, w_img = s.image.shape[:2]
    med = float(np.median(s.boxes[:, 3])) if len(s.boxes) else 40.0
    for _ in range(20):
        cx, cy = rnd.uniform(0, w_img), rnd.uniform(0, h_img)
        if all(abs(cx - b[0]) > b[2] * 0.9 or abs(cy - b[1]) > b[3] * 0.9 for b in s.boxes):
            side = med * CROP_SCALE * math.exp(rnd.gauss(0, 0.4))
            return crop_at(s.image, cx, cy, side, rnd.uniform(0, 360), ax, PX), NONE, math.nan
    x, y, w, h, c = s.boxes[0]
    return crop_at(s.image, x, y, max(w, h) * CROP_SCALE, 0, ax, PX), int(c), 0.0


class Mined:
    """The detector's candidates on the training photos (`mine.py`), 55 % drawn on a
    labelled index and the rest not, cut as the recogniser cuts them; a candidate on an
    index teaches the framing head how far its side is off the labelled box's."""

    def __init__(self, path: Path, photos: dict[str, Sample],
                 repeat: dict[str, int] | None = None) -> None:
        data = np.load(path)
        rows = data["rows"]
        # mine.py's row k is on its k-th photo, stored by name ("subset/stem")
        missing = [str(n) for n in data["stems"] if str(n) not in photos]
        if missing:
            raise ValueError(f"mined photos not among the training photos: {missing[:3]}")
        self.samples = [photos[str(n)] for n in data["stems"]]
        if repeat:  # a repeated subset's candidates are drawn K times as often
            times = np.array([repeat.get(str(n).split("/")[0], 1) for n in data["stems"]])
            rows = np.repeat(rows, times[rows[:, 0].astype(int)], axis=0)
        self.pos = rows[rows[:, 6] < NONE]
        self.neg = rows[rows[:, 6] == NONE]

    def crop(self, rnd: random.Random) -> Item:
        rows = self.pos if rnd.random() < 0.55 else self.neg
        k, cx, cy, side, ax, _score, label, true_side = rows[rnd.randrange(len(rows))]
        side *= math.exp(rnd.gauss(0, SIDE_JITTER))
        jx, jy = rnd.gauss(0, 0.04) * side, rnd.gauss(0, 0.04) * side
        angle = rnd.uniform(0, 360) if rnd.random() < ANY_ANGLE else rnd.gauss(0, 5)
        img = self.samples[int(k)].image
        frame = math.log(true_side / side) if label < NONE and true_side > 0 else math.nan
        return crop_at(img, cx + jx / ax, cy + jy, side, angle, ax, PX), int(label), frame


class Balanced:
    """Labelled boxes drawn class by class (square-root balanced), so that the rare
    classes (jokers above all: 30 photos) are read as often as they need."""

    def __init__(self, samples: list[Sample]) -> None:
        by_class: dict[int, list[tuple[int, int]]] = {}
        for i, s in enumerate(samples):
            for j, b in enumerate(s.boxes):
                by_class.setdefault(int(b[4]), []).append((i, j))
        self.samples = samples
        self.classes = sorted(by_class)
        self.boxes = by_class
        w = np.sqrt([len(by_class[c]) for c in self.classes])
        self.cum = np.cumsum(w / w.sum())

    def crop(self, rnd: random.Random) -> Item:
        c = self.classes[min(int(np.searchsorted(self.cum, rnd.random())), len(self.cum) - 1)]
        i, j = self.boxes[c][rnd.randrange(len(self.boxes[c]))]
        return sample_crop(self.samples[i], rnd, j)


def synth_crops(rnd: random.Random, n: int) -> list[Item]:
    from vision.training.synth import render_scene

    out: list[Item] = []
    while len(out) < n:
        img, boxes = render_scene(rnd, 256)
        s = Sample(img, boxes, (0.85, 1.15))
        for _ in range(min(12, n - len(out))):
            out.append(sample_crop(s, rnd))
    return out


def restyle(img: np.ndarray, rnd: random.Random) -> np.ndarray:
    """A light card's crop redrawn as a dark card with gold or white print (the blackgold
    deck's style): the ink (dark or red on a light ground) becomes the light print, the
    ground a near-black. The four fifths the honest runs train on hold no blackgold K♣ or
    K♠ and few of many other cards (docs/VISION_TRIALS.md); this shows the classifier every card
    of the other decks in that style. A crop that is dark already is left as it is."""
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    lo, hi = np.percentile(gray, (5, 90))
    if hi < 110 or hi - lo < 40:
        return img
    ink = np.clip((hi - gray) / (hi - lo), 0, 1)[..., None]
    ground = np.array([rnd.uniform(10, 45)] * 3, np.float32) + rnd.uniform(-5, 5)
    if rnd.random() < 0.3:  # white print (the deck's court cards)
        print_ = np.array([rnd.uniform(190, 245)] * 3, np.float32)
    else:  # gold (BGR)
        print_ = np.array([rnd.uniform(30, 100), rnd.uniform(130, 190), rnd.uniform(180, 240)],
                          np.float32)
    return np.clip(ground + ink * (print_ - ground), 0, 255).astype(np.uint8)


def motion_blur(img: np.ndarray, rnd: random.Random) -> np.ndarray:
    """Smear the crop along a line at a random angle, 3 px to a quarter of its side long (a
    hand-held tablet or phone moving while the shutter is open; Gaussian blur, in
    `photometric`, is round)."""
    side = img.shape[0]
    length = rnd.uniform(3.0, max(3.0, side / 4))
    k = int(math.ceil(length)) | 1
    kernel = np.zeros((k, k), np.float32)
    c = (k - 1) / 2
    cv2.line(kernel, (round(c - (length - 1) / 2), round(c)), (round(c + (length - 1) / 2), round(c)),
             1.0, 1, cv2.LINE_AA)
    turn = cv2.getRotationMatrix2D((c, c), rnd.uniform(0, 180), 1.0)
    kernel = cv2.warpAffine(kernel, turn, (k, k))
    kernel /= max(float(kernel.sum()), 1e-6)
    return cv2.filter2D(img, -1, kernel, borderType=cv2.BORDER_REFLECT)


LOWRES_INDEX = (7.0, 20.0)  # index heights (px) a low-resolution crop is sampled at


def low_resolution(img: np.ndarray, rnd: random.Random) -> np.ndarray:
    """The crop as if its index had been LOWRES_INDEX px high in the photo (log-uniform):
    shrunk with area averaging (the camera's pixels) to that index height times
    `CROP_SCALE`, then enlarged back to the crop size with linear interpolation, as
    `crop_at` enlarges a small index of a real photo. The turned blackgold photos' indices
    are about 10 px high at the working scale, under what the labelled crops show. Tried
    at 0.2 on fifth 3 (2026-12-07) and not kept: more false cards (docs/VISION_TRIALS.md,
    "Low-resolution crops")."""
    side = img.shape[0]
    index = math.exp(rnd.uniform(math.log(LOWRES_INDEX[0]), math.log(LOWRES_INDEX[1])))
    k = max(4, min(side - 1, round(index * CROP_SCALE)))
    small = cv2.resize(img, (k, k), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (side, side), interpolation=cv2.INTER_LINEAR)


def jpeg(img: np.ndarray, rnd: random.Random) -> np.ndarray:
    """Re-encode at a low JPEG quality half of the time (camera compression artefacts)."""
    if rnd.random() < 0.5:
        return img
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, rnd.randint(20, 80)])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else img


def batch(samples: list[Sample], n: int, rnd: random.Random, synth: float,
          jpeg_noise: bool = False, mined: tuple[Mined, float] | None = None,
          balanced: Balanced | None = None, restyled: float = 0.0, motion: float = 0.0,
          lowres: float = 0.0):
    n_synth = int(n * synth)
    n_mined = int(n * mined[1]) if mined else 0
    items = []
    for _ in range(n - n_synth - n_mined):
        if balanced is not None and rnd.random() < 0.5:
            items.append(balanced.crop(rnd))
        else:
            items.append(sample_crop(samples[rnd.randrange(len(samples))], rnd))
    items += [mined[0].crop(rnd) for _ in range(n_mined)] if mined else []
    items += synth_crops(rnd, n_synth) if synth > 0 else []
    for change, share in ((restyle, restyled), (motion_blur, motion), (low_resolution, lowres)):
        if share > 0:
            items = [(change(img, rnd) if rnd.random() < share else img, c, t)
                     for img, c, t in items]
    if jpeg_noise:
        items = [(jpeg(img, rnd), c, t) for img, c, t in items]
    xs = np.stack([photometric(img, rnd).transpose(2, 0, 1) for img, _, _ in items])
    ys = np.array([c for _, c, _ in items], np.int64)
    ts = np.array([t for _, _, t in items], np.float32)
    return torch.from_numpy(xs).float() / 255.0, torch.from_numpy(ys), torch.from_numpy(ts)


def split_targets(y: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Rank and suit targets of classes `y` (`NONE` included; `NO_CLASS` not allowed)."""
    names = CLASSES + ("NONE",)
    pairs = [split_class(names[int(k)]) for k in y]
    return (torch.tensor([RANK_CLASSES.index(r) for r, _ in pairs], dtype=torch.long),
            torch.tensor([SUITS.index(s) if s else -1 for _, s in pairs], dtype=torch.long))


def loss_of(model: CropNet, x: torch.Tensor, y: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
    """Rank and suit cross-entropy on the crops with a class, and the framing head's
    smooth L1 on the crops with a framing target."""
    pr, ps, pf = model(x)
    has_class = y != NO_CLASS
    loss = pf.sum() * 0.0
    if has_class.any():
        rank_y, suit_y = split_targets(y[has_class])
        loss = loss + F.cross_entropy(pr[has_class], rank_y, label_smoothing=0.05)
        has_suit = suit_y >= 0
        if has_suit.any():
            loss = loss + F.cross_entropy(ps[has_class][has_suit], suit_y[has_suit],
                                          label_smoothing=0.05)
    has_frame = ~torch.isnan(t)
    if has_frame.any():
        loss = loss + F.smooth_l1_loss(pf[has_frame], t[has_frame], beta=0.1)
    return loss


def held_back_accuracy(model: CropNet, items: list) -> tuple[float, float]:
    """Recognition-only accuracy on the held-back labelled boxes (crops of the GT boxes),
    and the framing head's median error (log) on those boxes cut 1/1.6x, 1x and 1.6x their
    side."""
    model.eval()
    right = total = 0
    errors: list[float] = []
    with torch.no_grad():
        for s in items:
            crops, labels, frames = [], [], []
            for x, y, w, h, c in s.boxes:
                for g in (0.0, -0.47, 0.47):
                    side = max(w, h) * CROP_SCALE * math.exp(g)
                    crops.append(crop_at(s.image, x, y, side, 0, 1.0, PX))
                    labels.append(int(c) if g == 0 else NO_CLASS)
                    frames.append(-g)
            if not crops:
                continue
            x_t = torch.from_numpy(np.stack(crops).transpose(0, 3, 1, 2).copy()).float() / 255
            pr, ps, pf = model(x_t)
            for r, su, f, c, t in zip(pr.argmax(1).tolist(), ps.argmax(1).tolist(),
                                      pf.tolist(), labels, frames, strict=True):
                errors.append(abs(f - t))
                if c == NO_CLASS:
                    continue
                name = RANK_CLASSES[r] + (SUITS[su] if len(RANK_CLASSES[r]) <= 2 else "")
                right += name == CLASSES[c]
                total += 1
    model.train()
    return right / max(total, 1), float(np.median(errors)) if errors else math.nan


class Batches(torch.utils.data.IterableDataset):
    """Training batches made in a worker process, so that one core makes crops while the
    other trains."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args

    def __iter__(self):
        args = self.args
        info = torch.utils.data.get_worker_info()
        seed = args.seed + (info.id if info else 0)
        rnd = random.Random(seed)
        np.random.seed(seed)
        cv2.setNumThreads(1)
        dev = load_dev_set()
        photos = {f"{it.subset}/{it.stem}": loaded[0] for it in dev
                  if (args.all or not it.held_back)
                  and (loaded := load_samples([it], args.squeeze))}
        repeat = dict(args.repeat)
        train = [s for name, s in photos.items()
                 for _ in range(repeat.get(name.split("/")[0], 1))]
        mined = (Mined(args.mined_file, photos, repeat), args.mined) if args.mined > 0 else None
        balanced = Balanced(train) if args.balanced else None
        train += load_corner_crops(args.squeeze)
        while True:
            yield batch(train, args.batch, rnd, args.synth, args.jpeg, mined, balanced,
                        args.restyle, args.motion, args.lowres)


def main() -> None:
    global PX, ANY_ANGLE, SIDE_JITTER, FRAME_WIDE
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--synth", type=float, default=0.2)
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--jpeg", action="store_true", help="JPEG re-encoding augmentation")
    ap.add_argument("--init", type=Path, default=None)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1, help="processes making batches")
    ap.add_argument("--px", type=int, default=CROP_PX, help="crop size (runtime CROP_PX)")
    ap.add_argument("--any-angle", type=float, default=ANY_ANGLE)
    ap.add_argument("--side-jitter", type=float, default=SIDE_JITTER)
    ap.add_argument("--frame-wide", type=float, default=FRAME_WIDE,
                    help="share of labelled crops cut up to 2x off their side, teaching the "
                    "framing head only when more than CLASS_FRAME off")
    ap.add_argument("--mined", type=float, default=0.0,
                    help="share of the batch from the detector's mined candidates (mine.py)")
    ap.add_argument("--mined-file", type=Path, default=CACHE / "mined.npz")
    ap.add_argument("--balanced", action="store_true",
                    help="draw half the labelled crops class-balanced")
    ap.add_argument("--squeeze", type=float, default=SQUEEZE,
                    help="narrowest horizontal scale of the phone photos' crops (0.56 is as "
                    "narrow as the stored webcam photos: 16:9 frames stretched to 640x640)")
    ap.add_argument("--repeat", action="append", default=[], metavar="SUBSET=K", type=parse_repeat,
                    help="draw this subset's photos (labelled boxes and mined candidates) "
                    "K times as often (e.g. phone_blackgold=2)")
    ap.add_argument("--arch", choices=("wide", "lite"), default="wide",
                    help="the trunk: wide (four blocks of two convolutions) or lite (about "
                    "half its time in cv2.dnn)")
    ap.add_argument("--weight-decay", type=float, default=5e-4, help="AdamW's weight decay")
    ap.add_argument("--members", nargs="+", default=[], metavar="FILE.onnx",
                    help="further classifiers (in --out's folder) whose readings the runtime "
                    "averages with this one's (the .json's members; vision.detector."
                    "ensemble_members)")
    ap.add_argument("--members-below", type=float, default=None, metavar="P",
                    help="the --members read only the crops this one reads below P (the "
                    ".json's members_below; vision.detector.members_below)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=CLS_MODEL_PATH)
    ap.add_argument("--save", type=Path, default=CACHE / "cls_last.pt")
    ap.add_argument("--eval-every", type=int, default=250)
    ap.add_argument("--restyle", type=float, default=0.0,
                    help="share of the crops of light cards redrawn as a dark card with gold "
                    "or white print (the blackgold deck's style; restyle())")
    ap.add_argument("--motion", type=float, default=0.0,
                    help="share of the crops smeared along a line (motion_blur(): a hand-held "
                    "camera moving; the Gaussian blur of photometric() is round)")
    ap.add_argument("--lowres", type=float, default=0.0,
                    help="share of the crops shrunk to an index 7-20 px high and enlarged "
                    "back (low_resolution(): the small indices of turned or distant cards)")
    ap.add_argument("--soup", type=Path, nargs="+", default=None, metavar="RUN.pt",
                    help="no training: average the weights of these runs (fine-tuned from "
                    "one checkpoint with different seeds), estimate the batch norms' "
                    "statistics again on --steps batches, export to --out")
    args = ap.parse_args()
    PX, ANY_ANGLE, SIDE_JITTER = args.px, args.any_angle, args.side_jitter
    FRAME_WIDE = args.frame_wide
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    torch.manual_seed(args.seed)
    dev = load_dev_set()
    val = load_samples([it for it in dev if it.held_back])
    model = CropNet(arch=args.arch)
    if args.init:
        model.load_state_dict(torch.load(args.init))
    if args.soup:
        make_soup(model, args, val)
        return
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, args.lr, total_steps=args.steps,
                                                pct_start=0.1)
    t0 = time.time()
    CACHE.mkdir(parents=True, exist_ok=True)
    loader = torch.utils.data.DataLoader(Batches(args), batch_size=None,
                                         num_workers=args.workers, prefetch_factor=4
                                         if args.workers else None)
    for step, (x, y, t) in enumerate(loader, start=1):
        if step > args.steps:
            break
        loss = loss_of(model, x, y, t)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 50 == 0:
            print(f"step {step} loss {loss.item():.3f} {time.time() - t0:.0f}s", flush=True)
        if step % args.eval_every == 0 or step == args.steps:
            export(model, args.out, args.all, args.arch, args.members, args.members_below)
            torch.save(model.state_dict(), args.save)
            acc, frame_err = held_back_accuracy(model, val)
            print("held-back crop accuracy" + (" (trained on, --all)" if args.all else ""),
                  round(acc, 3), "framing error (median |log|)", round(frame_err, 3),
                  flush=True)


def average_weights(runs: list[dict[str, torch.Tensor]]) -> dict[str, torch.Tensor]:
    """The element-wise mean of several state dicts of one network (a "model soup");
    integer entries (the batch norms' batch counters) are taken from the first."""
    out = {}
    for key, first in runs[0].items():
        if first.is_floating_point():
            out[key] = torch.stack([r[key] for r in runs]).mean(0)
        else:
            out[key] = first.clone()
    return out


def refresh_batch_norms(model: nn.Module, batches, steps: int) -> None:
    """Estimate every batch norm's running mean and variance again, as the plain average
    over `steps` training batches (an averaged network's activations are not the average
    of its ingredients')."""
    norms = [m for m in model.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]
    for m in norms:
        m.reset_running_stats()
        m.momentum = None  # cumulative average
    model.train()
    with torch.no_grad():
        for step, (x, _y, _t) in enumerate(batches, start=1):
            model(x)
            if step >= steps:
                break
    for m in norms:
        m.momentum = 0.1


def make_soup(model: CropNet, args: argparse.Namespace, val: list) -> None:
    model.load_state_dict(average_weights([torch.load(p) for p in args.soup]))
    loader = torch.utils.data.DataLoader(Batches(args), batch_size=None,
                                         num_workers=args.workers, prefetch_factor=4
                                         if args.workers else None)
    refresh_batch_norms(model, loader, args.steps)
    export(model, args.out, args.all, args.arch, args.members, args.members_below)
    torch.save(model.state_dict(), args.save)
    acc, frame_err = held_back_accuracy(model, val)
    print(f"soup of {len(args.soup)} runs; held-back crop accuracy"
          + (" (trained on, --all)" if args.all else ""), round(acc, 3),
          "framing error (median |log|)", round(frame_err, 3), flush=True)


def export(model: CropNet, path: Path, all_photos: bool, arch: str = "wide",
           members: list[str] | None = None, members_below: float | None = None) -> None:
    model.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(1, 3, PX, PX), str(path),
                      input_names=["crops"], output_names=["rank", "suit", "frame"],
                      opset_version=13, dynamic_axes={"crops": {0: "n"}, "rank": {0: "n"},
                                                      "suit": {0: "n"}, "frame": {0: "n"}},
                      dynamo=False)
    # the runtime reads the crop size it must cut from this file (vision.detector.CROP_PX);
    # `make vision-eval` reads whether the held-back fifth was trained on; `frame_head`:
    # the graph has the framing output (vision.detector.REFRAME); `members`: the classifiers
    # averaged with this one (vision.detector.ensemble_members), only on the crops this one
    # reads below `members_below` where that is given
    meta: dict[str, object] = {"crop_px": PX, "trained_on": "all" if all_photos else "train",
                               "frame_head": True, "arch": arch}
    if members:
        meta["members"] = members
        if members_below is not None:
            meta["members_below"] = members_below
    path.with_suffix(".json").write_text(json.dumps(meta) + "\n", encoding="utf-8")
    model.train()


if __name__ == "__main__":
    main()
