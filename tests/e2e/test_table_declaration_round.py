"""The 不反 (pass) button in the declaration panel (eighty-rr pass/overcall round, seed 002 3.4).

The three seats after the declarer, from its 下家, each pass or overcall once in turn; the
tablet logs a pass in two taps (seat, 不反) and shows a broken round rule in Chinese by its
rule id (`shengji.round.*`).
"""

from __future__ import annotations

from typing import Any

from test_table_entry import Tablet, log_kinds, seed_match
from test_table_screens import check


def test_pass_button_logs_a_pass_and_shows_round_violations_000_s002_3_4(
    live_app: Any, live_server: str, page: Any
) -> None:
    token, match_id = seed_match(live_app, rulebook="eighty-rr")
    tablet = Tablet(page, live_server, token, match_id).open()
    tablet.declare_two_spades()
    assert page.inner_text("#btn-pass") == "不反"
    assert "表态" in page.inner_text("#round-hint")
    # 不反 by seat 1 (the declarer's 下家): two taps
    taps = tablet.taps
    tablet.seat(1)
    tablet.tap("#btn-pass")
    tablet.settle(4)
    assert tablet.taps - taps == 2
    events = tablet.state()["deal"]["declarations"]
    assert [(row["seat"], row["kind"]) for row in events] == [(0, "declare"), (1, "pass")]
    assert "不反" in page.inner_text(".decl-history")
    assert "不反 · 钱" in page.inner_text("#recent") and "不要" not in page.inner_text("#recent")
    assert "null" not in page.inner_text("#actionbar")
    check(page, "shengji-declare-pass-landscape")
    # seat 1 overcalls after passing: the engine refuses the call and the rule shows in Chinese
    tablet.seat(1)
    tablet.card("2H")
    tablet.card("2H")
    tablet.tap("#btn-overcall")
    tablet.settle(5)
    violation = page.locator('#answer .violation[data-rule="shengji.round.overcall_after_pass"]')
    assert "已表示不反" in violation.inner_text()
    assert page.locator(".decl-history .refused").count() == 1
    assert log_kinds(live_app, match_id)[-2:] == ["event", "event"]
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_pass_button_needs_a_seat_and_no_cards(live_app: Any, live_server: str, page: Any) -> None:
    """The button stays off until a seat is tapped, and while cards are picked (then it is a call)."""
    token, match_id = seed_match(live_app, rulebook="eighty-rr")
    tablet = Tablet(page, live_server, token, match_id).open()
    tablet.seat_players(["赵", "钱", "孙", "李"])
    tablet.tap("#next-deal")
    tablet.settle(2)
    assert page.is_disabled("#btn-pass")
    tablet.seat(2)
    assert page.is_enabled("#btn-pass")
    tablet.card("2H")
    assert page.is_disabled("#btn-pass")
