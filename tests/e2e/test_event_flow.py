"""A director runs a 3-round eighty-rr event with 8 pairs in Chromium, from pairing to final
standings; results come in through the services (quick `result` events), the director
confirms the scoresheets and closes each round on the page. Screenshots of the standings
and the hall display at 1024×768 go to `$EVENT_SHOTS` (default: the test's tmp dir)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from events_helpers import finish_eighty  # noqa: E402

PAIRS = 8


def _seed(live_app: Any) -> int:
    from web.extensions import db
    from web.models import Event, Pair, Player, User

    with live_app.app_context():
        if db.session.execute(db.select(User).filter_by(username="td-e2e")).scalar_one_or_none() is None:
            user = User(username="td-e2e", is_director=True)
            user.set_password("secret-pass")
            db.session.add(user)
        event = Event(name="八十分积分循环赛", game="shengji", rulebook="eighty-rr", options={})
        db.session.add(event)
        for i in range(PAIRS):
            pair = Pair(event=event, name=f"第{i + 1}队", club=f"单位{i % 4}")
            pair.players = [Player(name=f"甲{i + 1}", position=0), Player(name=f"乙{i + 1}", position=1)]
            db.session.add(pair)
        db.session.commit()
        return int(event.id)


def _finish_round(live_app: Any, event_id: int, number: int) -> None:
    """Results at every table: the N/S pair wins, except at table 1 (E/W wins)."""
    from web.extensions import db
    from web.models import Match

    with live_app.app_context():
        matches = db.session.execute(
            db.select(Match).filter_by(event_id=event_id, round=number)
        ).scalars().all()
        for match in matches:
            finish_eighty(match.id, 1 if match.table and match.table.number == 1 else 0)
        db.session.remove()


def test_director_runs_three_rounds_to_final_standings(
    live_app: Any, live_server: str, page: Any, tmp_path: Path
) -> None:
    event_id = _seed(live_app)
    shots = Path(os.environ.get("EVENT_SHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)

    page.goto(f"{live_server}/director/login")
    page.fill("input[name=username]", "td-e2e")
    page.fill("input[name=password]", "secret-pass")
    page.click("input[type=submit], button[type=submit]")
    page.wait_for_load_state()

    rounds_url = f"{live_server}/events/{event_id}/rounds"
    for number in (1, 2, 3):
        page.goto(rounds_url)
        if number == 1:
            page.fill("input[name=seed]", "20261129")
        page.click("#open-round")
        page.wait_for_selector("#round-matches")
        if number == 1:
            page.screenshot(path=str(shots / "rounds.png"), full_page=True)
        assert page.locator("#round-matches tbody tr").count() == PAIRS // 2
        _finish_round(live_app, event_id, number)
        for _ in range(PAIRS // 2):
            page.goto(rounds_url)
            page.locator("button.confirm").first.click()
            page.wait_for_load_state()
        page.goto(rounds_url)
        assert page.locator("button.confirm").count() == 0
        page.click("#close-round")
        page.wait_for_load_state()
        assert page.locator(".round-status-closed").count() == number

    page.goto(f"{live_server}/events/{event_id}/standings")
    rows = page.locator("#standings-table tbody tr")
    assert rows.count() == PAIRS
    first = rows.nth(0).locator("td").all_inner_texts()
    assert first[0] == "1"
    total = sum(float(rows.nth(i).locator("td.tb").first.inner_text()) for i in range(PAIRS))
    assert total == 2 * (PAIRS // 2) * 3  # 2 match points per match, 4 matches, 3 rounds
    page.screenshot(path=str(shots / "standings.png"), full_page=False)

    # no pair met another twice in three rounds
    pairings = page.request.get(f"{live_server}/events/{event_id}/export/pairings.json").json()
    met = [frozenset((p["home_id"], p["away_id"])) for p in pairings]
    assert len(met) == len(set(met)) == 12

    page.goto(f"{live_server}/events/{event_id}/hall?cycle=3")
    page.wait_for_selector(".hall-tables, .hall-standings")
    assert "八十分积分循环赛" in page.inner_text("h1")
    page.screenshot(path=str(shots / "hall_tables.png"))
    page.wait_for_selector(".hall-standings", timeout=8000)
    assert page.locator(".hall-standings tr").count() == PAIRS
    page.screenshot(path=str(shots / "hall_standings.png"))
    assert not [e for e in page.console_errors if "hall" in e or "clock" in e]


def test_hall_display_updates_itself_when_a_result_comes_in(
    live_app: Any, live_server: str, page: Any
) -> None:
    """The hall display listens to the event's live stream: a finished match shows up
    without a reload."""
    from web.events import services as ts
    from web.extensions import db
    from web.models import Event, Match, Pair, Player

    with live_app.app_context():
        event = Event(name="大屏测试", game="shengji", rulebook="eighty-rr", options={})
        db.session.add(event)
        for i in range(2):
            pair = Pair(event=event, name=f"甲队{i}")
            pair.players = [Player(name=f"东{i}", position=0), Player(name=f"西{i}", position=1)]
            db.session.add(pair)
        db.session.commit()
        event_id = int(event.id)
        ts.open_round(event_id, actor="td", seed=1)
        match_id = int(db.session.execute(db.select(Match).filter_by(event_id=event_id)).scalar_one().id)
        db.session.remove()

    page.goto(f"{live_server}/events/{event_id}/hall?cycle=60")
    page.wait_for_selector(".hall-tables")
    assert page.locator(".hall-done").count() == 0
    with live_app.app_context():
        finish_eighty(match_id, 0)
        db.session.remove()
    page.wait_for_selector(".hall-done", timeout=10_000)
    assert "10 : 4" in page.inner_text(".hall-tables") or "10:4" in page.inner_text(".hall-tables")


def test_referee_starts_the_match_clock_on_the_tablet(
    live_app: Any, live_server: str, page: Any
) -> None:
    """union-2deck: 2 hours (seed 000 每局两个小时), started by the referee, counting down."""
    from web.events import services as ts
    from web.extensions import db
    from web.models import Event, Match, Pair, Player

    with live_app.app_context():
        event = Event(name="计时测试", game="shengji", rulebook="union-2deck", options={})
        db.session.add(event)
        for i in range(2):
            pair = Pair(event=event, name=f"乙队{i}")
            pair.players = [Player(name=f"南{i}", position=0), Player(name=f"北{i}", position=1)]
            db.session.add(pair)
        db.session.commit()
        ts.open_round(int(event.id), actor="td")
        match = db.session.execute(db.select(Match).filter_by(event_id=event.id)).scalar_one()
        url = f"{live_server}/t/{match.table.token}/match/{match.id}"
        match_id = int(match.id)
        db.session.remove()

    page.goto(url)
    clock = page.locator("[data-clock]")
    assert clock.locator(".clock-time").inner_text() == "2:00:00"
    clock.locator(".clock-start").click()
    page.wait_for_function(
        "document.querySelector('[data-clock] .clock-time').textContent.startsWith('1:59:')",
        timeout=5000,
    )
    assert clock.locator(".clock-start").is_hidden()
    with live_app.app_context():
        info = ts.clock_info(match_id)
        db.session.remove()
    assert info is not None and info["running"] and info["remaining"] < 7200
