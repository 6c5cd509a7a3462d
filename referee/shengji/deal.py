"""Replay of one Shengji deal (一副牌): declarations, bury, tricks, penalties, result.

A deal's events split into the declaration phase (declare / overcall / reinforce / flip /
bury, resolved by `resolve_declarations`) and the play: `trick`, `throw_fail` and
`penalty` events, or one quick `result`. The replay checks what the referee logged
(wrong leader, wrong number of cards, hindsight revokes, failed throws, declared cards
played by another seat), scores the deal and works on a partial deal too: the result
then reports the state so far (`phase`, `next_leader`, `captured_so_far`).

Records that cannot be replayed at all (a third copy of a card, events out of order)
raise `InvalidRecordError`; a rule broken at the table is a `Violation`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.cards import Card, Rank, points_of
from referee.errors import IllegalPlayError, InvalidRecordError
from referee.rulebooks import Rulebook
from referee.shengji.declaration import DealSetup, DeclarationOutcome, resolve_declarations
from referee.shengji.events import (
    Bury,
    Declare,
    Event,
    Flip,
    Overcall,
    Pass,
    Penalty,
    QuickResult,
    Reinforce,
    ThrowFail,
    Trick,
)
from referee.shengji.follow import check_throw_fail, hindsight_violations
from referee.shengji.order import TrumpContext
from referee.shengji.scoring import (
    PENALTY_SILENT,
    DealScore,
    PenaltyCharge,
    apply_penalties,
    bottom_multiplier,
    default_penalty_points,
    level_index,
    next_dealer,
    promote,
    side_of,
)
from referee.shengji.tricks import evaluate_trick
from referee.violations import Violation

__all__ = ["CARDS_PER_DEAL", "DealResult", "TrickRecord", "replay_deal"]

CARDS_PER_DEAL = 100  # 4 × 25 cards played; the other 8 are the bottom
DECLARATION_TYPES = (Declare, Overcall, Pass, Reinforce, Flip, Bury)
PLAY_TYPES = (Trick, ThrowFail, QuickResult)


@dataclass(frozen=True, slots=True)
class TrickRecord:
    """One trick as scored: who led, who won, points and the lead's shape."""

    event: int
    leader: int
    winner: int
    points: int
    shape: str
    last_trick_shape: str
    won_with_trump: bool
    plays: tuple[tuple[Card, ...], ...]

    def to_json(self) -> dict[str, Any]:
        """The `tricks[]` entry of the deal result."""
        return {
            "event": self.event,
            "leader": self.leader,
            "winner": self.winner,
            "points": self.points,
            "shape": self.shape,
        }


@dataclass(slots=True)
class DealResult:
    """Everything a head referee computes for one deal (RECORD_FORMAT.md "Result")."""

    number: int
    levels: tuple[str, str]
    phase: str = "declaring"
    dealer: int | None = None
    level: str | None = None
    trump_suit: str | None = None
    declarations: list[dict[str, Any]] = field(default_factory=list)
    bottom_cards: tuple[Card, ...] = ()
    tricks: list[TrickRecord] = field(default_factory=list)
    captured: int = 0
    dealer_side_points: int = 0
    bottom_points: int | None = None
    bottom_multiplier: int | None = None
    bottom_won_by: str | None = None
    penalties: list[PenaltyCharge] = field(default_factory=list)
    defender_total: int | None = None
    score: DealScore | None = None
    levels_after: tuple[str, str] | None = None
    next_leader: int | None = None
    violations: list[Violation] = field(default_factory=list)
    forced: str | None = None
    talking: tuple[int, ...] = ()
    warnings: list[str] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        """True once the deal is scored (25 tricks or a quick result) or redealt."""
        return self.phase in ("finished", "redeal")

    def to_json(self) -> dict[str, Any]:
        """The deal result object of `table-result/1`, with the ARCHITECTURE.md extensions."""
        data: dict[str, Any] = {
            "number": self.number,
            "phase": self.phase,
            "dealer": self.dealer,
            "level": self.level,
            "trump": None
            if self.level is None
            else {"suit": self.trump_suit, "level": self.level},
            "declarations": [dict(row) for row in self.declarations],
            "bottom_cards": [str(card) for card in self.bottom_cards],
            "tricks": [trick.to_json() for trick in self.tricks],
            "captured": self.captured,
            "bottom": None
            if self.bottom_won_by is None
            else {
                "points": self.bottom_points,
                "multiplier": self.bottom_multiplier,
                "won_by": self.bottom_won_by,
            },
            "penalties": [charge.to_json() for charge in self.penalties],
            "defender_total": self.defender_total,
            "outcome": None if self.score is None else self.score.outcome_json(),
            "levels_after": list(self.levels_after or self.levels),
            "next_dealer": None if self.score is None else self.score.next_dealer,
            "next_leader": self.next_leader,
            "violations": [violation.to_json() for violation in self.violations],
        }
        if self.phase == "playing":
            data["captured_so_far"] = self.captured
        if self.score is not None and self.score.match_points is not None:
            data["match_points"] = list(self.score.match_points)
        if self.forced is not None:
            data["forced_outcome"] = self.forced
        if self.warnings:
            data["warnings"] = list(self.warnings)
        if self.score is not None:
            data["promotion"] = self.score.promotion_json()
        return data


def _winning_aces(ctx: TrumpContext, play: tuple[Card, ...]) -> int:
    """A's in a winning play whose largest card is an A (003 九.4: 硬A)."""
    if not play:
        return 0
    top = max(play, key=ctx.power)
    if top.rank is not Rank.ACE:
        return 0
    return sum(1 for card in play if card.rank is Rank.ACE)


class _Deal:
    """Mutable state of one replay; `replay_deal` is the public entry point."""

    def __init__(self, rulebook: Rulebook, setup: DealSetup, events: Sequence[Event]) -> None:
        self.rulebook = rulebook
        self.setup = setup
        self.events = events
        levels = (str(setup.levels[0]), str(setup.levels[1]))
        self.result = DealResult(number=setup.number, levels=levels)
        self.copies = [0] * 54  # copies seen of each card, by `Card.index`
        self.cards_played = 0
        self.seat_cards = [0, 0, 0, 0]  # cards each seat has played
        self.trick_events: list[Trick] = []
        self.throw_fails: dict[int, ThrowFail] = {}
        self.pending_throw_fail: ThrowFail | None = None
        self.auto_throw_charge: dict[int, int] = {}  # seat → position in penalties
        self.talking: list[int] = []
        self.quick: QuickResult | None = None
        self.quick_aces = 0
        self.expected_leader = 0

    def hands_empty(self) -> bool:
        """The deal's play is over: 100 cards played, or three seats are out of their 25
        cards and a wrong count (多牌少牌) left the fourth one card short."""
        seats = self.seat_cards
        if self.cards_played >= CARDS_PER_DEAL:
            return True
        return min(seats) >= 24 and sum(1 for count in seats if count >= 25) >= 3

    def fail(self, message: str, event: int | None, rule_id: str) -> InvalidRecordError:
        return InvalidRecordError(message, deal=self.setup.number, event=event, rule_id=rule_id)

    # -- declaration phase ---------------------------------------------------------------

    def declare(self) -> DeclarationOutcome | None:
        first_play = next(
            (e.index for e in self.events if isinstance(e, PLAY_TYPES)), len(self.events)
        )
        for event in self.events[first_play:]:
            if isinstance(event, DECLARATION_TYPES):
                kind = type(event).__name__.lower()
                raise self.fail(
                    f"{kind} after the play began (event {first_play})",
                    event.index,
                    "record.order.declaration_after_play",
                )
        outcome = resolve_declarations(self.rulebook, self.setup, self.events)
        result = self.result
        known = outcome.phase != "declaring" or self.setup.dealer is not None or (
            outcome.declarer is not None
        )
        result.dealer = outcome.dealer if known else None
        result.declarations = outcome.history_json()
        result.violations.extend(outcome.violations)
        if known:
            result.level = str(outcome.level)
            result.trump_suit = None if outcome.trump_suit is None else str(outcome.trump_suit)
        if outcome.redeal or outcome.phase == "redeal":
            if first_play < len(self.events):
                raise self.fail(
                    "play after a redeal (nobody declared)",
                    first_play,
                    "record.order.play_after_redeal",
                )
            result.phase = "redeal"
            return None
        if outcome.phase != "ready" or len(outcome.bottom) != 8:
            if first_play < len(self.events):
                raise self.fail(
                    "play before the bury (扣底)", first_play, "record.order.play_before_bury"
                )
            result.phase = "burying" if outcome.phase == "burying" else "declaring"
            return None
        result.bottom_cards = tuple(outcome.bottom)
        result.phase = "playing"
        result.next_leader = outcome.dealer
        bury_index = outcome.burials[-1].index if outcome.burials else None
        copies = self.copies
        for card in outcome.bottom:
            copies[card.index] += 1
            if copies[card.index] > 2:
                raise self.fail(f"more than two {card} (bottom)", bury_index, "record.card_copies")
        return outcome

    # -- play -------------------------------------------------------------------------------

    def charge(self, event: int, seat: int, kind: str, points: int, union_rule: bool = False,
               note: str = "") -> None:
        self.result.penalties.append(
            PenaltyCharge(event, seat, kind, points, side_of(seat), union_rule, note)
        )

    def play(self, outcome: DeclarationOutcome) -> None:
        rulebook = self.rulebook
        result = self.result
        dealer = outcome.dealer
        assert dealer is not None
        ctx = TrumpContext.of(Rank(outcome.level), outcome.trump_suit, rulebook.trump_chain)
        dealer_side = side_of(dealer)
        self.expected_leader = dealer
        done = False
        for event in self.events:
            if isinstance(event, DECLARATION_TYPES):
                continue
            if isinstance(event, Penalty):
                self.penalty(event)
                continue
            if done:
                what = "result" if isinstance(event, QuickResult) else type(event).__name__.lower()
                raise self.fail(
                    f"{what} after the deal was over", event.index, "record.order.after_deal_end"
                )
            if isinstance(event, ThrowFail):
                if self.pending_throw_fail is not None:
                    raise self.fail(
                        "throw_fail not followed by its trick",
                        event.index,
                        "record.order.throw_fail_without_trick",
                    )
                self.pending_throw_fail = event
                points, _ = default_penalty_points(rulebook, "failed_throw", len(event.attempted))
                self.auto_throw_charge[event.seat] = len(result.penalties)
                self.charge(event.index, event.seat, "failed_throw", points)
                continue
            if isinstance(event, QuickResult):
                if self.pending_throw_fail is not None:
                    raise self.fail(
                        "result after a throw_fail without its trick",
                        event.index,
                        "record.order.throw_fail_without_trick",
                    )
                self.quick = event
                done = True
                continue
            assert isinstance(event, Trick)
            throw_fail = self.pending_throw_fail
            self.pending_throw_fail = None
            if throw_fail is None:
                # A referee's failed_throw penalty replaces the automatic one only right
                # after the throw_fail or its forced trick.
                self.auto_throw_charge.clear()
            trick = self.trick(ctx, event, self.expected_leader, throw_fail, dealer)
            self.expected_leader = trick.winner
            result.next_leader = trick.winner
            if side_of(trick.winner) == dealer_side:
                result.dealer_side_points += trick.points
            else:
                result.captured += trick.points
            if self.hands_empty():
                done = True
        self.checks(ctx, outcome)
        if done:
            self.score(ctx, outcome)

    def trick(
        self,
        ctx: TrumpContext,
        event: Trick,
        expected_leader: int,
        throw_fail: ThrowFail | None,
        dealer: int,
    ) -> TrickRecord:
        result = self.result
        copies = self.copies
        for position, play in enumerate(event.plays):
            for card in play:
                copies[card.index] += 1
                if copies[card.index] > 2:
                    seat = event.seat_of(position)
                    raise self.fail(
                        f"a third {card} (seat {seat}): two decks hold two",
                        event.index,
                        "record.card_copies",
                    )
            self.cards_played += len(play)
            self.seat_cards[event.seat_of(position)] += len(play)
        if event.leader != expected_leader:
            result.violations.append(
                Violation(
                    "wrong_leader",
                    event.index,
                    event.leader,
                    rule_id="shengji.lead.wrong_leader",
                    detail=f"seat {expected_leader} should lead, seat {event.leader} led",
                )
            )
        if throw_fail is not None:
            self.throw_fails[event.index] = throw_fail
            if throw_fail.seat != event.leader:
                result.violations.append(
                    Violation(
                        "wrong_leader",
                        event.index,
                        event.leader,
                        proof_event=throw_fail.index,
                        rule_id="shengji.throw.forced_play_leader",
                        detail=f"seat {throw_fail.seat} failed the throw but seat "
                        f"{event.leader} led the forced play",
                    )
                )
        self.trick_events.append(event)
        no_ruff = None
        if throw_fail is not None and self.rulebook.failed_throw_partner_may_not_ruff:
            no_ruff = (dealer + 2) % 4  # 000 §17: 庄家同伴不得将吃和超将吃
        try:
            outcome = evaluate_trick(ctx, event.leader, event.plays, no_ruff_seat=no_ruff)
        except IllegalPlayError as error:
            points = sum(points_of(play) for play in event.plays)
            result.violations.append(
                Violation(
                    "illegal_lead",
                    event.index,
                    event.leader,
                    rule_id=error.rule_id,
                    detail=str(error),
                    cards=event.plays[0],
                )
            )
            record = TrickRecord(
                event.index, event.leader, event.leader, points, "throw", "throw:single",
                False, event.plays,
            )
        else:
            record = TrickRecord(
                event.index,
                event.leader,
                outcome.winner,
                outcome.points,
                outcome.shape,
                outcome.last_trick_shape,
                outcome.won_with_trump,
                event.plays,
            )
        result.tricks.append(record)
        return record

    def penalty(self, event: Penalty) -> None:
        rulebook = self.rulebook
        seat = event.seat
        if event.kind == "failed_throw" and seat in self.auto_throw_charge:
            # The referee's penalty for a logged throw_fail: it replaces the automatic one.
            position = self.auto_throw_charge.pop(seat)
            old = self.result.penalties[position]
            points = old.points if event.points is None else event.points
            self.result.penalties[position] = PenaltyCharge(
                event.index, seat, "failed_throw", points, side_of(seat), old.union_rule,
                event.note or old.note,
            )
            return
        default, union_rule = default_penalty_points(rulebook, event.kind)
        points = default if event.points is None else event.points
        self.charge(event.index, seat, event.kind, points, union_rule, event.note)
        if event.kind == "talking":
            self.talking.append(seat)
        if event.kind == "card_count":
            self.card_count(event)

    def card_count(self, event: Penalty) -> None:
        """多牌少牌: union-2deck loses the trick; shuangkou after the first lead: other side to A."""
        result = self.result
        if self.rulebook.promotion == "shuangkou":
            if result.tricks:
                result.forced = f"card_count:{side_of(event.seat)}"
            return
        silent = "card_count" in PENALTY_SILENT.get(self.rulebook.promotion, frozenset())
        if not result.tricks or (silent and not self.rulebook.silent_penalty_as_union):
            return
        last = result.tricks[-1]
        if side_of(last.winner) != side_of(event.seat):
            return
        # 000 §16: the offending side loses the trick; it goes to the offender's 下家.
        new_winner = (event.seat + 1) % 4
        result.tricks[-1] = TrickRecord(
            last.event, last.leader, new_winner, last.points, last.shape,
            last.last_trick_shape, last.won_with_trump, last.plays,
        )
        dealer = result.dealer
        assert dealer is not None
        if side_of(new_winner) == side_of(dealer):
            result.captured -= last.points
            result.dealer_side_points += last.points
        else:
            result.captured += last.points
            result.dealer_side_points -= last.points
        self.expected_leader = new_winner
        result.next_leader = new_winner

    def checks(self, ctx: TrumpContext, outcome: DeclarationOutcome) -> None:
        result = self.result
        if self.trick_events:
            result.violations.extend(
                hindsight_violations(ctx, self.rulebook, self.trick_events, self.throw_fails)
            )
        for trick_index, throw_fail in self.throw_fails.items():
            trick = next(t for t in self.trick_events if t.index == trick_index)
            result.violations.extend(check_throw_fail(ctx, throw_fail, trick))
        self.declared_cards(outcome)

    def declared_cards(self, outcome: DeclarationOutcome) -> None:
        """A card shown to declare is in that seat's hand: it cannot be played by another.

        The cards a seat showed (declare, overcall and 防反 together, as
        `DeclarationOutcome.declared` counts them) must be played by that seat; a seat that
        buried is not checked (the card may lie in the bottom). Reported once the other
        seats and the bottom leave too few copies, or at the end of the deal.
        """
        if not self.trick_events:
            return
        buriers = {e.seat for e in self.events if isinstance(e, Bury)}
        needed: dict[tuple[int, Card], int] = {}
        for seat, cards in outcome.declared.items():
            if seat not in buriers:
                for card, count in Counter(cards).items():
                    needed[(seat, card)] = count
        if not needed:
            return
        wanted = {card for _, card in needed}
        played_by: dict[tuple[int, Card], list[int]] = {}
        for trick in self.trick_events:
            for position, play in enumerate(trick.plays):
                for card in play:
                    if card in wanted:
                        key = (trick.seat_of(position), card)
                        played_by.setdefault(key, []).append(trick.index)
        bottom = Counter(outcome.bottom)
        finished = self.hands_empty()
        for (seat, card), count in needed.items():
            if len(played_by.get((seat, card), [])) >= count:
                continue
            elsewhere = sorted(
                (index, other)
                for other in range(4)
                if other != seat
                for index in played_by.get((other, card), [])
            )
            if len(elsewhere) + bottom[card] + count <= 2 and not finished:
                continue
            shown_at = max(
                (
                    e.index
                    for e in self.events
                    if isinstance(e, Declare | Overcall | Reinforce)
                    and e.seat == seat
                    and card in e.cards
                ),
                default=0,
            )
            event, player = elsewhere[-1] if elsewhere else (shown_at, seat)
            self.result.violations.append(
                Violation(
                    "declared_card_mismatch",
                    event,
                    player,
                    proof_event=shown_at,
                    rule_id="shengji.declare.card_not_in_hand",
                    detail=f"seat {seat} showed {card} but it was played by another seat",
                    cards=(card,),
                )
            )

    # -- scoring --------------------------------------------------------------------------

    def score(self, ctx: TrumpContext, outcome: DeclarationOutcome) -> None:
        rulebook = self.rulebook
        result = self.result
        dealer = outcome.dealer
        assert dealer is not None
        dealer_side = side_of(dealer)
        bottom_points = points_of(outcome.bottom)
        aces = 0
        if self.quick is not None:
            quick = self.quick
            result.captured = quick.defender_points
            result.dealer_side_points = max(0, 200 - quick.defender_points - bottom_points)
            if quick.bottom_points != bottom_points:
                # What the table agreed counts; the scoresheet shows the difference.
                result.warnings.append(
                    f"event {quick.index}: result says {quick.bottom_points} bottom points, "
                    f"the buried cards hold {bottom_points}"
                )
            bottom_points = quick.bottom_points
            winner = quick.last_trick_winner
            shape, trump, largest = (
                quick.last_trick_shape, quick.last_trick_trump, quick.last_trick_throw_largest,
            )
            result.next_leader = None
            if side_of(winner) == dealer_side:
                aces = self.quick_aces
        else:
            last = result.tricks[-1]
            winner = last.winner
            shape, trump, largest = last.last_trick_shape, last.won_with_trump, None
            if side_of(winner) == dealer_side:
                aces = _winning_aces(ctx, last.plays[(winner - last.leader) % 4])
            result.next_leader = None
        result.bottom_points = bottom_points
        if side_of(winner) == dealer_side:
            result.bottom_won_by = "dealer"
            result.bottom_multiplier = 0
            bottom_score = 0
        else:
            result.bottom_won_by = "defenders"
            result.bottom_multiplier = bottom_multiplier(rulebook, shape, trump, largest)
            bottom_score = bottom_points * result.bottom_multiplier
        total = apply_penalties(rulebook, result.captured + bottom_score, result.penalties, dealer)
        result.defender_total = total
        levels = result.levels
        score = promote(rulebook, total, dealer=dealer, levels=levels, last_trick_dealer_aces=aces)
        forced_side = self.forced_side(outcome)
        if forced_side is not None:
            score = _straight_to_a(rulebook, forced_side, dealer, levels, score)
        result.score = score
        result.levels_after = score.levels_after
        result.phase = "finished"

    def forced_side(self, outcome: DeclarationOutcome) -> int | None:
        """The side sent straight to A by a shuangkou offence (亮错级牌, 多牌少牌), if any."""
        wrong = outcome.wrong_declaration_side
        if wrong is not None:
            self.result.forced = f"wrong_declaration:{wrong}"
            return outcome.straight_to_a_side
        if self.result.forced is not None and self.result.forced.startswith("card_count:"):
            return 1 - int(self.result.forced.split(":")[1])
        return None


def _straight_to_a(
    rulebook: Rulebook, side: int, dealer: int, levels: tuple[str, str], score: DealScore
) -> DealScore:
    """003 五 and 十二.3: the non-offending side goes straight to A (+1 soft A at A)."""
    new_levels = list(levels)
    soft = [0, 0]
    if levels[side] == "A":
        soft[side] = 1
    new_levels[side] = "A"
    dealer_won = side == side_of(dealer)
    return DealScore(
        winner="dealer" if dealer_won else "defenders",
        levels_up=level_index("A") - level_index(levels[side]),
        next_dealer=next_dealer(rulebook, dealer, dealer_won),
        levels_after=(new_levels[0], new_levels[1]),
        table_levels_up=score.table_levels_up,
        soft_a=(soft[0], soft[1]),
        notes=("offence: the other side goes straight to A (003 五/十二)",),
    )


def replay_deal(
    rulebook: Rulebook,
    setup: DealSetup,
    events: Sequence[Event],
    *,
    last_trick_aces: int | None = None,
) -> DealResult:
    """Replay one deal's events; works on a partial deal (the state so far).

    `last_trick_aces` is the quick `result` extension field of the same name: the number
    of A's in the dealer side's play that won the last trick (shuangkou-simple hard A).

    Raises `InvalidRecordError` (naming the deal and event) for a record that cannot be
    replayed; everything else broken at the table is in `violations`.
    """
    deal = _Deal(rulebook, setup, events)
    deal.quick_aces = last_trick_aces or 0
    outcome = deal.declare()
    if outcome is not None:
        deal.play(outcome)
    else:
        for event in events:
            if isinstance(event, Penalty):
                deal.penalty(event)
    deal.result.talking = tuple(deal.talking)
    return deal.result
