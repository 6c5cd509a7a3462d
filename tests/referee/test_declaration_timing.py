"""When a call may still be made: before the bottom is taken, 反主反打, 反主抄底, 换底后反主."""

from __future__ import annotations

from typing import Any

import pytest

from referee.cards import Suit, parse_cards
from referee.errors import InvalidRecordError
from referee.rulebooks import find_rulebook
from referee.shengji.declaration import DealSetup, DeclarationOutcome, resolve_declarations
from referee.shengji.events import parse_events

BOTTOM_A = "3C 4C 6C 7C 8C 9C 3D 4D"
BOTTOM_B = "3H 4H 6H 7H 8H 9H 3S 4S"
PLAY = {"type": "trick", "leader": 0, "plays": [["AS"], ["3S"], ["4S"], ["6S"]]}


def resolve(
    rulebook: str,
    events: list[dict[str, Any]],
    number: int = 2,
    levels: tuple[str, str] = ("2", "2"),
    **setup: Any,
) -> DeclarationOutcome:
    return resolve_declarations(
        find_rulebook(rulebook), DealSetup(number, levels, **setup), parse_events(events, number)
    )


def call(kind: str, seat: int, cards: str, **extra: Any) -> dict[str, Any]:
    return {"type": kind, "seat": seat, "cards": cards, **extra}


def bury(seat: int, cards: str = BOTTOM_A) -> dict[str, Any]:
    return {"type": "bury", "seat": seat, "cards": cards}


def rule_ids(out: DeclarationOutcome) -> list[str]:
    return [v.rule_id for v in out.violations]


@pytest.mark.parametrize("rulebook", ["union-2deck", "eighty-rr"])
def test_overcall_after_the_bottom_is_taken_is_too_late_000_art13(rulebook: str) -> None:
    """000 第十三条 反主必须在庄家拿起原始底牌前进行; 002 3.4 三家表示完后，庄家方可拿底牌."""
    out = resolve(
        rulebook, [call("declare", 1, "2S"), bury(0), call("overcall", 3, "2H 2H")], dealer=0
    )
    assert rule_ids(out) == ["shengji.overcall.too_late"]
    assert out.trump_suit is Suit.SPADES and out.phase == "ready" and out.bury_seat == 0


def test_declaration_after_the_first_lead_is_too_late_000_art13() -> None:
    """000 第十三条: calls are made while drawing; one after the first lead is reported."""
    out = resolve(
        "union-2deck", [call("declare", 1, "2S"), bury(0), PLAY, call("declare", 2, "2H")], dealer=0
    )
    assert rule_ids(out) == ["shengji.overcall.too_late"]
    out = resolve("union-2deck", [bury(0), PLAY, call("declare", 2, "2H")], dealer=0)
    assert rule_ids(out) == ["shengji.declare.too_late"]
    assert out.first_play_event == 1 and out.violations[0].event == 2


def test_shuangsheng_deal1_no_overcall_after_the_bury_001_s4_1() -> None:
    """001 四.1 反主反打: 第一局当庄家盖底牌后，不可再进行反主."""
    out = resolve(
        "shuangsheng-17",
        [call("declare", 2, "2H BJ"), bury(2), call("overcall", 1, "2S 2S SJ")],
        number=1,
    )
    assert rule_ids(out) == ["shengji.overcall.too_late"]
    assert (out.dealer, out.trump_suit) == (2, Suit.HEARTS)


def test_shuangsheng_later_overcall_takes_the_bottom_and_reburies_001_s4_2() -> None:
    """001 四.2 反主抄底: 反主玩家还可拿起庄家盖的底牌 … 再进行盖底牌; 此时庄家不变."""
    events = [
        call("declare", 0, "2H BJ"),
        bury(0),
        call("overcall", 1, "2S 2S SJ"),
        bury(1, BOTTOM_B),
    ]
    out = resolve("shuangsheng-17", events, dealer=0)
    assert out.violations == ()
    assert (out.dealer, out.trump_suit, out.bury_seat) == (0, Suit.SPADES, 1)
    assert out.bottom == parse_cards(BOTTOM_B) and len(out.burials) == 2
    assert out.history[2].effect.endswith("takes the bottom and buries again (反主抄底)")
    assert [row.final for row in out.history if row.kind == "bury"] == [False, True]


def test_shuangsheng_rebury_is_optional_001_s4_2() -> None:
    """001 四.2 (I-D7): 反主玩家还可拿起庄家盖的底牌 — "may": play on with the dealer's bottom."""
    events = [call("declare", 0, "2H BJ"), bury(0), call("overcall", 1, "2S 2S SJ")]
    out = resolve("shuangsheng-17", events, dealer=0)
    assert out.phase == "ready" and out.bottom == parse_cards(BOTTOM_A)
    out = resolve("shuangsheng-17", [*events, PLAY], dealer=0)
    assert out.violations == () and out.bury_seat == 0


def test_shuangkou_rebury_pending_until_the_overcaller_buries_003_s3() -> None:
    """003 三: 反主 … 并換取底牌 — the overcaller must bury again before the first lead."""
    events = [
        call("declare", 0, "2S", face_down=True),
        bury(0),
        call("overcall", 1, "2D 2D", face_down=True),
    ]
    out = resolve("shuangkou-simple", events, dealer=0)
    assert out.phase == "burying" and out.bottom == parse_cards(BOTTOM_A)
    out = resolve("shuangkou-simple", [*events, PLAY], dealer=0)
    assert rule_ids(out) == ["shengji.bury.missing_rebury"]
    assert out.violations[0].kind == "wrong_bury" and out.violations[0].seat == 1


def test_shuangsheng_rebury_by_another_seat_is_reported_001_s4_2() -> None:
    """001 四.2: it is the overcaller (反主玩家) who buries again."""
    events = [
        call("declare", 0, "2H BJ"),
        bury(0),
        call("overcall", 1, "2S 2S SJ"),
        bury(3, BOTTOM_B),
    ]
    out = resolve("shuangsheng-17", events, dealer=0)
    assert rule_ids(out) == ["shengji.bury.wrong_seat"]


def test_shuangsheng_later_overcall_after_the_first_lead_too_late_001_s4_2() -> None:
    """001 四.2: 反主可在庄家盖底牌后，开始出牌之前进行."""
    events = [call("declare", 0, "2H BJ"), bury(0), PLAY, call("overcall", 1, "2S 2S SJ")]
    out = resolve("shuangsheng-17", events, dealer=0)
    assert rule_ids(out) == ["shengji.overcall.too_late"]


def test_shuangkou_overcall_after_the_exchange_takes_the_bottom_003_s3() -> None:
    """003 三: 反主 … 在莊家換底后進行，并換取底牌 — a second bury by the overcaller."""
    events = [
        call("declare", 0, "2S", face_down=True),
        bury(0),
        call("overcall", 3, "2D 2D", face_down=True),
        bury(3, BOTTOM_B),
    ]
    out = resolve("shuangkou-simple", events, dealer=0)
    assert out.violations == ()
    assert (out.dealer, out.trump_suit, out.bury_seat, out.phase) == (0, Suit.DIAMONDS, 3, "ready")


def test_shuangkou_deal1_overcall_after_the_exchange_keeps_the_dealer_003_s3_3() -> None:
    """003 三.3: 除比賽第一局可在換底前反主反莊外，以后無論換底前后都只能是反主不反莊."""
    events = [
        call("declare", 0, "2S", face_down=True),
        bury(0),
        call("overcall", 1, "2D 2D", face_down=True),
        bury(1, BOTTOM_B),
    ]
    out = resolve("shuangkou-simple", events, number=1)
    assert out.violations == () and (out.dealer, out.bury_seat) == (0, 1)


def test_shuangkou_later_overcall_before_the_exchange_keeps_the_dealer_003_s3_3() -> None:
    """003 三.3: later deals, before the exchange too, an overcall never takes the deal."""
    events = [
        call("declare", 1, "2S", face_down=True),
        call("overcall", 2, "2D 2D", face_down=True),
        bury(0),
    ]
    out = resolve("shuangkou-simple", events, dealer=0)
    assert out.violations == () and (out.dealer, out.trump_suit) == (0, Suit.DIAMONDS)


def test_shuangkou_dealer_overcalls_after_exchange_only_after_another_003_s3_2() -> None:
    """003 三.2: 莊家可在換底前進行反主，換底后就只能等有其他選手反主后方可進行反主."""
    before = [
        call("declare", 1, "2S", face_down=True),
        call("overcall", 0, "2D 2D", face_down=True),
    ]
    assert resolve("shuangkou-simple", before, dealer=0).violations == ()
    after = [
        call("declare", 1, "2S", face_down=True),
        bury(0),
        call("overcall", 0, "2D 2D", face_down=True),
    ]
    assert rule_ids(resolve("shuangkou-simple", after, dealer=0)) == [
        "shengji.overcall.dealer_after_bury"
    ]
    answered = [
        call("declare", 1, "2S", face_down=True),
        bury(0),
        call("overcall", 3, "2H 2H", face_down=True),
        bury(3, BOTTOM_B),
        call("overcall", 0, "2D 2D", face_down=True),
        bury(0),
    ]
    out = resolve("shuangkou-simple", answered, dealer=0)
    assert out.violations == () and out.trump_suit is Suit.DIAMONDS and out.bury_seat == 0


def test_shuangkou_card_count_penalty_after_bottom_freezes_calls_003_s12_2() -> None:
    """003 十二.2: 莊家抓過底牌，則不能再亮主或反主 (after a 多牌少牌 finding)."""
    events = [
        call("declare", 1, "2S", face_down=True),
        bury(0),
        {"type": "penalty", "seat": 2, "kind": "card_count"},
        call("overcall", 3, "2H 2H", face_down=True),
    ]
    out = resolve("shuangkou-simple", events, dealer=0)
    assert rule_ids(out) == ["shengji.overcall.frozen"] and out.frozen


def test_bury_of_other_than_8_cards_is_invalid_000_art3() -> None:
    """000 第三条: 两副扑克牌时其张数为8张 — a bury of 7 cards cannot be replayed."""
    with pytest.raises(InvalidRecordError) as caught:
        resolve(
            "union-2deck", [call("declare", 1, "2S"), bury(0, "3C 4C 6C 7C 8C 9C 3D")], dealer=0
        )
    assert (caught.value.deal, caught.value.event) == (2, 1)


def test_bury_after_the_first_lead_is_invalid_000_art3() -> None:
    """000 第三条: 扣底 is done before the first lead (首引之前)."""
    with pytest.raises(InvalidRecordError) as caught:
        resolve("union-2deck", [bury(0), PLAY, bury(0)], dealer=0)
    assert caught.value.event == 2


def test_flip_after_the_bury_is_invalid_000_art13() -> None:
    """000 第十三条三: 定主 turns the top card of the original bottom, before burying."""
    with pytest.raises(InvalidRecordError):
        resolve("union-2deck", [bury(0), {"type": "flip", "card": "5S"}], dealer=0)


def test_second_bury_without_reason_is_reported_000_art3() -> None:
    """000 第三条: the dealer buries once; a second bury needs an overcall that takes it."""
    out = resolve("union-2deck", [call("declare", 1, "2S"), bury(0), bury(0, BOTTOM_B)], dealer=0)
    assert rule_ids(out) == ["shengji.bury.extra"] and out.bottom == parse_cards(BOTTOM_B)


def test_bury_by_a_seat_other_than_the_dealer_000_s11() -> None:
    """000 十一: the dealer has the right to take and bury the bottom."""
    out = resolve("union-2deck", [call("declare", 1, "2S"), bury(1)], dealer=0)
    assert rule_ids(out) == ["shengji.bury.wrong_seat"] and out.violations[0].seat == 1
