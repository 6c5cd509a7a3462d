"""Translations: catalog compilation at start-up and the names of game terms for the UI.

Every user-facing string goes through Flask-Babel; msgids are English, zh_Hans is the
default locale. Engine ids (`rule_id`, violation kinds, penalty kinds, phases) are
translated here by id, never by parsing the engine's English messages.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import Markup, escape

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


def compile_catalogs(directory: Path) -> None:
    """Compile every `messages.po` whose `.mo` is missing or older (so a fresh checkout runs)."""
    for po_path in directory.glob("*/LC_MESSAGES/messages.po"):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        with po_path.open("rb") as po_file:
            catalog = read_po(po_file)
        try:
            with mo_path.open("wb") as mo_file:
                write_mo(mo_file, catalog)
        except OSError:  # a read-only checkout: Flask-Babel falls back to msgids
            continue


GAME_NAMES = {"shengji": _l("Shengji (升级)"), "guandan": _l("Guandan (掼蛋)")}

PHASES = {
    "declaring": _l("declaring trump"),
    "burying": _l("burying"),
    "playing": _l("playing"),
    "finished": _l("finished"),
    "redeal": _l("redeal"),
    "tribute": _l("tribute"),
    "not_started": _l("not started"),
}

PENALTY_KINDS = {
    "failed_throw": _l("failed throw (甩牌失败)"),
    "wrong_follow": _l("wrong follow"),
    "hidden_card": _l("hidden card (藏张)"),
    "card_count": _l("wrong card count"),
    "wrong_declaration": _l("wrong declaration"),
    "talking": _l("talking"),
    "timeout": _l("timeout"),
    "no_report": _l("no report (报牌)"),
    "wrong_play": _l("wrong play"),
    "dropped_card": _l("dropped card"),
    "out_of_turn": _l("out of turn"),
    "other": _l("other"),
}

VIOLATION_KINDS = {
    "revoke": _l("revoke (藏张)"),
    "pair_not_followed": _l("pair not followed"),
    "throw_should_fail": _l("throw should have failed"),
    "wrong_leader": _l("wrong leader"),
    "out_of_turn": _l("out of turn"),
    "wrong_count": _l("wrong number of cards"),
    "wrong_dealer": _l("wrong dealer"),
    "illegal_declaration": _l("illegal declaration"),
    "does_not_beat": _l("does not beat the previous play"),
    "not_a_combination": _l("not a combination"),
    "tribute_wrong_payer": _l("tribute from the wrong seat"),
    "tribute_wrong_receiver": _l("tribute to the wrong seat"),
    "tribute_not_highest": _l("tribute not the highest card"),
    "return_too_high": _l("returned card too high"),
}

EVENT_TYPES = {
    "declare": _l("declare (亮主)"),
    "overcall": _l("overcall (反主)"),
    "reinforce": _l("reinforce (防反)"),
    "flip": _l("flip (定主)"),
    "bury": _l("bury (扣底)"),
    "trick": _l("trick"),
    "throw_fail": _l("failed throw (甩牌失败)"),
    "penalty": _l("penalty"),
    "result": _l("quick result"),
    "tribute": _l("tribute (进贡)"),
    "return": _l("return (还贡)"),
    "anti_tribute": _l("anti-tribute (抗贡)"),
    "play": _l("play"),
    "pass": _l("pass (不要)"),
    "report": _l("report (报牌)"),
}

# Why the engine refused an entry, by the stable `rule_id` of its error.
REJECT_REASONS = {
    "record.notation": _l("a card or field cannot be read"),
    "record.seat": _l("a seat must be 0 to 3"),
    "record.card_copies": _l("more copies of a card than the two decks hold"),
    "record.bury_size": _l("the bottom (扣底) must be exactly 8 cards"),
    "record.order.bury_after_play": _l("the bury must come before the first trick"),
    "record.order.play_before_bury": _l("the bury must come before the first trick"),
    "record.order.flip_after_bury": _l("the flip (定主) must come before the bury"),
    "record.order.unfinished_deal": _l("the previous deal is not finished"),
    "record.order.after_match_end": _l("the match is already over"),
    "record.events": _l("an event is missing or of an unknown type"),
    "record.levels": _l("a level is not a rank 2 to A"),
}

LOG_KINDS = {
    "event": _l("event"),
    "undo": _l("undo"),
    "correction": _l("correction"),
    "seat": _l("seating"),
    "deal_start": _l("new deal"),
}


def term(table: dict[str, Any], key: Any) -> str:
    """The translated name of `key` in one of the tables above (the key itself if unknown)."""
    value = table.get(key)
    return str(value) if value is not None else str(key if key is not None else "")


def card_text(card: str) -> str:
    """`10H` → `10♥`, `BJ` → `大王` / `big joker` (display only; records stay ASCII)."""
    if card == "BJ":
        return _("BJ (大王)") if str(get_locale()) == "en" else "大王"
    if card == "SJ":
        return _("SJ (小王)") if str(get_locale()) == "en" else "小王"
    if len(card) >= 2 and card[-1] in SUIT_SYMBOLS:
        return card[:-1] + SUIT_SYMBOLS[card[-1]]
    return card


def cards_text(cards: Any) -> str:
    """A list of ASCII cards for people: `A♠ A♠ 大王`."""
    if not cards:
        return ""
    if isinstance(cards, str):
        return card_text(cards)
    return " ".join(card_text(str(card)) for card in cards)


def trump_text(trump: Any, level: Any = None) -> str:
    """`♠2`, or `无主 2` (no trump)."""
    if isinstance(trump, dict):
        suit = trump.get("suit")
        level = trump.get("level", level)
        if suit is None:
            return _("no trump (无主)") + (f" {level}" if level else "")
        return f"{SUIT_SYMBOLS.get(suit, suit)}{level or ''}"
    if isinstance(trump, str):
        return SUIT_SYMBOLS.get(trump, trump) + (str(level) if level else "")
    return "—"


def seat_name(seat: Any) -> str:
    """`Seat 0`…`Seat 3` (座位), numbered as in the table record (play order)."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        return "—"
    return _("Seat %(n)s", n=seat)


def event_text(event: Any) -> str:
    """A table-record event for people: `Seat 1 declare (亮主) 2♠`, `trick led by Seat 0: …`."""
    if not isinstance(event, dict):
        return "—"
    kind = event.get("type")
    name = term(EVENT_TYPES, kind)
    parts = [name]
    if kind == "trick":
        parts.append(_("led by %(seat)s", seat=seat_name(event.get("leader"))) + ":")
        parts.append(" | ".join(cards_text(play) for play in event.get("plays") or []))
    elif kind in ("tribute", "return"):
        parts.append(f"{seat_name(event.get('from'))} → {seat_name(event.get('to'))}")
        parts.append(cards_text(event.get("card")))
    elif kind == "flip":
        parts.append(cards_text(event.get("card")))
    elif kind == "result":
        if "order" in event:
            parts.append(" > ".join(seat_name(s) for s in event.get("order") or []))
        else:
            parts.append(
                _("defenders %(points)s, bottom %(bottom)s", points=event.get("defender_points"),
                  bottom=event.get("bottom_points"))
            )
    else:
        if "seat" in event:
            parts.append(seat_name(event.get("seat")))
        if kind == "penalty":
            parts.append(term(PENALTY_KINDS, event.get("kind")))
            if event.get("points") is not None:
                parts.append(str(event.get("points")))
            if event.get("note"):
                parts.append(f"“{event.get('note')}”")
        if kind == "throw_fail":
            parts.append(cards_text(event.get("attempted")))
            parts.append(_("blocked by %(seat)s", seat=seat_name(event.get("blocker"))))
            parts.append(cards_text(event.get("blocking")))
        elif event.get("cards"):
            parts.append(cards_text(event.get("cards")))
        if event.get("face_down"):
            parts.append(_("face down (暗)"))
    return " ".join(str(p) for p in parts if p)


def red_suits(text: Any) -> Markup:
    """Escape `text` and colour ♥ and ♦ (with their rank) red for screen and print."""
    escaped = str(escape(str(text)))
    return Markup(
        re.sub(r"((?:10|[2-9JQKA])?[♥♦](?:10|[2-9JQKA])?)", r'<span class="red">\1</span>', escaped)
    )


def init_app(app: Flask, languages: dict[str, str]) -> None:
    """Template helpers: `card_text`, `cards_text`, term tables and the language list."""

    @app.context_processor
    def inject() -> dict[str, Any]:
        return {
            "LANGUAGES": languages,
            "current_locale": str(get_locale()),
            "GAME_NAMES": GAME_NAMES,
            "PHASES": PHASES,
            "PENALTY_KINDS": PENALTY_KINDS,
            "VIOLATION_KINDS": VIOLATION_KINDS,
            "EVENT_TYPES": EVENT_TYPES,
            "LOG_KINDS": LOG_KINDS,
            "term": term,
            "seat_name": seat_name,
        }

    app.jinja_env.filters["card"] = card_text
    app.jinja_env.filters["cards"] = cards_text
    app.jinja_env.filters["trump"] = trump_text
    app.jinja_env.filters["event_text"] = event_text
    app.jinja_env.filters["red_suits"] = red_suits
