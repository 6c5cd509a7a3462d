"""`flask demo load`: a director, both games, tables and simulated matches; idempotent."""

from __future__ import annotations

from web.extensions import db
from web.models import Event, LogEntry, Match, User


def test_demo_load_creates_both_games_and_is_idempotent(runner):
    result = runner.invoke(args=["demo", "load"])
    assert result.exit_code == 0, result.output
    assert "director" in result.output and "/t/" in result.output
    events = db.session.execute(db.select(Event)).scalars().all()
    assert sorted(e.game for e in events) == ["guandan", "shengji"]
    assert all(len(e.tables) >= 2 for e in events)
    matches = db.session.execute(db.select(Match)).scalars().all()
    assert all(m.last_seq > 0 for m in matches)
    assert any(not m.state_cache.get("finished") for m in matches)  # one still in play
    assert any(m.state_cache.get("finished") for m in matches)
    user = db.session.execute(db.select(User)).scalar_one()
    assert user.check_password("referee-demo")
    entries = db.session.query(LogEntry).count()
    again = runner.invoke(args=["demo", "load"])
    assert again.exit_code == 0, again.output
    assert db.session.execute(db.select(Event)).scalars().all() == events
    assert db.session.query(LogEntry).count() == entries


def test_director_cli_adds_a_login_and_changes_its_password(runner, client, login):
    result = runner.invoke(args=["director", "add", "chief"], input="pw-one\npw-one\n")
    assert result.exit_code == 0, result.output
    assert runner.invoke(args=["director", "add", "chief"], input="x\nx\n").exit_code != 0
    assert login(client, "chief", "pw-one").status_code == 302
    result = runner.invoke(args=["director", "password", "chief"], input="pw-two\npw-two\n")
    assert result.exit_code == 0, result.output
    user = db.session.execute(db.select(User).filter_by(username="chief")).scalar_one()
    assert user.check_password("pw-two") and not user.check_password("pw-one")
