"""Event routes: the director's rounds page, public pairings/standings/hall pages, exports,
and the referee's scoresheet confirmation and match clock (tablet: `/t/<token>/events/…`).
"""

from __future__ import annotations

import json
from typing import Any

from flask import (
    Response,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from referee.tournament import TIEBREAKS, scoring_for
from web.auth import director_required, is_director, may_referee, table_referee_required
from web.events import bp
from web.events import services as ts
from web.events.models import FORMATS, Round
from web.extensions import db
from web.models import Event, Match, Pair, Table

FORMAT_LABELS = {
    "round_robin": _l("round robin"),
    "eighty_rr": _l("points round robin (eighty-rr)"),
    "knockout": _l("single elimination"),
    "groups_knockout": _l("groups, then knockout"),
}
# Tie-break names as the pages show them (the engine's TIEBREAKS keys; JSON exports keep ids).
TIEBREAK_LABELS = {
    "match_points": _l("match points"),
    "small_points": _l("small points (A's won − A's lost)"),
    "level_difference": _l("total level difference"),
    "deal_points": _l("summed deal points"),
    "standard_score": _l("standard score"),
    "wins": _l("wins"),
    "head_to_head": _l("head-to-head"),
    "buchholz": _l("opponents' match points"),
}
TIEBREAK_SHORT = {
    "match_points": _l("Match pts"),
    "small_points": _l("Small pts"),
    "level_difference": _l("Level diff."),
    "deal_points": _l("Deal pts"),
    "standard_score": _l("Std. score"),
    "wins": _l("Wins"),
    "head_to_head": _l("H2H"),
    "buchholz": _l("Opp. pts"),
}


def _event_or_404(event_id: int) -> Event:
    event = db.session.get(Event, event_id)
    if event is None:
        abort(404)
    return event


def _round_or_404(event: Event, number: int) -> Round:
    round_ = db.session.execute(
        db.select(Round).filter_by(event_id=event.id, number=number)
    ).scalar_one_or_none()
    if round_ is None:
        abort(404)
    return round_


def _actor() -> str:
    return str(getattr(current_user, "username", "") or "director")


def _names(event: Event) -> dict[int, Pair]:
    return {p.id: p for p in event.pairs}


def _wants_json() -> bool:
    return request.accept_mimetypes.best == "application/json" or request.is_json


# -- director ----------------------------------------------------------------------------------


@bp.get("/events/<int:event_id>/rounds")
@director_required
def rounds(event_id: int) -> str:
    """The director's page: format settings, rounds, the open round's matches and clocks."""
    event = _event_or_404(event_id)
    settings = ts.settings_for(event_id)
    db.session.commit()
    all_rounds = ts.rounds_of(event_id)
    current = all_rounds[-1] if all_rounds else None
    status = ts.round_status(current) if current else None
    return render_template(
        "events/rounds.html",
        event=event,
        settings=settings,
        rounds=all_rounds,
        current=current,
        status=status,
        diff=ts.pairing_diff(current) if current else [],
        pairs=_names(event),
        formats=FORMATS,
        format_labels=FORMAT_LABELS,
        tiebreaks=TIEBREAK_LABELS,
        tiebreak_short=TIEBREAK_SHORT,
        tiebreak_order=ts.tiebreak_order(event, settings),
        rulebook=ts.event_rulebook(event),
    )


@bp.post("/events/<int:event_id>/settings")
@director_required
def update_settings(event_id: int) -> Response:
    """Format, planned rounds, tie-break order (comma separated), club rule, groups."""
    _event_or_404(event_id)
    form = request.form
    fields: dict[str, Any] = {}
    if form.get("format"):
        fields["format"] = form["format"]
    if "rounds_planned" in form:
        fields["rounds_planned"] = form.get("rounds_planned", type=int)
    if "tiebreaks" in form:
        fields["tiebreaks"] = [t.strip() for t in form["tiebreaks"].split(",") if t.strip()] or None
    if "group_count" in form:
        fields["group_count"] = max(1, form.get("group_count", type=int) or 2)
    if "advance_per_group" in form:
        fields["advance_per_group"] = max(1, form.get("advance_per_group", type=int) or 2)
    fields["forbid_same_club"] = form.get("forbid_same_club") == "on"
    try:
        ts.update_settings(event_id, actor=_actor(), **fields)
        flash(_("Settings saved."), "success")
    except ts.TournamentError as error:
        db.session.rollback()
        flash(str(error), "error")
    return redirect(url_for("events.rounds", event_id=event_id))  # type: ignore[return-value]


@bp.post("/events/<int:event_id>/rounds/open")
@director_required
def open_round(event_id: int) -> Response:
    """Pair and open the next round (eighty-rr round 1: optional recorded seed)."""
    _event_or_404(event_id)
    seed = request.form.get("seed", type=int)
    try:
        round_ = ts.open_round(event_id, actor=_actor(), seed=seed)
        flash(_("Round %(n)s is open.", n=round_.number), "success")
    except ts.TournamentError as error:
        db.session.rollback()
        flash(str(error), "error")
    return redirect(url_for("events.rounds", event_id=event_id))  # type: ignore[return-value]


@bp.post("/events/<int:event_id>/rounds/<int:number>/close")
@director_required
def close_round(event_id: int, number: int) -> Response:
    """Close the round once every match is finished and confirmed."""
    event = _event_or_404(event_id)
    round_ = _round_or_404(event, number)
    try:
        ts.close_round(round_.id, actor=_actor())
        flash(_("Round %(n)s is closed.", n=number), "success")
    except ts.TournamentError as error:
        db.session.rollback()
        flash(str(error), "error")
    return redirect(url_for("events.rounds", event_id=event_id))  # type: ignore[return-value]


@bp.post("/events/<int:event_id>/rounds/<int:number>/override")
@director_required
def override(event_id: int, number: int) -> Response:
    """The director's override: swap two pairs (`first`, `second`) or a full `pairings` JSON."""
    event = _event_or_404(event_id)
    round_ = _round_or_404(event, number)
    reason = request.form.get("reason", "")
    try:
        if request.form.get("pairings"):
            ts.override_pairings(
                round_.id, json.loads(request.form["pairings"]), actor=_actor(), reason=reason
            )
        else:
            first = request.form.get("first", type=int)
            second = request.form.get("second", type=int)
            if first is None or second is None or first == second:
                raise ts.TournamentError(_("Choose two different pairs to swap."))
            ts.swap_pairs(round_.id, first, second, actor=_actor(), reason=reason)
        flash(_("Pairing changed."), "success")
    except (ts.TournamentError, json.JSONDecodeError) as error:
        db.session.rollback()
        flash(str(error), "error")
    return redirect(url_for("events.rounds", event_id=event_id))  # type: ignore[return-value]


@bp.post("/events/<int:event_id>/matches/<int:match_id>/playoff")
@director_required
def playoff(event_id: int, match_id: int) -> Response:
    """The director records who advances from a drawn knockout match (加赛), with a reason."""
    _event_or_404(event_id)
    match = db.session.get(Match, match_id)
    if match is None or match.event_id != event_id:
        abort(404)
    try:
        winner = request.form.get("winner", type=int)
        if winner is None:
            raise ts.TournamentError(_("Choose the pair that advances."))
        ts.record_playoff(match_id, winner, reason=request.form.get("reason", ""), actor=_actor())
        flash(_("Play-off result recorded."), "success")
    except ts.TournamentError as error:
        db.session.rollback()
        flash(str(error), "error")
    return redirect(url_for("events.rounds", event_id=event_id))  # type: ignore[return-value]


@bp.get("/events/<int:event_id>/rounds/fragment")
@director_required
def rounds_fragment(event_id: int) -> str:
    """The open round's match table (live refresh on the director's page)."""
    event = _event_or_404(event_id)
    all_rounds = ts.rounds_of(event_id)
    current = all_rounds[-1] if all_rounds else None
    return render_template(
        "events/_round_matches.html",
        event=event,
        current=current,
        status=ts.round_status(current) if current else None,
        pairs=_names(event),
    )


# -- public pages -------------------------------------------------------------------------------


@bp.get("/events/<int:event_id>/rounds/<int:number>")
def pairings(event_id: int, number: int) -> str:
    """A round's pairings (对阵表): live page, or `?print=1` for paper."""
    event = _event_or_404(event_id)
    round_ = _round_or_404(event, number)
    template = "events/pairings_print.html" if request.args.get("print") else "events/pairings.html"
    fragment = request.args.get("fragment")
    return render_template(
        "events/_pairings_table.html" if fragment else template,
        event=event,
        round=round_,
        rounds=ts.rounds_of(event_id),
        pairs=_names(event),
        tables={t.number: t for t in event.tables},
        status=ts.round_status(round_),
        diff=ts.pairing_diff(round_),
    )


@bp.get("/events/<int:event_id>/standings")
def standings(event_id: int) -> str:
    """Standings (名次): every row shows the tie-break values that decided it."""
    event = _event_or_404(event_id)
    settings = ts.settings_for(event_id)
    rows = ts.event_standings(event_id)
    db.session.commit()
    template = "events/standings_print.html" if request.args.get("print") else "events/standings.html"
    if request.args.get("fragment"):
        template = "events/_standings_table.html"
    return render_template(
        template,
        event=event,
        rows=rows,
        pairs=_names(event),
        rounds=ts.rounds_of(event_id),
        tiebreaks=TIEBREAK_LABELS,
        tiebreak_short=TIEBREAK_SHORT,
        order=ts.tiebreak_order(event, settings),
    )


@bp.get("/events/<int:event_id>/pairs/<int:pair_id>")
def pair_history(event_id: int, pair_id: int) -> str:
    """One pair's rounds: opponents, seats, scores."""
    event = _event_or_404(event_id)
    pair = db.session.get(Pair, pair_id)
    if pair is None or pair.event_id != event.id:
        abort(404)
    rows = ts.pair_history(event_id, pair_id)
    standing = next((r for r in ts.event_standings(event_id) if r.pair == pair_id), None)
    return render_template(
        "events/pair.html", event=event, pair=pair, rows=rows, standing=standing
    )


@bp.get("/events/<int:event_id>/hall")
def hall(event_id: int) -> str:
    """The hall display (大屏): large type, cycles through tables and standings, live."""
    event = _event_or_404(event_id)
    return render_template("events/hall.html", event=event)


@bp.get("/events/<int:event_id>/hall.json")
def hall_data(event_id: int) -> Response:
    """What the hall display shows: the open round's tables (with clocks) and the standings."""
    event = _event_or_404(event_id)
    names = _names(event)
    all_rounds = ts.rounds_of(event_id)
    current = all_rounds[-1] if all_rounds else None
    tables: list[dict[str, Any]] = []
    byes: list[str] = []
    scoring = scoring_for(ts.event_rulebook(event))
    if current is not None:
        status = ts.round_status(current)
        by_pairs = {(r["match"].pair_a_id, r["match"].pair_b_id): r for r in status["matches"]}
        for p in current.pairings:
            if p["away"] is None:
                byes.append(names[p["home"]].name)
                continue
            row = by_pairs.get((p["home"], p["away"]))
            cache = (row["match"].state_cache or {}) if row else {}
            score = cache.get("levels") if scoring != "eighty" else None
            if row and row["finished"] and scoring == "eighty":
                outcome = ts.match_outcome(event, row["match"])
                if outcome is not None:
                    score = list(outcome["facts"].deal_points)
            tables.append(
                {
                    "table": p["table"],
                    "home": names[p["home"]].name,
                    "away": names[p["away"]].name,
                    "levels": score,
                    "deal": cache.get("deal"),
                    "finished": bool(row and row["finished"]),
                    "confirmed": bool(row and row["confirmation"]),
                    "clock": row["clock"] if row else None,
                }
            )
    rows = ts.event_standings(event_id)
    db.session.commit()
    return jsonify(
        {
            "event": event.name,
            "round": current.number if current else None,
            "round_status": current.status if current else None,
            "tables": tables,
            "byes": byes,
            "standings": [
                {
                    "rank": r.rank,
                    "pair": names[r.pair].name if r.pair in names else str(r.pair),
                    "match_points": r.match_points,
                    "decided_by": [[TIEBREAKS[n].split(" ")[0], v] for n, v in r.decided_by],
                    "playoff": r.playoff,
                }
                for r in rows
            ],
        }
    )


# -- exports ------------------------------------------------------------------------------------

EXPORTS = {
    "pairings": ts.pairings_rows,
    "results": ts.results_rows,
    "standings": ts.standings_rows,
}


@bp.get("/events/<int:event_id>/export/<kind>.<fmt>")
def export(event_id: int, kind: str, fmt: str) -> Response:
    """CSV or JSON of pairings, results or standings."""
    _event_or_404(event_id)
    if kind not in EXPORTS or fmt not in ("csv", "json"):
        abort(404)
    rows = EXPORTS[kind](event_id)
    db.session.commit()
    filename = f"event-{event_id}-{kind}.{fmt}"
    if fmt == "json":
        body = json.dumps(rows, ensure_ascii=False, indent=1, default=str)
        mimetype = "application/json"
    else:
        body = "\ufeff" + ts.to_csv(rows)  # BOM: spreadsheet programs then read UTF-8 Chinese
        mimetype = "text/csv"
    return Response(
        body,
        mimetype=mimetype,
        headers={"Content-Disposition": f"attachment; filename={filename}"},
    )


# -- referee: scoresheet confirmation and the match clock -----------------------------------------


def _match_for(match_id: int, table: Table | None = None) -> Match:
    match = db.session.get(Match, match_id)
    if match is None:
        abort(404)
    if table is not None:
        if match.table_id != table.id:
            abort(404)
    elif match.table is None or not may_referee(match.table):
        abort(403)
    return match


def _confirm(match: Match) -> Response:
    device = request.headers.get("User-Agent", "")[:200]
    actor = request.form.get("actor") or (request.get_json(silent=True) or {}).get("actor") or ""
    if not actor:
        actor = _actor() if is_director() else "referee"
    try:
        confirmation = ts.confirm_scoresheet(match.id, actor=actor, device=device)
    except ts.TournamentError as error:
        db.session.rollback()
        if _wants_json():
            return jsonify({"ok": False, "error": str(error)}), 409  # type: ignore[return-value]
        flash(str(error), "error")
        return redirect(request.referrer or url_for("events.rounds", event_id=match.event_id))  # type: ignore[return-value]
    if _wants_json():
        return jsonify(
            {
                "ok": True,
                "match_id": match.id,
                "confirmed_by": confirmation.confirmed_by,
                "confirmed_at": confirmation.confirmed_at.isoformat(),
                "seq": confirmation.seq,
            }
        )
    flash(_("Scoresheet confirmed."), "success")
    return redirect(request.referrer or url_for("events.rounds", event_id=match.event_id))  # type: ignore[return-value]


@bp.post("/events/matches/<int:match_id>/confirm")
def confirm(match_id: int) -> Response:
    """The referee (PIN session) or the director confirms the scoresheet of a finished match."""
    return _confirm(_match_for(match_id))


@bp.post("/t/<token>/events/matches/<int:match_id>/confirm")
@table_referee_required
def confirm_by_token(match_id: int, table: Table) -> Response:
    """The same from the tablet's token URL."""
    return _confirm(_match_for(match_id, table))


CLOCK_ACTIONS = {"start": ts.start_clock, "pause": ts.pause_clock, "resume": ts.resume_clock}


def _clock_action(match: Match, action: str) -> Response:
    if action not in CLOCK_ACTIONS:
        abort(404)
    try:
        info = CLOCK_ACTIONS[action](match.id, actor=_actor() if is_director() else "referee")
    except ts.TournamentError as error:
        db.session.rollback()
        return jsonify({"ok": False, "error": str(error)}), 409  # type: ignore[return-value]
    if _wants_json() or request.headers.get("HX-Request"):
        return jsonify({"ok": True, **info})
    return redirect(request.referrer or url_for("events.rounds", event_id=match.event_id))  # type: ignore[return-value]


@bp.post("/events/matches/<int:match_id>/clock/<action>")
def clock_action(match_id: int, action: str) -> Response:
    """Start, pause or resume a match clock (referee with PIN session, or the director)."""
    return _clock_action(_match_for(match_id), action)


@bp.post("/t/<token>/events/matches/<int:match_id>/clock/<action>")
@table_referee_required
def clock_action_by_token(match_id: int, action: str, table: Table) -> Response:
    """The same from the tablet's token URL."""
    return _clock_action(_match_for(match_id, table), action)


@bp.get("/events/matches/<int:match_id>/clock")
def clock(match_id: int) -> Response:
    """The clock as JSON (server time and remaining seconds); anyone may read it."""
    match = db.session.get(Match, match_id)
    if match is None:
        abort(404)
    info = ts.clock_info(match_id)
    db.session.commit()
    return jsonify(info or {"match_id": match_id, "limit": None})


@bp.app_template_global("events_clock_info")
def events_clock_info(match_id: int) -> dict[str, Any] | None:
    """For `templates/events/_clock.html` included without a `clock`: the match's clock."""
    return ts.clock_info(match_id)
