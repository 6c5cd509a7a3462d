"""Deal scoring (计分): bottom multiplier (抠底), penalties (I-8, I-10), promotion (升级).

Everything here is a pure function of the rulebook and a few numbers, so every row of the
RULEBOOKS.md §2, §3 and §5 tables is one call.

>>> from referee.rulebooks import find_rulebook
>>> bottom_multiplier(find_rulebook("union-2deck"), "tractor2")
6
>>> promote(find_rulebook("union-2deck"), 40, dealer=0, levels=("2", "2")).levels_after
('3', '2')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.cards import NATURAL_RANKS, Rank
from referee.rulebooks import Rulebook

__all__ = [
    "PENALTY_SILENT",
    "DealScore",
    "PenaltyCharge",
    "apply_penalties",
    "bottom_multiplier",
    "component_multiplier",
    "deal_match_points",
    "default_penalty_points",
    "level_index",
    "match_points_from_deal_points",
    "next_dealer",
    "promote",
    "raise_level",
    "side_of",
]

ACE_INDEX = len(NATURAL_RANKS) - 1

# RULEBOOKS.md §3: offences each rulebook is silent on ("—"); I-10 applies union-2deck's rule.
PENALTY_SILENT: dict[str, frozenset[str]] = {
    "union": frozenset({"wrong_declaration", "talking"}),
    "shuangsheng": frozenset({"wrong_follow", "hidden_card", "card_count", "wrong_declaration"}),
    "match_points": frozenset(
        {"failed_throw", "wrong_follow", "hidden_card", "card_count", "wrong_declaration"}
    ),
    "shuangkou": frozenset({"hidden_card", "talking"}),
}


def side_of(seat: int) -> int:
    """Side 0 = seats 0 and 2, side 1 = seats 1 and 3. >>> side_of(3) -> 1."""
    return seat % 2


def level_index(level: str | Rank) -> int:
    """0 for level 2 … 12 for A. >>> level_index("J") -> 9."""
    return NATURAL_RANKS.index(Rank(level))


# -- bottom multiplier (抠底) ------------------------------------------------------------


def _tractor_length(shape: str) -> int:
    if shape == "single":
        return 0
    if shape == "pair":
        return 1
    if shape.startswith("tractor"):
        return int(shape[7:] or "2")
    raise ValueError(f"unknown shape {shape!r}")


def component_multiplier(rulebook: Rulebook, shape: str, trump: bool = False) -> int:
    """Multiplier for a last trick won by one component: `single`, `pair`, `tractorN`.

    union-2deck (000 §11): 2, 4, 2n+2; shuangsheng-17 (001 八): 2, 4, 2^(n+1);
    eighty-rr (002 3.7, I-4): flat 2; shuangkou-simple (003 六): side suit 1, 2, 2^n,
    with trump twice that.

    >>> from referee.rulebooks import find_rulebook
    >>> component_multiplier(find_rulebook("shuangsheng-17"), "tractor3")
    16
    """
    pairs = _tractor_length(shape)  # 0 single, 1 pair, n tractor
    scheme = rulebook.bottom_multiplier
    if scheme == "flat":
        return 2
    if scheme == "linear":
        return 2 if pairs == 0 else 2 * pairs + 2
    if scheme == "power":
        return int(2 ** (pairs + 1))
    if scheme == "shuangkou":
        side = int(2**pairs)
        return side * 2 if trump else side
    raise ValueError(f"unknown bottom multiplier scheme {scheme!r}")


def bottom_multiplier(
    rulebook: Rulebook, shape: str, trump: bool = False, throw_largest: str | None = None
) -> int:
    """Multiplier when the defenders win the last trick with a lead of `shape`.

    `shape` is `single`, `pair`, `tractorN`, `throw` (with `throw_largest`) or
    `throw:<largest>` as `evaluate_trick` reports it. A throw counts as its largest
    component (I-3); union-2deck never goes below ×3 for a throw (000 §11 "甩牌抠底3倍").

    >>> from referee.rulebooks import find_rulebook
    >>> bottom_multiplier(find_rulebook("union-2deck"), "throw:single")
    3
    """
    if shape.startswith("throw"):
        largest = shape[6:] if shape.startswith("throw:") else (throw_largest or "single")
        if largest == "tractor":
            largest = "tractor2"
        value = component_multiplier(rulebook, largest, trump)
        return max(value, rulebook.throw_multiplier_floor)
    if shape == "tractor":
        shape = "tractor2"
    return component_multiplier(rulebook, shape, trump)


# -- penalties (违例) ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PenaltyCharge:
    """One penalty applied to a deal: who, what, how many points, against which side.

    `union_rule` is True where the rulebook is silent and I-10 applied union-2deck's rule.
    """

    event: int
    seat: int
    kind: str
    points: int
    side: int
    union_rule: bool = False
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        """The `penalties[]` entry of the deal result."""
        data: dict[str, Any] = {
            "event": self.event,
            "seat": self.seat,
            "kind": self.kind,
            "points": self.points,
            "side": self.side,
        }
        if self.union_rule:
            data["rule"] = "I-10: treated as union-2deck"
        if self.note:
            data["note"] = self.note
        return data


def default_penalty_points(
    rulebook: Rulebook, kind: str, cards: int = 1
) -> tuple[int, bool]:
    """(points, union_rule) for a penalty event without `points` (RULEBOOKS.md §3, I-10).

    failed_throw: points per card × cards; wrong_follow: per card (union-2deck: 0, a minor
    error; a serious one is recorded as hidden_card); hidden_card: 20 (000 §18, 20–30);
    the others carry no points of their own.

    >>> from referee.rulebooks import find_rulebook
    >>> default_penalty_points(find_rulebook("shuangsheng-17"), "hidden_card")
    (20, True)
    """
    silent = kind in PENALTY_SILENT.get(rulebook.promotion, frozenset())
    if silent and not rulebook.silent_penalty_as_union:
        return 0, False
    if kind == "failed_throw":
        points = rulebook.failed_throw_points_per_card * cards
    elif kind == "wrong_follow":
        points = rulebook.wrong_follow_points_per_card * cards
    elif kind == "hidden_card":
        points = rulebook.hidden_card_points
    else:
        points = 0
    return points, silent


def apply_penalties(
    rulebook: Rulebook, defender_points: int, charges: list[PenaltyCharge], dealer: int
) -> int:
    """The defenders' total after penalties (I-8).

    Points against the defenders are subtracted, points against the dealer side added;
    the total never goes below 0 when `penalty_floor_zero` (I-8).

    >>> from referee.rulebooks import find_rulebook
    >>> apply_penalties(find_rulebook("union-2deck"), 20, [PenaltyCharge(0, 1, "other", 30, 1)], 0)
    0
    """
    total = defender_points
    dealer_side = side_of(dealer)
    for charge in charges:
        if charge.side == dealer_side:
            total += charge.points
        else:
            total -= charge.points
    if rulebook.penalty_floor_zero:
        total = max(total, 0)
    return total


# -- promotion (升级) ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealScore:
    """What a deal's defenders' total means: winner, levels, next dealer, match points.

    `winner` is `dealer` or `defenders`; `levels_up` is how far the winning side really
    moved (after must-play stops); `passed_a` is the side that passed A (wins the match).
    """

    winner: str
    levels_up: int
    next_dealer: int
    levels_after: tuple[str, str]
    table_levels_up: int = 0
    stopped_at: str | None = None
    passed_a: int | None = None
    soft_a: tuple[int, int] = (0, 0)
    hard_a: tuple[int, int] = (0, 0)
    match_points: tuple[int, int] | None = None
    notes: tuple[str, ...] = field(default=())

    def outcome_json(self) -> dict[str, Any]:
        """The `outcome` object of the deal result (exactly RECORD_FORMAT.md's three keys)."""
        return {
            "winner": self.winner,
            "levels_up": self.levels_up,
            "next_dealer": self.next_dealer,
        }

    def promotion_json(self) -> dict[str, Any]:
        """The `promotion` extension: table row, must-play stop, A passed, soft and hard A's."""
        return {
            "table_levels_up": self.table_levels_up,
            "stopped_at": self.stopped_at,
            "passed_a": self.passed_a,
            "soft_a": list(self.soft_a),
            "hard_a": list(self.hard_a),
            "notes": list(self.notes),
        }


def next_dealer(rulebook: Rulebook, dealer: int, dealer_won: bool) -> int:
    """The next deal's dealer (RULEBOOKS.md §2 "next dealer").

    partner_or_next (000 §11, 001 十): won → partner, lost → 下家; rotate (002 3.1.1):
    always the 下家; same_or_next (003 六): won → same dealer, lost → 下家.

    >>> from referee.rulebooks import find_rulebook
    >>> next_dealer(find_rulebook("union-2deck"), 1, True)
    3
    """
    if rulebook.next_dealer == "rotate":
        return (dealer + 1) % 4
    if rulebook.next_dealer == "same_or_next":
        return dealer if dealer_won else (dealer + 1) % 4
    return (dealer + 2) % 4 if dealer_won else (dealer + 1) % 4


def raise_level(
    rulebook: Rulebook, level: str, steps: int, *, played_as_dealer: bool
) -> tuple[str, bool, str | None]:
    """(new level, passed A, must-play level it stopped at) after `steps` promotions.

    A promotion stops at each must-play level (union-2deck: 2, J, A) above the current
    one. Going past A passes A; when A is a must-play level only a dealer win at A
    passes it (先打过A者为胜方), defenders at A stay there and take the deal. With
    `must_play_as_dealer` (I-14) the same holds for every must-play level (2, J).

    >>> from referee.rulebooks import find_rulebook
    >>> raise_level(find_rulebook("union-2deck"), "9", 3, played_as_dealer=True)
    ('J', False, 'J')
    """
    start = level_index(level)
    if steps <= 0:
        return level, False, None
    must = sorted(level_index(m) for m in rulebook.must_play_levels)
    target = start + steps
    stopped: str | None = None
    if start in must and not played_as_dealer and (
        start == ACE_INDEX or rulebook.must_play_as_dealer
    ):
        # 必打 (I-14): a must-play level is passed only by a dealer win on it.
        return level, False, level
    for stop in must:
        if start < stop < target:
            target = stop
            stopped = NATURAL_RANKS[stop].value
            break
    if stopped is None and target > ACE_INDEX:
        return "A", True, None
    return NATURAL_RANKS[min(target, ACE_INDEX)].value, False, stopped


def deal_match_points(defender_total: int) -> tuple[int, int]:
    """eighty-rr (002 二, RULEBOOKS.md §5): (dealer side, defenders) deal points.

    >>> deal_match_points(40), deal_match_points(200)
    ((2, 0), (0, 5))
    """
    x = defender_total
    if x <= 0:
        return 4, 0
    if x < 40:
        return 3, 0
    if x < 80:
        return 2, 0
    if x < 120:
        return 0, 2
    if x < 160:
        return 0, 3
    if x < 200:
        return 0, 4
    return 0, 5


def match_points_from_deal_points(points: tuple[int, int]) -> tuple[int, int]:
    """eighty-rr match points: more deal points 2, draw 1 each, loss 0. >>> (2, 0) for (7, 3)."""
    if points[0] > points[1]:
        return 2, 0
    if points[0] < points[1]:
        return 0, 2
    return 1, 1


def _table_steps(rulebook: Rulebook, x: int) -> tuple[bool, int]:
    """(dealer side wins, levels up of the winning side) from the §2 promotion row."""
    if rulebook.promotion == "shuangsheng":
        # 001 九: 0 +3; 5–35 +2; 40–75 +1; 80–115 switch; 120–155 +1; 160–200 +2; > 200 +3.
        if x <= 0:
            return True, 3
        if x < 40:
            return True, 2
        if x < 80:
            return True, 1
        if x < 120:
            return False, 0
        if x < 160:
            return False, 1
        if x <= 200:
            return False, 2
        return False, 3
    if rulebook.promotion == "shuangkou":
        # 003 九 with I-6: the dealer side's score is 200 − x.
        if x <= 0:
            return True, ACE_INDEX  # straight to A: `promote` counts the real distance
        if x < 80:
            return True, max(0, (200 - x - 120) // 10)
        return False, (x - 80) // 10
    # union (000 §12) and the default: 0 +3; 0 < x < 40 +2; 40 ≤ x < 80 +1 (I-5);
    # 80 ≤ x < 120 switch; 120 +1 and +1 per further 40.
    if x <= 0:
        return True, 3
    if x < 40 or (x == 40 and not rulebook.forty_is_plus_one):
        return True, 2
    if x < 80:
        return True, 1
    if x < 120:
        return False, 0
    return False, 1 + (x - 120) // 40


def promote(
    rulebook: Rulebook,
    defender_total: int,
    *,
    dealer: int,
    levels: tuple[str, str],
    last_trick_dealer_aces: int = 0,
) -> DealScore:
    """The deal's outcome from the defenders' total x (RULEBOOKS.md §2 promotion, §5).

    `levels` are both sides' levels before the deal; `last_trick_dealer_aces` is the
    number of A's in the dealer side's winning play of the last trick (0 when the
    defenders won it), for shuangkou-simple's hard A (硬A).

    >>> from referee.rulebooks import find_rulebook
    >>> promote(find_rulebook("shuangsheng-17"), 120, dealer=0, levels=("5", "3")).levels_after
    ('5', '4')
    """
    x = defender_total
    dealer_side = side_of(dealer)
    defender_side = 1 - dealer_side
    if rulebook.promotion == "match_points":
        points = deal_match_points(x)
        by_side = [0, 0]
        by_side[dealer_side], by_side[defender_side] = points
        dealer_won = x < 80
        return DealScore(
            winner="dealer" if dealer_won else "defenders",
            levels_up=0,
            next_dealer=next_dealer(rulebook, dealer, dealer_won),
            levels_after=levels,
            match_points=(by_side[0], by_side[1]),
        )

    dealer_won, steps = _table_steps(rulebook, x)
    winning_side = dealer_side if dealer_won else defender_side
    new_levels = list(levels)
    soft = [0, 0]
    hard = [0, 0]
    passed: int | None = None
    stopped: str | None = None
    notes: list[str] = []
    current = levels[winning_side]

    if rulebook.promotion == "shuangkou":
        at_a = current == "A"
        if dealer_won and at_a:
            # 003 九.4: at A the dealer passes only with x < 80 and the last trick won by
            # the dealer side's A; each A in that play is a hard A (硬A).
            if last_trick_dealer_aces > 0:
                passed = winning_side
                hard[winning_side] = last_trick_dealer_aces
            elif x <= 0:
                soft[winning_side] = 1
            steps_done = 0
        elif dealer_won and x <= 0:
            new_levels[winning_side] = "A"
            soft[winning_side] = 1
            steps = steps_done = ACE_INDEX - level_index(current)
            notes.append("x = 0: dealer straight to A + 1 soft A (003 九.2)")
        elif not dealer_won and x >= 200:
            new_levels[winning_side] = "A"
            soft[winning_side] = x // 200
            steps = steps_done = ACE_INDEX - level_index(current)
            notes.append("x ≥ 200: defenders straight to A + soft A (003 九.3)")
        else:
            target = min(level_index(current) + steps, ACE_INDEX)
            steps_done = target - level_index(current)
            new_levels[winning_side] = NATURAL_RANKS[target].value
        return DealScore(
            winner="dealer" if dealer_won else "defenders",
            levels_up=steps_done,
            next_dealer=next_dealer(rulebook, dealer, dealer_won),
            levels_after=(new_levels[0], new_levels[1]),
            table_levels_up=steps,
            passed_a=passed,
            soft_a=(soft[0], soft[1]),
            hard_a=(hard[0], hard[1]),
            notes=tuple(notes),
        )

    new_level, passed_flag, stopped = raise_level(
        rulebook, current, steps, played_as_dealer=dealer_won
    )
    new_levels[winning_side] = new_level
    if passed_flag:
        passed = winning_side
        moved = ACE_INDEX + 1 - level_index(current)
    else:
        moved = level_index(new_level) - level_index(current)
    return DealScore(
        winner="dealer" if dealer_won else "defenders",
        levels_up=moved,
        next_dealer=next_dealer(rulebook, dealer, dealer_won),
        levels_after=(new_levels[0], new_levels[1]),
        table_levels_up=steps,
        stopped_at=stopped,
        passed_a=passed,
    )
