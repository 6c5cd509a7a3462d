"""The card-level metric of `make vision-eval`: distinct cards per photo, jokers as one."""

from __future__ import annotations

import pytest

from vision.evaluate import RESTORED, Score, card_set, evaluate, footnote, score_photo
from vision.labels import is_held_back, load_dev_set


def test_jokers_compare_as_is_a_joker() -> None:
    """README caveat 3: the data set's joker colours are unreliable."""
    assert card_set(["BJ", "SJ", "AS", "AS"]) == {"JOKER", "AS"}


def test_score_counts_distinct_cards() -> None:
    s = Score()
    score_photo(s, {"AS", "KH", "JOKER"}, {"AS", "KH", "2C"})
    score_photo(s, set(), {"3D"})
    assert (s.tp, s.fp, s.fn, s.photos) == (2, 1, 2, 2)
    assert round(s.precision, 3) == 0.667 and s.recall == 0.5


def test_held_back_split_is_stable_and_a_fifth(carddata) -> None:  # type: ignore[no-untyped-def]
    dev = load_dev_set()
    held = [it for it in dev if it.held_back]
    assert 0.12 < len(held) / len(dev) < 0.28
    assert all(is_held_back(it.stem) for it in held)
    assert {it.subset for it in held} == {"webcam_multi", "phone_std", "phone_blackgold"}


def test_footnote_does_not_call_training_figures_honest() -> None:
    """Models trained on the held-back fifth too (`trained_on` "all") make every row a
    training figure; only models trained without it make the held-back row honest."""
    assert "every row is a training figure" in footnote("all")
    assert "honest" in footnote("train") and "training figure" not in footnote("train")


def test_f1_interval_brackets_the_figure_and_narrows_with_more_photos() -> None:
    """The bootstrap interval of `make vision-eval`: it holds the measured F1, it is a
    single point when every photo scores alike, and it narrows as photos are added."""
    mixed = [({"AS", "KH"}, {"AS", "KH"}), ({"AS"}, {"AS", "2C", "3D"}), ({"9S"}, {"8S"})]
    few, many = Score(), Score()
    for predicted, truth in mixed:
        score_photo(few, predicted, truth)
    for predicted, truth in mixed * 10:
        score_photo(many, predicted, truth)
    lo, hi = few.f1_interval()
    assert lo < few.f1 < hi
    lo_many, hi_many = many.f1_interval()
    assert lo_many <= many.f1 <= hi_many and hi_many - lo_many < hi - lo
    same = Score()
    for _ in range(5):
        score_photo(same, {"AS", "KH"}, {"AS", "2C"})
    assert same.f1_interval() == (0.5, 0.5)
    assert Score().f1_interval() == (0.0, 0.0)
    assert few.as_dict()["f1_90"] == [round(lo, 3), round(hi, 3)]


@pytest.mark.usefixtures("carddata", "model")
def test_webcam_photos_are_also_scored_restored_to_16_9() -> None:
    """carddata README caveat 1: the webcam frames were stretched to 640x640; the extra row
    reads them at their frames' shape, and phone photos get no such row."""
    items = [it for it in load_dev_set() if it.held_back]
    webcam = [it for it in items if it.subset == "webcam_multi"][:2]
    phone = [it for it in items if it.subset == "phone_std"][:1]
    scores = evaluate(webcam + phone)
    assert set(scores) == {"webcam_multi", RESTORED, "phone_std"}
    assert scores[RESTORED].photos == scores["webcam_multi"].photos == 2
    assert scores[RESTORED].tp + scores[RESTORED].fn == scores["webcam_multi"].tp + \
        scores["webcam_multi"].fn  # the same labelled cards, read from another view
