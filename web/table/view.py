"""The tablet's view of a match: `web.services.match_state` reshaped for `static/js/table.js`.

No rule is decided here: every figure comes from the engine's replay; this module only
picks the current deal, names things in the reader's language and numbers tricks so a
violation can say "trick 3, proved by trick 7".
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from web import i18n, services
from web.extensions import db
from web.models import LogEntry, Match
from web.table.strings import rule_text

GUANDAN_PENALTIES = (
    "timeout",
    "no_report",
    "wrong_play",
    "dropped_card",
    "out_of_turn",
    "talking",
    "other",
)
COMBOS = {
    "single": _l("single"),
    "pair": _l("pair"),
    "triple": _l("triple (三同张)"),
    "full_house": _l("full house (三带二)"),
    "straight": _l("straight (顺子)"),
    "three_pairs": _l("three pairs (三连对)"),
    "plate": _l("steel plate (钢板)"),
    "bomb": _l("bomb (炸弹)"),
    "straight_flush": _l("straight flush (同花顺)"),
    "joker_bomb": _l("four jokers (天王炸)"),
}
PASS_LABEL = _l("pass (不反)")  # Shengji 不反 in the declaration round, not Guandan's 不要
SHAPES = {
    "single": "shape_single",
    "pair": "shape_pair",
    "tractor": "shape_tractor2",
    "throw": "shape_throw",
}


def penalty_catalogue(game: str, rulebook_name: str, options: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The offences a referee may record under this rulebook, with the default points.

    Shengji kinds carry points (editable on the tablet; failed throw and wrong follow per
    card); Guandan penalties cost turns and levels, not points (RULEBOOKS.md §3, §4).
    """
    if game == "guandan":
        return [
            {"kind": kind, "label": i18n.term(i18n.PENALTY_KINDS, kind), "points": 0,
             "per_card": False, "has_points": False}
            for kind in GUANDAN_PENALTIES
        ]
    from referee.rulebooks import find_rulebook
    from referee.shengji.events import PENALTY_KINDS

    rulebook = find_rulebook(rulebook_name, options or None)
    try:
        from referee.shengji.scoring import default_penalty_points
    except ImportError:  # pragma: no cover - the engine's scoring module is part of the project
        default_penalty_points = None
    catalogue = []
    for kind in PENALTY_KINDS:
        per_card = kind in ("failed_throw", "wrong_follow")
        points, union_rule = (0, False)
        if default_penalty_points is not None:
            points, union_rule = default_penalty_points(rulebook, kind, 1)
        item: dict[str, Any] = {
            "kind": kind,
            "label": i18n.term(i18n.PENALTY_KINDS, kind),
            "points": points,
            "per_card": per_card,
            "has_points": True,
        }
        if union_rule:
            item["note"] = _("This rulebook is silent here: union-2deck's penalty applies (I-10).")
        catalogue.append(item)
    return catalogue


def _trick_numbers(events: list[dict[str, Any]]) -> dict[int, int]:
    """Event index → 1-based trick number, for the deal's `trick` events."""
    numbers: dict[int, int] = {}
    count = 0
    for index, event in enumerate(events):
        if event.get("type") == "trick":
            count += 1
            numbers[index] = count
    return numbers


def _where(events: list[dict[str, Any]], numbers: dict[int, int], index: Any) -> str:
    if not isinstance(index, int):
        return ""
    if index in numbers:
        return _("trick %(n)s", n=numbers[index])
    if 0 <= index < len(events):
        kind = str(events[index].get("type", ""))
        return _("entry %(n)s (%(kind)s)", n=index + 1, kind=i18n.term(i18n.EVENT_TYPES, kind))
    return ""


def _violations(state: dict[str, Any], deal_number: int, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    numbers = _trick_numbers(events)
    out = []
    for violation in state.get("violations") or []:
        if violation.get("deal") != deal_number:
            continue
        where = _where(events, numbers, violation.get("event"))
        proof = _where(events, numbers, violation.get("proof_event"))
        out.append(
            {
                "kind": violation.get("kind"),
                "label": i18n.term(i18n.VIOLATION_KINDS, violation.get("kind")),
                "seat": violation.get("seat"),
                "event": violation.get("event"),
                "proof_event": violation.get("proof_event"),
                "where": where,
                "proof": _("proved by %(where)s", where=proof) if proof else "",
                "cards": violation.get("cards") or [],
                "detail": violation.get("detail", ""),
                "rule_id": violation.get("rule_id") or "",
                "rule": rule_text(violation.get("rule_id")),
            }
        )
    return out


def _outcome_text(game: str, deal: dict[str, Any]) -> str:
    outcome = deal.get("outcome")
    if not outcome:
        return ""
    if game == "guandan":
        side, up = outcome.get("side"), outcome.get("levels_up", 0)
        if side is None:
            return ""
        return _("Side %(side)s wins the deal, up %(n)s", side=side, n=up)
    levels_up = outcome.get("levels_up", 0)
    points = deal.get("match_points")
    if isinstance(points, list) and len(points) == 2:  # eighty-rr: deal points, no levels
        return _("Deal points %(a)s : %(b)s", a=points[0], b=points[1])
    if outcome.get("winner") == "dealer":
        if not levels_up:
            return _("The dealer side (庄家) wins")
        return _("The dealer side (庄家) wins, up %(n)s", n=levels_up)
    if levels_up:
        return _("The defenders (闲家) take the deal (上台), up %(n)s", n=levels_up)
    return _("The defenders (闲家) take the deal (上台)")


def _shengji_deal(state: dict[str, Any], deal: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    tricks = deal.get("tricks") or []
    trump = deal.get("trump")
    last_trick = None
    if tricks:
        last = tricks[-1]
        shape = str(last.get("shape") or "")
        last_trick = {
            "number": len(tricks),
            "leader": last.get("leader"),
            "winner": last.get("winner"),
            "points": last.get("points"),
            "shape": shape,
            "shape_label": i18n.term(_shape_labels(), shape) if shape else "",
        }
    phase = deal.get("phase")
    running = deal.get("captured_so_far") if phase == "playing" else None
    defender_total = deal.get("defender_total")
    if defender_total is None:
        defender_total = running if running is not None else deal.get("captured", 0)
    declarations = [
        {
            "seat": row.get("seat"),
            "kind": row.get("kind"),
            "label": (
                str(PASS_LABEL) if row.get("kind") == "pass"
                else i18n.term(i18n.EVENT_TYPES, row.get("kind"))
            ),
            "cards": row.get("cards") or [],
            # a refused call says why by its rule id (translated), never the engine's English
            "effect": rule_text(row.get("rule_id")) or (
                "" if row.get("kind") == "pass" else row.get("effect", "")
            ),
            "accepted": row.get("accepted", True),
            "rule_id": row.get("rule_id") or "",
        }
        for row in deal.get("declarations") or []
    ]
    return {
        "trump_suit": trump.get("suit") if trump else None,
        # while calls are still open, show the trump the accepted calls fix so far
        "trump_known": bool(trump) and (
            phase != "declaring"
            or any(
                row.get("accepted", True)
                and row.get("kind") in ("declare", "overcall", "reinforce", "flip")
                for row in deal.get("declarations") or []
            )
        ),
        "next_leader": deal.get("next_leader") if phase == "playing" else None,
        "bury_seat": state.get("to_play") if phase == "burying" else deal.get("dealer"),
        "trick_count": len(tricks),
        "tricks": [
            {"number": i + 1, "leader": t.get("leader"), "winner": t.get("winner"),
             "points": t.get("points"), "shape": t.get("shape")}
            for i, t in enumerate(tricks)
        ],
        "last_trick": last_trick,
        "defender_total": defender_total,
        "captured": deal.get("captured", 0),
        "bottom": deal.get("bottom"),
        "bottom_cards": deal.get("bottom_cards") or [],
        "penalties": [
            dict(p, label=i18n.term(i18n.PENALTY_KINDS, p.get("kind"))) for p in deal.get("penalties") or []
        ],
        "declarations": declarations,
    }


def _shape_labels() -> dict[str, str]:
    from web.table.strings import STRINGS

    return {shape: str(STRINGS[key]) for shape, key in SHAPES.items()}


def _guandan_deal(deal: dict[str, Any]) -> dict[str, Any]:
    plays = deal.get("plays") or []
    last_play = None
    if plays:
        last = plays[-1]
        combo = last.get("combo") or {}
        last_play = {
            "seat": last.get("seat"),
            "cards": last.get("cards") or [],
            "label": i18n.term(COMBOS, combo.get("kind")) if combo.get("kind") else "",
        }
    due = deal.get("tribute_due") or None
    tribute_done = bool(due) and (
        bool(deal.get("anti_tribute"))
        or len(deal.get("returns") or []) >= len(due.get("payers") or [None])
    )
    return {
        # the engine keeps "tribute" until the first play; once every return is logged the
        # tablet moves on to the plays
        "phase": "playing" if deal.get("phase") == "tribute" and tribute_done else deal.get("phase"),
        "next_to_play": deal.get("next_to_play"),
        "cards_left": deal.get("cards_left"),
        "order": deal.get("order") or [],
        "last_play": last_play,
        "on_table": {"seat": last_play["seat"], "cards": last_play["cards"]} if last_play else None,
        "tribute_next": deal.get("tribute_next"),
        "tribute_due": due,
        "tribute_text": _tribute_text(due, deal) if due else "",
        "penalties": [
            dict(p, label=i18n.term(i18n.PENALTY_KINDS, p.get("kind"))) for p in deal.get("penalties") or []
        ],
    }


def _tribute_text(due: dict[str, Any], deal: dict[str, Any]) -> str:
    payers = ", ".join(i18n.seat_name(s) for s in due.get("payers") or [])
    receivers = ", ".join(i18n.seat_name(s) for s in due.get("receivers") or [])
    return _(
        "Tribute due: %(payers)s → %(receivers)s (%(given)s given, %(returned)s returned)",
        payers=payers,
        receivers=receivers,
        given=len(deal.get("tributes") or []),
        returned=len(deal.get("returns") or []),
    )


def _describe(entry: Any, players: list[str], game: str = "") -> str:
    """One log entry in a line, for the tablet's "last entries" list."""
    kind = entry.kind
    payload = entry.payload or {}
    if kind == "event":
        event = payload
        text = i18n.term(i18n.EVENT_TYPES, event.get("type"))
        if game == "shengji" and event.get("type") == "pass":
            text = str(PASS_LABEL)  # 不反, not Guandan's 不要
        seat = event.get("seat", event.get("leader", event.get("from")))
        if isinstance(seat, int) and 0 <= seat < 4:
            text += " · " + (players[seat] if players and players[seat] else i18n.seat_name(seat))
        cards = event.get("cards") or event.get("plays") or event.get("card") or []
        if isinstance(cards, list) and cards and isinstance(cards[0], list):
            cards = [c for play in cards for c in play]
        if cards:
            text += " · " + i18n.cards_text(cards)
    else:
        text = i18n.term(i18n.LOG_KINDS, kind)
        if kind == "undo" and entry.target_seq is not None:
            text += f" #{entry.target_seq}"
    return f"#{entry.seq} {text}"


TAIL = 40  # log entries the view reads: undo, "last entries" and the device tail need few


def _log_tail(match_id: int) -> list[LogEntry]:
    """The last `TAIL` log entries in seq order (the view never reads the whole log)."""
    rows = db.session.execute(
        db.select(LogEntry).filter_by(match_id=match_id).order_by(LogEntry.seq.desc()).limit(TAIL)
    ).scalars()
    return list(rows)[::-1]


def _has_seat_entry(match_id: int) -> bool:
    found = db.session.execute(
        db.select(LogEntry.id).filter_by(match_id=match_id, kind="seat").limit(1)
    ).first()
    return found is not None


def _match_result_text(state: dict[str, Any], players: list[str]) -> str:
    if not state.get("finished"):
        return ""
    winner = state.get("winner")
    if winner not in (0, 1):
        return _("The match is over: a draw.")
    names = " / ".join(name for name in (players[winner], players[winner + 2]) if name)
    return _("The match is over: %(names)s win.", names=names or i18n.seat_name(winner))


def table_view(match: Match, state: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything `table.js` renders for `match` (the services' state, reshaped)."""
    if state is None:
        state = services.match_state(match.id)
    record = state.get("record") or {}
    game = state.get("game") or record.get("game") or "shengji"
    entries = _log_tail(match.id)
    undone = {
        e.target_seq
        for e in entries
        if e.target_seq is not None
        and (e.kind == "undo" or (e.kind == "correction" and (e.payload or {}).get("event") is None))
    }
    seated = bool(record.get("deals")) or any(e.kind == "seat" for e in entries) or _has_seat_entry(match.id)
    players = list(record.get("players") or ["", "", "", ""])
    deals_doc = record.get("deals") or []
    deal_view: dict[str, Any] | None = None
    current = state.get("deal_result") or {}
    if deals_doc:
        number = len(deals_doc)
        events = deals_doc[-1].get("events") or []
        deal_view = {
            "number": number,
            "phase": current.get("phase") or state.get("phase"),
            "dealer": current.get("dealer"),
            "level": current.get("level") or state.get("level"),
            "levels_after": current.get("levels_after"),
            "violations": _violations(state, number, events),
            "outcome_text": _outcome_text(game, current),
            "event_count": len(events),
        }
        if game == "guandan":
            deal_view.update(_guandan_deal(current))
        else:
            deal_view.update(_shengji_deal(state, current, events))
    content = [e for e in entries if e.kind in services.CONTENT_KINDS and e.seq not in undone]
    undoable = [e for e in content if e.kind != "seat"]
    event = match.event
    rulebook: dict[str, Any] = {"name": state.get("rulebook")}
    try:
        from referee.rulebooks import find_rulebook

        book = find_rulebook(str(state.get("rulebook")), event.options or None)
        rulebook["declaration_face_down"] = bool(getattr(book, "declaration_face_down", False))
        rulebook["nobody_declares"] = str(getattr(book, "nobody_declares", "flip"))
        rulebook["declaration_round"] = bool(getattr(book, "declaration_round", False))
    except Exception:  # an unknown rulebook still shows the page
        rulebook["declaration_face_down"] = False
    return {
        "match_id": match.id,
        "seq": state.get("seq", match.last_seq),
        "game": game,
        "players": players,
        "default_players": match.default_seats(),
        "seated": seated,
        "levels": state.get("levels") or record.get("levels"),
        "match_finished": bool(state.get("finished")),
        "match_result_text": _match_result_text(state, players),
        "rulebook": rulebook,
        "deal": deal_view,
        "unplayed": state.get("unplayed") or {},
        "can_undo": bool(undoable),
        "last_entry": _describe(undoable[-1], players, game) if undoable else "",
        "recent": [_describe(e, players, game) for e in entries[-6:]][::-1],
        # who logged the last entries (the tablet's device id), so a tablet can tell its own
        # entries from another tablet's
        "tail": [{"seq": e.seq, "device": (e.device or "").split(" ")[0]} for e in entries[-12:]],
        "penalty_catalogue": penalty_catalogue(game, str(state.get("rulebook")), event.options),
    }
