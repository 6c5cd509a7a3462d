"""Lead shapes and trick comparison when following (RULEBOOKS.md §1; 000 第四/八条, 002 3.5)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import ALL_CARDS, Card, Rank, Suit, parse_cards
from referee.errors import IllegalPlayError
from referee.shengji.order import TRUMP, TrumpContext
from referee.shengji.tricks import beats_tops, best_tops, classify_lead, decompose, evaluate_trick

HEARTS2 = TrumpContext.of(Rank.TWO, Suit.HEARTS)


def plays(*texts: str) -> list[tuple[Card, ...]]:
    return [parse_cards(t) for t in texts]


# -- lead shapes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "kind", "names"),
    [
        ("AS", "single", ["single"]),
        ("AS AS", "pair", ["pair"]),
        ("BJ BJ", "pair", ["pair"]),  # 000 第四条: 涉及两张大王和两张小王
        ("SJ SJ", "pair", ["pair"]),
        ("KS KS AS AS", "tractor", ["tractor2"]),
        ("3S 3S 4S 4S 5S 5S", "tractor", ["tractor3"]),
        ("AS KS", "throw", ["single", "single"]),
        ("AS AS KS", "throw", ["pair", "single"]),
        ("AS AS KS KS JS 10S", "throw", ["tractor2", "single", "single"]),
        ("AS AS QS QS JS 10S", "throw", ["pair", "pair", "single", "single"]),
    ],
)
def test_lead_shapes_000_s4(cards: str, kind: str, names: list[str]) -> None:
    """000 第四条/第五条: single, pair (jokers included), 连对, else 甩牌."""
    shape = classify_lead(HEARTS2, parse_cards(cards))
    assert shape.kind == kind
    assert [component.name for component in shape.components] == names
    assert shape.size == len(parse_cards(cards))


def test_throw_decomposes_into_largest_components_longest_tractor_first_000_s5() -> None:
    """000 第五条: a throw may mix 连对, 对子 and singles; components largest first."""
    ctx = TrumpContext.of(Rank.FIVE, Suit.CLUBS)
    # 66 44 (tractor through the level 5), 99 88 77 (tractor3), JJ pair, A single
    shape = classify_lead(ctx, parse_cards("6S 6S 4S 4S 9S 9S 8S 8S 7S 7S JS JS AS"))
    assert [c.name for c in shape.components] == ["tractor5", "pair", "single"]
    shape = classify_lead(ctx, parse_cards("3S 3S 4S 4S 9S 9S 8S 8S 7S 7S JS JS AS"))
    assert [c.name for c in shape.components] == ["tractor3", "tractor2", "pair", "single"]
    assert shape.components[0].cards == parse_cards("9S 9S 8S 8S 7S 7S")
    assert shape.last_trick_name == "throw:tractor3"


def test_trump_throw_uses_the_full_chain_i2() -> None:
    """I-2: BJ–SJ–main level–off level pairs make one tractor inside a trump throw."""
    ctx = TrumpContext.of(Rank.TEN, Suit.CLUBS)
    shape = classify_lead(ctx, parse_cards("BJ BJ SJ SJ 10C 10C 10D 10D 10H 10H AC"))
    assert shape.suit is None
    assert [c.name for c in shape.components] == ["tractor4", "pair", "single"]
    stated = TrumpContext.of(Rank.TEN, Suit.CLUBS, "stated")
    shape = classify_lead(stated, parse_cards("BJ BJ SJ SJ 10C 10C 10D 10D"))
    assert [c.name for c in shape.components] == ["tractor3", "pair"]


def test_off_level_pairs_of_two_suits_are_two_pairs_not_a_tractor_002() -> None:
    """002 3.5.3: 两对副5不算连对 — led together they are a throw of two pairs."""
    ctx = TrumpContext.of(Rank.FIVE, Suit.HEARTS)
    shape = classify_lead(ctx, parse_cards("5S 5S 5D 5D"))
    assert shape.kind == "throw"
    assert [c.name for c in shape.components] == ["pair", "pair"]


def test_lead_mixing_suits_is_illegal_000_s5() -> None:
    """000 第五条: a throw is cards of one suit (某一门花色); trump counts as one suit."""
    with pytest.raises(IllegalPlayError) as error:
        classify_lead(HEARTS2, parse_cards("AS KD"))
    assert error.value.rule_id == "shengji.lead.mixed_suits"
    with pytest.raises(IllegalPlayError):
        evaluate_trick(HEARTS2, 0, plays("AS KD", "3S 4S", "5S 6S", "7S 8S"))
    # level cards and jokers are trump with the trump suit: not mixed
    assert classify_lead(HEARTS2, parse_cards("2S 3H BJ")).kind == "throw"


def test_decompose_reports_tops_and_codes() -> None:
    parts = decompose(HEARTS2, parse_cards("KS KS AS AS 3S"))
    assert [p.code for p in parts] == [2, 0]
    assert parts[0].top == HEARTS2.power(parse_cards("AS")[0])


# -- following ------------------------------------------------------------------------------


def test_highest_of_led_suit_wins_and_points_counted_000_s8_s10() -> None:
    """000 第八条(一) A > K > … and 第十条: the winner takes 5, 10 and K."""
    outcome = evaluate_trick(HEARTS2, 0, plays("10S", "KS", "5S", "3S"))
    assert outcome.winner == 1
    assert outcome.points == 25
    assert outcome.shape == "single"
    assert outcome.last_trick_shape == "single"
    assert not outcome.won_with_trump


def test_identical_cards_first_played_wins_000_s8() -> None:
    """000 第八条(一) 相同牌以先出者为大."""
    assert evaluate_trick(HEARTS2, 2, plays("QS", "AS", "AS", "3S")).winner == 3
    assert evaluate_trick(HEARTS2, 0, plays("AS", "AS", "3S", "3S")).winner == 0


def test_off_level_cards_are_equal_first_played_wins_s1() -> None:
    """§1: 副级牌 all equal among themselves; the one played first wins."""
    ctx = TrumpContext.of(Rank.TWO, Suit.HEARTS)
    assert evaluate_trick(ctx, 0, plays("3H", "2S", "2D", "2C")).winner == 1
    assert evaluate_trick(ctx, 0, plays("3H", "2S", "2H", "2C")).winner == 2


def test_discard_never_wins_000_s8_4() -> None:
    """000 第八条(四) 垫牌一家牌小于领出牌 (garbled 不大于 = 小于)."""
    assert evaluate_trick(HEARTS2, 0, plays("3S", "AD", "AC", "4S")).winner == 3


def test_pair_led_non_pair_follow_loses_000_s8_3() -> None:
    """000 第八条(三): 当领出对子或连对时，非跟出对子或连对牌小于领出牌."""
    assert evaluate_trick(HEARTS2, 0, plays("3S 3S", "AS KS", "4S 4S", "5S 6S")).winner == 2
    # a trump pair of non-identical cards (off levels) is not a pair
    assert evaluate_trick(HEARTS2, 0, plays("3S 3S", "2C 2D", "4S 5S", "6S 7S")).winner == 0


def test_tractor_led_pairs_that_are_not_a_tractor_lose_000_s8_3() -> None:
    outcome = evaluate_trick(
        HEARTS2, 0, plays("3S 3S 4S 4S", "AS AS QS QS", "6S 6S 7S 7S", "5S 5S 8S 9S")
    )
    assert outcome.winner == 2
    assert outcome.shape == "tractor"
    assert outcome.last_trick_shape == "tractor2"


def test_trump_lead_followed_by_higher_trump_wins() -> None:
    outcome = evaluate_trick(HEARTS2, 1, plays("AH AH", "2S 2S", "SJ BJ", "2H 2H"))
    assert outcome.winner == 0  # seat 1 leads; 2H2H (main level) by seat 0, the 4th player
    assert outcome.won_with_trump


def test_stood_throw_wins_for_the_leader_000_s5() -> None:
    outcome = evaluate_trick(HEARTS2, 3, plays("AS AS KS", "QS QS 3S", "4S 5S 6S", "7S 8S 9S"))
    assert outcome.winner == 3
    assert outcome.shape == "throw"
    assert outcome.last_trick_shape == "throw:pair"


def test_wrong_count_play_cannot_win() -> None:
    assert evaluate_trick(HEARTS2, 0, plays("3S", "AS AS", "4S", "5S")).winner == 3


# -- invariance ----------------------------------------------------------------------------

def _relabel(cards: list[Card], mapping: dict[Card, Card]) -> list[Card]:
    return [mapping.get(card, card) for card in cards]


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_evaluation_invariant_under_relabelling_equal_cards(data: st.DataObject) -> None:
    """Equal cards are interchangeable: swapping two off-suit level cards (副级牌, equal
    strength) or two side suits throughout the trick, and reordering each play, changes
    neither the winner nor the points nor the shape."""
    level = data.draw(st.sampled_from([Rank.SEVEN, Rank.TWO, Rank.ACE]))
    ctx = TrumpContext.of(level, Suit.HEARTS)
    lv = level.value
    pool = parse_cards(f"{lv}S {lv}C {lv}D AS KS QS 3S AD KD 3D BJ SJ {lv}H 4H 5H 8S 8D")
    size = data.draw(st.integers(1, 4))
    hands = [data.draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size))
             for _ in range(4)]
    if len({ctx.suit_key(card) for card in hands[0]}) > 1:
        return
    base = evaluate_trick(ctx, 1, hands)
    s, c, d = parse_cards(f"{lv}S")[0], parse_cards(f"{lv}C")[0], parse_cards(f"{lv}D")[0]
    swaps: list[dict[Card, Card]] = [{s: c, c: s}, {s: d, d: s}]
    side = {card: parse_cards(str(card)[:-1] + ("D" if card.suit is Suit.SPADES else "S"))[0]
            for card in pool if card.suit in (Suit.SPADES, Suit.DIAMONDS) and card.rank != level}
    swaps.append(side)
    rng = data.draw(st.randoms())
    for mapping in swaps:
        relabelled = [_relabel(list(h), mapping) for h in hands]
        for h in relabelled:
            rng.shuffle(h)
        other = evaluate_trick(ctx, 1, relabelled)
        assert (other.winner, other.points, other.last_trick_shape) == (
            base.winner, base.points, base.last_trick_shape)


def reference_winner(ctx: TrumpContext, leader: int, hands: list[tuple[Card, ...]],
                     no_ruff_seat: int | None = None) -> int:
    """The rule of §1 / I-1 written plainly with the full mapping search for every shape."""
    shape = classify_lead(ctx, hands[0])
    codes = shape.codes
    best, threshold = 0, best_tops(ctx, hands[0], codes)
    for position in range(1, 4):
        play = hands[position]
        seat = (leader + position) % 4
        suits = {ctx.suit_key(card) for card in play}
        if len(play) != shape.size or len(suits) != 1:
            continue  # wrong count or a mixed play: a discard
        suit = suits.pop()
        if suit != shape.suit_key and (suit != TRUMP or seat == no_ruff_seat):
            continue  # another side suit, or a ruff by the barred seat
        if beats_tops(ctx, play, codes, threshold):
            best, threshold = position, best_tops(ctx, play, codes)
    return (leader + best) % 4


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_fast_paths_agree_with_the_plain_rule(data: st.DataObject) -> None:
    """Singles, pairs, tractors and throws: `evaluate_trick` = the plain I-1 rule."""
    level = data.draw(st.sampled_from([Rank.TWO, Rank.FIVE, Rank.ACE]))
    trump = data.draw(st.sampled_from([Suit.HEARTS, None]))
    ctx = TrumpContext.of(level, trump, data.draw(st.sampled_from(["full", "stated"])))
    spades = [c for c in ALL_CARDS if c.suit is Suit.SPADES and not ctx.is_trump(c)]
    trumps = [c for c in ALL_CARDS if ctx.is_trump(c)]
    lead_pool = data.draw(st.sampled_from([spades, trumps]))
    size = data.draw(st.integers(1, 6))
    lead = tuple(data.draw(st.lists(st.sampled_from(lead_pool), min_size=size, max_size=size)))
    hands = [lead]
    for _ in range(3):
        pool = data.draw(st.sampled_from([spades, trumps, list(ALL_CARDS)]))
        n = data.draw(st.sampled_from([size, size, size, max(1, size - 1)]))
        hands.append(tuple(data.draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))))
    if any(max(Counter(h).values()) > 2 for h in hands):
        return
    leader = data.draw(st.integers(0, 3))
    barred = data.draw(st.sampled_from([None, 0, 1, 2, 3]))
    outcome = evaluate_trick(ctx, leader, hands, no_ruff_seat=barred)
    assert outcome.winner == reference_winner(ctx, leader, hands, barred)
