"""Later deals in shuangsheng-17: opponents declaring at their own level take the deal."""

from __future__ import annotations

from typing import Any

from referee.cards import Rank, Suit
from referee.rulebooks import find_rulebook
from referee.shengji.declaration import DealSetup, DeclarationOutcome, resolve_declarations
from referee.shengji.events import parse_events


def resolve(
    rulebook: str, events: list[dict[str, Any]], levels: tuple[str, str], **setup: Any
) -> DeclarationOutcome:
    return resolve_declarations(
        find_rulebook(rulebook), DealSetup(5, levels, **setup), parse_events(events, 5)
    )


def call(kind: str, seat: int, cards: str) -> dict[str, Any]:
    return {"type": kind, "seat": seat, "cards": cards}


def test_opponents_declaring_at_the_dealers_level_keep_the_dealer_001_s3_2() -> None:
    """001 三.2: 对家玩家可以按照当前局庄家的牌级叫主牌，此时，不换庄家."""
    out = resolve("shuangsheng-17", [call("declare", 1, "7H BJ")], ("7", "4"), dealer=0)
    assert (out.dealer, out.level, out.trump_suit, out.violations) == (
        0,
        Rank.SEVEN,
        Suit.HEARTS,
        (),
    )


def test_opponents_declaring_at_their_own_level_take_the_deal_001_s3_2() -> None:
    """001 三.2: 按照自己的牌级叫主牌，此时换庄家."""
    out = resolve(
        "shuangsheng-17", [call("declare", 1, "4S SJ")], ("7", "4"), dealer=0, given_dealer=0
    )
    assert (out.dealer, out.level, out.trump_suit) == (1, Rank.FOUR, Suit.SPADES)
    assert out.dealer_event == 0 and "takes the deal" in out.history[0].effect
    assert [v.kind for v in out.violations] == ["wrong_dealer"]


def test_overcall_after_deal_taken_uses_the_new_level_001_s4() -> None:
    """001 四: 反主 uses the deal's level card; the dealer stays (反主抄底 此时庄家不变)."""
    out = resolve(
        "shuangsheng-17",
        [call("declare", 1, "4S SJ"), call("overcall", 0, "4H 4H BJ")],
        ("7", "4"),
        dealer=0,
    )
    assert (out.dealer, out.level, out.trump_suit, out.violations) == (
        1,
        Rank.FOUR,
        Suit.HEARTS,
        (),
    )


def test_dealer_side_cannot_declare_at_the_opponents_level_001_s3_2() -> None:
    """001 三.2: only the opponents may choose their own level."""
    out = resolve("shuangsheng-17", [call("declare", 2, "4S SJ")], ("7", "4"), dealer=0)
    assert [v.rule_id for v in out.violations] == ["shengji.declare.not_level_card"]


def test_equal_levels_never_change_the_dealer_i_d3() -> None:
    """I-D3: at equal levels an opponent's declaration is at the dealer's level."""
    out = resolve("shuangsheng-17", [call("declare", 1, "7S SJ")], ("7", "7"), dealer=0)
    assert out.dealer == 0


def test_equal_levels_take_deal_option_i_d3() -> None:
    """I-D3 is an option: `equal_levels_take_deal` lets the opponents take it at equal levels."""
    rulebook = find_rulebook("shuangsheng-17", {"equal_levels_take_deal": True})
    events = parse_events([call("declare", 1, "7S SJ")], 5)
    out = resolve_declarations(rulebook, DealSetup(5, ("7", "7"), dealer=0), events)
    assert (out.dealer, out.level, out.trump_suit, out.violations) == (
        1,
        Rank.SEVEN,
        Suit.SPADES,
        (),
    )
    assert "takes the deal" in out.history[0].effect
    events = parse_events([call("declare", 2, "7S SJ")], 5)  # the dealer's own side: no change
    assert resolve_declarations(rulebook, DealSetup(5, ("7", "7"), dealer=0), events).dealer == 0


def test_union_opponents_do_not_take_the_deal_000_art13() -> None:
    """000 第十三条: 从第二副牌开始，庄家是已定 — no own-level declarations in union-2deck."""
    out = resolve("union-2deck", [call("declare", 1, "4S")], ("7", "4"), dealer=0)
    assert [v.rule_id for v in out.violations] == ["shengji.declare.not_level_card"]
    assert out.dealer == 0


def test_eighty_always_level_two_002_s3_1_1() -> None:
    """002 3.1.1 每场比赛只打2 — the level is 2 whatever the levels field says."""
    out = resolve("eighty-rr", [call("declare", 1, "2S")], ("7", "4"), dealer=0)
    assert (out.level, out.trump_suit, out.violations) == (Rank.TWO, Suit.SPADES, ())


def test_opponents_own_level_call_reports_its_real_fault_001_s3_1() -> None:
    """001 三.1 大王只能报红色主牌: at their own level the wrong joker is named, not the level."""
    out = resolve("shuangsheng-17", [call("declare", 1, "4S BJ")], ("7", "4"), dealer=0)
    assert [v.rule_id for v in out.violations] == ["shengji.declare.wrong_joker"]
