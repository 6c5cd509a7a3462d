"""A Guandan (掼蛋) deal logged by taps: plays and passes seat by seat, reports (报牌),
the finishing order, then the next deal's tribute (进贡) and return (还贡) (issue 5).

The taps follow a simulated record; the tablet's result must equal the engine's replay.
"""

from __future__ import annotations

from typing import Any

from test_table_entry import Tablet, seed_match, simulated

from referee.record import replay_document


def play_event(tablet: Tablet, event: dict[str, Any], check_turn: bool) -> None:
    kind = event["type"]
    before = tablet.seq()
    if kind in ("play", "pass"):
        if check_turn:
            assert tablet.turn() == event["seat"], "the engine's next seat to play is highlighted"
        elif tablet.turn() != event["seat"]:
            tablet.seat(event["seat"])
        if kind == "play":
            for card in event["cards"]:
                tablet.card(card)
            tablet.tap("#confirm")
        else:
            tablet.tap("#btn-pass")
    elif kind == "report":
        tablet.tap("#btn-report")
        tablet.tap(f'.report-seat button[data-value="{event["seat"]}"]')
        tablet.tap(f'.report-row button[data-value="{event["remaining"]}"]')
    elif kind in ("tribute", "return"):
        if tablet.page.evaluate("window.tableApp.mode") != "tribute":
            tablet.tab("tribute")
        tablet.tap(f'#panel button[data-value="{kind}"]')
        tablet.seat(event["from"])
        tablet.seat(event["to"])
        tablet.card(event["card"])
        tablet.tap("#confirm")
    else:  # pragma: no cover - the simulator's deals hold only these
        raise AssertionError(f"unexpected event {kind}")
    tablet.settle(before + 1)


def test_referee_logs_a_guandan_deal_by_taps(live_app: Any, live_server: str, page: Any) -> None:
    doc = simulated("guandan", 1)
    first, second = doc["deals"][0], doc["deals"][1]
    token, match_id = seed_match(live_app, game="guandan", rulebook="guandan-lyg")
    tablet = Tablet(page, live_server, token, match_id).open()
    tablet.seat_players(doc["players"])
    tablet.tap("#next-deal")
    tablet.settle(2)
    assert page.evaluate("window.tableApp.mode") == "play"
    for index, event in enumerate(first["events"]):
        play_event(tablet, event, check_turn=index > 0)
    state = tablet.state()
    expected = replay_document({**doc, "deals": [first]})["deals"][0]
    assert state["deal"]["phase"] == "finished"
    assert state["deal"]["order"] == expected["order"]
    assert state["deal"]["levels_after"] == expected["levels_after"]
    assert state["deal"]["violations"] == []
    page.wait_for_selector("#outcome")

    # the next deal opens with the tribute: 进贡 and 还贡 by taps, then the first plays
    tablet.tap("#next-deal")
    tablet.settle(tablet.seq())
    page.wait_for_function("window.tableApp.state.deal.number === 2")
    assert page.evaluate("window.tableApp.mode") in ("tribute", "play")
    opening = [e for e in second["events"][:8]]
    for event in opening:
        play_event(tablet, event, check_turn=False)
    expected2 = replay_document({**doc, "deals": [first, {**second, "events": opening}]})["deals"][1]
    assert tablet.state()["deal"]["violations"] == []
    assert tablet.state()["deal"]["next_to_play"] == expected2["next_to_play"]
    assert page.console_errors == []


def test_quick_entry_of_the_finishing_order(live_app: Any, live_server: str, page: Any) -> None:
    """Quick mode: the four seats tapped in finishing order become one `result` event."""
    token, match_id = seed_match(live_app, game="guandan", rulebook="guandan-lyg")
    tablet = Tablet(page, live_server, token, match_id).open()
    tablet.seat_players(["东", "南", "西", "北"])
    tablet.tap("#next-deal")
    tablet.settle(2)
    tablet.tab("order")
    for seat in (2, 1, 0, 3):
        tablet.seat(seat)
    tablet.tap("#confirm")
    tablet.settle(3)
    state = tablet.state()
    assert state["deal"]["phase"] == "finished"
    assert state["deal"]["order"] == [2, 1, 0, 3]
    assert state["deal"]["levels_after"] == ["4", "2"]  # partner 3rd: +2 (RULEBOOKS.md §4)
