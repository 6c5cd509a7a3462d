"""One Guandan deal replayed from its events: tribute, play, finishing order, penalties.

The deal knows its level, the side on the table and the tribute duties left by the
previous deal (`DealSetup`); the match (`match.py`) applies promotion and the A rules.
A readable event that breaks a rule becomes a `Violation`; an event that cannot have
happened (a card seen three times, a seat playing cards it no longer holds, events out
of order) raises `InvalidRecordError` naming the deal and the 0-based event index.

>>> from referee.rulebooks import find_rulebook
>>> from referee.cards import Rank
>>> setup = DealSetup(number=1, level=Rank.TWO, on_table=0, levels=(2, 2))
>>> deal = replay_deal(find_rulebook("guandan-lyg"), setup, [{"type": "play", "seat": 0, "cards": ["3S"]}])
>>> deal.cards_left, deal.next_to_play
([26, 27, 27, 27], 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.cards import ALL_CARDS, BIG_JOKER, Card, Rank, parse_card, parse_cards, parse_rank
from referee.errors import InvalidRecordError, NotationError
from referee.guandan.combos import KINDS, Combo, choose_reading, power, readings
from referee.rulebooks import Rulebook
from referee.violations import Violation

__all__ = [
    "PENALTY_KINDS",
    "DealResult",
    "DealSetup",
    "TributeDuties",
    "replay_deal",
    "tribute_duties",
]

PENALTY_KINDS = ("timeout", "no_report", "wrong_play", "dropped_card", "out_of_turn", "talking", "other")
# Penalties that count towards disqualification (seed 9.4: exposures, out-of-turn, fouls).
FOUL_KINDS = frozenset({"wrong_play", "dropped_card", "out_of_turn", "talking", "other"})
SKIP_KINDS = frozenset({"wrong_play", "dropped_card", "out_of_turn"})
HAND_SIZE = 27
_TEXT = [str(card) for card in ALL_CARDS]


def partner(seat: int) -> int:
    """The seat opposite (对门). >>> partner(1) -> 3."""
    return (seat + 2) % 4


@dataclass(frozen=True, slots=True)
class TributeDuties:
    """Who owes tribute (进贡) to whom at the start of a deal, from the previous order.

    `kind` is `double_down` (双下: both losers pay, the higher tribute to `first`) or
    `single_down` (the last player pays the first). `first` is the previous 头游.
    """

    kind: str
    payers: tuple[int, ...]
    receivers: tuple[int, ...]
    first: int

    def to_json(self) -> dict[str, Any]:
        """`{kind, payers, receivers, first}`."""
        return {
            "kind": self.kind,
            "payers": list(self.payers),
            "receivers": list(self.receivers),
            "first": self.first,
        }


def tribute_duties(order: Sequence[int]) -> TributeDuties:
    """Tribute owed after a deal that finished in `order` (seed 4.4, 4.5).

    >>> tribute_duties([0, 2, 1, 3]).to_json()
    {'kind': 'double_down', 'payers': [1, 3], 'receivers': [0, 2], 'first': 0}
    >>> tribute_duties([0, 1, 2, 3]).kind
    'single_down'
    """
    first = order[0]
    if order[1] == partner(first):
        return TributeDuties("double_down", (order[2], order[3]), (first, order[1]), first)
    return TributeDuties("single_down", (order[3],), (first,), first)


@dataclass(frozen=True, slots=True)
class DealSetup:
    """What a deal starts from: number (1-based), level played, side on the table (台上),
    the two sides' levels (2…14), tribute duties, and match-wide penalty counts."""

    number: int
    level: Rank
    on_table: int
    levels: tuple[int, int]
    duties: TributeDuties | None = None
    leader: int | None = None  # deal 1: the seat that drew the random card, when recorded
    timeouts: tuple[int, int] = (0, 0)  # time violations per side before this deal
    fouls: tuple[int, int, int, int] = (0, 0, 0, 0)  # fouls per seat before this deal


@dataclass(slots=True)
class _Turn:
    """The part of the state a take-back (收回) restores."""

    cards_left: list[int]
    out: list[int]
    next_to_play: int | None
    table: Combo | None
    table_seat: int | None
    passed: set[int]
    skip: set[int]

    def copy(self) -> _Turn:
        return _Turn(
            list(self.cards_left), list(self.out), self.next_to_play, self.table,
            self.table_seat, set(self.passed), set(self.skip),
        )


@dataclass(slots=True)
class DealResult:
    """The replayed deal; `to_json()` gives the deal object of `table-result/1`."""

    setup: DealSetup
    phase: str = "tribute"
    turn: _Turn = field(
        default_factory=lambda: _Turn([HAND_SIZE] * 4, [], None, None, None, set(), set())
    )
    order: list[int] = field(default_factory=list)
    plays: list[dict[str, Any]] = field(default_factory=list)
    tributes: list[tuple[int, int, int, Card]] = field(default_factory=list)  # event, from, to, card
    returns: list[tuple[int, int, int, Card]] = field(default_factory=list)
    anti_tribute: list[tuple[int, int, tuple[Card, ...]]] = field(default_factory=list)
    anti_tribute_valid: bool = False
    leader: int | None = None
    penalties: list[dict[str, Any]] = field(default_factory=list)
    reports: list[dict[str, Any]] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    level_drops: list[int] = field(default_factory=lambda: [0, 0])
    timeouts: list[int] = field(default_factory=lambda: [0, 0])
    fouls: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    disqualified: int | None = None
    time_up: bool = False
    quick_entry: bool = False

    @property
    def cards_left(self) -> list[int]:
        """Cards in each seat's hand (27 at the start, tribute and return counted)."""
        return self.turn.cards_left

    @property
    def next_to_play(self) -> int | None:
        """The seat whose turn it is, or None when the deal is over."""
        if self.phase == "tribute":
            return self.leader
        return self.turn.next_to_play if self.phase == "playing" else None

    @property
    def finished(self) -> bool:
        """True once the finishing order is known."""
        return self.phase == "finished"

    def to_json(self) -> dict[str, Any]:
        """The deal's part of the result (the match adds outcome and levels)."""
        return {
            "number": self.setup.number,
            "level": self.setup.level.value,
            "on_table": self.setup.on_table,
            "phase": self.phase,
            "leader": self.leader,
            "next_to_play": self.next_to_play,
            "cards_left": list(self.turn.cards_left),
            "order": list(self.order),
            "quick_entry": self.quick_entry,
            "plays": self.plays,
            "tribute_due": self.setup.duties.to_json() if self.setup.duties else None,
            "tributes": [
                {"event": e, "from": a, "to": b, "card": str(c)} for e, a, b, c in self.tributes
            ],
            "returns": [
                {"event": e, "from": a, "to": b, "card": str(c)} for e, a, b, c in self.returns
            ],
            "anti_tribute": (
                {"seats": sorted({s for _, s, _ in self.anti_tribute}), "valid": self.anti_tribute_valid}
                if self.anti_tribute
                else None
            ),
            "reports": self.reports,
            "penalties": self.penalties,
            "violations": [v.to_json() for v in self.violations],
        }


class _Replay:
    """Applies one deal's events in order; methods named after the event types."""

    def __init__(self, rulebook: Rulebook, setup: DealSetup) -> None:
        self.rulebook = rulebook
        self.setup = setup
        self.level = setup.level
        self.deal = DealResult(setup)
        self.deal.timeouts = list(setup.timeouts)
        self.deal.fouls = list(setup.fouls)
        self.deal.leader = self._expected_leader()
        if setup.duties is None:  # deal 1: no tribute, play starts at once
            self.deal.phase = "playing"
            self.deal.turn.next_to_play = self.deal.leader
        self.opened = False  # True once the first play (or quick result) is in
        self.played = [0] * 54  # copies of each card played so far (by Card.index)
        self.seat_plays: list[list[tuple[int, tuple[Card, ...]]]] = [[], [], [], []]
        self.reported = [False] * 4
        self.unreported_from: list[int | None] = [None] * 4  # play index that went to ≤ 6
        self.unreported_plays = [0] * 4
        self.before_last_play: _Turn | None = None
        self.last_play: int | None = None  # index into deal.plays
        self.just_skipped: int | None = None
        self.index = 0

    # -- helpers ---------------------------------------------------------------------
    def invalid(self, message: str, rule_id: str = "record.invalid") -> InvalidRecordError:
        return InvalidRecordError(
            message, deal=self.setup.number, event=self.index, rule_id=rule_id
        )

    def violation(self, kind: str, seat: int | None, detail: str = "", **extra: Any) -> None:
        self.deal.violations.append(
            Violation(kind, self.index, seat, rule_id=f"guandan.{kind}", detail=detail, **extra)
        )

    def seat_of(self, event: Mapping[str, Any], key: str = "seat") -> int:
        seat = event.get(key)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= 3:
            raise self.invalid(f"{key} must be a seat 0..3, not {seat!r}", "record.seat")
        return seat

    def card_of(self, event: Mapping[str, Any], key: str = "card") -> Card:
        try:
            return parse_card(event.get(key), f"deal {self.setup.number}, event {self.index}")  # type: ignore[arg-type]
        except NotationError as error:
            raise self.invalid(str(error), "record.notation") from None

    def cards_of(self, event: Mapping[str, Any]) -> tuple[Card, ...]:
        raw = event.get("cards")
        where = f"deal {self.setup.number}, event {self.index}"
        try:
            if isinstance(raw, str):  # "3S 3D" is read like ["3S", "3D"]
                cards = parse_cards(raw, where)
                if cards:
                    return cards
            elif isinstance(raw, list) and raw:
                return tuple(parse_card(token, where) for token in raw)
        except NotationError as error:
            raise self.invalid(str(error), "record.notation") from None
        raise self.invalid("cards must be a non-empty list", "record.notation")

    def next_active(self, seat: int) -> int:
        left = self.deal.turn.cards_left
        for step in (1, 2, 3):
            candidate = (seat + step) % 4
            if left[candidate] > 0:
                return candidate
        return seat

    def _expected_leader(self) -> int | None:
        duties = self.setup.duties
        if duties is None:
            return self.setup.leader
        if self.deal.anti_tribute_valid:
            return duties.first
        if duties.kind == "single_down":
            return duties.payers[0]
        paid = [(power(c.rank, self.level), a) for _, a, _, c in self.deal.tributes if a in duties.payers]
        if len(paid) == 2 and paid[0][0] == paid[1][0]:
            return (duties.first + 1) % 4  # equal tributes: the first player's 下家 leads
        if paid:
            return max(paid)[1]
        return duties.payers[0]

    # -- tribute (进贡), return (还贡), anti-tribute (抗贡) ---------------------------------
    def before_play(self) -> None:
        if self.opened:
            raise self.invalid(
                "tribute events must come before the first play", "record.order.tribute_after_play"
            )

    def tribute(self, event: Mapping[str, Any]) -> None:
        self.before_play()
        giver, receiver = self.seat_of(event, "from"), self.seat_of(event, "to")
        card = self.card_of(event)
        duties = self.setup.duties
        if giver == receiver:
            raise self.invalid("a seat cannot pay tribute to itself", "record.seat")
        already = {a for _, a, _, _ in self.deal.tributes}
        if duties is None or giver not in duties.payers or giver in already:
            self.violation("tribute_wrong_payer", giver, f"seat {giver} owes no tribute")
        else:
            taken = {b for _, _, b, _ in self.deal.tributes}
            if receiver not in duties.receivers or receiver in taken:
                self.violation("tribute_wrong_receiver", giver, f"seat {receiver} is not owed tribute")
        self.move(giver, receiver)
        self.deal.tributes.append((self.index, giver, receiver, card))
        if duties is not None and duties.kind == "double_down":
            due = [t for t in self.deal.tributes if t[1] in duties.payers]
            if len(due) == 2:
                (e1, _, r1, c1), (e2, _, r2, c2) = due
                p1, p2 = power(c1.rank, self.level), power(c2.rank, self.level)
                if p1 != p2:
                    higher_event, higher_to = (e1, r1) if p1 > p2 else (e2, r2)
                    if higher_to != duties.first and higher_to in duties.receivers:
                        self.deal.violations.append(
                            Violation(
                                "tribute_wrong_receiver", higher_event, None,
                                rule_id="guandan.tribute_wrong_receiver",
                                detail="the higher tribute goes to the first player (头游)",
                            )
                        )
        self.deal.leader = self._expected_leader()
        self.close_if_settled()

    def return_(self, event: Mapping[str, Any]) -> None:
        self.before_play()
        giver, receiver = self.seat_of(event, "from"), self.seat_of(event, "to")
        card = self.card_of(event)
        if giver == receiver:
            raise self.invalid("a seat cannot return a card to itself", "record.seat")
        owed = {(b, a) for _, a, b, _ in self.deal.tributes}
        returned = {(a, b) for _, a, b, _ in self.deal.returns}
        if (giver, receiver) not in owed or (giver, receiver) in returned:
            self.violation("return_wrong_seat", giver, f"seat {giver} owes seat {receiver} no return")
        limit = parse_rank(self.rulebook.guandan_return_max_rank).natural
        if card.is_joker or card.rank.natural > limit:
            self.violation(
                "return_too_high", giver,
                f"{card} is above {self.rulebook.guandan_return_max_rank}", cards=(card,),
            )
        self.move(giver, receiver)
        self.deal.returns.append((self.index, giver, receiver, card))
        self.close_if_settled()

    def anti_tribute(self, event: Mapping[str, Any]) -> None:
        self.before_play()
        seat = self.seat_of(event)
        cards = self.cards_of(event)
        self.deal.anti_tribute.append((self.index, seat, cards))
        duties = self.setup.duties
        holders: tuple[int, ...] = ()
        if duties is not None:
            holders = duties.payers
            if duties.kind == "single_down" and self.rulebook.guandan_single_down_anti_tribute == "side":
                holders = (duties.payers[0], partner(duties.payers[0]))
        shown = [
            c for _, s, cs in self.deal.anti_tribute for c in cs if s in holders and c is BIG_JOKER
        ]
        valid = duties is not None and len(shown) >= 2 and not self.deal.tributes
        if duties is None or seat not in holders or any(c is not BIG_JOKER for c in cards):
            self.violation("anti_tribute_invalid", seat, "抗贡 needs the paying side's two big jokers")
        self.deal.anti_tribute_valid = valid
        self.deal.leader = self._expected_leader()
        self.close_if_settled()

    def tribute_settled(self) -> bool:
        """True once every tribute owed is paid and returned, or a valid 抗贡 cancelled it."""
        duties = self.setup.duties
        if duties is None or self.deal.anti_tribute_valid:
            return True
        deal = self.deal
        paid = {(a, b) for _, a, b, _ in deal.tributes if a in duties.payers}
        returned = {(a, b) for _, a, b, _ in deal.returns}
        return {a for a, _ in paid} == set(duties.payers) and all(
            (b, a) in returned for a, b in paid
        )

    def close_if_settled(self) -> None:
        """Seed 四.4: once the tribute and returns are all in, the deal is being played."""
        if not self.tribute_settled():
            return
        if self.deal.phase == "tribute":
            self.close_tribute()
        elif self.deal.phase == "playing":  # a stray tribute event after: follow the leader
            self.deal.leader = self._expected_leader()
            self.deal.turn.next_to_play = self.deal.leader

    def close_tribute(self, check_missing: bool = True) -> None:
        """At the first play: missing tributes and returns, then who should lead.

        A quick-entry deal (only `result`) need not log its tribute: nothing is missing.
        """
        duties = self.setup.duties
        deal = self.deal
        if duties is not None and not deal.anti_tribute_valid and check_missing:
            if deal.anti_tribute:
                self.violation("anti_tribute_invalid", deal.anti_tribute[0][1], "fewer than two big jokers shown")
            paid = {a for _, a, _, _ in deal.tributes}
            for payer in duties.payers:
                if payer not in paid:
                    self.violation("tribute_missing", payer, f"seat {payer} paid no tribute")
            returned = {(a, b) for _, a, b, _ in deal.returns}
            for _, giver, receiver, _ in deal.tributes:
                if giver in duties.payers and (receiver, giver) not in returned:
                    self.violation("return_missing", receiver, f"seat {receiver} returned no card")
        deal.leader = self._expected_leader()
        deal.phase = "playing"
        deal.turn.next_to_play = deal.leader

    def move(self, giver: int, receiver: int) -> None:
        left = self.deal.turn.cards_left
        if left[giver] <= 0:
            raise self.invalid(f"seat {giver} has no card to give", "record.card_count")
        left[giver] -= 1
        left[receiver] += 1

    # -- play ------------------------------------------------------------------------
    def start_turn(self, seat: int) -> bool:
        """Common checks of a play or pass; False when the event is a consumed skip."""
        deal = self.deal
        if not self.opened:
            self.opened = True
            if deal.phase == "tribute":
                self.close_tribute()
            if deal.leader is not None and seat != deal.leader:
                self.violation("wrong_leader", seat, f"seat {deal.leader} should lead")
                deal.turn.next_to_play = seat
        if deal.phase != "playing":
            raise self.invalid("the deal is over", "record.order.after_deal_end")
        if deal.turn.cards_left[seat] <= 0:
            raise self.invalid(f"seat {seat} has no cards left", "record.card_count")
        expected = deal.turn.next_to_play
        if expected is not None and seat != expected:
            self.violation("out_of_turn", seat, f"seat {expected} was to play")
        return True

    def play(self, event: Mapping[str, Any]) -> None:
        seat = self.seat_of(event)
        cards = self.cards_of(event)
        self.just_skipped = None
        self.start_turn(seat)
        deal, turn = self.deal, self.deal.turn
        if len(cards) > turn.cards_left[seat]:
            raise self.invalid(
                f"seat {seat} holds only {turn.cards_left[seat]} cards", "record.card_count"
            )
        for card in cards:
            seen = self.played[card.index] + 1
            if seen > 2:
                raise self.invalid(
                    f"{card} played more often than two decks hold", "record.card_copies"
                )
            self.played[card.index] = seen
        stated_kind, stated_rank = self.stated(event)
        found = readings(cards, self.level, self.rulebook.guandan_max_bomb)
        combo, beats_table = choose_reading(found, turn.table, stated_kind, stated_rank)
        # Keep the state before a play that may need taking back (报牌, seed 六.6).
        left_after = turn.cards_left[seat] - len(cards)
        self.before_last_play = (
            turn.copy()
            if 0 < left_after <= self.rulebook.guandan_report_at
            and not self.reported[seat]
            and self.unreported_from[seat] is None
            else None
        )
        entry: dict[str, Any] = {
            "event": self.index,
            "seat": seat,
            "cards": [_TEXT[c.index] for c in cards],
            "combo": combo.to_json() if combo else None,
        }
        deal.plays.append(entry)
        self.last_play = len(deal.plays) - 1
        self.seat_plays[seat].append((self.index, cards))
        turn.cards_left[seat] -= len(cards)
        if combo is None:
            stated = f" as {stated_kind}" if stated_kind else ""
            self.violation("not_a_combination", seat, f"{' '.join(entry['cards'])}{stated}", cards=cards)
            turn.passed.add(seat)
        elif not beats_table:
            assert turn.table is not None
            self.violation(
                "does_not_beat", seat,
                f"{combo.kind} {combo.rank.value} does not beat {turn.table.kind} {turn.table.rank.value}",
                cards=cards,
            )
            turn.passed.add(seat)
        else:
            turn.table, turn.table_seat = combo, seat
            turn.passed = set()
        self.track_report(seat)
        if turn.cards_left[seat] == 0:
            turn.out.append(seat)
            if self.side_done():
                return
        turn.next_to_play = self.next_active(seat)
        self.settle()

    def stated(self, event: Mapping[str, Any]) -> tuple[str | None, Rank | None]:
        stated = event.get("combo")
        if stated is None:
            return None, None
        if not isinstance(stated, Mapping) or stated.get("kind") not in KINDS:
            raise self.invalid(
                f"combo must be {{kind, rank}} with a kind in {list(KINDS)}", "record.notation"
            )
        rank = stated.get("rank")
        if rank is None:
            return str(stated["kind"]), None
        text = str(rank).strip().upper()
        if text in ("BJ", "SJ"):
            return str(stated["kind"]), Rank(text)
        try:
            return str(stated["kind"]), parse_rank(text)
        except NotationError:
            raise self.invalid(f"unknown combo rank {rank!r}", "record.notation") from None

    def pass_(self, event: Mapping[str, Any]) -> None:
        seat = self.seat_of(event)
        turn = self.deal.turn
        if self.just_skipped == seat and turn.next_to_play != seat and self.deal.phase == "playing":
            self.just_skipped = None  # the referee logged the skipped turn as a pass
            return
        self.just_skipped = None
        self.start_turn(seat)
        if turn.table is None:
            self.violation("pass_on_lead", seat, "the leader must play")
        turn.passed.add(seat)
        turn.next_to_play = self.next_active(seat)
        self.settle()

    def settle(self) -> None:
        """End the trick when everyone still holding cards has passed; apply skipped turns."""
        turn = self.deal.turn
        for _ in range(8):
            left = turn.cards_left
            if turn.table is not None and turn.table_seat is not None:
                waiting = [s for s in range(4) if left[s] > 0 and s != turn.table_seat]
                if all(s in turn.passed for s in waiting):
                    owner = turn.table_seat
                    if left[owner] > 0:
                        turn.next_to_play = owner
                    elif left[partner(owner)] > 0:
                        turn.next_to_play = partner(owner)  # 接风
                    else:
                        turn.next_to_play = self.next_active(owner)
                    turn.table, turn.table_seat, turn.passed = None, None, set()
                    continue
            seat = turn.next_to_play
            if seat is not None and seat in turn.skip:
                turn.skip.discard(seat)  # 停止一轮出牌: this turn is passed over
                self.just_skipped = seat
                if turn.table is not None:
                    turn.passed.add(seat)
                turn.next_to_play = self.next_active(seat)
                continue
            return

    def side_done(self) -> bool:
        """End the deal when both seats of a side are out; fill in the finishing order."""
        turn = self.deal.turn
        out = turn.out
        if len(out) >= 2 and (partner(out[-1]) in out or len(out) == 3):
            rest = []
            seat = out[-1]
            for step in (1, 2, 3):
                candidate = (seat + step) % 4
                if candidate not in out:
                    rest.append(candidate)
            self.finish(out + rest)
            return True
        return False

    def finish(self, order: list[int]) -> None:
        self.deal.order = order
        self.deal.phase = "finished"
        self.deal.turn.next_to_play = None

    def track_report(self, seat: int) -> None:
        left = self.deal.turn.cards_left[seat]
        if self.reported[seat] or left == 0:
            return
        if left <= self.rulebook.guandan_report_at:
            if self.unreported_from[seat] is None:
                self.unreported_from[seat] = self.last_play
            self.unreported_plays[seat] += 1

    def report(self, event: Mapping[str, Any]) -> None:
        seat = self.seat_of(event)
        remaining = event.get("remaining")
        entry: dict[str, Any] = {"event": self.index, "seat": seat, "remaining": remaining}
        left = self.deal.turn.cards_left[seat]
        if remaining is not None and remaining != left:
            self.violation("wrong_report", seat, f"reported {remaining}, holds {left}")
        self.deal.reports.append(entry)
        if left <= self.rulebook.guandan_report_at:
            self.reported[seat] = True
            self.unreported_from[seat] = None
            self.unreported_plays[seat] = 0

    # -- quick entry and penalties ---------------------------------------------------
    def result(self, event: Mapping[str, Any]) -> None:
        raw = event.get("order")
        if (
            not isinstance(raw, list)
            or not 2 <= len(raw) <= 4
            or any(isinstance(s, bool) or not isinstance(s, int) or not 0 <= s <= 3 for s in raw)
            or len(set(raw)) != len(raw)
        ):
            raise self.invalid(f"order must list distinct seats 0..3, not {raw!r}", "record.seat")
        if self.deal.phase == "finished" and list(raw) == self.deal.order[: len(raw)]:
            return  # the referee confirms the order the plays already gave
        if self.deal.phase == "finished" or self.deal.phase == "abandoned":
            raise self.invalid(
                f"order {raw} contradicts the finished deal {self.deal.order}",
                "record.order.result_contradicts",
            )
        out = self.deal.turn.out
        if list(raw[: len(out)]) != out[: len(raw)]:
            raise self.invalid(
                f"order {raw} contradicts the seats already out {out}",
                "record.order.result_contradicts",
            )
        if self.deal.phase == "tribute":
            self.close_tribute(check_missing=bool(self.deal.tributes or self.deal.anti_tribute))
        self.opened = True
        order = list(raw)
        if len(order) < 4:
            ends = partner(order[0]) == order[1] or len(order) == 3
            if not ends:
                raise self.invalid(
                    f"order {raw} does not end the deal", "record.order.result_incomplete"
                )
            seat = order[-1]
            for step in (1, 2, 3):
                if (seat + step) % 4 not in order:
                    order.append((seat + step) % 4)
        for seat in order[: 2 if partner(order[0]) == order[1] else 3]:
            self.deal.turn.cards_left[seat] = 0
        self.deal.turn.out = order[: 2 if partner(order[0]) == order[1] else 3]
        self.deal.quick_entry = True
        self.finish(order)

    def penalty(self, event: Mapping[str, Any]) -> None:
        seat = self.seat_of(event)
        kind = event.get("kind")
        if kind not in PENALTY_KINDS:
            raise self.invalid(
                f"penalty kind must be one of {list(PENALTY_KINDS)}, not {kind!r}",
                "record.notation",
            )
        deal = self.deal
        side = seat % 2
        effect = "recorded"
        if kind == "timeout":
            deal.timeouts[side] += 1
            if deal.timeouts[side] % self.rulebook.guandan_timeouts_per_level == 0:
                deal.level_drops[side] += 1
                effect = "level_drop"
        elif kind == "no_report":
            effect = self.no_report(seat, event.get("take_back", True) is not False)
        else:
            if kind in SKIP_KINDS and deal.phase in ("playing", "tribute"):
                deal.turn.skip.add(seat)
                effect = "skip_round"
                if deal.phase == "playing":
                    self.settle()
            if kind in FOUL_KINDS:
                deal.fouls[seat] += 1
                if deal.fouls[seat] >= self.rulebook.guandan_disqualify_after:
                    effect = "disqualified"
                    deal.disqualified = seat
                    if deal.phase != "finished":
                        deal.phase = "abandoned"
                        deal.turn.next_to_play = None
        note = event.get("note")
        entry: dict[str, Any] = {"event": self.index, "seat": seat, "side": side, "kind": kind, "effect": effect}
        if note:
            entry["note"] = str(note)
        deal.penalties.append(entry)

    def no_report(self, seat: int, take_back: bool) -> str:
        """Seed 6.6: take back the unreported play, or drop a level after two plays."""
        start = self.unreported_from[seat]
        if start is None:
            return "none"
        if self.unreported_plays[seat] >= self.rulebook.guandan_no_report_plays_for_level:
            self.deal.level_drops[seat % 2] += 1
            self.unreported_from[seat] = None
            self.unreported_plays[seat] = 0
            self.reported[seat] = True
            return "level_drop"
        if (
            take_back
            and self.last_play == start
            and self.before_last_play is not None
            and self.deal.phase == "playing"
        ):
            entry = self.deal.plays[start]
            entry["taken_back"] = True
            for token in entry["cards"]:
                card = parse_card(token)
                self.played[card.index] -= 1
            self.seat_plays[seat].pop()
            self.deal.turn = self.before_last_play
            self.before_last_play = None
            self.unreported_from[seat] = None
            self.unreported_plays[seat] = 0
            return "take_back"
        return "none"

    # -- hindsight ---------------------------------------------------------------------
    def tribute_hindsight(self) -> None:
        """I-12: a tribute was not the payer's highest card if the payer later plays a
        higher one (♥ level wilds excluded, the returned card excluded)."""
        duties = self.setup.duties
        if duties is None:
            return
        wild_rank = self.level
        for event_index, giver, _, card in self.deal.tributes:
            if giver not in duties.payers:
                continue
            given = power(card.rank, self.level)
            returned = [c for _, _, b, c in self.deal.returns if b == giver]
            for play_index, cards in self.seat_plays[giver]:
                proof = None
                for played in cards:
                    if played in returned:
                        returned.remove(played)
                        continue
                    if (
                        self.rulebook.guandan_tribute_excludes_wild
                        and played.rank is wild_rank
                        and played.suit is not None
                        and played.suit.value == "H"
                    ):
                        continue
                    if power(played.rank, self.level) > given:
                        proof = played
                        break
                if proof is not None:
                    self.deal.violations.append(
                        Violation(
                            "tribute_not_highest", event_index, giver, proof_event=play_index,
                            rule_id="guandan.tribute_not_highest",
                            detail=f"paid {card} but later played {proof}", cards=(card, proof),
                        )
                    )
                    break

    def time_up(self, event: Mapping[str, Any]) -> None:
        self.deal.time_up = True
        if self.deal.phase not in ("finished",):
            self.deal.phase = "abandoned"
            self.deal.turn.next_to_play = None


def replay_deal(rulebook: Rulebook, setup: DealSetup, events: Sequence[Any]) -> DealResult:
    """Replay one deal's events (a partial deal too) into a `DealResult`."""
    replay = _Replay(rulebook, setup)
    handlers = {
        "play": replay.play,
        "pass": replay.pass_,
        "tribute": replay.tribute,
        "return": replay.return_,
        "anti_tribute": replay.anti_tribute,
        "report": replay.report,
        "penalty": replay.penalty,
        "result": replay.result,
        "time_up": replay.time_up,
    }
    for index, event in enumerate(events):
        replay.index = index
        if not isinstance(event, Mapping):
            raise replay.invalid("an event must be an object", "record.notation")
        kind = event.get("type")
        handler = handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise replay.invalid(f"unknown event type {event.get('type')!r}", "record.notation")
        if replay.deal.phase in ("finished", "abandoned") and event.get("type") not in (
            "penalty", "report", "time_up", "result"
        ):
            raise replay.invalid("event after the deal's end", "record.order.after_deal_end")
        handler(event)
    replay.tribute_hindsight()
    replay.deal.violations.sort(key=lambda v: v.event)
    return replay.deal
