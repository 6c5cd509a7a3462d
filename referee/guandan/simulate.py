"""Random but legal Guandan matches: shuffled deals, tribute, plays, reports, to the end.

The players are simple: the leader plays a random combination, followers beat the table
with their weakest fitting combination (bombs now and then) or pass, and partners rarely
beat each other. Every play is checked with the same `choose_reading` the replay uses, so
a simulated record replays without violations.

>>> from referee.rulebooks import find_rulebook
>>> doc = simulate_guandan(find_rulebook("guandan-lyg"), 1)
>>> doc["game"], len(doc["deals"]) > 0
('guandan', True)
"""

from __future__ import annotations

import random
from typing import Any

from referee.cards import BIG_JOKER, Card, Rank, two_decks
from referee.guandan.combos import Combo, choose_reading, power, readings
from referee.guandan.deal import partner
from referee.guandan.match import GuandanMatch
from referee.rulebooks import Rulebook

__all__ = ["simulate_guandan"]

MAX_DEALS = 80  # a match still running after this many deals ends by the clock (time_up)
_RANK_OF_VALUE = {rank.natural: rank for rank in Rank}


def simulate_guandan(rulebook: Rulebook, seed: int) -> dict[str, Any]:
    """A complete, legal Guandan table record for `seed` (deterministic)."""
    rng = random.Random(seed)
    doc: dict[str, Any] = {
        "format": "table-record/1",
        "game": "guandan",
        "rulebook": rulebook.name,
        "players": ["东", "南", "西", "北"],
        "levels": ["2", "2"],
        "on_table": 0,
        "deals": [],
    }
    match = GuandanMatch(rulebook)
    while not match.finished:
        if len(doc["deals"]) >= MAX_DEALS:
            doc["time_up"] = True
            break
        duties = match.duties.to_json() if match.duties is not None else None
        deal: dict[str, Any] = {"events": []}
        if duties is None:
            deal["leader"] = rng.randrange(4)
        _simulate_deal(rulebook, match.level, duties, deal, rng)
        doc["deals"].append(deal)
        match.add_deal(deal)
    return doc


def _simulate_deal(
    rulebook: Rulebook,
    level: Rank,
    duties: dict[str, Any] | None,
    deal: dict[str, Any],
    rng: random.Random,
) -> None:
    cards = two_decks()
    rng.shuffle(cards)
    hands = [cards[i * 27 : (i + 1) * 27] for i in range(4)]
    events: list[dict[str, Any]] = deal["events"]
    leader = deal.get("leader", 0)
    if duties is not None:
        leader = _tribute(rulebook, level, duties, hands, events, rng)
    _play(rulebook, level, leader, hands, events, rng)


def _is_wild(card: Card, level: Rank) -> bool:
    return card.rank is level and card.suit is not None and card.suit.value == "H"


def _tribute(
    rulebook: Rulebook,
    level: Rank,
    duties: dict[str, Any],
    hands: list[list[Card]],
    events: list[dict[str, Any]],
    rng: random.Random,
) -> int:
    payers: list[int] = duties["payers"]
    receivers: list[int] = duties["receivers"]
    first: int = duties["first"]
    jokers = sum(hand.count(BIG_JOKER) for seat, hand in enumerate(hands) if seat in payers)
    if jokers >= 2:  # 抗贡: the paying side shows both big jokers; the first player leads
        for seat in payers:
            shown = [c for c in hands[seat] if c is BIG_JOKER]
            if shown:
                events.append({"type": "anti_tribute", "seat": seat, "cards": [str(c) for c in shown]})
        return first
    gifts = []
    for seat in payers:
        # I-12: the highest card, the ♥ level wilds excluded.
        candidates = [c for c in hands[seat] if not _is_wild(c, level)]
        best = max(power(c.rank, level) for c in candidates)
        card = rng.choice([c for c in candidates if power(c.rank, level) == best])
        gifts.append((best, seat, card))
    if len(gifts) == 2 and gifts[1][0] > gifts[0][0]:
        gifts.reverse()
    pairs = [(seat, receivers[i], card) for i, (_, seat, card) in enumerate(gifts)]
    for giver, receiver, card in pairs:
        hands[giver].remove(card)
        hands[receiver].append(card)
        events.append({"type": "tribute", "from": giver, "to": receiver, "card": str(card)})
    limit = int(Rank(rulebook.guandan_return_max_rank).natural)
    for giver, receiver, _ in pairs:
        low = [
            c for c in hands[receiver]
            if not c.is_joker and c.rank.natural <= limit and not _is_wild(c, level)
        ]
        back = rng.choice(low)
        hands[receiver].remove(back)
        hands[giver].append(back)
        events.append({"type": "return", "from": receiver, "to": giver, "card": str(back)})
    if len(gifts) == 2 and gifts[0][0] == gifts[1][0]:
        return (first + 1) % 4
    return gifts[0][1]


def _candidates(hand: list[Card], level: Rank) -> list[tuple[Card, ...]]:
    """Plausible combinations in a hand (not exhaustive: enough for a lively game)."""
    wilds = [c for c in hand if _is_wild(c, level)]
    groups: dict[int, list[Card]] = {}
    jokers: dict[Rank, list[Card]] = {}
    for card in hand:
        if card in wilds:
            continue
        if card.is_joker:
            jokers.setdefault(card.rank, []).append(card)
        else:
            groups.setdefault(card.rank.natural, []).append(card)
    found: list[tuple[Card, ...]] = []
    for cards in jokers.values():
        found.append((cards[0],))
        if len(cards) == 2:
            found.append(tuple(cards))
    if len(jokers.get(Rank.SMALL_JOKER, ())) == 2 and len(jokers.get(Rank.BIG_JOKER, ())) == 2:
        found.append(tuple(jokers[Rank.SMALL_JOKER] + jokers[Rank.BIG_JOKER]))
    if wilds:
        found.append((wilds[0],))
        if len(wilds) == 2:
            found.append(tuple(wilds))
    for cards in groups.values():
        found.append((cards[0],))
        for size in (2, 3, 4, 5, 6, 7, 8):
            if len(cards) >= size:
                found.append(tuple(cards[:size]))
            elif wilds and len(cards) + len(wilds) >= size and size >= 2:
                found.append(tuple(cards) + tuple(wilds[: size - len(cards)]))
    triples = [cards[:3] for cards in groups.values() if len(cards) >= 3]
    pairs = [cards[:2] for cards in groups.values() if len(cards) >= 2]
    for triple in triples:
        for pair in pairs:
            if pair[0].rank is not triple[0].rank:
                found.append(tuple(triple + pair))
                break
    values = set(groups)
    if 14 in values:
        values.add(1)

    def of(value: int) -> list[Card]:
        return groups[14 if value == 1 else value]

    for top in range(5, 15):
        window = range(top - 4, top + 1)
        missing = [v for v in window if v not in values]
        if not missing:
            found.append(tuple(of(v)[0] for v in window))
        elif len(missing) == 1 and wilds:
            found.append(tuple(of(v)[0] for v in window if v in values) + (wilds[0],))
    by_suit: dict[Any, dict[int, Card]] = {}
    for cards in groups.values():
        for card in cards:
            by_suit.setdefault(card.suit, {})[card.rank.natural] = card
    for suited in by_suit.values():  # straight flushes (同花顺), natural or with one wild
        if 14 in suited:
            suited[1] = suited[14]
        for top in range(5, 15):
            window = range(top - 4, top + 1)
            missing = [v for v in window if v not in suited]
            if not missing or (len(missing) == 1 and wilds):
                found.append(tuple(suited[v] for v in window if v in suited) + tuple(wilds[: len(missing)]))
    for top in range(3, 15):
        window = range(top - 2, top + 1)
        if all(v in values and len(of(v)) >= 2 for v in window):
            found.append(tuple(c for v in window for c in of(v)[:2]))
    for top in range(2, 15):
        window = range(top - 1, top + 1)
        if all(v in values and len(of(v)) >= 3 for v in window):
            found.append(tuple(c for v in window for c in of(v)[:3]))
    return found


def _choose(
    hand: list[Card],
    level: Rank,
    table: Combo | None,
    partner_holds: bool,
    max_bomb: int,
    rng: random.Random,
) -> tuple[tuple[Card, ...], Combo] | None:
    options = []
    for cards in _candidates(hand, level):
        combo, ok = choose_reading(readings(cards, level, max_bomb), table)
        if combo is not None and ok:
            options.append((cards, combo))
    if not options:
        return None
    if table is None:
        plain = [o for o in options if not o[1].bomb] or options
        if len(hand) <= 10 and rng.random() < 0.5:
            return max(plain, key=lambda o: len(o[0]))
        return rng.choice(plain)
    if partner_holds and rng.random() < 0.85:
        return None
    plain = [o for o in options if not o[1].bomb]
    if plain and rng.random() < 0.85:
        return min(plain, key=lambda o: o[1].power)
    if rng.random() < (0.6 if len(hand) <= 12 else 0.2):
        return min(options, key=lambda o: (o[1].bomb, o[1].power))
    return None


def _play(
    rulebook: Rulebook,
    level: Rank,
    leader: int,
    hands: list[list[Card]],
    events: list[dict[str, Any]],
    rng: random.Random,
) -> None:
    out: list[int] = []
    reported = [False] * 4
    seat = leader
    table: Combo | None = None
    table_seat: int | None = None
    passed: set[int] = set()

    def next_active(s: int) -> int:
        for step in (1, 2, 3):
            if hands[(s + step) % 4]:
                return (s + step) % 4
        return s

    for _ in range(2000):
        holder_is_partner = table_seat is not None and table_seat == partner(seat)
        choice = _choose(hands[seat], level, table, holder_is_partner, rulebook.guandan_max_bomb, rng)
        if table is None and choice is None:  # cannot happen with a non-empty hand
            choice = ((hands[seat][0],), readings((hands[seat][0],), level)[0])
        if choice is None:
            events.append({"type": "pass", "seat": seat})
            passed.add(seat)
        else:
            cards, combo = choice
            for card in cards:
                hands[seat].remove(card)
            events.append({"type": "play", "seat": seat, "cards": [str(c) for c in cards]})
            table, table_seat, passed = combo, seat, set()
            left = len(hands[seat])
            if 0 < left <= rulebook.guandan_report_at and not reported[seat]:
                reported[seat] = True
                events.append({"type": "report", "seat": seat, "remaining": left})
            if left == 0:
                out.append(seat)
                if partner(seat) in out or len(out) == 3:
                    return
        seat = next_active(seat)
        if table_seat is not None:
            waiting = [s for s in range(4) if hands[s] and s != table_seat]
            if all(s in passed for s in waiting):
                if hands[table_seat]:
                    seat = table_seat
                elif hands[partner(table_seat)]:
                    seat = partner(table_seat)
                table, table_seat, passed = None, None, set()
    raise RuntimeError("simulated deal did not end")  # pragma: no cover

