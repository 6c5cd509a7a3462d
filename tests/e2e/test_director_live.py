"""End to end: the public table page follows a match live (SSE), without a reload."""

from __future__ import annotations

import uuid

from director_fixtures import seed_match


def test_public_table_page_follows_the_match_without_reload(live_app, live_server, page):
    from web import services

    seed = seed_match(live_app, deals=1)
    page.goto(f"{live_server}/public/matches/{seed['match_id']}")
    page.wait_for_selector("#state.live-connected")
    assert page.locator(".deal-no").inner_text().strip() == "1"
    page.evaluate("() => { window.__same = true; }")
    with live_app.app_context():
        services.append_event(
            seed["match_id"],
            seed["next_deal"]["events"][0],
            expected_seq=seed["state_seq"],
            idempotency_key=uuid.uuid4().hex,
            actor="table:1",
            device="e2e",
        )
    page.wait_for_function("() => document.querySelector('.deal-no').innerText.trim() === '2'")
    assert page.evaluate("() => window.__same") is True
    assert page.locator("form").count() == 0  # public: read-only
    assert page.console_errors == []
