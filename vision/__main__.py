"""Command line: `python -m vision recognize --json IMAGE...`, `python -m vision evaluate`
and `python -m vision pool FOLD.json...` (cross-validation: vision/training/crossval.sh)."""

from __future__ import annotations

import argparse
import json
import sys

from vision.reader import DEFAULT_THRESHOLD, NotAnImageError, recognize


def _recognize(args: argparse.Namespace) -> int:
    failed = 0
    for path in args.images:
        try:
            cards = recognize(path, threshold=args.threshold)
        except NotAnImageError as exc:
            failed += 1
            if args.json:
                print(json.dumps({"image": path, "error": str(exc), "cards": []}), flush=True)
            else:
                print(f"{path}: error: {exc}", file=sys.stderr)
            continue
        if args.json:
            doc = {"image": path, "cards": [d.to_json() for d in cards]}
            print(json.dumps(doc, ensure_ascii=False), flush=True)
        else:
            text = " ".join(f"{d.card}({d.confidence:.2f})" for d in cards)
            print(f"{path}: {text}")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision", description=__doc__)
    sub = ap.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("recognize", help="print the cards found in each image")
    rec.add_argument("--json", action="store_true", help="one JSON object per image and line")
    rec.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD)
    rec.add_argument("images", nargs="+")
    ev = sub.add_parser("evaluate", help="precision/recall/F1 on the development set")
    ev.add_argument("--split", choices=["held-back", "train", "all"], default="all")
    ev.add_argument("--json", action="store_true")
    ev.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD)
    ev.add_argument("--save", metavar="FILE",
                    help="write the held-back fifth's counts, photo by photo, for `pool`")
    po = sub.add_parser("pool", help="the held-back figures of several folds' --save files, summed")
    po.add_argument("--json", action="store_true")
    po.add_argument("files", nargs="+")
    args = ap.parse_args(argv)
    if args.command == "recognize":
        return _recognize(args)
    from vision.evaluate import PoolError, run, run_pool

    try:
        if args.command == "pool":
            return run_pool(args.files, as_json=args.json)
        return run(split=args.split, as_json=args.json, threshold=args.threshold, save=args.save)
    except PoolError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
