"""Access control: director pages need a login, a referee token reaches its own table only,
public pages are read-only, passwords are hashed, CSRF guards every form."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Blueprint

from referee.rulebooks import find_rulebook
from referee.shengji.simulate import simulate_match
from web import services
from web.auth import grant_table, table_referee_required
from web.extensions import db
from web.models import User

DIRECTOR_PAGES = [
    "/director/",
    "/director/events/new",
    "/director/events/{event}",
    "/director/events/{event}/overview",
    "/director/events/{event}/results.csv",
    "/director/matches/{match}",
    "/director/matches/{match}/record.json",
    "/director/matches/{match}/log.json",
    "/director/tables/{table}/qr.svg",
]


def _first_event() -> dict[str, Any]:
    return dict(simulate_match(find_rulebook("shuangsheng-17"), 3)["deals"][0]["events"][0])


@pytest.mark.parametrize("page", DIRECTOR_PAGES)
def test_director_pages_need_login(client, factory, page):
    match = factory.match()
    url = page.format(event=match.event_id, match=match.id, table=match.table_id)
    response = client.get(url)
    assert response.status_code == 302
    assert "/director/login" in response.headers["Location"]


def test_director_login_and_wrong_password(client, factory, login):
    factory.director("td", "right-pass")
    assert login(client, "td", "wrong").status_code == 200
    assert client.get("/director/").status_code == 302
    assert login(client, "td", "right-pass").status_code == 302
    assert client.get("/director/").status_code == 200


def test_director_login_locked_after_five_failures_for_a_minute(app, client, factory, login):
    """5 failed logins for one user name within a minute lock it for a minute (even the
    right password), with a translated message; other user names are not affected."""
    from web.auth import login_throttle

    factory.director("td", "right-pass")
    factory.director("other", "other-pass")
    now = [1000.0]
    login_throttle(app).now = lambda: now[0]
    for _ in range(4):
        assert login(client, "td", "wrong").status_code == 200
    assert login(client, "td", "right-pass").status_code == 302  # 4 failures: still allowed
    client.post("/director/logout")
    for _ in range(5):
        now[0] += 1
        assert login(client, "td", "wrong").status_code == 200
    locked = login(client, "td", "right-pass")
    assert locked.status_code == 429
    assert "登录失败次数过多" in locked.get_data(as_text=True)
    assert client.get("/director/").status_code == 302
    assert login(client, "other", "other-pass").status_code == 302  # per user name
    client.post("/director/logout")
    now[0] += 61
    assert login(client, "td", "right-pass").status_code == 302


def test_password_is_stored_hashed(app, factory):
    factory.director("td", "right-pass")
    user = db.session.execute(db.select(User).filter_by(username="td")).scalar_one()
    assert "right-pass" not in user.password_hash
    assert user.password_hash.startswith(("scrypt:", "pbkdf2:"))
    assert user.check_password("right-pass") and not user.check_password("right-pas")


def test_login_does_not_redirect_off_site(client, factory):
    factory.director()
    response = client.post(
        "/director/login?next=https://evil.example/x",
        data={"username": "td", "password": "secret-pass"},
    )
    assert response.headers["Location"] == "/director/"


def test_referee_token_reads_and_writes_its_own_table_only(client, factory):
    """A token for table 1 can neither read nor write table 2's match (404, nothing stored)."""
    event = factory.event(rulebook="shuangsheng-17")
    mine = factory.match(event=event)
    other = factory.match(event=event)
    token = mine.table.token
    body = {"event": _first_event(), "expected_seq": 0, "idempotency_key": "x1"}

    own = client.post(f"/api/t/{token}/matches/{mine.id}/events", json=body)
    assert own.status_code == 200 and own.json["state"]["seq"] == 1

    foreign = client.post(f"/api/t/{token}/matches/{other.id}/events", json=body)
    assert foreign.status_code == 404
    assert client.post(f"/api/t/{token}/matches/{other.id}/undo", json={}).status_code == 404
    assert services.match_state(other.id)["seq"] == 0
    # The token's state endpoint shows its own table's match, never the other one.
    state = client.get(f"/api/t/{token}/state").json["state"]
    assert state["match_id"] == mine.id


def test_unknown_token_is_not_found(client, factory):
    match = factory.match()
    response = client.post(
        f"/api/t/not-a-token/matches/{match.id}/events", json={"event": {"type": "pass"}}
    )
    assert response.status_code == 404


def test_pin_session_marker_is_scoped_to_one_table(make_app, factory):
    """`table_referee_required` with a table id: only the table whose PIN was entered."""
    app = make_app()
    bp = Blueprint("probe", __name__)

    @bp.get("/probe/<int:table_id>")
    @table_referee_required
    def probe(table: Any) -> str:
        return f"table {table.id}"

    @bp.get("/probe-login/<int:table_id>")
    def probe_login(table_id: int) -> str:
        from web.models import Table

        grant_table(db.session.get(Table, table_id))
        return "ok"

    app.register_blueprint(bp)
    with app.app_context():
        event = factory.event()
        one, two = factory.table(event), factory.table(event)
        one_id, two_id = one.id, two.id
    client = app.test_client()
    assert client.get(f"/probe/{one_id}").status_code == 403
    client.get(f"/probe-login/{one_id}")
    assert client.get(f"/probe/{one_id}").data == f"table {one_id}".encode()
    assert client.get(f"/probe/{two_id}").status_code == 403


def test_public_pages_are_read_only(client, factory):
    match = factory.match()
    services.import_record(
        match.id,
        {**simulate_match(find_rulebook("union-2deck"), 1), "players": match.seats},
        actor="td",
    )
    pages = [
        "/",
        f"/public/events/{match.event_id}",
        f"/public/tables/{match.table_id}",
        f"/public/matches/{match.id}",
        f"/public/matches/{match.id}/scoresheet",
    ]
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
        assert b"<form" not in response.data, page
        assert client.post(page).status_code == 405, page
    # The public pages never show the referee token or PIN.
    for page in pages:
        body = client.get(page).data.decode()
        assert match.table.token not in body and match.table.pin not in body


def test_csrf_is_required_on_forms(make_app, factory):
    app = make_app(WTF_CSRF_ENABLED=True)
    with app.app_context():
        factory.director()
    client = app.test_client()
    response = client.post("/director/login", data={"username": "td", "password": "secret-pass"})
    assert response.status_code == 400
    page = client.get("/director/login").data.decode()
    token = page.split('name="csrf_token" type="hidden" value="')[1].split('"')[0]
    response = client.post(
        "/director/login",
        data={"username": "td", "password": "secret-pass", "csrf_token": token},
    )
    assert response.status_code == 302


def test_csrf_is_required_on_api_posts(make_app, factory):
    app = make_app(WTF_CSRF_ENABLED=True)
    with app.app_context():
        match = factory.match(rulebook="shuangsheng-17")
        url = f"/api/t/{match.table.token}/matches/{match.id}/events"
    client = app.test_client()
    body = {"event": _first_event(), "expected_seq": 0, "idempotency_key": "c1"}
    assert client.post(url, json=body).status_code == 400
    page = client.get("/").data.decode()
    token = page.split('name="csrf-token" content="')[1].split('"')[0]
    response = client.post(url, json=body, headers={"X-CSRFToken": token})
    assert response.status_code == 200
