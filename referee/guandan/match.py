"""A Guandan match: deals in sequence, promotion, the A level, time-up and disqualification.

`replay_guandan(rulebook, doc)` turns a whole table record into `table-result/1`.

Record fields read here besides `deals`: `levels` (start levels, default 2 and 2),
`on_table` (the side on the table for deal 1, default 0), `time_up` (true when the match
clock ran out after the recorded deals), `elapsed_minutes` (time-up when it reaches the
rulebook's limit), and per deal `leader` (deal 1: the seat that drew the random card, so a
wrong first lead can be reported) and `events`. A `{"type": "time_up"}` event inside a
deal stops the match there (an unfinished deal is abandoned).

>>> from referee.rulebooks import find_rulebook
>>> doc = {"game": "guandan", "deals": [{"events": [{"type": "result", "order": [0, 2, 1, 3]}]}]}
>>> result = replay_guandan(find_rulebook("guandan-lyg"), doc)
>>> result["deals"][0]["outcome"], result["match"]["levels"]
({'side': 0, 'levels_up': 3, 'passed_a': False}, ['5', '2'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.cards import Rank, parse_rank
from referee.errors import InvalidRecordError, NotationError
from referee.guandan.deal import (
    DealResult,
    DealSetup,
    TributeDuties,
    partner,
    replay_deal,
    tribute_duties,
)
from referee.rulebooks import Rulebook

__all__ = ["LEVELS_UP", "GuandanMatch", "level_name", "promotion", "replay_guandan"]

ACE = 14
# Promotion of the first player's side by the partner's place (seed 五.2).
LEVELS_UP = {1: 3, 2: 2, 3: 1}
_RANK_OF_VALUE = {rank.natural: rank for rank in Rank}


def level_name(value: int) -> str:
    """A level as its rank string. >>> level_name(14) -> 'A'."""
    return _RANK_OF_VALUE[value].value


def promotion(order: list[int]) -> tuple[int, int]:
    """(winning side, levels up) for a finishing order: partner 2nd +3, 3rd +2, 4th +1.

    >>> promotion([1, 0, 3, 2])
    (1, 2)
    """
    first = order[0]
    return first % 2, LEVELS_UP[order.index(partner(first))]


def _level_value(raw: Any, where: str) -> int:
    try:
        rank = parse_rank(str(raw), where)
    except NotationError as error:
        raise InvalidRecordError(str(error), rule_id="record.levels") from None
    return rank.natural


class GuandanMatch:
    """A match replayed deal by deal: levels, side on the table, A counts, the end.

    >>> from referee.rulebooks import find_rulebook
    >>> match = GuandanMatch(find_rulebook("guandan-lyg"))
    >>> match.add_deal({"events": [{"type": "result", "order": [1, 0, 3, 2]}]})["levels_after"]
    ['2', '4']
    >>> match.on_table, match.level
    (1, <Rank.FOUR: '4'>)
    """

    def __init__(self, rulebook: Rulebook, levels: Sequence[int] = (2, 2), on_table: int = 0) -> None:
        self.rulebook = rulebook
        self.levels = [levels[0], levels[1]]
        self.on_table = on_table
        self.a_failures = [0, 0]
        self.a_series = [0, 0]
        self.timeouts = (0, 0)
        self.fouls = (0, 0, 0, 0)
        self.duties: TributeDuties | None = None
        self.finished = False
        self.winner: int | None = None
        self.reason: str | None = None
        self.deals: list[dict[str, Any]] = []
        self.last_open = False  # the last deal is unfinished (only the record's end may be)
        self.reset_levels = [parse_rank(r).natural for r in rulebook.guandan_a_reset_levels] or [2]

    @property
    def level(self) -> Rank:
        """The level the next deal is played at: the side on the table's."""
        return _RANK_OF_VALUE[self.levels[self.on_table]]

    def add_deal(self, deal_doc: Mapping[str, Any]) -> dict[str, Any]:
        """Replay the next deal and apply its outcome; returns the deal's result JSON."""
        number = len(self.deals) + 1
        if self.finished:
            raise InvalidRecordError(
                "the match is already over", deal=number, rule_id="record.order.after_match_end"
            )
        if self.last_open:
            raise InvalidRecordError(
                "an unfinished deal is followed by another deal",
                deal=number - 1,
                rule_id="record.order.unfinished_deal",
            )
        if not isinstance(deal_doc, Mapping) or not isinstance(deal_doc.get("events", []), list):
            raise InvalidRecordError(
                "a deal must be an object with an events list", deal=number, rule_id="record.deal"
            )
        leader = deal_doc.get("leader")
        if leader is not None and (isinstance(leader, bool) or leader not in (0, 1, 2, 3)):
            raise InvalidRecordError(
                f"leader must be a seat 0..3, not {leader!r}", deal=number, rule_id="record.seat"
            )
        levels, on_table = self.levels, self.on_table
        level_value = levels[on_table]
        setup = DealSetup(
            number=number,
            level=_RANK_OF_VALUE[level_value],
            on_table=on_table,
            levels=(levels[0], levels[1]),
            duties=self.duties,
            leader=leader if self.duties is None else None,
            timeouts=self.timeouts,
            fouls=self.fouls,
        )
        deal = replay_deal(self.rulebook, setup, deal_doc.get("events", []))
        self.timeouts = (deal.timeouts[0], deal.timeouts[1])
        self.fouls = (deal.fouls[0], deal.fouls[1], deal.fouls[2], deal.fouls[3])
        levels_before = list(levels)
        for side in (0, 1):
            levels[side] = max(2, levels[side] - deal.level_drops[side])
        outcome: dict[str, Any] | None = None
        self.duties = None
        self.last_open = not deal.finished and deal.disqualified is None and not deal.time_up
        if deal.finished:
            side, up = promotion(deal.order)
            passed_a = False
            if level_value == ACE:
                if side == on_table and up == 3:
                    passed_a = True  # seed 六.2: first and second at A
                else:
                    self.a_failures[on_table] += 1
                    if self.a_failures[on_table] >= self.rulebook.guandan_a_failures_to_j:
                        self.a_failures[on_table] = 0
                        self.a_series[on_table] += 1
                        series = min(self.a_series[on_table], len(self.reset_levels))
                        levels[on_table] = self.reset_levels[series - 1]
            if not (level_value == ACE and side == on_table and not passed_a):
                levels[side] = min(ACE, levels[side] + up)  # A must be played (五.1)
            outcome = {"side": side, "levels_up": up, "passed_a": passed_a}
            self.duties = tribute_duties(deal.order)
            self.on_table = side
            if passed_a:
                self.end(side, "passed_a")
        if deal.disqualified is not None:
            self.end(1 - deal.disqualified % 2, "disqualified")
        if deal.time_up:
            self.time_up()
        result = _deal_json(
            deal, outcome, levels_before, levels, self.duties, self.a_failures, self.a_series
        )
        self.deals.append(result)
        return result

    def end(self, winner: int, reason: str) -> None:
        """Finish the match (the first reason given stands)."""
        if not self.finished:
            self.finished, self.winner, self.reason = True, winner, reason

    def time_up(self) -> None:
        """Seed 六.1: at time-up the side ahead wins; equal levels → the side on the table."""
        self.end(_time_up_winner(self.levels, self.on_table), "time_up")

    def to_json(self) -> dict[str, Any]:
        """The whole `table-result/1` document."""
        return {
            "format": "table-result/1",
            "game": "guandan",
            "rulebook": self.rulebook.name,
            "deals": self.deals,
            "match": {
                "levels": [level_name(v) for v in self.levels],
                "on_table": self.on_table,
                "a_attempts": list(self.a_failures),
                "a_series": list(self.a_series),
                "finished": self.finished,
                "winner": self.winner,
                "reason": self.reason,
            },
        }


def replay_guandan(rulebook: Rulebook, doc: Mapping[str, Any]) -> dict[str, Any]:
    """The whole `table-result/1` JSON for a Guandan record (partial records too).

    Raises `InvalidRecordError` (naming deal and event) for a record that cannot be replayed.
    """
    raw_levels = doc.get("levels") or ["2", "2"]
    if not isinstance(raw_levels, list) or len(raw_levels) != 2:
        raise InvalidRecordError("levels must list the two sides' levels", rule_id="record.levels")
    levels = (_level_value(raw_levels[0], "levels"), _level_value(raw_levels[1], "levels"))
    on_table = doc.get("on_table", 0)
    if on_table not in (0, 1) or isinstance(on_table, bool):
        raise InvalidRecordError(
            f"on_table must be side 0 or 1, not {on_table!r}", rule_id="record.on_table"
        )
    deals_raw = doc.get("deals") or []
    if not isinstance(deals_raw, list):
        raise InvalidRecordError("deals must be a list", rule_id="record.deals")
    match = GuandanMatch(rulebook, levels, on_table)
    for deal_doc in deals_raw:
        match.add_deal(deal_doc)
    elapsed = doc.get("elapsed_minutes")
    limit = rulebook.time_limit_minutes
    if doc.get("time_up") is True or (
        isinstance(elapsed, int | float) and limit is not None and elapsed >= limit
    ):
        if match.last_open and not match.finished:
            match.deals[-1].update(phase="abandoned", next_to_play=None, time_up=True)
        match.time_up()
    return match.to_json()


def _time_up_winner(levels: list[int], on_table: int) -> int:
    """Seed 六.1: at time-up the side ahead wins; equal levels → the side on the table."""
    if levels[0] != levels[1]:
        return 0 if levels[0] > levels[1] else 1
    return on_table


def _deal_json(
    deal: DealResult,
    outcome: dict[str, Any] | None,
    levels_before: list[int],
    levels_after: list[int],
    duties: TributeDuties | None,
    a_failures: list[int],
    a_series: list[int],
) -> dict[str, Any]:
    data = deal.to_json()
    data["levels_before"] = [level_name(v) for v in levels_before]
    data["outcome"] = outcome
    data["levels_after"] = [level_name(v) for v in levels_after]
    data["tribute_next"] = duties.to_json() if duties is not None else None
    data["a_attempts"] = list(a_failures)
    data["a_series"] = list(a_series)
    data["disqualified"] = deal.disqualified
    data["time_up"] = deal.time_up
    return data
