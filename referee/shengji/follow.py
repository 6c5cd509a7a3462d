"""Hindsight checks of following and throwing, and random legal plays for the simulator.

The referee at a physical table never sees the hands, but every hand is known in
hindsight: a seat's hand at trick t is exactly the cards it plays at trick t and later (the
dealer's after the bury). So a revoke (藏张), a pair or tractor held but not played, or a
throw (甩牌) that should have failed are all provable from later tricks of the same deal.
Each violation names the trick that broke the rule (`event`) and the earliest trick whose
cards prove it (`proof_event`), both 0-based indexes into the deal's events.

>>> from referee.cards import Rank, Suit, parse_cards
>>> from referee.rulebooks import find_rulebook
>>> from referee.shengji.events import Trick
>>> ctx = TrumpContext.of(Rank.TWO, Suit.HEARTS)
>>> t1 = Trick(4, 0, (parse_cards("AS"), parse_cards("3C"), parse_cards("4S"), parse_cards("5S")))
>>> t2 = Trick(5, 0, (parse_cards("KD"), parse_cards("6S"), parse_cards("4D"), parse_cards("5D")))
>>> [(v.kind, v.event, v.seat, v.proof_event) for v in
...  hindsight_violations(ctx, find_rulebook("union-2deck"), [t1, t2], {})]
[('revoke', 4, 1, 5)]
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from referee.cards import Card, format_cards
from referee.errors import IllegalPlayError
from referee.rulebooks import Rulebook
from referee.shengji.events import ThrowFail, Trick
from referee.shengji.order import TRUMP, TrumpContext
from referee.shengji.tricks import (
    Component,
    Shape,
    classify_lead,
    decompose,
    split_pairs,
    tractors_of,
)
from referee.violations import Violation

__all__ = [
    "check_throw_fail",
    "find_blocker",
    "follow_problem",
    "hindsight_violations",
    "legal_follow",
    "random_failed_throw",
    "random_lead",
]


# -- tractor matching ---------------------------------------------------------------------


def _runs(ctx: TrumpContext, key: int, by_strength: Mapping[int, list[Card]]) -> list[list[int]]:
    """Maximal runs of linked strengths (ascending) among the strengths holding pairs."""
    ordered = sorted(by_strength)
    runs: list[list[int]] = []
    for s in ordered:
        if runs and ctx.linked(key, runs[-1][-1], s):
            runs[-1].append(s)
        else:
            runs.append([s])
    return runs


def _match_tractors(
    ctx: TrumpContext, key: int, pairs: Sequence[Card], lengths: Sequence[int], strict: bool
) -> tuple[int, int, list[list[Card]]]:
    """Greedy match of the lead's tractors (`lengths`, longest first) onto held `pairs`.

    Each lead tractor takes an exact-length tractor from the shortest run long enough; with
    `strict` (I-9 `follow_tractor_strict`) an unmatched one takes the longest shorter tractor.
    Returns (exact matches, pairs in matched tractors, the tractors taken, highest first).
    """
    by_strength: dict[int, list[Card]] = {}
    for card in sorted(pairs, key=lambda c: c.index):
        by_strength.setdefault(ctx.strengths[card.index], []).append(card)
    exact = total = 0
    taken: list[list[Card]] = []
    for length in lengths:
        runs = [r for r in _runs(ctx, key, by_strength) if len(r) >= 2]
        fitting = [r for r in runs if len(r) >= length]
        if fitting:
            run = min(fitting, key=len)[-length:]
            exact += 1
        elif strict and runs:
            run = max(runs, key=len)
        else:
            continue
        total += len(run)
        tractor: list[Card] = []
        for s in reversed(run):
            bucket = by_strength[s]
            tractor.append(bucket.pop(0))
            if not bucket:
                del by_strength[s]
        taken.append(tractor)
    return exact, total, taken


def _profile(
    ctx: TrumpContext, shape: Shape, cards: Sequence[Card], strict: bool
) -> tuple[int, int, int]:
    """(exact tractors, tractor pairs if strict, pairs) that `cards` offer towards the lead."""
    lengths = [c.length for c in shape.components if c.kind == "tractor"]
    needed_pairs = sum(c.length for c in shape.components if c.kind != "single")
    pairs, _ = split_pairs(cards)
    exact = total = 0
    if lengths and len(pairs) >= 2:
        exact, total, _ = _match_tractors(ctx, shape.suit_key, pairs, lengths, strict)
    return exact, total if strict else 0, min(needed_pairs, len(pairs))


def follow_problem(
    ctx: TrumpContext,
    shape: Shape,
    holding: Sequence[Card],
    play: Sequence[Card],
    strict: bool = False,
) -> str | None:
    """Why `play` is not a legal follow to `shape` from `holding` (which includes `play`).

    Returns None, `revoke` (led suit held but not followed), `tractor` or `pair`.

    >>> from referee.cards import Rank, Suit, parse_cards
    >>> ctx = TrumpContext.of(Rank.TWO, Suit.HEARTS)
    >>> shape = classify_lead(ctx, parse_cards("AS AS"))
    >>> follow_problem(ctx, shape, parse_cards("3S 3S 4S"), parse_cards("3S 4S"))
    'pair'
    """
    key = shape.suit_key
    keys = ctx.suit_keys
    held = [c for c in holding if keys[c.index] == key]
    played = [c for c in play if keys[c.index] == key]
    if len(played) < min(shape.size, len(held)):
        return "revoke"
    if shape.kind == "single" or len(held) < 2:
        return None
    need = _profile(ctx, shape, held, strict)
    if need == (0, 0, 0):
        return None
    got = _profile(ctx, shape, played, strict)
    if got[0] < need[0] or got[1] < need[1]:
        return "tractor"
    if got[2] < need[2]:
        return "pair"
    return None


# -- throws ---------------------------------------------------------------------------------


def find_blocker(
    ctx: TrumpContext, shape: Shape, cards: Sequence[Card]
) -> tuple[Component, tuple[Card, ...]] | None:
    """A component of the throw `shape` that `cards` beat, and the beating cards, or None.

    A throw fails when another seat holds, in its suit, a single higher than the lowest thrown
    single, a pair higher than the lowest thrown pair, or a tractor of the same length higher
    than the lowest thrown tractor of that length (a higher pair does not beat a tractor).

    >>> from referee.cards import Rank, Suit, parse_cards
    >>> ctx = TrumpContext.of(Rank.TWO, Suit.HEARTS)
    >>> shape = classify_lead(ctx, parse_cards("AS 10S"))
    >>> find_blocker(ctx, shape, parse_cards("QS 3S"))[1]
    (Card('QS'),)
    """
    key = shape.suit_key
    keys = ctx.suit_keys
    powers = ctx.powers
    mine = [c for c in cards if keys[c.index] == key]
    if not mine:
        return None
    lowest: dict[int, Component] = {}
    for component in shape.components:
        code = component.code
        if code not in lowest or component.top < lowest[code].top:
            lowest[code] = component
    pairs: list[Card] | None = None
    for code in sorted(lowest, reverse=True):
        component = lowest[code]
        if code == 0:
            top = max(mine, key=lambda c: powers[c.index])
            if powers[top.index] > component.top:
                return component, (top,)
            continue
        if pairs is None:
            pairs = split_pairs(mine)[0]
        if code == 1:
            higher = [c for c in pairs if powers[c.index] > component.top]
            if higher:
                top = max(higher, key=lambda c: powers[c.index])
                return component, (top, top)
            continue
        for chain in tractors_of(ctx, key, pairs, code):
            if powers[pairs[chain[0]].index] > component.top:
                return component, tuple(pairs[i] for i in chain for _ in (0, 1))
    return None


def _smallest(shape: Shape, code: int) -> Component:
    """The lowest component of type `code` in a throw (the forced play after it fails)."""
    return min((c for c in shape.components if c.code == code), key=lambda c: c.top)


def check_throw_fail(ctx: TrumpContext, throw_fail: ThrowFail, trick: Trick) -> list[Violation]:
    """Check a `throw_fail` event and the forced play in the `trick` that follows it.

    The attempted cards must be a throw; the blocker another seat (seed 000 第五条: "其她三家");
    the blocking cards of the throw's suit, forming a higher component of a thrown type; and
    the thrower then leads the smallest thrown component of a blocked type (seed 000 第十七条
    "按照任何一家手里有大牌种类继续出最小牌"). A wrong leader is the deal's `wrong_leader`.
    Whether the blocker really held the blocking cards is a hindsight check.

    >>> from referee.cards import Rank, Suit, parse_cards
    >>> ctx = TrumpContext.of(Rank.TWO, Suit.HEARTS)
    >>> tf = ThrowFail(5, 0, parse_cards("AS 10S"), 1, parse_cards("QS"))
    >>> t = Trick(6, 0, tuple(parse_cards(p) for p in ("AS", "3S", "4S", "5S")))
    >>> [v.kind for v in check_throw_fail(ctx, tf, t)]
    ['throw_fail_wrong_forced_play']
    """
    event = throw_fail.index
    seat = throw_fail.seat
    attempted = format_cards(throw_fail.attempted)

    def invalid(rule: str, detail: str) -> list[Violation]:
        return [
            Violation(
                "throw_fail_invalid",
                event,
                seat,
                rule_id=rule,
                detail=detail,
                cards=throw_fail.blocking,
            )
        ]

    try:
        shape = classify_lead(ctx, throw_fail.attempted)
    except IllegalPlayError:
        return invalid("shengji.throw.mixed_suits", f"attempted throw {attempted} mixes suits")
    if shape.kind != "throw":
        return invalid(
            "shengji.throw.not_a_throw",
            f"{attempted} is a {shape.kind}, not a throw: it cannot fail",
        )
    if throw_fail.blocker == seat:
        return invalid("shengji.throw.own_blocker", "a thrower cannot block their own throw")
    blocking = throw_fail.blocking
    keys = ctx.suit_keys
    if not blocking or any(keys[c.index] != shape.suit_key for c in blocking):
        return invalid(
            "shengji.throw.blocking_suit",
            f"blocking cards {format_cards(blocking)} are not all of the thrown suit "
            f"({ctx.describe_suit(shape.suit_key)})",
        )
    blocked_codes = []
    for code in sorted({c.code for c in shape.components}, reverse=True):
        if find_blocker(ctx, _only(shape, code), blocking) is not None:
            blocked_codes.append(code)
    if not blocked_codes:
        return invalid(
            "shengji.throw.not_beaten",
            f"{format_cards(blocking)} does not beat any component of {attempted}",
        )
    if trick.leader != seat:
        return []
    lead = Counter(trick.plays[0])
    allowed = [_smallest(shape, code) for code in blocked_codes]
    if any(Counter(c.cards) == lead for c in allowed):
        return []
    wanted = " or ".join(f"{format_cards(c.cards)} ({c.name})" for c in allowed)
    return [
        Violation(
            "throw_fail_wrong_forced_play",
            trick.index,
            seat,
            proof_event=event,
            rule_id="shengji.throw.forced_play",
            detail=f"after the failed throw {attempted} seat {seat} must lead {wanted}, "
            f"not {format_cards(trick.plays[0])}",
            cards=tuple(trick.plays[0]),
        )
    ]


def _only(shape: Shape, code: int) -> Shape:
    """The throw restricted to its components of one type (to test that type alone)."""
    parts = tuple(c for c in shape.components if c.code == code)
    return Shape(shape.kind, shape.suit, parts, sum(len(c.cards) for c in parts), shape.suit_key)


# -- hindsight ------------------------------------------------------------------------------


def hindsight_violations(
    ctx: TrumpContext,
    rulebook: Rulebook,
    tricks: Sequence[Trick],
    throw_fails: Mapping[int, ThrowFail],
) -> list[Violation]:
    """Revokes, pairs/tractors not followed, throws that should have failed, wrong counts.

    `tricks` are the deal's tricks in order; `throw_fails` maps a trick's event index to the
    `throw_fail` just before it (that trick's lead is the forced play, not a throw). When the
    deal is complete (25 cards a seat), a blocker who never had the blocking cards, or a
    thrower who never had the attempted ones, is reported too.
    """
    strict = rulebook.follow_tractor_strict
    keys = ctx.suit_keys
    # plays[seat][t]: the cards `seat` played at trick position t.
    plays: list[list[tuple[Card, ...]]] = [[] for _ in range(4)]
    for trick in tricks:
        row: list[tuple[Card, ...]] = [()] * 4
        for position, play in enumerate(trick.plays):
            row[(trick.leader + position) % 4] = tuple(play)
        for seat in range(4):
            plays[seat].append(row[seat])
    count = len(tricks)
    # last[seat][key]: the last trick position where `seat` played a card of suit `key`.
    last = [[-1] * 5 for _ in range(4)]
    for seat in range(4):
        for t, play in enumerate(plays[seat]):
            for card in play:
                last[seat][keys[card.index]] = t

    def holding(seat: int, t: int, until: int, key: int) -> list[Card]:
        return [
            c for u in range(t, until + 1) for c in plays[seat][u] if keys[c.index] == key
        ]

    violations: list[Violation] = []
    for t, trick in enumerate(tricks):
        lead = tuple(trick.plays[0])
        if not lead:
            continue
        try:
            shape = classify_lead(ctx, lead)
        except IllegalPlayError:
            continue  # the deal reports a lead mixing suits
        key = shape.suit_key
        size = shape.size
        for position in range(1, len(trick.plays)):
            seat = (trick.leader + position) % 4
            play = tuple(trick.plays[position])
            if len(play) != size:
                violations.append(
                    Violation(
                        "wrong_count",
                        trick.index,
                        seat,
                        rule_id="shengji.follow.count",
                        detail=f"played {len(play)} cards ({format_cards(play)}) to a lead of "
                        f"{size}",
                        cards=play,
                    )
                )
                continue
            if last[seat][key] <= t:
                continue  # nothing of the led suit later: the play was all the seat held
            if all(keys[c.index] == key for c in play) and (
                shape.kind == "single" or (shape.kind == "pair" and play[0] is play[1])
            ):
                continue  # followed with the suit and, for a pair, with a pair
            full = holding(seat, t, count - 1, key)
            problem = follow_problem(ctx, shape, full, play, strict)
            if problem is None:
                continue
            # The earliest trick whose cards already prove the problem.
            proof = t
            for until in range(t, count):
                if follow_problem(ctx, shape, holding(seat, t, until, key), play, strict):
                    proof = until
                    break
            violations.append(_follow_violation(ctx, problem, trick, tricks[proof], seat,
                                                shape, play, full))
        if shape.kind == "throw" and trick.index not in throw_fails:
            found = _throw_blocker(ctx, shape, trick, t, tricks, holding)
            if found is not None:
                violations.append(found)
    if all(sum(len(p) for p in plays[seat]) == 25 for seat in range(4)) and tricks:
        violations.extend(_throw_fail_holdings(ctx, tricks, throw_fails, plays))
    return violations


def _follow_violation(
    ctx: TrumpContext,
    problem: str,
    trick: Trick,
    proof: Trick,
    seat: int,
    shape: Shape,
    play: tuple[Card, ...],
    full: Sequence[Card],
) -> Violation:
    suit = ctx.describe_suit(shape.suit_key)
    led = format_cards(trick.plays[0])
    played = format_cards(play)
    later = Counter(full) - Counter(play)
    kept = format_cards(sorted(later.elements(), key=ctx.sort_key, reverse=True))
    if problem == "revoke":
        return Violation(
            "revoke",
            trick.index,
            seat,
            proof_event=proof.index,
            rule_id="shengji.follow.suit",
            detail=f"to {led} seat {seat} played {played} while still holding {suit} "
            f"({kept}, played later)",
            cards=play,
        )
    what = "tractor" if problem == "tractor" else "pair"
    return Violation(
        "pair_not_followed",
        trick.index,
        seat,
        proof_event=proof.index,
        rule_id=f"shengji.follow.{what}",
        detail=f"to {led} ({shape.kind}) seat {seat} played {played} without the {what} it "
        f"held: {suit} {kept} were played later",
        cards=play,
    )


def _throw_blocker(
    ctx: TrumpContext,
    shape: Shape,
    trick: Trick,
    t: int,
    tricks: Sequence[Trick],
    holding: Callable[[int, int, int, int], list[Card]],
) -> Violation | None:
    """A stood throw that another seat could have beaten, proved at the earliest trick."""
    thrower = trick.leader
    best: tuple[int, int, Component, tuple[Card, ...]] | None = None
    for other in range(4):
        if other == thrower:
            continue
        full = holding(other, t, len(tricks) - 1, shape.suit_key)
        if find_blocker(ctx, shape, full) is None:
            continue
        for until in range(t, len(tricks)):
            if best is not None and until >= best[0]:
                break
            found = find_blocker(ctx, shape, holding(other, t, until, shape.suit_key))
            if found is not None:
                best = (until, other, found[0], found[1])
                break
    if best is None:
        return None
    until, other, component, cards = best
    return Violation(
        "throw_should_fail",
        trick.index,
        thrower,
        proof_event=tricks[until].index,
        rule_id="shengji.throw.should_fail",
        detail=f"throw {format_cards(trick.plays[0])} stood, but seat {other} held "
        f"{format_cards(cards)} over the {component.name} {format_cards(component.cards)}",
        cards=cards,
    )


def _throw_fail_holdings(
    ctx: TrumpContext,
    tricks: Sequence[Trick],
    throw_fails: Mapping[int, ThrowFail],
    plays: list[list[tuple[Card, ...]]],
) -> list[Violation]:
    """In a complete deal: the thrower and the blocker held the cards they showed."""
    violations: list[Violation] = []
    positions = {trick.index: t for t, trick in enumerate(tricks)}
    last_event = tricks[-1].index
    for trick_index, throw_fail in throw_fails.items():
        t = positions.get(trick_index)
        if t is None:
            continue
        for seat, shown, what in (
            (throw_fail.seat, throw_fail.attempted, "attempted"),
            (throw_fail.blocker, throw_fail.blocking, "blocking"),
        ):
            hand = Counter(c for u in range(t, len(tricks)) for c in plays[seat][u])
            missing = Counter(shown) - hand
            if missing:
                violations.append(
                    Violation(
                        "throw_fail_invalid",
                        throw_fail.index,
                        seat,
                        proof_event=last_event,
                        rule_id=f"shengji.throw.{what}_not_held",
                        detail=f"seat {seat} showed {format_cards(shown)} ({what}) but never "
                        f"played {format_cards(sorted(missing.elements(), key=ctx.sort_key))} "
                        "afterwards",
                        cards=tuple(missing.elements()),
                    )
                )
    return violations


# -- random legal play (simulator) ------------------------------------------------------------


def _cards_of(hand: Counter[Card], key: int, ctx: TrumpContext) -> list[Card]:
    keys = ctx.suit_keys
    return sorted(
        (c for c in hand.elements() if keys[c.index] == key), key=lambda c: c.index
    )


def _take(pool: list[Card], cards: Sequence[Card]) -> None:
    for card in cards:
        pool.remove(card)


def _structured(
    ctx: TrumpContext, shape: Shape, pool: list[Card], n: int, rng: random.Random
) -> list[Card]:
    """n cards from `pool` (one suit) keeping the lead's structure as far as held (I-9 strict)."""
    key = shape.suit_key
    pool = list(pool)
    chosen: list[Card] = []
    lengths = [c.length for c in shape.components if c.kind == "tractor"]
    needed_pairs = sum(c.length for c in shape.components if c.kind != "single")
    pairs, _ = split_pairs(pool)
    required = min(needed_pairs, len(pairs))
    used = 0
    if lengths and len(pairs) >= 2:
        _, _, taken = _match_tractors(ctx, key, pairs, lengths, True)
        for tractor in taken:
            for card in tractor:
                chosen += [card, card]
                _take(pool, (card, card))
                pairs.remove(card)
            used += len(tractor)
    rng.shuffle(pairs)
    for card in pairs[: max(0, required - used)]:
        chosen += [card, card]
        _take(pool, (card, card))
    rng.shuffle(pool)
    chosen += pool[: n - len(chosen)]
    return chosen


def legal_follow(
    ctx: TrumpContext, lead: Sequence[Card], hand: Counter[Card], rng: random.Random
) -> tuple[Card, ...]:
    """A random follow to `lead` from `hand` that obeys every follow rule (also I-9 strict).

    A seat void in the led side suit often ruffs, keeping the lead's shape when it can.

    >>> from referee.cards import Rank, Suit, parse_cards
    >>> ctx = TrumpContext.of(Rank.TWO, Suit.HEARTS)
    >>> legal_follow(ctx, parse_cards("AS AS"), Counter(parse_cards("3S 3S 4S 5D")),
    ...              random.Random(1))
    (Card('3S'), Card('3S'))
    """
    shape = classify_lead(ctx, lead)
    n = shape.size
    key = shape.suit_key
    suit_cards = _cards_of(hand, key, ctx)
    if len(suit_cards) > n:
        return tuple(_structured(ctx, shape, suit_cards, n, rng))
    play = list(suit_cards)
    rest = sorted((hand - Counter(suit_cards)).elements(), key=lambda c: c.index)
    if not play and key != TRUMP and rng.random() < 0.7:
        trumps = _cards_of(hand, TRUMP, ctx)
        if len(trumps) >= n:
            ruff_shape = Shape(shape.kind, None, shape.components, n, TRUMP)
            return tuple(_structured(ctx, ruff_shape, trumps, n, rng))
    rng.shuffle(rest)
    play += rest[: n - len(play)]
    return tuple(play)


def _valid_throw(
    ctx: TrumpContext, cards: Sequence[Card], others: Sequence[Counter[Card]]
) -> bool:
    shape = classify_lead(ctx, cards)
    if shape.kind != "throw":
        return False
    return all(find_blocker(ctx, shape, list(other.elements())) is None for other in others)


def random_lead(
    ctx: TrumpContext,
    hand: Counter[Card],
    others: Sequence[Counter[Card]],
    rng: random.Random,
) -> tuple[Card, ...]:
    """A random legal lead: single, pair, tractor, a throw nobody in `others` can beat, or a
    lead in a suit some other seat is void in (to provoke a ruff).

    >>> from referee.cards import Rank, Suit, parse_cards
    >>> ctx = TrumpContext.of(Rank.TWO, Suit.HEARTS)
    >>> random_lead(ctx, Counter(parse_cards("AS")), [Counter(), Counter(), Counter()],
    ...             random.Random(0))
    (Card('AS'),)
    """
    keys = ctx.suit_keys
    by_key: dict[int, list[Card]] = {}
    for card in sorted(hand.elements(), key=lambda c: c.index):
        by_key.setdefault(keys[card.index], []).append(card)
    suits = sorted(by_key)
    roll = rng.random()
    if roll < 0.2:
        # A throw of cards nobody can beat, in any suit that offers one.
        throws = [t for k in suits if (t := _master_throw(ctx, by_key[k], others, rng))]
        if throws:
            return rng.choice(throws)
    elif roll < 0.35:
        voids = [
            k for k in suits
            if k != TRUMP and any(not _cards_of(other, k, ctx) for other in others)
        ]
        if voids:
            suits = [rng.choice(voids)]  # provoke a ruff
    tractors = [c for k in suits for c in decompose(ctx, by_key[k]) if c.kind == "tractor"]
    if tractors and rng.random() < 0.6:
        return rng.choice(tractors).cards
    pairs = [card for k in suits for card in split_pairs(by_key[k])[0]]
    if pairs and rng.random() < 0.4:
        card = rng.choice(pairs)
        return (card, card)
    return (rng.choice(by_key[rng.choice(suits)]),)


def _master_throw(
    ctx: TrumpContext, cards: list[Card], others: Sequence[Counter[Card]], rng: random.Random
) -> tuple[Card, ...] | None:
    """Some of `cards` (one suit) that make a throw none of `others` can beat, or None."""
    if len(cards) < 2:
        return None
    powers = ctx.powers
    key = ctx.suit_keys[cards[0].index]
    theirs = [_cards_of(other, key, ctx) for other in others]
    top_single = max((powers[c.index] for hand in theirs for c in hand), default=-1)
    top_pair = max(
        (powers[c.index] for hand in theirs for c in split_pairs(hand)[0]), default=-1
    )
    pairs, singles = split_pairs(cards)
    candidate = [c for c in singles if powers[c.index] > top_single]
    for card in pairs:
        if powers[card.index] > top_pair:
            candidate += [card, card]
        elif powers[card.index] > top_single:
            candidate.append(card)
    if len(candidate) < 2:
        return None
    picked = [c for c in candidate if rng.random() < 0.8]
    if len(picked) >= 2 and _valid_throw(ctx, picked, others):
        return tuple(sorted(picked, key=ctx.sort_key, reverse=True))
    return None


def random_failed_throw(
    ctx: TrumpContext,
    hand: Counter[Card],
    others: Sequence[Counter[Card]],
    rng: random.Random,
) -> tuple[tuple[Card, ...], int, tuple[Card, ...], tuple[Card, ...]] | None:
    """A throw from `hand` that one of `others` can beat, for simulating 甩牌失败, or None.

    Returns (attempted cards, position of the blocker in `others`, blocking cards, the forced
    lead: the smallest thrown component of the blocked type). `check_throw_fail` accepts it.

    >>> from referee.cards import Rank, Suit, parse_cards
    >>> ctx = TrumpContext.of(Rank.TWO, Suit.HEARTS)
    >>> random_failed_throw(ctx, Counter(parse_cards("AS 9S")), [Counter(parse_cards("KS")),
    ...                     Counter(), Counter()], random.Random(0))
    ((Card('AS'), Card('9S')), 0, (Card('KS'),), (Card('9S'),))
    """
    keys = ctx.suit_keys
    by_key: dict[int, list[Card]] = {}
    for card in sorted(hand.elements(), key=lambda c: c.index):
        by_key.setdefault(keys[card.index], []).append(card)
    suits = [k for k, cards in sorted(by_key.items()) if len(cards) >= 2]
    rng.shuffle(suits)
    for key in suits:
        cards = by_key[key]
        size = rng.randint(2, min(5, len(cards)))
        attempted = sorted(rng.sample(cards, size), key=ctx.sort_key, reverse=True)
        shape = classify_lead(ctx, attempted)
        if shape.kind != "throw":
            continue
        for position, other in enumerate(others):
            found = find_blocker(ctx, shape, sorted(other.elements(), key=lambda c: c.index))
            if found is not None:
                component, blocking = found
                forced = _smallest(shape, component.code).cards
                return tuple(attempted), position, blocking, forced
    return None
