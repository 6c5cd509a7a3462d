"""Director pages: set up an event, its pairs, tables and matches; correct, export, import."""

from __future__ import annotations

import io
import json

from referee.rulebooks import find_rulebook
from referee.shengji.simulate import simulate_match
from web import services
from web.extensions import db
from web.models import Event, LogEntry, Match


def test_create_event_with_options_pairs_tables_and_match(director_client):
    client = director_client
    response = client.post(
        "/director/events/new",
        data={
            "name": "春季赛",
            "rulebook": "union-2deck",
            "options": '{"trump_chain": "stated"}',
            "level_a": "2",
            "level_b": "5",
        },
    )
    assert response.status_code == 302
    event = db.session.execute(db.select(Event)).scalar_one()
    assert (event.game, event.rulebook, event.options) == ("shengji", "union-2deck", {"trump_chain": "stated"})
    assert event.start_levels == ["2", "5"]
    for name, players in (("东队", ("甲", "乙")), ("西队", ("丙", "丁"))):
        client.post(
            f"/director/events/{event.id}/pairs",
            data={"name": name, "player1": players[0], "player2": players[1]},
        )
    client.post(f"/director/events/{event.id}/tables", data={"count": 2})
    db.session.refresh(event)
    assert [t.number for t in event.tables] == [1, 2]
    assert len({t.token for t in event.tables}) == 2 and all(len(t.pin) == 6 for t in event.tables)
    a, b = event.pairs
    client.post(
        f"/director/events/{event.id}/matches",
        data={"round": 1, "table_id": event.tables[1].id, "pair_a_id": a.id, "pair_b_id": b.id,
              "swap_b": "y"},
    )
    match = db.session.execute(db.select(Match)).scalar_one()
    assert match.table_id == event.tables[1].id
    assert match.seats == ["甲", "丁", "乙", "丙"]
    page = client.get(f"/director/events/{event.id}").data.decode()
    assert event.tables[0].token in page and "trump_chain" in page
    assert client.get(f"/director/tables/{event.tables[0].id}/qr.svg").data.startswith(b"<svg")


def test_event_with_unknown_option_is_refused(director_client):
    response = director_client.post(
        "/director/events/new",
        data={"name": "x", "rulebook": "union-2deck", "options": '{"no_such": 1}',
              "level_a": "2", "level_b": "2"},
    )
    assert response.status_code == 200
    assert db.session.execute(db.select(Event)).first() is None


def _filled(factory, rulebook: str = "shuangsheng-17", deals: int = 2):
    match = factory.match(rulebook=rulebook)
    doc = simulate_match(find_rulebook(rulebook), 7)
    doc = {**doc, "players": match.seats, "deals": doc["deals"][:deals]}
    services.import_record(match.id, doc, actor="td")
    return match, doc


def test_director_corrects_an_event_with_a_reason(director_client, factory):
    match, doc = _filled(factory)
    state = services.match_state(match.id)
    seq = state["event_seqs"][0][3]
    page = director_client.get(f"/director/matches/{match.id}/correct/{seq}")
    assert page.status_code == 200
    original = doc["deals"][0]["events"][3]
    assert json.dumps(original, ensure_ascii=False).replace('"', "&#34;") in page.data.decode()
    plays = [list(p) for p in original["plays"]] if original["type"] == "trick" else None
    corrected = {**original, "plays": [plays[0], plays[3], plays[2], plays[1]]} if plays else original
    # Without a reason: refused, nothing stored.
    response = director_client.post(
        f"/director/matches/{match.id}/correct/{seq}",
        data={"event_json": json.dumps(corrected), "reason": ""},
    )
    assert response.status_code == 200 and services.corrections(match.id) == []
    response = director_client.post(
        f"/director/matches/{match.id}/correct/{seq}",
        data={"event_json": json.dumps(corrected), "reason": "座位录反"},
    )
    assert response.status_code == 302
    [correction] = services.corrections(match.id)
    assert correction["reason"] == "座位录反" and correction["actor"] == "director:td"
    page = director_client.get(f"/director/matches/{match.id}").data.decode()
    assert "座位录反" in page
    sheet = director_client.get(f"/public/matches/{match.id}/scoresheet").data.decode()
    assert "座位录反" in sheet


def test_director_correction_engine_refuses_is_shown(director_client, factory):
    match, _ = _filled(factory)
    seq = services.match_state(match.id)["event_seqs"][0][0]
    response = director_client.post(
        f"/director/matches/{match.id}/correct/{seq}",
        data={"event_json": '{"type": "declare", "seat": 0, "cards": ["QQ"]}', "reason": "typo"},
    )
    assert response.status_code == 200
    assert "QQ" in response.data.decode()
    assert services.corrections(match.id) == []


def test_export_and_import_record_files(director_client, factory):
    match, doc = _filled(factory)
    exported = director_client.get(f"/director/matches/{match.id}/record.json")
    assert exported.status_code == 200
    record = json.loads(exported.data)
    assert record["deals"] == doc["deals"]
    empty = factory.match(event=match.event)
    response = director_client.post(
        f"/director/matches/{empty.id}/import",
        data={"file": (io.BytesIO(exported.data), "match.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302
    assert services.export_record(empty.id)["deals"] == doc["deals"]
    log = director_client.get(f"/director/matches/{empty.id}/log.json").json
    assert log["log"][0]["kind"] == "seat" and log["log"][1]["kind"] == "deal_start"


def test_results_csv_export_and_check(director_client, factory):
    match, _ = _filled(factory)
    response = director_client.get(f"/director/events/{match.event_id}/results.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    text = response.data.decode("utf-8-sig")
    assert text.splitlines()[0].startswith("event,round,table,match")
    check = director_client.post(
        f"/director/events/{match.event_id}/results",
        data={"file": (io.BytesIO(text.encode()), "r.csv")},
        content_type="multipart/form-data",
    )
    assert check.status_code == 200
    assert "matches the logs" in check.data.decode() or "与记录一致" in check.data.decode()


def test_director_undo_and_seats(director_client, factory):
    match, doc = _filled(factory, deals=1)
    before = match.last_seq
    director_client.post(f"/director/matches/{match.id}/undo", data={"expected_seq": before})
    entries = services.log_entries(match.id)
    assert entries[-1].kind == "undo" and entries[-1].actor == "director:td"
    director_client.post(
        f"/director/matches/{match.id}/seats",
        data={"seat0": "A", "seat1": "B", "seat2": "C", "seat3": "D"},
    )
    assert services.match_state(match.id)["players"] == ["A", "B", "C", "D"]
    assert db.session.execute(
        db.select(LogEntry).filter_by(match_id=match.id, kind="seat")
    ).scalars().all()[-1].payload == {"players": ["A", "B", "C", "D"]}


def test_overview_lists_every_table(director_client, factory):
    match, _ = _filled(factory)
    other = factory.match(event=match.event)
    page = director_client.get(f"/director/events/{match.event_id}/overview").data.decode()
    assert f'data-live="event-{match.event_id}"' in page
    assert f'id="match-{match.id}"' in page and f'id="match-{other.id}"' in page
    fragment = director_client.get(f"/director/events/{match.event_id}/overview/fragment")
    assert fragment.status_code == 200 and "<html" not in fragment.data.decode()


def test_match_page_log_table_refreshes_live(director_client, factory):
    """The log table subscribes to the match's SSE channel and its fragment shows new entries."""
    match = factory.match(rulebook="shuangsheng-17")
    page = director_client.get(f"/director/matches/{match.id}").get_data(as_text=True)
    log_section = page[page.index('id="log"') - 40:]
    assert f'data-live="match-{match.id}"' in log_section[:400]
    assert f"/director/matches/{match.id}/log-fragment" in log_section[:600]
    event = dict(simulate_match(find_rulebook("shuangsheng-17"), 3)["deals"][0]["events"][0])
    before = director_client.get(f"/director/matches/{match.id}/log-fragment").get_data(as_text=True)
    assert 'id="seq-1"' not in before
    services.append_event(match.id, event, expected_seq=0, idempotency_key="k1",
                          actor="referee", device="tablet")
    after = director_client.get(f"/director/matches/{match.id}/log-fragment").get_data(as_text=True)
    assert 'id="seq-1"' in after and "referee" in after and 'name="expected_seq" value="1"' in after


def test_log_fragment_needs_a_director(client, factory):
    match = factory.match()
    assert client.get(f"/director/matches/{match.id}/log-fragment").status_code == 302
