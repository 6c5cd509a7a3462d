"""JSON API: referee posts (event, undo, next deal) with conflict and idempotency answers."""

from __future__ import annotations

from referee.rulebooks import find_rulebook
from referee.shengji.simulate import simulate_match
from web import services


def _events():
    return simulate_match(find_rulebook("shuangsheng-17"), 3)["deals"][0]["events"]


def test_post_conflict_duplicate_undo(client, factory):
    match = factory.match(rulebook="shuangsheng-17")
    base = f"/api/t/{match.table.token}/matches/{match.id}"
    events = _events()
    first = client.post(f"{base}/events", json={"event": events[0], "expected_seq": 0,
                                                "idempotency_key": "a"})
    assert first.status_code == 200 and first.json["state"]["seq"] == 1
    assert "record" not in first.json["state"]  # lean by default
    again = client.post(f"{base}/events", json={"event": events[0], "expected_seq": 0,
                                                "idempotency_key": "a"})
    assert again.status_code == 200 and again.json["duplicate"] is True
    stale = client.post(f"{base}/events", json={"event": events[1], "expected_seq": 0,
                                                "idempotency_key": "b"})
    assert stale.status_code == 409 and stale.json["error"] == "conflict"
    assert stale.json["state"]["seq"] == 1
    full = client.post(f"{base}/events", json={"event": events[1], "expected_seq": 1,
                                               "idempotency_key": "c", "full": True})
    assert full.json["state"]["record"]["deals"][0]["events"] == events[:2]
    undo = client.post(f"{base}/undo", json={"expected_seq": 2, "idempotency_key": "u"})
    assert undo.status_code == 200 and undo.json["state"]["seq"] == 3
    assert services.match_state(match.id)["record"]["deals"][0]["events"] == events[:1]
    entries = services.log_entries(match.id)
    assert [e.kind for e in entries] == ["event", "event", "undo"]
    assert entries[0].actor == f"table:{match.table.number}"


def test_rejected_post_is_422_with_rule_id(client, factory):
    match = factory.match(rulebook="shuangsheng-17")
    response = client.post(
        f"/api/t/{match.table.token}/matches/{match.id}/events",
        json={"event": {"type": "bury", "seat": 0, "cards": ["2S"]}, "expected_seq": 0,
              "idempotency_key": "x"},
    )
    assert response.status_code == 422
    assert response.json["rule_id"].startswith("record.")
    assert services.log_entries(match.id) == []


def test_next_deal_endpoint_and_public_state(client, factory):
    match = factory.match(rulebook="shuangsheng-17")
    doc = simulate_match(find_rulebook("shuangsheng-17"), 3)
    services.import_record(match.id, {**doc, "deals": doc["deals"][:1]}, actor="td")
    seq = services.match_state(match.id)["seq"]
    response = client.post(
        f"/api/t/{match.table.token}/matches/{match.id}/deals",
        json={"expected_seq": seq, "idempotency_key": "d2"},
    )
    assert response.status_code == 200 and response.json["state"]["deal"] == 2
    public = client.get(f"/api/matches/{match.id}/state").json["state"]
    assert public["deal"] == 2 and public["record"]["deals"][1]["events"] == []
