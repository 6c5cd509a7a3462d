"""The recogniser's class list and the development data set on disk.

The network predicts one of `CLASSES` for every corner index (角标, the printed rank +
suit in a card's corner): the 52 suited cards in the canonical notation, `JOKER` (the
joker's corner; 大王 versus 小王 is decided afterwards from its colour) and `BACK` (a card
back, never reported).
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "C", "D")
CARD_CLASSES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
JOKER = "JOKER"
BACK = "BACK"
CLASSES: tuple[str, ...] = CARD_CLASSES + (JOKER, BACK)
CLASS_INDEX = {name: i for i, name in enumerate(CLASSES)}
# The corner classifier reads rank and suit apart; jokers, backs and "not an index" (NONE)
# are ranks without a suit.
RANK_CLASSES: tuple[str, ...] = RANKS + (JOKER, BACK, "NONE")


def split_class(name: str) -> tuple[str, str | None]:
    """`10H` -> (`10`, `H`); `JOKER`/`BACK`/`NONE` -> (name, None)."""
    if name in (JOKER, BACK, "NONE"):
        return name, None
    return name[:-1], name[-1]

SUBSETS = ("webcam_multi", "phone_std", "phone_blackgold")
# Roboflow stretched every image to 640x640; the webcam frames were 16:9 (README caveat 1).
ASPECT = {"webcam_multi": 1138 / 640, "phone_std": 1.0, "phone_blackgold": 1.0}

REPO_ROOT = Path(__file__).resolve().parent.parent
# The held-back fifth's labels checked by hand (`load_audit`); the publisher's labels miss a
# few cards a person can read (carddata README caveat 4) and misname one.
AUDIT_PATH = Path(__file__).resolve().parent / "label_audit.csv"
AUDIT_HEADER = ["subset", "stem", "remove", "add", "what is seen"]


def carddata_dir() -> Path:
    """`$CARDDATA_DIR`, else `shared/carddata` in the checkout, else `../shared/carddata`."""
    env = os.environ.get("CARDDATA_DIR")
    if env:
        return Path(env)
    inside = REPO_ROOT / "shared" / "carddata"
    return inside if inside.is_dir() else REPO_ROOT.parent / "shared" / "carddata"


def dataset_class(name: str) -> str:
    """Map a Roboflow class name (`10C`, `BLACK JOKER`, `BACK`) to ours."""
    if name.endswith("JOKER"):
        return JOKER
    return name if name in CLASS_INDEX else BACK


@dataclass(frozen=True)
class LabelledImage:
    subset: str
    stem: str
    path: Path
    # (class name, x_center, y_center, width, height) normalised 0..1
    boxes: tuple[tuple[str, float, float, float, float], ...]

    @property
    def held_back(self) -> bool:
        return is_held_back(self.stem)

    def cards(self) -> set[str]:
        """The distinct cards in the photo (jokers as `JOKER`, backs left out)."""
        return {b[0] for b in self.boxes if b[0] != BACK}


def held_back_fold() -> int:
    """Which fifth of the development images is held back: `$VISION_HELD_BACK` (0-4),
    else 0, the fifth the early trials (docs/VISION_TRIALS.md) were measured on. Another
    fifth measures a recipe on other photos ("Another fifth held back" in docs/VISION.md);
    the shipped models were trained without fifth 0."""
    value = os.environ.get("VISION_HELD_BACK", "0").strip() or "0"
    if value not in ("0", "1", "2", "3", "4"):
        raise ValueError(f"VISION_HELD_BACK must be one of 0-4, not {value!r}")
    return int(value)


def is_held_back(stem: str) -> bool:
    """The evaluation split: a fixed fifth of the development images (crc32 of the stem,
    modulo 5, equal to `held_back_fold()`), never trained on."""
    import zlib

    return zlib.crc32(stem.encode()) % 5 == held_back_fold()


def parse_label_line(line: str, where: str = "label") -> tuple[int, float, float, float, float]:
    """One line of a YOLO label file -> (class id, x_center, y_center, width, height).

    Two forms occur: a box (`class x y w h`) and a polygon (`class x1 y1 x2 y2 ...`, at
    least three points), which Roboflow writes for a region drawn as a polygon; a polygon
    becomes its bounding box, as the axis-aligned boxes around turned indices are drawn.
    The blackgold labels hold 32 polygon rows in 12 photos (all the cards of IMG_7804,
    the 6♥ and J♣ of IMG_7839); until 2026-12-04 they were skipped, so those cards counted
    as unlabelled. Anything else raises ValueError.
    """
    parts = line.split()
    try:
        c = int(parts[0])
        v = [float(p) for p in parts[1:]]
    except (ValueError, IndexError):
        raise ValueError(f"{where}: not a label line: {line!r}") from None
    if len(v) == 4:
        x, y, w, h = v
    elif len(v) >= 6 and len(v) % 2 == 0:
        xs, ys = v[0::2], v[1::2]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        x, y, w, h = (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0
    else:
        raise ValueError(f"{where}: {len(v)} numbers after the class: neither a box (4) "
                         f"nor a polygon (an even number, at least 6)")
    if c < 0 or w <= 0 or h <= 0 or not all(-0.01 <= t <= 1.01 for t in v):
        raise ValueError(f"{where}: not a box inside the image: {line!r}")
    return c, x, y, w, h


def load_dev_set(subsets: tuple[str, ...] = SUBSETS) -> list[LabelledImage]:
    """Every labelled image of the development set (`roboflow_zk7wu`), never the hold-out."""
    root = carddata_dir() / "roboflow_zk7wu"
    names = [line.strip() for line in (root / "classes.txt").read_text().splitlines()]
    out: list[LabelledImage] = []
    for subset in subsets:
        for img in sorted((root / subset / "images").glob("*.jpg")):
            lab = root / subset / "labels" / (img.stem + ".txt")
            boxes = []
            if lab.exists():
                for n, line in enumerate(lab.read_text().splitlines(), 1):
                    if line.strip():
                        c, x, y, w, h = parse_label_line(line, f"{lab.name}:{n}")
                        boxes.append((dataset_class(names[c]), x, y, w, h))
            out.append(LabelledImage(subset, img.stem, img, tuple(boxes)))
    return out


@dataclass(frozen=True)
class AuditEntry:
    """One photo of the label audit: the cards its labels name wrongly (`remove`) or leave
    out (`add`), and what is seen. A photo with neither was checked and found right."""

    subset: str
    stem: str
    remove: frozenset[str]
    add: frozenset[str]
    note: str

    def cards(self, item: LabelledImage) -> set[str]:
        """The photo's distinct cards after the audit (jokers as `JOKER`)."""
        labelled = item.cards()
        if item.stem != self.stem or item.subset != self.subset:
            raise ValueError(f"audit row {self.subset}/{self.stem} is not {item.subset}/{item.stem}")
        if not self.remove <= labelled:
            raise ValueError(f"audit of {self.stem}: {sorted(self.remove - labelled)} not labelled")
        if self.add & labelled:
            raise ValueError(f"audit of {self.stem}: {sorted(self.add & labelled)} already labelled")
        return (labelled - self.remove) | self.add


def _audit_cards(field: str, where: str) -> frozenset[str]:
    cards = frozenset(field.split())
    bad = sorted(c for c in cards if c not in CARD_CLASSES and c != JOKER)
    if bad:
        raise ValueError(f"{where}: not a card: {', '.join(bad)}")
    return cards


def load_audit(path: Path = AUDIT_PATH) -> dict[str, AuditEntry]:
    """The label audit (`label_audit.csv`: lines starting with `#` are comments, then a
    header `subset,stem,remove,add,what is seen`), by photo stem. Raises `ValueError` on a
    malformed row, an unknown subset or card, or a photo listed twice."""
    rows = [(n, next(csv.reader([line])))
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
            if line.strip() and not line.startswith("#")]
    if not rows or rows[0][1] != AUDIT_HEADER:
        raise ValueError(f"{path.name}: header '{','.join(AUDIT_HEADER)}' expected")
    out: dict[str, AuditEntry] = {}
    for n, row in rows[1:]:
        where = f"{path.name} line {n}"
        if len(row) != len(AUDIT_HEADER):
            raise ValueError(f"{where}: {len(AUDIT_HEADER)} fields expected, got {len(row)}")
        subset, stem, remove, add, note = row
        if subset not in SUBSETS:
            raise ValueError(f"{where}: unknown subset {subset!r}")
        if stem in out:
            raise ValueError(f"{where}: {stem} is listed twice")
        entry = AuditEntry(subset, stem, _audit_cards(remove, where), _audit_cards(add, where),
                           note)
        if entry.remove & entry.add:
            raise ValueError(f"{where}: a card both removed and added")
        out[stem] = entry
    return out
