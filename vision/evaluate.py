"""`make vision-eval`: precision, recall and F1 of the distinct cards per photo.

For every development photo (`shared/carddata/roboflow_zk7wu`, never the hold-out) the set
of cards the recogniser reports is compared with the set of labelled cards; jokers are
compared as "is a joker" (the data set's joker colours are unreliable) and card backs are
left out. Counts are summed over the photos of a subset (micro average). Models trained
without the held-back fifth (`vision.labels.is_held_back`; `vision/training/rebuild.sh`
measures them before its last stage) give an honest figure in its rows; the shipped
classifier's last stage is trained on every development photo (`corner_cls.json`'s
`trained_on` is `"all"`), so with it every row only shows how well the models fit what
they saw, and the honest figures are those of the held-back runs recorded in
docs/VISION.md. The independent measure is the hold-out, never read here.
Each F1 comes with a 90 % bootstrap interval over the photos (a dozen photos per subset
make a wide one), and the webcam photos are also scored restored to 16:9, a camera
frame's shape (`RESTORED`). The held-back photos are also scored against the labels as the
audit checked them by hand (`vision/label_audit.csv`, every development photo,
`vision.labels.load_audit`), in rows marked `AUDITED`; the publisher's labels keep their
rows.

Cross-validation: `--save FILE` writes the held-back photos' counts, photo by photo, of
models trained without that fifth (`vision/training/crossval.sh` does so for each fifth
it retrains), and `python -m vision pool FILE...` sums the fifths' files (`pool`): with all
five, every development photo is read once by models that never saw it, the figure the
target is judged on.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2

from vision.detector import (
    CLS_MODEL_PATH,
    MODEL_PATH,
    SIZE_GAIN,
    ensemble_members,
    model_meta,
)
from vision.labels import (
    ASPECT,
    JOKER,
    SUBSETS,
    AuditEntry,
    LabelledImage,
    held_back_fold,
    load_audit,
    load_dev_set,
)
from vision.reader import DEFAULT_THRESHOLD, load_image, recognize


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    photos: int = 0
    per_photo: list[tuple[int, int, int]] = field(default_factory=list)  # (tp, fp, fn)
    stems: list[str] = field(default_factory=list)  # the photo of each per_photo entry

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def f1_interval(self, level: float = 0.9, reps: int = 2000,
                    seed: int = 0) -> tuple[float, float]:
        """A percentile bootstrap interval of F1 over the photos (photos drawn with
        replacement): how far the figure could move with another draw of as many photos.
        With a dozen photos per subset it is wide; read the figure with it."""
        if not self.per_photo:
            return (0.0, 0.0)
        rnd = random.Random(seed)
        n = len(self.per_photo)
        values = []
        for _ in range(reps):
            tp = fp = fn = 0
            for _ in range(n):
                a, b, c = self.per_photo[rnd.randrange(n)]
                tp, fp, fn = tp + a, fp + b, fn + c
            values.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
        values.sort()
        tail = (1 - level) / 2
        return (values[int(tail * reps)], values[min(reps - 1, int((1 - tail) * reps))])

    def as_dict(self) -> dict[str, object]:
        lo, hi = self.f1_interval()
        return {"photos": self.photos, "tp": self.tp, "fp": self.fp, "fn": self.fn,
                "precision": round(self.precision, 3), "recall": round(self.recall, 3),
                "f1": round(self.f1, 3), "f1_90": [round(lo, 3), round(hi, 3)]}


def card_set(cards: list[str]) -> set[str]:
    """Distinct cards, jokers as one 'is a joker' class."""
    return {JOKER if c in ("BJ", "SJ") else c for c in cards}


def score_photo(score: Score, predicted: set[str], truth: set[str], stem: str = "") -> None:
    tp, fp, fn = len(predicted & truth), len(predicted - truth), len(truth - predicted)
    add_counts(score, stem, tp, fp, fn)


def add_counts(score: Score, stem: str, tp: int, fp: int, fn: int) -> None:
    """One photo's counts added to `score`."""
    score.photos += 1
    score.tp += tp
    score.fp += fp
    score.fn += fn
    score.per_photo.append((tp, fp, fn))
    score.stems.append(stem)


RESTORED = "webcam_multi 16:9"  # the webcam photos restored to their frames' shape
AUDITED = " audited"  # suffix of the rows scored against the audited labels


def evaluate(items: list[LabelledImage], audit: dict[str, AuditEntry] | None = None,
             threshold: float = DEFAULT_THRESHOLD) -> dict[str, Score]:
    """Scores per subset, and for the webcam photos a second row (`RESTORED`) read after
    undoing the data set's stretch: they are 16:9 webcam frames (carddata README, caveat 1)
    stretched to 640x640, so their indices are 56 % as wide as on the table, while a frame
    from the referee's camera has the table's proportions. The stored photos' row is the
    target's figure. Photos in `audit` are also scored, with the same readings, against
    their audited labels, in the row's name + `AUDITED`."""
    scores: dict[str, Score] = {}
    for it in items:
        image, truth = load_image(it.path), it.cards()
        entry = (audit or {}).get(it.stem)
        audited = entry.cards(it) if entry is not None else None
        views = [(it.subset, image)]
        if ASPECT[it.subset] > 1:
            h, w = image.shape[:2]
            views.append((RESTORED, cv2.resize(image, (round(w * ASPECT[it.subset]), h))))
        for name, view in views:
            predicted = card_set([d.card for d in recognize(view, threshold=threshold)])
            score_photo(scores.setdefault(name, Score()), predicted, truth, it.stem)
            if audited is not None:
                score_photo(scores.setdefault(name + AUDITED, Score()), predicted, audited,
                            it.stem)
    return scores


ROWS = (*SUBSETS, RESTORED, *(name + AUDITED for name in (*SUBSETS, RESTORED)))


def footnote(trained_on: object) -> str:
    """What the rows mean, given the models' `trained_on` (`corner_cls.json`)."""
    if trained_on == "all":
        return ("These models were trained on every development photo, the held-back fifth\n"
                "too: every row is a training figure. The honest held-back figures are those\n"
                "of models trained without it (vision/training/rebuild.sh prints them before\n"
                "its last stage, vision/training/crossval.sh for each fifth and pooled;\n"
                "docs/VISION.md).")
    return "held-back = never trained on (the honest figure); train = seen in training."


def split_dev_set(dev: list[LabelledImage], audit: dict[str, AuditEntry]
                  ) -> dict[str, tuple[list[LabelledImage], dict[str, AuditEntry]]]:
    """The held-back and training photos, each with the audit rows scored on them: the
    audited photos of the held-back fifth (the honest figure's), none for the training split
    (an audited fifth in it is one a model saw)."""
    held = [it for it in dev if it.held_back]
    return {"held-back": (held, {it.stem: audit[it.stem] for it in held if it.stem in audit}),
            "train": ([it for it in dev if not it.held_back], {})}


class PoolError(ValueError):
    """Fold files that cannot be pooled (or a fold that cannot be saved for pooling)."""


def refuse_training_figures(trained_on: object) -> None:
    """Models that saw the held-back fifth (`trained_on` "all": the shipped classifier) give
    training figures there, which must not be saved or pooled as a fold's honest ones."""
    if trained_on == "all":
        raise PoolError("these models were trained on every development photo, the held-back "
                        "fifth too: their figures are not a fold's (crossval.sh trains one)")


def model_digest() -> str:
    """A short digest of the detector and classifier files read (which run a fold file is)."""
    h = hashlib.sha256()
    for path in (MODEL_PATH, CLS_MODEL_PATH, *ensemble_members()):
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


def fold_record(scores: dict[str, Score], fold: int, trained_on: object,
                threshold: float, models: str = "") -> dict[str, object]:
    """What `--save` writes: the held-back fifth `fold`'s counts, photo by photo, per row,
    read by models trained without it (`models`: their digest, and the size gain read)."""
    refuse_training_figures(trained_on)
    return {"fold": fold, "threshold": threshold, "trained_on": trained_on,
            "models": models, "size_gain": SIZE_GAIN,
            "rows": {name: [[stem, *counts] for stem, counts in
                            zip(score.stems, score.per_photo, strict=True)]
                     for name, score in scores.items()}}


def fold_rows(name: str, rec: Any) -> tuple[int, float, list[tuple[str, str, int, int, int]]]:
    """(fifth, threshold, (row, photo, tp, fp, fn) for each photo of each row) of a fold file
    `name` holding `rec`; PoolError when it is not one."""
    try:
        out = [(str(row), str(stem), int(tp), int(fp), int(fn))
               for row, photos in rec["rows"].items() for stem, tp, fp, fn in photos]
        fold, threshold = int(rec["fold"]), float(rec["threshold"])
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise PoolError(f"{name}: not a fold file of `python -m vision evaluate --save` "
                        f"({exc!r})") from None
    if fold not in range(5):
        raise PoolError(f"{name}: fifth {fold} is not one of 0-4")
    return fold, threshold, out


def pool(records: Iterable[tuple[str, Any]]) -> tuple[list[int], dict[str, Score]]:
    """The folds' counts summed row by row: (the fifths pooled, in order; the scores).
    Refuses a fifth given twice (its photos would count twice: pool one run of each), a
    photo in two files, and files read at different thresholds."""
    scores: dict[str, Score] = {}
    where: dict[int, str] = {}
    first: tuple[float, str] | None = None
    seen: dict[tuple[str, str], str] = {}
    for name, rec in records:
        fold, threshold, photos = fold_rows(name, rec)
        if fold in where:
            raise PoolError(f"fifth {fold} is in both {where[fold]} and {name}: pool one run "
                            "of each fifth")
        where[fold] = name
        first = first or (threshold, name)
        if threshold != first[0]:
            raise PoolError(f"{name} was read at threshold {threshold}, {first[1]} at {first[0]}")
        for row, stem, tp, fp, fn in photos:
            if (row, stem) in seen:
                raise PoolError(f"photo {stem} ({row}) is in both {seen[row, stem]} and {name}")
            seen[row, stem] = name
            add_counts(scores.setdefault(row, Score()), stem, tp, fp, fn)
    return sorted(where), scores


def print_rows(results: dict[str, dict[str, Score]]) -> None:
    """The table of `make vision-eval`: one line per split and row."""
    print("Card-level precision / recall / F1 (distinct cards per photo, jokers as 'a joker')")
    print(f"{'split':<10} {'subset':<26} {'photos':>6} {'P':>6} {'R':>6} {'F1':>6}"
          f"  {'F1 90 % interval':>16}")
    for name, scores in results.items():
        for subset in (s for s in ROWS if s in scores):
            r = scores[subset]
            lo, hi = r.f1_interval()
            print(f"{name:<10} {subset:<26} {r.photos:>6} {r.precision:>6.3f} "
                  f"{r.recall:>6.3f} {r.f1:>6.3f}  {lo:>7.3f} – {hi:.3f}")


def run_pool(paths: list[str], as_json: bool = False) -> int:
    """`python -m vision pool FILE...`: the pooled held-back figures of the fold files."""
    records = []
    for path in paths:
        try:
            records.append((path, json.loads(Path(path).read_text(encoding="utf-8"))))
        except (OSError, ValueError) as exc:
            raise PoolError(f"{path}: {exc}") from None
    folds, scores = pool(records)
    for path, rec in sorted(records, key=lambda r: int(r[1]["fold"])):
        print(f"fifth {rec['fold']}: {path} (models {rec.get('models') or '?'}, size gain "
              f"{rec.get('size_gain', '?')})", file=sys.stderr)
    if as_json:
        print(json.dumps({"folds": folds, "pooled": {s: scores[s].as_dict()
                                                     for s in ROWS if s in scores}}, indent=2))
        return 0
    print_rows({"pooled": scores})
    missing = sorted(set(range(5)) - set(folds))

    def fifths(ns: list[int]) -> str:
        return ("fifth " if len(ns) == 1 else "fifths ") + ", ".join(map(str, ns))

    print(f"pooled: {fifths(folds)}, each read by models trained without it"
          + (f"; {fifths(missing)} not yet: these rows are not every development photo"
             if missing else
             ": every development photo, read once by models that never saw it"))
    return 0


def run(split: str = "all", as_json: bool = False, threshold: float = DEFAULT_THRESHOLD,
        save: str | None = None) -> int:
    if save is not None and split != "held-back":
        raise PoolError("--save writes the held-back fifth's figures: use --split held-back")
    trained_on = model_meta().get("trained_on", "train")
    if save is not None:
        refuse_training_figures(trained_on)  # before any photo is read
    splits = split_dev_set(load_dev_set(), load_audit())
    wanted = ["held-back", "train"] if split == "all" else [split]
    t0 = time.perf_counter()
    results = {name: evaluate(*splits[name], threshold=threshold) for name in wanted}
    elapsed = time.perf_counter() - t0
    if save is not None:
        record = fold_record(results["held-back"], held_back_fold(), trained_on, threshold,
                             model_digest())
        Path(save).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    if as_json:
        report = {name: {s: scores[s].as_dict() for s in ROWS if s in scores}
                  for name, scores in results.items()}
        print(json.dumps({**report, "trained_on": trained_on}, indent=2))
        return 0
    print_rows(results)
    print(footnote(trained_on))
    if (fold := held_back_fold()) != 0:
        print(f"held-back = fifth {fold} (VISION_HELD_BACK={fold}), not fifth 0: the shipped\n"
              "models were trained without fifth 0 only, so only models trained without this\n"
              "fifth give an honest figure here.")
    print(f"{RESTORED}: the webcam photos restored to the shape of a camera frame (the data\n"
          "set stretched them to 640x640); the stored photos' row is the target's figure.")
    if any(s.endswith(AUDITED) for scores in results.values() for s in scores):
        print(f"{AUDITED.strip()}: the same readings scored against the held-back fifth's labels\n"
              "checked by hand (vision/label_audit.csv: cards a person can read that the labels\n"
              "leave out or misname); the publisher's labels keep the rows above them.")
    print("The interval: F1 over photos drawn again with replacement (bootstrap), 90 % of draws.")
    print(f"({elapsed:.1f} s)")
    return 0
