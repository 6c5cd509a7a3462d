"""Any readable sequence of events is resolved or declared invalid — never a crash, and
every call that is not accepted is reported as a violation (never silently dropped)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cards import ALL_CARDS
from referee.errors import InvalidRecordError
from referee.rulebooks import PRESETS
from referee.shengji.declaration import DealSetup, resolve_declarations
from referee.shengji.events import parse_events

SHENGJI = ["union-2deck", "shuangsheng-17", "eighty-rr", "shuangkou-simple"]
# Mostly level cards of 2 and 5 and jokers, so that many calls are readable.
LIKELY = [c for c in ALL_CARDS if c.is_joker or c.rank.value in ("2", "5")]
cards = st.lists(st.sampled_from(LIKELY + list(ALL_CARDS[:8])), min_size=1, max_size=3)
seats = st.integers(0, 3)


@st.composite
def event(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(
        st.sampled_from(["declare", "overcall", "reinforce", "flip", "bury", "trick", "penalty"])
    )
    if kind in ("declare", "overcall", "reinforce"):
        data: dict[str, Any] = {
            "type": kind,
            "seat": draw(seats),
            "cards": [str(c) for c in draw(cards)],
        }
        if draw(st.booleans()):
            data["face_down"] = True
        return data
    if kind == "flip":
        return {"type": "flip", "card": str(draw(st.sampled_from(ALL_CARDS)))}
    if kind == "bury":
        size = draw(st.sampled_from([8, 8, 8, 7]))
        return {"type": "bury", "seat": draw(seats), "cards": ["3C"] * 2 + ["4D"] * (size - 2)}
    if kind == "penalty":
        return {
            "type": "penalty",
            "seat": draw(seats),
            "kind": draw(st.sampled_from(["wrong_declaration", "card_count", "talking"])),
        }
    return {"type": "trick", "leader": draw(seats), "plays": [["3S"], ["4S"], ["6S"], ["7S"]]}


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(SHENGJI),
    events=st.lists(event(), max_size=8),
    number=st.integers(1, 3),
    dealer=st.one_of(st.none(), seats),
    given_dealer=st.one_of(st.none(), seats),
    first_drawer=st.one_of(st.none(), seats),
    levels=st.tuples(st.sampled_from(["2", "5"]), st.sampled_from(["2", "5"])),
)
def test_any_event_sequence_resolves_or_is_invalid(
    name: str,
    events: list[dict[str, Any]],
    number: int,
    dealer: int | None,
    given_dealer: int | None,
    first_drawer: int | None,
    levels: tuple[str, str],
) -> None:
    """RECORD_FORMAT.md: a rule broken at the table is a violation, not an invalid record."""
    setup = DealSetup(
        number, levels, dealer=dealer, given_dealer=given_dealer, first_drawer=first_drawer
    )
    try:
        out = resolve_declarations(PRESETS[name], setup, parse_events(events, number))
    except InvalidRecordError as error:
        assert error.deal == number and error.event is not None
        return
    assert 0 <= out.dealer <= 3
    assert out.phase in ("declaring", "burying", "ready", "redeal")
    reported = {v.event for v in out.violations if v.kind == "illegal_declaration"}
    for row in out.history:
        if not row.accepted:
            assert row.event in reported and row.rule_id
    if out.burials:
        assert out.bottom == out.burials[-1].cards and len(out.bottom) == 8
    accepted_calls = [r for r in out.history if r.accepted and r.kind in ("declare", "overcall")]
    if accepted_calls and not out.redeal:
        assert out.declarer == accepted_calls[0].seat


def test_every_reported_rule_id_is_listed() -> None:
    """The web layer translates by rule_id: every id the module can report is in RULE_IDS."""
    import re
    from pathlib import Path

    from referee.shengji import declaration

    source = Path(declaration.__file__).read_text("utf-8")
    body = source.split("RULE_IDS: dict[str, str] = {", 1)[1].split("\n}\n", 1)[1]
    used = set(re.findall(r'"(shengji\.[a-z_]+\.[a-z_]+)"', body))
    assert used and used == set(declaration.RULE_IDS)
