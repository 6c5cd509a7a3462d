"""Cards and their canonical notation: `10H`, `AS`, `BJ` (大王), `SJ` (小王).

Every card value is one of 54 interned `Card` objects, so comparisons and hashing are
cheap and two decks simply hold each card twice (hands are multisets).

>>> parse_card("A♠"), parse_card("♥10"), parse_card("大王"), parse_card("th")
(Card('AS'), Card('10H'), Card('BJ'), Card('10H'))
>>> format_cards(parse_cards("10H AS sj"))
'10H AS SJ'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from referee.errors import NotationError

__all__ = [
    "ALL_CARDS",
    "BIG_JOKER",
    "SMALL_JOKER",
    "SUITS",
    "NATURAL_RANKS",
    "Card",
    "Rank",
    "Suit",
    "copies_in_decks",
    "format_cards",
    "parse_card",
    "parse_cards",
    "parse_rank",
    "points_of",
    "two_decks",
]


class Suit(StrEnum):
    """A card suit in its one-letter ASCII form."""

    SPADES = "S"
    HEARTS = "H"
    CLUBS = "C"
    DIAMONDS = "D"

    @property
    def symbol(self) -> str:
        """The Unicode suit sign. >>> Suit.SPADES.symbol -> '♠'."""
        return _SUIT_SYMBOLS[self]

    @property
    def chinese(self) -> str:
        """The Chinese suit name (黑桃, 红桃, 梅花, 方块)."""
        return _SUIT_CHINESE[self]

    @property
    def is_red(self) -> bool:
        """True for hearts and diamonds."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)


class Rank(StrEnum):
    """A rank in its ASCII form; the jokers are ranks without a suit."""

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"
    SMALL_JOKER = "SJ"
    BIG_JOKER = "BJ"

    @property
    def natural(self) -> int:
        """Natural order: 2 → 2 … A → 14, small joker 15, big joker 16."""
        return _RANK_NATURAL[self]

    @property
    def is_joker(self) -> bool:
        """True for the two joker ranks."""
        return self in (Rank.SMALL_JOKER, Rank.BIG_JOKER)


SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
NATURAL_RANKS: tuple[Rank, ...] = tuple(r for r in Rank if not r.is_joker)

_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.CLUBS: "♣", Suit.DIAMONDS: "♦"}
_SUIT_CHINESE = {Suit.SPADES: "黑桃", Suit.HEARTS: "红桃", Suit.CLUBS: "梅花", Suit.DIAMONDS: "方块"}
_RANK_NATURAL = {rank: i + 2 for i, rank in enumerate(Rank)}


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. Use `parse_card` or the module constants; never build duplicates.

    `index` is 0..53 (suit-major, then rank; SJ 52, BJ 53), handy for counting arrays.

    >>> c = parse_card("KD"); (c.rank, c.suit, c.points, c.index)
    (<Rank.KING: 'K'>, <Suit.DIAMONDS: 'D'>, 10, 50)
    """

    rank: Rank
    suit: Suit | None
    index: int = field(init=False, compare=False, hash=False, repr=False)
    points: int = field(init=False, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        if self.rank.is_joker:
            if self.suit is not None:
                raise NotationError(f"{self.rank}{self.suit}", message="a joker has no suit")
            index = 52 if self.rank is Rank.SMALL_JOKER else 53
        else:
            if self.suit is None:
                raise NotationError(str(self.rank), message="a card needs a suit")
            index = SUITS.index(self.suit) * 13 + (self.rank.natural - 2)
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "points", _POINTS.get(self.rank, 0))

    def __str__(self) -> str:
        return self.rank.value + (self.suit.value if self.suit is not None else "")

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    @property
    def is_joker(self) -> bool:
        """True for 大王 and 小王."""
        return self.suit is None

    def display(self) -> str:
        """The card as printed for people: `A♠`, `10♥`, `大王`, `小王`."""
        if self.rank is Rank.BIG_JOKER:
            return "大王"
        if self.rank is Rank.SMALL_JOKER:
            return "小王"
        assert self.suit is not None
        return self.rank.value + self.suit.symbol

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The interned card with this index. >>> Card.from_index(53) -> Card('BJ')."""
        return ALL_CARDS[index]


_POINTS = {Rank.FIVE: 5, Rank.TEN: 10, Rank.KING: 10}

ALL_CARDS: tuple[Card, ...] = tuple(
    [Card(rank, suit) for suit in SUITS for rank in NATURAL_RANKS]
    + [Card(Rank.SMALL_JOKER, None), Card(Rank.BIG_JOKER, None)]
)
SMALL_JOKER = ALL_CARDS[52]
BIG_JOKER = ALL_CARDS[53]
_BY_TEXT: dict[str, Card] = {str(card): card for card in ALL_CARDS}

# Everything a referee might type for a rank, a suit or a joker.
_RANK_WORDS: dict[str, Rank] = {r.value: r for r in NATURAL_RANKS}
_RANK_WORDS["T"] = Rank.TEN
_SUIT_WORDS: dict[str, Suit] = {s.value: s for s in SUITS}
_SUIT_WORDS.update({s.symbol: s for s in SUITS})
_SUIT_WORDS.update({"♤": Suit.SPADES, "♡": Suit.HEARTS, "♧": Suit.CLUBS, "♢": Suit.DIAMONDS})
_SUIT_WORDS.update({s.chinese: s for s in SUITS})
_SUIT_WORDS.update({"黑": Suit.SPADES, "红": Suit.HEARTS, "梅": Suit.CLUBS, "方": Suit.DIAMONDS})
_SUIT_WORDS.update({"方片": Suit.DIAMONDS, "方板": Suit.DIAMONDS, "草花": Suit.CLUBS})
_JOKER_WORDS: dict[str, Card] = {
    "BJ": BIG_JOKER, "SJ": SMALL_JOKER, "大王": BIG_JOKER, "小王": SMALL_JOKER,
    "大鬼": BIG_JOKER, "小鬼": SMALL_JOKER, "RJ": BIG_JOKER, "LJ": SMALL_JOKER,
}
_SUIT_PATTERN = "|".join(sorted((re.escape(w) for w in _SUIT_WORDS), key=len, reverse=True))
_RANK_PATTERN = "|".join(sorted((re.escape(w) for w in _RANK_WORDS), key=len, reverse=True))
_RANK_SUIT = re.compile(rf"^({_RANK_PATTERN})({_SUIT_PATTERN})$")
_SUIT_RANK = re.compile(rf"^({_SUIT_PATTERN})({_RANK_PATTERN})$")
_SEPARATORS = re.compile(r"[\s,，、;；]+")


def parse_rank(token: str, where: str = "") -> Rank:
    """Read a rank (`10`, `T`, `J`, `A`). >>> parse_rank("t") -> Rank.TEN."""
    rank = _RANK_WORDS.get(token.strip().upper())
    if rank is None:
        raise NotationError(token, where, f"cannot read rank {token!r}")
    return rank


def parse_card(token: str, where: str = "") -> Card:
    """Read one card in ASCII, Unicode or Chinese form; raise `NotationError` otherwise.

    >>> parse_card("♦q")
    Card('QD')
    """
    if not isinstance(token, str):
        raise NotationError(repr(token), where, f"a card must be a string, not {token!r}")
    text = token.strip()
    card = _BY_TEXT.get(text)
    if card is not None:
        return card
    upper = text.upper()
    card = _BY_TEXT.get(upper) or _JOKER_WORDS.get(upper) or _JOKER_WORDS.get(text)
    if card is not None:
        return card
    # Upper-casing leaves the Unicode and Chinese suit words unchanged.
    match = _RANK_SUIT.match(upper)
    if match:
        rank_word, suit_word = match.group(1), match.group(2)
    else:
        match = _SUIT_RANK.match(upper)
        if match is None:
            raise NotationError(token, where)
        suit_word, rank_word = match.group(1), match.group(2)
    suit, rank = _SUIT_WORDS[suit_word], _RANK_WORDS[rank_word]
    return ALL_CARDS[SUITS.index(suit) * 13 + rank.natural - 2]


def parse_cards(cards: str | Iterable[str], where: str = "") -> tuple[Card, ...]:
    """Read a list of cards, or one string of cards separated by spaces or commas.

    Error messages name the position of the bad token.

    >>> parse_cards(["2H", "BJ"])
    (Card('2H'), Card('BJ'))
    """
    tokens = [t for t in _SEPARATORS.split(cards) if t] if isinstance(cards, str) else list(cards)
    result = []
    for position, token in enumerate(tokens):
        place = f"{where}, card {position + 1}" if where else f"card {position + 1}"
        result.append(parse_card(token, place))
    return tuple(result)


def format_cards(cards: Iterable[Card], separator: str = " ") -> str:
    """Print cards in canonical ASCII. >>> format_cards([BIG_JOKER]) -> 'BJ'."""
    return separator.join(str(card) for card in cards)


def points_of(cards: Iterable[Card]) -> int:
    """Sum of card points (5 → 5, 10 and K → 10). >>> points_of(parse_cards("5S KH 3D")) -> 15."""
    return sum(card.points for card in cards)


def two_decks() -> list[Card]:
    """The 108 cards of two full decks, in a fixed order."""
    return list(ALL_CARDS) * 2


def copies_in_decks(cards: Sequence[Card] | Counter[Card], decks: int = 2) -> list[Card]:
    """Cards seen more often than `decks` decks hold (each excess card listed once)."""
    counts = cards if isinstance(cards, Counter) else Counter(cards)
    return [card for card, n in counts.items() if n > decks]
