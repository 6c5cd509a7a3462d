"""End to end: the director logs in, corrects a logged event with a reason, and the live
overview updates without a reload when a table logs."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from director_fixtures import PASSWORD, seed_match


def _login(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/director/login")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url(re.compile(r".*/director/$"))


def test_director_corrects_an_event_with_a_reason(live_app, live_server, page):
    seed = seed_match(live_app)
    _login(page, live_server, seed["username"])
    match_id = seed["match_id"]
    page.goto(f"{live_server}/director/matches/{match_id}")
    # The fifth event of deal 1 (a trick): swap two followers' cards.
    seq = seed["event_seqs"][0][4]
    original = seed["record"]["deals"][0]["events"][4]
    assert original["type"] == "trick"
    page.click(f"#seq-{seq} a.correct-link")
    page.wait_for_url(re.compile(rf".*/correct/{seq}$"))
    textarea = page.locator("textarea[name=event_json]")
    assert json.loads(textarea.input_value()) == original
    plays = original["plays"]
    corrected = {**original, "plays": [plays[0], plays[3], plays[2], plays[1]]}
    textarea.fill(json.dumps(corrected))
    page.fill("input[name=reason]", "座位 1 和 3 录反")
    page.click("input[type=submit]")
    page.wait_for_url(re.compile(rf".*/director/matches/{match_id}.*"))
    assert page.locator(".flash-success").inner_text().strip() in ("更正已保存。", "Correction saved.")
    row = page.locator(f"#seq-{seq}")
    assert "corrected" in (row.get_attribute("class") or "")
    assert page.locator("#corrections").inner_text().count("座位 1 和 3 录反") == 1
    # The scoresheet lists the correction with its reason.
    page.goto(f"{live_server}/public/matches/{match_id}/scoresheet")
    assert "座位 1 和 3 录反" in page.locator("section.notes").inner_text()
    assert page.console_errors == []


def test_director_correction_that_the_engine_refuses_changes_nothing(live_app, live_server, page):
    seed = seed_match(live_app, deals=1)
    _login(page, live_server, seed["username"])
    seq = seed["event_seqs"][0][0]
    page.goto(f"{live_server}/director/matches/{seed['match_id']}/correct/{seq}")
    page.fill("textarea[name=event_json]", '{"type": "declare", "seat": 0, "cards": ["QQ"]}')
    page.fill("input[name=reason]", "typo")
    page.click("input[type=submit]")
    assert "QQ" in page.locator(".has-error .error").first.inner_text()
    from web import services

    with live_app.app_context():
        assert services.corrections(seed["match_id"]) == []


def test_overview_updates_live_when_a_table_logs(live_app, live_server, page):
    """The director's overview refreshes itself over SSE: no reload."""
    from web import services

    seed = seed_match(live_app, deals=1)
    _login(page, live_server, seed["username"])
    page.goto(f"{live_server}/director/events/{seed['event_id']}/overview")
    row = page.locator(f"#match-{seed['match_id']}")
    assert f"#{seed['state_seq']}" in row.inner_text()
    page.wait_for_selector("#overview.live-connected")
    marker = page.evaluate("() => (window.__noReload = 'still here')")
    with live_app.app_context():
        services.append_event(
            seed["match_id"],
            seed["next_deal"]["events"][0],
            expected_seq=seed["state_seq"],
            idempotency_key=uuid.uuid4().hex,
            actor="table:1",
            device="e2e",
        )
    new_seq = seed["state_seq"] + 2  # the next deal opens, then its first event
    page.wait_for_function(
        f"() => document.querySelector('#match-{seed['match_id']}').innerText.includes('#{new_seq}')"
    )
    assert page.evaluate("() => window.__noReload") == marker
    assert page.console_errors == []
