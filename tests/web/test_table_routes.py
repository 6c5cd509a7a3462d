"""The referee's table routes: access by token or PIN, CSRF, conflicts, idempotency, undo.

Issue 5 "Rules of the road": a referee token reaches one table only; each post carries
the seq it expects (a stale one gets 409 and a refreshed view, nothing written); a repeated
idempotency key is stored once; an event the engine rejects changes nothing (422).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from web.extensions import db
from web.models import LogEntry

BURY = ["3C", "4C", "6C", "7C", "8C", "9C", "3D", "4D"]


def entries(match_id: int) -> list[LogEntry]:
    return list(db.session.execute(db.select(LogEntry).filter_by(match_id=match_id)).scalars())


def post(client: Any, token: str, match_id: int, body: dict[str, Any], **kw: Any) -> Any:
    return client.post(f"/t/{token}/match/{match_id}/post", json=body, **kw)


class Entry:
    """Builds tablet posts with fresh idempotency keys."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self, kind: str, seq: int, **fields: Any) -> dict[str, Any]:
        self.n += 1
        return {"kind": kind, "expected_seq": seq, "idempotency_key": f"key-{self.n:06d}", **fields}


@pytest.fixture
def entry() -> Entry:
    return Entry()


@pytest.fixture
def seated(client: Any, factory: Any, entry: Entry) -> Any:
    """A union-2deck match at its own table with the four players seated."""
    match = factory.match()
    response = post(client, match.table.token, match.id, entry("seat", 0, players=["赵", "钱", "孙", "李"]))
    assert response.status_code == 200, response.get_json()
    return match


def test_token_opens_its_table_and_redirects_to_the_current_match(client: Any, factory: Any) -> None:
    match = factory.match()
    response = client.get(f"/t/{match.table.token}/")
    assert response.status_code == 302
    assert response.location.endswith(f"/t/{match.table.token}/match/{match.id}")
    page = client.get(response.location)
    assert page.status_code == 200
    assert b'id="table-app"' in page.data


def test_a_token_cannot_read_or_write_another_tables_match(client: Any, factory: Any, entry: Entry) -> None:
    """Issue 5: a referee token cannot read or write another table (404, nothing written)."""
    mine = factory.match()
    other = factory.match(event=mine.event)
    token = mine.table.token
    for url in (f"/t/{token}/match/{other.id}", f"/t/{token}/match/{other.id}/state"):
        assert client.get(url).status_code == 404
    response = post(client, token, other.id, entry("seat", 0, players=["a", "b", "c", "d"]))
    assert response.status_code == 404
    assert entries(other.id) == []
    assert client.get(f"/t/{other.table.token}/match/{other.id}/state").status_code == 200


def test_unknown_token_is_404(client: Any, factory: Any) -> None:
    match = factory.match()
    assert client.get(f"/t/{'x' * 22}/match/{match.id}").status_code == 404
    assert client.get(f"/t/{match.table.token}x/").status_code == 404


def test_pin_grants_that_table_only(client: Any, factory: Any) -> None:
    mine = factory.match()
    other = factory.match(event=mine.event)
    assert client.get(f"/table/{mine.table.id}/match/{mine.id}/state").status_code == 403
    response = client.post("/t/", data={"pin": mine.table.pin, "table": str(mine.table.number)})
    assert response.status_code == 302
    assert response.location.endswith(f"/table/{mine.table.id}/")
    assert client.get(f"/table/{mine.table.id}/match/{mine.id}/state").status_code == 200
    assert client.get(f"/table/{other.table.id}/match/{other.id}/state").status_code == 403
    # the PIN of one table never opens another table's match through its own URL either
    assert client.get(f"/table/{mine.table.id}/match/{other.id}/state").status_code == 404


def test_wrong_pin_is_refused_and_locks_after_five_tries(client: Any, factory: Any) -> None:
    match = factory.match()
    wrong = "000000" if match.table.pin != "000000" else "111111"
    for _ in range(5):
        response = client.post("/t/", data={"pin": wrong})
        assert response.status_code == 400
    locked = client.post("/t/", data={"pin": match.table.pin, "table": str(match.table.number)})
    assert locked.status_code == 400
    assert client.get(f"/table/{match.table.id}/").status_code == 403


def test_csrf_is_required_on_posts(make_app: Any, factory: Any) -> None:
    """Issue 5: CSRF on every form; the tablet gets a JSON 400 and can fetch a new token."""
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    with app.app_context():
        match = factory.match()
        token, match_id = match.table.token, match.id
    body = {"kind": "seat", "players": ["a", "b", "c", "d"], "expected_seq": 0, "idempotency_key": "key-000001"}
    refused = post(client, token, match_id, body)
    assert refused.status_code == 400
    assert refused.get_json()["error"] == "csrf"
    page = client.get(f"/t/{token}/match/{match_id}").get_data(as_text=True)
    csrf = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
    accepted = post(client, token, match_id, body, headers={"X-CSRFToken": csrf})
    assert accepted.status_code == 200, accepted.get_json()
    fresh = client.get(f"/t/{token}/csrf").get_json()["csrf_token"]
    again = post(client, token, match_id, {**body, "expected_seq": 1, "idempotency_key": "key-000002"},
                 headers={"X-CSRFToken": fresh})
    assert again.status_code == 200


def test_seating_sets_the_players(client: Any, seated: Any) -> None:
    state = client.get(f"/t/{seated.table.token}/match/{seated.id}/state").get_json()
    assert state["seated"] is True
    assert state["players"] == ["赵", "钱", "孙", "李"]
    assert state["seq"] == 1


def test_seating_needs_four_names(client: Any, factory: Any, entry: Entry) -> None:
    match = factory.match()
    response = post(client, match.table.token, match.id, entry("seat", 0, players=["a", "", "c", "d"]))
    assert response.status_code == 422
    assert entries(match.id) == []


def test_stale_seq_is_a_conflict_and_writes_nothing(client: Any, seated: Any, entry: Entry) -> None:
    """Issue 5: two tablets: the second gets a conflict and a refreshed view, never a lost
    or doubled event."""
    token = seated.table.token
    first = post(client, token, seated.id, entry("event", 1, event={"type": "declare", "seat": 0, "cards": ["2S"]}))
    assert first.status_code == 200
    second = post(client, token, seated.id, entry("event", 1, event={"type": "declare", "seat": 1, "cards": ["2H"]}))
    assert second.status_code == 409
    body = second.get_json()
    assert body["error"] == "conflict"
    assert body["state"]["seq"] == 2
    assert body["state"]["deal"]["declarations"][0]["seat"] == 0
    assert len(entries(seated.id)) == 2


def test_repeated_idempotency_key_is_stored_once(client: Any, seated: Any, entry: Entry) -> None:
    """Issue 5: a double tap (same idempotency key) is stored once, even with its old seq."""
    token = seated.table.token
    body = entry("event", 1, event={"type": "declare", "seat": 0, "cards": ["2S"]})
    first = post(client, token, seated.id, body)
    again = post(client, token, seated.id, body)
    assert first.status_code == again.status_code == 200
    assert first.get_json()["replayed"] is False
    assert again.get_json()["replayed"] is True
    assert again.get_json()["state"]["seq"] == 2
    assert [e.kind for e in entries(seated.id)] == ["seat", "event"]


def test_rejected_event_changes_nothing(client: Any, seated: Any, entry: Entry) -> None:
    """A bury of 1 card is invalid (扣底 holds 8): 422, a message, seq unchanged."""
    token = seated.table.token
    post(client, token, seated.id, entry("event", 1, event={"type": "declare", "seat": 0, "cards": ["2S"]}))
    response = post(client, token, seated.id, entry("event", 2, event={"type": "bury", "seat": 0, "cards": ["3C"]}))
    assert response.status_code == 422
    body = response.get_json()
    assert body["error"] == "rejected"
    assert body["message"]
    assert body["state"]["seq"] == 2
    assert len(entries(seated.id)) == 2


def test_bad_posts_are_400(client: Any, seated: Any) -> None:
    token = seated.table.token
    url = f"/t/{token}/match/{seated.id}/post"
    event = {"type": "declare", "seat": 0, "cards": ["2S"]}
    assert client.post(url, json={"kind": "event", "event": event, "idempotency_key": "key-000009"}).status_code == 400
    assert client.post(url, json={"kind": "event", "event": event, "expected_seq": 1}).status_code == 400
    assert client.post(url, json={"kind": "nonsense", "expected_seq": 1, "idempotency_key": "key-000009"}).status_code == 400
    assert client.post(url, data="not json").status_code == 400
    assert len(entries(seated.id)) == 1


def test_a_trick_answers_winner_points_and_next_leader(client: Any, seated: Any, entry: Entry) -> None:
    """The engine's answer comes back with the post: winner, points, who leads next."""
    token = seated.table.token
    post(client, token, seated.id, entry("event", 1, event={"type": "declare", "seat": 0, "cards": ["2S"]}))
    post(client, token, seated.id, entry("event", 2, event={"type": "bury", "seat": 0, "cards": BURY}))
    trick = {"type": "trick", "leader": 0, "plays": [["KH"], ["AH"], ["5H"], ["3H"]]}
    response = post(client, token, seated.id, entry("event", 3, event=trick))
    assert response.status_code == 200, response.get_json()
    deal = response.get_json()["state"]["deal"]
    assert deal["phase"] == "playing"
    assert deal["last_trick"]["winner"] == 1
    assert deal["last_trick"]["points"] == 15
    assert deal["next_leader"] == 1
    assert deal["defender_total"] == 15
    unplayed = response.get_json()["state"]["unplayed"]
    assert unplayed["AH"] == 1 and unplayed["3C"] == 1 and unplayed["QH"] == 2


def test_undo_removes_the_last_event(client: Any, seated: Any, entry: Entry) -> None:
    token = seated.table.token
    post(client, token, seated.id, entry("event", 1, event={"type": "declare", "seat": 0, "cards": ["2S"]}))
    post(client, token, seated.id, entry("event", 2, event={"type": "declare", "seat": 1, "cards": ["2H", "2H"]}))
    undone = post(client, token, seated.id, entry("undo", 3))
    assert undone.status_code == 200
    state = undone.get_json()["state"]
    assert [row["seat"] for row in state["deal"]["declarations"]] == [0]
    assert state["seq"] == 4
    assert [e.kind for e in entries(seated.id)] == ["seat", "event", "event", "undo"]


def test_next_deal_opens_a_deal(client: Any, seated: Any, entry: Entry) -> None:
    response = post(client, seated.table.token, seated.id, entry("deal", 1))
    assert response.status_code == 200
    assert response.get_json()["state"]["deal"]["number"] == 1


def test_penalty_catalogue_follows_the_rulebook(client: Any, factory: Any) -> None:
    """RULEBOOKS.md §3: union-2deck 10 per thrown card, hidden card 20; shuangkou 10 per
    wrongly followed card; Guandan penalties carry no points."""
    union = factory.match()
    shuangkou = factory.match(rulebook="shuangkou-simple")
    guandan = factory.match(game="guandan", rulebook="guandan-lyg")

    def catalogue(match: Any) -> dict[str, Any]:
        state = client.get(f"/t/{match.table.token}/match/{match.id}/state").get_json()
        return {item["kind"]: item for item in state["penalty_catalogue"]}

    union_items = catalogue(union)
    assert union_items["failed_throw"]["points"] == 10 and union_items["failed_throw"]["per_card"]
    assert union_items["hidden_card"]["points"] == 20
    assert catalogue(shuangkou)["wrong_follow"]["points"] == 10
    guandan_items = catalogue(guandan)
    assert set(guandan_items) >= {"timeout", "no_report", "wrong_play", "out_of_turn"}
    assert not any(item["has_points"] for item in guandan_items.values())


def _strings(html: str) -> dict[str, str]:
    import json

    found = re.search(r'<script type="application/json" id="table-i18n">(.*?)</script>', html, re.S)
    assert found is not None
    strings: dict[str, str] = json.loads(found.group(1))
    return strings


def test_page_is_chinese_first_and_english_on_switch(client: Any, factory: Any) -> None:
    """Chinese (zh_Hans) first, English through the language switch (issue 5)."""
    match = factory.match()
    url = f"/t/{match.table.token}/match/{match.id}"
    chinese = client.get(url, headers={"Accept-Language": "en-US,en"}).get_data(as_text=True)
    assert "撤销" in chinese
    assert _strings(chinese)["declare"] == "亮主"
    assert _strings(chinese)["trump"] == "将牌"


def test_english_through_the_language_switch(make_app: Any, factory: Any) -> None:
    app = make_app()
    client = app.test_client()
    with app.app_context():
        match = factory.match()
        url = f"/t/{match.table.token}/match/{match.id}"
    client.get(f"/lang/en?next={url}")
    english = client.get(url).get_data(as_text=True)
    assert "Undo (撤销)" in english
    assert _strings(english)["declare"] == "Declare (亮主)"


def test_every_tablet_string_has_a_chinese_translation() -> None:
    """Chinese first: each msgid the tablet's script shows is translated in zh_Hans."""
    from babel.messages.pofile import read_po

    from web.table import TRANSLATIONS
    from web.table.strings import STRINGS

    with (TRANSLATIONS / "zh_Hans" / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        catalog = read_po(handle)
    missing = [value._args[0] for value in STRINGS.values() if not (catalog.get(value._args[0]) and catalog.get(value._args[0]).string)]
    assert missing == []


def test_a_table_with_two_open_matches_lists_them(client: Any, factory: Any) -> None:
    first = factory.match()
    second = factory.match(event=first.event, table=first.table, round=2)
    page = client.get(f"/t/{first.table.token}/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert f"/t/{first.table.token}/match/{first.id}" in html
    assert f"/t/{first.table.token}/match/{second.id}" in html
    assert 'hx-trigger="live"' in html


def test_a_shared_pin_asks_for_the_table_number(client: Any, factory: Any) -> None:
    first = factory.match()
    second = factory.match(event=first.event)
    second.table.pin = first.table.pin
    db.session.commit()
    ambiguous = client.post("/t/", data={"pin": first.table.pin})
    assert ambiguous.status_code == 400
    chosen = client.post("/t/", data={"pin": first.table.pin, "table": str(second.table.number)})
    assert chosen.status_code == 302
    assert chosen.location.endswith(f"/table/{second.table.id}/")


@pytest.fixture
def round_match(client: Any, factory: Any, entry: Entry) -> Any:
    """An eighty-rr match (pass/overcall round, seed 002 3.4) with the players seated."""
    match = factory.match(rulebook="eighty-rr")
    response = post(client, match.table.token, match.id, entry("seat", 0, players=["赵", "钱", "孙", "李"]))
    assert response.status_code == 200, response.get_json()
    return match


def test_pass_in_the_declaration_round_000_s002_3_4(client: Any, round_match: Any, entry: Entry) -> None:
    """不反: a seat passes; its overcall afterwards is a violation named by rule id, in Chinese."""
    token, mid = round_match.table.token, round_match.id
    page = client.get(f"/t/{token}/match/{mid}").get_data(as_text=True)
    assert _strings(page)["pass_round"] == "不反"
    post(client, token, mid, entry("event", 1, event={"type": "declare", "seat": 0, "cards": ["2S"]}))
    passed = post(client, token, mid, entry("event", 2, event={"type": "pass", "seat": 1}))
    assert passed.status_code == 200, passed.get_json()
    state = passed.get_json()["state"]
    assert state["rulebook"]["declaration_round"] is True
    assert [(r["seat"], r["label"]) for r in state["deal"]["declarations"]][1] == (1, "不反")
    late = {"type": "overcall", "seat": 1, "cards": ["2H", "2H"]}
    response = post(client, token, mid, entry("event", 3, event=late))
    assert response.status_code == 200, response.get_json()
    deal = response.get_json()["state"]["deal"]
    (violation,) = deal["violations"]
    assert violation["rule_id"] == "shengji.round.overcall_after_pass"
    assert violation["rule"] == "已表示不反" and violation["seat"] == 1
    refused = deal["declarations"][-1]
    assert refused["accepted"] is False and refused["effect"] == "已表示不反"


def test_round_rule_in_english_after_the_switch(client: Any, round_match: Any, entry: Entry) -> None:
    token, mid = round_match.table.token, round_match.id
    client.get("/lang/en")
    post(client, token, mid, entry("event", 1, event={"type": "declare", "seat": 0, "cards": ["2S"]}))
    post(client, token, mid, entry("event", 2, event={"type": "pass", "seat": 1}))
    late = {"type": "overcall", "seat": 1, "cards": ["2H", "2H"]}
    deal = post(client, token, mid, entry("event", 3, event=late)).get_json()["state"]["deal"]
    assert deal["violations"][0]["rule"] == "an overcall after passing (已表示不反)"


def test_pass_is_harmless_without_the_round(client: Any, seated: Any, entry: Entry) -> None:
    """union-2deck has no pass/overcall round: a pass is only noted, nothing is violated."""
    token = seated.table.token
    post(client, token, seated.id, entry("event", 1, event={"type": "declare", "seat": 0, "cards": ["2S"]}))
    response = post(client, token, seated.id, entry("event", 2, event={"type": "pass", "seat": 1}))
    assert response.status_code == 200, response.get_json()
    state = response.get_json()["state"]
    assert state["rulebook"]["declaration_round"] is False
    assert state["deal"]["violations"] == [] and state["deal"]["phase"] == "declaring"


def test_every_declaration_rule_id_is_shown_in_chinese(client: Any, round_match: Any) -> None:
    """Each id of the engine's RULE_IDS (shengji.round.* included) has Chinese text on the page."""
    from referee.shengji.declaration import RULE_IDS

    page = client.get(f"/t/{round_match.table.token}/match/{round_match.id}").get_data(as_text=True)
    rules = _strings(page)["rules"]
    assert set(rules) == set(RULE_IDS)
    for rule_id, text in rules.items():
        assert text and not re.search(r"[A-Za-z]", text), (rule_id, text)
    assert rules["shengji.round.out_of_turn"] == "未轮到表态"
    assert rules["shengji.round.incomplete"] == "三家未表态完"


def test_pass_before_any_declaration_is_refused_with_its_rule_id(
    client: Any, round_match: Any, entry: Entry
) -> None:
    """A pass with nothing declared does not count: `shengji.round.no_declaration`, in Chinese."""
    token, mid = round_match.table.token, round_match.id
    response = post(client, token, mid, entry("event", 1, event={"type": "pass", "seat": 1}))
    assert response.status_code == 200, response.get_json()
    deal = response.get_json()["state"]["deal"]
    assert [(v["rule_id"], v["rule"]) for v in deal["violations"]] == [
        ("shengji.round.no_declaration", "无人亮主")
    ]
    assert deal["declarations"][0]["accepted"] is False


def test_trump_badge_shows_the_accepted_call_while_calls_are_open_000_s13(
    client: Any, seated: Any, entry: Entry
) -> None:
    """000 第十三条 亮主: once 2♠ is declared the tablet shows ♠ as trump (an overcall may
    still change it); before any call the trump is unknown, not "no trump"."""
    token = seated.table.token
    before = client.get(f"/t/{token}/match/{seated.id}/state").get_json()
    assert before["deal"] is None or not before["deal"]["trump_known"]
    response = post(client, token, seated.id, entry("event", 1, event={"type": "declare", "seat": 0, "cards": ["2S"]}))
    deal = response.get_json()["state"]["deal"]
    assert deal["phase"] == "declaring"
    assert deal["trump_known"] and deal["trump_suit"] == "S"
