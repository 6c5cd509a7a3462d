"""Hindsight follow checks (RULEBOOKS.md §1 "because the referee … does not see the hands"):
revoke (藏张), pair/tractor held but not followed (I-9), wrong count; and the simulator's
`legal_follow` / `random_lead`, which must never produce a violation."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import SUITS, Card, Rank, parse_cards, two_decks
from referee.rulebooks import find_rulebook
from referee.shengji.events import Trick
from referee.shengji.follow import (
    check_throw_fail,
    follow_problem,
    hindsight_violations,
    legal_follow,
    random_lead,
)
from referee.shengji.order import TrumpContext
from referee.shengji.tricks import classify_lead, evaluate_trick

UNION = find_rulebook("union-2deck")
STRICT = UNION.with_options({"follow_tractor_strict": True})
HEARTS2 = TrumpContext.of(Rank.TWO, SUITS[1])


def tricks(*rows: tuple[int, str]) -> list[Trick]:
    """Tricks at event indexes 10, 12, 14, … (gaps, as penalties may sit between)."""
    return [
        Trick(10 + 2 * i, leader, tuple(parse_cards(p) for p in text.split("|")))
        for i, (leader, text) in enumerate(rows)
    ]


def found(violations: list, kind: str | None = None) -> list[tuple]:
    return [
        (v.kind, v.event, v.seat, v.proof_event, v.rule_id)
        for v in violations
        if kind is None or v.kind == kind
    ]


# -- revoke ----------------------------------------------------------------------------------


def test_revoke_proved_by_later_card_of_the_led_suit_000_s7_s18() -> None:
    """000 第七条 有这门花色牌时必须跟出; 第十八条 藏张. Proof: the trick where the suit shows."""
    deal = tricks(
        (0, "AS|3C|4S|5S"),
        (0, "KD|4C|6D|7D"),
        (0, "QD|6S|8D|9D"),
    )
    assert found(hindsight_violations(HEARTS2, UNION, deal, {})) == [
        ("revoke", 10, 1, 14, "shengji.follow.suit")
    ]


def test_revoke_proof_is_the_earliest_trick_showing_the_suit() -> None:
    deal = tricks(
        (0, "AS|3C|4S|5S"),
        (0, "KD|6S|6D|7D"),
        (0, "QD|7S|8D|9D"),
    )
    [violation] = hindsight_violations(HEARTS2, UNION, deal, {})
    assert violation.proof_event == 12
    assert "6S" in violation.detail and "7S" in violation.detail


def test_no_revoke_when_the_seat_never_shows_the_suit_again() -> None:
    deal = tricks((0, "AS|3C|4S|5S"), (0, "KD|4C|6D|7D"))
    assert hindsight_violations(HEARTS2, UNION, deal, {}) == []


def test_revoke_on_a_trump_lead_level_cards_count_as_trump_s1() -> None:
    """§1: level cards are trump; discarding a side card while holding 2S revokes trump."""
    deal = tricks((0, "3H|4C|5H|6H"), (1, "2S|7H|8H|9H"))
    assert found(hindsight_violations(HEARTS2, UNION, deal, {})) == [
        ("revoke", 10, 1, 12, "shengji.follow.suit")
    ]


def test_partial_follow_must_use_every_card_of_the_suit_000_s7() -> None:
    """Pair led, seat holding one spade besides: it must play it (then any card)."""
    deal = tricks((0, "AS AS|3C 4C|5S 6S|7S 8S"), (0, "QD|3S|9D|10D"))
    assert found(hindsight_violations(HEARTS2, UNION, deal, {})) == [
        ("revoke", 10, 1, 12, "shengji.follow.suit")
    ]


# -- pairs and tractors -----------------------------------------------------------------------


def test_pair_held_but_not_followed_000_s7() -> None:
    """000 第七条: 当领出为对子时，其他三家有对子必须跟对子. Proof: the second copy's trick."""
    deal = tricks(
        (0, "3S 3S|4S 5S|6S 7S|8S 9S"),
        (0, "AD|JS|KD|QD"),
        (0, "AC|JS|KC|QC"),
    )
    assert found(hindsight_violations(HEARTS2, UNION, deal, {})) == [
        ("pair_not_followed", 10, 1, 14, "shengji.follow.pair")
    ]


def test_no_pair_no_violation_000_s7() -> None:
    """无对子时可任意跟牌."""
    deal = tricks((0, "3S 3S|4S 5S|6S 7S|8S 9S"), (0, "AD|JS|KD|QD"), (0, "AC|10S|KC|QC"))
    assert hindsight_violations(HEARTS2, UNION, deal, {}) == []


def test_tractor_held_but_two_pairs_played_000_s7() -> None:
    """000 第七条: 有连对必须跟连对."""
    deal = tricks(
        (0, "3S 3S 4S 4S|7S 7S JS JS|5S 6S 8S 9S|9S 10S QS KS"),
        (0, "AD AD|8S 8S|KD KD|QD QD"),
    )
    assert found(hindsight_violations(HEARTS2, UNION, deal, {})) == [
        ("pair_not_followed", 10, 1, 12, "shengji.follow.tractor")
    ]


def test_tractor_led_two_pairs_required_without_a_tractor_000_s7() -> None:
    """000 第七条: 无连对时跟两个对子，无两个对子时跟一个对子加两个单张."""
    bad = tricks(
        (0, "3S 3S 4S 4S|7S 7S JS QS|5S 6S 8S 9S|9S 10S QS KS"),
        (0, "AD|10S|KD|QD"),
    )
    assert found(hindsight_violations(HEARTS2, UNION, bad, {})) == []  # one pair held: played
    bad = tricks(
        (0, "3S 3S 4S 4S|7S 7S JS QS|5S 6S 8S 9S|9S 10S QS KS"),
        (0, "AD AD|JS KS|KD KD|QD QD"),
        (0, "AC|KS|KC|QC"),
    )
    # JS JS is complete at event 12, the KS pair only at 14: the earliest proof counts
    assert found(hindsight_violations(HEARTS2, UNION, bad, {})) == [
        ("pair_not_followed", 10, 1, 12, "shengji.follow.pair")
    ]


def test_shorter_tractor_not_enforced_unless_strict_i9() -> None:
    """I-9: a follower without the led tractor must keep as many pairs as it holds; holding a
    shorter tractor is enforced only with `follow_tractor_strict`."""
    deal = tricks(
        (0, "6S 6S 7S 7S 8S 8S|9S 9S QS QS AS AS|10S JS KS 3S 3D 4D|3C 4C 5C 6C 7C 8C"),
        (0, "AD AD 3C 3C|4S 4S 5S 5S|KD KD QD QD|9D 9D 10D 10D"),
    )
    assert hindsight_violations(HEARTS2, UNION, deal, {}) == []
    assert found(hindsight_violations(HEARTS2, STRICT, deal, {})) == [
        ("pair_not_followed", 10, 1, 12, "shengji.follow.tractor")
    ]


def test_throw_followed_component_by_component_000_s7() -> None:
    """000 第七条: 当领出为甩牌时 … 按照上述不同组合跟牌办法分别跟牌."""
    deal = tricks(
        (0, "AS AS KS|5S 7S 3S|4S 6S 8S|9S 10S JS"),
        (0, "AD|3S|KD|QD"),
    )
    assert found(hindsight_violations(HEARTS2, UNION, deal, {})) == [
        ("pair_not_followed", 10, 1, 12, "shengji.follow.pair")
    ]


def test_wrong_number_of_cards_000_s16() -> None:
    """000 第十六条 多牌少牌."""
    deal = tricks((0, "AS AS|3S|4S 5S|6S 7S"))
    assert found(hindsight_violations(HEARTS2, UNION, deal, {})) == [
        ("wrong_count", 10, 1, None, "shengji.follow.count")
    ]


def test_follow_problem_direct() -> None:
    shape = classify_lead(HEARTS2, parse_cards("3S 3S 4S 4S"))
    assert follow_problem(HEARTS2, shape, parse_cards("5S 5S 6S 6S 9S"),
                          parse_cards("5S 5S 6S 9S")) == "tractor"
    assert follow_problem(HEARTS2, shape, parse_cards("5S 5S 6S 6S 9S"),
                          parse_cards("5S 5S 6S 6S")) is None
    assert follow_problem(HEARTS2, shape, parse_cards("5S 9S 3D 4D"),
                          parse_cards("5S 3D 4D 6C")) == "revoke"


# -- the simulator's plays are legal ----------------------------------------------------------


def play_deal(seed: int) -> tuple[TrumpContext, list[Trick]]:
    """25 tricks of random legal play from a random deal (the bottom is ignored)."""
    rng = random.Random(seed)
    level = rng.choice([r for r in Rank if not r.is_joker])
    trump = rng.choice([*SUITS, None])
    ctx = TrumpContext.of(level, trump, rng.choice(["full", "stated"]))
    deck = two_decks()
    rng.shuffle(deck)
    hands = [Counter(deck[i * 25:(i + 1) * 25]) for i in range(4)]
    leader = rng.randrange(4)
    played: list[Trick] = []
    for t in range(25):
        others = [hands[(leader + k) % 4] for k in (1, 2, 3)]
        lead = random_lead(ctx, hands[leader], others, rng)
        plays = [lead]
        for k in (1, 2, 3):
            plays.append(legal_follow(ctx, lead, hands[(leader + k) % 4], rng))
        for k, play in enumerate(plays):
            hands[(leader + k) % 4] -= Counter(play)
        trick = Trick(t, leader, tuple(tuple(p) for p in plays))
        played.append(trick)
        leader = evaluate_trick(ctx, leader, trick.plays).winner
        if not any(hands[leader]):
            break
    assert all(sum(h.values()) == 0 for h in hands) or len(played) < 25
    return ctx, played


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.booleans())
def test_legal_follow_and_random_lead_never_violate(seed: int, strict: bool) -> None:
    """Simulated play (random_lead + legal_follow) has no hindsight violation, I-9 strict or not."""
    ctx, played = play_deal(seed)
    rulebook = STRICT if strict else UNION
    assert hindsight_violations(ctx, rulebook, played, {}) == []
    assert sum(len(p) for trick in played for p in trick.plays) == 100


def test_simulated_deals_contain_throws_and_ruffs() -> None:
    kinds: Counter[str] = Counter()
    ruffs = 0
    for seed in range(30):
        ctx, played = play_deal(seed)
        for trick in played:
            shape = classify_lead(ctx, trick.plays[0])
            kinds[shape.kind] += 1
            outcome = evaluate_trick(ctx, trick.leader, trick.plays)
            if shape.suit is not None and outcome.won_with_trump:
                ruffs += 1
    assert kinds["throw"] > 0 and kinds["tractor"] > 0 and kinds["pair"] > 0
    assert ruffs > 0


def test_legal_follow_keeps_pairs_and_tractors() -> None:
    rng = random.Random(3)
    hand = Counter(parse_cards("5S 5S 6S 6S 9S 9S JS KD"))
    for _ in range(20):
        play = legal_follow(HEARTS2, parse_cards("3S 3S 4S 4S"), hand, rng)
        assert Counter(play)[parse_cards("5S")[0]] == 2 and Counter(play)[parse_cards("6S")[0]] == 2


def test_legal_follow_void_may_ruff_with_shape() -> None:
    rng = random.Random(5)
    hand = Counter(parse_cards("3H 3H 4H 4H 9D"))
    plays = {legal_follow(HEARTS2, parse_cards("AS AS KS KS"), hand, rng) for _ in range(30)}
    assert parse_cards("4H 4H 3H 3H") in plays or parse_cards("3H 3H 4H 4H") in plays
    card: Card
    for play in plays:
        assert len(play) == 4
        for card in play:
            assert card in hand


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_hindsight_never_crashes_on_arbitrary_tricks(data: st.DataObject) -> None:
    """A referee may log anything readable: the checks report, they never raise, and every
    violation cites trick events, the proof never before the broken trick."""
    from referee.cards import ALL_CARDS
    from referee.shengji.events import ThrowFail

    ctx = TrumpContext.of(data.draw(st.sampled_from([Rank.TWO, Rank.KING])),
                          data.draw(st.sampled_from([SUITS[0], None])))
    deal = []
    for i in range(data.draw(st.integers(1, 6))):
        plays = tuple(
            tuple(data.draw(st.lists(st.sampled_from(ALL_CARDS[:20] + ALL_CARDS[52:]),
                                     min_size=1, max_size=4)))
            for _ in range(4)
        )
        deal.append(Trick(3 * i + 1, data.draw(st.integers(0, 3)), plays))
    throw_fails = {}
    if data.draw(st.booleans()):
        first = deal[0]
        throw_fails[first.index] = ThrowFail(
            0, first.leader, first.plays[0] + first.plays[0][:1], (first.leader + 1) % 4,
            first.plays[1],
        )
    rulebook = STRICT if data.draw(st.booleans()) else UNION
    indexes = {t.index for t in deal}
    for violation in hindsight_violations(ctx, rulebook, deal, throw_fails):
        assert violation.event in indexes
        if violation.proof_event is not None:
            assert violation.proof_event in indexes
            assert violation.proof_event >= violation.event
    for trick in deal:
        for throw_fail in throw_fails.values():
            check_throw_fail(ctx, throw_fail, trick)
