"""Properties over simulated Guandan matches (hypothesis): 108 cards conserved, no
violations in simulated deals, replay and simulation deterministic, prefixes replay."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.cards import ALL_CARDS, Rank
from referee.errors import InvalidRecordError
from referee.guandan import replay_guandan, simulate_guandan
from referee.guandan.combos import beats, readings
from referee.rulebooks import find_rulebook

RULEBOOK = find_rulebook("guandan-lyg")
SLOW = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SLOW
@given(st.integers(min_value=0, max_value=10**6))
def test_simulated_match_is_complete_legal_and_conserves_108_cards(seed):
    doc = simulate_guandan(RULEBOOK, seed)
    result = replay_guandan(RULEBOOK, doc)
    assert result["match"]["finished"] is True
    for deal in result["deals"]:
        assert deal["violations"] == []
        assert deal["phase"] == "finished"
        played = [card for play in deal["plays"] for card in play["cards"]]
        assert len(played) + sum(deal["cards_left"]) == 108
        assert max(Counter(played).values()) <= 2
        assert deal["plays"] and all(play["combo"] is not None for play in deal["plays"])


@SLOW
@given(st.integers(min_value=0, max_value=10**6))
def test_replay_and_simulation_are_deterministic(seed):
    doc = simulate_guandan(RULEBOOK, seed)
    assert simulate_guandan(RULEBOOK, seed) == doc
    assert replay_guandan(RULEBOOK, doc) == replay_guandan(RULEBOOK, doc)


@SLOW
@given(st.integers(min_value=0, max_value=10**6), st.floats(min_value=0, max_value=1))
def test_every_prefix_of_a_simulated_record_replays(seed, cut):
    doc = simulate_guandan(RULEBOOK, seed)
    last = doc["deals"][-1]
    keep = int(len(last["events"]) * cut)
    partial = dict(doc, deals=[*doc["deals"][:-1], dict(last, events=last["events"][:keep])])
    partial.pop("time_up", None)
    result = replay_guandan(RULEBOOK, partial)
    deal = result["deals"][-1]
    assert deal["violations"] == []
    assert sum(deal["cards_left"]) + sum(len(p["cards"]) for p in deal["plays"]) == 108
    if keep < len(last["events"]):
        assert deal["phase"] in ("tribute", "playing")
        assert result["match"]["finished"] is False


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(ALL_CARDS), min_size=1, max_size=10),
    st.lists(st.sampled_from(ALL_CARDS), min_size=1, max_size=10),
    st.sampled_from([r for r in Rank if not r.is_joker]),
)
def test_beats_is_a_strict_order_on_readings(first, second, level):
    for a in readings(first, level):
        assert not beats(a, a)
        for b in readings(second, level):
            assert not (beats(a, b) and beats(b, a))


MUTATIONS = st.sampled_from(["delete", "duplicate", "seat", "cards", "type", "order", "junk"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=3), st.lists(st.tuples(MUTATIONS, st.integers(0, 10**6)), min_size=1, max_size=4))
def test_mutated_records_replay_or_raise_invalid_record(seed, mutations):
    """Any damaged record either replays (rules broken become violations) or raises
    InvalidRecordError naming the deal: never another exception."""
    doc = SIMULATED[seed]
    deals = [dict(d, events=list(d["events"])) for d in doc["deals"]]
    for kind, pick in mutations:
        deal = deals[pick % len(deals)]
        events = deal["events"]
        if not events:
            continue
        at = pick % len(events)
        event = dict(events[at])
        if kind == "delete":
            del events[at]
            continue
        if kind == "duplicate":
            events.insert(at, event)
            continue
        if kind == "seat":
            event["seat"] = pick % 6 - 1
        elif kind == "cards":
            event["cards"] = [str(ALL_CARDS[(pick + k) % 54]) for k in range(pick % 5)] + (["ZZ"] if pick % 7 == 0 else [])
        elif kind == "type":
            event["type"] = ["play", "pass", "tribute", "return", "result", "report", "penalty", "anti_tribute"][pick % 8]
        elif kind == "order":
            event = {"type": "result", "order": [(pick + k) % 4 for k in range(pick % 5)]}
        else:
            event = {"type": "penalty", "seat": pick % 4, "kind": ["timeout", "no_report", "wrong_play"][pick % 3]}
        events[at] = event
    try:
        result = replay_guandan(RULEBOOK, dict(doc, deals=deals))
    except InvalidRecordError as error:
        assert error.deal is None or 1 <= error.deal <= len(deals)
    else:
        assert result["format"] == "table-result/1"


SIMULATED = [simulate_guandan(RULEBOOK, seed) for seed in range(4)]
