"""Match clocks: the rulebook's limit, started by the referee, authoritative on the server;
at time-up the record gets `time_up` and the engine applies the rulebook's time-up rule."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from events_helpers import make_event, quick_deal_events

from web import services
from web.events import services as ts
from web.events.models import MatchClock
from web.extensions import db
from web.models import Match


def _first_match(event: Any) -> Match:
    return db.session.execute(db.select(Match).filter_by(event_id=event.id)).scalars().first()


def test_union_match_clock_is_two_hours_000(app: Any, factory: Any) -> None:
    """Seed 000: 每局两个小时; the clock exists, unstarted, at the full limit."""
    event = make_event(factory, 2, rulebook="union-2deck")
    ts.open_round(event.id, actor="td")
    info = ts.clock_info(_first_match(event).id)
    assert info is not None
    assert (info["limit"], info["remaining"], info["started"], info["time_up"]) == (7200, 7200, False, False)


def test_guandan_clock_ninety_minutes_and_eighty_rr_untimed_004(app: Any, factory: Any) -> None:
    """Seed 004 §六.1 时间不超过1.5小时; eighty-rr sets no limit (no clock)."""
    guandan = factory.event(game="guandan", rulebook="guandan-lyg")
    factory.pair(guandan)
    factory.pair(guandan)
    ts.open_round(guandan.id, actor="td")
    assert ts.clock_info(_first_match(guandan).id)["limit"] == 5400  # type: ignore[index]
    eighty = make_event(factory, 2)
    ts.open_round(eighty.id, actor="td")
    assert ts.clock_info(_first_match(eighty).id) is None


def test_referee_starts_pauses_resumes_by_token_route(app: Any, client: Any, factory: Any) -> None:
    event = make_event(factory, 2, rulebook="union-2deck")
    ts.open_round(event.id, actor="td")
    match = _first_match(event)
    token = match.table.token
    url = f"/t/{token}/events/matches/{match.id}/clock"
    # nobody without the table's token/PIN may start it (checked first: the test's app
    # context keeps `g` between requests)
    assert client.post(f"/events/matches/{match.id}/clock/start").status_code == 403
    assert client.post(f"/t/not-a-token/events/matches/{match.id}/clock/start").status_code == 404
    response = client.post(f"{url}/start", headers={"Accept": "application/json"})
    assert response.status_code == 200 and response.json["running"] is True
    clock = db.session.execute(db.select(MatchClock).filter_by(match_id=match.id)).scalar_one()
    started = clock.started_at
    assert client.post(f"{url}/start", headers={"Accept": "application/json"}).json["running"]
    db.session.refresh(clock)
    assert clock.started_at == started  # a second start changes nothing
    assert client.post(f"{url}/pause", headers={"Accept": "application/json"}).json["paused"] is True
    resumed = client.post(f"{url}/resume", headers={"Accept": "application/json"}).json
    assert resumed["running"] is True and resumed["paused"] is False
    assert client.get(f"/events/matches/{match.id}/clock").json["limit"] == 7200


def test_time_up_marks_the_record_and_higher_level_wins_000(app: Any, factory: Any) -> None:
    """Seed 000: 两小时内没有结束，哪一方级别升得最高为获胜方 — via the record's `time_up`."""
    event = make_event(factory, 2, rulebook="union-2deck")
    ts.open_round(event.id, actor="td")
    match = _first_match(event)
    for item in quick_deal_events(0, 0):  # dealer side 0 holds the defenders to 0: +3
        services.append_event(match.id, {**item}, expected_seq=None, idempotency_key=None,
                              actor="ref", device="t")
    ts.start_clock(match.id, actor="ref")
    assert not ts.match_finished(match)
    clock = db.session.execute(db.select(MatchClock).filter_by(match_id=match.id)).scalar_one()
    clock.started_at = clock.started_at - timedelta(seconds=7201)
    db.session.commit()
    info = ts.clock_info(match.id)
    assert info is not None and info["time_up"] and info["remaining"] == 0
    state = services.match_state(match.id)
    assert state["record"].get("time_up") is True
    assert state["finished"] and state["winner"] == 0
    ts.confirm_scoresheet(match.id, actor="ref")
    rows = ts.event_standings(event.id)
    assert rows[0].pair == match.pair_a_id and rows[0].won == 1
    assert rows[0].level_difference == 3


def test_shuangkou_timed_mode_no_new_deal_in_last_three_minutes_003_s10(app: Any, factory: Any) -> None:
    """Seed 003 §十 定時法: 最後三分鐘停止下一副牌的比賽 — the clock says so."""
    match = _timed_shuangkou(factory)
    clock = db.session.execute(db.select(MatchClock).filter_by(match_id=match.id)).scalar_one()
    assert clock.limit_seconds == 3600
    clock.started_at = clock.started_at - timedelta(seconds=3600 - 170)
    db.session.commit()
    info = ts.clock_info(match.id)
    assert info is not None and not info["time_up"] and info["may_start_deal"] is False


def _timed_shuangkou(factory: Any) -> Match:
    event = factory.event(rulebook="shuangkou-simple",
                          options={"shuangkou_mode": "timed", "time_limit_minutes": 60})
    factory.pair(event)
    factory.pair(event)
    ts.open_round(event.id, actor="td")
    match = _first_match(event)
    ts.start_clock(match.id, actor="ref")
    return match


def _age_clock(match: Match, seconds: float) -> None:
    clock = db.session.execute(db.select(MatchClock).filter_by(match_id=match.id)).scalar_one()
    clock.started_at = clock.started_at - timedelta(seconds=seconds)
    db.session.commit()


def test_shuangkou_timed_refuses_new_deal_in_last_three_minutes_003_s10(app: Any, factory: Any) -> None:
    """Seed 003 §十 定時法: 最後三分鐘停止下一副牌 — start_deal and an opening event are refused."""
    import pytest

    match = _timed_shuangkou(factory)
    first = services.append_event(match.id, {"type": "declare", "seat": 0, "cards": ["2S"]},
                                  expected_seq=None, idempotency_key=None, actor="ref", device="t")
    seq = first["seq"]
    _age_clock(match, 3600 - 170)  # 2 min 50 s left
    with pytest.raises(services.RejectedEvent) as refused:
        services.start_deal(match.id, expected_seq=seq, actor="ref", device="t")
    assert refused.value.rule_id == "clock.no_new_deal" and "3" in refused.value.message
    assert services.match_state(match.id)["seq"] == seq  # nothing written
    # the deal already running goes on: events inside it are accepted
    services.append_event(match.id, {"type": "declare", "seat": 1, "cards": ["2H", "2H"]},
                          expected_seq=seq, idempotency_key=None, actor="ref", device="t")


def test_shuangkou_timed_allows_a_deal_before_the_last_minutes_003_s10(app: Any, factory: Any) -> None:
    """Seed 003 §十: with more than 3 minutes left a new deal may start."""
    match = _timed_shuangkou(factory)
    _age_clock(match, 3600 - 200)
    state = services.start_deal(match.id, expected_seq=None, actor="ref", device="t")
    assert len(state["record"]["deals"]) == 1


def test_time_up_refuses_any_further_deal_003_s10(app: Any, factory: Any) -> None:
    """Time is up: the record gets time_up and no further deal starts (rule clock.time_up)."""
    import pytest

    match = _timed_shuangkou(factory)
    _age_clock(match, 3601)
    with pytest.raises(services.RejectedEvent) as refused:
        services.append_event(match.id, {"type": "declare", "seat": 0, "cards": ["2S"]},
                              expected_seq=None, idempotency_key=None, actor="ref", device="t")
    assert refused.value.rule_id == "clock.time_up"
    state = services.match_state(match.id)
    assert state["record"].get("time_up") is True and state["record"]["deals"] == []
