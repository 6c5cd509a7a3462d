"""Declarations (亮主 / 报主 / 抢亮), overcalls (反主), 防反, 定主 and the bury (扣底) of a deal.

Given the typed events of one deal, `resolve_declarations` decides who deals, what is
trump, which 8 cards form the final bottom, and which declarations broke a rule of the
rulebook (each one an `illegal_declaration` violation with a `rule_id`, never accepted
silently). `simulate_declarations` plays a legal declaration phase for the simulator.

>>> from referee.rulebooks import find_rulebook
>>> from referee.shengji.events import parse_events
>>> events = parse_events([
...     {"type": "declare", "seat": 1, "cards": ["2S"]},
...     {"type": "overcall", "seat": 2, "cards": ["2H", "2H"]},
... ], 1)
>>> outcome = resolve_declarations(
...     find_rulebook("union-2deck"), DealSetup(1, (Rank.TWO, Rank.TWO)), events)
>>> outcome.dealer, outcome.trump_suit, [row.effect for row in outcome.history]
(2, <Suit.HEARTS: 'H'>, ['trump ♠, dealer 1 (抢庄)', 'overcall: trump ♥, takes the deal'])

Public API
----------
- `DealSetup(number, levels, dealer=None, given_dealer=None, first_drawer=None,
  previous_dealer=None, redeal=False)`. `first_drawer` is the record's per-deal field
  `"first_drawer"` (seat 0..3 that drew the first card, decided by 翻牌点); `redeal` is
  the record's per-deal `"redeal": true` (nobody declared, cards reshuffled).
- `resolve_declarations(rulebook, setup, events) -> DeclarationOutcome`.
- `simulate_declarations(rulebook, setup, hands, bottom, rng)
  -> tuple[list[dict], int, Suit | None, list[Counter[Card]]]`: the JSON events of a legal
  declaration phase (declare / overcall / reinforce / flip, the bury, a re-bury after
  反主抄底), the resulting dealer, trump suit and the four 25-card hands after the bury.
  An empty event list means nobody could declare under a redeal rulebook
  (`shuangsheng-17`): reshuffle, and the next deal grabs (dealer None).
  `simulate_declaration_phase` returns the same plus level, bottom and redeal as a
  `SimulatedDeclarations`.

Timing model
------------
The record has no "dealer picks up the bottom" event: the first `bury` marks the moment
the bottom was taken (取底/起底牌/换底). Calls after it are "after the bottom was taken".
Calls after the first `trick`, `throw_fail` or `result` are always too late.

Readings adopted here (each an option or the seed's plain text):
- I-D1 `overcall_only_over_single` (union-2deck): after deal 1 a pair answers only a single
  declared level card; on the grab deal pairs answer pairs by ♠ > ♥ > ♣ > ♦, and a joker
  pair ranks above every level pair there (small < big).
- I-D2 `wrong_declaration_penalty="shuangkou"`: a non-level card shown to declare or
  overcall (亮错级牌) is void; made (or found, by a `penalty` event of kind
  `wrong_declaration`) before the first bury it bars the offending side from declaring
  again; after the first bury, the other side goes straight to A
  (`DeclarationOutcome.wrong_declaration_side` is the offending side).
- I-D3 `equal_levels_take_deal` (off): shuangsheng-17 later deals: an opponent's
  declaration at its own level takes the deal only when the two levels differ; at equal
  levels it is the dealer's level (on: it takes the deal at equal levels too).
- I-D4 `nobody_grab_dealer`: the grab deal with nobody declaring: with
  `first_drawer_deals_if_nobody` (shuangkou-simple 四) the first drawer deals by rule;
  otherwise (union-2deck is silent) `record` (default): the record's `dealer` deals, else
  the first drawer, and no `wrong_dealer` is reported; `first_drawer`: as shuangkou.
- eighty-rr has no 防反 (`reinforce_allowed` off): seed 002 3.3.2 "反主只能反别人，不能反
  自己", and the pass/overcall round (3.4) gives the declarer no turn.
- I-D5 `declarer_overcall_scope`: "the declarer may overcall only after another player
  did" concerns the seat that made the first declaration (`seat`), or its side (`side`,
  seed 003 "叫主方"); in shuangkou-simple the dealer, after the bury, likewise needs
  another player's overcall after the bury (seed 003 三.2).
- I-D6 `after_bury_pair_order` (shuangkou-simple): any level pair answers a standing level
  pair ("不分花色", the later one counts); a joker pair answers a level pair, a big-joker
  pair a small-joker pair, and nothing but a big-joker pair answers a small-joker pair
  (`jokers_above`); or every pair answers every pair (`any_pair`).
- I-D7 `rebury_optional` (shuangsheng-17 四.2 "还可"): after 反主抄底 the overcaller may
  bury again or play on with the dealer's bottom; in shuangkou-simple (三 "并換取底牌") the
  overcaller must bury again (`shengji.bury.missing_rebury`).
- A pair shown as the first call is a declaration (declaring with a pair is stronger);
  a joker pair may declare except in shuangsheng-17 ("对王牌不可进行报主").
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from referee.cards import BIG_JOKER, SMALL_JOKER, SUITS, Card, Rank, Suit
from referee.errors import IllegalPlayError, InvalidRecordError
from referee.rulebooks import Rulebook
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
from referee.violations import Violation

__all__ = [
    "BOTTOM_SIZE",
    "RULE_IDS",
    "DealSetup",
    "DeclarationOutcome",
    "DeclarationRow",
    "SimulatedDeclarations",
    "can_call",
    "legal_calls",
    "resolve_declarations",
    "simulate_declaration_phase",
    "simulate_declarations",
    "verify_call",
]

BOTTOM_SIZE = 8

#: Every rule id this module reports, with the Chinese and English sense (for the web
#: layer's translations and the scoresheet legend).
RULE_IDS: dict[str, str] = {
    "shengji.declare.not_level_card": "亮错级牌 / not a level card of this deal",
    "shengji.declare.malformed": "不成对 / neither one level card nor a pair",
    "shengji.declare.needs_joker": "报主须带王 / a level card must come with its joker",
    "shengji.declare.wrong_joker": "王色不符 / big joker with ♥♦, small joker with ♠♣",
    "shengji.declare.joker_pair": "对王不可报主 / a joker pair may not declare",
    "shengji.declare.already_declared": "已有人亮主 / trump is already declared",
    "shengji.declare.too_late": "亮主过晚 / declared after the bottom was taken",
    "shengji.declare.side_barred": "亮错方不得再亮 / this side declared a wrong level card",
    "shengji.overcall.too_weak": "反主不够大 / not stronger than the standing call",
    "shengji.overcall.self": "不能自己反自己 / nobody overcalls their own call",
    "shengji.overcall.declarer_first": "报主方须待他人先反 / the declarer overcalls only after another",
    "shengji.overcall.dealer_after_bury": "庄家换底后须待他人先反 / dealer after the exchange waits",
    "shengji.overcall.only_over_single": "只能反单张级牌 / an overcall answers only a single",
    "shengji.overcall.joker_pair_final": "对王定主不能再反 / a joker pair is final",
    "shengji.overcall.too_late": "反主过晚 / overcall after the bottom was taken or play began",
    "shengji.overcall.after_flip": "翻底定主后不能反主 / no calls after the flip",
    "shengji.overcall.frozen": "多牌少牌后不得再亮主反主 / calls frozen by a card-count finding",
    "shengji.reinforce.not_allowed": "本规则无防反 / no 防反 in this rulebook",
    "shengji.reinforce.too_late": "防反过晚 / reinforcement after the bottom was taken",
    "shengji.reinforce.not_own": "只能加亮自己的主 / only one's own standing call",
    "shengji.reinforce.after_overcall": "已被反主 / someone overcalled already",
    "shengji.reinforce.not_twin": "须为同一张级牌 / the twin of the declared card",
    "shengji.flip.after_declaration": "已有人亮主，不翻底 / trump declared: no flip",
    "shengji.flip.repeated": "底牌已翻 / the bottom card was already turned",
    "shengji.flip.not_allowed": "本规则不翻底 / this rulebook does not flip",
    "shengji.bury.wrong_seat": "扣底者不对 / the wrong seat buried",
    "shengji.bury.extra": "多余的扣底 / a second bury without a reason",
    "shengji.bury.missing_rebury": "反主后未重新扣底 / the overcaller did not bury again",
    "shengji.dealer.wrong": "庄家不对 / the record's dealer contradicts the rulebook",
    "shengji.round.out_of_turn": "未轮到表态 / not this seat's turn in the pass/overcall round",
    "shengji.round.overcall_after_pass": "已表示不反 / an overcall after passing",
    "shengji.round.no_declaration": "无人亮主 / nothing declared to pass on",
    "shengji.round.too_late": "表态过晚 / a pass after the bottom was taken",
    "shengji.round.incomplete": "三家未表态完 / bottom taken before all three spoke",
}

# Suit order for overcalls by pairs on the union-2deck grab deal (♠ > ♥ > ♣ > ♦) and for
# the shuangsheng-17 ladder (♦+BJ < ♣+SJ < ♥+BJ < ♠+SJ).
_SUIT_RANK = {Suit.DIAMONDS: 1, Suit.CLUBS: 2, Suit.HEARTS: 3, Suit.SPADES: 4}


@dataclass(frozen=True, slots=True)
class DealSetup:
    """What is known about a deal before its events: number, levels and dealer.

    `dealer` comes from the previous result (None on a grab deal); `given_dealer` is the
    record's per-deal `dealer`, `first_drawer` its `first_drawer`, `redeal` its `redeal`.

    >>> DealSetup(1, ("2", "3")).levels
    (<Rank.TWO: '2'>, <Rank.THREE: '3'>)
    """

    number: int
    levels: tuple[Rank, Rank]
    dealer: int | None = None
    given_dealer: int | None = None
    first_drawer: int | None = None
    previous_dealer: int | None = None
    redeal: bool = False

    def __post_init__(self) -> None:
        levels = tuple(Rank(str(level)) for level in self.levels)
        if len(levels) != 2:
            raise InvalidRecordError(
                "levels must name the two sides' levels", deal=self.number, rule_id="record.levels"
            )
        object.__setattr__(self, "levels", levels)


@dataclass(frozen=True, slots=True)
class DeclarationRow:
    """One scoresheet row: who showed what, whether it counted, and what it did."""

    event: int
    seat: int | None
    kind: str
    cards: tuple[Card, ...]
    face_down: bool
    accepted: bool
    effect: str
    rule_id: str = ""
    final: bool = False

    def to_json(self) -> dict[str, Any]:
        """The row as a JSON object (cards in ASCII notation)."""
        data: dict[str, Any] = {
            "event": self.event,
            "seat": self.seat,
            "kind": self.kind,
            "cards": [str(card) for card in self.cards],
            "face_down": self.face_down,
            "accepted": self.accepted,
            "effect": self.effect,
        }
        if self.rule_id:
            data["rule_id"] = self.rule_id
        if self.kind == "bury":
            data["final"] = self.final
        return data


@dataclass(frozen=True, slots=True)
class DeclarationOutcome:
    """Dealer, trump, bottom and the declaration history of one deal."""

    dealer: int
    level: Rank
    trump_suit: Suit | None
    history: tuple[DeclarationRow, ...]
    bottom: tuple[Card, ...]
    bury_seat: int | None
    burials: tuple[Bury, ...]
    declared: Mapping[int, tuple[Card, ...]]
    violations: tuple[Violation, ...]
    redeal: bool
    wrong_declaration_side: int | None
    first_play_event: int | None
    phase: str
    dealer_event: int | None = None
    declarer: int | None = None
    flipped: Card | None = None
    frozen: bool = field(default=False)

    @property
    def straight_to_a_side(self) -> int | None:
        """The side that goes straight to A after a 亮错级牌 found too late (None if none)."""
        side = self.wrong_declaration_side
        return None if side is None else 1 - side

    def history_json(self) -> list[dict[str, Any]]:
        """The history rows as JSON objects, for the deal result's `declarations`."""
        return [row.to_json() for row in self.history]


# -- calls ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Call:
    """A readable call: its form, trump suit (None = no trump) and strength."""

    seat: int
    form: str  # single, pair, joker_pair, level_joker, pair_joker
    cards: tuple[Card, ...]
    suit: Suit | None
    strength: tuple[int, int]
    level: Rank


class _Rejected(Exception):
    def __init__(self, rule_id: str, detail: str) -> None:
        super().__init__(detail)
        self.rule_id = rule_id
        self.detail = detail


def _suit_name(suit: Suit | None) -> str:
    return "no trump (无主)" if suit is None else f"trump {suit.symbol}"


def _show(cards: Sequence[Card]) -> str:
    return " ".join(card.display() for card in cards)


def _classify(
    rulebook: Rulebook, seat: int, cards: tuple[Card, ...], level: Rank, grab: bool
) -> _Call:
    """Read `cards` as a call at `level`; raise `_Rejected` naming the rule it breaks."""
    jokers = [card for card in cards if card.is_joker]
    levels = [card for card in cards if card.rank is level]
    others = [card for card in cards if not card.is_joker and card.rank is not level]
    if others:
        raise _Rejected(
            "shengji.declare.not_level_card",
            f"{_show(others)} is not a level card (level {level.value})",
        )
    if len(jokers) == 2 and not levels:
        if jokers[0] is not jokers[1]:
            raise _Rejected("shengji.declare.malformed", "two different jokers are not a pair")
        big = jokers[0] is BIG_JOKER
        if rulebook.overcall == "ladder":
            return _Call(seat, "joker_pair", cards, None, (2, 6 if big else 5), level)
        return _Call(seat, "joker_pair", cards, None, (3, 1 if big else 0), level)
    if rulebook.declaration == "level_with_joker":
        if not levels and len(jokers) == 1:
            raise _Rejected("shengji.declare.not_level_card", "a single joker is not a call")
        if not jokers:
            raise _Rejected(
                "shengji.declare.needs_joker",
                "a call needs the level card with its joker (big joker ♥/♦, small joker ♠/♣)",
            )
        if len(jokers) != 1 or len(levels) not in (1, 2) or len(set(levels)) != 1:
            raise _Rejected("shengji.declare.malformed", f"{_show(cards)} is not a call")
        suit = levels[0].suit
        assert suit is not None
        wanted = BIG_JOKER if suit.is_red else SMALL_JOKER
        if jokers[0] is not wanted:
            raise _Rejected(
                "shengji.declare.wrong_joker",
                f"{suit.symbol} goes with the {'big' if suit.is_red else 'small'} joker",
            )
        if len(levels) == 1:
            return _Call(seat, "level_joker", cards, suit, (1, 0), level)
        return _Call(seat, "pair_joker", cards, suit, (2, _SUIT_RANK[suit]), level)
    if jokers:
        raise _Rejected("shengji.declare.not_level_card", "a single joker is not a level card")
    if len(levels) == 1:
        suit = levels[0].suit
        assert suit is not None
        return _Call(seat, "single", cards, suit, (1, 0), level)
    if len(levels) == 2 and levels[0] is levels[1]:
        suit = levels[0].suit
        assert suit is not None
        order = _SUIT_RANK[suit] if grab and rulebook.overcall_suit_order_first_deal else 0
        return _Call(seat, "pair", cards, suit, (2, order), level)
    raise _Rejected(
        "shengji.declare.malformed", f"{_show(cards)} is neither one level card nor a pair"
    )


def _overcall_problem(
    rulebook: Rulebook, new: _Call, standing: _Call, grab: bool
) -> _Rejected | None:
    """Why `new` cannot overcall `standing` (None when it can)."""
    if new.strength[0] < 2:
        return _Rejected(
            "shengji.overcall.too_weak", "a single call cannot overcall a standing call"
        )
    if rulebook.joker_pair_final and standing.form == "joker_pair":
        return _Rejected(
            "shengji.overcall.joker_pair_final", "a joker pair is final: nothing overcalls it"
        )
    if rulebook.overcall == "after_bury" and (
        new.form == standing.form == "pair" or rulebook.after_bury_pair_order == "any_pair"
    ):
        return None  # I-D6: 不分花色 — any level pair answers a standing level pair
    suit_order = grab and rulebook.overcall_suit_order_first_deal
    if rulebook.overcall_only_over_single and standing.strength[0] >= 2 and not suit_order:
        return _Rejected(
            "shengji.overcall.only_over_single", "an overcall may only answer a single level card"
        )
    if new.strength <= standing.strength:
        return _Rejected(
            "shengji.overcall.too_weak",
            f"{_show(new.cards)} is not stronger than {_show(standing.cards)}",
        )
    return None


# -- resolving a deal's events -------------------------------------------------------------


class _Resolver:
    """Walks a deal's events once; the state of the declaration phase lives here."""

    def __init__(self, rulebook: Rulebook, setup: DealSetup) -> None:
        self.rulebook = rulebook
        self.setup = setup
        self.grab = setup.dealer is None and rulebook.first_dealer == "grab"
        self.dealer: int | None = setup.dealer
        self.dealer_event: int | None = None
        if self.dealer is None and rulebook.first_dealer == "rotation":
            self.dealer = _first_known(setup.given_dealer, setup.first_drawer, 0)
        self.standing: _Call | None = None
        self.declarer: int | None = None
        self.overcallers: list[tuple[int, int]] = []  # (event index, seat) of accepted overcalls
        self.history: list[DeclarationRow] = []
        self.violations: list[Violation] = []
        self.shown: dict[int, Counter[Card]] = {}
        self.burials: list[Bury] = []
        self.pending_rebury: int | None = None
        self.first_bury: int | None = None
        self.first_play: int | None = None
        self.flipped: Card | None = None
        self.redeal = setup.redeal and rulebook.nobody_declares == "redeal"
        self.barred_sides: set[int] = set()
        self.wrong_side: int | None = None
        self.frozen = False
        # eighty-rr pass/overcall round (declaration_round): the declarer whose 下家 starts it,
        # the round position (1..3) of the last seat that spoke, and who passed explicitly.
        self.round_declarer: int | None = None
        self.round_pos = 0
        self.round_passed: set[int] = set()

    # helpers
    def level_of_deal(self) -> Rank:
        if self.rulebook.fixed_level is not None:
            return Rank(self.rulebook.fixed_level)
        dealer = self.dealer if self.dealer is not None else 0
        return self.setup.levels[dealer % 2]

    def call_levels(self, seat: int, declaring: bool) -> list[tuple[Rank, bool]]:
        """Levels a call by `seat` may use, each with whether it takes the deal."""
        if self.rulebook.fixed_level is not None:
            return [(Rank(self.rulebook.fixed_level), False)]
        if self.grab:
            return [(self.setup.levels[seat % 2], False)]
        deal_level = self.level_of_deal()
        options = [(deal_level, False)]
        own = self.setup.levels[seat % 2]
        if (
            declaring
            and self.rulebook.opponents_declare_take_deal
            and self.dealer is not None
            and seat % 2 != self.dealer % 2
        ):
            if own is not deal_level:
                options.append((own, True))
            elif self.rulebook.equal_levels_take_deal:  # I-D3 off: equal levels keep the dealer
                options = [(own, True)]
        return options

    def reject(
        self, event: Declare | Overcall | Reinforce | Pass, kind: str, problem: _Rejected
    ) -> None:
        cards = () if isinstance(event, Pass) else event.cards
        self.violations.append(
            Violation(
                "illegal_declaration",
                event=event.index,
                seat=event.seat,
                rule_id=problem.rule_id,
                detail=problem.detail,
                cards=cards,
            )
        )
        self.history.append(
            DeclarationRow(
                event.index,
                event.seat,
                kind,
                cards,
                self.face_down(event),
                False,
                f"rejected: {problem.detail}",
                problem.rule_id,
            )
        )

    def face_down(self, event: Declare | Overcall | Reinforce | Pass) -> bool:
        if isinstance(event, Reinforce | Pass):
            return False
        joker_pair = len(event.cards) == 2 and all(card.is_joker for card in event.cards)
        return event.face_down or (self.rulebook.declaration_face_down and not joker_pair)

    def show(self, seat: int, cards: Sequence[Card], index: int) -> None:
        """Note the cards `seat` showed from its hand; more than two decks hold is invalid."""
        shown = self.shown.setdefault(seat, Counter())
        for card, count in Counter(cards).items():
            shown[card] = max(shown[card], count)
            total = sum(seen[card] for seen in self.shown.values())
            if total > 2:
                raise InvalidRecordError(
                    f"more than two {card} shown in declarations (two decks hold two)",
                    deal=self.setup.number,
                    event=index,
                    rule_id="record.card_copies",
                )

    def wrong_declaration(self, seat: int, index: int) -> str:
        """Apply 亮错级牌 (I-D2); return the effect text."""
        side = seat % 2
        if self.first_bury is None and self.first_play is None:
            self.barred_sides.add(side)
            return f"亮错级牌: side {side} may not declare again"
        if self.wrong_side is None:
            self.wrong_side = side
        return f"亮错级牌 after the bottom was taken: side {1 - side} goes straight to A"

    # events
    def call_problem(self, seat: int) -> _Rejected | None:
        """Why no call at all may be made now by `seat` (None: it may be considered)."""
        late = "shengji.declare.too_late" if self.standing is None else "shengji.overcall.too_late"
        if self.first_play is not None:
            return _Rejected(late, "the first lead has been played")
        if self.redeal:
            return _Rejected(late, "the deal is being redealt")
        if self.frozen:
            return _Rejected("shengji.overcall.frozen", "no calls after the card-count penalty")
        if self.flipped is not None:
            return _Rejected("shengji.overcall.after_flip", "trump was fixed by the flip (定主)")
        if seat % 2 in self.barred_sides:
            return _Rejected(
                "shengji.declare.side_barred", "this side declared a wrong level card (亮错级牌)"
            )
        return None

    def call(self, event: Declare | Overcall) -> None:
        kind = "declare" if isinstance(event, Declare) else "overcall"
        self.show(event.seat, event.cards, event.index)
        problem = self.call_problem(event.seat)
        if problem is not None:
            self.reject(event, kind, problem)
            return
        if self.standing is None:
            self.declaration(event, kind)
        elif isinstance(event, Declare) and len(event.cards) == 1:
            self.reject(
                event,
                kind,
                _Rejected("shengji.declare.already_declared", "trump is already declared"),
            )
        else:
            self.overcall(event, kind, self.standing)

    def classify_or_reject(
        self, event: Declare | Overcall, kind: str, declaring: bool
    ) -> tuple[_Call, bool] | None:
        problem: _Rejected | None = None
        for level, takes_deal in self.call_levels(event.seat, declaring):
            try:
                return _classify(
                    self.rulebook, event.seat, event.cards, level, self.grab
                ), takes_deal
            except _Rejected as rejected:
                # Report the reading at the level the cards belong to, if one fits better.
                wrong_level = "shengji.declare.not_level_card"
                if problem is None or (
                    problem.rule_id == wrong_level and rejected.rule_id != wrong_level
                ):
                    problem = rejected
        assert problem is not None
        self.reject(event, kind, problem)
        if (
            problem.rule_id == "shengji.declare.not_level_card"
            and self.rulebook.wrong_declaration_penalty == "shuangkou"
        ):
            effect = self.wrong_declaration(event.seat, event.index)
            row = self.history[-1]
            self.history[-1] = DeclarationRow(
                row.event,
                row.seat,
                row.kind,
                row.cards,
                row.face_down,
                False,
                f"{row.effect}; {effect}",
                row.rule_id,
            )
        return None

    def declaration(self, event: Declare | Overcall, kind: str) -> None:
        if self.first_bury is not None:
            self.reject(
                event,
                kind,
                _Rejected("shengji.declare.too_late", "the bottom has been taken"),
            )
            return
        if (
            self.rulebook.declaration == "level_with_joker"
            and len(event.cards) == 2
            and all(card.is_joker for card in event.cards)
        ):
            self.reject(
                event,
                kind,
                _Rejected(
                    "shengji.declare.joker_pair", "a joker pair may not declare (对王不可报主)"
                ),
            )
            return
        classified = self.classify_or_reject(event, kind, declaring=True)
        if classified is None:
            return
        call, takes_deal = classified
        self.standing = call
        self.declarer = event.seat
        self.round_declarer = event.seat
        effect = _suit_name(call.suit)
        if self.grab:
            self.dealer = event.seat
            self.dealer_event = event.index
            effect += f", dealer {event.seat} (抢庄)"
        elif takes_deal:
            self.dealer = event.seat
            self.dealer_event = event.index
            effect += f" at level {call.level.value}: seat {event.seat} takes the deal"
        if kind == "overcall":
            effect += " (nothing to overcall: counted as the declaration)"
        self.history.append(
            DeclarationRow(
                event.index, event.seat, kind, event.cards, self.face_down(event), True, effect
            )
        )

    def overcall(self, event: Declare | Overcall, kind: str, standing: _Call) -> None:
        seat = event.seat
        after_bury = self.first_bury is not None
        allowed_after_bury = self.rulebook.overcall_takes_bottom_later and (
            not self.grab or self.rulebook.overcall == "after_bury"
        )
        if after_bury and not allowed_after_bury:
            self.reject(
                event,
                kind,
                _Rejected("shengji.overcall.too_late", "the dealer has taken the bottom"),
            )
            return
        declarer = self.declarer if self.declarer is not None else -1
        if self.rulebook.declarer_overcall_scope == "side":  # I-D5: 叫主方 as the side
            waiting = {declarer, (declarer + 2) % 4}
        else:
            waiting = {declarer}
        others = [s for _, s in self.overcallers if s not in waiting]
        if self.rulebook.declarer_overcall_after_other and seat in waiting and not others:
            self.reject(
                event,
                kind,
                _Rejected(
                    "shengji.overcall.declarer_first",
                    "the declarer may overcall only after another player did",
                ),
            )
            return
        if seat == standing.seat:
            self.reject(
                event,
                kind,
                _Rejected("shengji.overcall.self", "nobody may overcall their own call"),
            )
            return
        if (
            after_bury
            and self.rulebook.overcall == "after_bury"
            and seat == self.dealer
            and not any(i > (self.first_bury or 0) and s != seat for i, s in self.overcallers)
        ):
            self.reject(
                event,
                kind,
                _Rejected(
                    "shengji.overcall.dealer_after_bury",
                    "after the exchange the dealer may overcall only after another player did",
                ),
            )
            return
        round_problem = self.round_problem(seat, overcalling=True)
        if round_problem is not None:
            self.reject(event, kind, round_problem)
            return
        classified = self.classify_or_reject(event, kind, declaring=False)
        if classified is None:
            return
        call, _ = classified
        problem = _overcall_problem(self.rulebook, call, standing, self.grab)
        if problem is not None:
            self.reject(event, kind, problem)
            return
        self.standing = call
        self.overcallers.append((event.index, seat))
        self.round_spoke(seat)
        effect = f"overcall: {_suit_name(call.suit)}"
        if after_bury:
            self.pending_rebury = seat
            effect += ", takes the bottom and buries again (反主抄底)"
        elif self.grab and self.rulebook.overcall_takes_deal_first_deal:
            self.dealer = seat
            self.dealer_event = event.index
            effect += ", takes the deal"
        self.history.append(
            DeclarationRow(
                event.index, seat, kind, event.cards, self.face_down(event), True, effect
            )
        )

    # the eighty-rr pass/overcall round (seed 002 3.4) ----------------------------------
    def round_position(self, seat: int) -> int | None:
        """`seat`'s turn in the round (1 = the declarer's 下家), 0 for the declarer, None if
        the rulebook has no round or nothing was declared."""
        if not self.rulebook.declaration_round or self.round_declarer is None:
            return None
        return (seat - self.round_declarer) % 4

    def round_problem(self, seat: int, *, overcalling: bool) -> _Rejected | None:
        """Why `seat` may not speak now in the round (None: it may, or there is no round)."""
        position = self.round_position(seat)
        if position is None or self.first_bury is not None:
            return None
        if overcalling and seat in self.round_passed:
            return _Rejected(
                "shengji.round.overcall_after_pass", f"seat {seat} already passed (不反)"
            )
        if position == 0:
            return _Rejected(
                "shengji.round.out_of_turn",
                "the declarer has no turn: the round runs from its 下家 (反主只能反别人)",
            )
        assert self.round_declarer is not None
        if position <= self.round_pos:
            last = (self.round_declarer + self.round_pos) % 4
            return _Rejected(
                "shengji.round.out_of_turn",
                f"seat {seat}'s turn in the round is over (seat {last} has spoken)",
            )
        if not self.rulebook.round_skipped_seats_pass and position > self.round_pos + 1:
            waiting = (self.round_declarer + self.round_pos + 1) % 4
            return _Rejected(
                "shengji.round.out_of_turn", f"seat {waiting} speaks first (pass or overcall)"
            )
        return None

    def round_spoke(self, seat: int) -> None:
        position = self.round_position(seat)
        if position is not None and self.first_bury is None:
            self.round_pos = max(self.round_pos, position)

    def pass_(self, event: Pass) -> None:
        problem: _Rejected | None = None
        if self.first_bury is not None or self.first_play is not None:
            problem = _Rejected("shengji.round.too_late", "the bottom has been taken")
        elif self.standing is None:
            problem = _Rejected("shengji.round.no_declaration", "nothing was declared")
        else:
            problem = self.round_problem(event.seat, overcalling=False)
        if problem is not None:
            self.reject(event, "pass", problem)
            return
        self.round_spoke(event.seat)
        self.round_passed.add(event.seat)
        self.history.append(
            DeclarationRow(event.index, event.seat, "pass", (), False, True, "不反 (pass)")
        )

    def round_incomplete(self, event: Bury) -> None:
        """Strict round (round_skipped_seats_pass off): all three spoke before the bury."""
        if (
            self.rulebook.declaration_round
            and not self.rulebook.round_skipped_seats_pass
            and self.round_declarer is not None
            and self.round_pos < 3
        ):
            waiting = (self.round_declarer + self.round_pos + 1) % 4
            self.violations.append(
                Violation(
                    "illegal_declaration",
                    event=event.index,
                    seat=event.seat,
                    rule_id="shengji.round.incomplete",
                    detail=f"the bottom was taken before seat {waiting} said pass or overcall",
                )
            )

    def reinforce(self, event: Reinforce) -> None:
        self.show(event.seat, (*self._own_cards(event.seat), *event.cards), event.index)
        standing = self.standing
        problem: _Rejected | None = None
        if not self.rulebook.reinforce_allowed:
            problem = _Rejected("shengji.reinforce.not_allowed", "this rulebook has no 防反")
        elif self.first_play is not None or self.first_bury is not None or self.flipped:
            problem = _Rejected("shengji.reinforce.too_late", "the bottom has been taken")
        elif standing is None or standing.seat != event.seat:
            problem = _Rejected("shengji.reinforce.not_own", "防反 adds to one's own standing call")
        elif standing.form != "single" or self.overcallers:
            problem = _Rejected(
                "shengji.reinforce.after_overcall", "防反 only before anyone overcalled a single"
            )
        elif event.cards != standing.cards:
            problem = _Rejected(
                "shengji.reinforce.not_twin",
                f"the twin of {_show(standing.cards)} is needed, not {_show(event.cards)}",
            )
        if problem is not None:
            self.reject(event, "reinforce", problem)
            return
        assert standing is not None
        suit = standing.suit
        assert suit is not None
        order = (
            _SUIT_RANK[suit] if self.grab and self.rulebook.overcall_suit_order_first_deal else 0
        )
        self.standing = _Call(
            event.seat, "pair", standing.cards + event.cards, suit, (2, order), standing.level
        )
        self.history.append(
            DeclarationRow(
                event.index,
                event.seat,
                "reinforce",
                event.cards,
                False,
                True,
                f"防反: a pair of {suit.symbol}{standing.level.value}",
            )
        )

    def _own_cards(self, seat: int) -> tuple[Card, ...]:
        standing = self.standing
        return standing.cards if standing is not None and standing.seat == seat else ()

    def flip(self, event: Flip) -> None:
        if self.first_bury is not None or self.first_play is not None:
            raise InvalidRecordError(
                "a flip (定主) must come before the bury and the first lead",
                deal=self.setup.number,
                event=event.index,
                rule_id="record.order.flip_after_bury",
            )
        row_problem: _Rejected | None = None
        if self.rulebook.nobody_declares == "redeal" and self.standing is None:
            self.redeal = True
            self.history.append(
                DeclarationRow(
                    event.index,
                    None,
                    "flip",
                    (event.card,),
                    False,
                    True,
                    "无人报主: reshuffle, redeal and grab again",
                )
            )
            return
        if self.standing is not None:
            row_problem = _Rejected(
                "shengji.flip.after_declaration", "trump was declared: nothing to flip"
            )
        elif self.flipped is not None:
            row_problem = _Rejected("shengji.flip.repeated", "the bottom card was already turned")
        elif self.rulebook.nobody_declares != "flip":
            row_problem = _Rejected("shengji.flip.not_allowed", "this rulebook does not flip")
        if row_problem is not None:
            self.violations.append(
                Violation(
                    "illegal_declaration",
                    event=event.index,
                    rule_id=row_problem.rule_id,
                    detail=row_problem.detail,
                    cards=(event.card,),
                )
            )
            self.history.append(
                DeclarationRow(
                    event.index,
                    None,
                    "flip",
                    (event.card,),
                    False,
                    False,
                    f"rejected: {row_problem.detail}",
                    row_problem.rule_id,
                )
            )
            return
        self.flipped = event.card
        effect = f"定主: {event.card.display()} → {_suit_name(event.card.suit)}"
        if self.grab and self.dealer is None:
            self.dealer, by_rule = self.nobody_dealer()
            self.dealer_event = event.index if by_rule else None
            effect += f", dealer {self.dealer}"
        if self.rulebook.overcall == "after_bury":
            effect += "; nobody may overcall"
        self.history.append(
            DeclarationRow(event.index, None, "flip", (event.card,), False, True, effect)
        )

    def nobody_dealer(self) -> tuple[int, bool]:
        """Dealer of a grab deal where nobody declared, and whether the rulebook says so (I-D4)."""
        setup = self.setup
        if (
            self.rulebook.first_drawer_deals_if_nobody
            or self.rulebook.nobody_grab_dealer == "first_drawer"
        ):
            by_rule = setup.first_drawer is not None
            return _first_known(setup.first_drawer, setup.given_dealer, 0), by_rule
        return _first_known(setup.given_dealer, setup.first_drawer, 0), False

    def bury(self, event: Bury) -> None:
        if len(event.cards) != BOTTOM_SIZE:
            raise InvalidRecordError(
                f"a bury (扣底) must hold {BOTTOM_SIZE} cards, not {len(event.cards)}",
                deal=self.setup.number,
                event=event.index,
                rule_id="record.bury_size",
            )
        if self.first_play is not None:
            raise InvalidRecordError(
                "a bury after the first lead",
                deal=self.setup.number,
                event=event.index,
                rule_id="record.order.bury_after_play",
            )
        problem: str | None = None
        rule_id = ""
        if self.first_bury is None:
            self.round_incomplete(event)
            self.first_bury = event.index
            if self.dealer is None:
                self.dealer = (
                    self.setup.given_dealer if self.setup.given_dealer is not None else event.seat
                )
                self.dealer_event = event.index
            if event.seat != self.dealer:
                rule_id = "shengji.bury.wrong_seat"
                problem = f"the dealer (seat {self.dealer}) buries, not seat {event.seat}"
            effect = "扣底"
        elif self.pending_rebury is not None:
            if event.seat != self.pending_rebury:
                rule_id = "shengji.bury.wrong_seat"
                problem = f"seat {self.pending_rebury} took the bottom and buries again"
            effect = "扣底 again after 反主抄底"
        else:
            rule_id = "shengji.bury.extra"
            problem = "a second bury without an overcall that takes the bottom"
            effect = "扣底 again"
        self.pending_rebury = None
        if problem is not None:
            self.violations.append(
                Violation(
                    "wrong_bury",
                    event=event.index,
                    seat=event.seat,
                    rule_id=rule_id,
                    detail=problem,
                )
            )
            effect += f" ({problem})"
        self.burials.append(event)
        self.history.append(
            DeclarationRow(
                event.index, event.seat, "bury", event.cards, True, True, effect, rule_id
            )
        )

    def penalty(self, event: Penalty) -> None:
        if (
            event.kind == "wrong_declaration"
            and self.rulebook.wrong_declaration_penalty == "shuangkou"
        ):
            effect = self.wrong_declaration(event.seat, event.index)
            self.history.append(
                DeclarationRow(event.index, event.seat, "penalty", (), False, True, effect)
            )
        elif (
            event.kind == "card_count"
            and self.rulebook.card_count_freezes_calls
            and self.first_bury is not None
            and self.first_play is None
        ):
            self.frozen = True
            self.history.append(
                DeclarationRow(
                    event.index,
                    event.seat,
                    "penalty",
                    (),
                    False,
                    True,
                    "多牌少牌 after the bottom was taken: no more declaring or overcalling",
                )
            )

    def run(self, events: Sequence[Event]) -> DeclarationOutcome:
        for event in events:
            if isinstance(event, Declare | Overcall):
                self.call(event)
            elif isinstance(event, Reinforce):
                self.reinforce(event)
            elif isinstance(event, Pass):
                self.pass_(event)
            elif isinstance(event, Flip):
                self.flip(event)
            elif isinstance(event, Bury):
                self.bury(event)
            elif isinstance(event, Penalty):
                self.penalty(event)
            elif isinstance(event, Trick | ThrowFail | QuickResult) and self.first_play is None:
                self.first_play = event.index
                if self.pending_rebury is not None and not self.rulebook.rebury_optional:
                    self.violations.append(
                        Violation(
                            "wrong_bury",
                            event=event.index,
                            seat=self.pending_rebury,
                            rule_id="shengji.bury.missing_rebury",
                            detail=f"seat {self.pending_rebury} took the bottom but never buried",
                        )
                    )
        return self.outcome()

    def outcome(self) -> DeclarationOutcome:
        setup = self.setup
        if self.dealer is None:
            self.dealer = (
                self.nobody_dealer()[0]
                if self.grab
                else _first_known(setup.given_dealer, setup.first_drawer, 0)
            )
        dealer = self.dealer
        decided_by_rule = setup.dealer is not None or self.dealer_event is not None
        if self.grab and self.standing is None and self.flipped is None:
            decided_by_rule = False  # nothing recorded decides the grab: trust the record
        if (
            setup.given_dealer is not None
            and decided_by_rule
            and setup.given_dealer != dealer
            and not self.redeal
        ):
            self.violations.append(
                Violation(
                    "wrong_dealer",
                    event=self.dealer_event if self.dealer_event is not None else 0,
                    seat=setup.given_dealer,
                    rule_id="shengji.dealer.wrong",
                    detail=f"the record names seat {setup.given_dealer}; the rulebook gives "
                    f"seat {dealer}",
                )
            )
        if self.standing is not None:
            trump_suit = self.standing.suit
        elif self.flipped is not None:
            trump_suit = self.flipped.suit
        else:
            trump_suit = None
        if self.redeal:
            phase = "redeal"
        elif self.first_play is not None:
            phase = "ready"
        elif self.pending_rebury is not None and not self.rulebook.rebury_optional:
            phase = "burying"
        elif self.burials:
            phase = "ready"
        elif self.flipped is not None:
            phase = "burying"
        else:
            phase = "declaring"
        history = list(self.history)
        if self.burials:
            final = self.burials[-1].index
            history = [
                DeclarationRow(
                    r.event,
                    r.seat,
                    r.kind,
                    r.cards,
                    r.face_down,
                    r.accepted,
                    r.effect,
                    r.rule_id,
                    r.kind == "bury" and r.event == final,
                )
                for r in history
            ]
        last = self.burials[-1] if self.burials else None
        return DeclarationOutcome(
            dealer=dealer,
            level=self.level_of_deal(),
            trump_suit=trump_suit,
            history=tuple(history),
            bottom=last.cards if last is not None else (),
            bury_seat=last.seat if last is not None else None,
            burials=tuple(self.burials),
            declared={
                seat: tuple(sorted(shown.elements(), key=lambda c: c.index))
                for seat, shown in sorted(self.shown.items())
            },
            violations=tuple(self.violations),
            redeal=self.redeal,
            wrong_declaration_side=self.wrong_side,
            first_play_event=self.first_play,
            phase=phase,
            dealer_event=self.dealer_event,
            declarer=self.declarer,
            flipped=self.flipped,
            frozen=self.frozen,
        )


def _first_known(*seats: int | None) -> int:
    for seat in seats:
        if seat is not None:
            return seat
    return 0


def resolve_declarations(
    rulebook: Rulebook, setup: DealSetup, events: Sequence[Event]
) -> DeclarationOutcome:
    """Decide dealer, trump and bottom of a deal from ALL its events (play events included).

    Illegal calls become `illegal_declaration` violations and are not accepted; a bury
    of other than 8 cards, a bury after the first lead or a flip after the bury raise
    `InvalidRecordError`.

    >>> from referee.rulebooks import find_rulebook
    >>> from referee.shengji.events import parse_events
    >>> out = resolve_declarations(find_rulebook("eighty-rr"), DealSetup(2, ("2", "2"), dealer=1),
    ...     parse_events([{"type": "declare", "seat": 0, "cards": ["2C"]},
    ...                   {"type": "overcall", "seat": 0, "cards": ["2D", "2D"]}], 2))
    >>> out.trump_suit, out.violations[0].rule_id
    (<Suit.CLUBS: 'C'>, 'shengji.overcall.self')
    """
    return _Resolver(rulebook, setup).run(events)


# -- simulation ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SimulatedDeclarations:
    """A simulated declaration phase: JSON events, dealer, trump and the hands after it."""

    events: list[dict[str, Any]]
    dealer: int
    trump_suit: Suit | None
    hands: list[Counter[Card]]
    level: Rank
    bottom: tuple[Card, ...]
    redeal: bool


def _call_candidates(
    rulebook: Rulebook, hand: Counter[Card], ranks: Sequence[Rank]
) -> list[list[Card]]:
    """Every call a hand could show at one of `ranks`, smallest forms first."""
    singles: list[list[Card]] = []
    pairs: list[list[Card]] = []
    for rank in dict.fromkeys(ranks):
        for suit in SUITS:
            card = next(c for c in _CARDS_BY_RANK_SUIT if c.rank is rank and c.suit is suit)
            count = hand[card]
            if rulebook.declaration == "level_with_joker":
                joker = BIG_JOKER if suit.is_red else SMALL_JOKER
                if count >= 1 and hand[joker] >= 1:
                    singles.append([card, joker])
                if count >= 2 and hand[joker] >= 1:
                    pairs.append([card, card, joker])
            else:
                if count >= 1:
                    singles.append([card])
                if count >= 2:
                    pairs.append([card, card])
    for joker in (SMALL_JOKER, BIG_JOKER):
        if hand[joker] >= 2:
            pairs.append([joker, joker])
    return singles + pairs


_CARDS_BY_RANK_SUIT: tuple[Card, ...] = tuple(Card.from_index(i) for i in range(52))


def _call_json(rulebook: Rulebook, kind: str, seat: int, cards: Sequence[Card]) -> dict[str, Any]:
    data: dict[str, Any] = {"type": kind, "seat": seat, "cards": [str(c) for c in cards]}
    joker_pair = len(cards) == 2 and all(card.is_joker for card in cards)
    if rulebook.declaration_face_down and not joker_pair:
        data["face_down"] = True
    return data


def _choose_bury(
    rng: random.Random,
    hand: Counter[Card],
    keep: Counter[Card],
    level: Rank,
    trump_suit: Suit | None,
) -> list[Card]:
    """8 cards to bury: side-suit cards first, never a card that was shown."""
    free = hand - keep
    cards = list(free.elements())
    rng.shuffle(cards)

    def weight(card: Card) -> int:
        trump = card.is_joker or card.rank is level or card.suit is trump_suit
        return 2 if trump else (1 if card.points else 0)

    cards.sort(key=weight)
    chosen = cards[:BOTTOM_SIZE]
    if len(chosen) < BOTTOM_SIZE:  # pragma: no cover - a 33-card hand always has 8 free
        rest = list((hand - Counter(chosen)).elements())
        chosen += rest[: BOTTOM_SIZE - len(chosen)]
    return chosen


def simulate_declaration_phase(
    rulebook: Rulebook,
    setup: DealSetup,
    hands: Sequence[Counter[Card]],
    bottom: Sequence[Card],
    rng: random.Random,
) -> SimulatedDeclarations:
    """A legal declaration phase for dealt `hands` (4 × 25) and `bottom` (8 cards).

    Every event is checked by `resolve_declarations` before it is kept, so the result
    always replays without violations.
    """
    from referee.shengji.events import parse_events

    hands = [Counter(hand) for hand in hands]
    events: list[dict[str, Any]] = []
    shown: list[Counter[Card]] = [Counter() for _ in range(4)]
    ranks: list[Rank] = (
        [Rank(rulebook.fixed_level)] if rulebook.fixed_level is not None else list(setup.levels)
    )

    def resolve(extra: Sequence[dict[str, Any]] = ()) -> DeclarationOutcome:
        return resolve_declarations(rulebook, setup, parse_events([*events, *extra], setup.number))

    def legal(candidate: dict[str, Any]) -> bool:
        try:
            return not resolve([candidate]).violations
        except InvalidRecordError:
            return False

    def options(kind: str) -> list[dict[str, Any]]:
        found = []
        for seat in range(4):
            for cards in _call_candidates(rulebook, hands[seat], ranks):
                candidate = _call_json(rulebook, kind, seat, cards)
                if legal(candidate):
                    found.append(candidate)
        return found

    def keep(candidate: dict[str, Any]) -> None:
        events.append(candidate)
        seat = candidate["seat"]
        cards = Counter(parse_events([candidate], setup.number)[0].cards)  # type: ignore[union-attr]
        if candidate["type"] == "reinforce":
            cards += shown[seat]
        shown[seat] |= cards

    # 亮主: somebody declares (singles much more often than pairs), rarely nobody does.
    declarations = options("declare")
    nobody = not declarations or (rulebook.nobody_declares == "flip" and rng.random() < 0.05)
    if not nobody:
        singles = [
            d for d in declarations if len(d["cards"]) <= 2 and d["cards"][0] != d["cards"][-1]
        ]
        pool = singles if singles and rng.random() < 0.85 else declarations
        keep(rng.choice(pool))
        # 防反: the declarer adds the twin.
        if rulebook.reinforce_allowed and len(events[0]["cards"]) == 1 and rng.random() < 0.3:
            first = events[0]
            twin = {"type": "reinforce", "seat": first["seat"], "cards": first["cards"][:1]}
            card = parse_events([twin], setup.number)[0]
            if hands[first["seat"]][card.cards[0]] >= 2 and legal(twin):  # type: ignore[union-attr]
                keep(twin)
        if rulebook.declaration_round:  # seed 002 3.4: from the declarer's 下家, each once
            declarer = events[0]["seat"]
            for step in (1, 2, 3):
                seat = (declarer + step) % 4
                mine = [c for c in options("overcall") if c["seat"] == seat]
                if mine and rng.random() < 0.35:
                    keep(rng.choice(mine))
                else:
                    events.append({"type": "pass", "seat": seat})
        for _ in range(0 if rulebook.declaration_round else 2):  # 反主 before the bottom
            overcalls = options("overcall")
            if not overcalls or rng.random() >= 0.35:
                break
            keep(rng.choice(overcalls))
    elif rulebook.nobody_declares == "redeal":
        dealer = _first_known(setup.dealer, setup.given_dealer, setup.first_drawer, 0)
        return SimulatedDeclarations(
            [], dealer, None, hands, setup.levels[dealer % 2], tuple(bottom), True
        )
    else:
        events.append({"type": "flip", "card": str(bottom[0])})

    outcome = resolve()
    dealer = outcome.dealer
    hands[dealer] += Counter(bottom)
    buried = _choose_bury(rng, hands[dealer], shown[dealer], outcome.level, outcome.trump_suit)
    hands[dealer] -= Counter(buried)
    events.append({"type": "bury", "seat": dealer, "cards": [str(c) for c in buried]})

    # 反主抄底 / 换底后反主: an overcall after the bury takes the bottom and buries again.
    if outcome.flipped is None and rng.random() < 0.5:
        overcalls = options("overcall")
        if overcalls and rng.random() < 0.6:
            chosen = rng.choice(overcalls)
            keep(chosen)
            seat = chosen["seat"]
            after = resolve()
            # I-D7: where taking the bottom is optional, the overcaller sometimes leaves it.
            if not (rulebook.rebury_optional and rng.random() < 0.3):
                hands[seat] += Counter(buried)
                buried = _choose_bury(rng, hands[seat], shown[seat], after.level, after.trump_suit)
                hands[seat] -= Counter(buried)
                events.append({"type": "bury", "seat": seat, "cards": [str(c) for c in buried]})

    final = resolve()
    assert not final.violations, final.violations
    return SimulatedDeclarations(
        events, final.dealer, final.trump_suit, hands, final.level, final.bottom, False
    )


def simulate_declarations(
    rulebook: Rulebook,
    setup: DealSetup,
    hands: Sequence[Counter[Card]],
    bottom: Sequence[Card],
    rng: random.Random,
) -> tuple[list[dict[str, Any]], int, Suit | None, list[Counter[Card]]]:
    """(events, dealer, trump suit, hands after the bury) of a legal declaration phase.

    An empty event list means nobody could declare under a redeal rulebook: reshuffle,
    record the deal with `"redeal": true`, and grab again (next DealSetup.dealer None).
    """
    result = simulate_declaration_phase(rulebook, setup, hands, bottom, rng)
    return result.events, result.dealer, result.trump_suit, result.hands


# -- checking one new call (the web layer's verify / can / legal triad) ----------------------


def verify_call(
    rulebook: Rulebook, setup: DealSetup, events: Sequence[Event], event: Event
) -> None:
    """Raise `IllegalPlayError(rule_id, …)` if `event` (appended to `events`) breaks a rule.

    Only the findings about `event` itself count; earlier violations are already on the
    sheet. An impossible event (a bury of 7 cards) raises `InvalidRecordError`.

    >>> from referee.rulebooks import find_rulebook
    >>> from referee.shengji.events import parse_event
    >>> calls = [parse_event({"type": "declare", "seat": 0, "cards": ["2S"]}, 0)]
    >>> verify_call(find_rulebook("union-2deck"), DealSetup(1, ("2", "2")), calls,
    ...             parse_event({"type": "overcall", "seat": 0, "cards": ["2H", "2H"]}, 1))
    Traceback (most recent call last):
    ...
    referee.errors.IllegalPlayError: nobody may overcall their own call
    """
    index = len(events)
    if getattr(event, "index", index) != index:
        event = replace(event, index=index)
    outcome = resolve_declarations(rulebook, setup, [*events, event])
    for violation in outcome.violations:
        if violation.event == index and violation.kind != "wrong_dealer":
            raise IllegalPlayError(
                violation.rule_id, violation.detail, seat=violation.seat, event=index
            )


def can_call(rulebook: Rulebook, setup: DealSetup, events: Sequence[Event], event: Event) -> bool:
    """True when `verify_call` would accept `event` (False also for an impossible event)."""
    try:
        verify_call(rulebook, setup, events, event)
    except (IllegalPlayError, InvalidRecordError):
        return False
    return True


def legal_calls(
    rulebook: Rulebook,
    setup: DealSetup,
    events: Sequence[Event],
    seat: int,
    hand: Counter[Card] | None = None,
) -> list[tuple[str, tuple[Card, ...]]]:
    """(kind, cards) of every call `seat` could make next, for the tablet's hints.

    With `hand` None every card is assumed available (the referee does not see hands).

    >>> from referee.rulebooks import find_rulebook
    >>> [cards for kind, cards in legal_calls(find_rulebook("shuangsheng-17"),
    ...     DealSetup(1, ("2", "2")), [], 0)][:2]
    [(Card('2S'), Card('SJ')), (Card('2H'), Card('BJ'))]
    """
    if hand is None:
        hand = Counter({card: 2 for card in (*_CARDS_BY_RANK_SUIT, SMALL_JOKER, BIG_JOKER)})
    ranks: list[Rank] = (
        [Rank(rulebook.fixed_level)] if rulebook.fixed_level is not None else list(setup.levels)
    )
    index = len(events)
    standing = resolve_declarations(rulebook, setup, events).declarer is not None
    kinds = ("overcall", "declare") if standing else ("declare", "overcall")
    found: list[tuple[str, tuple[Card, ...]]] = []
    for cards in _call_candidates(rulebook, hand, ranks):
        for kind in kinds:
            event: Event = (Declare if kind == "declare" else Overcall)(index, seat, tuple(cards))
            if can_call(rulebook, setup, events, event):
                found.append((kind, tuple(cards)))
                break
    return found
