"""Nobody declares: 定主 by flipping the bottom, redeal in shuangsheng-17, first drawer deals."""

from __future__ import annotations

from typing import Any

import pytest

from referee.cards import Suit, parse_card
from referee.rulebooks import find_rulebook
from referee.shengji.declaration import DealSetup, DeclarationOutcome, resolve_declarations
from referee.shengji.events import parse_events

BOTTOM = "3C 4C 6C 7C 8C 9C 3D 4D"


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


def flip(card: str) -> dict[str, Any]:
    return {"type": "flip", "card": card}


def bury(seat: int) -> dict[str, Any]:
    return {"type": "bury", "seat": seat, "cards": BOTTOM}


def rule_ids(out: DeclarationOutcome) -> list[str]:
    return [v.rule_id for v in out.violations]


@pytest.mark.parametrize("rulebook", ["union-2deck", "eighty-rr", "shuangkou-simple"])
def test_flip_fixes_the_trump_suit_000_art13_3(rulebook: str) -> None:
    """000 第十三条三 定主: 由庄家翻开原始底牌上面第一张牌，将这张牌花色定为将牌."""
    out = resolve(rulebook, [flip("9H"), bury(3)], dealer=3)
    assert (out.trump_suit, out.flipped, out.violations) == (Suit.HEARTS, parse_card("9H"), ())
    assert out.history[0].effect.startswith("定主: 9♥ → trump ♥")


@pytest.mark.parametrize("joker", ["BJ", "SJ"])
def test_flipped_joker_is_no_trump_000_art13_3(joker: str) -> None:
    """000 第十三条三: 若第一张牌是大王或小王，则为无主; 002 3.3.3 即打无将."""
    out = resolve("union-2deck", [flip(joker), bury(3)], dealer=3)
    assert out.trump_suit is None and out.phase == "ready"


def test_flip_before_the_bury_leaves_the_deal_burying_000_art13_3() -> None:
    """000 第十三条三: after the flip the dealer takes the bottom and buries."""
    out = resolve("union-2deck", [flip("9H")], dealer=3)
    assert out.phase == "burying"


def test_no_declaring_after_a_flip_003_s4() -> None:
    """003 四: 以翻開底牌的第一張花色為主牌 … 任何人不能再反主."""
    out = resolve(
        "shuangkou-simple",
        [flip("9H"), bury(3), {"type": "overcall", "seat": 1, "cards": "2D 2D"}],
        dealer=3,
    )
    assert rule_ids(out) == ["shengji.overcall.after_flip"] and out.trump_suit is Suit.HEARTS


def test_flip_after_a_declaration_is_reported_000_art13_3() -> None:
    """000 第十三条三: 至抓牌结束没有牌手亮主时 — only when nobody declared."""
    out = resolve(
        "union-2deck", [{"type": "declare", "seat": 0, "cards": "2S"}, flip("9H")], dealer=3
    )
    assert rule_ids(out) == ["shengji.flip.after_declaration"] and out.trump_suit is Suit.SPADES


def test_shuangkou_first_deal_nobody_declares_first_drawer_deals_003_s4() -> None:
    """003 四: 第一副牌則以第一摸牌者為莊家."""
    out = resolve("shuangkou-simple", [flip("KC"), bury(2)], number=1, first_drawer=2)
    assert (out.dealer, out.trump_suit, out.violations) == (2, Suit.CLUBS, ())
    out = resolve(
        "shuangkou-simple", [flip("KC"), bury(2)], number=1, first_drawer=2, given_dealer=1
    )
    assert [v.kind for v in out.violations] == ["wrong_dealer"] and out.dealer == 2


def test_union_first_deal_nobody_declares_first_drawer_deals_i_d4() -> None:
    """I-D4: on the union grab deal with nobody declaring, the first drawer deals and flips."""
    out = resolve("union-2deck", [flip("KC"), bury(1)], number=1, first_drawer=1)
    assert (out.dealer, out.trump_suit, out.violations) == (1, Suit.CLUBS, ())
    out = resolve(
        "union-2deck", [flip("KC"), bury(3)], number=1, first_drawer=1, given_dealer=3
    )
    assert (out.dealer, out.violations) == (3, ())  # the record's dealer, unchecked


def test_nobody_grab_dealer_first_drawer_option_i_d4() -> None:
    """I-D4 is an option: `nobody_grab_dealer="first_drawer"` makes the first drawer deal."""
    rulebook = find_rulebook("union-2deck", {"nobody_grab_dealer": "first_drawer"})
    events = parse_events([flip("KC"), bury(1)], 1)
    setup = DealSetup(1, ("2", "2"), first_drawer=1, given_dealer=3)
    out = resolve_declarations(rulebook, setup, events)
    assert out.dealer == 1 and rule_ids(out) == ["shengji.dealer.wrong"]


def test_shuangsheng_nobody_declares_redeal_001_s3_3() -> None:
    """001 三.3 无人报主: 当双方均叫不起主，重新洗牌，进行抢庄."""
    out = resolve("shuangsheng-17", [], number=1, redeal=True)
    assert out.redeal and out.phase == "redeal"
    out = resolve("shuangsheng-17", [flip("9H")], number=4, dealer=1)
    assert out.redeal and out.phase == "redeal" and out.trump_suit is None
    assert out.history[0].effect == "无人报主: reshuffle, redeal and grab again"


def test_shuangsheng_no_calls_after_redeal_001_s3_3() -> None:
    """001 三.3: a redealt deal has no declarations of its own."""
    out = resolve(
        "shuangsheng-17", [flip("9H"), {"type": "declare", "seat": 0, "cards": "2S SJ"}], dealer=1
    )
    assert rule_ids(out) == ["shengji.declare.too_late"]


def test_redeal_flag_ignored_where_the_rulebook_flips_000_art13_3() -> None:
    """000 第十三条三: union-2deck flips rather than redeals."""
    out = resolve("union-2deck", [], dealer=1, redeal=True)
    assert not out.redeal and out.phase == "declaring"
