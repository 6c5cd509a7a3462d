"""Deal scoring: every row of RULEBOOKS.md §2 (bottom, promotion, next dealer, A), §3
(penalty points, I-8, I-10) and §5 (eighty-rr deal points), with every boundary."""

from __future__ import annotations

import pytest

from referee.rulebooks import find_rulebook
from referee.shengji.scoring import (
    PenaltyCharge,
    apply_penalties,
    bottom_multiplier,
    deal_match_points,
    default_penalty_points,
    match_points_from_deal_points,
    next_dealer,
    promote,
    raise_level,
)

UNION = find_rulebook("union-2deck")
SHUANGSHENG = find_rulebook("shuangsheng-17")
EIGHTY = find_rulebook("eighty-rr")
SHUANGKOU = find_rulebook("shuangkou-simple")


# -- bottom multiplier (抠底) --------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "expected"),
    [("single", 2), ("pair", 4), ("tractor2", 6), ("tractor3", 8), ("tractor4", 10)],
)
def test_union_bottom_linear_000_s11(shape: str, expected: int) -> None:
    """000 §11: 单张2倍, 对子4倍, 二连对6倍, 后来每多连1对加2."""
    assert bottom_multiplier(UNION, shape) == expected


@pytest.mark.parametrize(
    ("shape", "expected"),
    [
        ("throw:single", 3),  # a throw of singles never goes below ×3 (I-3)
        ("throw:pair", 4),
        ("throw:tractor2", 6),
        ("throw:tractor3", 8),
    ],
)
def test_union_throw_bottom_max_of_three_and_largest_I3(shape: str, expected: int) -> None:
    """000 §11 甩牌抠底3倍或按其中包括张数最多组 → max(3, largest component's) (I-3)."""
    assert bottom_multiplier(UNION, shape) == expected


def test_quick_result_throw_uses_throw_largest_field_I3() -> None:
    """Quick entry: `throw` with `last_trick_throw_largest`; without it the throw is singles."""
    assert bottom_multiplier(UNION, "throw", throw_largest="pair") == 4
    assert bottom_multiplier(UNION, "throw") == 3
    assert bottom_multiplier(SHUANGSHENG, "throw", throw_largest="tractor2") == 8


@pytest.mark.parametrize(
    ("shape", "expected"),
    [("single", 2), ("pair", 4), ("tractor2", 8), ("tractor3", 16), ("tractor4", 32)],
)
def test_shuangsheng_bottom_power_001_s8(shape: str, expected: int) -> None:
    """001 八: 单张×2, 对子×4, 两连×8, 三连×16, 以此类推 (2^(n+1))."""
    assert bottom_multiplier(SHUANGSHENG, shape) == expected


def test_shuangsheng_throw_by_largest_component_I3() -> None:
    """I-3: a throw multiplies by its largest component; no floor of 3 in 001."""
    assert bottom_multiplier(SHUANGSHENG, "throw:single") == 2
    assert bottom_multiplier(SHUANGSHENG, "throw:pair") == 4
    assert bottom_multiplier(SHUANGSHENG, "throw:tractor3") == 16


@pytest.mark.parametrize("shape", ["single", "pair", "tractor2", "tractor3", "throw:pair"])
@pytest.mark.parametrize("trump", [False, True])
def test_eighty_bottom_flat_x2_I4(shape: str, trump: bool) -> None:
    """002 3.7 单张扣底翻2倍 (本次比赛不设双扣再翻倍): flat ×2 whatever won (I-4)."""
    assert bottom_multiplier(EIGHTY, shape, trump) == 2


@pytest.mark.parametrize(
    ("shape", "side", "trump"),
    [("single", 1, 2), ("pair", 2, 4), ("tractor2", 4, 8), ("tractor3", 8, 16), ("tractor4", 16, 32)],
)
def test_shuangkou_bottom_side_and_trump_tables_003_s6(shape: str, side: int, trump: int) -> None:
    """003 六: 副牌扣底 ×1/×2/×4/×8; 将牌扣底 ×2/×4/×8/×16."""
    assert bottom_multiplier(SHUANGKOU, shape, trump=False) == side
    assert bottom_multiplier(SHUANGKOU, shape, trump=True) == trump


def test_shuangkou_throw_by_largest_component_and_trump_I3() -> None:
    """I-3 in 003: a throw counts as its largest component, on the side or trump table."""
    assert bottom_multiplier(SHUANGKOU, "throw:pair", trump=False) == 2
    assert bottom_multiplier(SHUANGKOU, "throw:pair", trump=True) == 4
    assert bottom_multiplier(SHUANGKOU, "throw:single", trump=False) == 1


# -- promotion (升级): union-2deck ---------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "winner", "up", "levels_after"),
    [
        (0, "dealer", 3, ("5", "2")),  # 防守方得0分，庄家连升三级
        (5, "dealer", 2, ("4", "2")),  # 大于0小于40: +2
        (35, "dealer", 2, ("4", "2")),
        (40, "dealer", 1, ("3", "2")),  # I-5: 40 itself is +1
        (75, "dealer", 1, ("3", "2")),
        (80, "defenders", 0, ("2", "2")),  # 80分庄家下台
        (115, "defenders", 0, ("2", "2")),
        (120, "defenders", 1, ("2", "3")),  # 120分防守方上台并升一级
        (155, "defenders", 1, ("2", "3")),
        (160, "defenders", 2, ("2", "4")),  # 每多得40分多升一级
        (195, "defenders", 2, ("2", "4")),
        (200, "defenders", 3, ("2", "5")),
        (240, "defenders", 4, ("2", "6")),
    ],
)
def test_union_promotion_table_000_s12(
    x: int, winner: str, up: int, levels_after: tuple[str, str]
) -> None:
    """000 §12 with every boundary (0, 40 per I-5, 80, 120, +1 per 40)."""
    score = promote(UNION, x, dealer=0, levels=("2", "2"))
    assert (score.winner, score.levels_up, score.levels_after) == (winner, up, levels_after)


def test_union_forty_option_off_gives_plus_two_I5() -> None:
    """I-5 is an option: with `forty_is_plus_one` off, exactly 40 still counts as < 40."""
    rulebook = UNION.with_options({"forty_is_plus_one": False})
    assert promote(rulebook, 40, dealer=0, levels=("2", "2")).levels_up == 2
    assert promote(rulebook, 45, dealer=0, levels=("2", "2")).levels_up == 1


@pytest.mark.parametrize(
    ("start", "steps", "expected"),
    [("9", 3, "J"), ("10", 2, "J"), ("Q", 3, "A"), ("K", 2, "A"), ("8", 3, "J"), ("7", 3, "10")],
)
def test_union_promotion_stops_at_must_play_J_and_A_000_s15(
    start: str, steps: int, expected: str
) -> None:
    """000 第十五条: 2、J、A必打 — a promotion stops at J and at A."""
    level, passed, _ = raise_level(UNION, start, steps, played_as_dealer=True)
    assert (level, passed) == (expected, False)


def test_must_play_levels_are_an_option() -> None:
    """must_play_levels is data: a director's 5-must-play stops a promotion at 5."""
    rulebook = UNION.with_options({"must_play_levels": ["2", "5", "J", "A"]})
    assert raise_level(rulebook, "3", 3, played_as_dealer=True) == ("5", False, "5")
    assert promote(rulebook, 0, dealer=0, levels=("3", "2")).levels_after == ("5", "2")
    assert promote(UNION, 0, dealer=0, levels=("3", "2")).levels_after == ("6", "2")


def test_union_must_play_stop_is_only_for_levels_above() -> None:
    """A side already at J (or 2) moves on normally; only levels above stop it."""
    assert raise_level(UNION, "J", 2, played_as_dealer=False)[0] == "K"
    assert raise_level(UNION, "2", 3, played_as_dealer=False)[0] == "5"


def test_union_must_play_as_dealer_option_000_s15_i14() -> None:
    """000 第十五条 2、J、A必打, stricter reading (option I-14): defenders at J or 2 who
    win stay there and take the deal; a dealer win there moves on."""
    strict = UNION.with_options({"must_play_as_dealer": True})
    assert raise_level(strict, "J", 2, played_as_dealer=False) == ("J", False, "J")
    assert raise_level(strict, "2", 3, played_as_dealer=False) == ("2", False, "2")
    assert raise_level(strict, "J", 2, played_as_dealer=True)[0] == "K"
    assert raise_level(strict, "2", 3, played_as_dealer=True)[0] == "5"
    score = promote(strict, 130, dealer=0, levels=("5", "J"))
    assert score.levels_after == ("5", "J") and score.next_dealer == 1


def test_union_dealer_at_a_passes_a_000_s15() -> None:
    """先打过A者为胜方: a dealer win at A passes A."""
    score = promote(UNION, 50, dealer=1, levels=("5", "A"))
    assert score.passed_a == 1
    assert score.levels_after == ("5", "A")


def test_union_defenders_at_a_must_still_play_it_000_s15() -> None:
    """Defenders at A who win 120+ take the deal at A; they have not passed it."""
    score = promote(UNION, 160, dealer=1, levels=("A", "9"))
    assert score.passed_a is None
    assert score.levels_after == ("A", "9")
    assert score.next_dealer == 2


def test_union_promotion_is_for_the_dealer_side_levels() -> None:
    """The dealer side (seat 1 → side 1) moves; the other side's level stays."""
    score = promote(UNION, 0, dealer=1, levels=("7", "4"))
    assert score.levels_after == ("7", "7")


# -- promotion: shuangsheng-17 ---------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "winner", "up"),
    [
        (0, "dealer", 3),
        (5, "dealer", 2),
        (35, "dealer", 2),
        (40, "dealer", 1),
        (75, "dealer", 1),
        (80, "defenders", 0),
        (115, "defenders", 0),
        (120, "defenders", 1),
        (155, "defenders", 1),
        (160, "defenders", 2),
        (195, "defenders", 2),
        (200, "defenders", 2),
        (205, "defenders", 3),
        (300, "defenders", 3),
    ],
)
def test_shuangsheng_promotion_table_001_s9(x: int, winner: str, up: int) -> None:
    """001 九: 0 +3; 5–35 +2; 40–75 +1; 80–115 换庄; 120–155 +1; 160–200 +2; > 200 +3."""
    score = promote(SHUANGSHENG, x, dealer=0, levels=("2", "2"))
    assert (score.winner, score.levels_up) == (winner, up)


def test_shuangsheng_passing_a_I7() -> None:
    """I-7: a side that goes past A wins (no must-play stop in 001)."""
    score = promote(SHUANGSHENG, 0, dealer=0, levels=("Q", "2"))
    assert score.passed_a == 0
    assert promote(SHUANGSHENG, 0, dealer=0, levels=("10", "2")).levels_after == ("K", "2")


# -- promotion: shuangkou-simple --------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "winner", "up"),
    [
        (5, "dealer", 7),  # dealer side 195 → ⌊75/10⌋ (I-6)
        (35, "dealer", 4),
        (40, "dealer", 4),
        (45, "dealer", 3),
        (70, "dealer", 1),
        (75, "dealer", 0),  # 125分继续坐庄不升级
        (80, "defenders", 0),  # 闲家80分及以上 defenders take the deal
        (85, "defenders", 0),
        (90, "defenders", 1),  # 闲家得90分升一级
        (100, "defenders", 2),
        (115, "defenders", 3),
        (120, "defenders", 4),
        (195, "defenders", 11),
    ],
)
def test_shuangkou_promotion_by_tens_003_s9_I6(x: int, winner: str, up: int) -> None:
    """003 九 with I-6 (dealer score = 200 − x): +⌊(200 − x − 120)/10⌋, defenders +⌊(x−80)/10⌋."""
    score = promote(SHUANGKOU, x, dealer=0, levels=("2", "2"))
    assert (score.winner, score.table_levels_up) == (winner, up)


def test_shuangkou_zero_points_dealer_straight_to_a_with_soft_a_003_s9() -> None:
    """003 九.2: 闲家如没得分，庄家则直接升到A，并获得一个软A."""
    score = promote(SHUANGKOU, 0, dealer=1, levels=("3", "5"))
    assert score.levels_after == ("3", "A")
    assert score.soft_a == (0, 1)
    assert score.next_dealer == 1  # dealer side won → same dealer


@pytest.mark.parametrize(("x", "soft"), [(200, 1), (250, 1), (400, 2)])
def test_shuangkou_200_defenders_straight_to_a_soft_a_per_200_003_s9(x: int, soft: int) -> None:
    """003 九.3: 闲家得200分及以上直接升到A，并获得一个软A; 每超过200分算作一个软A."""
    score = promote(SHUANGKOU, x, dealer=0, levels=("4", "6"))
    assert score.levels_after == ("4", "A")
    assert score.soft_a == (0, soft)
    assert score.next_dealer == 1


def test_shuangkou_promotion_capped_at_a_without_passing() -> None:
    """Passing A in 003 needs the hard A; a big promotion only reaches A."""
    score = promote(SHUANGKOU, 10, dealer=0, levels=("Q", "2"))
    assert score.levels_after == ("A", "2")
    assert score.passed_a is None


def test_shuangkou_hard_a_passes_a_003_s9_4() -> None:
    """003 九.4: at A, x < 80 and the last trick won by the dealer's A → 硬A, one per A."""
    score = promote(SHUANGKOU, 60, dealer=0, levels=("A", "9"), last_trick_dealer_aces=2)
    assert score.passed_a == 0
    assert score.hard_a == (2, 0)


def test_shuangkou_at_a_without_an_a_on_the_last_trick_keeps_dealing_003_s9_4() -> None:
    """003 九.4: without the A the dealer at A has not passed; same dealer again."""
    score = promote(SHUANGKOU, 60, dealer=0, levels=("A", "9"), last_trick_dealer_aces=0)
    assert score.passed_a is None
    assert score.levels_after == ("A", "9")
    assert score.next_dealer == 0


def test_shuangkou_at_a_with_80_fails_even_with_an_a_003_s9_4() -> None:
    """闲家得分不能超过80分: x ≥ 80 and the defenders take the deal."""
    score = promote(SHUANGKOU, 80, dealer=0, levels=("A", "9"), last_trick_dealer_aces=1)
    assert score.passed_a is None
    assert score.winner == "defenders"


# -- eighty-rr deal points (§5) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "points"),
    [
        (0, (4, 0)),
        (5, (3, 0)),
        (35, (3, 0)),
        (40, (2, 0)),
        (75, (2, 0)),
        (80, (0, 2)),
        (115, (0, 2)),
        (120, (0, 3)),
        (155, (0, 3)),
        (160, (0, 4)),
        (195, (0, 4)),
        (200, (0, 5)),
        (260, (0, 5)),
    ],
)
def test_eighty_deal_points_table_002_s2(x: int, points: tuple[int, int]) -> None:
    """002 二 计分表: 主打方 4/3/2, 抓分方 2/3/4/5."""
    assert deal_match_points(x) == points


def test_eighty_deal_points_go_to_the_right_side_and_no_levels_002() -> None:
    """Dealer seat 1 (side 1) at x = 40 → [0, 2]; levels never move (只打2)."""
    score = promote(EIGHTY, 40, dealer=1, levels=("2", "2"))
    assert score.match_points == (0, 2)
    assert score.levels_after == ("2", "2")
    assert promote(EIGHTY, 120, dealer=1, levels=("2", "2")).match_points == (3, 0)


def test_eighty_match_points_2_1_0_002_s2() -> None:
    """每场: 赢组积2分, 打平各积1分, 输组积0分."""
    assert match_points_from_deal_points((9, 4)) == (2, 0)
    assert match_points_from_deal_points((5, 5)) == (1, 1)
    assert match_points_from_deal_points((2, 8)) == (0, 2)


# -- next dealer ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rulebook", "dealer", "won", "expected"),
    [
        (UNION, 1, True, 3),  # 000 §11: 庄家获胜由其同伴坐庄
        (UNION, 1, False, 2),  # 失败由其下家坐庄
        (SHUANGSHENG, 2, True, 0),  # 001 十: 庄家方升级 → 对家
        (SHUANGSHENG, 3, False, 0),  # 捡分方上台 → 下家
        (EIGHTY, 3, True, 0),  # 002 3.1.1: 轮流坐庄
        (EIGHTY, 0, False, 1),
        (SHUANGKOU, 2, True, 2),  # 003 六: 庄家赢 → 上局庄家继续
        (SHUANGKOU, 2, False, 3),  # 庄家输 → 下家
    ],
)
def test_next_dealer_by_rulebook(rulebook: object, dealer: int, won: bool, expected: int) -> None:
    """RULEBOOKS.md §2 row "next dealer"."""
    assert next_dealer(rulebook, dealer, won) == expected  # type: ignore[arg-type]


# -- penalties (§3, I-8, I-10) --------------------------------------------------------------


@pytest.mark.parametrize("rulebook", [UNION, SHUANGSHENG, EIGHTY, SHUANGKOU])
def test_failed_throw_ten_points_per_card_all_rulebooks_I10(rulebook: object) -> None:
    """000 §17 甩错几张牌扣几十分; 001 六.4 5张扣50分; 003 十三; eighty via I-10."""
    points, union_rule = default_penalty_points(rulebook, "failed_throw", 5)  # type: ignore[arg-type]
    assert points == 50
    assert union_rule == (rulebook is EIGHTY)


def test_wrong_follow_points_union_none_shuangkou_ten_per_card_003_s13() -> None:
    """000 §17: minor wrong follow not penalised; 003 十三: 每个牌张扣10分."""
    assert default_penalty_points(UNION, "wrong_follow", 2) == (0, False)
    assert default_penalty_points(SHUANGKOU, "wrong_follow", 2) == (20, False)


@pytest.mark.parametrize(
    ("rulebook", "union_rule"), [(UNION, False), (SHUANGSHENG, True), (EIGHTY, True), (SHUANGKOU, True)]
)
def test_hidden_card_twenty_points_000_s18_I10(rulebook: object, union_rule: bool) -> None:
    """000 §18 藏张 20–30 分 (default 20); silent rulebooks take union's rule (I-10)."""
    assert default_penalty_points(rulebook, "hidden_card") == (20, union_rule)  # type: ignore[arg-type]


def test_silent_offence_without_I10_costs_nothing() -> None:
    """I-10 is an option: switched off, an offence the rulebook is silent on costs 0."""
    rulebook = SHUANGSHENG.with_options({"silent_penalty_as_union": False})
    assert default_penalty_points(rulebook, "hidden_card") == (0, False)


def test_talking_and_timeout_carry_no_points() -> None:
    """Talking (001 十一) and timeouts are recorded; their effect is not in points."""
    assert default_penalty_points(SHUANGSHENG, "talking")[0] == 0
    assert default_penalty_points(UNION, "timeout")[0] == 0


def test_penalty_against_defenders_subtracted_floor_zero_I8() -> None:
    """I-8: penalty against the defenders comes off x, never below 0."""
    charge = PenaltyCharge(event=3, seat=1, kind="failed_throw", points=30, side=1)
    assert apply_penalties(UNION, 100, [charge], dealer=0) == 70
    assert apply_penalties(UNION, 20, [charge], dealer=0) == 0
    no_floor = UNION.with_options({"penalty_floor_zero": False})
    assert apply_penalties(no_floor, 20, [charge], dealer=0) == -10


def test_penalty_against_dealer_side_added_to_x_I8() -> None:
    """I-8: penalty against the dealer side is added to the defenders' total."""
    charge = PenaltyCharge(event=3, seat=2, kind="hidden_card", points=20, side=0)
    assert apply_penalties(UNION, 70, [charge], dealer=0) == 90
    # 70 + 20 = 90 ≥ 80: the penalty turns the deal (applied before promotion, I-8)
    assert promote(UNION, 90, dealer=0, levels=("2", "2")).winner == "defenders"
