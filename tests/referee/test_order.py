"""Effective suit, strength order and tractor adjacency (RULEBOOKS.md §1, I-2)."""

from __future__ import annotations

import pytest

from referee.cards import ALL_CARDS, Card, Rank, Suit, parse_card
from referee.shengji.order import TRUMP, TrumpContext


def c(text: str) -> Card:
    return parse_card(text)


def test_trumps_are_jokers_level_cards_and_trump_suit_000_ch1_s7() -> None:
    """000 第一章 七: 将牌 = 大王, 小王, 主级牌, 副级牌 and every card of the trump suit."""
    ctx = TrumpContext.of(Rank.FIVE, Suit.HEARTS)
    trumps = {str(card) for card in ALL_CARDS if ctx.is_trump(card)}
    expected = {"BJ", "SJ", "5S", "5C", "5D"} | {f"{r.value}H" for r in Rank if not r.is_joker}
    assert trumps == expected
    assert ctx.effective_suit(c("5S")) is None
    assert ctx.effective_suit(c("AS")) is Suit.SPADES
    assert ctx.suit_key(c("KH")) == TRUMP


def test_trump_order_bj_sj_main_off_then_trump_suit_skipping_level_s1() -> None:
    """§1 trump order: BJ > SJ > main level > off levels (equal) > A of trump … 2, skipping L."""
    ctx = TrumpContext.of(Rank.FIVE, Suit.HEARTS)
    order = ["BJ", "SJ", "5H", "5S", "AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H",
             "4H", "3H", "2H"]
    strengths = [ctx.strength(c(x)) for x in order]
    assert strengths == sorted(strengths, reverse=True)
    assert len(set(strengths)) == len(strengths)
    # off-suit level cards are all equal among themselves (副级牌)
    assert ctx.strength(c("5S")) == ctx.strength(c("5C")) == ctx.strength(c("5D"))


def test_side_suit_order_a_high_skipping_level_000_s8() -> None:
    """000 第八条: A K Q J 10 … 2 in a side suit; the level rank is not in it."""
    ctx = TrumpContext.of(Rank.TEN, Suit.SPADES)
    order = ["AD", "KD", "QD", "JD", "9D", "8D", "7D", "6D", "5D", "4D", "3D", "2D"]
    strengths = [ctx.strength(c(x)) for x in order]
    assert strengths == sorted(strengths, reverse=True)
    assert strengths[-1] == 0 and strengths[0] == 11


def test_no_trump_only_jokers_and_level_cards_are_trump_000_s13() -> None:
    """000 第十三条: 对王反主为无主 — only the jokers and the level cards are trump."""
    ctx = TrumpContext.of(Rank.SEVEN, None)
    trumps = sorted(str(card) for card in ALL_CARDS if ctx.is_trump(card))
    assert trumps == sorted(["BJ", "SJ", "7S", "7H", "7C", "7D"])
    assert ctx.strength(c("BJ")) > ctx.strength(c("SJ")) > ctx.strength(c("7H"))
    assert len({ctx.strength(c(f"7{s}")) for s in "SHCD"}) == 1  # all level cards equal
    assert ctx.effective_suit(c("AS")) is Suit.SPADES


def test_trump_outranks_every_side_card_000_s8_2() -> None:
    """000 第八条(二) 将牌大于副牌 (garbled 不不大于 = 大于): power puts any trump above side."""
    ctx = TrumpContext.of(Rank.TWO, Suit.DIAMONDS)
    assert min(ctx.power(card) for card in ALL_CARDS if ctx.is_trump(card)) > max(
        ctx.power(card) for card in ALL_CARDS if not ctx.is_trump(card)
    )


def test_level_5_pairs_44_66_are_a_tractor_000_s4() -> None:
    """000 第四条: 当级牌为5时，同花色对6和对4为连对."""
    ctx = TrumpContext.of(Rank.FIVE, Suit.HEARTS)
    assert ctx.are_adjacent_pairs(c("4S"), c("6S"))
    assert ctx.are_adjacent_pairs(c("4H"), c("6H"))  # in the trump suit too


def test_level_8_pairs_77_99_are_a_tractor_002_s353() -> None:
    """002 3.5.3: 级牌为8时，同花色的77、99为连对 (主付牌一样)."""
    ctx = TrumpContext.of(Rank.EIGHT, Suit.CLUBS)
    assert ctx.are_adjacent_pairs(c("7D"), c("9D"))
    assert ctx.are_adjacent_pairs(c("9C"), c("7C"))


def test_a_and_2_never_adjacent_002_s353() -> None:
    """002 3.5.3: A和2也不算连对."""
    for level in (Rank.FIVE, Rank.ACE, Rank.TWO):
        ctx = TrumpContext.of(level, Suit.HEARTS)
        assert not ctx.are_adjacent_pairs(c("AS"), c("2S"))
        assert not ctx.are_adjacent_pairs(c("AH"), c("2H"))


def test_off_level_pairs_of_different_suits_never_adjacent_002_s353() -> None:
    """002 3.5.3: 两对副5不算连对."""
    ctx = TrumpContext.of(Rank.FIVE, Suit.HEARTS)
    assert not ctx.are_adjacent_pairs(c("5S"), c("5C"))
    assert not ctx.are_adjacent_pairs(c("5S"), c("5D"))
    nt = TrumpContext.of(Rank.FIVE, None)
    assert not nt.are_adjacent_pairs(c("5S"), c("5H"))


def test_full_trump_chain_i2() -> None:
    """I-2 full: BJ–SJ–main level–an off level–trump A, plus trump-suit ranks skipping L."""
    ctx = TrumpContext.of(Rank.FIVE, Suit.HEARTS)
    chain = ["BJ", "SJ", "5H", "5S", "AH", "KH"]
    for high, low in zip(chain, chain[1:], strict=False):
        assert ctx.are_adjacent_pairs(c(high), c(low)), (high, low)
    for off in ("5C", "5D"):
        assert ctx.are_adjacent_pairs(c("5H"), c(off))
        assert ctx.are_adjacent_pairs(c(off), c("AH"))
    assert not ctx.are_adjacent_pairs(c("BJ"), c("5H"))
    assert not ctx.are_adjacent_pairs(c("5S"), c("KH"))
    assert not ctx.are_adjacent_pairs(c("AS"), c("5S"))  # side A is not next to a level pair


def test_full_chain_k_when_a_is_the_level_i2() -> None:
    """I-2: off level – trump A pair, or trump K when A is the level."""
    ctx = TrumpContext.of(Rank.ACE, Suit.SPADES)
    assert ctx.are_adjacent_pairs(c("AH"), c("KS"))
    assert not ctx.are_adjacent_pairs(c("AH"), c("QS"))


def test_no_trump_chain_bj_sj_level_i2() -> None:
    """I-2 in no trump: BJ – SJ – a level pair."""
    ctx = TrumpContext.of(Rank.NINE, None)
    assert ctx.are_adjacent_pairs(c("BJ"), c("SJ"))
    assert ctx.are_adjacent_pairs(c("SJ"), c("9D"))
    assert not ctx.are_adjacent_pairs(c("9D"), c("AD"))  # AD is a side card in no trump


def test_stated_chain_drops_main_to_off_level_link_001_i2() -> None:
    """I-2 option `stated` (001's three links): BJ-SJ, SJ-main level, off level-top trump pair."""
    ctx = TrumpContext.of(Rank.FIVE, Suit.HEARTS, "stated")
    assert ctx.are_adjacent_pairs(c("BJ"), c("SJ"))
    assert ctx.are_adjacent_pairs(c("SJ"), c("5H"))
    assert ctx.are_adjacent_pairs(c("5S"), c("AH"))
    assert not ctx.are_adjacent_pairs(c("5H"), c("5S"))
    assert ctx.are_adjacent_pairs(c("4S"), c("6S"))  # side suits unchanged


def test_pairs_of_different_effective_suits_are_not_adjacent() -> None:
    ctx = TrumpContext.of(Rank.FIVE, Suit.HEARTS)
    assert not ctx.are_adjacent_pairs(c("6S"), c("7D"))
    assert not ctx.are_adjacent_pairs(c("AS"), c("5S"))  # AS side, 5S trump


def test_context_is_cached_per_level_trump_chain() -> None:
    a = TrumpContext.of(Rank.TWO, Suit.SPADES)
    assert a is TrumpContext.of(Rank.TWO, Suit.SPADES)
    assert a is not TrumpContext.of(Rank.TWO, Suit.SPADES, "stated")
    assert a is not TrumpContext.of(Rank.TWO, None)


def test_bad_chain_option_is_rejected() -> None:
    with pytest.raises(ValueError):
        TrumpContext.of(Rank.TWO, Suit.SPADES, "long")


def test_stated_chain_in_no_trump_keeps_bj_sj_level_i2() -> None:
    """I-2 `stated` in no trump: only BJ–SJ–a level pair exists; there is no main level
    – off level link to drop (001 四: 无主时各花色级牌大小一致)."""
    ctx = TrumpContext.of(Rank.FIVE, None, "stated")
    assert ctx.are_adjacent_pairs(c("BJ"), c("SJ"))
    assert ctx.are_adjacent_pairs(c("SJ"), c("5C"))
    assert not ctx.are_adjacent_pairs(c("5C"), c("5D"))
