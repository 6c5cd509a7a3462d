"""Translations: Chinese (zh_Hans) by default, English on request, engine ids by id."""

from __future__ import annotations

from web import services


def test_chinese_is_the_default_and_english_is_one_click_away(client, factory):
    factory.event(name="春季赛")
    page = client.get("/").data.decode()
    assert "牌桌裁判" in page and "赛事" in page and 'lang="zh-Hans"' in page
    response = client.get("/lang/en?next=/")
    assert response.status_code == 302 and response.headers["Location"] == "/"
    page = client.get("/").data.decode()
    assert "Table Referee" in page and "Event" in page and 'lang="en"' in page
    client.get("/lang/zh_Hans")
    assert "牌桌裁判" in client.get("/").data.decode()


def test_english_browser_still_gets_chinese_first(client, factory):
    """Chinese first (issue 5): Accept-Language is ignored; only the switch gives English."""
    headers = {"Accept-Language": "en-GB,en;q=0.9"}
    match = factory.match()
    for url in ("/", f"/t/{match.table.token}/match/{match.id}"):
        page = client.get(url, headers=headers).data.decode()
        assert 'lang="zh-Hans"' in page and "牌桌裁判" in page, url
    client.get("/lang/en")
    assert 'lang="en"' in client.get("/", headers=headers).data.decode()


def test_rejected_event_message_is_translated(client, factory):
    match = factory.match(rulebook="shuangsheng-17")
    body = {"event": {"type": "declare", "seat": 0, "cards": ["XX"]}, "expected_seq": 0,
            "idempotency_key": "k"}
    url = f"/api/t/{match.table.token}/matches/{match.id}/events"
    zh = client.post(url, json=body)
    assert zh.status_code == 422 and "规则引擎拒绝了此记录" in zh.json["message"]
    client.get("/lang/en")
    en = client.post(url, json={**body, "idempotency_key": "k2"})
    assert en.json["message"].startswith("The engine rejected this entry")
    assert services.match_state(match.id)["seq"] == 0


def test_error_pages_are_translated(client):
    assert "没有这个页面" in client.get("/no/such/page").data.decode()
    client.get("/lang/en")
    assert "There is no such page" in client.get("/no/such/page").data.decode()


def test_rejection_explains_the_rule_id_in_chinese(client, factory):
    """A trick before the bury: the engine's `record.order.play_before_bury`, explained."""
    from referee.rulebooks import find_rulebook
    from referee.shengji.simulate import simulate_match

    match = factory.match(rulebook="shuangsheng-17")
    events = simulate_match(find_rulebook("shuangsheng-17"), 3)["deals"][0]["events"]
    declare = next(e for e in events if e["type"] in ("declare", "flip"))
    trick = next(e for e in events if e["type"] == "trick")
    services.append_event(match.id, declare, expected_seq=0, idempotency_key="d", actor="r", device="t")
    url = f"/api/t/{match.table.token}/matches/{match.id}/events"
    response = client.post(url, json={"event": trick, "expected_seq": 1, "idempotency_key": "t"})
    assert response.status_code == 422
    assert response.json["rule_id"] == "record.order.play_before_bury"
    assert "扣底必须在第一轮出牌之前" in response.json["message"]
