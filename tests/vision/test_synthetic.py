"""Synthetic trick scenes with known cards (rendered from the public-domain faces):
overlap, rotation, two identical cards (two decks) and jokers (大王 / 小王)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from vision import Constraints, recognize
from vision.training.synth import render_scene

pytestmark = pytest.mark.usefixtures("carddata", "model")


def table(size: int = 720) -> np.ndarray:
    img = np.empty((size, size, 3), np.uint8)
    img[:] = (60, 110, 40)  # green baize
    return img


def scene(cards: list[str], seed: int, spread: float = 0.22, card_height: float = 230):
    rnd = random.Random(seed)
    img, boxes = render_scene(rnd, 720, cards=cards, card_height=card_height, spread=spread,
                              background=table())
    return img, boxes


def found(img: np.ndarray, constraints: Constraints | None = None) -> list[str]:
    return sorted(d.card for d in recognize(img, constraints))


@pytest.mark.parametrize("card", ["KH", "QD", "7C", "AS"])
def test_single_card_any_rotation(card: str) -> None:
    """A card at a random angle is read from its corner index: it is the surest reading,
    and with the engine's count (one card) it is the only one, at four angles of five at
    least (the shipped classifier reads 59 of these 60 scenes, seeds 1-15, right: the
    vector K♥ of seed 3 as K♦; and 104 of 104 at seeds 101-102 of all 52 cards)."""
    right = only = 0
    for seed in (1, 2, 3, 4, 5):
        img, _ = scene([card], seed, spread=0.05)
        right += recognize(img)[0].card == card
        only += found(img, Constraints(count=1)) == [card]
    assert right >= 4 and only >= 4, (right, only)


def test_overlapping_trick_of_four() -> None:
    """Four overlapping cards (a trick) and the engine's count (4): at least three are read
    right and exactly four are reported. (The vector faces are not the training decks'
    font; docs/VISION.md has the measured figures on real photos.)"""
    cards = ["AS", "10H", "7C", "QD"]
    img, _ = scene(cards, 13, spread=0.18)
    got = found(img, Constraints(count=4))
    assert len(got) == 4
    assert len(set(got) & set(cards)) >= 3, got


def test_two_identical_cards_are_two_detections() -> None:
    """Two decks: a pair of 10H lying apart gives two 10H, never merged into one. Twelve
    scenes, since the vector faces are not the training decks' font and one card of a
    scene may be misread (10H as 6H, 5H or QH): without the engine's count at least ten
    scenes give two 10H (merging identical readings would give none), and with it at least
    ten, every misreading a card read from one corner only, with nothing to choose from."""
    plain, counted = [], []
    for seed in range(1, 13):
        img, _ = scene(["10H", "10H"], seed, spread=0.3, card_height=200)
        plain.append(found(img).count("10H"))
        counted.append(found(img, Constraints(count=2)))
    assert sum(n >= 2 for n in plain) >= 10, plain
    assert sum(got == ["10H", "10H"] for got in counted) >= 10, counted


def test_the_count_reads_a_cards_two_disagreeing_corners_as_one() -> None:
    """Scene 8 of two 5C: one 5C is read from both its corners, the other's two corners
    read 5C and 5S, so without the count there are three cards; with the engine's count
    (2) the two corners lie as one card's and are read together: 5C from two corners
    (`_merge_surplus`), not the surplus 5S dropped."""
    img, _ = scene(["5C", "5C"], 8, spread=0.3, card_height=200)
    alone = recognize(img)
    assert sorted((d.card, d.corners) for d in alone) == [("5C", 1), ("5C", 2), ("5S", 1)]
    counted = recognize(img, Constraints(count=2))
    assert [(d.card, d.corners) for d in counted] == [("5C", 2), ("5C", 2)]


def test_a_third_copy_is_read_as_something_else() -> None:
    """At most two copies: after two 10H were played, a 10H reading must take another."""
    img, _ = scene(["10H"], 5, spread=0.05, card_height=200)
    got = found(img, Constraints(count=1, played={"10H": 2}))
    assert got and "10H" not in got


def test_jokers_are_read_as_jokers() -> None:
    """The jokers' corner ("Joker" written downwards) is read as a joker; 大王 versus 小王
    by colour is pinned in test_reader.py (the vector joker is a weak point here)."""
    img, _ = scene(["BJ", "SJ"], 8, spread=0.3, card_height=220)
    got = found(img)
    assert {"BJ", "SJ"} & set(got), got
