"""Two tablets, Wi-Fi drops and lost answers: never a lost or doubled entry (issue 5).

- A second tablet at the same table sees the first one's entries live (SSE, no reload).
- A tablet whose entry was built on a stale view gets a conflict (409), a refreshed view
  and a choice; nothing is stored twice.
- Offline, entries queue in localStorage with a visible "offline / N pending" badge, survive
  a reload, and are sent with the same idempotency key when the network is back.
- An answer lost on the way back: the retry with the same key is stored once.
- An entry the engine rejects shows the translated message and changes nothing.
"""

from __future__ import annotations

from typing import Any

from test_table_entry import Tablet, log_kinds, seed_match

TABLET = {"width": 1024, "height": 768}



def tap_trick(tablet: Tablet, plays: list[str]) -> None:
    for card in plays:
        tablet.card(card)
    tablet.tap("#confirm")


def second_tablet(browser: Any, url: str) -> tuple[Any, Any]:
    context = browser.new_context(viewport=TABLET, locale="zh-CN", has_touch=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("window.tableApp !== undefined")
    return context, page


def test_second_tablet_sees_entries_live_and_a_stale_entry_conflicts(
    live_app: Any, live_server: str, browser: Any, page: Any
) -> None:
    token, match_id = seed_match(live_app)
    first = Tablet(page, live_server, token, match_id).open()
    first.ready_to_play()
    context, other_page = second_tablet(browser, first.url)
    try:
        second = Tablet(other_page, live_server, token, match_id)
        second.settle(4)
        # live: the first tablet's trick appears on the second without a reload
        tap_trick(first, ["KH", "AH", "5H", "3H"])
        first.settle(5)
        second.settle(5)
        assert second.state()["deal"]["last_trick"]["winner"] == 1
        # the second tablet loses its connection and enters the next trick on a stale view
        context.set_offline(True)
        tap_trick(second, ["AS", "KS", "QS", "JS"])
        other_page.wait_for_function(
            "document.getElementById('net-badge').classList.contains('offline')"
        )
        assert "1" in other_page.inner_text("#net-badge")
        # meanwhile the first tablet logs that trick correctly
        tap_trick(first, ["AS", "3S", "QS", "JS"])
        first.settle(6)
        context.set_offline(False)
        other_page.evaluate("window.dispatchEvent(new Event('online'))")
        other_page.wait_for_selector("#banner.conflict")
        second.settle(6)
        assert other_page.is_visible("#held-discard")
        plays = second.state()["deal"]["last_trick"]
        assert plays["winner"] == 1  # the refreshed view shows the first tablet's trick
        # the held entry survives a reload until the referee decides
        other_page.reload()
        other_page.wait_for_selector("#banner.conflict #held-discard")
        other_page.click("#held-discard")
        assert other_page.inner_text("#net-badge") == "在线"
        assert other_page.evaluate(f"localStorage.getItem('tr-held-{match_id}')") == "[]"
        assert log_kinds(live_app, match_id).count("event") == 4  # declare, bury, 2 tricks
    finally:
        context.close()


def test_offline_entries_survive_a_reload_and_are_sent_once(
    live_app: Any, live_server: str, page: Any, context: Any
) -> None:
    token, match_id = seed_match(live_app)
    tablet = Tablet(page, live_server, token, match_id).open()
    tablet.ready_to_play()
    context.set_offline(True)
    tap_trick(tablet, ["KH", "AH", "5H", "3H"])
    page.wait_for_function("document.getElementById('net-badge').classList.contains('offline')")
    badge = page.inner_text("#net-badge")
    assert "离线" in badge and "1" in badge
    stored = page.evaluate(f"JSON.parse(localStorage.getItem('tr-outbox-{match_id}'))")
    assert len(stored) == 1 and stored[0]["body"]["event"]["type"] == "trick"
    key = stored[0]["key"]
    # the tablet is reloaded while the server is still unreachable: the entry stays queued
    page.route("**/post", lambda route: route.abort())
    context.set_offline(False)
    page.reload()
    page.wait_for_function("window.tableApp !== undefined")
    page.wait_for_function("window.tableApp.queue.pending === 1")
    assert page.evaluate(f"JSON.parse(localStorage.getItem('tr-outbox-{match_id}'))[0].key") == key
    page.unroute("**/post")
    page.evaluate("window.dispatchEvent(new Event('online'))")
    tablet.settle(5)
    assert tablet.state()["deal"]["last_trick"]["points"] == 15
    assert log_kinds(live_app, match_id).count("event") == 3
    assert page.inner_text("#net-badge") == "在线"


def test_a_lost_answer_is_retried_with_the_same_key_and_stored_once(
    live_app: Any, live_server: str, page: Any
) -> None:
    token, match_id = seed_match(live_app)
    tablet = Tablet(page, live_server, token, match_id).open()
    tablet.ready_to_play()
    keys: list[str] = []

    def lose_the_answer(route: Any) -> None:
        keys.append(route.request.post_data_json["idempotency_key"])
        route.fetch()  # the server stores the trick…
        route.abort()  # …but the answer never reaches the tablet

    # Playwright tries the most recent route first: the one-shot loser, then the pass-through
    page.route("**/post", lambda route: (keys.append(route.request.post_data_json["idempotency_key"]), route.continue_()))
    page.route("**/post", lose_the_answer, times=1)
    page.evaluate("window.tableApp.queue.retryMs = 200")
    tap_trick(tablet, ["KH", "AH", "5H", "3H"])
    tablet.settle(5)
    assert len(keys) >= 2 and len(set(keys)) == 1
    assert log_kinds(live_app, match_id).count("event") == 3
    page.wait_for_selector("#banner.info")


def test_a_rejected_entry_shows_the_message_and_changes_nothing(
    live_app: Any, live_server: str, page: Any
) -> None:
    """A trick before the bury is an invalid record: the tablet says why, nothing is stored."""
    token, match_id = seed_match(live_app)
    tablet = Tablet(page, live_server, token, match_id).open()
    tablet.declare_two_spades()
    tablet.tab("tricks")
    tablet.seat(0)  # nobody leads before the bury: the referee picks the leader
    tap_trick(tablet, ["KH", "AH", "5H", "3H"])
    page.wait_for_selector("#banner.error")
    assert "扣底" in page.inner_text("#banner")
    page.wait_for_function("window.tableApp.queue.pending === 0")
    assert tablet.seq() == 3
    assert log_kinds(live_app, match_id).count("event") == 1


def test_the_table_home_list_refreshes_live(live_app: Any, live_server: str, page: Any) -> None:
    """The table's match list follows the matches live (htmx on the table's channel)."""
    from web import services

    token, match_id = seed_match(live_app)
    page.goto(f"{live_server}/t/{token}/?list=1")
    page.wait_for_selector("[data-live].live-connected")
    before = page.inner_text("#match-list")
    with live_app.app_context():
        services.set_seats(match_id, ["赵", "钱", "孙", "李"], expected_seq=0, actor="t", device="t")
        services.append_event(match_id, {"type": "declare", "seat": 0, "cards": ["2S"]},
                              expected_seq=1, idempotency_key="live-list-1", actor="t", device="t")
    page.wait_for_function("t => document.getElementById('match-list').innerText !== t", arg=before)
    assert "1" in page.inner_text("#match-list .meta")


def test_a_trick_begun_before_the_other_tablets_entry_is_held_not_doubled(
    live_app: Any, live_server: str, browser: Any, page: Any
) -> None:
    """Both online: B begins the trick, A logs it first; B's confirm is held (never a
    second copy of the trick) and B's view already shows A's trick."""
    token, match_id = seed_match(live_app)
    first = Tablet(page, live_server, token, match_id).open()
    first.ready_to_play()
    context, other_page = second_tablet(browser, first.url)
    try:
        second = Tablet(other_page, live_server, token, match_id)
        second.settle(4)
        second.card("KH")  # B begins
        tap_trick(first, ["KH", "AH", "5H", "3H"])  # A logs the same trick
        first.settle(5)
        second.settle(5)  # B sees it live
        for card in ["AH", "5H", "3H"]:
            second.card(card)
        second.tap("#confirm")
        other_page.wait_for_selector("#banner.conflict")
        assert log_kinds(live_app, match_id).count("event") == 3
        other_page.click("#held-discard")
        assert second.state()["seq"] == 5
    finally:
        context.close()
