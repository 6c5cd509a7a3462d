"""Match services: the log is append-only, the state is always the engine's replay of it."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from referee.record import replay_document
from referee.rulebooks import find_rulebook
from referee.shengji.simulate import simulate_match
from web import services
from web.extensions import db
from web.models import LogEntry


def _record(rulebook: str = "shuangsheng-17", seed: int = 3) -> dict[str, Any]:
    return simulate_match(find_rulebook(rulebook), seed)


def _post(match_id: int, event: dict[str, Any], seq: int, key: str | None = None) -> dict[str, Any]:
    return services.append_event(
        match_id, event, expected_seq=seq, idempotency_key=key, actor="ref", device="tablet-1"
    )


def _log(match_id: int) -> list[LogEntry]:
    return services.log_entries(match_id)


def test_append_event_replays_and_logs_who_and_where(factory):
    match = factory.match(rulebook="shuangsheng-17")
    first = _record()["deals"][0]["events"][0]
    state = _post(match.id, first, 0, "k1")
    assert state["seq"] == 1
    assert state["deal"] == 1
    assert state["record"]["deals"][0]["events"] == [first]
    assert state["phase"] == "declaring"
    [entry] = _log(match.id)
    assert (entry.seq, entry.kind, entry.actor, entry.device) == (1, "event", "ref", "tablet-1")
    assert entry.payload == first and entry.created_at is not None


def test_state_is_the_engines_replay_of_the_record(factory):
    """Posting a whole deal event by event ends in the same result as replaying the record."""
    match = factory.match(rulebook="shuangsheng-17")
    doc = _record()
    events = doc["deals"][0]["events"]
    state: dict[str, Any] = {"seq": 0}
    for event in events:
        state = _post(match.id, event, state["seq"])
    assert state["seq"] == len(events)
    expected = replay_document({**state["record"]})
    assert state["result"] == expected
    assert state["phase"] == "finished"
    assert state["deal_result"]["defender_total"] == expected["deals"][0]["defender_total"]
    # A fresh read (no cache) gives the same state.
    services.clear_cache()
    assert services.match_state(match.id)["result"] == expected


@pytest.mark.parametrize(
    "event",
    [
        {"type": "declare", "seat": 0, "cards": ["XX"]},  # unreadable card
        {"type": "declare", "seat": 7, "cards": ["2S"]},  # unknown seat
        {"type": "no_such_event"},
        {"type": "trick", "leader": 0, "plays": [["3S"], ["4S"], ["5S"], ["6S"]]},  # before bury
    ],
)
def test_rejected_event_writes_nothing_and_explains(factory, event):
    match = factory.match(rulebook="shuangsheng-17")
    with pytest.raises(services.RejectedEvent) as caught:
        _post(match.id, event, 0, "bad")
    assert caught.value.rule_id.startswith("record.")
    assert caught.value.message  # translated, names the problem
    assert _log(match.id) == []
    assert services.match_state(match.id)["seq"] == 0


def test_stale_expected_seq_is_a_conflict_with_the_fresh_state(factory):
    """Two tablets at one table: the second post with the same expected seq conflicts."""
    match = factory.match(rulebook="shuangsheng-17")
    events = _record()["deals"][0]["events"]
    _post(match.id, events[0], 0, "tablet-a")
    with pytest.raises(services.ConflictError) as caught:
        _post(match.id, events[1], 0, "tablet-b")
    assert caught.value.state["seq"] == 1
    assert caught.value.state["record"]["deals"][0]["events"] == [events[0]]
    assert len(_log(match.id)) == 1


def test_double_tap_same_idempotency_key_is_stored_once(factory):
    match = factory.match(rulebook="shuangsheng-17")
    first = _record()["deals"][0]["events"][0]
    a = _post(match.id, first, 0, "tap-1")
    b = _post(match.id, first, 0, "tap-1")  # the retry still carries the old expected seq
    assert b["duplicate"] is True and b["entry_seq"] == 1
    assert a["seq"] == b["seq"] == 1
    assert len(_log(match.id)) == 1


def test_undo_is_a_new_entry_and_removes_the_target(factory):
    match = factory.match(rulebook="shuangsheng-17")
    events = _record()["deals"][0]["events"]
    _post(match.id, events[0], 0)
    _post(match.id, events[1], 1)
    state = services.undo_last(match.id, expected_seq=2, actor="ref", device="tablet-1")
    assert state["seq"] == 3
    assert state["record"]["deals"][0]["events"] == [events[0]]
    kinds = [(e.seq, e.kind, e.target_seq) for e in _log(match.id)]
    assert kinds == [(1, "event", None), (2, "event", None), (3, "undo", 2)]
    # Undo again removes the first event; then there is nothing left to undo.
    services.undo_last(match.id, expected_seq=3, actor="ref", device="tablet-1")
    with pytest.raises(services.RejectedEvent) as caught:
        services.undo_last(match.id, expected_seq=4, actor="ref", device="tablet-1")
    assert caught.value.rule_id == "log.nothing_to_undo"


def test_director_correction_replaces_event_with_reason_and_audit_trail(factory):
    match = factory.match(rulebook="shuangsheng-17")
    doc = _record()
    events = doc["deals"][0]["events"]
    state: dict[str, Any] = {"seq": 0}
    for event in events[:5]:
        state = _post(match.id, event, state["seq"])
    trick_seq = next(
        seq for seq, e in zip(state["event_seqs"][0], events[:5], strict=True) if e["type"] == "trick"
    )
    with pytest.raises(services.RejectedEvent):
        services.correct_event(match.id, trick_seq, events[3], reason="  ", actor="director:td")
    original = state["record"]["deals"][0]["events"][trick_seq - 1]
    # Swap two followers' cards: still a readable trick, the engine re-evaluates it.
    plays = [list(p) for p in original["plays"]]
    plays[1], plays[3] = plays[3], plays[1]
    corrected = {**original, "plays": plays}
    state = services.correct_event(
        match.id, trick_seq, corrected, reason="录入错位 seats 1/3 swapped", actor="director:td"
    )
    assert state["record"]["deals"][0]["events"][trick_seq - 1] == corrected
    [correction] = services.corrections(match.id)
    assert correction["target_seq"] == trick_seq
    assert correction["before"] == original and correction["after"] == corrected
    assert correction["reason"] == "录入错位 seats 1/3 swapped"
    assert correction["actor"] == "director:td"
    # The original entry is still in the log, untouched.
    entry = db.session.execute(
        db.select(LogEntry).filter_by(match_id=match.id, seq=trick_seq)
    ).scalar_one()
    assert entry.payload == original


def test_correction_the_engine_cannot_replay_is_refused(factory):
    match = factory.match(rulebook="shuangsheng-17")
    events = _record()["deals"][0]["events"]
    _post(match.id, events[0], 0)
    with pytest.raises(services.RejectedEvent):
        services.correct_event(
            match.id, 1, {"type": "declare", "seat": 0, "cards": ["ZZ"]}, reason="typo", actor="td"
        )
    assert services.corrections(match.id) == []
    assert services.match_state(match.id)["seq"] == 1


def test_void_correction_removes_the_event(factory):
    match = factory.match(rulebook="shuangsheng-17")
    events = _record()["deals"][0]["events"]
    _post(match.id, events[0], 0)
    _post(match.id, events[1], 1)
    state = services.correct_event(match.id, 2, None, reason="logged twice", actor="td")
    assert state["record"]["deals"][0]["events"] == [events[0]]


def test_event_after_a_finished_deal_opens_the_next_deal(factory):
    match = factory.match(rulebook="shuangsheng-17")
    doc = _record()
    services.import_record(
        match.id, {**doc, "deals": doc["deals"][:1]}, actor="td"
    )
    seq = services.match_state(match.id)["seq"]
    second = doc["deals"][1]
    state = _post(match.id, second["events"][0], seq)
    assert state["deal"] == 2
    assert [e.kind for e in _log(match.id)][-2:] == ["deal_start", "event"]


def test_unplayed_counts_drop_with_tricks_and_bury(factory):
    match = factory.match(rulebook="shuangsheng-17")
    events = _record()["deals"][0]["events"]
    state: dict[str, Any] = {"seq": 0}
    upto = next(i for i, e in enumerate(events) if e["type"] == "trick") + 1
    for event in events[:upto]:
        state = _post(match.id, event, state["seq"])
    seen: dict[str, int] = {}
    for event in events[:upto]:
        cards = event.get("cards", []) if event["type"] == "bury" else []
        if event["type"] == "trick":
            cards = [c for play in event["plays"] for c in play]
        for card in cards:
            seen[card] = seen.get(card, 0) + 1
    assert seen and sum(seen.values()) >= 12
    for card, n in seen.items():
        assert state["unplayed"][card] == 2 - n
    assert sum(state["unplayed"].values()) == 108 - sum(seen.values())
    assert state["phase"] == "playing" and state["to_play"] in range(4)


def test_import_export_round_trip(factory):
    match = factory.match(rulebook="shuangsheng-17")
    doc = _record(seed=5)
    doc["players"] = match.seats
    state = services.import_record(match.id, doc, actor="td")
    exported = services.export_record(match.id)
    assert exported["deals"] == doc["deals"]
    assert replay_document(exported) == replay_document(doc) == state["result"]
    # Import only into an empty match.
    with pytest.raises(services.RejectedEvent) as caught:
        services.import_record(match.id, doc, actor="td")
    assert caught.value.rule_id == "import.not_empty"


def test_import_rejects_other_rulebook_and_invalid_records(factory):
    match = factory.match(rulebook="shuangsheng-17")
    doc = _record()
    with pytest.raises(services.RejectedEvent):
        services.import_record(match.id, {**doc, "rulebook": "union-2deck"}, actor="td")
    broken = {**doc, "deals": [{"events": [{"type": "declare", "seat": 9, "cards": ["2S"]}]}]}
    with pytest.raises(services.RejectedEvent):
        services.import_record(match.id, broken, actor="td")
    assert _log(match.id) == []


def test_results_csv_round_trip(factory):
    match = factory.match(rulebook="shuangsheng-17")
    services.import_record(match.id, _record(), actor="td")
    rows = services.parse_results_csv(services.results_csv(match.event_id))
    [row] = rows
    result = services.match_state(match.id)
    assert row["match"] == str(match.id)
    assert [row["levels_a"], row["levels_b"]] == result["levels"]
    assert row["finished"] == "yes"


def test_concurrent_posts_one_wins_one_conflicts(app, factory):
    """Two servers (threads with their own sessions) post at the same expected seq."""
    match = factory.match(rulebook="shuangsheng-17")
    events = _record()["deals"][0]["events"]
    match_id = match.id
    db.session.remove()
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def post(key: str) -> None:
        with app.app_context():
            barrier.wait()
            try:
                services.append_event(
                    match_id, events[0], expected_seq=0, idempotency_key=key, actor=key, device=key
                )
                outcomes.append("ok")
            except services.ConflictError:
                outcomes.append("conflict")
            finally:
                db.session.remove()

    threads = [threading.Thread(target=post, args=(f"t{i}",)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcomes) == ["conflict", "ok"]
    assert [e.seq for e in _log(match_id)] == [1]


def test_guandan_match_state(factory):
    from referee.guandan import simulate_guandan

    match = factory.match(game="guandan", rulebook="guandan-lyg")
    doc = simulate_guandan(find_rulebook("guandan-lyg"), 2)
    first_deal = doc["deals"][0]
    state: dict[str, Any] = {"seq": 0}
    for event in first_deal["events"][:6]:
        state = _post(match.id, event, state["seq"])
    assert state["game"] == "guandan"
    assert state["phase"] == "playing"
    assert state["to_play"] in range(4)
    played = [c for e in first_deal["events"][:6] if e["type"] == "play" for c in e["cards"]]
    assert sum(state["unplayed"].values()) == 108 - len(played)


def test_deal_replay_memo_gives_the_engines_own_answer(app):
    """The engine's per-deal memo (17-deal posts in ~3 ms) never changes a result."""
    from referee.shengji.match import clear_deal_memo

    doc = simulate_match(find_rulebook("union-2deck"), 2)
    services.clear_cache()
    first = services.replay(doc)
    cached = services.replay(doc)  # every deal now from the memo
    shorter = services.replay({**doc, "deals": doc["deals"][:-1]})
    first["deals"][0]["declarations"].clear()  # a caller's change must not reach the memo
    clear_deal_memo()
    fresh = replay_document(doc)
    assert fresh["deals"][0]["declarations"]
    assert fresh["deals"][1:] == cached["deals"][1:] and fresh["match"] == cached["match"]
    assert replay_document(doc) == cached
    clear_deal_memo()
    assert replay_document({**doc, "deals": doc["deals"][:-1]}) == shorter


def test_violations_name_the_log_entry_that_broke_the_rule(factory):
    """RECORD_FORMAT: a dealer contradicting the rulebook is a violation (wrong_dealer)."""
    match = factory.match(rulebook="union-2deck")
    doc = simulate_match(find_rulebook("union-2deck"), 3)
    true_dealer = replay_document(doc)["deals"][1]["dealer"]
    deals = [dict(deal) for deal in doc["deals"][:2]]
    deals[1]["dealer"] = (true_dealer + 1) % 4
    state = services.import_record(match.id, {**doc, "deals": deals}, actor="td")
    [violation] = [v for v in state["violations"] if v["kind"] == "wrong_dealer"]
    assert violation["deal"] == 2
    assert violation["seq"] == state["event_seqs"][1][violation["event"]]
    entry = next(e for e in _log(match.id) if e.seq == violation["seq"])
    assert entry.payload == deals[1]["events"][violation["event"]]
    assert state["result"]["deals"][1]["violations"]  # the engine's own report, unchanged


def test_a_server_catches_up_with_posts_another_server_took(make_app, factory):
    """Server B learns of A's posts by reading only the newer entries; same state as a full fold."""
    one, two = make_app(), make_app()
    events = _record()["deals"][0]["events"]
    with one.app_context():
        match = factory.match(rulebook="shuangsheng-17")
        match_id = match.id
        _post(match_id, events[0], 0)
    with two.app_context():
        assert services.match_state(match_id)["seq"] == 1  # B folds the log once
        b_knows = dict(services._LATEST)
    with one.app_context():
        _post(match_id, events[1], 1)
        _post(match_id, events[2], 2)
    with two.app_context():
        # B's process never saw seqs 2 and 3: one process's caches, as B would hold them.
        services._CACHE.clear()
        services._LATEST.clear()
        services._LATEST.update(b_knows)
        calls = []
        original = services.fold_log
        services.fold_log = lambda *a: calls.append(a) or original(*a)  # type: ignore[assignment]
        try:
            caught_up = services.match_state(match_id)
        finally:
            services.fold_log = original  # type: ignore[assignment]
        assert calls == []  # no full fold: only the two newer entries were read
        full = services.replay(services.fold_log(db.session.get(services.Match, match_id),
                                                 services.log_entries(match_id)).doc)
    assert caught_up["seq"] == 3
    assert caught_up["record"]["deals"][0]["events"] == events[:3]
    assert caught_up["result"] == full


def test_director_corrects_a_deals_dealer(factory):
    """A deal_start entry can be corrected too (its fields), and the engine re-judges it."""
    match = factory.match(rulebook="union-2deck")
    doc = simulate_match(find_rulebook("union-2deck"), 3)
    state = services.import_record(match.id, {**doc, "deals": doc["deals"][:2]}, actor="td")
    true_dealer = state["result"]["deals"][1]["dealer"]
    deal_two = next(e for e in _log(match.id) if e.kind == "deal_start" and e.seq > 2)
    wrong = (true_dealer + 1) % 4
    state = services.correct_event(
        match.id, deal_two.seq, {"dealer": wrong}, reason="记录庄家", actor="td"
    )
    assert state["record"]["deals"][1]["dealer"] == wrong
    assert [v["kind"] for v in state["violations"]] == ["wrong_dealer"]


def test_start_deal_carries_the_redeal_marker(factory):
    """Seed 001 三.3: nobody declared → the deal is redealt (`"redeal": true` on the deal)."""
    match = factory.match(rulebook="shuangsheng-17")
    state = services.start_deal(match.id, expected_seq=0, actor="ref", device="t", redeal=True)
    assert state["record"]["deals"] == [{"redeal": True, "events": []}]
