"""Simulator: a random but fully legal Shengji match as a table record.

108 cards are shuffled and dealt (4 × 25 + 8), the declaration phase is played by
`simulate_declaration_phase` (declare, overcall, 防反, flip, bury, re-bury), then legal
tricks until the hands are empty, now and then a failed throw (`throw_fail`) with its forced
play (pairs, tractors, throws nobody can beat, ruffs) by `random_lead` and
`legal_follow`. Each deal is replayed by the engine to find the next dealer and levels, so
the record replays without violations. Deterministic for a given seed.

>>> from referee.rulebooks import find_rulebook
>>> record = simulate_match(find_rulebook("eighty-rr"), 1)
>>> len(record["deals"]), len(record["deals"][0]["events"]) > 25
(4, True)
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from referee.cards import Card, parse_cards, two_decks
from referee.errors import InvalidRecordError
from referee.rulebooks import Rulebook
from referee.shengji.deal import replay_deal
from referee.shengji.declaration import DealSetup, simulate_declaration_phase
from referee.shengji.events import parse_events
from referee.shengji.follow import legal_follow, random_failed_throw, random_lead
from referee.shengji.match import MatchReplay
from referee.shengji.order import TrumpContext
from referee.shengji.tricks import evaluate_trick

__all__ = ["MAX_DEALS", "simulate_deal_events", "simulate_match"]

REBURY_RATE = 0.7  # share of deals whose bottom is re-chosen at random (points for 抠底)
FAILED_THROW_RATE = 0.03  # share of leads that are a failed throw (甩牌失败)
MAX_DEALS = 80  # a pass-A match that has not ended by then stops (record stays valid)
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
    leader = declared.dealer
    partner = (declared.dealer + 2) % 4
    while hands[leader]:
        others = [hands[(leader + offset) % 4] for offset in (1, 2, 3)]
        no_ruff: int | None = None
        failed = random_failed_throw(ctx, hands[leader], others, rng) if (
            rng.random() < FAILED_THROW_RATE
        ) else None
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
        else:
            lead = random_lead(ctx, hands[leader], others, rng)
        _remove(hands[leader], lead)
        plays = [lead]
        for offset in (1, 2, 3):
            seat = (leader + offset) % 4
            follow = legal_follow(ctx, lead, hands[seat], rng)
            _remove(hands[seat], follow)
            plays.append(follow)
        events.append(
            {"type": "trick", "leader": leader, "plays": [[str(c) for c in p] for p in plays]}
        )
        leader = evaluate_trick(ctx, leader, plays, no_ruff_seat=no_ruff).winner
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
