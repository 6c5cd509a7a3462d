"""Running an event: pairing formats, match scoring, standings, tie-breaks and match clocks.

Pure functions over pair ids (ints); the web app stores what they return. Formats:
round robin (循环赛, circle method with balanced seating), the `eighty-rr` points round
robin (积分循环赛: round 1 by a recorded random draw, later rounds by standing, never a
repeated opponent), single elimination (单败淘汰) with a seeded bracket, and multi-stage
events (round-robin groups, then a knockout of the group leaders).

A `Pairing` puts `home` on side 0 (seats 0 and 2, N/S) and `away` on side 1; `away` is
None for a bye (轮空).

>>> [(p.home, p.away) for p in round_robin([1, 2, 3, 4])[0]]
[(1, 4), (3, 2)]
>>> bracket_order(8)
[1, 8, 4, 5, 2, 7, 3, 6]
"""

from __future__ import annotations

import random
import secrets
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.rulebooks import Rulebook

__all__ = [
    "DEFAULT_TIEBREAKS",
    "TIEBREAKS",
    "MatchFacts",
    "Pairing",
    "PairingError",
    "PlayedMatch",
    "SideScore",
    "StandingRow",
    "bracket_order",
    "clock_remaining",
    "draw_first_round",
    "draw_seed",
    "facts_from_result",
    "group_knockout",
    "level_index",
    "may_start_deal",
    "next_knockout_round",
    "pair_by_standing",
    "round_robin",
    "score_match",
    "scoring_for",
    "single_elimination",
    "snake_groups",
    "standings",
    "time_up_winner",
]

LEVELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
PASSED_A = len(LEVELS)  # level index of a side that has passed A (打过A)


class PairingError(ValueError):
    """No pairing satisfies the hard constraints (e.g. every remaining opponent already met)."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """One table of a round: `home` sits N/S (side 0), `away` E/W (side 1); `away` None = bye.

    >>> Pairing(1, 7, None).is_bye
    True
    """

    table: int
    home: int
    away: int | None

    @property
    def is_bye(self) -> bool:
        """True for a bye (轮空): the pair has no opponent this round."""
        return self.away is None

    def pairs(self) -> tuple[int, ...]:
        """The pairs at this table (one for a bye)."""
        return (self.home,) if self.away is None else (self.home, self.away)


def _key(a: int, b: int) -> frozenset[int]:
    return frozenset((a, b))


# -- round robin ---------------------------------------------------------------------------


def round_robin(pairs: Sequence[int]) -> list[list[Pairing]]:
    """Every round of a round robin by the circle method (Berger tables).

    Every pair meets every other once; with an odd count one pair has a bye each round.
    Seating is balanced: each pair sits N/S in ⌊r/2⌋ or ⌈r/2⌉ of its r games.

    >>> rounds = round_robin([1, 2, 3])
    >>> len(rounds), sorted(p.home for p in rounds[0] if p.is_bye)
    (3, [3])
    """
    players: list[int | None] = list(pairs)
    if len(set(pairs)) != len(pairs):
        raise PairingError("a pair is listed twice")
    if len(players) % 2:
        players.insert(0, None)  # the bye sits in the fixed place, so every pair rotates alike
    n = len(players)
    rounds: list[list[Pairing]] = []
    for r in range(n - 1):
        games: list[tuple[int | None, int | None]] = []
        for i in range(n // 2):
            a, b = players[i], players[n - 1 - i]
            # Berger: the fixed pair alternates seats; other tables alternate by position.
            if i == 0:
                games.append((a, b) if r % 2 == 0 else (b, a))
            else:
                games.append((a, b) if i % 2 == 0 else (b, a))
        rounds.append(_tables(games))
        players = [players[0], players[-1], *players[1:-1]]
    return rounds


def _tables(games: Iterable[tuple[int | None, int | None]]) -> list[Pairing]:
    """Number the tables 1.. in order; a bye (one side None) gets table 0 and comes last."""
    real: list[Pairing] = []
    byes: list[Pairing] = []
    for home, away in games:
        if home is None and away is None:
            continue
        if home is None or away is None:
            byes.append(Pairing(0, home if home is not None else away, None))  # type: ignore[arg-type]
        else:
            real.append(Pairing(len(real) + 1, home, away))
    return real + byes


# -- eighty-rr: draw, then by standing -------------------------------------------------------


def draw_seed() -> int:
    """A fresh random seed for a round-1 draw (抽签); the event records it so it can be replayed."""
    return secrets.randbelow(2**31)


@dataclass(slots=True)
class _History:
    met: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    byes: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    home: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    away: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    last_home: dict[int, bool] = field(default_factory=dict)

    @classmethod
    def of(cls, history: Iterable[Iterable[Pairing]]) -> _History:
        h = cls()
        for round_ in history:
            for p in round_:
                if p.away is None:
                    h.byes[p.home] += 1
                    continue
                h.met[p.home].add(p.away)
                h.met[p.away].add(p.home)
                h.home[p.home] += 1
                h.away[p.away] += 1
                h.last_home[p.home] = True
                h.last_home[p.away] = False
        return h


_NODE_BUDGET = 200_000


class _OutOfBudget(Exception):
    pass


def _match_up(
    order: Sequence[int], allowed: Callable[[int, int], bool], budget: list[int]
) -> list[tuple[int, int]] | None:
    """Pair `order` top-down: the highest unpaired meets the next highest allowed (backtracking)."""
    if not order:
        return []
    first, rest = order[0], order[1:]
    for j, opponent in enumerate(rest):
        if not allowed(first, opponent):
            continue
        budget[0] -= 1
        if budget[0] < 0:
            raise _OutOfBudget
        sub = _match_up([*rest[:j], *rest[j + 1 :]], allowed, budget)
        if sub is not None:
            return [(first, opponent), *sub]
    return None


def pair_by_standing(
    ranking: Sequence[int],
    history: Iterable[Iterable[Pairing]] = (),
    *,
    forbidden: Collection[frozenset[int]] = (),
) -> list[Pairing]:
    """Pair a round by current standing: highest vs next highest not yet met (seed 002 §二).

    `ranking` lists every pair, best first. Never repeats an opponent (backtracking); an odd
    count gives one bye to the lowest-ranked pair among those with the fewest byes, so nobody
    gets a second bye before everyone had one. `forbidden` pairings (same unit/club) are
    avoided where a pairing without them exists. Seating balances N/S games. Raises
    `PairingError` when no pairing without repeats exists.

    >>> [(p.home, p.away) for p in pair_by_standing([1, 2, 3, 4], [[Pairing(1, 1, 2), Pairing(2, 3, 4)]])]
    [(1, 3), (2, 4)]
    """
    if len(set(ranking)) != len(ranking):
        raise PairingError("a pair is listed twice")
    h = _History.of(history)
    position = {pair: i for i, pair in enumerate(ranking)}
    forbidden_set = {frozenset(f) for f in forbidden}

    def strict(a: int, b: int) -> bool:
        return b not in h.met[a] and _key(a, b) not in forbidden_set

    def loose(a: int, b: int) -> bool:
        return b not in h.met[a]

    if len(ranking) % 2:
        fewest = min(h.byes[p] for p in ranking)
        bye_candidates = [p for p in reversed(ranking) if h.byes[p] == fewest]
    else:
        bye_candidates = [-1]  # no bye

    matches: list[tuple[int, int]] | None = None
    bye: int | None = None
    for allowed in (strict, loose) if forbidden_set else (loose,):
        budget = [_NODE_BUDGET]  # shared by every bye candidate of this pass
        for candidate in bye_candidates:
            order = [p for p in ranking if p != candidate]
            try:
                matches = _match_up(order, allowed, budget)
            except _OutOfBudget:
                matches = None
                break
            if matches is not None:
                bye = candidate if candidate != -1 else None
                break
        if matches is not None:
            break
    if matches is None:
        raise PairingError("no pairing without a repeated opponent exists")

    games: list[tuple[int | None, int | None]] = [_seat(a, b, h, position) for a, b in matches]
    if bye is not None:
        games.append((bye, None))
    return _tables(games)


def _seat(a: int, b: int, h: _History, position: Mapping[int, int]) -> tuple[int, int]:
    """Who sits N/S: fewer N/S games so far; then whoever sat E/W last time; then the higher ranked."""

    def balance(p: int) -> int:
        return h.home[p] - h.away[p]

    if balance(a) != balance(b):
        return (a, b) if balance(a) < balance(b) else (b, a)
    last_a, last_b = h.last_home.get(a), h.last_home.get(b)
    if last_a is not None and last_b is not None and last_a != last_b:
        return (b, a) if last_a else (a, b)
    return (a, b) if position[a] <= position[b] else (b, a)


def draw_first_round(
    pairs: Sequence[int], seed: int, *, forbidden: Collection[frozenset[int]] = ()
) -> list[Pairing]:
    """Round 1 by draw (第一场比赛通过抽签决定, seed 002 §二): shuffle with `seed`, pair in order.

    The same seed always gives the same draw, so the recorded seed proves the draw.

    >>> draw_first_round([1, 2, 3, 4], 7) == draw_first_round([1, 2, 3, 4], 7)
    True
    """
    order = sorted(pairs)
    random.Random(seed).shuffle(order)
    return pair_by_standing(order, (), forbidden=forbidden)


# -- single elimination and multi-stage ----------------------------------------------------------


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order for a bracket of `size` (a power of two).

    Seed 1 and 2 can meet only in the final; 1 plays the lowest seed first.

    >>> bracket_order(4)
    [1, 4, 2, 3]
    """
    if size < 1 or size & (size - 1):
        raise ValueError("bracket size must be a power of two")
    order = [1]
    while len(order) < size:
        n = len(order) * 2
        order = [s for seed in order for s in (seed, n + 1 - seed)]
    return order


def single_elimination(seeded: Sequence[int]) -> list[Pairing]:
    """First knockout round for pairs listed by seed (best first); byes go to the top seeds.

    Tables run in bracket order, so `next_knockout_round` pairs neighbouring winners.

    >>> [(p.home, p.away) for p in single_elimination([10, 20, 30])]
    [(10, None), (30, 20)]
    """
    if len(set(seeded)) != len(seeded):
        raise PairingError("a pair is listed twice")
    if len(seeded) < 2:
        raise PairingError("a knockout needs at least two pairs")
    size = 1
    while size < len(seeded):
        size *= 2
    order = bracket_order(size)
    slots: list[int | None] = [seeded[s - 1] if s <= len(seeded) else None for s in order]
    result: list[Pairing] = []
    for i in range(0, size, 2):
        a, b = slots[i], slots[i + 1]
        assert a is not None  # the better seed of a bracket slot always exists
        if b is None:
            result.append(Pairing(0, a, None))
        else:
            # the lower seed sits N/S; the bracket position decides nothing else
            result.append(Pairing(0, b, a) if order[i] < order[i + 1] else Pairing(0, a, b))
    return _number_in_order(result)


def _number_in_order(pairings: Sequence[Pairing]) -> list[Pairing]:
    """Keep bracket order but give real matches tables 1..n and byes table 0."""
    out: list[Pairing] = []
    table = 0
    for p in pairings:
        if p.is_bye:
            out.append(Pairing(0, p.home, None))
        else:
            table += 1
            out.append(Pairing(table, p.home, p.away))
    return out


def next_knockout_round(winners: Sequence[int]) -> list[Pairing]:
    """The next knockout round from the previous round's winners in bracket order.

    >>> [(p.home, p.away) for p in next_knockout_round([1, 4, 2, 3])]
    [(1, 4), (2, 3)]
    """
    if len(winners) < 2 or len(winners) % 2:
        raise PairingError("a knockout round needs an even number of winners (at least 2)")
    return [
        Pairing(i // 2 + 1, winners[i], winners[i + 1]) for i in range(0, len(winners), 2)
    ]


def snake_groups(seeded: Sequence[int], group_count: int) -> list[list[int]]:
    """Split seeded pairs into groups by snake seeding (蛇形分组): A B C C B A A B C …

    >>> snake_groups([1, 2, 3, 4, 5, 6], 2)
    [[1, 4, 5], [2, 3, 6]]
    """
    if group_count < 1:
        raise ValueError("at least one group")
    groups: list[list[int]] = [[] for _ in range(group_count)]
    for i, pair in enumerate(seeded):
        lap, pos = divmod(i, group_count)
        groups[pos if lap % 2 == 0 else group_count - 1 - pos].append(pair)
    return groups


def group_knockout(group_rankings: Sequence[Sequence[int]], advance: int = 2) -> list[Pairing]:
    """Knockout round 1 from group results: the top `advance` of each group, winners seeded first.

    Pairs from the same group do not meet in the first knockout round where a swap avoids it
    (with two groups: A1–B2 and B1–A2, in opposite halves).

    >>> [(p.home, p.away) for p in group_knockout([[1, 2], [3, 4]])]
    [(4, 1), (2, 3)]
    """
    group_of: dict[int, int] = {}
    seeded: list[int] = []
    for place in range(advance):
        tier = [(g, ranking[place]) for g, ranking in enumerate(group_rankings) if place < len(ranking)]
        for g, pair in tier:
            group_of[pair] = g
            seeded.append(pair)
    first = single_elimination(seeded)
    games: list[tuple[int, int | None]] = [(p.home, p.away) for p in first]
    # swap the away pairs of two tables where two pairs from one group would meet
    for i in range(len(games)):
        a, b = games[i]
        if b is None or group_of[a] != group_of[b]:
            continue
        for j in range(len(games)):
            c, d = games[j]
            if j == i or d is None:
                continue
            if group_of[a] != group_of[d] and group_of[c] != group_of[b]:
                games[i], games[j] = (a, d), (c, b)
                break
    return _number_in_order([Pairing(0, a, b) for a, b in games])


# -- match facts and scoring ------------------------------------------------------------------


def level_index(level: str) -> int:
    """0 for level 2 … 12 for A; `PASSED_A` (13) for a side past A.

    >>> level_index("A"), level_index("T")
    (12, 8)
    """
    level = "10" if level.upper() == "T" else level.upper()
    if level in ("PASSED", "A+", "PAST_A"):
        return PASSED_A
    return LEVELS.index(level)


@dataclass(frozen=True, slots=True)
class MatchFacts:
    """What the standings need from one finished match; index 0 = home (side 0), 1 = away.

    `winner` is 0, 1 or None (draw); `levels` are level indexes (`level_index`);
    `deal_points` the summed per-deal match points (eighty-rr); `aces` A's won (soft + hard).
    """

    winner: int | None
    levels: tuple[int, int] = (0, 0)
    deal_points: tuple[int, int] = (0, 0)
    aces: tuple[int, int] = (0, 0)
    time_up: bool = False


def _side_counts(match: Mapping[str, Any], deals: Sequence[Mapping[str, Any]], key: str) -> tuple[int, int]:
    """A per-side count from the match summary (`key`) or summed from the deals' outcomes."""
    value = match.get(key)
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return int(value[0]), int(value[1])
    totals = [0, 0]
    for deal in deals:
        outcome = deal.get("outcome") or {}
        v = outcome.get(key, deal.get(key))
        if isinstance(v, (list, tuple)) and len(v) == 2:
            totals[0] += int(v[0])
            totals[1] += int(v[1])
    return totals[0], totals[1]


def _aces(match: Mapping[str, Any], deals: Sequence[Mapping[str, Any]]) -> tuple[int, int]:
    """A's won per side (小分 counts soft A 软A and hard A 硬A alike, seed 003 §十一)."""
    if isinstance(match.get("aces"), (list, tuple)):
        return _side_counts(match, deals, "aces")
    soft = _side_counts(match, deals, "soft_a")
    hard = _side_counts(match, deals, "hard_a")
    return soft[0] + hard[0], soft[1] + hard[1]


def _on_table_side(deals: Sequence[Mapping[str, Any]], result: Mapping[str, Any]) -> int:
    """The side on the table (台上): the dealer side of the deal in progress or next to be dealt."""
    match = result.get("match") or {}
    if isinstance(match.get("on_table"), int):
        return int(match["on_table"])
    if not deals:
        return 0
    last = deals[-1]
    outcome = last.get("outcome") or {}
    finished = last.get("phase", "finished") == "finished" and bool(outcome)
    if finished:
        if isinstance(outcome.get("side"), int):  # Guandan: the winning side plays next
            return int(outcome["side"])
        if isinstance(outcome.get("next_dealer"), int):
            return int(outcome["next_dealer"]) % 2
    if isinstance(last.get("on_table"), int):
        return int(last["on_table"])
    if isinstance(last.get("dealer"), int):
        return int(last["dealer"]) % 2
    return 0


def time_up_winner(rulebook: Rulebook, result: Mapping[str, Any]) -> int | None:
    """The winning side when the match clock runs out, by the rulebook's time-up rule.

    `higher_level` (seed 000 "两小时内没有结束，哪一方级别升得最高为获胜方"; seed 004 §六.1
    "时间到，领先者胜，如级别相同，台上一方算胜"): higher level wins, equal → the side on
    the table. `shuangkou` (seed 003 §十 定时法): a side past A (硬A), then more soft A's,
    then the higher level, else a draw (None). `none`: the engine's own `match.winner`.

    >>> from referee.rulebooks import find_rulebook
    >>> time_up_winner(find_rulebook("union-2deck"), {"match": {"levels": ["5", "9"]}, "deals": []})
    1
    """
    match = result.get("match") or {}
    deals = result.get("deals") or []
    levels = [level_index(str(x)) for x in match.get("levels", ["2", "2"])]
    winner = match.get("winner")
    if rulebook.time_up_rule == "none":
        return int(winner) if isinstance(winner, int) else None
    if isinstance(winner, int) and match.get("finished"):
        return int(winner)  # the match ended on the board before time ran out
    if rulebook.time_up_rule == "shuangkou":
        if levels[0] == PASSED_A or levels[1] == PASSED_A:
            return 0 if levels[0] > levels[1] else 1 if levels[1] > levels[0] else None
        soft = _side_counts(match, deals, "soft_a")
        if soft[0] != soft[1]:
            return 0 if soft[0] > soft[1] else 1
        if levels[0] != levels[1]:
            return 0 if levels[0] > levels[1] else 1
        return None
    if levels[0] != levels[1]:
        return 0 if levels[0] > levels[1] else 1
    return _on_table_side(deals, result)


def facts_from_result(
    rulebook: Rulebook, result: Mapping[str, Any], *, time_up: bool = False
) -> MatchFacts:
    """Read a finished match's `table-result/1` document into `MatchFacts`.

    With `time_up` (the record's `"time_up": true`) the winner follows `time_up_winner`
    unless the engine already decided it. For eighty-rr the winner is the side with more
    deal match points (赢组积2分，打平各积1分, seed 002 §二).

    >>> from referee.rulebooks import find_rulebook
    >>> doc = {"deals": [{"match_points": [3, 0]}, {"match_points": [0, 2]}], "match": {"levels": ["2", "2"]}}
    >>> facts_from_result(find_rulebook("eighty-rr"), doc).winner
    0
    """
    match = result.get("match") or {}
    deals = list(result.get("deals") or [])
    raw_levels = [str(x) for x in match.get("levels", ["2", "2"])]
    levels = [level_index(x) for x in raw_levels]
    winner = match.get("winner")
    winner = int(winner) if isinstance(winner, int) else None
    # a side that won a pass-A match is past A (the engine's reason "passed A")
    reason = str(match.get("reason") or "")
    if winner is not None and match.get("finished") and levels[winner] == level_index("A"):
        if reason.startswith("passed") or (not reason and not time_up and rulebook.match_end == "pass_a"):
            levels[winner] = PASSED_A
    deal_points = _side_counts(
        match, [{"outcome": {"deal_points": d.get("match_points")}} for d in deals], "deal_points"
    )
    if rulebook.promotion == "match_points":
        winner = (
            0 if deal_points[0] > deal_points[1] else 1 if deal_points[1] > deal_points[0] else None
        )
    elif time_up:
        winner = time_up_winner(rulebook, result)
    return MatchFacts(
        winner=winner,
        levels=(levels[0], levels[1]),
        deal_points=deal_points,
        aces=_aces(match, deals),
        time_up=time_up,
    )


@dataclass(frozen=True, slots=True)
class SideScore:
    """One pair's score from one match: W/D/L, match points (场分) and the secondary scores."""

    outcome: str  # "W", "D", "L" or "B" (bye)
    match_points: float
    standard_score: int = 0  # shuangkou 标准分 (20:0 system)
    small_points: int = 0  # shuangkou 小分: A's won minus A's lost
    level_difference: int = 0  # own level minus opponent's
    deal_points: int = 0  # eighty-rr: summed deal match points


def scoring_for(rulebook: Rulebook) -> str:
    """The standings system: `eighty` (eighty-rr), `shuangkou` (20:0 system) or `wdl`.

    >>> from referee.rulebooks import find_rulebook
    >>> scoring_for(find_rulebook("shuangkou-simple")), scoring_for(find_rulebook("guandan-lyg"))
    ('shuangkou', 'wdl')
    """
    if rulebook.promotion == "match_points":
        return "eighty"
    if rulebook.promotion == "shuangkou":
        return "shuangkou"
    return "wdl"


def score_match(scoring: str, facts: MatchFacts) -> tuple[SideScore, SideScore]:
    """Both sides' scores for one match under `scoring` (see `scoring_for`).

    shuangkou (seed 003 §十一): level difference d; the higher side's standard score is
    10 + d capped at 20; d ≥ 3 → 2 : 0 场分, d = 1–2 → 1.5 : 0.5, d = 0 → 1 : 1.
    eighty (seed 002 §二): more deal points wins 2, draw 1 each, loss 0. wdl: win 2, draw 1.

    >>> home, away = score_match("shuangkou", MatchFacts(winner=0, levels=(7, 5)))
    >>> home.match_points, away.match_points, home.standard_score, away.standard_score
    (1.5, 0.5, 12, 8)
    """
    lv0, lv1 = facts.levels
    diff = lv0 - lv1
    aces0, aces1 = facts.aces
    if scoring == "shuangkou":
        d = abs(diff)
        high = min(20, 10 + d)
        if d == 0:
            # equal levels: a draw on match points (the time-up rule may still name a winner
            # for the record, 先手胜)
            points = (1.0, 1.0)
            outcomes = ("D", "D")
        else:
            win, lose = (2.0, 0.0) if d >= 3 else (1.5, 0.5)
            points = (win, lose) if diff > 0 else (lose, win)
            outcomes = ("W", "L") if diff > 0 else ("L", "W")
        standard = (high, 20 - high) if diff >= 0 else (20 - high, high)
        return (
            SideScore(outcomes[0], points[0], standard[0], aces0 - aces1, diff),
            SideScore(outcomes[1], points[1], standard[1], aces1 - aces0, -diff),
        )
    dp0, dp1 = facts.deal_points
    if facts.winner is None:
        pts, outs = (1.0, 1.0), ("D", "D")
    elif facts.winner == 0:
        pts, outs = (2.0, 0.0), ("W", "L")
    else:
        pts, outs = (0.0, 2.0), ("L", "W")
    return (
        SideScore(outs[0], pts[0], 0, aces0 - aces1, diff, dp0),
        SideScore(outs[1], pts[1], 0, aces1 - aces0, -diff, dp1),
    )


# -- standings --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """A finished match (or a bye when `away` is None and `facts` None) for the standings."""

    round: int
    home: int
    away: int | None
    facts: MatchFacts | None


TIEBREAKS: dict[str, str] = {
    "match_points": "场分/积分 match points",
    "small_points": "小分 small points (A's won − A's lost)",
    "level_difference": "级差 total level difference",
    "deal_points": "局分 summed deal points",
    "standard_score": "标准分 standard score",
    "wins": "胜场 wins",
    "head_to_head": "对阵 head-to-head",
    "buchholz": "对手分 opponents' match points",
}

DEFAULT_TIEBREAKS: dict[str, tuple[str, ...]] = {
    # seed 002 ranks by 积分 only; deal points and head-to-head are the project's defaults
    "eighty": ("match_points", "deal_points", "head_to_head"),
    # seed 003 §十一: 积分 → 小分 → 级差总数 → 对垒胜方 → 加时赛 (play-off)
    "shuangkou": ("match_points", "small_points", "level_difference", "head_to_head"),
    "wdl": ("match_points", "level_difference", "head_to_head"),
}


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings; `decided_by` holds the value of every tie-break in order.

    `playoff` is True when the row is still tied with another after every tie-break (加时赛).
    """

    rank: int
    pair: int
    played: int
    won: int
    drawn: int
    lost: int
    byes: int
    match_points: float
    small_points: int
    level_difference: int
    deal_points: int
    standard_score: int
    buchholz: float
    decided_by: tuple[tuple[str, float | None], ...]
    playoff: bool
    opponents: tuple[int, ...]


@dataclass(slots=True)
class _Tally:
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    match_points: float = 0.0
    small_points: int = 0
    level_difference: int = 0
    deal_points: int = 0
    standard_score: int = 0
    opponents: list[int] = field(default_factory=list)


def standings(
    pairs: Iterable[int],
    matches: Iterable[PlayedMatch],
    scoring: str,
    tiebreaks: Sequence[str] | None = None,
    *,
    bye_points: float = 2.0,
) -> list[StandingRow]:
    """Rank every pair by `tiebreaks` (default `DEFAULT_TIEBREAKS[scoring]`, reorderable).

    `head_to_head` compares only the pairs still tied: their match points against each other
    (seed 003 "以對壘時的勝方為先"); pairs tied after every criterion share the rank and are
    flagged `playoff` (seed 003 "可以采取加時賽方法分出勝負").

    >>> rows = standings([1, 2], [PlayedMatch(1, 1, 2, MatchFacts(winner=1))], "wdl")
    >>> [(r.rank, r.pair, r.match_points) for r in rows]
    [(1, 2, 2.0), (2, 1, 0.0)]
    """
    order = tuple(tiebreaks) if tiebreaks is not None else DEFAULT_TIEBREAKS[scoring]
    unknown = [t for t in order if t not in TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tie-break {unknown[0]!r}")
    tally: dict[int, _Tally] = {p: _Tally() for p in pairs}
    h2h: dict[tuple[int, int], float] = defaultdict(float)  # (pair, opponent) → points
    for m in matches:
        if m.away is None or m.facts is None:
            t = tally.setdefault(m.home, _Tally())
            t.byes += 1
            t.match_points += bye_points
            continue
        home_score, away_score = score_match(scoring, m.facts)
        for pair, opp, s in ((m.home, m.away, home_score), (m.away, m.home, away_score)):
            t = tally.setdefault(pair, _Tally())
            t.played += 1
            t.won += s.outcome == "W"
            t.drawn += s.outcome == "D"
            t.lost += s.outcome == "L"
            t.match_points += s.match_points
            t.small_points += s.small_points
            t.level_difference += s.level_difference
            t.deal_points += s.deal_points
            t.standard_score += s.standard_score
            t.opponents.append(opp)
            h2h[(pair, opp)] += s.match_points
    buchholz = {
        p: sum(tally[o].match_points for o in t.opponents if o in tally) for p, t in tally.items()
    }

    def value(pair: int, name: str, group: Sequence[int]) -> float:
        if name == "head_to_head":
            return sum(h2h.get((pair, other), 0.0) for other in group if other != pair)
        if name == "buchholz":
            return buchholz[pair]
        if name == "wins":
            return tally[pair].won
        return float(getattr(tally[pair], name))

    decided: dict[int, dict[str, float | None]] = {p: {} for p in tally}
    playoff: set[int] = set()
    ranked: list[list[int]] = []  # groups sharing a rank, in order

    def split(group: list[int], depth: int) -> None:
        if len(group) == 1 or depth == len(order):
            if len(group) > 1:
                playoff.update(group)
            ranked.append(sorted(group))
            return
        name = order[depth]
        if name == "head_to_head":
            met = any((a, b) in h2h for a in group for b in group if a != b)
            if not met:  # never met: head-to-head cannot separate them
                for p in group:
                    decided[p][name] = None
                split(group, depth + 1)
                return
        values = {p: value(p, name, group) for p in group}
        for p in group:
            decided[p][name] = values[p]
        for v in sorted(set(values.values()), reverse=True):
            split([p for p in group if values[p] == v], depth + 1)

    # first criterion over everyone at once (fast path), then recurse inside ties
    everyone = list(tally)
    if order:
        split(everyone, 0)
    else:
        ranked.append(sorted(everyone))
        if len(everyone) > 1:
            playoff.update(everyone)

    rows: list[StandingRow] = []
    rank = 1
    for group in ranked:
        for pair in group:
            t = tally[pair]
            rows.append(
                StandingRow(
                    rank=rank,
                    pair=pair,
                    played=t.played,
                    won=t.won,
                    drawn=t.drawn,
                    lost=t.lost,
                    byes=t.byes,
                    match_points=t.match_points,
                    small_points=t.small_points,
                    level_difference=t.level_difference,
                    deal_points=t.deal_points,
                    standard_score=t.standard_score,
                    buchholz=buchholz[pair],
                    decided_by=tuple((name, decided[pair].get(name)) for name in order),
                    playoff=pair in playoff,
                    opponents=tuple(t.opponents),
                )
            )
        rank += len(group)
    return rows


# -- match clocks -----------------------------------------------------------------------------


def clock_remaining(
    limit_seconds: float,
    started_at: float | None,
    now: float,
    *,
    paused_seconds: float = 0.0,
    paused_at: float | None = None,
) -> float:
    """Seconds left on a match clock (never below 0): limit − (elapsed − time paused).

    Timestamps are seconds (e.g. POSIX time); an unstarted clock shows the full limit.

    >>> clock_remaining(5400, 1000.0, 1600.0)
    4800.0
    >>> clock_remaining(5400, 1000.0, 1600.0, paused_seconds=100, paused_at=1500.0)
    5000.0
    """
    if started_at is None:
        return float(limit_seconds)
    end = paused_at if paused_at is not None else now
    elapsed = max(0.0, end - started_at - paused_seconds)
    return max(0.0, float(limit_seconds) - elapsed)


def may_start_deal(rulebook: Rulebook, remaining_seconds: float | None) -> bool:
    """Whether a new deal may start with this much time left (seed 003 §十: 最后三分鐘停止下一副牌).

    >>> from referee.rulebooks import find_rulebook
    >>> may_start_deal(find_rulebook("shuangkou-simple"), 170.0), may_start_deal(find_rulebook("shuangkou-simple"), 200.0)
    (False, True)
    """
    if remaining_seconds is None:
        return True
    if remaining_seconds <= 0:
        return False
    return remaining_seconds >= rulebook.no_new_deal_minutes * 60
