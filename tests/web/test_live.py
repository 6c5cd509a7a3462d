"""Live pages: server-sent events through the database, so every app server sees them."""

from __future__ import annotations

import json

from referee.rulebooks import find_rulebook
from referee.shengji.simulate import simulate_match
from web import live, services


def _events(body: str) -> list[dict]:
    return [
        json.loads(block.split("data: ", 1)[1])
        for block in body.split("\n\n")
        if "event: update" in block
    ]


def test_a_logged_event_reaches_the_match_table_and_event_channels(client, factory):
    match = factory.match(rulebook="shuangsheng-17")
    first = simulate_match(find_rulebook("shuangsheng-17"), 3)["deals"][0]["events"][0]
    start = {ch: live.latest_id(ch) for ch in ("match", "table", "event")}
    assert start == {"match": 0, "table": 0, "event": 0}
    services.append_event(
        match.id, first, expected_seq=0, idempotency_key="k", actor="ref", device="t"
    )
    for channel in (f"match-{match.id}", f"table-{match.table_id}", f"event-{match.event_id}"):
        body = client.get(f"/live/{channel}?after=0").data.decode()
        [message] = _events(body)
        assert message["match_id"] == match.id and message["seq"] == 1
        assert message["phase"] == "declaring"


def test_a_stream_starts_after_the_latest_message_and_resumes_by_last_event_id(client, app):
    live.publish("clock-1", {"n": 1})
    live.publish("clock-1", {"n": 2})
    assert _events(client.get("/live/clock-1").data.decode()) == []  # only news
    first_id = live.latest_id("clock-1") - 1
    body = client.get("/live/clock-1", headers={"Last-Event-ID": str(first_id)}).data.decode()
    assert [m["n"] for m in _events(body)] == [2]


def test_a_second_app_server_sees_the_first_ones_messages(make_app, factory):
    """Two app instances on one database: publish on one, stream from the other."""
    one, two = make_app(), make_app()
    with one.app_context():
        live.publish("event-9", {"hello": "from one"})
    with two.app_context():
        body = two.test_client().get("/live/event-9?after=0").data.decode()
    assert _events(body) == [{"hello": "from one"}]


def test_bad_channel_names_are_not_found(client):
    assert client.get("/live/..%2Fetc").status_code == 404
    assert client.get("/live/UPPER").status_code == 404


def test_live_pages_subscribe_to_their_channels(client, factory):
    match = factory.match()
    page = client.get(f"/public/matches/{match.id}").data.decode()
    assert f'data-live="match-{match.id}"' in page and "js/live.js" in page
    page = client.get(f"/public/events/{match.event_id}").data.decode()
    assert f'data-live="event-{match.event_id}"' in page
