"""The eighty-rr pass/overcall round (seed 002 3.4, RULEBOOKS.md §2).

"在抓原始底牌前，从亮主级牌家的下家开始表示是否反主，依次类推，等三家表示完后，庄家方可
拿底牌": from the declarer's 下家 round the table each of the other three says pass (不反,
event `pass`) or overcalls, once and in turn (`declaration_round`, on for eighty-rr).
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.cards import Suit
from referee.errors import InvalidRecordError
from referee.rulebooks import find_rulebook
from referee.shengji.declaration import (
    RULE_IDS,
    DealSetup,
    DeclarationOutcome,
    resolve_declarations,
)
from referee.shengji.events import Pass, event_to_json, parse_event, parse_events

BOTTOM = "3C 4C 6C 7C 8C 9C 3D 4D"


def resolve(
    events: list[dict[str, Any]], rulebook: str = "eighty-rr", **options: Any
) -> DeclarationOutcome:
    return resolve_declarations(
        find_rulebook(rulebook, options),
        DealSetup(2, ("2", "2"), dealer=0),
        parse_events(events, 2),
    )


def declare(seat: int, cards: str) -> dict[str, Any]:
    return {"type": "declare", "seat": seat, "cards": cards}


def overcall(seat: int, cards: str) -> dict[str, Any]:
    return {"type": "overcall", "seat": seat, "cards": cards}


def pass_(seat: int) -> dict[str, Any]:
    return {"type": "pass", "seat": seat}


def bury(seat: int = 0) -> dict[str, Any]:
    return {"type": "bury", "seat": seat, "cards": BOTTOM}


def rule_ids(out: DeclarationOutcome) -> list[str]:
    return [v.rule_id for v in out.violations]


def test_pass_event_parses_and_prints() -> None:
    event = parse_event({"type": "pass", "seat": 3}, 4)
    assert event == Pass(4, 3)
    assert event_to_json(event) == {"type": "pass", "seat": 3}


def test_eighty_has_the_round_option_002_s3_4() -> None:
    assert find_rulebook("eighty-rr").declaration_round is True
    assert find_rulebook("union-2deck").declaration_round is False
    assert {i for i in RULE_IDS if i.startswith("shengji.round.")} == {
        "shengji.round.out_of_turn",
        "shengji.round.overcall_after_pass",
        "shengji.round.no_declaration",
        "shengji.round.too_late",
        "shengji.round.incomplete",
    }


def test_round_in_order_then_overcall_by_the_last_seat_002_s3_4() -> None:
    """Declarer 1: seats 2 and 3 pass, seat 0 overcalls with a pair of ♥2."""
    out = resolve([declare(1, "2S"), pass_(2), pass_(3), overcall(0, "2H 2H"), bury()])
    assert out.violations == () and out.trump_suit is Suit.HEARTS
    assert [row.kind for row in out.history] == ["declare", "pass", "pass", "overcall", "bury"]
    assert all(row.accepted for row in out.history)


def test_overcall_after_passing_is_illegal_002_s3_4() -> None:
    out = resolve([declare(1, "2S"), pass_(2), overcall(2, "2H 2H")])
    assert rule_ids(out) == ["shengji.round.overcall_after_pass"]
    assert out.trump_suit is Suit.SPADES  # the overcall does not count
    assert out.violations[0].kind == "illegal_declaration" and out.violations[0].event == 2


def test_overcall_after_a_later_seat_spoke_is_out_of_turn_002_s3_4() -> None:
    """Seat 3 spoke (passed), so seat 2's turn, before it, is over."""
    out = resolve([declare(1, "2S"), pass_(3), overcall(2, "2H 2H")])
    assert rule_ids(out) == ["shengji.round.out_of_turn"]
    out = resolve([declare(1, "2S"), overcall(3, "2H 2H"), overcall(2, "SJ SJ")])
    assert rule_ids(out) == ["shengji.round.out_of_turn"]
    assert out.trump_suit is Suit.HEARTS


def test_declarer_has_no_turn_in_the_round_002_s3_3_2() -> None:
    """反主只能反别人: the round runs over the other three; the declarer may not answer."""
    out = resolve([declare(1, "2S"), overcall(2, "2H 2H"), overcall(1, "BJ BJ")])
    assert rule_ids(out) == ["shengji.round.out_of_turn"]
    assert out.trump_suit is Suit.HEARTS


def test_each_seat_speaks_once_002_s3_4() -> None:
    out = resolve([declare(1, "2S"), pass_(2), pass_(2)])
    assert rule_ids(out) == ["shengji.round.out_of_turn"]
    out = resolve([declare(1, "2S"), overcall(2, "2H 2H"), pass_(2)])
    assert rule_ids(out) == ["shengji.round.out_of_turn"]


def test_skipped_seats_are_taken_to_pass_i_d8() -> None:
    """I-D8 default: the record may skip a seat's 不反; no pass events at all is fine too."""
    assert resolve([declare(1, "2S"), overcall(3, "2H 2H"), bury()]).violations == ()
    assert resolve([declare(1, "2S"), bury()]).violations == ()


def test_strict_round_needs_every_seat_in_turn_i_d8() -> None:
    strict = {"round_skipped_seats_pass": False}
    out = resolve([declare(1, "2S"), overcall(3, "2H 2H")], **strict)
    assert rule_ids(out) == ["shengji.round.out_of_turn"]
    out = resolve([declare(1, "2S"), pass_(2), bury()], **strict)
    assert rule_ids(out) == ["shengji.round.incomplete"]
    out = resolve([declare(1, "2S"), pass_(2), pass_(3), pass_(0), bury()], **strict)
    assert out.violations == ()


def test_pass_without_declaration_or_after_the_bury_002_s3_4() -> None:
    assert rule_ids(resolve([pass_(2)])) == ["shengji.round.no_declaration"]
    out = resolve([declare(1, "2S"), bury(), pass_(2)])
    assert rule_ids(out) == ["shengji.round.too_late"]


def test_pass_is_only_noted_without_a_round_000() -> None:
    out = resolve([declare(1, "2S"), pass_(1), overcall(3, "2H 2H")], rulebook="union-2deck")
    assert out.violations == () and out.trump_suit is Suit.HEARTS
    assert out.history[1].kind == "pass" and out.history[1].accepted


def test_pass_after_the_first_lead_is_an_invalid_record() -> None:
    from referee.record import replay_document

    trick = {"type": "trick", "leader": 0, "plays": [["3S"], ["4S"], ["5S"], ["6S"]]}
    doc = {
        "format": "table-record/1",
        "game": "shengji",
        "rulebook": "eighty-rr",
        "deals": [{"events": [declare(1, "2S"), bury(0), trick, pass_(2)]}],
    }
    with pytest.raises(InvalidRecordError) as caught:
        replay_document(doc)
    assert caught.value.rule_id == "record.order.declaration_after_play"


@pytest.mark.parametrize("seed", range(4))
def test_simulated_eighty_deals_log_the_whole_round_002_s3_4(seed: int) -> None:
    """The simulator has each of the three seats after the declarer speak, in turn."""
    from referee.record import replay_document
    from referee.shengji.simulate import simulate_match

    doc = simulate_match(find_rulebook("eighty-rr"), seed)
    rounds = 0
    for deal in doc["deals"]:
        events = deal["events"]
        if events[0]["type"] != "declare":
            continue
        declarer = events[0]["seat"]
        spoke = [e["seat"] for e in events if e["type"] in ("pass", "overcall")]
        assert spoke == [(declarer + step) % 4 for step in (1, 2, 3)]
        rounds += 1
    assert rounds
    strict = dict(doc, options={"round_skipped_seats_pass": False})
    for result in (replay_document(doc), replay_document(strict)):
        assert all(deal["violations"] == [] for deal in result["deals"])
