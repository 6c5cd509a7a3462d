"""Throws (甩牌): decomposition, throws that should have failed (hindsight), and the
`throw_fail` event with its forced play (000 第五条, 第十七条; 003; RULEBOOKS.md §1, §3)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import NATURAL_RANKS, SUITS, Card, Rank, parse_cards, two_decks
from referee.rulebooks import find_rulebook
from referee.shengji.events import ThrowFail, Trick
from referee.shengji.follow import (
    check_throw_fail,
    find_blocker,
    hindsight_violations,
    legal_follow,
    random_failed_throw,
    random_lead,
)
from referee.shengji.order import TrumpContext
from referee.shengji.tricks import classify_lead, evaluate_trick

UNION = find_rulebook("union-2deck")
HEARTS2 = TrumpContext.of(Rank.TWO, SUITS[1])


def tricks(*rows: tuple[int, str]) -> list[Trick]:
    return [
        Trick(10 + 2 * i, leader, tuple(parse_cards(p) for p in text.split("|")))
        for i, (leader, text) in enumerate(rows)
    ]


def should_fail(deal: list[Trick], throw_fails: dict | None = None) -> list[tuple]:
    return [
        (v.event, v.seat, v.proof_event, v.rule_id, tuple(str(c) for c in v.cards))
        for v in hindsight_violations(HEARTS2, UNION, deal, throw_fails or {})
        if v.kind == "throw_should_fail"
    ]


# -- throws that should have failed -------------------------------------------------------------


def test_single_higher_than_lowest_thrown_single_000_s5() -> None:
    """000 第五条: 若甩牌中包括单张 … 其他三家手里不能有大于最小单张的牌张."""
    deal = tricks(
        (0, "AS QS|3S 4S|5S 6S|7S 8S"),
        (0, "AD|KS|3D|4D"),
    )
    assert should_fail(deal) == [(10, 0, 12, "shengji.throw.should_fail", ("KS",))]


def test_blocker_seen_in_the_throw_trick_itself() -> None:
    deal = tricks((0, "AS QS|KS 4S|5S 6S|7S 8S"))
    assert should_fail(deal) == [(10, 0, 10, "shengji.throw.should_fail", ("KS",))]


def test_blocker_must_hold_the_cards_at_the_time_of_the_throw() -> None:
    """A KS played before the throw does not make it fail: the hand at trick t is what the
    seat plays from t on."""
    deal = tricks(
        (1, "KS|5S|3S|4S"),
        (1, "3D|4D|5D|6D"),
        (0, "AS QS|3S 4S|5S 6S|7S 8S"),
    )
    assert should_fail(deal) == []


def test_partner_can_block_too_000_s5_other_three() -> None:
    """000 第五条: 其他三家手里不能有 … — the thrower's partner counts."""
    deal = tricks((0, "AS QS|3S 4S|KS 6S|7S 8S"))
    assert should_fail(deal) == [(10, 0, 10, "shengji.throw.should_fail", ("KS",))]


def test_higher_pair_proved_when_second_copy_is_played_000_s5() -> None:
    """若甩牌中包括对子，则其他三家手里不能有大于该对子的对子. Proof: second copy seen."""
    deal = tricks(
        (0, "JS JS AS|3S 4S 5S|6S 7S 8S|9S 10S 3C"),
        (0, "AD|QS|3D|4D"),
        (0, "AC|QS|3C|4C"),
    )
    assert should_fail(deal) == [(10, 0, 14, "shengji.throw.should_fail", ("QS", "QS"))]


def test_higher_pair_does_not_beat_a_thrown_tractor_s1() -> None:
    """§1: a higher pair does not beat a thrown tractor; a higher tractor does."""
    stood = tricks(
        (0, "JS JS 10S 10S AS|QS QS 3S 4S 5S|6S 7S 8S 9S KS|3D 4D 5D 6D 7D"),
    )
    assert should_fail(stood) == []
    blocked = tricks(
        (0, "JS JS 10S 10S AS|QS QS KS KS 5S|6S 7S 8S 9S 3S|3D 4D 5D 6D 7D"),
    )
    assert should_fail(blocked) == [
        (10, 0, 10, "shengji.throw.should_fail", ("KS", "KS", "QS", "QS"))
    ]


def test_equal_single_does_not_block() -> None:
    """The other KS equals the lowest thrown single KS: not higher."""
    deal = tricks((0, "AS KS|KS 4S|5S 6S|7S 8S"))
    assert should_fail(deal) == []


def test_trump_throw_blocked_by_higher_trump() -> None:
    deal = tricks((0, "BJ 3H|SJ 4C|5C 6C|7C 8C"))
    assert should_fail(deal) == [(10, 0, 10, "shengji.throw.should_fail", ("SJ",))]


def test_throw_after_throw_fail_is_a_forced_play_not_a_throw() -> None:
    deal = tricks((0, "AS QS|KS 4S|5S 6S|7S 8S"))
    tf = ThrowFail(9, 0, parse_cards("AS QS JS"), 1, parse_cards("KS"))
    assert should_fail(deal, {10: tf}) == []


def test_find_blocker_reports_component_and_cards() -> None:
    shape = classify_lead(HEARTS2, parse_cards("AS AS KS KS 9S 9S 3S"))
    component, cards = find_blocker(HEARTS2, shape, parse_cards("10S 10S 4S"))
    assert component.name == "pair" and cards == parse_cards("10S 10S")
    component, cards = find_blocker(HEARTS2, shape, parse_cards("4S"))
    assert component.name == "single"
    assert find_blocker(HEARTS2, shape, parse_cards("3S 2S 5D")) is None  # 2S is trump


# -- the throw_fail event -------------------------------------------------------------------


def forced(text: str, leader: int = 0) -> Trick:
    return Trick(11, leader, tuple(parse_cards(p) for p in text.split("|")))


def kinds(tf: ThrowFail, trick: Trick) -> list[tuple]:
    violations = check_throw_fail(HEARTS2, tf, trick)
    return [(v.kind, v.rule_id, v.event, v.proof_event) for v in violations]


def test_valid_throw_fail_and_smallest_single_forced_000_s17() -> None:
    """000 第十七条: 按照任何一家手里有大牌种类继续出最小牌 — a blocked single: the smallest."""
    tf = ThrowFail(10, 0, parse_cards("AS AS KS 9S"), 1, parse_cards("10S"))
    assert kinds(tf, forced("9S|3S|4S|5S")) == []
    assert kinds(tf, forced("KS|3S|4S|5S")) == [
        ("throw_fail_wrong_forced_play", "shengji.throw.forced_play", 11, 10)
    ]


def test_blocked_pair_forces_the_smallest_pair_003() -> None:
    """003: blocked pair → pair (the smallest thrown pair)."""
    tf = ThrowFail(10, 2, parse_cards("AS AS 9S 9S KS"), 3, parse_cards("10S 10S"))
    assert kinds(tf, forced("9S 9S|3S 4S|5S 6S|7S 8S", 2)) == []
    assert kinds(tf, forced("AS AS|3S 4S|5S 6S|7S 8S", 2)) == [
        ("throw_fail_wrong_forced_play", "shengji.throw.forced_play", 11, 10)
    ]


def test_both_types_blocked_either_forced_play_is_accepted_003() -> None:
    """003: if both are blocked the opponents choose: either smallest is accepted."""
    tf = ThrowFail(10, 0, parse_cards("AS AS 9S 9S KS 8S"), 1, parse_cards("10S 10S"))
    assert kinds(tf, forced("9S 9S|3S 4S|5S 6S|7S 8S")) == []
    assert kinds(tf, forced("8S|3S|4S|5S")) == []


def test_blocking_that_does_not_beat_is_invalid_s3() -> None:
    tf = ThrowFail(10, 0, parse_cards("AS AS KS"), 1, parse_cards("QS QS"))
    assert kinds(tf, forced("KS|3S|4S|5S")) == [
        ("throw_fail_invalid", "shengji.throw.not_beaten", 10, None)
    ]


def test_higher_pair_cannot_block_a_thrown_tractor_s1() -> None:
    tf = ThrowFail(10, 0, parse_cards("JS JS 10S 10S AS"), 1, parse_cards("KS KS"))
    assert kinds(tf, forced("JS JS 10S 10S|3S 4S 5S 6S|7S 8S 9S 3D|4D 5D 6D 7D")) == [
        ("throw_fail_invalid", "shengji.throw.not_beaten", 10, None)
    ]
    tf = ThrowFail(10, 0, parse_cards("JS JS 10S 10S AS"), 1, parse_cards("KS KS QS QS"))
    assert kinds(tf, forced("JS JS 10S 10S|3S 4S 5S 6S|7S 8S 9S 3D|4D 5D 6D 7D")) == []


def test_not_a_throw_own_blocker_and_wrong_suit_are_invalid() -> None:
    trick = forced("AS|3S|4S|5S")
    assert kinds(ThrowFail(10, 0, parse_cards("AS AS"), 1, parse_cards("KS")), trick)[0][1] == (
        "shengji.throw.not_a_throw"
    )
    assert kinds(ThrowFail(10, 0, parse_cards("AS 9S"), 0, parse_cards("KS")), trick)[0][1] == (
        "shengji.throw.own_blocker"
    )
    assert kinds(ThrowFail(10, 0, parse_cards("AS 9S"), 1, parse_cards("KD")), trick)[0][1] == (
        "shengji.throw.blocking_suit"
    )
    assert kinds(ThrowFail(10, 0, parse_cards("AS 9D"), 1, parse_cards("KS")), trick)[0][1] == (
        "shengji.throw.mixed_suits"
    )


def test_blocker_who_never_held_the_blocking_cards_in_a_complete_deal() -> None:
    """Hindsight: in a complete deal the blocker must later play the cards it showed."""
    deck = sorted(two_decks(), key=lambda c: c.index)[:100]
    hands = [deck[i::4] for i in range(4)]  # 25 cards each
    deal = [
        Trick(20 + t, 0, tuple((hands[seat][t],) for seat in range(4))) for t in range(25)
    ]
    shown: Card = hands[1][3]
    tf = ThrowFail(19, 0, (hands[0][0], hands[0][1]), 1, (shown,))
    absent = parse_cards("BJ")
    tf_bad = ThrowFail(19, 0, (hands[0][0], hands[0][1]), 1, absent)
    ok = [v for v in hindsight_violations(HEARTS2, UNION, deal, {20: tf})
          if v.kind == "throw_fail_invalid"]
    bad = [v for v in hindsight_violations(HEARTS2, UNION, deal, {20: tf_bad})
           if v.kind == "throw_fail_invalid"]
    assert ok == []
    assert [(v.event, v.seat, v.proof_event, v.rule_id) for v in bad] == [
        (19, 1, 44, "shengji.throw.blocking_not_held")
    ]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9))
def test_simulated_failed_throw_is_accepted_by_every_check(seed: int) -> None:
    """`random_failed_throw` gives a throw_fail that `check_throw_fail` accepts and a whole
    deal around it that the hindsight checks accept (blocker held the blocking cards)."""
    rng = random.Random(seed)
    ctx = TrumpContext.of(rng.choice(NATURAL_RANKS), rng.choice([*SUITS, None]))
    deck = two_decks()
    rng.shuffle(deck)
    hands = [Counter(deck[i * 25:(i + 1) * 25]) for i in range(4)]
    leader = 0
    attempt = random_failed_throw(ctx, hands[0], hands[1:], rng)
    if attempt is None:
        return
    attempted, position, blocking, forced_lead = attempt
    throw_fail = ThrowFail(0, 0, attempted, position + 1, blocking)
    played: list[Trick] = []
    lead: tuple[Card, ...] | None = forced_lead
    for t in range(25):
        if lead is None:
            lead = random_lead(ctx, hands[leader], [hands[(leader + k) % 4] for k in (1, 2, 3)],
                               rng)
        plays = [lead] + [legal_follow(ctx, lead, hands[(leader + k) % 4], rng) for k in (1, 2, 3)]
        for k, play in enumerate(plays):
            hands[(leader + k) % 4] -= Counter(play)
        trick = Trick(t + 1, leader, tuple(plays))
        played.append(trick)
        leader = evaluate_trick(ctx, leader, trick.plays).winner
        lead = None
        if not hands[leader]:
            break
    assert check_throw_fail(ctx, throw_fail, played[0]) == []
    assert hindsight_violations(ctx, UNION, played, {1: throw_fail}) == []
