"""Overcalls (反主): what beats what in each rulebook, and who may overcall."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from referee.cards import Suit, parse_cards
from referee.rulebooks import find_rulebook
from referee.shengji.declaration import DealSetup, DeclarationOutcome, resolve_declarations
from referee.shengji.events import parse_events


def resolve(
    rulebook: str,
    events: list[dict[str, Any]],
    number: int = 1,
    levels: tuple[str, str] = ("2", "2"),
    options: dict[str, Any] | None = None,
    **setup: Any,
) -> DeclarationOutcome:
    return resolve_declarations(
        find_rulebook(rulebook, options),
        DealSetup(number, levels, **setup),
        parse_events(events, number),
    )


def call(kind: str, seat: int, cards: str, **extra: Any) -> dict[str, Any]:
    return {"type": kind, "seat": seat, "cards": cards, **extra}


def rule_ids(out: DeclarationOutcome) -> list[str]:
    return [v.rule_id for v in out.violations]


# -- union-2deck ---------------------------------------------------------------------------


def test_union_pair_of_level_cards_overcalls_a_single_000_art13() -> None:
    """000 第十三条二: 两张相同花色级牌 … 反已亮单张级牌, 重新确立将牌花色."""
    out = resolve(
        "union-2deck",
        [call("declare", 0, "5S"), call("overcall", 1, "5D 5D")],
        number=3,
        levels=("5", "7"),
        dealer=2,
    )
    assert (out.dealer, out.trump_suit, out.violations) == (2, Suit.DIAMONDS, ())


def test_union_joker_pair_overcall_is_no_trump_000_art13() -> None:
    """000 第十三条二: 用对王反主为"无主"."""
    out = resolve(
        "union-2deck",
        [call("declare", 0, "5S"), call("overcall", 1, "SJ SJ")],
        number=3,
        levels=("5", "7"),
        dealer=2,
    )
    assert out.trump_suit is None and out.violations == ()
    assert out.history[1].effect == "overcall: no trump (无主)"


@pytest.mark.parametrize(
    ("first", "second", "accepted"),
    [
        ("2D 2D", "2C 2C", True),
        ("2C 2C", "2H 2H", True),
        ("2H 2H", "2S 2S", True),
        ("2S 2S", "2H 2H", False),
        ("2H 2H", "2D 2D", False),
        ("2S 2S", "SJ SJ", True),
        ("SJ SJ", "BJ BJ", True),
        ("BJ BJ", "2S 2S", False),
    ],
)
def test_union_grab_pairs_overcall_by_suit_order_000_art2(
    first: str, second: str, accepted: bool
) -> None:
    """000 第二条: 用两张相同花色超抢，按照黑 > 红 > 梅 > 方 (joker pairs above, I-D1)."""
    opening = next(card for card in ("2D", "2C", "2H", "2S") if card not in first + second)
    out = resolve(
        "union-2deck",
        [call("declare", 0, opening), call("overcall", 1, first), call("overcall", 2, second)],
    )
    assert out.history[2].accepted is accepted
    assert out.dealer == (2 if accepted else 1)
    if not accepted:
        assert rule_ids(out) == ["shengji.overcall.too_weak"]


def test_union_later_deal_overcall_answers_only_a_single_000_art13() -> None:
    """000 第十三条二 反已亮单张级牌 (I-D1): after deal 1 a pair cannot answer a pair."""
    events = [call("declare", 0, "5S"), call("overcall", 1, "5D 5D"), call("overcall", 2, "5H 5H")]
    out = resolve("union-2deck", events, number=3, levels=("5", "7"), dealer=2)
    assert rule_ids(out) == ["shengji.overcall.only_over_single"]
    assert out.trump_suit is Suit.DIAMONDS
    relaxed = resolve(
        "union-2deck",
        events,
        number=3,
        levels=("5", "7"),
        dealer=2,
        options={"overcall_only_over_single": False},
    )
    assert rule_ids(relaxed) == ["shengji.overcall.too_weak"]


def test_union_no_self_overcall_000_art13() -> None:
    """000 第十三条二: 反主只能反别人，不能自己反自己."""
    out = resolve("union-2deck", [call("declare", 0, "2S"), call("overcall", 0, "2H 2H")])
    assert rule_ids(out) == ["shengji.overcall.self"]
    assert (out.dealer, out.trump_suit) == (0, Suit.SPADES)
    assert out.violations[0].event == 1 and out.violations[0].seat == 0


def test_union_overcall_must_be_a_pair_000_art13() -> None:
    """000 第十三条二: an overcall is two identical level cards; mixed suits are not a pair."""
    out = resolve("union-2deck", [call("declare", 0, "2S"), call("overcall", 1, "2H 2D")])
    assert rule_ids(out) == ["shengji.declare.malformed"]
    out = resolve("union-2deck", [call("declare", 0, "2S"), call("overcall", 1, "SJ BJ")])
    assert rule_ids(out) == ["shengji.declare.malformed"]


# -- eighty-rr -------------------------------------------------------------------------------


def test_eighty_joker_pair_overcalls_a_level_pair_002_s3_3_2() -> None:
    """002 3.3.2: 两张相同花色的级牌或王 — a joker pair answers a level pair."""
    out = resolve(
        "eighty-rr",
        [call("declare", 0, "2S"), call("overcall", 1, "2H 2H"), call("overcall", 2, "SJ SJ")],
        dealer=0,
    )
    assert out.trump_suit is None and out.violations == ()


def test_eighty_small_joker_pair_is_final_even_for_big_jokers_002_s3_3_2() -> None:
    """002 3.3.2 注: 当一方亮一对小王时，定无主，任何一方有一对大王，均不能再反."""
    out = resolve(
        "eighty-rr",
        [call("declare", 0, "2S"), call("overcall", 1, "SJ SJ"), call("overcall", 2, "BJ BJ")],
        dealer=0,
    )
    assert rule_ids(out) == ["shengji.overcall.joker_pair_final"]
    assert out.history[1].seat == 1 and out.trump_suit is None


def test_eighty_level_pair_cannot_overcall_a_level_pair_002_s3_3_2() -> None:
    """002 3.3.2: an overcall answers a single (反已亮单张级牌); equal pairs do not beat."""
    out = resolve(
        "eighty-rr",
        [call("declare", 0, "2S"), call("overcall", 1, "2H 2H"), call("overcall", 2, "2C 2C")],
        dealer=0,
    )
    assert rule_ids(out) == ["shengji.overcall.too_weak"]


def test_eighty_no_self_overcall_002_s3_3_2() -> None:
    """002 3.3.2: 反主只能反别人，不能反自己."""
    out = resolve("eighty-rr", [call("declare", 3, "2C"), call("overcall", 3, "2D 2D")], dealer=0)
    assert rule_ids(out) == ["shengji.overcall.self"]


# -- shuangsheng-17 --------------------------------------------------------------------------

LADDER = ["2D 2D BJ", "2C 2C SJ", "2H 2H BJ", "2S 2S SJ", "SJ SJ", "BJ BJ"]
OPENINGS = ["2H BJ", "2S SJ", "2D BJ", "2C SJ"]


def physically_possible(*calls: str) -> bool:
    """Two decks hold two of each card: a table cannot show more."""
    shown = Counter(card for cards in calls for card in parse_cards(cards))
    return max(shown.values()) <= 2


# Every (lower call, higher call) a table can show, with an opening declaration that fits.
LADDER_CASES = [
    (low, high, openings[0])
    for low in range(len(LADDER))
    for high in range(len(LADDER))
    if (openings := [o for o in OPENINGS if physically_possible(o, LADDER[low], LADDER[high])])
]


@pytest.mark.parametrize(("low", "high", "opening"), LADDER_CASES)
def test_shuangsheng_overcall_ladder_001_s4(low: int, high: int, opening: str) -> None:
    """001 四 规定: ♦对+大王 < ♣对+小王 < ♥对+大王 < ♠对+小王 < 对小王 < 对大王."""
    events = [
        call("declare", 0, opening),
        call("overcall", 1, LADDER[low]),
        call("overcall", 2, LADDER[high]),
    ]
    out = resolve("shuangsheng-17", events, number=2, dealer=0)
    assert out.history[1].accepted
    assert out.history[2].accepted is (high > low)
    if high <= low:
        assert rule_ids(out) == ["shengji.overcall.too_weak"]


def test_shuangsheng_pair_plus_joker_declaration_must_be_outranked_001_s4_4() -> None:
    """001 四.4 定主: a declaration with the pair + joker is overcalled only by the ladder."""
    out = resolve(
        "shuangsheng-17",
        [call("declare", 0, "2H 2H BJ"), call("overcall", 1, "2C 2C SJ")],
        number=2,
        dealer=0,
    )
    assert rule_ids(out) == ["shengji.overcall.too_weak"]
    out = resolve(
        "shuangsheng-17",
        [call("declare", 0, "2H 2H BJ"), call("overcall", 1, "2S 2S SJ")],
        number=2,
        dealer=0,
    )
    assert out.trump_suit is Suit.SPADES and out.violations == ()


def test_shuangsheng_overcall_needs_pair_with_joker_001_s4() -> None:
    """001 四: 相同花色的对级牌 + 一张对应的王牌 — a bare pair or a wrong joker is no overcall."""
    out = resolve(
        "shuangsheng-17",
        [call("declare", 0, "2S SJ"), call("overcall", 1, "2H 2H")],
        number=2,
        dealer=0,
    )
    assert rule_ids(out) == ["shengji.declare.needs_joker"]
    out = resolve(
        "shuangsheng-17",
        [call("declare", 0, "2S SJ"), call("overcall", 1, "2H 2H SJ")],
        number=2,
        dealer=0,
    )
    assert rule_ids(out) == ["shengji.declare.wrong_joker"]


def test_shuangsheng_declarer_overcalls_only_after_another_001_s4_3() -> None:
    """001 四.3: 报主玩家也可参与反主，但必须在有其他玩家先进行反主的前提下."""
    out = resolve(
        "shuangsheng-17",
        [call("declare", 0, "2S SJ"), call("overcall", 0, "2H 2H BJ")],
        number=2,
        dealer=0,
    )
    assert rule_ids(out) == ["shengji.overcall.declarer_first"]
    out = resolve(
        "shuangsheng-17",
        [
            call("declare", 0, "2S SJ"),
            call("overcall", 1, "2D 2D BJ"),
            call("overcall", 0, "2H 2H BJ"),
        ],
        number=2,
        dealer=0,
    )
    assert out.violations == () and out.trump_suit is Suit.HEARTS


def test_shuangsheng_overcall_may_repeat_by_the_ladder_001_s4_3() -> None:
    """001 四.3: 每一局均可按照反主牌的大小顺序多次进行."""
    events = [
        call("declare", 0, "2D BJ"),
        call("overcall", 1, "2C 2C SJ"),
        call("overcall", 2, "2H 2H BJ"),
        call("overcall", 0, "2S 2S SJ"),
    ]
    out = resolve("shuangsheng-17", events, number=2, dealer=0)
    assert out.violations == () and out.trump_suit is Suit.SPADES
    assert [row.seat for row in out.history if row.accepted] == [0, 1, 2, 0]


# -- shuangkou-simple ------------------------------------------------------------------------


def test_shuangkou_any_level_pair_overcalls_regardless_of_suit_003_s3() -> None:
    """003 三: 兩張一樣花色的本局級牌 … 反主（不分花色） — any pair answers (I-D6)."""
    events = [
        call("declare", 0, "2S", face_down=True),
        call("overcall", 1, "2D 2D", face_down=True),
        call("overcall", 2, "2C 2C", face_down=True),
    ]
    out = resolve("shuangkou-simple", events, number=2, dealer=0)
    assert out.violations == () and out.trump_suit is Suit.CLUBS


def test_shuangkou_joker_pair_overcall_is_no_trump_003_s3() -> None:
    """003 三: 用大小王反主除外 (shown face up) — a joker pair fixes no trump."""
    events = [call("declare", 0, "2S", face_down=True), call("overcall", 1, "BJ BJ")]
    out = resolve("shuangkou-simple", events, number=2, dealer=0)
    assert out.trump_suit is None and out.history[1].face_down is False


def test_shuangkou_declarer_overcalls_only_after_another_003_s3_1() -> None:
    """003 三.1: 叫主方必須在有其他選手反主后方可進行反主."""
    events = [
        call("declare", 1, "2S", face_down=True),
        call("overcall", 1, "2D 2D", face_down=True),
    ]
    out = resolve("shuangkou-simple", events, number=2, dealer=0)
    assert rule_ids(out) == ["shengji.overcall.declarer_first"]


def test_shuangkou_single_cannot_overcall_003_s3() -> None:
    """003 三: an overcall needs two identical level cards."""
    events = [call("declare", 1, "2S", face_down=True), call("overcall", 2, "2D", face_down=True)]
    out = resolve("shuangkou-simple", events, number=2, dealer=0)
    assert rule_ids(out) == ["shengji.overcall.too_weak"]


def test_shuangkou_joker_pairs_rank_above_level_pairs_i_d6() -> None:
    """003 三 (I-D6): a level pair cannot answer a joker pair; a big-joker pair answers a small."""
    events = [
        call("declare", 0, "2S", face_down=True),
        call("overcall", 1, "SJ SJ"),
        call("overcall", 2, "2D 2D", face_down=True),
        call("overcall", 3, "BJ BJ"),
    ]
    out = resolve("shuangkou-simple", events, number=2, dealer=0)
    assert rule_ids(out) == ["shengji.overcall.too_weak"] and out.violations[0].event == 2
    assert out.trump_suit is None and [r.accepted for r in out.history] == [True, True, False, True]


def test_shuangkou_any_pair_option_lets_a_level_pair_answer_jokers_i_d6() -> None:
    """I-D6 after_bury_pair_order=any_pair: every pair answers every pair."""
    events = [
        call("declare", 0, "2S", face_down=True),
        call("overcall", 1, "SJ SJ"),
        call("overcall", 2, "2D 2D", face_down=True),
    ]
    out = resolve(
        "shuangkou-simple",
        events,
        number=2,
        dealer=0,
        options={"after_bury_pair_order": "any_pair"},
    )
    assert out.violations == () and out.trump_suit is Suit.DIAMONDS


def test_shuangkou_declaring_side_waits_for_an_opponent_i_d5() -> None:
    """003 三.1 叫主方 (I-D5): with declarer_overcall_scope=side the partner waits too."""
    events = [
        call("declare", 1, "2S", face_down=True),
        call("overcall", 3, "2D 2D", face_down=True),
    ]
    assert resolve("shuangkou-simple", events, number=2, dealer=0).violations == ()
    out = resolve(
        "shuangkou-simple",
        events,
        number=2,
        dealer=0,
        options={"declarer_overcall_scope": "side"},
    )
    assert rule_ids(out) == ["shengji.overcall.declarer_first"]
