"""Train the corner-index network and export it to `vision/models/corner_net.onnx`.

    python -m vision.training.train --steps 3000 [--all] [--out PATH]

Data: the development set `shared/carddata/roboflow_zk7wu` (never the hold-out), without
its held-back fifth (`vision.labels.is_held_back`) unless `--all`, plus synthetic scenes
rendered from `shared/carddata/templates` (`vision.training.synth`). Dependencies:
`requirements-vision-train.txt` (PyTorch CPU, onnx). Runs on the CPU in minutes.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F

from vision.detector import MODEL_PATH, STRIDE, decode, prepare
from vision.labels import ASPECT, CLASS_INDEX, LabelledImage, load_dev_set
from vision.training.mine import on_index
from vision.training.net import CornerNet, CornerNetFast

CROP = int(os.environ.get("CROP", "192"))
CACHE = Path(__file__).resolve().parent / "cache"
ARCHS = {"fast": CornerNetFast, "base": CornerNet}


class Sample:
    """One source image in memory with its boxes in pixels (x, y, w, h, class index)."""

    def __init__(self, image: np.ndarray, boxes: np.ndarray, aspect_range: tuple[float, float]):
        self.image = image
        self.boxes = boxes
        self.aspect_range = aspect_range


SQUEEZE = 0.8  # narrowest horizontal scale a phone photo is seen at (train_crops --squeeze)


def load_samples(items: list[LabelledImage], squeeze: float = SQUEEZE) -> list[Sample]:
    """The photos in memory, each with the range of horizontal scales it is seen at: a
    webcam photo (a 16:9 frame stretched to 640x640) between stored and restored, a phone
    photo between `squeeze` and 1.25."""
    out = []
    for it in items:
        img = cv2.imread(str(it.path), cv2.IMREAD_COLOR)
        if img is None:
            continue
        h, w = img.shape[:2]
        b = np.array(
            [(x * w, y * h, bw * w, bh * h, CLASS_INDEX[c]) for c, x, y, bw, bh in it.boxes],
            dtype=np.float32,
        ).reshape(-1, 5)
        a = ASPECT[it.subset]
        rng = (1.0, a) if a > 1 else (squeeze, 1.25)
        out.append(Sample(img, b, rng))
    return out


def load_corner_crops(squeeze: float = SQUEEZE) -> list[Sample]:
    """The 52 large index crops in `templates/roboflow_zk7wu_corner_crops` (extra glyphs)."""
    from vision.labels import carddata_dir, dataset_class

    root = carddata_dir() / "templates" / "roboflow_zk7wu_corner_crops"
    names = [n.strip() for n in
             (carddata_dir() / "roboflow_zk7wu" / "classes.txt").read_text().splitlines()]
    items = []
    for img in sorted((root / "images").glob("*.jpg")):
        lab = root / "labels" / (img.stem + ".txt")
        boxes = []
        for line in lab.read_text().splitlines():
            c, x, y, w, h = line.split()
            boxes.append((dataset_class(names[int(c)]), float(x), float(y), float(w), float(h)))
        items.append(LabelledImage("phone_std", img.stem, img, tuple(boxes)))
    return load_samples(items, squeeze)


def random_affine(s: Sample, rnd: random.Random) -> tuple[np.ndarray, np.ndarray]:
    """Warp a random crop of the sample: aspect, scale, rotation, position."""
    boxes = s.boxes
    ax = rnd.uniform(*s.aspect_range)
    med_h = float(np.median(boxes[:, 3])) if len(boxes) else 40.0
    target = math.exp(rnd.uniform(math.log(14), math.log(100)))
    sc = target / max(med_h, 1.0)
    theta = rnd.uniform(0, 360) if rnd.random() < 0.35 else rnd.gauss(0, 10)
    if len(boxes) and rnd.random() < 0.85:
        b = boxes[rnd.randrange(len(boxes))]
        cx, cy = b[0] * ax, b[1]
        off = CROP * 0.35
        dx, dy = rnd.uniform(-off, off), rnd.uniform(-off, off)
    else:
        cx, cy = rnd.uniform(0, s.image.shape[1] * ax), rnd.uniform(0, s.image.shape[0])
        dx = dy = 0.0
    rot = cv2.getRotationMatrix2D((0, 0), theta, sc)  # 2x3
    a_mat = np.array([[ax, 0, 0], [0, 1, 0], [0, 0, 1]], np.float64)
    t_mat = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]], np.float64)
    r_mat = np.vstack([rot, [0, 0, 1]])
    o_mat = np.array([[1, 0, CROP / 2 + dx], [0, 1, CROP / 2 + dy], [0, 0, 1]], np.float64)
    m = (o_mat @ r_mat @ t_mat @ a_mat)[:2]
    fill = tuple(int(v) for v in np.random.randint(0, 255, 3))
    interp = cv2.INTER_AREA if sc * ax < 0.7 else cv2.INTER_LINEAR
    out = cv2.warpAffine(s.image, m, (CROP, CROP), flags=interp,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
    new_boxes = []
    for x, y, w, h, c in boxes:
        pts = np.array([[x - w / 2, y - h / 2, 1], [x + w / 2, y - h / 2, 1],
                        [x - w / 2, y + h / 2, 1], [x + w / 2, y + h / 2, 1]]).T
        q = m @ pts
        x0, y0 = q[0].min(), q[1].min()
        x1, y1 = q[0].max(), q[1].max()
        ncx, ncy = (x0 + x1) / 2, (y0 + y1) / 2
        # the label box is axis aligned; after a rotation shrink it back towards the glyphs
        shrink = 1.0 / (abs(math.cos(math.radians(theta))) + abs(math.sin(math.radians(theta))))
        nw, nh = (x1 - x0) * shrink, (y1 - y0) * shrink
        new_boxes.append((ncx, ncy, nw, nh, c))
    return out, np.array(new_boxes, np.float32).reshape(-1, 5)


def photometric(img: np.ndarray, rnd: random.Random) -> np.ndarray:
    f = img.astype(np.float32)
    f = f * rnd.uniform(0.6, 1.4) + rnd.uniform(-40, 40)
    f *= np.array([rnd.uniform(0.85, 1.15) for _ in range(3)], np.float32)
    if rnd.random() < 0.12:
        g = f.mean(axis=2, keepdims=True)
        f = np.repeat(g, 3, axis=2)
    if rnd.random() < 0.05:
        f = 255 - f
    if rnd.random() < 0.3:
        f = cv2.GaussianBlur(f, (0, 0), rnd.uniform(0.4, 1.3))
    if rnd.random() < 0.4:
        f += np.random.normal(0, rnd.uniform(2, 10), f.shape).astype(np.float32)
    return np.clip(f, 0, 255).astype(np.uint8)


def targets(boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    g = CROP // STRIDE
    heat = np.zeros((g, g), np.float32)
    cls = np.full((g, g), -1, np.int64)
    size = np.zeros((2, g, g), np.float32)
    best = np.zeros((g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32) + 0.5
    for x, y, w, h, c in boxes:
        if not (0 <= x < CROP and 0 <= y < CROP) or w < 4 or h < 4:
            continue
        cx, cy = x / STRIDE, y / STRIDE
        sigma = max(0.7, 0.12 * min(w, h) / STRIDE)
        gauss = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma * sigma))
        ix, iy = min(int(cx), g - 1), min(int(cy), g - 1)
        gauss[iy, ix] = 1.0
        heat = np.maximum(heat, gauss)
        own = (gauss > 0.5) & (gauss > best)
        best = np.where(own, gauss, best)
        cls[own] = int(c)
        size[0][own] = math.log(max(w, 1) / STRIDE)
        size[1][own] = math.log(max(h, 1) / STRIDE)
    return heat, cls, size, best


def make_batch(samples: list[Sample], n: int, rnd: random.Random, synth=None):
    xs, hs, cs, ss = [], [], [], []
    for _ in range(n):
        if synth is not None and rnd.random() < synth[1]:
            img, boxes = synth[0](rnd, CROP)
        else:
            img, boxes = random_affine(samples[rnd.randrange(len(samples))], rnd)
        img = photometric(img, rnd)
        h, c, s, _ = targets(boxes)
        xs.append(img.transpose(2, 0, 1))
        hs.append(h)
        cs.append(c)
        ss.append(s)
    x = torch.from_numpy(np.stack(xs)).float() / 255.0
    return x, torch.from_numpy(np.stack(hs))[:, None], torch.from_numpy(np.stack(cs)), \
        torch.from_numpy(np.stack(ss))


def focal(pred: torch.Tensor, gt: torch.Tensor) -> torch.Tensor:
    p = torch.sigmoid(pred).clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1 - pos
    pl = torch.log(p) * (1 - p) ** 2 * pos
    nl = torch.log(1 - p) * p**2 * (1 - gt) ** 4 * neg
    npos = pos.sum().clamp(min=1)
    return -(pl.sum() + nl.sum()) / npos


def evaluate(model: torch.nn.Module, items: list[LabelledImage],
             threshold: float = 0.3) -> dict:
    """Per subset: the share of labelled corner indices with a peak (score >= threshold)
    on them, and the peaks per photo (same prepare/decode as the recogniser, full-scale
    pass; the class is read by the crop classifier, not here)."""
    model.eval()
    tally: dict[str, list[int]] = {}
    with torch.no_grad():
        for it in items:
            img = cv2.imread(str(it.path))
            h, w = img.shape[:2]
            blob, scale = prepare(img)
            heat, _cls, size = (t.numpy() for t in model(torch.from_numpy(blob)))
            peaks = decode(heat, size, scale, threshold)
            t = tally.setdefault(it.subset, [0, 0, 0, 0])
            for _name, x, y, bw, bh in it.boxes:
                side = max(bw * w, bh * h)
                t[0] += any(on_index(c, x * w, y * h, side) for c in peaks)
                t[1] += 1
            t[2] += len(peaks)
            t[3] += 1
    model.train()
    return {k: {"index_recall": round(found / max(total, 1), 3),
                "peaks_per_photo": round(n / max(photos, 1), 1)}
            for k, (found, total, n, photos) in tally.items()}


def load_onnx(model: torch.nn.Module, path: Path) -> None:
    """Start from an exported detector (`--init` with an .onnx file, such as the shipped
    `vision/models/corner_net.onnx`, whose PyTorch weights are not kept): the export folded
    every batch norm into the convolution before it, so each convolution takes the folded
    weight and its batch norm the folded bias, with mean 0 and variance 1 (`freeze_bn` keeps
    those statistics while fine-tuning; the class head, not exported, starts afresh)."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    inits = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    convs = [(n.input[1], n.input[2] if len(n.input) > 2 else None)
             for n in graph.node if n.op_type == "Conv"]
    state = model.state_dict()
    heads = {"model.heat.weight", "model.size.weight"}
    folded = [(w, b) for w, b in convs if w not in heads]
    mods = [(name, m) for name, m in model.named_modules()
            if isinstance(m, torch.nn.Conv2d) and name not in ("heat", "size", "cls")]
    if len(mods) != len(folded):
        raise ValueError(f"{path}: {len(folded)} convolutions, the network has {len(mods)}")
    bns = {name: m for name, m in model.named_modules() if isinstance(m, torch.nn.BatchNorm2d)}
    for (name, conv), (w, b) in zip(mods, folded, strict=True):
        weight = torch.from_numpy(inits[w].copy())
        if weight.shape != conv.weight.shape:
            raise ValueError(f"{path}: {w} is {tuple(weight.shape)}, {name} "
                             f"{tuple(conv.weight.shape)}")
        state[f"{name}.weight"] = weight
        # the batch norm right after the convolution (same Sequential, next index)
        parent, _, idx = name.rpartition(".")
        bn_name = f"{parent}.{int(idx) + 1}" if parent else ""
        bn = bns.get(bn_name)
        if bn is None:
            raise ValueError(f"{path}: no batch norm after {name}")
        state[f"{bn_name}.weight"] = torch.ones_like(bn.weight)
        state[f"{bn_name}.bias"] = torch.from_numpy(inits[b].copy())
        state[f"{bn_name}.running_mean"] = torch.zeros_like(bn.running_mean)
        state[f"{bn_name}.running_var"] = torch.full_like(bn.running_var, 1 - bn.eps)
    for head in ("heat", "size"):
        state[f"{head}.weight"] = torch.from_numpy(inits[f"model.{head}.weight"].copy())
        state[f"{head}.bias"] = torch.from_numpy(inits[f"model.{head}.bias"].copy())
    model.load_state_dict(state)


def freeze_bn(model: torch.nn.Module) -> None:
    """Batch norms keep their running statistics (a fine-tune from an .onnx start)."""
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.eval()


class _Shipped(torch.nn.Module):
    """The exported graph: heat and size only (cv2.dnn computes every layer of a graph, and
    the recogniser reads classes with the crop classifier)."""

    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        heat, _cls, size = self.model(x)
        return heat, size


def export(model: torch.nn.Module, path: Path) -> None:
    model.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        _Shipped(model), torch.zeros(1, 3, 640, 640), str(path), input_names=["image"],
        output_names=["heat", "size"], opset_version=13,
        dynamic_axes={"image": {2: "h", 3: "w"}}, dynamo=False,
    )


def parse_repeat(text: str) -> tuple[str, int]:
    subset, _, k = text.partition("=")
    if subset not in ASPECT or not k.isdigit() or int(k) < 1:
        raise argparse.ArgumentTypeError(f"--repeat {text}: SUBSET=K with K >= 1 expected")
    return subset, int(k)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--batch", type=int, default=10)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--all", action="store_true", help="train on the held-back fifth too")
    ap.add_argument("--synth", type=float, default=0.0, help="share of synthetic crops")
    ap.add_argument("--init", type=Path, default=None,
                    help="start from these weights (.pt, or an exported .onnx: load_onnx)")
    ap.add_argument("--repeat", action="append", default=[], metavar="SUBSET=K",
                    type=parse_repeat,
                    help="draw this subset's photos K times as often (e.g. phone_blackgold=2)")
    ap.add_argument("--out", type=Path, default=MODEL_PATH)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eval-every", type=int, default=300)
    ap.add_argument("--arch", choices=tuple(ARCHS), default="fast",
                    help="fast: CornerNetFast (shipped); base: the first CornerNet")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    rnd = random.Random(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    dev = load_dev_set()
    train_items = [it for it in dev if args.all or not it.held_back]
    val_items = [it for it in dev if it.held_back]
    repeat = dict(args.repeat)
    samples = [s for it, s in zip(train_items, load_samples(train_items), strict=True)
               for _ in range(repeat.get(it.subset, 1))] + load_corner_crops()
    synth = None
    if args.synth > 0:
        from vision.training.synth import render_scene

        synth = (render_scene, args.synth)
    model = ARCHS[args.arch]()
    CACHE.mkdir(parents=True, exist_ok=True)
    frozen = args.init is not None and args.init.suffix == ".onnx"
    if frozen:
        load_onnx(model, args.init)
        freeze_bn(model)
    elif args.init:
        model.load_state_dict(torch.load(args.init))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, args.lr, total_steps=args.steps,
                                                pct_start=0.1)
    t0 = time.time()
    for step in range(1, args.steps + 1):
        x, h, c, s = make_batch(samples, args.batch, rnd, synth)
        ph, pc, ps = model(x)
        lh = focal(ph, h)
        mask = c >= 0
        if mask.any():
            lc = F.cross_entropy(pc.permute(0, 2, 3, 1)[mask], c[mask], label_smoothing=0.05)
            m2 = mask[:, None].expand_as(s)
            ls = F.l1_loss(ps[m2], s[m2])
        else:
            lc = ls = torch.zeros(())
        loss = lh + lc + 0.2 * ls
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 50 == 0:
            print(f"step {step} loss {loss.item():.3f} heat {lh.item():.3f} cls {lc.item():.3f} "
                  f"size {ls.item():.3f} {time.time() - t0:.0f}s", flush=True)
        if step % args.eval_every == 0 or step == args.steps:
            torch.save(model.state_dict(), CACHE / "last.pt")
            export(model, args.out)
            print("held-back" + (" (trained on, --all)" if args.all else ""),
                  evaluate(model, val_items), flush=True)
            if frozen:
                freeze_bn(model)
    export(model, args.out)
    print("exported", args.out)


if __name__ == "__main__":
    main()
