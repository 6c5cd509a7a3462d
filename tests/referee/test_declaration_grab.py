"""First-deal grab (抢亮2 / 抢报 / 抢主抢庄) and who becomes dealer; rotation in eighty-rr."""

from __future__ import annotations

from typing import Any

from referee.cards import Rank, Suit
from referee.rulebooks import find_rulebook
from referee.shengji.declaration import DealSetup, DeclarationOutcome, resolve_declarations
from referee.shengji.events import parse_events


def resolve(
    rulebook: str,
    events: list[dict[str, Any]],
    number: int = 1,
    levels: tuple[str, str] = ("2", "2"),
    **setup: Any,
) -> DeclarationOutcome:
    return resolve_declarations(
        find_rulebook(rulebook), DealSetup(number, levels, **setup), parse_events(events, number)
    )


def call(kind: str, seat: int, cards: str, **extra: Any) -> dict[str, Any]:
    return {"type": kind, "seat": seat, "cards": cards, **extra}


def test_union_first_declarer_of_a_2_deals_000_art2() -> None:
    """000 第二条: 抢先将某花色2亮在桌面上 … 争做庄家 — the first 2 shown takes the deal."""
    out = resolve("union-2deck", [call("declare", 3, "2D")])
    assert (out.dealer, out.trump_suit, out.level, out.declarer) == (3, Suit.DIAMONDS, Rank.TWO, 3)
    assert out.dealer_event == 0 and out.violations == () and out.phase == "declaring"


def test_union_grab_overcall_takes_the_deal_000_art2() -> None:
    """000 第二条: 超抢成功者成为庄家，所亮花色定为将牌."""
    out = resolve("union-2deck", [call("declare", 3, "2D"), call("overcall", 0, "2C 2C")])
    assert (out.dealer, out.trump_suit, out.dealer_event) == (0, Suit.CLUBS, 1)
    assert out.history[1].effect == "overcall: trump ♣, takes the deal"


def test_union_second_single_does_not_take_the_deal_000_art2() -> None:
    """000 第二条: only a pair of 2s overcalls (超抢) a single 2; a second single is rejected."""
    out = resolve("union-2deck", [call("declare", 3, "2D"), call("declare", 1, "2S")])
    assert (out.dealer, out.trump_suit) == (3, Suit.DIAMONDS)
    assert [v.rule_id for v in out.violations] == ["shengji.declare.already_declared"]
    assert out.history[1].accepted is False


def test_shuangsheng_grab_by_level_card_with_joker_001_s3_1() -> None:
    """001 三.1 抢报: the first to show a level card with its joker deals (大王 with red)."""
    out = resolve("shuangsheng-17", [call("declare", 2, "2H BJ")])
    assert (out.dealer, out.trump_suit) == (2, Suit.HEARTS)
    assert out.history[0].effect == "trump ♥, dealer 2 (抢庄)"


def test_shuangsheng_grab_overcall_takes_the_deal_001_s4_1() -> None:
    """001 四.1 反主反打: on deal 1 the overcaller becomes the dealer."""
    out = resolve("shuangsheng-17", [call("declare", 2, "2H BJ"), call("overcall", 1, "2C 2C SJ")])
    assert (out.dealer, out.trump_suit) == (1, Suit.CLUBS)


def test_shuangkou_grab_declarer_deals_and_overcall_takes_the_deal_003_s1() -> None:
    """003 一: 搶主搶莊，反主反莊 — the grab decides the dealer, an overcall takes the deal."""
    out = resolve("shuangkou-simple", [call("declare", 0, "2S", face_down=True)])
    assert out.dealer == 0
    out = resolve(
        "shuangkou-simple",
        [call("declare", 0, "2S", face_down=True), call("overcall", 1, "2D 2D", face_down=True)],
    )
    assert (out.dealer, out.trump_suit) == (1, Suit.DIAMONDS)


def test_grab_with_unequal_levels_uses_the_declarers_level_001_s3_1() -> None:
    """001 三.1 当前级牌: each side grabs with its own level; the deal is at the dealer's level."""
    out = resolve("shuangsheng-17", [call("declare", 1, "5S SJ")], levels=("2", "5"))
    assert (out.dealer, out.level, out.trump_suit) == (1, Rank.FIVE, Suit.SPADES)
    out = resolve("shuangsheng-17", [call("declare", 0, "5S SJ")], levels=("2", "5"))
    assert [v.rule_id for v in out.violations] == ["shengji.declare.not_level_card"]


def test_eighty_first_dealer_by_rotation_not_by_grab_002_s3_1_1() -> None:
    """002 3.1.1 按照次序轮流坐庄: the first dealer is the record's (or the first drawer)."""
    out = resolve("eighty-rr", [call("declare", 1, "2S")], given_dealer=2)
    assert (out.dealer, out.trump_suit) == (2, Suit.SPADES)
    out = resolve(
        "eighty-rr", [call("declare", 1, "2S"), call("overcall", 3, "2H 2H")], first_drawer=3
    )
    assert (out.dealer, out.trump_suit) == (3, Suit.HEARTS)


def test_given_dealer_contradicting_the_grab_is_wrong_dealer_000_s11() -> None:
    """000 十一: 第一副牌由抢亮2成功者为庄家 — a record naming another dealer is reported."""
    out = resolve("union-2deck", [call("declare", 3, "2D")], given_dealer=1)
    assert out.dealer == 3
    (violation,) = out.violations
    assert (violation.kind, violation.event, violation.seat) == ("wrong_dealer", 0, 1)


def test_later_deal_dealer_from_previous_result_declaration_fixes_trump_000_art13() -> None:
    """000 第十三条: 从第二副牌开始，庄家是已定 — a declaration only fixes trump."""
    out = resolve("union-2deck", [call("declare", 1, "3S")], number=2, levels=("3", "2"), dealer=2)
    assert (out.dealer, out.level, out.trump_suit, out.declarer) == (2, Rank.THREE, Suit.SPADES, 1)
    out = resolve(
        "union-2deck",
        [call("declare", 1, "3S")],
        number=2,
        levels=("3", "2"),
        dealer=2,
        given_dealer=0,
    )
    assert [v.kind for v in out.violations] == ["wrong_dealer"]
