"""Trump context: effective suit, card strength and tractor adjacency for one deal.

A deal is played at a level rank L with a trump suit (or 无主, no trump). Every card then
has an *effective suit* (a side suit, or trump for jokers, level cards and the trump suit)
and a *strength* inside it. The tables are computed once per (level, trump, chain) and
indexed by `Card.index`, so trick evaluation only does list look-ups.

Strength inside a suit (higher wins, equal strength = equal cards):

- side suit and trump suit ranks: 2 … A skipping L, numbered 0 … 11;
- with a trump suit: 副级牌 (off-suit level cards, all equal) 12, 主级牌 (main level) 13,
  小王 14, 大王 15;
- no trump: every level card 12, 小王 13, 大王 14.

Two pairs are adjacent (they can stand next to each other in a tractor, 拖拉机) when their
strengths differ by exactly one, which gives the I-2 chain BJ–SJ–main level–off level–trump A
(K when A is the level) and skips the level rank. Off-level pairs of different suits share a
strength, so they are never adjacent to each other. With option `trump_chain="stated"`
(seed 001's three links only) the main level – off level link is dropped.

>>> ctx = TrumpContext.of(Rank.FIVE, Suit.SPADES)
>>> ctx.effective_suit(parse_card("5H")) is None, ctx.strength(parse_card("5H"))
(True, 12)
>>> ctx.are_adjacent_pairs(parse_card("4D"), parse_card("6D"))
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from referee.cards import (
    ALL_CARDS,
    NATURAL_RANKS,
    SUITS,
    Card,
    Rank,
    Suit,
    parse_card,  # noqa: F401  (the doctests use it)
)

__all__ = ["TRUMP", "TrumpContext", "TRUMP_CHAINS"]

TRUMP = 4
"""The suit key of trump (side suits are 0..3, their index in `SUITS`)."""

TRUMP_CHAINS = ("full", "stated")

OFF_LEVEL = 12
MAIN_LEVEL = 13


@dataclass(frozen=True, eq=False)
class TrumpContext:
    """The ordering tables of one deal; build it with `TrumpContext.of` (cached).

    `suit_keys[i]` is 0..3 (side suit, the index in `SUITS`) or `TRUMP` (4) for the card
    with index i; `strengths[i]` its strength inside that suit; `powers[i]` the strength
    with 16 added for trumps, so that a trump outranks every side card.

    >>> TrumpContext.of(Rank.TWO, None).is_trump(parse_card("2D"))
    True
    """

    level: Rank
    trump_suit: Suit | None
    trump_chain: str = "full"
    suit_keys: tuple[int, ...] = field(default=(), repr=False)
    strengths: tuple[int, ...] = field(default=(), repr=False)
    powers: tuple[int, ...] = field(default=(), repr=False)

    _cache: ClassVar[dict[tuple[Rank, Suit | None, str], TrumpContext]] = {}

    @classmethod
    def of(cls, level: Rank, trump_suit: Suit | None, trump_chain: str = "full") -> TrumpContext:
        """The (cached) context for a deal at `level` with `trump_suit` (None = 无主).

        >>> TrumpContext.of(Rank.TWO, Suit.HEARTS) is TrumpContext.of(Rank.TWO, Suit.HEARTS)
        True
        """
        key = (level, trump_suit, trump_chain)
        context = cls._cache.get(key)
        if context is None:
            context = cls._build(level, trump_suit, trump_chain)
            cls._cache[key] = context
        return context

    @classmethod
    def _build(cls, level: Rank, trump_suit: Suit | None, trump_chain: str) -> TrumpContext:
        if level.is_joker:
            raise ValueError(f"a level is a natural rank, not {level}")
        if trump_chain not in TRUMP_CHAINS:
            raise ValueError(f"trump_chain must be one of {TRUMP_CHAINS}, not {trump_chain!r}")
        dense = {rank: i for i, rank in enumerate(r for r in NATURAL_RANKS if r is not level)}
        suit_keys: list[int] = []
        strengths: list[int] = []
        for card in ALL_CARDS:
            if card.suit is None:  # a joker
                big = card.rank is Rank.BIG_JOKER
                top = 15 if trump_suit is not None else 14
                suit_keys.append(TRUMP)
                strengths.append(top if big else top - 1)
            elif card.rank is level:
                suit_keys.append(TRUMP)
                strengths.append(MAIN_LEVEL if card.suit is trump_suit else OFF_LEVEL)
            elif card.suit is trump_suit:
                suit_keys.append(TRUMP)
                strengths.append(dense[card.rank])
            else:
                suit_keys.append(SUITS.index(card.suit))
                strengths.append(dense[card.rank])
        powers = [
            s + (16 if k == TRUMP else 0) for k, s in zip(suit_keys, strengths, strict=True)
        ]
        return cls(
            level, trump_suit, trump_chain, tuple(suit_keys), tuple(strengths), tuple(powers)
        )

    # -- single cards -------------------------------------------------------------------

    def is_trump(self, card: Card) -> bool:
        """True for jokers, level cards and the trump suit (将牌 / 主牌)."""
        return self.suit_keys[card.index] == TRUMP

    def effective_suit(self, card: Card) -> Suit | None:
        """The suit the card plays in: its own side suit, or None for trump.

        >>> TrumpContext.of(Rank.TWO, Suit.HEARTS).effective_suit(parse_card("AC"))
        <Suit.CLUBS: 'C'>
        """
        key = self.suit_keys[card.index]
        return None if key == TRUMP else SUITS[key]

    def suit_key(self, card: Card) -> int:
        """0..3 for a side suit (index in `SUITS`), `TRUMP` (4) for trump."""
        return self.suit_keys[card.index]

    def strength(self, card: Card) -> int:
        """Order inside the effective suit; higher wins, equal strength = equal cards.

        >>> ctx = TrumpContext.of(Rank.TWO, Suit.HEARTS)
        >>> ctx.strength(parse_card("2S")) == ctx.strength(parse_card("2C"))
        True
        """
        return self.strengths[card.index]

    def power(self, card: Card) -> int:
        """Strength with trumps lifted above every side card (for cross-suit comparison)."""
        return self.powers[card.index]

    # -- pairs and tractors ---------------------------------------------------------------

    def linked(self, suit_key: int, low: int, high: int) -> bool:
        """True when a pair of strength `high` sits directly above one of strength `low`.

        >>> TrumpContext.of(Rank.EIGHT, Suit.CLUBS).linked(1, 4, 5)  # 77 → 99 of hearts
        True
        """
        if high != low + 1:
            return False
        if (
            self.trump_chain == "stated"
            and suit_key == TRUMP
            and self.trump_suit is not None
            and low == OFF_LEVEL
        ):
            return False  # seed 001 does not state the main level – off level link
        return True

    def are_adjacent_pairs(self, a: Card, b: Card) -> bool:
        """True when a pair of `a` and a pair of `b` are consecutive in a tractor (either order).

        Level 5: 44 and 66 are adjacent; A and 2 never are; two off-suit level pairs of
        different suits never are (seed 002).

        >>> ctx = TrumpContext.of(Rank.FIVE, Suit.HEARTS)
        >>> ctx.are_adjacent_pairs(parse_card("AS"), parse_card("2S"))
        False
        """
        key = self.suit_keys[a.index]
        if key != self.suit_keys[b.index]:
            return False
        sa, sb = self.strengths[a.index], self.strengths[b.index]
        if sa > sb:
            sa, sb = sb, sa
        return self.linked(key, sa, sb)

    def sort_key(self, card: Card) -> tuple[int, int, int]:
        """Display order: by effective suit, then strength, then card index (stable)."""
        return (self.suit_keys[card.index], self.strengths[card.index], card.index)

    def describe_suit(self, suit_key: int) -> str:
        """'trump' or the side suit's English name, for messages.

        >>> TrumpContext.of(Rank.TWO, Suit.HEARTS).describe_suit(0)
        'spades'
        """
        return "trump" if suit_key == TRUMP else SUITS[suit_key].name.lower()

