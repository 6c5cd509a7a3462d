"""The recogniser's class list and the development data set on disk.

The network predicts one of `CLASSES` for every corner index (角标, the printed rank +
suit in a card's corner): the 52 suited cards in the canonical notation, `JOKER` (the
joker's corner; 大王 versus 小王 is decided afterwards from its colour) and `BACK` (a card
back, never reported).
"""

from __future__ import annotations

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


def is_held_back(stem: str) -> bool:
    """The evaluation split: a fixed fifth of the development images, never trained on."""
    import zlib

    return zlib.crc32(stem.encode()) % 5 == 0


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
                for line in lab.read_text().splitlines():
                    parts = line.split()
                    if len(parts) != 5:
                        continue
                    c, x, y, w, h = int(parts[0]), *map(float, parts[1:])
                    boxes.append((dataset_class(names[c]), x, y, w, h))
            out.append(LabelledImage(subset, img.stem, img, tuple(boxes)))
    return out
