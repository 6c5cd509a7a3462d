"""A Shengji match (一场比赛): deals in sequence, levels, dealer rotation, match end.

`MatchReplay` steps through deals (the simulator uses the same stepping), and
`replay_match(rulebook, doc)` replays a whole table record. The match ends by rulebook:
first side past A (union-2deck, shuangkou-simple direct), 17 deals with the 台上 tie-break
(shuangsheng-17, and I-7: passing A before that wins at once), 4 deals (eighty-rr), a
disqualification (shuangsheng-17 talking), or the clock (record field `time_up`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.cards import Rank
from referee.errors import InvalidRecordError
from referee.rulebooks import Rulebook
from referee.shengji.deal import DealResult, replay_deal
from referee.shengji.declaration import DealSetup
from referee.shengji.events import Event, parse_events
from referee.shengji.scoring import level_index, match_points_from_deal_points, side_of

__all__ = ["MatchReplay", "MatchResult", "clear_deal_memo", "replay_deal_memo", "replay_match"]

# The web app replays a whole match on every request, but an event changes only the last
# deal: earlier deals have equal (immutable) inputs, so their results are reused.
_DEAL_MEMO: OrderedDict[tuple[Any, ...], DealResult] = OrderedDict()
_DEAL_MEMO_SIZE = 4096
_DEAL_MEMO_LOCK = threading.Lock()


def replay_deal_memo(
    rulebook: Rulebook,
    setup: DealSetup,
    events: Sequence[Event],
    *,
    last_trick_aces: int | None = None,
) -> DealResult:
    """`replay_deal`, remembered for its (immutable) inputs; the result is shared: read only.

    >>> from referee.rulebooks import find_rulebook
    >>> rb, setup = find_rulebook("eighty-rr"), DealSetup(number=1, levels=(Rank.TWO, Rank.TWO))
    >>> replay_deal_memo(rb, setup, ()) is replay_deal_memo(rb, setup, ())
    True
    """
    key = (rulebook, setup, tuple(events), last_trick_aces)
    with _DEAL_MEMO_LOCK:
        hit = _DEAL_MEMO.get(key)
        if hit is not None:
            _DEAL_MEMO.move_to_end(key)
            return hit
    result = replay_deal(rulebook, setup, events, last_trick_aces=last_trick_aces)
    with _DEAL_MEMO_LOCK:
        _DEAL_MEMO[key] = result
        while len(_DEAL_MEMO) > _DEAL_MEMO_SIZE:
            _DEAL_MEMO.popitem(last=False)
    return result


def clear_deal_memo() -> None:
    """Forget every remembered deal replay (tests and benchmarks of cold replays)."""
    with _DEAL_MEMO_LOCK:
        _DEAL_MEMO.clear()


@dataclass(slots=True)
class MatchResult:
    """The deals replayed so far and the match state (`match` object of the result)."""

    rulebook: Rulebook
    levels: tuple[str, str]
    deals: list[DealResult] = field(default_factory=list)
    finished: bool = False
    winner: int | None = None
    reason: str | None = None
    deals_counted: int = 0
    soft_a: list[int] = field(default_factory=lambda: [0, 0])
    hard_a: list[int] = field(default_factory=lambda: [0, 0])
    deal_points: list[int] = field(default_factory=lambda: [0, 0])
    talking: list[int] = field(default_factory=lambda: [0, 0])
    next_dealer: int | None = None

    def match_json(self) -> dict[str, Any]:
        """The `match` object: levels, finished, winner, and the extras of the rulebook."""
        data: dict[str, Any] = {
            "levels": list(self.levels),
            "finished": self.finished,
            "winner": self.winner,
            "deals_played": self.deals_counted,
            "next_dealer": None if self.finished else self.next_dealer,
            "on_table": self.on_table(),
        }
        if self.reason is not None:
            data["reason"] = self.reason
        if self.rulebook.promotion == "match_points":
            data["deal_points"] = list(self.deal_points)
            if self.finished:
                points = (self.deal_points[0], self.deal_points[1])
                data["match_points"] = list(match_points_from_deal_points(points))
        if any(self.soft_a) or any(self.hard_a) or self.rulebook.playing_a == "hard_a":
            data["soft_a"] = list(self.soft_a)
            data["hard_a"] = list(self.hard_a)
        return data

    def on_table(self) -> int | None:
        """The side on the table (台上): dealing the deal in progress, else the next deal."""
        if self.deals and not self.deals[-1].finished and self.deals[-1].dealer is not None:
            return self.deals[-1].dealer % 2
        return None if self.next_dealer is None else self.next_dealer % 2

    def to_json(self) -> dict[str, Any]:
        """The whole `table-result/1` document."""
        return {
            "format": "table-result/1",
            "game": "shengji",
            "rulebook": self.rulebook.name,
            "deals": [deal.to_json() for deal in self.deals],
            "match": self.match_json(),
        }


class MatchReplay:
    """Steps through a match deal by deal: `setup()` for the next deal, then `add(result)`.

    >>> from referee.rulebooks import find_rulebook
    >>> MatchReplay(find_rulebook("eighty-rr")).setup().dealer
    0
    """

    def __init__(self, rulebook: Rulebook, levels: tuple[str, str] = ("2", "2")) -> None:
        self.rulebook = rulebook
        if rulebook.fixed_level is not None:
            levels = (rulebook.fixed_level, rulebook.fixed_level)
        self.result = MatchResult(rulebook, levels)
        self.dealer: int | None = None  # deal 1: the grab, or the record's seat (rotation)
        self.previous_dealer: int | None = None
        self.result.next_dealer = 0 if rulebook.first_dealer == "rotation" else None

    @property
    def number(self) -> int:
        """The 1-based number of the next deal."""
        return len(self.result.deals) + 1

    def setup(
        self, given_dealer: int | None = None, first_drawer: int | None = None, redeal: bool = False
    ) -> DealSetup:
        """The `DealSetup` of the next deal."""
        dealer = self.dealer
        if dealer is None and self.rulebook.first_dealer == "rotation":
            # 002 3.1.1 按照次序轮流坐庄: the first deal's dealer is whoever the table starts with.
            dealer = given_dealer if given_dealer is not None else 0
        levels = self.result.levels
        return DealSetup(
            number=self.number,
            levels=(Rank(levels[0]), Rank(levels[1])),
            dealer=dealer,
            given_dealer=given_dealer,
            first_drawer=first_drawer,
            previous_dealer=self.previous_dealer,
            redeal=redeal,
        )

    def add(self, deal: DealResult) -> None:
        """Take a replayed deal's result into the match state."""
        match = self.result
        rulebook = self.rulebook
        match.deals.append(deal)
        for seat in deal.talking:
            match.talking[side_of(seat)] += 1
        self.step(deal)
        limit = rulebook.talking_limit
        if limit is not None and not match.finished:
            for side in (0, 1):
                if match.talking[side] > limit:
                    self.finish(1 - side, "disqualified: talking (001 十一)")
                    return

    def step(self, deal: DealResult) -> None:
        match = self.result
        rulebook = self.rulebook
        if deal.phase == "redeal":
            # 001 三.3: nobody declared → shuffle again and grab again.
            self.previous_dealer = deal.dealer if deal.dealer is not None else self.previous_dealer
            if rulebook.first_dealer == "grab":
                self.dealer = None
            match.next_dealer = self.dealer
            return
        score = deal.score
        if score is None:
            return  # an unfinished deal: the match stands where it is
        match.deals_counted += 1
        match.levels = score.levels_after
        for side in (0, 1):
            match.soft_a[side] += score.soft_a[side]
            match.hard_a[side] += score.hard_a[side]
            if score.match_points is not None:
                match.deal_points[side] += score.match_points[side]
        self.previous_dealer = deal.dealer
        self.dealer = score.next_dealer
        match.next_dealer = self.dealer
        if score.passed_a is not None and (
            rulebook.match_end == "pass_a" or rulebook.dealer_win_at_a_ends_game
        ):
            self.finish(score.passed_a, "passed A")
            return
        if rulebook.match_end == "deal_limit" and rulebook.deal_limit is not None:
            if match.deals_counted >= rulebook.deal_limit:
                self.finish(self.leader_by_level(), f"{rulebook.deal_limit} deals played")
        elif rulebook.match_end == "fixed_deals" and rulebook.fixed_deals is not None:
            if match.deals_counted >= rulebook.fixed_deals:
                points = match.deal_points
                winner = 0 if points[0] > points[1] else 1 if points[1] > points[0] else None
                self.finish(winner, f"{rulebook.fixed_deals} deals played")

    def leader_by_level(self) -> int:
        """Higher level wins; equal levels → the side on the table (台上, next dealer's side)."""
        levels = self.result.levels
        a, b = level_index(levels[0]), level_index(levels[1])
        if a != b:
            return 0 if a > b else 1
        return side_of(self.dealer) if self.dealer is not None else 0

    def time_up(self) -> None:
        """The match clock ran out (record field `time_up`): decide by the rulebook."""
        match = self.result
        if match.finished:
            return
        if self.rulebook.promotion == "match_points":
            points = match.deal_points
            winner = 0 if points[0] > points[1] else 1 if points[1] > points[0] else None
            self.finish(winner, "time up: deal points")
            return
        if self.rulebook.time_up_rule == "shuangkou":
            # 003 十: past A (already finished), else more soft A's, else higher level, else draw.
            if match.soft_a[0] != match.soft_a[1]:
                self.finish(0 if match.soft_a[0] > match.soft_a[1] else 1, "time up: soft A")
                return
            a, b = level_index(match.levels[0]), level_index(match.levels[1])
            self.finish(None if a == b else 0 if a > b else 1, "time up: level")
            return
        self.finish(self.leader_by_level(), "time up")

    def finish(self, winner: int | None, reason: str) -> None:
        self.result.finished = True
        self.result.winner = winner
        self.result.reason = reason


def _deal_seat(raw: Mapping[str, Any], key: str, number: int) -> int | None:
    value = raw.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise InvalidRecordError(
            f"{key} must be a seat 0..3, not {value!r}", deal=number, rule_id="record.seat"
        )
    return value


def _quick_aces(raw: Mapping[str, Any], number: int) -> int | None:
    """The `last_trick_aces` extension of a quick `result` (shuangkou-simple hard A)."""
    for event in raw.get("events", []):
        if isinstance(event, Mapping) and event.get("type") == "result":
            value = event.get("last_trick_aces")
            if value is None:
                return None
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 8:
                raise InvalidRecordError(
                    "last_trick_aces must be 0..8", deal=number, rule_id="record.notation"
                )
            return value
    return None


def replay_match(rulebook: Rulebook, doc: Mapping[str, Any]) -> MatchResult:
    """Replay every deal of a Shengji table record (already checked by `record.py`).

    Raises `InvalidRecordError` for a deal after the match ended or after an unfinished
    deal, and for anything `replay_deal` finds unreplayable.
    """
    raw_levels = doc.get("levels") or ["2", "2"]
    replay = MatchReplay(rulebook, (str(raw_levels[0]), str(raw_levels[1])))
    deals: Sequence[Any] = doc.get("deals") or []
    for position, raw in enumerate(deals):
        number = position + 1
        if not isinstance(raw, Mapping):
            raise InvalidRecordError("a deal must be a JSON object", deal=number, rule_id="record.deal")
        if replay.result.finished:
            raise InvalidRecordError(
                f"the match was already over ({replay.result.reason})",
                deal=number,
                rule_id="record.order.after_match_end",
            )
        if replay.result.deals and not replay.result.deals[-1].finished:
            raise InvalidRecordError(
                f"deal {number - 1} is not finished",
                deal=number,
                rule_id="record.order.unfinished_deal",
            )
        events: list[Event] = parse_events(raw.get("events", []), number)
        setup = replay.setup(
            _deal_seat(raw, "dealer", number),
            _deal_seat(raw, "first_drawer", number),
            raw.get("redeal") is True,
        )
        replay.add(
            replay_deal_memo(rulebook, setup, events, last_trick_aces=_quick_aces(raw, number))
        )
    if doc.get("time_up") is True:
        replay.time_up()
    return replay.result
