"""Simulator: a random but fully legal Shengji match as a table record.

108 cards are shuffled and dealt (4 × 25 + 8), the declaration phase is played by
`simulate_declaration_phase` (declare, overcall, 防反, flip, bury, re-bury), then legal
tricks until the hands are empty, now and then a failed throw (`throw_fail`) with its forced
play (pairs, tractors, throws nobody can beat, ruffs) by `random_lead` and
`legal_follow`. Each deal is replayed by the engine to find the next dealer and levels, so
the record replays without violations. Deterministic for a given seed.

Steering (choices among legal plays only): in about half the deals every seat keeps back
a pair (sometimes a tractor, or a pair with two cards of its suit) for the last trick and
plays the rest first whenever that is legal, and the endgame (the last `ENDGAME_CARDS`
cards) is tried up to `ENDGAME_TRIES` times until the last lead holds a pair or tractor,
so the bottom multiplier tables are exercised. In shuangkou-simple at level A the dealer
side keeps an A back and the endgame is tried until a dealer-side A wins the last trick
(硬A), so direct-mode matches end.

>>> from referee.rulebooks import find_rulebook
>>> record = simulate_match(find_rulebook("eighty-rr"), 1)
>>> len(record["deals"]), len(record["deals"][0]["events"]) > 25
(4, True)
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from referee.cards import Card, Rank, parse_cards, two_decks
from referee.errors import InvalidRecordError
from referee.rulebooks import Rulebook
from referee.shengji.deal import replay_deal
from referee.shengji.declaration import DealSetup, simulate_declaration_phase
from referee.shengji.events import parse_events
from referee.shengji.follow import (
    find_blocker,
    follow_problem,
    legal_follow,
    random_failed_throw,
    random_lead,
)
from referee.shengji.match import MatchReplay
from referee.shengji.order import TrumpContext
from referee.shengji.tricks import classify_lead, decompose, evaluate_trick, split_pairs

__all__ = ["MAX_DEALS", "simulate_deal_events", "simulate_match"]

REBURY_RATE = 0.7  # share of deals whose bottom is re-chosen at random (points for 抠底)
FAILED_THROW_RATE = 0.03  # share of leads that are a failed throw (甩牌失败)
MAX_DEALS = 80  # a pass-A match that has not ended by then stops (record stays valid)
SHAPED_LAST_RATE = 0.5  # share of deals steered to a multi-card last trick (bottom multipliers)
ENDGAME_CARDS = 10  # cards left in each hand when the endgame is steered
ENDGAME_TRIES = 24  # endgames tried from that point before the last one is kept
PLAYERS = ["赵", "钱", "孙", "李"]


def _remove(hand: Counter[Card], cards: tuple[Card, ...]) -> None:
    for card in cards:
        hand[card] -= 1
        if hand[card] == 0:
            del hand[card]


def _random_bury(
    ctx: TrumpContext, events: list[dict[str, Any]], hands: list[Counter[Card]], rng: random.Random
) -> None:
    """Replace the final bury by 8 random side-suit cards (often with points, for 抠底).

    The declaration simulator buries point-free cards; the burier's hand and the last
    `bury` event are rewritten together, never burying a card the seat showed.
    """
    bury = next((e for e in reversed(events) if e["type"] == "bury"), None)
    if bury is None:
        return
    seat = bury["seat"]
    shown: Counter[Card] = Counter()
    for event in events:
        if event["type"] in ("declare", "overcall", "reinforce") and event["seat"] == seat:
            shown |= Counter(parse_cards(event["cards"]))
    pool = hands[seat] + Counter(parse_cards(bury["cards"]))
    free = list((pool - shown).elements())
    side = [card for card in free if not ctx.is_trump(card)]
    choices = side if len(side) >= 8 else free
    if len(choices) < 8:  # pragma: no cover - 33 cards always leave 8
        return
    rng.shuffle(choices)
    buried = sorted(choices[:8], key=lambda card: card.index)
    pool.subtract(buried)
    hands[seat] = +pool
    bury["cards"] = [str(card) for card in buried]


def _whole_hand_lead(
    ctx: TrumpContext, hand: Counter[Card], others: list[Counter[Card]]
) -> tuple[Card, ...] | None:
    """The leader's whole hand, if it is one legal lead holding a pair (pair, tractor, or a
    throw with a pair that nobody can beat)."""
    cards = tuple(sorted(hand.elements(), key=lambda card: card.index))
    if len(cards) < 2 or len({ctx.suit_keys[card.index] for card in cards}) != 1:
        return None
    shape = classify_lead(ctx, cards)
    if shape.largest.kind == "single":
        return None
    if shape.kind == "throw" and any(
        find_blocker(ctx, shape, list(other.elements())) is not None for other in others
    ):
        return None
    return cards


def _reserve(
    ctx: TrumpContext, hands: list[Counter[Card]], dealer: int, goal: str, rng: random.Random
) -> list[Counter[Card]]:
    """Cards each seat keeps for the last trick when it legally can: for `shaped`, a pair or
    (sometimes) a tractor in every hand, so whoever leads last leads it; for `hard_a`, one A
    in each dealer-side hand."""
    reserved: list[Counter[Card]] = [Counter() for _ in range(4)]
    if goal == "hard_a":
        for seat in (dealer, (dealer + 2) % 4):
            aces = sorted((c for c in hands[seat] if c.rank is Rank.ACE), key=lambda c: c.index)
            if aces:
                reserved[seat][rng.choice(aces)] = 1
        return reserved
    if goal not in ("shaped", "tractor"):
        return reserved
    want_tractor = goal == "tractor"
    for seat, hand in enumerate(hands):
        tractors, suited = _blocks4(ctx, hand)
        pool = (tractors or suited) if want_tractor else []
        if not pool:
            cards = sorted(hand.elements(), key=lambda c: c.index)
            pool = [(card, card) for card in split_pairs(cards)[0]]
        if pool:
            reserved[seat] = Counter(rng.choice(pool))
    return reserved


def _blocks4(
    ctx: TrumpContext, hand: Counter[Card]
) -> tuple[list[tuple[Card, ...]], list[tuple[Card, ...]]]:
    """The hand's 2-pair tractors, and 4-card one-suit blocks made of a pair and the suit's
    two lowest other cards."""
    by_key: dict[int, list[Card]] = {}
    for card in sorted(hand.elements(), key=lambda c: (ctx.strength(c), c.index)):
        by_key.setdefault(ctx.suit_keys[card.index], []).append(card)
    tractors: list[tuple[Card, ...]] = []
    suited: list[tuple[Card, ...]] = []
    for cards in by_key.values():
        for block in decompose(ctx, cards):
            if block.kind == "tractor" and len(block.cards) == 4:
                tractors.append(block.cards)
        for pair in split_pairs(cards)[0]:
            rest = [card for card in cards if card is not pair]
            if len(rest) >= 2:
                suited.append((pair, pair, rest[0], rest[1]))
    return tractors, suited


def _steered_lead(
    ctx: TrumpContext,
    hand: Counter[Card],
    others: list[Counter[Card]],
    rng: random.Random,
) -> tuple[Card, ...]:
    """Endgame lead from `hand` (the cards not kept back): mostly a single card that breaks
    no pair, from the shortest suit, so that hands narrow toward the kept cards."""
    in_suit: Counter[int] = Counter()
    for card, count in hand.items():
        in_suit[ctx.suit_keys[card.index]] += count
    if rng.random() < 0.85:
        loose = [
            (in_suit[ctx.suit_keys[card.index]], card.index, card)
            for card, count in hand.items()
            if count == 1
        ]
        if loose:
            shortest = min(total for total, _, _ in loose)
            return (rng.choice([card for total, _, card in sorted(loose) if total == shortest]),)
    return random_lead(ctx, hand, others, rng)


def _endgame_score(
    ctx: TrumpContext, tail: list[dict[str, Any]], dealer: int, goal: str
) -> int:
    """How well the last trick meets the steering goal: 2 fully, 1 partly (a pair where a
    tractor was wanted), 0 not."""
    if not tail or not goal:
        return 2
    last = tail[-1]
    plays = [parse_cards(play) for play in last["plays"]]
    if goal == "hard_a":
        winner = evaluate_trick(ctx, last["leader"], plays).winner
        won_with = plays[(winner - last["leader"]) % 4]
        return 2 if winner % 2 == dealer % 2 and any(c.rank is Rank.ACE for c in won_with) else 0
    largest = classify_lead(ctx, plays[0]).largest.kind
    if largest == "single":
        return 0
    return 2 if goal == "shaped" or largest == "tractor" else 1


def _play_tricks(
    rulebook: Rulebook,
    ctx: TrumpContext,
    events: list[dict[str, Any]],
    hands: list[Counter[Card]],
    leader: int,
    dealer: int,
    rng: random.Random,
    reserved: list[Counter[Card]],
    *,
    stop: int = 0,
    steer: bool = False,
) -> int:
    """Play legal tricks into `events` (hands shrink) until each hand holds at most `stop`
    cards; returns the next leader.

    Each seat plays from the cards it does not keep back (`reserved`) whenever that is a
    legal play; else from the whole hand (and keeps back what is left). With `steer` the
    leads are `_steered_lead`s and the leader leads its whole hand when that is one legal
    lead with a pair.
    """
    partner = (dealer + 2) % 4
    strict = rulebook.follow_tractor_strict
    while hands[leader].total() > stop:
        others = [hands[(leader + offset) % 4] for offset in (1, 2, 3)]
        free = hands[leader] - reserved[leader] or hands[leader]
        no_ruff: int | None = None
        failed = random_failed_throw(ctx, free, others, rng) if (
            not steer and rng.random() < FAILED_THROW_RATE
        ) else None
        whole = _whole_hand_lead(ctx, hands[leader], others) if steer else None
        if failed is not None:
            attempted, position, blocking, lead = failed
            events.append({
                "type": "throw_fail",
                "seat": leader,
                "attempted": [str(c) for c in attempted],
                "blocker": (leader + 1 + position) % 4,
                "blocking": [str(c) for c in blocking],
            })
            if rulebook.failed_throw_partner_may_not_ruff:
                no_ruff = partner
        elif whole is not None:
            lead = whole
        elif steer:
            lead = _steered_lead(ctx, free, others, rng)
        else:
            lead = random_lead(ctx, free, others, rng)
        shape = classify_lead(ctx, lead)
        plays = [lead]
        _remove(hands[leader], lead)
        for offset in (1, 2, 3):
            seat = (leader + offset) % 4
            hand = hands[seat]
            follow: tuple[Card, ...] | None = None
            spare = hand - reserved[seat]
            if reserved[seat] and spare.total() >= len(lead):
                follow = legal_follow(ctx, lead, spare, rng)
                if follow_problem(ctx, shape, list(hand.elements()), follow, strict) is not None:
                    follow = None
            if follow is None:
                follow = legal_follow(ctx, lead, hand, rng)
            _remove(hand, follow)
            plays.append(follow)
        for seat in range(4):
            reserved[seat] &= hands[seat]
        events.append(
            {"type": "trick", "leader": leader, "plays": [[str(c) for c in p] for p in plays]}
        )
        leader = evaluate_trick(ctx, leader, plays, no_ruff_seat=no_ruff).winner
    return leader


def simulate_deal_events(
    rulebook: Rulebook, setup: DealSetup, rng: random.Random
) -> tuple[list[dict[str, Any]], bool]:
    """(JSON events, redeal) of one random legal deal for `setup`."""
    for _attempt in range(20):
        cards = two_decks()
        rng.shuffle(cards)
        hands = [Counter(cards[seat * 25 : seat * 25 + 25]) for seat in range(4)]
        bottom = cards[100:]
        try:
            declared = simulate_declaration_phase(rulebook, setup, hands, bottom, rng)
        except InvalidRecordError:
            continue  # a declaration the simulator could not make legal: deal again
        break
    else:  # pragma: no cover - twenty failed deals in a row
        raise RuntimeError("the declaration simulator failed twenty deals in a row")
    events = list(declared.events)
    if declared.redeal:
        return events, True
    ctx = TrumpContext.of(declared.level, declared.trump_suit, rulebook.trump_chain)
    hands = declared.hands
    if rng.random() < REBURY_RATE:
        _random_bury(ctx, events, hands, rng)
    hard_a = rulebook.playing_a == "hard_a" and declared.level is Rank.ACE
    goal = "hard_a" if hard_a else ("shaped" if rng.random() < SHAPED_LAST_RATE else "")
    if goal == "shaped" and rng.random() < 0.4 and any(_blocks4(ctx, h)[0] for h in hands):
        goal = "tractor"
    dealer = declared.dealer
    reserved = _reserve(ctx, hands, dealer, goal, rng)
    leader = _play_tricks(
        rulebook, ctx, events, hands, dealer, dealer, rng, reserved, stop=ENDGAME_CARDS
    )
    # The endgame: tried several times from the same position, steered (legal plays only)
    # toward the goal: a last trick with a pair, or at A in shuangkou a hard A (硬A).
    kept: list[dict[str, Any]] = []
    best = -1
    for _try in range(ENDGAME_TRIES if goal else 1):
        tail: list[dict[str, Any]] = []
        trial = [Counter(hand) for hand in hands]
        keep_back = [Counter(cards) for cards in reserved]
        _play_tricks(
            rulebook, ctx, tail, trial, leader, dealer, rng, keep_back, steer=bool(goal)
        )
        score = _endgame_score(ctx, tail, dealer, goal)
        if score > best:
            kept, best = tail, score
        if score == 2:
            break
    events += kept
    return events, False


def simulate_match(rulebook: Rulebook, seed: int, deals: int | None = None) -> dict[str, Any]:
    """A complete table record (`table-record/1`) of a random legal match.

    Stops when the match ends by its rulebook, after `deals` deals if given, or after
    `MAX_DEALS`.
    """
    rng = random.Random(seed)
    replay = MatchReplay(rulebook)
    record: dict[str, Any] = {
        "format": "table-record/1",
        "game": "shengji",
        "rulebook": rulebook.name,
        "players": list(PLAYERS),
        "levels": list(replay.result.levels),
        "deals": [],
    }
    limit = MAX_DEALS if deals is None else min(deals, MAX_DEALS)
    non_default = rulebook.non_default_options()
    if non_default:
        record["options"] = {
            key: list(value) if isinstance(value, tuple) else value
            for key, value in non_default.items()
        }
    while not replay.result.finished and len(record["deals"]) < limit:
        first_drawer = rng.randrange(4) if replay.dealer is None else None
        setup = replay.setup(None, first_drawer)
        events, redeal = simulate_deal_events(rulebook, setup, rng)
        deal: dict[str, Any] = {}
        if first_drawer is not None:
            deal["first_drawer"] = first_drawer
        if redeal:
            deal["redeal"] = True
            setup = replay.setup(None, first_drawer, True)
        deal["events"] = events
        record["deals"].append(deal)
        replay.add(replay_deal(rulebook, setup, parse_events(events, setup.number)))
    return record
