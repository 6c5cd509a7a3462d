"""防反 (reinforcement): a single declarer adds the twin before anyone overcalls (seed 000)."""

from __future__ import annotations

from typing import Any

from referee.cards import Suit
from referee.rulebooks import find_rulebook
from referee.shengji.declaration import DealSetup, DeclarationOutcome, resolve_declarations
from referee.shengji.events import parse_events


def resolve(
    rulebook: str, events: list[dict[str, Any]], number: int = 2, **setup: Any
) -> DeclarationOutcome:
    return resolve_declarations(
        find_rulebook(rulebook),
        DealSetup(number, ("2", "2"), **setup),
        parse_events(events, number),
    )


def call(kind: str, seat: int, cards: str) -> dict[str, Any]:
    return {"type": kind, "seat": seat, "cards": cards}


def rule_ids(out: DeclarationOutcome) -> list[str]:
    return [v.rule_id for v in out.violations]


def test_union_reinforce_makes_the_call_a_pair_000_art13_2() -> None:
    """000 第十三条二 防反: 将新抓到这张级牌一并加亮出来 — a pair is no longer overcalled."""
    out = resolve(
        "union-2deck",
        [call("declare", 1, "2H"), call("reinforce", 1, "2H"), call("overcall", 2, "2S 2S")],
        dealer=0,
    )
    assert out.history[1].accepted and out.history[1].effect == "防反: a pair of ♥2"
    assert rule_ids(out) == ["shengji.overcall.only_over_single"] and out.trump_suit is Suit.HEARTS


def test_union_grab_reinforced_pair_ranks_by_suit_000_art2() -> None:
    """000 第二条 + 第十三条: on the grab deal a reinforced ♦ pair is still beaten by a ♣ pair."""
    out = resolve(
        "union-2deck",
        [call("declare", 1, "2D"), call("reinforce", 1, "2D"), call("overcall", 2, "2C 2C")],
        number=1,
    )
    assert out.violations == () and (out.dealer, out.trump_suit) == (2, Suit.CLUBS)


def test_reinforce_only_before_an_overcall_000_art13_2() -> None:
    """000 第十三条二: 在别人未反主之前."""
    out = resolve(
        "union-2deck",
        [call("declare", 1, "2H"), call("overcall", 2, "2S 2S"), call("reinforce", 1, "2H")],
        dealer=0,
    )
    assert rule_ids(out) == ["shengji.reinforce.not_own"]


def test_reinforce_needs_the_twin_000_art13_2() -> None:
    """000 第十三条二: 一张与已亮花色相同级牌."""
    out = resolve("union-2deck", [call("declare", 1, "2H"), call("reinforce", 1, "2D")], dealer=0)
    assert rule_ids(out) == ["shengji.reinforce.not_twin"] and out.trump_suit is Suit.HEARTS


def test_reinforce_only_ones_own_call_000_art13_2() -> None:
    """000 第十三条二: 若自己已亮主 — only the declarer reinforces."""
    out = resolve("union-2deck", [call("declare", 1, "2H"), call("reinforce", 3, "2H")], dealer=0)
    assert rule_ids(out) == ["shengji.reinforce.not_own"]


def test_reinforce_before_the_bottom_is_taken_000_art13_2() -> None:
    """000 第十三条二: 在后来抓牌过程中 — while drawing, so before the bury."""
    out = resolve(
        "union-2deck",
        [
            call("declare", 1, "2H"),
            {"type": "bury", "seat": 0, "cards": "3C 4C 6C 7C 8C 9C 3D 4D"},
            call("reinforce", 1, "2H"),
        ],
        dealer=0,
    )
    assert rule_ids(out) == ["shengji.reinforce.too_late"]


def test_shuangsheng_has_no_reinforcement_001_s4() -> None:
    """001 四: 反主 only by the ladder; no 防反 in shuangsheng-17 (reinforce_allowed off)."""
    out = resolve(
        "shuangsheng-17", [call("declare", 1, "2H BJ"), call("reinforce", 1, "2H")], dealer=0
    )
    assert rule_ids(out) == ["shengji.reinforce.not_allowed"]


def test_eighty_has_no_reinforcement_002_s3_3_2() -> None:
    """002 3.3.2: 反主只能反别人，不能反自己 — adding the twin to one's own card is 反自己."""
    out = resolve("eighty-rr", [call("declare", 1, "2H"), call("reinforce", 1, "2H")], dealer=0)
    assert rule_ids(out) == ["shengji.reinforce.not_allowed"]
    assert out.trump_suit is Suit.HEARTS
