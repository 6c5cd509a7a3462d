"""Event pages and routes: director's rounds page, pairings, standings, hall data, pair history,
exports, the referee's confirm route, and who may do what."""

from __future__ import annotations

import csv
import io
from typing import Any

from events_helpers import finish_eighty, make_event

from web.events import services as ts
from web.extensions import db
from web.models import Match


def _round1(event: Any) -> list[Match]:
    return list(db.session.execute(db.select(Match).filter_by(event_id=event.id, round=1)).scalars())


def test_director_opens_round_through_the_page(app: Any, director_client: Any, factory: Any) -> None:
    event = make_event(factory, 4)
    page = director_client.get(f"/events/{event.id}/rounds")
    assert page.status_code == 200
    assert "open-round" in page.text
    response = director_client.post(f"/events/{event.id}/rounds/open", data={"seed": "99"})
    assert response.status_code == 302
    page = director_client.get(f"/events/{event.id}/rounds")
    assert "99" in page.text and "close-round" in page.text
    assert len(_round1(event)) == 2
    # closing now is refused with a message, nothing changes
    director_client.post(f"/events/{event.id}/rounds/1/close")
    assert ts.rounds_of(event.id)[0].status == "open"


def test_rounds_page_needs_a_director(app: Any, client: Any, factory: Any) -> None:
    event = make_event(factory, 2)
    assert client.get(f"/events/{event.id}/rounds").status_code == 302  # to the login page
    assert client.post(f"/events/{event.id}/rounds/open").status_code == 302
    assert ts.rounds_of(event.id) == []


def test_override_through_the_page_shows_computed_and_in_force(
    app: Any, director_client: Any, factory: Any
) -> None:
    event = make_event(factory, 4)
    round1 = ts.open_round(event.id, actor="td", seed=5)
    a, b = round1.pairings[0]["home"], round1.pairings[1]["home"]
    director_client.post(
        f"/events/{event.id}/rounds/1/override", data={"first": a, "second": b, "reason": "同单位"}
    )
    page = director_client.get(f"/events/{event.id}/rounds").text
    assert "同单位" in page and "td" in page and "≠" in page
    public = director_client.get(f"/events/{event.id}/rounds/1").text
    assert "同单位" in public


def test_referee_confirms_by_token_json(app: Any, client: Any, factory: Any) -> None:
    event = make_event(factory, 2)
    ts.open_round(event.id, actor="td", seed=1)
    match = _round1(event)[0]
    url = f"/t/{match.table.token}/events/matches/{match.id}/confirm"
    early = client.post(url, headers={"Accept": "application/json"})
    assert early.status_code == 409 and early.json["ok"] is False
    finish_eighty(match.id, 1)
    done = client.post(url, json={"actor": "裁判 王"}, headers={"Accept": "application/json"})
    assert done.status_code == 200 and done.json["confirmed_by"] == "裁判 王"
    assert ts.round_status(ts.rounds_of(event.id)[0])["can_close"]


def test_confirm_without_table_access_is_forbidden(app: Any, client: Any, factory: Any) -> None:
    event = make_event(factory, 2)
    ts.open_round(event.id, actor="td", seed=1)
    match = _round1(event)[0]
    finish_eighty(match.id, 0)
    assert client.post(f"/events/matches/{match.id}/confirm").status_code == 403


def _played_event(factory: Any) -> Any:
    event = make_event(factory, 4)
    round1 = ts.open_round(event.id, actor="td", seed=2)
    for match in _round1(event):
        finish_eighty(match.id, 0)
        ts.confirm_scoresheet(match.id, actor="ref")
    ts.close_round(round1.id, actor="td")
    return event


def test_standings_pairings_history_and_hall_pages(app: Any, client: Any, factory: Any) -> None:
    event = _played_event(factory)
    standings = client.get(f"/events/{event.id}/standings")
    assert standings.status_code == 200
    assert "standings-table" in standings.text and "队" in standings.text
    assert client.get(f"/events/{event.id}/standings?print=1").status_code == 200
    assert "standings-table" in client.get(f"/events/{event.id}/standings?fragment=1").text
    pairings = client.get(f"/events/{event.id}/rounds/1")
    assert pairings.status_code == 200 and "pairings-table" in pairings.text
    assert client.get(f"/events/{event.id}/rounds/1?print=1").status_code == 200
    assert client.get(f"/events/{event.id}/rounds/9").status_code == 404
    pair = event.pairs[0]
    history = client.get(f"/events/{event.id}/pairs/{pair.id}")
    assert history.status_code == 200 and pair.name in history.text
    hall = client.get(f"/events/{event.id}/hall")
    assert hall.status_code == 200 and "hall.js" in hall.text
    data = client.get(f"/events/{event.id}/hall.json").json
    assert data["round"] == 1 and len(data["tables"]) == 2 and len(data["standings"]) == 4
    assert data["standings"][0]["match_points"] == 2.0
    assert all(t["finished"] and t["confirmed"] for t in data["tables"])


def test_exports_csv_and_json(app: Any, client: Any, factory: Any) -> None:
    event = _played_event(factory)
    for kind in ("pairings", "results", "standings"):
        js = client.get(f"/events/{event.id}/export/{kind}.json")
        assert js.status_code == 200 and js.mimetype == "application/json"
        rows = js.json
        assert rows, kind
        text = client.get(f"/events/{event.id}/export/{kind}.csv").data.decode("utf-8-sig")
        parsed = list(csv.DictReader(io.StringIO(text)))
        assert len(parsed) == len(rows)
    results = client.get(f"/events/{event.id}/export/results.json").json
    assert {r["home_match_points"] for r in results} == {2.0}
    assert {r["home_deal_points"] for r in results} == {10}
    standings = client.get(f"/events/{event.id}/export/standings.json").json
    assert standings[0]["tb_match_points"] == 2.0
    assert client.get(f"/events/{event.id}/export/secrets.csv").status_code == 404


def test_settings_form_reorders_tiebreaks(app: Any, director_client: Any, factory: Any) -> None:
    event = make_event(factory, 2)
    director_client.post(
        f"/events/{event.id}/settings",
        data={"format": "eighty_rr", "tiebreaks": "match_points, head_to_head, deal_points"},
    )
    assert ts.tiebreak_order(event, ts.settings_for(event.id)) == (
        "match_points",
        "head_to_head",
        "deal_points",
    )
