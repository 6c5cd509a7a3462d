"""From corner indices to cards: pairing, two decks, constraints and joker colour.

These tests feed hand-made `Corner`s to the grouping code, so they pin the rules without
depending on what the network reads.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.detector import Corner
from vision.reader import (
    Constraints,
    NotAnImageError,
    _apply_constraints,
    _group,
    _unwiden,
    joker_colour,
    load_image,
    view_score,
    views,
)

BLANK = np.full((600, 800, 3), 255, np.uint8)


def corner(card: str, x: float, y: float, conf: float = 0.9, alt: str = "KS") -> Corner:
    return Corner(x=x, y=y, w=20, h=30, score=1.0, classes=((card, conf), (alt, 0.05)))


def test_two_corners_a_card_diagonal_apart_are_one_card() -> None:
    """Both corner indices of one card (about 6 index heights apart) make one card."""
    groups = _group(BLANK, [corner("AS", 100, 100), corner("AS", 220, 240)])
    assert [(g.card, len(g.corners)) for g in groups] == [("AS", 2)]


def test_identical_cards_side_by_side_are_not_merged() -> None:
    """Two decks: two 10H corners too close to be one card's corners are two cards."""
    groups = _group(BLANK, [corner("10H", 100, 100), corner("10H", 130, 100)])
    assert sorted(g.card for g in groups) == ["10H", "10H"]


def test_identical_cards_far_apart_are_not_merged() -> None:
    """Two 10H corners much further apart than a card's diagonal are two cards."""
    groups = _group(BLANK, [corner("10H", 50, 50), corner("10H", 700, 550)])
    assert len(groups) == 2


def test_four_corners_of_two_identical_cards_make_two_cards() -> None:
    cs = [corner("QD", 100, 100), corner("QD", 200, 250), corner("QD", 400, 100),
          corner("QD", 500, 250)]
    groups = _group(BLANK, cs)
    assert [len(g.corners) for g in groups] == [2, 2]


def test_expected_count_splits_a_pair_into_two_copies() -> None:
    """The engine says 2 cards: a merged pair of corners is read as two identical cards."""
    groups = _group(BLANK, [corner("7C", 100, 100), corner("7C", 220, 240)])
    out = _apply_constraints(groups, [], BLANK, Constraints(count=2))
    assert sorted(g.card for g in out) == ["7C", "7C"]


def test_expected_count_drops_the_least_sure() -> None:
    groups = _group(BLANK, [corner("7C", 100, 100, 0.9), corner("8C", 400, 100, 0.4),
                            corner("9C", 600, 400, 0.8)])
    out = _apply_constraints(groups, [], BLANK, Constraints(count=2))
    assert sorted(g.card for g in out) == ["7C", "9C"]


def test_expected_count_reads_two_disagreeing_corners_of_one_card_as_one() -> None:
    """Too many cards for the engine's count, and two one-corner readings lie as one card's
    two corners (a vector 10 read as Q on one of them): they are one card, read by both
    corners' joint probability (10H: 0.3 x 0.35 against QH: 0.4 x 0.05)."""
    a = Corner(x=100, y=100, w=20, h=30, score=1.0, classes=(("QH", 0.4), ("10H", 0.3)))
    b = Corner(x=220, y=240, w=20, h=30, score=1.0, classes=(("10H", 0.35), ("QH", 0.05)))
    groups = _group(BLANK, [a, b, corner("10H", 600, 100), corner("10H", 700, 250)])
    out = _apply_constraints(groups, [], BLANK, Constraints(count=2))
    assert sorted((g.card, len(g.corners)) for g in out) == [("10H", 2), ("10H", 2)]
    # without the count nothing says they are one card: two readings stay
    assert len(_apply_constraints(_group(BLANK, [a, b]), [], BLANK, Constraints())) == 2


def test_expected_count_never_merges_two_sure_different_cards() -> None:
    """Two sure readings at one card's corner distance are two cards (their joint reading
    is far below JOINT_FLOOR): with one card too many the least sure is dropped instead."""
    groups = _group(BLANK, [corner("AS", 100, 100, 0.9), corner("KH", 220, 240, 0.8),
                            corner("7C", 600, 100, 0.7)])
    out = _apply_constraints(groups, [], BLANK, Constraints(count=2))
    assert sorted((g.card, len(g.corners)) for g in out) == [("AS", 1), ("KH", 1)]


def test_expected_count_takes_a_weaker_corner_when_short() -> None:
    groups = _group(BLANK, [corner("7C", 100, 100)])
    spare = [corner("JH", 500, 400, 0.2)]
    out = _apply_constraints(groups, spare, BLANK, Constraints(count=2))
    assert sorted(g.card for g in out) == ["7C", "JH"]


def test_a_card_played_twice_already_takes_its_next_reading() -> None:
    """At most two copies: AS already played twice, so the corner is read as its runner-up."""
    groups = _group(BLANK, [corner("AS", 100, 100, 0.6, alt="AC")])
    out = _apply_constraints(groups, [], BLANK, Constraints(played={"AS": 2}))
    assert [g.card for g in out] == ["AC"]


def test_third_copy_of_a_card_is_not_allowed() -> None:
    cs = [corner("5S", 100, 100, 0.9), corner("5S", 130, 100, 0.8), corner("5S", 160, 100, 0.7)]
    out = _apply_constraints(_group(BLANK, cs), [], BLANK, Constraints())
    assert [g.card for g in out].count("5S") == 2


def test_joker_colour_red_is_big_joker() -> None:
    """大王 (BJ) is the coloured joker, 小王 (SJ) the black one."""
    img = BLANK.copy()
    img[100:130, 100:120] = (0, 0, 220)  # red ink (BGR)
    img[300:330, 100:120] = (20, 20, 20)  # black ink
    assert joker_colour(img, corner("JOKER", 110, 115)) == "BJ"
    assert joker_colour(img, corner("JOKER", 110, 315)) == "SJ"


def test_not_an_image_is_refused() -> None:
    with pytest.raises(NotAnImageError):
        load_image(b"this is plain text, not a photo")
    with pytest.raises(NotAnImageError):
        load_image(b"")


@pytest.mark.parametrize(("shape", "widened_to"), [
    ((640, 640), 1138),    # the development set's 640x640 photos (16:9 frames squeezed)
    ((768, 1024), 1365),   # a 4:3 tablet photo
    ((720, 1280), None),   # a 16:9 camera frame: as it is
    ((1280, 720), None),   # portrait: as it is
    ((400, 1000), None),   # wider than 16:9: as it is
])
def test_a_photo_narrower_than_16_9_is_also_read_widened(
        shape: tuple[int, int], widened_to: int | None) -> None:
    img = np.zeros((*shape, 3), np.uint8)
    out = views(img)
    assert out[0][0] is img and out[0][1] == 1.0
    if widened_to is None:
        assert len(out) == 1
    else:
        assert len(out) == 2
        wide, factor = out[1]
        assert wide.shape == (shape[0], widened_to, 3)
        assert factor == pytest.approx(widened_to / shape[1])


def test_view_score_is_the_mean_of_the_best_corners_backs_left_out() -> None:
    corners = [corner("AS", 0, 0, 0.81), corner("KH", 0, 0, 0.64), corner("BACK", 0, 0, 1.0)]
    # confidence = sqrt(score 1.0 x p): 0.9 and 0.8; the back does not count; the mean is
    # over VIEW_TOP_K (4) corners, so a view that finds fewer corners scores lower
    assert view_score(corners) == pytest.approx((0.9 + 0.8) / 4)
    assert view_score([]) == 0.0


def test_a_widened_views_boxes_come_back_to_the_given_image() -> None:
    c = _unwiden(Corner(x=356.0, y=100.0, w=35.6, h=30.0, score=0.9, classes=(("AS", 0.9),)),
                 1138 / 640)
    assert (c.x, c.y, c.w, c.h) == (pytest.approx(200.21, abs=0.01), 100.0,
                                    pytest.approx(20.02, abs=0.01), 30.0)
    assert c.classes == (("AS", 0.9),) and c.score == 0.9
