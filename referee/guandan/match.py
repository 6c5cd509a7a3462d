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

from collections.abc import Mapping
from typing import Any

from referee.cards import Rank, parse_rank
from referee.errors import InvalidRecordError, NotationError
from referee.guandan.deal import DealResult, DealSetup, partner, replay_deal, tribute_duties
from referee.rulebooks import Rulebook

__all__ = ["LEVELS_UP", "level_name", "promotion", "replay_guandan"]

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
        raise InvalidRecordError(str(error)) from None
    return rank.natural


def replay_guandan(rulebook: Rulebook, doc: Mapping[str, Any]) -> dict[str, Any]:
    """The whole `table-result/1` JSON for a Guandan record (partial records too).

    Raises `InvalidRecordError` (naming deal and event) for a record that cannot be replayed.
    """
    raw_levels = doc.get("levels") or ["2", "2"]
    if not isinstance(raw_levels, list) or len(raw_levels) != 2:
        raise InvalidRecordError("levels must list the two sides' levels")
    levels = [_level_value(raw_levels[0], "levels"), _level_value(raw_levels[1], "levels")]
    on_table = doc.get("on_table", 0)
    if on_table not in (0, 1) or isinstance(on_table, bool):
        raise InvalidRecordError(f"on_table must be side 0 or 1, not {on_table!r}")
    deals_raw = doc.get("deals") or []
    if not isinstance(deals_raw, list):
        raise InvalidRecordError("deals must be a list")
    a_failures = [0, 0]
    a_series = [0, 0]
    timeouts = (0, 0)
    fouls = (0, 0, 0, 0)
    duties = None
    finished = False
    winner: int | None = None
    reason: str | None = None
    results: list[dict[str, Any]] = []
    reset_levels = [parse_rank(r).natural for r in rulebook.guandan_a_reset_levels] or [2]

    for number, deal_doc in enumerate(deals_raw, start=1):
        if finished:
            raise InvalidRecordError("the match is already over", deal=number)
        if not isinstance(deal_doc, Mapping) or not isinstance(deal_doc.get("events", []), list):
            raise InvalidRecordError("a deal must be an object with an events list", deal=number)
        leader = deal_doc.get("leader")
        if leader is not None and (isinstance(leader, bool) or leader not in (0, 1, 2, 3)):
            raise InvalidRecordError(f"leader must be a seat 0..3, not {leader!r}", deal=number)
        level_value = levels[on_table]
        setup = DealSetup(
            number=number,
            level=_RANK_OF_VALUE[level_value],
            on_table=on_table,
            levels=(levels[0], levels[1]),
            duties=duties,
            leader=leader if duties is None else None,
            timeouts=timeouts,
            fouls=fouls,
        )
        deal = replay_deal(rulebook, setup, deal_doc.get("events", []))
        timeouts = (deal.timeouts[0], deal.timeouts[1])
        fouls = (deal.fouls[0], deal.fouls[1], deal.fouls[2], deal.fouls[3])
        levels_before = list(levels)
        for side in (0, 1):
            levels[side] = max(2, levels[side] - deal.level_drops[side])
        outcome: dict[str, Any] | None = None
        duties = None
        if deal.finished:
            side, up = promotion(deal.order)
            passed_a = False
            if level_value == ACE:
                if side == on_table and up == 3:
                    passed_a = True
                else:
                    a_failures[on_table] += 1
                    if a_failures[on_table] >= rulebook.guandan_a_failures_to_j:
                        a_failures[on_table] = 0
                        a_series[on_table] += 1
                        levels[on_table] = reset_levels[min(a_series[on_table], len(reset_levels)) - 1]
            if not (level_value == ACE and side == on_table and not passed_a):
                levels[side] = min(ACE, levels[side] + up)
            outcome = {"side": side, "levels_up": up, "passed_a": passed_a}
            duties = tribute_duties(deal.order)
            on_table = side
            if passed_a:
                finished, winner, reason = True, side, "passed_a"
        elif number < len(deals_raw) and deal.disqualified is None and not deal.time_up:
            raise InvalidRecordError("an unfinished deal is followed by another deal", deal=number)
        if deal.disqualified is not None and not finished:
            finished, winner, reason = True, 1 - deal.disqualified % 2, "disqualified"
        if deal.time_up and not finished:
            finished, winner, reason = True, _time_up_winner(levels, on_table), "time_up"
        results.append(_deal_json(deal, outcome, levels_before, levels, duties, a_failures, a_series))

    elapsed = doc.get("elapsed_minutes")
    limit = rulebook.time_limit_minutes
    clock_out = doc.get("time_up") is True or (
        isinstance(elapsed, int | float) and limit is not None and elapsed >= limit
    )
    if clock_out and not finished:
        finished, winner, reason = True, _time_up_winner(levels, on_table), "time_up"
    return {
        "format": "table-result/1",
        "game": "guandan",
        "rulebook": rulebook.name,
        "deals": results,
        "match": {
            "levels": [level_name(v) for v in levels],
            "on_table": on_table,
            "a_attempts": list(a_failures),
            "a_series": list(a_series),
            "finished": finished,
            "winner": winner,
            "reason": reason,
        },
    }


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
    duties: Any,
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
