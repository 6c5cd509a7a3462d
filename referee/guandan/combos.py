"""Guandan combinations (牌型): classify a set of cards at a level and compare two plays.

The two ♥ level cards are wild (逢人配, seed 004 §3.2): each stands for any card except a
joker. A set of cards may have several readings (the wilds in a straight, a full house, a
bomb); `readings` lists them all and `choose_reading` picks the one that counts: the one
the referee stated, else the strongest that beats the play on the table, else the
strongest (seed §3.3 "以算大为准").

>>> from referee.cards import parse_cards, Rank
>>> classify(parse_cards("3S 4D 5C 6C 10H"), Rank.TEN).to_json()
{'kind': 'straight', 'rank': '7', 'size': 5}
>>> beats(classify(parse_cards("2S 2D 2C 2H"), Rank.TEN), classify(parse_cards("AS"), Rank.TEN))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from referee.cards import ALL_CARDS, Card, Rank, Suit

__all__ = [
    "BOMB_KINDS",
    "KINDS",
    "KIND_NAMES",
    "Combo",
    "beats",
    "choose_reading",
    "classify",
    "clear_readings_cache",
    "power",
    "readings",
]

KINDS = (
    "single",
    "pair",
    "triple",
    "full_house",
    "straight",
    "three_pairs",
    "plate",
    "bomb",
    "straight_flush",
    "joker_bomb",
)
BOMB_KINDS = frozenset({"bomb", "straight_flush", "joker_bomb"})
# Chinese names for display (the UI shows Chinese first).
KIND_NAMES = {
    "single": "单张",
    "pair": "对子",
    "triple": "三张",
    "full_house": "三带二",
    "straight": "顺子",
    "three_pairs": "三连对",
    "plate": "钢板",
    "bomb": "炸弹",
    "straight_flush": "同花顺",
    "joker_bomb": "四王",
}

# Bomb strength bands (seed §2): four jokers > bombs of 6+ cards (by size, then rank) >
# straight flush > 5-card bomb > 4-card bomb > every non-bomb.
_JOKER_BOMB = 10_000
_STRAIGHT_FLUSH = 1_500
_RANK_OF_VALUE = {rank.natural: rank for rank in Rank}
# Preference between non-bomb readings of the same cards (only three pairs and a plate can
# both fit six cards, e.g. 3 3 4 4 + two wilds): the earlier kind in KINDS counts unless the
# referee states the other reading with the play's `combo` field.
_KIND_PREFERENCE = {kind: i for i, kind in enumerate(KINDS)}


def power(rank: Rank, level: Rank) -> int:
    """Order of a rank outside sequences at `level`: 2 … A, then the level, SJ, BJ.

    >>> power(Rank.TEN, Rank.TEN) > power(Rank.ACE, Rank.TEN) > power(Rank.NINE, Rank.TEN)
    True
    """
    if rank is level:
        return 15
    if rank is Rank.SMALL_JOKER:
        return 16
    if rank is Rank.BIG_JOKER:
        return 17
    return rank.natural


@dataclass(frozen=True, slots=True)
class Combo:
    """One reading of a play: `kind`, `rank` (the deciding rank), `size` (cards).

    `rank` is the rank itself for single/pair/triple/bomb, the triple's rank for a full
    house, and the top of the sequence (natural order, I-11) for straights, three pairs,
    plates and straight flushes (A-2-3-4-5 → 5). `power` orders combos of the same kind;
    `bomb` is 0 for non-bombs and the bomb strength otherwise.
    """

    kind: str
    rank: Rank
    size: int
    power: int
    bomb: int = 0

    @property
    def chinese(self) -> str:
        """The combination as people call it: `三带二 Q`, `6张炸弹 5`, `四王`.

        >>> from referee.cards import parse_cards
        >>> classify(parse_cards("5S 5D 5C 5H 5S 5D"), Rank.TWO).chinese
        '6张炸弹 5'
        """
        if self.kind == "joker_bomb":
            return KIND_NAMES["joker_bomb"]
        name = f"{self.size}张炸弹" if self.kind == "bomb" else KIND_NAMES[self.kind]
        return f"{name} {self.rank.value}"

    def to_json(self) -> dict[str, Any]:
        """`{kind, rank, size}` as in RECORD_FORMAT.md."""
        return {"kind": self.kind, "rank": self.rank.value, "size": self.size}

    @property
    def strength(self) -> tuple[int, int, int]:
        """Sort key for "the strongest reading" (bombs first, then kind preference, rank)."""
        return (self.bomb, -_KIND_PREFERENCE[self.kind] if not self.bomb else 0, self.power)


def beats(play: Combo, table: Combo) -> bool:
    """Whether `play` beats `table` (seed §2: non-bombs only against the same kind and size).

    >>> from referee.cards import parse_cards
    >>> fh = lambda s: classify(parse_cards(s), Rank.TWO)
    >>> beats(fh("3S 3D 3C 4S 4D"), fh("KS KD KC AS AD")), beats(fh("2S 2D"), fh("AS AD"))
    (False, True)
    """
    if play.bomb or table.bomb:
        return play.bomb > table.bomb
    return play.kind == table.kind and play.size == table.size and play.power > table.power


def _bomb_strength(size: int, rank_power: int) -> int:
    if size >= 6:
        return 1_000 + size * 100 + rank_power
    return 1_000 + (size - 2) * 100 + rank_power  # 4 → 1200+, 5 → 1300+ (below 1500)


def _sequences(
    counts: dict[int, int], width: int, per_rank: int, lowest_top: int
) -> list[int]:
    """Tops of every window of `width` consecutive ranks holding all the natural cards
    with at most `per_rank` of each (wilds fill the rest), highest first.

    Values are natural (2 … A = 14); an A also fits a window as 1 (A-2-3-4-5, A-2-3).
    """
    mask = 0
    has_ace = False
    for value, count in counts.items():
        if count > per_rank:
            return []
        if value == 14:
            has_ace = True
        else:
            mask |= 1 << value
    full = (1 << width) - 1
    tops = []
    for top in range(14, lowest_top - 1, -1):
        window = full << (top - width + 1)
        if mask & ~window:
            continue
        if has_ace and not (window & (1 << 14 | 1 << 1)):
            continue
        tops.append(top)
    return tops


def _readings(cards: tuple[Card, ...], level: Rank, max_bomb: int) -> tuple[Combo, ...]:
    size = len(cards)
    wild = _wild_card(level)
    wilds = 0
    jokers = 0
    counts: dict[int, int] = {}  # natural value (non-joker) → count
    by_rank: dict[Rank, int] = {}
    suits: set[Suit | None] = set()
    for card in cards:
        if card is wild:
            wilds += 1
            continue
        by_rank[card.rank] = by_rank.get(card.rank, 0) + 1
        if card.is_joker:
            jokers += 1
        else:
            counts[card.rank.natural] = counts.get(card.rank.natural, 0) + 1
            suits.add(card.suit)
    found: list[Combo] = []

    # Same rank throughout: single, pair, triple, bomb (wilds never stand for jokers).
    if len(by_rank) <= 1 and not (jokers and wilds):
        rank = next(iter(by_rank), level)
        rank_power = power(rank, level)
        if size == 1:
            found.append(Combo("single", rank, 1, rank_power))
        elif size == 2:
            found.append(Combo("pair", rank, 2, rank_power))
        elif size == 3 and not jokers:
            found.append(Combo("triple", rank, 3, rank_power))
        elif 4 <= size <= max_bomb and not jokers:
            found.append(Combo("bomb", rank, size, rank_power, _bomb_strength(size, rank_power)))
    if size == 4 and by_rank.get(Rank.SMALL_JOKER) == 2 and by_rank.get(Rank.BIG_JOKER) == 2:
        found.append(Combo("joker_bomb", Rank.BIG_JOKER, 4, 17, _JOKER_BOMB))

    if size == 5:
        # Full house (三带二): the triple decides; wilds make up the triple or the pair.
        if len(by_rank) == 2:
            (a, count_a), (b, count_b) = by_rank.items()
            for triple, count_t, pair, count_p in ((a, count_a, b, count_b), (b, count_b, a, count_a)):
                if triple.is_joker or count_t > 3 or count_p > 2:
                    continue
                if pair.is_joker and count_p != 2:
                    continue
                if (3 - count_t) + (2 - count_p) == wilds:
                    found.append(Combo("full_house", triple, 5, power(triple, level)))
        elif len(by_rank) == 1 and wilds == 2 and not jokers:
            (triple, count_t), = by_rank.items()
            if count_t == 3:
                found.append(Combo("full_house", triple, 5, power(triple, level)))
        # Straight and straight flush: exactly five, no jokers, A low or high, no wrap (I-11).
        if not jokers:
            # Every window is a reading (the referee may state a lower one); the highest
            # comes first.
            for top in _sequences(counts, 5, 1, 5):
                found.append(Combo("straight", _RANK_OF_VALUE[top], 5, top))
                if len(suits) <= 1:
                    found.append(
                        Combo("straight_flush", _RANK_OF_VALUE[top], 5, top, _STRAIGHT_FLUSH + top)
                    )
    elif size == 6 and not jokers:
        for top in _sequences(counts, 3, 2, 3):
            found.append(Combo("three_pairs", _RANK_OF_VALUE[top], 6, top))
        for top in _sequences(counts, 2, 3, 2):
            found.append(Combo("plate", _RANK_OF_VALUE[top], 6, top))
    found.sort(key=lambda combo: combo.strength, reverse=True)
    return tuple(found)


@lru_cache(maxsize=16)
def _wild_card(level: Rank) -> Card | None:
    if level.is_joker:
        return None
    return ALL_CARDS[1 * 13 + level.natural - 2]  # ♥ is the second suit


@lru_cache(maxsize=65536)
def _cached_readings(key: tuple[int, ...], level: Rank, max_bomb: int) -> tuple[Combo, ...]:
    return _readings(tuple(ALL_CARDS[i] for i in key), level, max_bomb)


def clear_readings_cache() -> None:
    """Forget cached readings (benchmarks measure classification from scratch with it)."""
    _cached_readings.cache_clear()


def readings(cards: Sequence[Card], level: Rank, max_bomb: int = 10) -> tuple[Combo, ...]:
    """Every reading of `cards` at `level`, strongest first; empty if none (not a combination).

    >>> from referee.cards import parse_cards
    >>> [c.kind for c in readings(parse_cards("5S 5D 5C 2H 2H"), Rank.TWO)]
    ['bomb', 'full_house']
    """
    key = tuple(sorted(card.index for card in cards))
    return _cached_readings(key, level, max_bomb)


def classify(cards: Sequence[Card], level: Rank, max_bomb: int = 10) -> Combo | None:
    """The strongest reading of `cards` at `level`, or None when they form no combination.

    >>> from referee.cards import parse_cards
    >>> classify(parse_cards("AH 2S 3S 4S 5S"), Rank.NINE).to_json()
    {'kind': 'straight', 'rank': '5', 'size': 5}
    """
    found = readings(cards, level, max_bomb)
    return found[0] if found else None


def choose_reading(
    found: Sequence[Combo],
    table: Combo | None,
    stated_kind: str | None = None,
    stated_rank: Rank | None = None,
) -> tuple[Combo | None, bool]:
    """The reading that counts, and whether it beats `table` (True when leading).

    Readings are narrowed to the referee's stated kind/rank first; then the strongest one
    that beats the table counts; if none does, the strongest (and False).
    """
    candidates = [
        combo
        for combo in found
        if (stated_kind is None or combo.kind == stated_kind)
        and (stated_rank is None or combo.rank is stated_rank)
    ]
    if not candidates:
        return None, False
    if table is None:
        return candidates[0], True
    for combo in candidates:  # strongest first
        if beats(combo, table):
            return combo, True
    return candidates[0], False
