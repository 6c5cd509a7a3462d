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


def test_zh_hans_catalog_translates_every_main_catalog_msgid():
    """Every msgid extracted for the main catalog (events, director, public … pages) has a
    Chinese translation that is neither empty nor fuzzy, and the .mo is not older."""
    from pathlib import Path

    from babel.messages.pofile import read_po

    root = Path(__file__).resolve().parents[2] / "translations"
    template = read_po((root / "messages.pot").open("rb"))
    catalog = read_po((root / "zh_Hans" / "LC_MESSAGES" / "messages.po").open("rb"))
    missing = []
    for message in template:
        if not message.id:
            continue
        translated = catalog.get(message.id)
        strings = [] if translated is None else (
            list(translated.string) if isinstance(translated.string, tuple) else [translated.string]
        )
        if translated is None or translated.fuzzy or not strings or not all(strings):
            missing.append(message.id)
    assert missing == []
    mo = root / "zh_Hans" / "LC_MESSAGES" / "messages.mo"
    assert mo.stat().st_mtime >= (root / "zh_Hans" / "LC_MESSAGES" / "messages.po").stat().st_mtime - 1


def test_event_pages_speak_chinese(director_client, factory):
    """Rounds, pairings and standings pages in the default language use the tournament
    terms (轮次, 对阵, 积分榜, 轮空) and none of the English labels."""
    import re

    from events_helpers import make_event

    from web.events import services as ts

    event = make_event(factory, 5)
    ts.open_round(event.id, actor="td", seed=1)
    rounds = director_client.get(f"/events/{event.id}/rounds").get_data(as_text=True)
    pairings = director_client.get(f"/events/{event.id}/rounds/1").get_data(as_text=True)
    standings = director_client.get(f"/events/{event.id}/standings").get_data(as_text=True)
    assert "第 1 轮" in rounds and "轮空" in rounds
    assert "积分榜" in pairings and "轮空" in pairings
    assert "积分榜" in standings
    for page in (rounds, pairings, standings):
        text = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", page, flags=re.S)
        text = re.sub(r"<[^>]+>", " ", text)
        for english in ("Round", "Standings", "play-off", "Pairings", "Table", "bye", "Close round"):
            assert not re.search(rf"\b{re.escape(english)}\b", text), english
