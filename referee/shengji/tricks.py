"""Lead shapes and trick evaluation: follow, ruff (将吃) and over-ruff (超将吃), throws included.

A lead is a single, a pair, a tractor (连对 / 拖拉机) or a throw (甩牌), all cards of one
effective suit. A throw is decomposed into its largest components: tractors longest first,
then pairs, then singles.

A play can win the trick only if it is all of the led suit or all trump (a ruff of a side
suit), has as many cards as the lead and *contains the lead's shape*: for every component of
the lead a disjoint component of the same type (a tractor of the same length, a pair;
singles are any cards, so an extra pair may stand in for two singles, seed 002 example 2).
It then beats the current winner when, for one way of mapping it onto the lead, its highest
component of every type is higher than the current winner's (I-1; seed 000 第九条 "均大于",
seed 002 3.6.2). The current winner counts at its strongest mapping, largest component
type first: 6C6C 2C2C over pair + two singles is pair 66 with singles 2 2. Ties go to the
first played; discards never win. The same rule applies to a follow in a throw's own suit,
which can only win when the throw should have failed (`follow.hindsight_violations`).

>>> ctx = TrumpContext.of(Rank.TWO, Suit.HEARTS)
>>> evaluate_trick(ctx, 0, [parse_cards("AS KS 10S 9S"), parse_cards("SJ 8H 7H 4H"),
...                         parse_cards("3S 4S 5S 6S"), parse_cards("BJ 3H 2D 5H")]).winner
3
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from referee.cards import (  # noqa: F401  (Rank and parse_cards: the doctests use them)
    ALL_CARDS,
    SUITS,
    Card,
    Rank,
    Suit,
    format_cards,
    parse_cards,
)
from referee.errors import IllegalPlayError
from referee.shengji.order import TRUMP, TrumpContext

__all__ = [
    "Component",
    "Shape",
    "TrickOutcome",
    "classify_lead",
    "decompose",
    "evaluate_trick",
    "shape_name",
    "split_pairs",
    "extract_tractors",
    "tractors_of",
    "best_tops",
    "beats_tops",
]


@dataclass(frozen=True, slots=True)
class Component:
    """One part of a lead: `kind` single/pair/tractor; `length` = pairs (1 for pair and single).

    `cards` run from the highest to the lowest; `top` is the power of the highest card.

    >>> Component("tractor", 2, parse_cards("4S 4S 3S 3S")).code
    2
    """

    kind: str
    length: int
    cards: tuple[Card, ...]
    top: int = 0

    @property
    def code(self) -> int:
        """The component type as a number: 0 single, 1 pair, n a tractor of n pairs."""
        return 0 if self.kind == "single" else self.length

    @property
    def name(self) -> str:
        """`single`, `pair` or `tractorN`."""
        return shape_name(self.code)


def shape_name(code: int) -> str:
    """Name of a component type code: 0 → single, 1 → pair, n → tractorN.

    >>> shape_name(3)
    'tractor3'
    """
    if code == 0:
        return "single"
    if code == 1:
        return "pair"
    return f"tractor{code}"


@dataclass(frozen=True, slots=True)
class Shape:
    """A lead: `kind` single/pair/tractor/throw, its effective `suit` (None = trump).

    `components` are largest first (tractors longest first, then pairs, then singles);
    `size` is the number of cards; `suit_key` 0..3 or `TRUMP`.
    """

    kind: str
    suit: Suit | None
    components: tuple[Component, ...]
    size: int
    suit_key: int = TRUMP

    @property
    def largest(self) -> Component:
        """The largest component (decides a throw's bottom multiplier, I-3)."""
        return self.components[0]

    @property
    def codes(self) -> tuple[int, ...]:
        """Component type codes, largest first (0 single, 1 pair, n tractor)."""
        return tuple(c.code for c in self.components)

    @property
    def last_trick_name(self) -> str:
        """`single`, `pair`, `tractorN` or `throw:<largest>` (e.g. `throw:pair`)."""
        if self.kind == "throw":
            return "throw:" + self.largest.name
        return self.largest.name


@dataclass(frozen=True, slots=True)
class TrickOutcome:
    """Who won a trick and with what.

    `shape` is the lead kind (`single`, `pair`, `tractor`, `throw`, as in the result JSON);
    `last_trick_shape` is `single`, `pair`, `tractorN` or `throw:<largest component>` for the
    bottom multiplier; `won_with_trump` is True when the winning play is trump; `lead` is the
    full lead `Shape`.
    """

    winner: int
    points: int
    shape: str
    last_trick_shape: str
    won_with_trump: bool
    lead: Shape | None = None


# -- decomposition ---------------------------------------------------------------------------


def split_pairs(cards: Sequence[Card]) -> tuple[list[Card], list[Card]]:
    """One entry per pair (two identical cards) and the cards left as singles.

    >>> split_pairs(parse_cards("5S 5S 6S"))
    ([Card('5S')], [Card('6S')])
    """
    # Keyed by index: hashing a Card runs Python code, an int does not.
    counts: dict[int, int] = {}
    for card in cards:
        index = card.index
        counts[index] = counts.get(index, 0) + 1
    pairs: list[Card] = []
    singles: list[Card] = []
    for index, n in counts.items():
        card = ALL_CARDS[index]
        if n == 1:
            singles.append(card)
        elif n == 2:
            pairs.append(card)
        else:  # only in records with too many copies (the deal rejects those)
            pairs.extend([card] * (n // 2))
            if n % 2:
                singles.append(card)
    return pairs, singles


def extract_tractors(
    ctx: TrumpContext, key: int, pairs: Sequence[Card]
) -> tuple[list[list[Card]], list[Card]]:
    """Greedily take the longest tractors out of `pairs` (one entry per pair) of suit `key`.

    Returns the tractors (each a list of pair cards, highest first), longest first, and the
    pairs left over. At equal length the higher tractor is taken first.
    """
    strengths = ctx.strengths
    by_strength: dict[int, list[Card]] = {}
    for card in sorted(pairs, key=lambda c: c.index):
        by_strength.setdefault(strengths[card.index], []).append(card)
    tractors: list[list[Card]] = []
    while len(by_strength) >= 2:
        best_start = best_end = -1
        best_len = 0
        ordered = sorted(by_strength)
        start = 0
        for i in range(1, len(ordered) + 1):
            if i == len(ordered) or not ctx.linked(key, ordered[i - 1], ordered[i]):
                length = i - start
                if length >= best_len:  # ties: the later (higher) run
                    best_len, best_start, best_end = length, start, i
                start = i
        if best_len < 2:
            break
        tractor: list[Card] = []
        for s in reversed(ordered[best_start:best_end]):
            bucket = by_strength[s]
            tractor.append(bucket.pop(0))
            if not bucket:
                del by_strength[s]
        tractors.append(tractor)
    leftover = [card for s in sorted(by_strength, reverse=True) for card in by_strength[s]]
    return tractors, leftover


def decompose(ctx: TrumpContext, cards: Sequence[Card]) -> tuple[Component, ...]:
    """Largest components of cards of one effective suit: tractors, pairs, singles.

    >>> ctx = TrumpContext.of(Rank.FIVE, Suit.HEARTS)
    >>> [c.name for c in decompose(ctx, parse_cards("4S 4S 6S 6S AS AS 9S"))]
    ['tractor2', 'pair', 'single']
    """
    powers = ctx.powers
    if not cards:
        return ()
    key = ctx.suit_keys[cards[0].index]
    pairs, singles = split_pairs(cards)
    tractors, pairs = extract_tractors(ctx, key, pairs) if len(pairs) >= 2 else ([], pairs)
    components: list[Component] = []
    tractors.sort(key=lambda t: (len(t), powers[t[0].index]), reverse=True)
    for tractor in tractors:
        components.append(
            Component(
                "tractor",
                len(tractor),
                tuple(c for c in tractor for _ in (0, 1)),
                powers[tractor[0].index],
            )
        )
    for card in sorted(pairs, key=lambda c: (powers[c.index], c.index), reverse=True):
        components.append(Component("pair", 1, (card, card), powers[card.index]))
    for card in sorted(singles, key=lambda c: (powers[c.index], c.index), reverse=True):
        components.append(Component("single", 1, (card,), powers[card.index]))
    return tuple(components)


def classify_lead(ctx: TrumpContext, cards: Sequence[Card]) -> Shape:
    """The shape of a lead; `IllegalPlayError("shengji.lead.mixed_suits")` if it mixes suits.

    >>> ctx = TrumpContext.of(Rank.EIGHT, Suit.CLUBS)
    >>> classify_lead(ctx, parse_cards("7H 7H 9H 9H")).kind
    'tractor'
    """
    if not cards:
        raise IllegalPlayError("shengji.lead.empty", "a lead needs at least one card")
    keys = ctx.suit_keys
    key = keys[cards[0].index]
    for card in cards:
        if keys[card.index] != key:
            raise IllegalPlayError(
                "shengji.lead.mixed_suits",
                f"lead {format_cards(cards)} mixes suits",
                cards=format_cards(cards),
            )
    components = decompose(ctx, cards)
    if len(components) == 1:
        kind = components[0].kind
    else:
        kind = "throw"
    suit = None if key == TRUMP else SUITS[key]
    return Shape(kind, suit, components, len(cards), key)


# -- matching a play onto the lead ---------------------------------------------------------


def tractors_of(
    ctx: TrumpContext, key: int, avail: Sequence[Card], length: int
) -> Iterator[tuple[int, ...]]:
    """Every tractor of exactly `length` pairs among the pairs `avail` (as index tuples)."""
    strengths = ctx.strengths
    by_strength: dict[int, list[int]] = {}
    for i, card in enumerate(avail):
        by_strength.setdefault(strengths[card.index], []).append(i)

    def extend(chain: tuple[int, ...], s: int) -> Iterator[tuple[int, ...]]:
        if len(chain) == length:
            yield chain
            return
        below = s - 1
        if below in by_strength and ctx.linked(key, below, s):
            for i in by_strength[below]:
                yield from extend(chain + (i,), below)

    for s, indexes in by_strength.items():
        for i in indexes:
            yield from extend((i,), s)


def _mapping_tops(
    ctx: TrumpContext, cards: Sequence[Card], codes: Sequence[int]
) -> Iterator[dict[int, int]]:
    """For each way of mapping `cards` onto a lead with component `codes`, its top per type.

    `cards` must be of one suit key and as many as the lead. Yields {code: top power}.
    """
    powers = ctx.powers
    key = ctx.suit_keys[cards[0].index]
    structural = sorted((c for c in codes if c > 0), reverse=True)
    n_singles = sum(1 for c in codes if c == 0)
    pairs, _ = split_pairs(cards)
    if sum(structural) > len(pairs):
        return
    all_top = max(powers[c.index] for c in cards)

    def rec(
        i: int, avail: list[Card], used: list[Card], tops: dict[int, int], floor: int
    ) -> Iterator[dict[int, int]]:
        if i == len(structural):
            if n_singles:
                result = dict(tops)
                if not used:
                    result[0] = all_top
                else:
                    gone = {c.index for c in used}
                    result[0] = max(
                        (powers[c.index] for c in cards if c.index not in gone), default=-1
                    )
                yield result
            else:
                yield tops
            return
        code = structural[i]
        same_as_previous = i > 0 and structural[i - 1] == code
        start = floor if same_as_previous else 0
        if code == 1:
            for j in range(start, len(avail)):
                card = avail[j]
                top = powers[card.index]
                new_tops = dict(tops)
                if top > new_tops.get(1, -1):
                    new_tops[1] = top
                rest = avail[:j] + avail[j + 1 :]
                # the next identical requirement picks from index j on (combinations)
                yield from rec(i + 1, rest, used + [card], new_tops, j)
        else:
            for chain in tractors_of(ctx, key, avail, code):
                if same_as_previous and min(chain) < start:
                    continue
                top = powers[avail[chain[0]].index]
                new_tops = dict(tops)
                if top > new_tops.get(code, -1):
                    new_tops[code] = top
                chosen = set(chain)
                rest = [card for j, card in enumerate(avail) if j not in chosen]
                yield from rec(
                    i + 1, rest, used + [avail[j] for j in chain], new_tops, min(chain)
                )

    yield from rec(0, list(pairs), [], {}, 0)


def best_tops(ctx: TrumpContext, cards: Sequence[Card], codes: Sequence[int]) -> dict[int, int]:
    """The tops of the strongest mapping ({} if the cards do not qualify).

    Strongest = lexicographically highest, largest component type first: 6C6C 2C2C onto
    pair + two singles counts as pair 66 with singles 2 2, not as pair 22 with singles 66.
    """
    return _strongest(_mapping_tops(ctx, cards, codes), codes)


def _strongest(mappings: Iterable[dict[int, int]], codes: Sequence[int]) -> dict[int, int]:
    """The lexicographically strongest of some mappings' tops, largest type first."""
    order = sorted(set(codes), reverse=True)
    best: dict[int, int] = {}
    best_vector: list[int] = []
    for tops in mappings:
        vector = [tops[code] for code in order]
        if vector > best_vector:
            best, best_vector = tops, vector
    return best


def beats_tops(
    ctx: TrumpContext, cards: Sequence[Card], codes: Sequence[int], threshold: dict[int, int]
) -> bool:
    """True when some mapping of `cards` beats `threshold` in every component type (I-1)."""
    for tops in _mapping_tops(ctx, cards, codes):
        if all(tops[code] > top for code, top in threshold.items()):
            return True
    return False


def _pair_single_powers(
    powers: Sequence[int], cards: Sequence[Card]
) -> tuple[list[int], list[int]]:
    """Powers of the pairs (one entry each) and of the other cards, highest first."""
    pair_cards, single_cards = split_pairs(cards)
    pairs = sorted((powers[card.index] for card in pair_cards), reverse=True)
    singles = sorted((powers[card.index] for card in single_cards), reverse=True)
    return pairs, singles


def _flat_best(
    pairs: list[int], singles: list[int], n_pairs: int, n_singles: int
) -> dict[int, int]:
    """`best_tops` for a lead of pairs and singles only, without enumerating mappings.

    The strongest mapping takes the highest pair and otherwise the lowest pairs, keeping the
    highest remaining card for the singles.
    """
    tops: dict[int, int] = {}
    unchosen = pairs
    if n_pairs:
        tops[1] = pairs[0]
        unchosen = pairs[1 : len(pairs) - (n_pairs - 1)]
    if n_singles:
        top = singles[0] if singles else -1
        if unchosen and unchosen[0] > top:
            top = unchosen[0]
        tops[0] = top
    return tops


def _flat_beats(
    pairs: list[int], singles: list[int], n_pairs: int, n_singles: int, threshold: dict[int, int]
) -> bool:
    """`beats_tops` for a lead of pairs and singles only: try each pair as the high pair."""
    if len(pairs) < n_pairs:
        return False
    single_bar = threshold.get(0, -1)
    top_single = singles[0] if singles else -1
    if not n_pairs:
        return max(top_single, pairs[0] if pairs else -1) > single_bar
    pair_bar = threshold[1]
    for high in range(len(pairs)):
        if pairs[high] <= pair_bar:
            return False
        if not n_singles:
            return True
        rest = pairs[:high] + pairs[high + 1 :]
        unchosen = rest[: len(rest) - (n_pairs - 1)]
        if max(top_single, unchosen[0] if unchosen else -1) > single_bar:
            return True
    return False


# -- evaluation ------------------------------------------------------------------------------


def _is_tractor(ctx: TrumpContext, key: int, cards: Sequence[Card], length: int) -> int:
    """Top power if `cards` (2·length of suit `key`) are exactly a tractor, else -1."""
    indexes = sorted(c.index for c in cards)
    strengths = ctx.strengths
    tops: list[int] = []
    for i in range(0, len(indexes), 2):
        if indexes[i] != indexes[i + 1]:
            return -1
        tops.append(strengths[indexes[i]])
    tops.sort()
    for i in range(1, length):
        if not ctx.linked(key, tops[i - 1], tops[i]):
            return -1
    return tops[-1] + (16 if key == TRUMP else 0)


def _contender_key(
    keys: Sequence[int],
    play: Sequence[Card],
    size: int,
    led_key: int,
    seat: int,
    no_ruff_seat: int | None,
) -> int | None:
    """The suit key of a play that may compete for the trick, or None: it has the lead's
    size, is all of one suit, and that suit is the led one or trump (a ruff, unless `seat`
    is barred from ruffing)."""
    if len(play) != size:
        return None
    key = keys[play[0].index]
    if key != led_key and (key != TRUMP or seat == no_ruff_seat):
        return None
    if any(keys[c.index] != key for c in play):
        return None
    return key


def evaluate_trick(
    ctx: TrumpContext,
    leader: int,
    plays: Sequence[Sequence[Card]],
    *,
    no_ruff_seat: int | None = None,
) -> TrickOutcome:
    """Winner, points and shape of one trick; `plays` in play order starting with `leader`.

    A ruff by `no_ruff_seat` (union-2deck: the dealer's partner after a failed throw) cannot
    win. A lead mixing suits raises `IllegalPlayError("shengji.lead.mixed_suits")` (the deal
    reports it and lets the leader keep the trick).

    >>> ctx = TrumpContext.of(Rank.TWO, Suit.SPADES)
    >>> o = evaluate_trick(ctx, 1, [parse_cards("5H"), parse_cards("5H"), parse_cards("3S"),
    ...                             parse_cards("KH")])
    >>> o.winner, o.points, o.shape, o.won_with_trump
    (3, 20, 'single', True)
    """
    keys = ctx.suit_keys
    powers = ctx.powers
    lead_cards = plays[0]
    points = 0
    for play in plays:
        for card in play:
            points += card.points
    lead = classify_lead(ctx, lead_cards)
    led_key = lead.suit_key
    size = lead.size
    kind = lead.kind
    best_position = 0
    best_key = led_key
    if kind == "single" or kind == "pair":
        best = lead.components[0].top
        for position in range(1, len(plays)):
            play = plays[position]
            if len(play) != size:
                continue
            card = play[0]
            if kind == "pair" and play[1] is not card:
                continue
            key = keys[card.index]
            if key != led_key:
                if key != TRUMP or (
                    no_ruff_seat is not None and (leader + position) % 4 == no_ruff_seat
                ):
                    continue
            power = powers[card.index]
            if power > best:
                best, best_position, best_key = power, position, key
    elif kind == "tractor":
        length = lead.components[0].length
        best = lead.components[0].top
        for position in range(1, len(plays)):
            play = plays[position]
            seat = (leader + position) % 4
            contender = _contender_key(keys, play, size, led_key, seat, no_ruff_seat)
            if contender is None:
                continue
            key = contender
            power = _is_tractor(ctx, key, play, length)
            if power > best:
                best, best_position, best_key = power, position, key
    else:
        codes = lead.codes
        flat = max(codes) <= 1  # pairs and singles only: no tractor to map
        if flat:
            n_pairs = codes.count(1)
            n_singles = len(codes) - n_pairs
            pp, sp = _pair_single_powers(powers, lead_cards)
            threshold = _flat_best(pp, sp, n_pairs, n_singles)
        else:
            threshold = best_tops(ctx, lead_cards, codes)
        for position in range(1, len(plays)):
            play = plays[position]
            seat = (leader + position) % 4
            contender = _contender_key(keys, play, size, led_key, seat, no_ruff_seat)
            if contender is None:
                continue
            key = contender
            if max(powers[c.index] for c in play) <= max(threshold.values()):
                continue  # its top card cannot beat the winner's strongest component type
            if flat:
                pp, sp = _pair_single_powers(powers, play)
                if _flat_beats(pp, sp, n_pairs, n_singles, threshold):
                    best_position, best_key = position, key
                    threshold = _flat_best(pp, sp, n_pairs, n_singles)
            else:
                mappings = list(_mapping_tops(ctx, play, codes))
                bar = threshold
                if any(all(tops[code] > top for code, top in bar.items()) for tops in mappings):
                    best_position, best_key = position, key
                    threshold = _strongest(mappings, codes)
    return TrickOutcome(
        (leader + best_position) % 4,
        points,
        kind,
        lead.last_trick_name,
        best_key == TRUMP,
        lead,
    )

