"""Public pages: read-only (GET only, no forms) live views, scoresheets, language switch."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Response, abort, redirect, render_template, request, session, url_for

from web import scoresheet, services
from web.extensions import db
from web.models import Event, Match, Table
from web.public import bp


def _state_or_none(match: Match | None) -> tuple[dict[str, Any] | None, str | None]:
    """The match state, or None and the reason when the engine cannot replay its log."""
    if match is None:
        return None, None
    try:
        return services.match_state(match.id), None
    except services.RejectedEvent as error:
        return None, error.message


@bp.get("/")
def index() -> Any:
    events = db.session.execute(db.select(Event).order_by(Event.id.desc())).scalars().all()
    return render_template("public/index.html", events=events)


@bp.get("/lang/<code>")
def set_language(code: str) -> Any:
    """Switch the interface language (a session setting; nothing in the database changes)."""
    from app import LANGUAGES

    if code in LANGUAGES:
        session["lang"] = code
    target = request.args.get("next") or request.referrer or url_for("public.index")
    if urlsplit(target).netloc and urlsplit(target).netloc != request.host:
        target = url_for("public.index")
    return redirect(target)


@bp.get("/public/events/<int:event_id>")
def event(event_id: int) -> Any:
    event = db.session.get(Event, event_id)
    if event is None:
        abort(404)
    return render_template("public/event.html", event=event)


@bp.get("/public/events/<int:event_id>/fragment")
def event_fragment(event_id: int) -> Any:
    event = db.session.get(Event, event_id)
    if event is None:
        abort(404)
    return render_template("_partials/overview_rows.html", event=event, director=False)


@bp.get("/public/tables/<int:table_id>")
def table(table_id: int) -> Any:
    table = db.session.get(Table, table_id)
    if table is None:
        abort(404)
    match = table.current_match()
    state, error = _state_or_none(match)
    return render_template("public/table.html", table=table, match=match, state=state, error=error)


@bp.get("/public/matches/<int:match_id>")
def match(match_id: int) -> Any:
    match = db.session.get(Match, match_id)
    if match is None:
        abort(404)
    state, error = _state_or_none(match)
    return render_template(
        "public/table.html", table=match.table, match=match, state=state, error=error
    )


@bp.get("/public/matches/<int:match_id>/fragment")
def match_fragment(match_id: int) -> Any:
    match = db.session.get(Match, match_id)
    if match is None:
        abort(404)
    state, error = _state_or_none(match)
    return render_template("_partials/match_state.html", match=match, state=state, error=error)


@bp.get("/public/matches/<int:match_id>/scoresheet")
def scoresheet_html(match_id: int) -> Any:
    match = db.session.get(Match, match_id)
    if match is None:
        abort(404)
    return scoresheet.render_html(match)


@bp.get("/public/matches/<int:match_id>/scoresheet.pdf")
def scoresheet_pdf(match_id: int) -> Any:
    match = db.session.get(Match, match_id)
    if match is None:
        abort(404)
    pdf = scoresheet.render_pdf(match)
    return Response(
        pdf,
        mimetype="application/pdf",
        headers={"Content-Disposition": f"inline; filename=scoresheet-match-{match.id}.pdf"},
    )
