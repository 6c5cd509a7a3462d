"""At least one card (`vision.reader.AT_LEAST_ONE`): a trick photo holds at least one card,
so when none reaches the threshold and the engine sent no count, the surest card that
reaches the option's floor is reported (docs/VISION_TRIALS.md, "At least one card"). The
option is tested on and off whatever the shipped setting is."""

from __future__ import annotations

import numpy as np
import pytest

from vision import reader
from vision.detector import Corner
from vision.evaluate import card_set
from vision.labels import load_dev_set
from vision.reader import Constraints, _surest_one, recognize

BLANK = np.full((600, 800, 3), 255, np.uint8)
NEVER = 0.999  # a threshold no reading reaches: the photo reads as if every card were unsure


def corner(card: str, x: float, y: float, conf: float) -> Corner:
    """A corner whose confidence (objectness and class probability's geometric mean) is
    `conf`."""
    return Corner(x=x, y=y, w=20, h=30, score=conf, classes=((card, conf), ("KS", 0.01)))


@pytest.fixture
def one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "AT_LEAST_ONE", 0.2)


def test_the_surest_weak_card_is_taken() -> None:
    out = _surest_one(BLANK, [corner("7C", 100, 100, 0.25), corner("JH", 500, 400, 0.33)], 0.2)
    assert [g.card for g in out] == ["JH"]


def test_two_weak_corners_of_one_card_read_together() -> None:
    """Two corners of one card (a card's diagonal apart) make it surer than a lone corner."""
    out = _surest_one(BLANK, [corner("9D", 100, 100, 0.3), corner("9D", 220, 240, 0.3),
                              corner("QS", 600, 100, 0.32)], 0.2)
    assert [(g.card, len(g.corners)) for g in out] == [("9D", 2)]


def test_nothing_under_the_floor_is_taken() -> None:
    assert _surest_one(BLANK, [corner("7C", 100, 100, 0.19)], 0.2) == []
    assert _surest_one(BLANK, [], 0.2) == []


def test_a_weak_joker_still_needs_joker_min() -> None:
    """A joker is reported only from `JOKER_MIN` (false jokers read up to 0.52)."""
    assert reader.JOKER_MIN is not None
    weak = reader.JOKER_MIN - 0.05
    assert _surest_one(BLANK, [corner("JOKER", 100, 100, weak)], 0.2) == []
    out = _surest_one(BLANK, [corner("JOKER", 100, 100, weak), corner("5S", 400, 300, 0.3)], 0.2)
    assert [g.card for g in out] == ["5S"]


def one_card_photo() -> tuple[str, set[str]]:
    """A phone_std photo of one card, labelled with it."""
    it = next(it for it in load_dev_set(("phone_std",)) if len(it.cards()) == 1)
    return str(it.path), it.cards()


@pytest.mark.usefixtures("carddata", "model")
def test_a_photo_whose_cards_are_all_unsure_reads_one(monkeypatch: pytest.MonkeyPatch) -> None:
    path, labelled = one_card_photo()
    monkeypatch.setattr(reader, "AT_LEAST_ONE", None)
    assert recognize(path, threshold=NEVER) == []
    monkeypatch.setattr(reader, "AT_LEAST_ONE", 0.2)
    out = recognize(path, threshold=NEVER)
    assert len(out) == 1 and card_set([out[0].card]) == labelled
    assert 0.2 <= out[0].confidence < NEVER
    # a card that reaches the threshold: the option adds nothing
    assert recognize(path) == recognize(path, threshold=reader.DEFAULT_THRESHOLD)
    assert len(recognize(path)) == 1


@pytest.mark.usefixtures("carddata", "model", "one")
def test_a_count_from_the_engine_decides_instead(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a count the weaker corners fill it (`CANDIDATE_THRESHOLD`); the option is not
    read, so the answer is the count's, with the option on or off."""
    path, _ = one_card_photo()
    with_count = recognize(path, Constraints(count=1), threshold=NEVER)
    assert len(with_count) == 1
    monkeypatch.setattr(reader, "AT_LEAST_ONE", None)
    assert recognize(path, Constraints(count=1), threshold=NEVER) == with_count


@pytest.mark.usefixtures("model", "one")
def test_a_photo_of_no_card_still_reads_nothing() -> None:
    """A plain table cloth and a noisy frame: nothing there reaches the floor."""
    rng = np.random.default_rng(3)
    cloth = np.full((720, 1280, 3), (40, 110, 30), np.uint8)
    noise = rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    assert recognize(cloth) == []
    assert recognize(noise) == []
