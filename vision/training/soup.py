"""Average the weights of detectors fine-tuned from one start (a "model soup").

    python -m vision.training.soup A.onnx B.onnx [...] --out vision/models/corner_net.onnx

The detector's two blackgold stages start from one exported network (`train.py --init
X.onnx`: batch norms folded into their convolutions, their statistics frozen), so runs of
those stages with other seeds stay near one another, and the exported graphs are
convolutions only: the mean of their weights is one network of the same shape and the
same cost at run time, where an ensemble of the networks would cost their sum
(docs/VISION_TRIALS.md, "A soup of detector fine-tunes"). Every file must be the same
graph: the same initializer names and shapes, or it is refused. With `--eval` the held-back
fifth's index recall of each file and of the soup is printed (`train.evaluate`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np


def soup(paths: list[Path], out: Path) -> None:
    """Write to `out` the first file's graph with every float initializer replaced by the
    mean of that initializer over `paths`."""
    import onnx
    from onnx import numpy_helper

    if not paths:
        raise ValueError("no detector to average")
    models = [onnx.load(str(p)) for p in paths]
    base = models[0]
    names = [i.name for i in base.graph.initializer]
    for p, m in zip(paths[1:], models[1:], strict=True):
        other = {i.name: numpy_helper.to_array(i).shape for i in m.graph.initializer}
        mine = {i.name: numpy_helper.to_array(i).shape for i in base.graph.initializer}
        if other != mine or [n.op_type for n in m.graph.node] != \
                [n.op_type for n in base.graph.node]:
            raise ValueError(f"{p}: not the same graph as {paths[0]}")
    arrays = {i.name: [] for i in base.graph.initializer}
    for m in models:
        for i in m.graph.initializer:
            arrays[i.name].append(numpy_helper.to_array(i))
    for k, init in enumerate(base.graph.initializer):
        vals = arrays[names[k]]
        if np.issubdtype(vals[0].dtype, np.floating):
            mean = np.mean(np.stack(vals), axis=0).astype(vals[0].dtype)
        else:
            if any(not np.array_equal(v, vals[0]) for v in vals[1:]):
                raise ValueError(f"{init.name}: a non-float initializer differs between files")
            mean = vals[0]
        init.CopyFrom(numpy_helper.from_array(mean, init.name))
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(base, str(out))


def held_back_recall(path: Path) -> dict:
    """`train.evaluate` (the held-back fifth's index recall at 0.3, full-scale pass) of an
    exported detector, loaded back into PyTorch (`train.load_onnx`)."""
    import torch

    from vision.labels import load_dev_set
    from vision.training.net import CornerNetFast
    from vision.training.train import evaluate, load_onnx

    torch.set_num_threads(2)
    model = CornerNetFast()
    load_onnx(model, path)
    return evaluate(model, [it for it in load_dev_set() if it.held_back])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--eval", action="store_true",
                    help="print each file's and the soup's held-back index recall")
    args = ap.parse_args()
    soup(args.paths, args.out)
    print(f"soup of {len(args.paths)} detectors written to {args.out}")
    if args.eval:
        for p in [*args.paths, args.out]:
            print("held-back", p.name, held_back_recall(p), flush=True)


if __name__ == "__main__":
    main()
