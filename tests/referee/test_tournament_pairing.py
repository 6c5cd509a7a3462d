"""Pairing formats: round robin, eighty-rr (draw, then by standing), knockout, groups."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.tournament import (
    Pairing,
    PairingError,
    bracket_order,
    draw_first_round,
    group_knockout,
    next_knockout_round,
    pair_by_standing,
    round_robin,
    single_elimination,
    snake_groups,
)


def _meetings(rounds: list[list[Pairing]]) -> Counter[frozenset[int]]:
    return Counter(frozenset(p.pairs()) for r in rounds for p in r if not p.is_bye)


def _check_round(pairing: list[Pairing], pairs: list[int]) -> None:
    """Everyone appears exactly once; tables 1..n, the bye on table 0."""
    seen = [x for p in pairing for x in p.pairs()]
    assert sorted(seen) == sorted(pairs)
    tables = [p.table for p in pairing if not p.is_bye]
    assert tables == list(range(1, len(tables) + 1))
    assert all(p.table == 0 for p in pairing if p.is_bye)
    assert sum(p.is_bye for p in pairing) == len(pairs) % 2


@given(st.integers(min_value=2, max_value=24))
def test_round_robin_every_pair_meets_once_with_balanced_seating(n: int) -> None:
    """循环赛: every pair meets every other exactly once; N/S games differ from E/W by ≤ 1."""
    pairs = list(range(100, 100 + n))
    rounds = round_robin(pairs)
    assert len(rounds) == (n if n % 2 else n - 1)
    meetings = _meetings(rounds)
    assert len(meetings) == n * (n - 1) // 2
    assert set(meetings.values()) == {1}
    home: Counter[int] = Counter()
    games: Counter[int] = Counter()
    for r in rounds:
        _check_round(r, pairs)
        for p in r:
            if p.away is not None:
                home[p.home] += 1
                games[p.home] += 1
                games[p.away] += 1
    assert all(abs(2 * home[p] - games[p]) <= 1 for p in pairs)


def test_round_robin_odd_count_gives_each_pair_exactly_one_bye() -> None:
    """An odd field: one bye (轮空) per round, each pair exactly once."""
    rounds = round_robin([1, 2, 3, 4, 5, 6, 7])
    byes = [p.home for r in rounds for p in r if p.is_bye]
    assert sorted(byes) == [1, 2, 3, 4, 5, 6, 7]


def test_round_robin_rejects_duplicate_pairs() -> None:
    with pytest.raises(PairingError):
        round_robin([1, 2, 2])


def test_eighty_rr_round1_draw_is_reproducible_from_the_recorded_seed_002_s2() -> None:
    """Seed 002 §二 第一场比赛通过抽签决定: the recorded seed reproduces the draw exactly."""
    pairs = list(range(1, 17))
    first = draw_first_round(pairs, 20261129)
    assert first == draw_first_round(list(reversed(pairs)), 20261129)
    _check_round(first, pairs)
    others = {tuple(draw_first_round(pairs, seed)) for seed in range(20)}
    assert len(others) > 1  # the seed really drives the draw


def test_eighty_rr_later_round_pairs_highest_with_next_highest_not_met_002_s2() -> None:
    """Seed 002 §二 第二场开始按照各组的积分从高到低排序: 1 met 2, so 1–3; 2–4 would leave
    5–6 (met), so backtracking gives 2–5 and 4–6."""
    history = [[Pairing(1, 1, 2), Pairing(2, 3, 4), Pairing(3, 5, 6)]]
    pairing = pair_by_standing([1, 2, 3, 4, 5, 6], history)
    assert [frozenset(p.pairs()) for p in pairing] == [
        frozenset({1, 3}),
        frozenset({2, 5}),
        frozenset({4, 6}),
    ]


def test_eighty_rr_backtracks_when_greedy_pairing_dead_ends() -> None:
    """Top-down greedy would leave 3–4 (already met); backtracking finds a legal round."""
    history = [
        [Pairing(1, 3, 4), Pairing(2, 1, 2)],
        [Pairing(1, 1, 4), Pairing(2, 2, 3)],
    ]
    pairing = pair_by_standing([1, 2, 3, 4], history)
    assert {frozenset(p.pairs()) for p in pairing} == {frozenset({1, 3}), frozenset({2, 4})}


def test_eighty_rr_raises_when_every_opponent_was_met() -> None:
    rounds = round_robin([1, 2, 3, 4])
    with pytest.raises(PairingError):
        pair_by_standing([1, 2, 3, 4], rounds)


def test_eighty_rr_bye_goes_to_lowest_pair_without_a_bye() -> None:
    """Odd field: the bye goes to the lowest-ranked pair among those with the fewest byes."""
    history = [[Pairing(1, 1, 2), Pairing(2, 3, 4), Pairing(0, 5, None)]]
    pairing = pair_by_standing([1, 2, 3, 4, 5], history)
    assert [p.home for p in pairing if p.is_bye] == [4]


def test_forbidden_pairing_same_club_avoided_where_possible() -> None:
    """Two pairs of one unit (单位) do not meet when another pairing exists."""
    pairing = pair_by_standing([1, 2, 3, 4], (), forbidden=[frozenset({1, 2})])
    assert frozenset({1, 2}) not in {frozenset(p.pairs()) for p in pairing}
    # impossible to respect (only two pairs): played anyway
    only = pair_by_standing([1, 2], (), forbidden=[frozenset({1, 2})])
    assert frozenset(only[0].pairs()) == frozenset({1, 2})


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=30),
    rounds=st.integers(min_value=1, max_value=6),
    seed=st.integers(min_value=0, max_value=2**31 - 1),
)
def test_eighty_rr_never_repeats_and_byes_are_fair(n: int, rounds: int, seed: int) -> None:
    """Property: no repeated opponent; nobody has a second bye before everyone had one."""
    pairs = list(range(1, n + 1))
    rng = random.Random(seed)
    history: list[list[Pairing]] = [draw_first_round(pairs, seed)]
    for _ in range(min(rounds, n - 1) - 1):
        ranking = pairs[:]
        rng.shuffle(ranking)
        try:
            history.append(pair_by_standing(ranking, history))
        except PairingError:
            break  # a Swiss can run out of legal rounds before n − 1; never repeats
    for r in history:
        _check_round(r, pairs)
    assert set(_meetings(history).values()) == {1}
    byes = Counter(p.home for r in history for p in r if p.is_bye)
    if byes:
        assert max(byes.values()) - min(byes.get(p, 0) for p in pairs) <= 1


@given(st.integers(min_value=2, max_value=40), st.integers(min_value=0, max_value=10**6))
def test_eighty_rr_seating_alternates(n: int, seed: int) -> None:
    """Seating: when two pairs sat on different sides last round, each changes side now."""
    pairs = list(range(n))
    first = draw_first_round(pairs, seed)
    side = {p.home: 0 for p in first if p.away is not None}
    side.update({p.away: 1 for p in first if p.away is not None})
    ranking = pairs[:]
    random.Random(seed).shuffle(ranking)
    try:
        second = pair_by_standing(ranking, [first])
    except PairingError:
        return
    for p in second:
        if p.away is None or p.home not in side or p.away not in side:
            continue
        if side[p.home] != side[p.away]:
            assert (side[p.home], side[p.away]) == (1, 0)


def test_bracket_order_keeps_top_seeds_apart() -> None:
    """Standard bracket: 1 v 16, 8 v 9 …; seeds 1 and 2 are in different halves."""
    order = bracket_order(16)
    assert order[:4] == [1, 16, 8, 9]
    assert 2 in order[8:]
    assert sorted(order) == list(range(1, 17))
    for i in range(0, 16, 2):
        assert order[i] + order[i + 1] == 17


def test_single_elimination_byes_go_to_top_seeds() -> None:
    """Six pairs in a bracket of 8: seeds 1 and 2 get the byes."""
    seeded = [11, 12, 13, 14, 15, 16]
    first = single_elimination(seeded)
    assert sorted(p.home for p in first if p.is_bye) == [11, 12]
    assert {frozenset(p.pairs()) for p in first if not p.is_bye} == {
        frozenset({14, 15}),
        frozenset({13, 16}),
    }


@given(st.integers(min_value=2, max_value=64))
def test_knockout_runs_to_one_champion(n: int) -> None:
    """Property: playing the bracket out (better seed always wins) crowns seed 1 in ⌈log2 n⌉ rounds."""
    seeded = list(range(1, n + 1))
    current = single_elimination(seeded)
    rounds = 1
    while True:
        winners = [p.home if p.away is None else min(p.home, p.away) for p in current]
        if len(winners) == 1:
            break
        current = next_knockout_round(winners)
        rounds += 1
    assert winners == [1]
    assert 2 ** (rounds - 1) < n <= 2**rounds


def test_knockout_final_is_seed_1_against_seed_2() -> None:
    first = single_elimination(list(range(1, 9)))
    semis = next_knockout_round([min(p.pairs()) for p in first])
    final = next_knockout_round([min(p.pairs()) for p in semis])
    assert set(final[0].pairs()) == {1, 2}


def test_snake_groups_balance_strength() -> None:
    groups = snake_groups(list(range(1, 9)), 2)
    assert groups == [[1, 4, 5, 8], [2, 3, 6, 7]]
    assert sum(groups[0]) == sum(groups[1])


@given(st.integers(min_value=2, max_value=8))
def test_group_knockout_keeps_group_mates_apart_in_round_one(groups: int) -> None:
    """Multi-stage: winners and runners-up cross over; no first-round rematch of a group."""
    rankings = [[g * 10 + 1, g * 10 + 2, g * 10 + 3] for g in range(groups)]
    first = group_knockout(rankings, advance=2)
    qualified = sorted(x for p in first for x in p.pairs())
    assert qualified == sorted(x for r in rankings for x in r[:2])
    for p in first:
        if p.away is not None:
            assert p.home // 10 != p.away // 10
    if groups in (2, 4, 8):  # full bracket: every winner meets a runner-up
        winners = {r[0] for r in rankings}
        assert all(len(winners & set(p.pairs())) == 1 for p in first)


def test_group_knockout_two_groups_crosses_over() -> None:
    """A1–B2 and B1–A2."""
    first = group_knockout([[1, 2, 5], [3, 4, 6]])
    assert {frozenset(p.pairs()) for p in first} == {frozenset({1, 4}), frozenset({3, 2})}
