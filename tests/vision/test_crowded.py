"""Crowded frames (`vision.detector.CROWDED_SHARE`): a photo with more indices than the
recogniser's first batch of peaks (`MAX_CANDIDATES`) is read past it, batch by batch,
while the last batch read is mostly indices; a count from the engine reads at least two
peaks a card (docs/VISION_TRIALS.md, "Crowded frames"). The option is tested on and off
whatever the shipped setting is."""

from __future__ import annotations

import numpy as np
import pytest

from vision import detector
from vision.detector import CROWDED_LIMIT, MAX_CANDIDATES, Detector, crowded
from vision.labels import BACK, CLASSES, load_dev_set
from vision.reader import Constraints, load_image, peaks_to_read, recognize

FAN = "WIN_20240627_17_00_45_Pro_jpg"  # 26 cards fanned in two rows, 28 labelled indices


def batch(cards: int, size: int = MAX_CANDIDATES) -> np.ndarray:
    """`size` readings, the first `cards` of them sure of a card, the rest "not an index"
    (their class probabilities summing to 0.1) or a card back."""
    probs = np.zeros((size, len(CLASSES)))
    probs[:cards, 0] = 0.9
    probs[cards:, 1] = 0.1
    probs[cards::2, CLASSES.index(BACK)] = 0.8  # a back is not an index
    return probs


@pytest.fixture
def crowd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(detector, "CROWDED_SHARE", 0.5)


@pytest.fixture
def no_crowd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(detector, "CROWDED_SHARE", None)


@pytest.mark.usefixtures("crowd")
def test_a_batch_half_indices_is_crowded() -> None:
    assert crowded(batch(MAX_CANDIDATES // 2))
    assert crowded(batch(MAX_CANDIDATES))
    assert not crowded(batch(MAX_CANDIDATES // 2 - 1))
    assert not crowded(batch(0))


@pytest.mark.usefixtures("crowd")
def test_a_short_batch_means_the_peaks_ran_out() -> None:
    """Fewer readings than a full batch: every peak over the threshold was read."""
    assert not crowded(batch(MAX_CANDIDATES - 1, size=MAX_CANDIDATES - 1))


@pytest.mark.usefixtures("no_crowd")
def test_with_the_option_off_nothing_is_crowded() -> None:
    assert not crowded(batch(MAX_CANDIDATES))


@pytest.mark.usefixtures("crowd")
def test_a_count_from_the_engine_reads_two_peaks_a_card() -> None:
    """Four seats of six cards (a throw, 甩牌, followed by all): 24 cards, 48 peaks; never
    fewer than `MAX_CANDIDATES`, never more than `CROWDED_LIMIT`."""
    assert peaks_to_read(Constraints(count=24)) == 48
    assert peaks_to_read(Constraints(count=4)) == MAX_CANDIDATES
    assert peaks_to_read(Constraints(count=200)) == CROWDED_LIMIT
    assert peaks_to_read(Constraints()) == MAX_CANDIDATES
    assert peaks_to_read(None) == MAX_CANDIDATES


@pytest.mark.usefixtures("no_crowd")
def test_with_the_option_off_a_count_reads_the_first_batch_only() -> None:
    assert peaks_to_read(Constraints(count=24)) == MAX_CANDIDATES


def fan() -> tuple[np.ndarray, set[str]]:
    it = next(it for it in load_dev_set(("webcam_multi",)) if it.stem == FAN)
    return load_image(it.path), it.cards()


@pytest.mark.usefixtures("carddata", "model")
def test_a_fan_is_read_past_the_first_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fan photo has far more peaks than a batch, and its first batch is mostly
    indices: with the option the recogniser reads on; without it, one batch."""
    image, _cards = fan()
    det = Detector()
    peaks = det.candidates(image, limit=CROWDED_LIMIT)
    assert len(peaks) > 2 * MAX_CANDIDATES
    monkeypatch.setattr(detector, "CROWDED_SHARE", None)
    read, probs, frame = det.read_peaks(image, peaks)
    assert len(read) == len(probs) == len(frame) == MAX_CANDIDATES
    monkeypatch.setattr(detector, "CROWDED_SHARE", 0.5)
    more, more_probs, _frame = det.read_peaks(image, peaks)
    assert MAX_CANDIDATES < len(more) <= CROWDED_LIMIT
    assert more[:MAX_CANDIDATES] == read
    np.testing.assert_allclose(more_probs[:MAX_CANDIDATES], probs)


@pytest.mark.usefixtures("carddata", "model")
def test_a_fan_reads_more_of_its_cards_past_the_first_batch(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Read in one batch the fan loses cards whose corners rank below the first 32 peaks;
    read on, more of its 26 cards are found (a training photo of the shipped models: this
    checks the mechanism, not the accuracy on new photos)."""
    image, cards = fan()
    monkeypatch.setattr(detector, "CROWDED_SHARE", None)
    one_batch = {d.card for d in recognize(image)} & cards
    monkeypatch.setattr(detector, "CROWDED_SHARE", 0.5)
    read_on = {d.card for d in recognize(image)} & cards
    assert len(read_on) > len(one_batch)
    assert len(read_on) >= 22


@pytest.mark.usefixtures("carddata", "model")
def test_a_trick_of_few_cards_is_read_in_one_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    """A phone photo of one or two cards: its first batch is mostly not indices, so the
    option reads nothing more and the cards are the same."""
    it = next(it for it in load_dev_set(("phone_std",)) if len(it.boxes) == 2)
    image = load_image(it.path)
    det = Detector()
    peaks = det.candidates(image, limit=CROWDED_LIMIT)
    monkeypatch.setattr(detector, "CROWDED_SHARE", 0.5)
    read, _probs, _frame = det.read_peaks(image, peaks)
    assert len(read) == min(len(peaks), MAX_CANDIDATES)
    on = [(d.card, d.confidence) for d in recognize(image)]
    monkeypatch.setattr(detector, "CROWDED_SHARE", None)
    assert [(d.card, d.confidence) for d in recognize(image)] == on
