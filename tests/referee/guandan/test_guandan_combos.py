"""Guandan combinations (seed 004 一 牌型, 二 大小, 三 逢人配; I-11) and the bomb order."""

from __future__ import annotations

import pytest

from referee.cards import Rank, parse_cards
from referee.guandan.combos import beats, choose_reading, power, readings


def test_single_natural_and_wild_004_s1_10(combo):
    assert combo("7S").to_json() == {"kind": "single", "rank": "7", "size": 1}
    # A lone ♥ level card (逢人配) is read as itself: a level card, just below the jokers.
    assert combo("9H", "9").to_json() == {"kind": "single", "rank": "9", "size": 1}
    assert combo("BJ").to_json() == {"kind": "single", "rank": "BJ", "size": 1}


def test_pair_natural_wild_and_jokers_004_s1_11(combo):
    assert combo("QS QD").to_json() == {"kind": "pair", "rank": "Q", "size": 2}
    assert combo("QS 5H", "5").to_json() == {"kind": "pair", "rank": "Q", "size": 2}
    assert combo("5H 5H", "5").to_json() == {"kind": "pair", "rank": "5", "size": 2}
    assert combo("SJ SJ").to_json()["kind"] == "pair"
    assert combo("SJ BJ") is None  # two different jokers are no pair


def test_wild_never_stands_for_a_joker_004_s3_2(combo):
    assert combo("BJ 5H", "5") is None
    assert combo("SJ SJ BJ 5H", "5") is None  # no joker bomb with a wild


def test_triple_natural_and_wild_004_s1_12(combo):
    assert combo("8S 8D 8C").to_json() == {"kind": "triple", "rank": "8", "size": 3}
    assert combo("8S 8D 3H", "3").to_json() == {"kind": "triple", "rank": "8", "size": 3}
    assert combo("8S 3H 3H", "3").to_json() == {"kind": "triple", "rank": "8", "size": 3}


def test_full_house_natural_wild_and_joker_pair_004_s1_9(combo):
    assert combo("4S 4D 4C 9S 9D").to_json() == {"kind": "full_house", "rank": "4", "size": 5}
    assert combo("4S 4D 4C SJ SJ").to_json()["kind"] == "full_house"
    # seed 三.3: with a wild the higher reading counts: 99944, not 44499.
    assert combo("4S 4D 9S 9D 7H", "7").to_json() == {"kind": "full_house", "rank": "9", "size": 5}


def test_full_house_needs_two_ranks_004_s1_9(combo):
    assert combo("4S 4D 4C 9S 8D") is None
    assert combo("4S 4D 4C 4H 9S") is None


def test_straight_natural_and_wild_highest_reading_004_s1_6_s3_3(combo):
    assert combo("3S 4D 5C 6C 7H").to_json() == {"kind": "straight", "rank": "7", "size": 5}
    # 3-4-5-6 + wild: 3-7 beats 2-6 (以算大为准).
    assert combo("3S 4D 5C 6C 10H", "10").to_json() == {"kind": "straight", "rank": "7", "size": 5}
    assert combo("3S 5D 6C 7C 10H", "10").to_json()["rank"] == "7"  # the wild fills the gap
    assert combo("3S 4D 5C 10H 10H", "10").to_json()["rank"] == "7"


def test_straight_ace_low_and_high_no_wrap_004_s1_5_i11(combo):
    assert combo("AS 2D 3C 4C 5S").to_json()["rank"] == "5"
    assert combo("10S JD QC KC AS").to_json()["rank"] == "A"
    assert combo("QS KD AC 2C 3S") is None  # no wrap round the ace
    assert combo("JS QD KC AC 2H", "2") is not None  # the wild is the 10 here, not a wrap


def test_level_card_keeps_natural_rank_in_straight_i11(combo, kinds):
    # Level 7: the ♠7 is a 7 in 5-6-7-8-9, not a card above the A.
    assert combo("5S 6D 7S 8C 9D", "7").to_json() == {"kind": "straight", "rank": "9", "size": 5}
    assert kinds("JS QD KC AC 7S", "7") == []


def test_straight_is_exactly_five_no_jokers_004_s1_6(combo):
    assert combo("3S 4D 5C 6C 7H 8S") is None
    assert combo("3S 4D 5C 6C") is None
    assert combo("JS QD KC AC SJ") is None


def test_three_pairs_natural_wild_and_ace_low_004_s1_7(combo):
    assert combo("5S 5D 6S 6D 7S 7C").to_json() == {"kind": "three_pairs", "rank": "7", "size": 6}
    assert combo("5S 5D 6S 6D 7S 9H", "9").to_json()["rank"] == "7"
    assert combo("AS AD 2S 2D 3S 3C").to_json()["rank"] == "3"
    assert combo("QS QD KS KD AS AC").to_json()["rank"] == "A"
    assert combo("KS KD AS AD 2S 2C") is None  # no wrap


def test_three_pairs_not_more_than_three_004_s1_7(combo):
    assert combo("5S 5D 6S 6D 7S 7C 8S 8D") is None


def test_plate_natural_wild_and_ace_004_s1_8(combo):
    assert combo("5S 5D 5C 6S 6D 6C").to_json() == {"kind": "plate", "rank": "6", "size": 6}
    assert combo("5S 5D 5C 6S 6D 9H", "9").to_json()["kind"] == "plate"
    assert combo("AS AD AC 2S 2D 2C").to_json()["rank"] == "2"
    assert combo("KS KD KC AS AD AC").to_json()["rank"] == "A"
    assert combo("5S 5D 5C 6S 6D 6C 7S 7D 7C") is None  # not more than two triples


def test_six_cards_both_plate_and_three_pairs_stated_reading_004_s3_3(kinds):
    found = kinds("5S 5D 6S 6D 9H 9H", "9")
    assert ("three_pairs", "7") in found and ("plate", "6") in found
    cards = parse_cards("5S 5D 6S 6D 9H 9H")
    all_readings = readings(cards, Rank.NINE)
    stated, ok = choose_reading(all_readings, None, "plate")
    assert ok and stated is not None and stated.kind == "plate"


@pytest.mark.parametrize("size", [4, 5, 6, 7, 8])
def test_bomb_natural_sizes_004_s1_4(combo, size):
    cards = " ".join(["6S", "6D", "6C", "6H"] * 2)
    result = combo(" ".join(cards.split()[:size]))
    assert result.to_json() == {"kind": "bomb", "rank": "6", "size": size}


@pytest.mark.parametrize("size", [4, 5, 9, 10])
def test_bomb_with_wilds_up_to_ten_004_s1_4(combo, size):
    naturals = ["6S", "6D", "6C", "6H", "6S", "6D", "6C", "6H"][: size - 2]
    result = combo(" ".join(naturals + ["JH", "JH"]), "J")
    assert result.to_json() == {"kind": "bomb", "rank": "6", "size": size}


def test_joker_bomb_004_s1_4(combo):
    assert combo("SJ SJ BJ BJ").to_json() == {"kind": "joker_bomb", "rank": "BJ", "size": 4}
    assert combo("SJ BJ BJ") is None


def test_straight_flush_natural_and_wild_004_s1_5(combo):
    assert combo("3S 4S 5S 6S 7S").to_json() == {"kind": "straight_flush", "rank": "7", "size": 5}
    assert combo("3S 4S 6S 7S 8H", "8").to_json() == {"kind": "straight_flush", "rank": "7", "size": 5}
    assert combo("AS 2S 3S 4S 5S").to_json()["rank"] == "5"
    assert combo("10S JS QS KS AS").to_json()["rank"] == "A"


def test_wild_combination_as_strong_as_natural_004_s1_5(combo):
    wild = combo("3S 4S 6S 7S 8H", "8")
    natural = combo("3D 4D 5D 6D 7D", "8")
    assert not beats(wild, natural) and not beats(natural, wild)
    assert not beats(combo("6S 6D 6C 2H", "2"), combo("6S 6D 6C 6H", "2"))


def test_rank_order_at_level_004_s3_7(combo):
    # Level 10: BJ > SJ > 10 > A > K … > 2.
    level = Rank.TEN
    order = [Rank.BIG_JOKER, Rank.SMALL_JOKER, Rank.TEN, Rank.ACE, Rank.KING, Rank.NINE, Rank.TWO]
    assert [power(r, level) for r in order] == sorted((power(r, level) for r in order), reverse=True)
    assert beats(combo("10S", "10"), combo("AS", "10"))
    assert beats(combo("10S 10D 10C 3S 3D", "10"), combo("AS AD AC KS KD", "10"))


def test_non_bombs_compare_only_same_kind_and_size_004_s2(combo):
    assert not beats(combo("KS KD"), combo("3S"))
    assert not beats(combo("9S 10D JC QC KS"), combo("3S 3D 3C 4S 4D"))
    assert beats(combo("9S 10D JC QC KS"), combo("3S 4D 5C 6C 7S"))
    assert not beats(combo("3S 4D 5C 6C 7S"), combo("3D 4C 5S 6D 7C"))


BOMB_LADDER = [
    "3S 3D 3C 3H",  # 4-bomb of 3
    "AS AD AC AH",  # 4-bomb of A
    "2S 2D 2C 2H",  # 4-bomb of the level (2)
    "3S 3D 3C 3H 3S",  # 5-bomb
    "2S 2D 2C 2H 2D",  # 5-bomb of the level
    "AS 2S 3S 4S 5S",  # lowest straight flush
    "10D JD QD KD AD",  # highest straight flush
    "3S 3D 3C 3H 3S 3D",  # 6-bomb
    "AS AD AC AH AS AD",  # 6-bomb of A
    "3S 3D 3C 3H 3S 3D 3C",  # 7-bomb
    "3S 3D 3C 3H 3S 3D 3C 3H",  # 8-bomb
    "KS KD KC KH KS KD KC KH 2H 2H",  # 10-bomb with both wilds
    "SJ SJ BJ BJ",  # four jokers
]


@pytest.mark.parametrize("lower", range(len(BOMB_LADDER) - 1))
def test_bomb_order_004_s2(combo, lower):
    """四王 > 6+ bombs by size then rank > straight flush > 5-bomb > 4-bomb (seed 二)."""
    weaker = combo(BOMB_LADDER[lower])
    for stronger_cards in BOMB_LADDER[lower + 1 :]:
        stronger = combo(stronger_cards)
        assert beats(stronger, weaker), (stronger_cards, BOMB_LADDER[lower])
        assert not beats(weaker, stronger)


def test_any_bomb_beats_any_non_bomb_004_s2(combo):
    bomb = combo("3S 3D 3C 3H")
    for cards in ("BJ", "BJ BJ", "AS AD AC", "AS AD AC KS KD", "10S JD QC KC AS",
                  "QS QD KS KD AS AC", "KS KD KC AS AD AC"):
        assert beats(bomb, combo(cards)) and not beats(combo(cards), bomb)


def test_equal_bombs_do_not_beat_004_s2(combo):
    assert not beats(combo("5S 5D 5C 5H"), combo("5S 5D 5C 5H"))


def test_strongest_reading_wins_over_full_house_004_s3_3(kinds):
    # 555 + two wilds: a 5-card bomb or a full house; the bomb counts unless stated.
    assert kinds("5S 5D 5C 2H 2H") == [("bomb", "5"), ("full_house", "5")]


def test_reading_that_beats_the_table_counts_004_s3_3():
    level = Rank.NINE
    found = readings(parse_cards("5S 5D 6S 6D 9H 9H"), level)
    table = readings(parse_cards("4C 4H 5C 5H 6C 6H"), level)[0]  # three pairs up to 6
    chosen, ok = choose_reading(found, table)
    assert ok and chosen is not None and (chosen.kind, chosen.rank) == ("three_pairs", Rank.SEVEN)
    higher = readings(parse_cards("7C 7H 8C 8D 10C 10D"), level)  # not a combination
    assert higher == ()
    table = readings(parse_cards("6C 6H 7C 7D 8C 8D"), level)[0]  # three pairs up to 8
    chosen, ok = choose_reading(found, table)
    assert not ok and chosen is not None


def test_chinese_names_cover_every_kind():
    from referee.guandan.combos import KIND_NAMES, KINDS

    assert set(KIND_NAMES) == set(KINDS)


def test_chinese_display(combo):
    assert combo("QS QD QC 3S 3D").chinese == "三带二 Q"
    assert combo("SJ SJ BJ BJ").chinese == "四王"
    assert combo("3S 4S 5S 6S 7S").chinese == "同花顺 7"
