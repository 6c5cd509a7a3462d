"""`python -m referee simulate` prints a complete, legal match (every Shengji preset).

Seed 003 六 / RULEBOOKS.md §2 "playing A": in shuangkou-simple a dealer at A passes only
with a hard A (硬A: the dealer side's A wins the last trick), so the simulator steers the
endgame among legal plays; and the bottom multiplier tables (000 十, 001 七, 003 五) need
last tricks with pairs, tractors and throws, not only singles.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

import pytest

from referee.record import replay_document
from referee.rulebooks import PRESETS, find_rulebook
from referee.shengji.simulate import MAX_DEALS, simulate_match

SHENGJI = [name for name, book in PRESETS.items() if book.game == "shengji"]
SEEDS = range(16)


@cache
def _match(name: str, seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    doc = simulate_match(find_rulebook(name), seed)
    return doc, replay_document(doc)


@pytest.mark.parametrize("name", SHENGJI)
def test_every_simulated_match_finishes_legally(name: str) -> None:
    """Every seed gives a finished match well inside MAX_DEALS, with no violation."""
    for seed in SEEDS:
        doc, result = _match(name, seed)
        assert result["match"]["finished"], (name, seed, len(doc["deals"]))
        assert len(doc["deals"]) < MAX_DEALS
        assert all(deal["violations"] == [] for deal in result["deals"]), (name, seed)


def test_shuangkou_matches_end_with_a_hard_a_003_s6() -> None:
    """Direct mode (直胜法): the winner passed A with a hard A in its last deal."""
    for seed in SEEDS:
        _, result = _match("shuangkou-simple", seed)
        last = result["deals"][-1]
        assert result["match"]["winner"] is not None
        assert last["promotion"]["hard_a"], seed


def _last_shapes(name: str) -> Counter[str]:
    shapes: Counter[str] = Counter()
    for seed in SEEDS:
        for deal in _match(name, seed)[1]["deals"]:
            if deal.get("tricks"):
                shapes[deal["tricks"][-1]["shape"]] += 1
    return shapes


@pytest.mark.parametrize("name", SHENGJI)
def test_last_tricks_are_not_only_singles(name: str) -> None:
    """Pairs, tractors and throws win last tricks regularly, so 抠底 tables are exercised."""
    shapes = _last_shapes(name)
    total = sum(shapes.values())
    assert shapes["pair"] >= total // 8, shapes
    assert shapes["throw"] >= 1 and shapes["tractor"] >= 1, shapes


def test_bottom_multipliers_above_two_appear_000_s10_001_s7() -> None:
    """union-2deck: pair ×4, 2-pair tractor ×6; shuangsheng-17: pair ×4, tractor ×8."""
    for name, wanted in (("union-2deck", {4, 6}), ("shuangsheng-17", {4})):
        seen = {
            deal["bottom"]["multiplier"]
            for seed in SEEDS
            for deal in _match(name, seed)[1]["deals"]
            if deal.get("bottom")
        }
        assert wanted <= seen, (name, seen)


def test_simulation_is_deterministic_per_seed() -> None:
    for name in SHENGJI:
        assert simulate_match(find_rulebook(name), 5) == _match(name, 5)[0]
