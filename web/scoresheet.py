"""The match scoresheet (记分表): rows per deal from the engine's replay, as HTML and PDF.

One A4 page per match (more when needed): event, round, table, pairs and seats, the
rulebook with its non-default options, a row per deal, penalties with reasons,
corrections, the result and signature lines. The PDF is WeasyPrint's rendering of the
same HTML with the Noto CJK fonts embedded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import render_template
from flask_babel import gettext as _

from referee.rulebooks import find_rulebook
from web import services
from web.i18n import EVENT_TYPES, cards_text, term, trump_text
from web.models import Match

ROOT = Path(__file__).resolve().parent.parent
PRINT_CSS = ROOT / "static" / "css" / "print.css"


def _side_name(side: Any) -> str:
    return {0: _("A"), 1: _("B")}.get(side, "—") if isinstance(side, int) else "—"


def _declarations(deal: dict[str, Any], players: list[str]) -> list[str]:
    rows = []
    for item in deal.get("declarations") or []:
        if item.get("kind") == "bury":
            continue  # the bottom is not a declaration (and stays face down)
        seat = item.get("seat")
        cards = _("face down (暗)") if item.get("face_down") else cards_text(item.get("cards"))
        kind = term(EVENT_TYPES, item.get("kind") or "")
        if item.get("accepted") is False:
            kind += " ✗"
        who = _seat_label(seat, players)
        rows.append(f"{who} {kind} {cards}".strip())
    return rows


def _seat_label(seat: Any, players: list[str]) -> str:
    if not isinstance(seat, int) or isinstance(seat, bool):
        return "—"
    name = players[seat] if 0 <= seat < len(players) and players[seat] else ""
    return f"{seat}·{name}" if name else str(seat)


def _penalties(deal: dict[str, Any], deal_doc: dict[str, Any], players: list[str]) -> list[dict[str, Any]]:
    """Penalties of a deal with the referee's note (the reason) from the record."""
    notes = [e for e in deal_doc.get("events", []) if e.get("type") == "penalty"]
    result = []
    for index, penalty in enumerate(deal.get("penalties") or notes):
        note = penalty.get("note") or (notes[index].get("note") if index < len(notes) else "")
        result.append(
            {
                "seat": _seat_label(penalty.get("seat"), players),
                "kind": penalty.get("kind", ""),
                "points": penalty.get("points"),
                "note": note or "",
            }
        )
    return result


def shengji_rows(state: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per Shengji deal: dealer, level, trump, declarations, points, bottom, promotion."""
    players = state["players"] or ["", "", "", ""]
    rows = []
    docs = state["record"]["deals"]
    for index, deal in enumerate(state["result"].get("deals") or []):
        deal_doc = docs[index] if index < len(docs) else {"events": []}
        bottom = deal.get("bottom") or {}
        outcome = deal.get("outcome") or {}
        multiplier = bottom.get("multiplier")
        bottom_text = "—"
        if bottom:
            bottom_text = f"{bottom.get('points', 0)}"
            if bottom.get("won_by") == "defenders" and multiplier:
                bottom_text += f" × {multiplier}"
        winner = outcome.get("winner")
        promotion = "—"
        if winner == "dealer":
            promotion = _("dealer +%(n)s", n=outcome.get("levels_up", 0))
        elif winner:
            up = outcome.get("levels_up", 0)
            promotion = _("defenders take the deal (上台) +%(n)s", n=up) if up else _(
                "defenders take the deal (上台)"
            )
        rows.append(
            {
                "number": deal.get("number", index + 1),
                "dealer": _seat_label(deal.get("dealer"), players),
                "level": deal.get("level") or "—",
                "trump": trump_text(deal.get("trump"), deal.get("level")),
                "declarations": _declarations(deal, players),
                "defender_points": deal.get("captured", deal.get("captured_so_far", "—")),
                "bottom": bottom_text,
                "penalties": _penalties(deal, deal_doc, players),
                "defender_total": deal.get("defender_total", "—"),
                "promotion": promotion,
                "levels_after": " : ".join(str(x) for x in deal.get("levels_after") or []) or "—",
                "phase": deal.get("phase", ""),
                "match_points": deal.get("match_points"),
                "violations": deal.get("violations") or [],
            }
        )
    return rows


def guandan_rows(state: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per Guandan deal: level, finishing order, levels up, tribute."""
    players = state["players"] or ["", "", "", ""]
    rows = []
    docs = state["record"]["deals"]
    for index, deal in enumerate(state["result"].get("deals") or []):
        deal_doc = docs[index] if index < len(docs) else {"events": []}
        tribute = []
        for event in deal_doc.get("events", []):
            kind = event.get("type")
            if kind in ("tribute", "return"):
                arrow = _("tribute") if kind == "tribute" else _("return")
                tribute.append(
                    f"{arrow} {_seat_label(event.get('from'), players)}→"
                    f"{_seat_label(event.get('to'), players)} {cards_text(event.get('card'))}"
                )
            elif kind == "anti_tribute":
                tribute.append(f"{_('anti-tribute (抗贡)')} {_seat_label(event.get('seat'), players)}")
        outcome = deal.get("outcome") or {}
        levels_up = "—"
        if outcome.get("side") is not None:
            levels_up = f"{_side_name(outcome.get('side'))} +{outcome.get('levels_up', 0)}"
        rows.append(
            {
                "number": deal.get("number", index + 1),
                "level": deal.get("level") or "—",
                "order": [_seat_label(seat, players) for seat in deal.get("order") or []],
                "levels_up": levels_up,
                "tribute": tribute,
                "penalties": _penalties(deal, deal_doc, players),
                "levels_after": " : ".join(str(x) for x in deal.get("levels_after") or []) or "—",
                "phase": deal.get("phase", ""),
                "violations": deal.get("violations") or [],
            }
        )
    return rows


def context(match: Match) -> dict[str, Any]:
    """Everything the scoresheet template shows."""
    state = services.match_state(match.id)
    event = match.event
    rulebook = find_rulebook(event.rulebook, event.options or None)
    rows = guandan_rows(state) if event.game == "guandan" else shengji_rows(state)
    result = state["result"].get("match") or {}
    return {
        "match": match,
        "event": event,
        "state": state,
        "rulebook": rulebook,
        "non_default": rulebook.non_default_options(),
        "rows": rows,
        "has_match_points": any(row.get("match_points") for row in rows),
        # Penalties with the referee's reason (every penalty is also in its deal's row).
        "penalties": [(row["number"], p) for row in rows for p in row["penalties"] if p["note"]],
        "corrections": services.corrections(match.id),
        "match_result": result,
        "winner_name": (
            (match.pair_a.name if match.pair_a else _("A"))
            if result.get("winner") == 0
            else (match.pair_b.name if match.pair_b else _("B"))
            if result.get("winner") == 1
            else None
        ),
        "print_css": PRINT_CSS.read_text(encoding="utf-8") if PRINT_CSS.exists() else "",
    }


def render_html(match: Match, *, for_pdf: bool = False) -> str:
    """The scoresheet page (print CSS inlined, so the PDF needs no static files)."""
    return render_template("print/scoresheet.html", for_pdf=for_pdf, **context(match))


def render_pdf(match: Match) -> bytes:
    """The scoresheet as PDF (A4, CJK fonts embedded by WeasyPrint)."""
    from weasyprint import HTML

    html = render_html(match, for_pdf=True)
    pdf: bytes = HTML(string=html, base_url=str(ROOT)).write_pdf()
    return pdf


def render_many_pdf(matches: list[Match]) -> bytes:
    """Several matches' scoresheets in one PDF (each starts on a new page)."""
    from weasyprint import HTML

    documents = [
        HTML(string=render_html(match, for_pdf=True), base_url=str(ROOT)).render()
        for match in matches
    ]
    if not documents:
        return b""
    pages = [page for document in documents for page in document.pages]
    pdf: bytes = documents[0].copy(pages).write_pdf()
    return pdf

