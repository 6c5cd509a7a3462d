"""Wrong declarations: cards that are not a call (亮错级牌, a single joker, a joker pair in 001)."""

from __future__ import annotations

from typing import Any

from referee.cards import Suit
from referee.rulebooks import find_rulebook
from referee.shengji.declaration import DealSetup, DeclarationOutcome, resolve_declarations
from referee.shengji.events import parse_events

BOTTOM = "3C 4C 6C 7C 8C 9C 3D 4D"


def resolve(
    rulebook: str,
    events: list[dict[str, Any]],
    number: int = 2,
    levels: tuple[str, str] = ("5", "5"),
    **setup: Any,
) -> DeclarationOutcome:
    return resolve_declarations(
        find_rulebook(rulebook), DealSetup(number, levels, **setup), parse_events(events, number)
    )


def call(kind: str, seat: int, cards: str, **extra: Any) -> dict[str, Any]:
    return {"type": kind, "seat": seat, "cards": cards, **extra}


def rule_ids(out: DeclarationOutcome) -> list[str]:
    return [v.rule_id for v in out.violations]


def test_union_non_level_card_declaration_is_void_000_art13() -> None:
    """000 第十三条一: 将某花色级牌亮在桌面上 — a 7 at level 5 declares nothing."""
    out = resolve("union-2deck", [call("declare", 1, "7S"), call("declare", 2, "5H")], dealer=0)
    assert rule_ids(out) == ["shengji.declare.not_level_card"]
    assert out.violations[0].kind == "illegal_declaration" and out.violations[0].cards
    assert out.trump_suit is Suit.HEARTS and out.declarer == 2
    assert out.wrong_declaration_side is None


def test_union_single_joker_does_not_declare_000_art13() -> None:
    """000 第十三条: only level cards declare; jokers come only as a pair (对王反主)."""
    out = resolve("union-2deck", [call("declare", 1, "BJ")], dealer=0)
    assert rule_ids(out) == ["shengji.declare.not_level_card"] and out.declarer is None


def test_shuangsheng_level_card_alone_does_not_declare_001_s3_2() -> None:
    """001 三.2: 该局级牌 + 相应的一张王牌 — a bare level card is no declaration."""
    out = resolve("shuangsheng-17", [call("declare", 1, "5S")], dealer=0)
    assert rule_ids(out) == ["shengji.declare.needs_joker"]


def test_shuangsheng_joker_colour_must_match_001_s3_1() -> None:
    """001 三.1: 大王只能报红色主牌、小王只能报黑色主牌."""
    out = resolve("shuangsheng-17", [call("declare", 1, "5S BJ")], dealer=0)
    assert rule_ids(out) == ["shengji.declare.wrong_joker"]
    out = resolve("shuangsheng-17", [call("declare", 1, "5D SJ")], dealer=0)
    assert rule_ids(out) == ["shengji.declare.wrong_joker"]
    out = resolve("shuangsheng-17", [call("declare", 1, "5D BJ")], dealer=0)
    assert out.violations == () and out.trump_suit is Suit.DIAMONDS


def test_shuangsheng_joker_pair_may_not_declare_001_s3_4() -> None:
    """001 三.4: 对王牌不可进行报主."""
    out = resolve("shuangsheng-17", [call("declare", 1, "SJ SJ")], dealer=0)
    assert rule_ids(out) == ["shengji.declare.joker_pair"] and out.declarer is None
    assert out.history[0].accepted is False


def test_eighty_joker_pair_may_declare_no_trump_002_s3_3_2() -> None:
    """002 3.3.2 注: 当一方亮一对小王时，定无主."""
    out = resolve("eighty-rr", [call("declare", 1, "SJ SJ")], levels=("2", "2"), dealer=0)
    assert out.violations == () and out.trump_suit is None and out.declarer == 1


def test_shuangkou_wrong_level_card_before_bottom_bars_the_side_003_s5() -> None:
    """003 五: 在莊家未起底牌時，有錯的一方不得再亮牌."""
    events = [
        call("declare", 1, "7S", face_down=True),
        call("declare", 3, "5S", face_down=True),
        call("declare", 0, "5H", face_down=True),
    ]
    out = resolve("shuangkou-simple", events, dealer=0)
    assert rule_ids(out) == ["shengji.declare.not_level_card", "shengji.declare.side_barred"]
    assert out.trump_suit is Suit.HEARTS and out.declarer == 0
    assert out.wrong_declaration_side is None
    assert "亮错级牌: side 1 may not declare again" in out.history[0].effect


def test_shuangkou_wrong_level_card_after_bottom_other_side_to_a_003_s5() -> None:
    """003 五: 若莊家已起底牌，無過錯方直接升級至級牌A."""
    events = [
        call("declare", 0, "5S", face_down=True),
        {"type": "bury", "seat": 0, "cards": BOTTOM},
        call("overcall", 1, "7D 7D", face_down=True),
    ]
    out = resolve("shuangkou-simple", events, dealer=0)
    assert rule_ids(out) == ["shengji.declare.not_level_card"]
    assert out.wrong_declaration_side == 1 and out.straight_to_a_side == 0
    assert out.trump_suit is Suit.SPADES and out.bury_seat == 0


def test_shuangkou_wrong_declaration_found_after_bottom_by_penalty_003_s5() -> None:
    """003 五: a face-down wrong card found after the dealer took the bottom (penalty event)."""
    events = [
        call("declare", 0, "5S", face_down=True),
        {"type": "bury", "seat": 0, "cards": BOTTOM},
        {"type": "penalty", "seat": 2, "kind": "wrong_declaration"},
    ]
    out = resolve("shuangkou-simple", events, dealer=0)
    assert out.wrong_declaration_side == 0 and out.straight_to_a_side == 1
    assert out.history[-1].kind == "penalty"


def test_wrong_declaration_penalty_is_an_option_003_s5() -> None:
    """I-D2: with wrong_declaration_penalty none, 亮错级牌 is only void."""
    rulebook = find_rulebook("shuangkou-simple", {"wrong_declaration_penalty": "none"})
    events = parse_events(
        [
            call("declare", 0, "5S", face_down=True),
            {"type": "bury", "seat": 0, "cards": BOTTOM},
            call("overcall", 1, "7D 7D", face_down=True),
        ],
        2,
    )
    out = resolve_declarations(rulebook, DealSetup(2, ("5", "5"), dealer=0), events)
    assert out.wrong_declaration_side is None and rule_ids(out) == [
        "shengji.declare.not_level_card"
    ]
