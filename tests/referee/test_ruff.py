"""Ruff (将吃) and over-ruff (超将吃), throws included (000 第九条, 002 3.6, I-1)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import Card, Rank, Suit, parse_cards
from referee.shengji.order import TrumpContext
from referee.shengji.tricks import (
    _flat_beats,
    _flat_best,
    _pair_single_powers,
    beats_tops,
    best_tops,
    evaluate_trick,
)

HEARTS2 = TrumpContext.of(Rank.TWO, Suit.HEARTS)


def plays(*texts: str) -> list[tuple[Card, ...]]:
    return [parse_cards(t) for t in texts]


def test_single_ruffed_by_any_trump_000_s9_1() -> None:
    """000 第九条一: a seat void in the led side suit may ruff; 将吃为大."""
    outcome = evaluate_trick(HEARTS2, 0, plays("AS", "3H", "KS", "QS"))
    assert outcome.winner == 1
    assert outcome.won_with_trump


def test_over_ruff_single_needs_a_higher_trump_000_s9_2() -> None:
    assert evaluate_trick(HEARTS2, 0, plays("AS", "3H", "4H", "QS")).winner == 2
    assert evaluate_trick(HEARTS2, 0, plays("AS", "4H", "3H", "QS")).winner == 1
    # identical trumps: the first ruff stands
    assert evaluate_trick(HEARTS2, 0, plays("AS", "4H", "4H", "QS")).winner == 1


def test_pair_ruff_needs_a_trump_pair_000_s9_1() -> None:
    """000 第九条一: 与领出组合相同 — a pair is ruffed only by a trump pair; else a discard."""
    assert evaluate_trick(HEARTS2, 0, plays("3S 3S", "BJ SJ", "4S 5S", "6S 7S")).winner == 0
    assert evaluate_trick(HEARTS2, 0, plays("3S 3S", "4H 4H", "4S 5S", "6S 7S")).winner == 1


def test_tractor_ruff_needs_a_trump_tractor_of_same_length_000_s9_1() -> None:
    lead = "3S 3S 4S 4S"
    assert evaluate_trick(HEARTS2, 0, plays(lead, "AH AH 5H 5H", "6S 7S 8S 9S",
                                            "JS QS KS AS")).winner == 0
    assert evaluate_trick(HEARTS2, 0, plays(lead, "6H 6H 5H 5H", "6S 7S 8S 9S",
                                            "JS QS KS AS")).winner == 1
    # a higher tractor over-ruffs: main level 2H2H + off level 2S2S (I-2 full chain)
    assert evaluate_trick(HEARTS2, 0, plays(lead, "6H 6H 5H 5H", "2H 2H 2S 2S",
                                            "JS QS KS AS")).winner == 2


def test_ruff_with_wrong_count_is_a_discard_000_s9_1() -> None:
    """000 第九条一: 与领出牌张相同 — as many trumps as the lead has cards."""
    assert evaluate_trick(HEARTS2, 0, plays("AS KS", "3H", "5S 6S", "7S 8S")).winner == 0


def test_partly_trump_play_is_a_discard() -> None:
    assert evaluate_trick(HEARTS2, 0, plays("AS KS", "BJ 3D", "5S 6S", "7S 8S")).winner == 0


def test_throw_of_singles_ruff_and_over_ruff_seed_002_example_1() -> None:
    """002 3.6.2 例1: 甲领出副牌A、K、10、9，乙将吃小王、8、7、4，丙超将吃大王、3、2、5."""
    outcome = evaluate_trick(HEARTS2, 0, plays("AS KS 10S 9S", "SJ 8H 7H 4H",
                                               "BJ 3H 2H 5H", "3S 4S 5S 6S"))
    assert outcome.winner == 2
    assert outcome.last_trick_shape == "throw:single"
    assert outcome.won_with_trump
    # without 丙 the ruff stands
    assert evaluate_trick(HEARTS2, 0, plays("AS KS 10S 9S", "SJ 8H 7H 4H", "7S 8S 3S 4S",
                                            "3S 4S 5S 6S")).winner == 1


def test_throw_with_pair_over_ruff_seed_002_example_2() -> None:
    """002 3.6.2 例2: 甲领出副牌1010、A、Q、J，乙将吃77、小王、5、6，丙超将吃99、大王、4、3."""
    outcome = evaluate_trick(HEARTS2, 0, plays("10S 10S AS QS JS", "7H 7H SJ 5H 6H",
                                               "9H 9H BJ 4H 3H", "3S 4S 5S 6S 8S"))
    assert outcome.winner == 2
    assert outcome.last_trick_shape == "throw:pair"
    assert outcome.points == 20 + 5 + 5  # 10S 10S, 5H, 5S


def test_over_ruff_needs_every_component_type_higher_i1() -> None:
    """I-1 / 002 注: 对子要有一个组合大，而且单牌也要有超过将吃单牌最大的大."""
    lead = "10S 10S AS QS JS"
    # higher pair but lower top single: not an over-ruff
    assert evaluate_trick(HEARTS2, 0, plays(lead, "7H 7H SJ 5H 6H", "9H 9H AH 4H 3H",
                                            "3S 4S 5S 6S 8S")).winner == 1
    # higher top single but lower pair: not an over-ruff
    assert evaluate_trick(HEARTS2, 0, plays(lead, "7H 7H SJ 5H 6H", "6H 6H BJ 4H 3H",
                                            "3S 4S 5S 6S 8S")).winner == 1


def test_singles_throw_top_trump_alone_decides_000_s9_2() -> None:
    """000 第九条二 以领头一张将牌大于将吃为超: a ruff 6S 9S is beaten by 3S SJ (trump ♠)."""
    ctx = TrumpContext.of(Rank.TEN, Suit.SPADES)
    assert evaluate_trick(ctx, 0, plays("AH KH", "6S 9S", "3S SJ", "3H 4H")).winner == 2


def test_extra_pair_stands_in_for_two_singles_seed_002_example_2_ruff() -> None:
    """002 3.6.1 例2: 甲领出副AA、QQ、J、10，乙将牌只有33、66、88 — may ruff."""
    ctx = TrumpContext.of(Rank.TWO, Suit.CLUBS)
    outcome = evaluate_trick(ctx, 0, plays("AS AS QS QS JS 10S", "3C 3C 6C 6C 8C 8C",
                                           "3S 4S 5S 6S 7S 8S", "3D 4D 5D 6D 7D 8D"))
    assert outcome.winner == 1


def test_throw_with_pair_ruff_needs_a_pair_seed_002_example_1_note() -> None:
    """002 3.6.1 例1: 甲方领出牌99、A、K、Q。乙方将吃时必须有个对子."""
    assert evaluate_trick(HEARTS2, 0, plays("9S 9S AS KS QS", "BJ SJ AH KH QH", "3S 4S 5S 6S 7S",
                                            "3D 4D 5D 6D 7D")).winner == 0
    assert evaluate_trick(HEARTS2, 0, plays("9S 9S AS KS QS", "3H 3H AH KH QH", "3S 4S 5S 6S 7S",
                                            "3D 4D 5D 6D 7D")).winner == 1


def test_ruff_mapped_onto_pair_and_singles_any_mapping_counts_i1() -> None:
    """RULEBOOKS §1: 6C6C 2C2C over pair + two singles (trump ♣, level 10).

    The earlier ruff counts at its strongest mapping (pair 66, singles 2 2): 77 + 3 4 beats it,
    55 + 7 3 does not (its pair is lower).
    """
    ctx = TrumpContext.of(Rank.TEN, Suit.CLUBS)
    lead, other = "AS AS KS QS", "3S 4S 5S 6S"
    assert evaluate_trick(ctx, 0, plays(lead, "6C 6C 2C 2C", other, "7C 7C 3C 4C")).winner == 3
    assert evaluate_trick(ctx, 0, plays(lead, "6C 6C 2C 2C", other, "5C 5C 7C 3C")).winner == 1
    # as the later ruff, 6C6C 2C2C cannot beat 5C5C 4C 3C: (66; 2 2) loses the singles,
    # (22; 6 6) loses the pair
    assert evaluate_trick(ctx, 0, plays(lead, "5C 5C 4C 3C", other, "6C 6C 2C 2C")).winner == 1
    # the later ruff may use any mapping: 9C9C 7C7C over 6C6C 8C 3C wins as pair 77 with
    # singles 9 9 (its natural mapping, pair 99 with singles 7 7, would lose the singles)
    assert evaluate_trick(ctx, 0, plays(lead, "6C 6C 8C 3C", other, "9C 9C 7C 7C")).winner == 3


def test_over_ruff_of_tractor_throw_compares_the_tractor_i1() -> None:
    """000 第九条二 例3: 在超将吃具有姊妹对甩牌时，以姊妹对大于将吃为超."""
    lead = "KS KS QS QS 9S"
    assert evaluate_trick(HEARTS2, 0, plays(lead, "3H 3H 4H 4H AH", "6H 6H 7H 7H 5H",
                                            "3D 4D 5D 6D 7D")).winner == 1  # single 5 < A
    assert evaluate_trick(HEARTS2, 0, plays(lead, "3H 3H 4H 4H 5H", "6H 6H 7H 7H AH",
                                            "3D 4D 5D 6D 7D")).winner == 2
    # a pair cannot stand in for a tractor: two non-adjacent pairs do not ruff
    assert evaluate_trick(HEARTS2, 0, plays(lead, "3H 3H 6H 6H AH", "3D 4D 5D 6D 7D",
                                            "8D 9D 10D JD QD")).winner == 0


def test_dealer_partner_may_not_ruff_after_failed_throw_000_s17() -> None:
    """000 第十七条一: 甩错牌 … 且庄家同伴不得将吃和超将吃 (no_ruff_seat)."""
    trick = plays("3S", "AH", "BJ", "4S")
    assert evaluate_trick(HEARTS2, 0, trick).winner == 2
    assert evaluate_trick(HEARTS2, 0, trick, no_ruff_seat=2).winner == 1
    assert evaluate_trick(HEARTS2, 0, trick, no_ruff_seat=1).winner == 2
    # the barred seat may still follow and win in the led suit
    assert evaluate_trick(HEARTS2, 0, plays("3S", "5S", "AS", "4S"), no_ruff_seat=2).winner == 2
    # and a trump lead is followed, not ruffed
    assert evaluate_trick(HEARTS2, 0, plays("3H", "5H", "AH", "4H"), no_ruff_seat=2).winner == 2


def test_no_trump_ruff_only_with_jokers_and_level_cards() -> None:
    ctx = TrumpContext.of(Rank.TWO, None)
    assert evaluate_trick(ctx, 0, plays("AS", "KH", "2D", "3S")).winner == 2
    outcome = evaluate_trick(ctx, 0, plays("AS AS", "2D 2D", "SJ SJ", "3S 4S"))
    assert outcome.winner == 2 and outcome.won_with_trump


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_pairs_and_singles_shortcut_agrees_with_full_mapping_search_i1(data: st.DataObject) -> None:
    """The fast path for throws without tractors gives the same strongest mapping and the same
    over-ruff verdict as trying every mapping."""
    ctx = TrumpContext.of(Rank.TEN, Suit.CLUBS)
    pool = parse_cards("3C 4C 6C 6C 8C 9C 9C QC AC 10D 10S 10C SJ BJ 5C 5C")
    n_pairs = data.draw(st.integers(0, 2))
    n_singles = data.draw(st.integers(0 if n_pairs else 2, 3))
    codes = (1,) * n_pairs + (0,) * n_singles
    size = 2 * n_pairs + n_singles
    earlier = data.draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size))
    later = data.draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size))
    for play in (earlier, later):
        if max(Counter(play).values()) > 2:
            return
    threshold = best_tops(ctx, earlier, codes)
    pp, sp = _pair_single_powers(ctx.powers, earlier)
    if not threshold:
        assert len(pp) < n_pairs
        return
    assert _flat_best(pp, sp, n_pairs, n_singles) == threshold
    lp, ls = _pair_single_powers(ctx.powers, later)
    assert _flat_beats(lp, ls, n_pairs, n_singles, threshold) == beats_tops(
        ctx, later, codes, threshold
    )


def test_barred_seat_cannot_over_ruff_a_throw_000_s17() -> None:
    """000 第十七条一: after a failed throw the dealer's partner may not over-ruff either."""
    trick = plays("AS KS 10S 9S", "SJ 8H 7H 4H", "BJ 3H 2H 5H", "3S 4S 5S 6S")
    assert evaluate_trick(HEARTS2, 0, trick).winner == 2
    assert evaluate_trick(HEARTS2, 0, trick, no_ruff_seat=2).winner == 1
    assert evaluate_trick(HEARTS2, 0, trick, no_ruff_seat=1).winner == 2
