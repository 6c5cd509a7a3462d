"""Table routes: thin views over `web.services`; one table per token or PIN session.

Every view runs under `web.auth.table_referee_required`, which resolves the table from
the URL's token (or a PIN-marked session for `/table/<id>/…`) and 404s/403s otherwise;
`_match_at` then refuses any match that is not played at that table.
"""

from __future__ import annotations

import time
from typing import Any

from flask import abort, jsonify, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError, generate_csrf
from werkzeug.routing import BuildError

from web import services
from web.auth import check_table_pin, grant_table, table_referee_required
from web.extensions import db
from web.models import Match, Table
from web.table import bp
from web.table.strings import js_strings
from web.table.view import table_view

PIN_TRIES = 5
PIN_LOCK_SECONDS = 60
POST_KINDS = ("event", "undo", "seat", "deal")


# -- helpers --------------------------------------------------------------------------------


def table_url(endpoint: str, **values: Any) -> str:
    """`url_for` in the URL form this request came by (token, or table id after a PIN)."""
    args = request.view_args or {}
    if "token" in args:
        values.setdefault("token", args["token"])
    elif "table_id" in args:
        values.setdefault("table_id", args["table_id"])
    return url_for(endpoint, **values)


def lang_url(code: str) -> str:
    """The language switch link back to this page."""
    return url_for("public.set_language", code=code, next=request.full_path.rstrip("?"))


@bp.app_context_processor
def _helpers() -> dict[str, Any]:
    return {"table_url": table_url, "lang_url": lang_url}


def _optional_url(endpoint: str, **values: Any) -> str | None:
    """A URL of another part's blueprint, or None while that part is not installed."""
    try:
        return url_for(endpoint, **values)
    except BuildError:
        return None


def _match_at(table: Table, match_id: int) -> Match:
    """The match `match_id` if it is played at `table`; 404 otherwise (no hint either way)."""
    match = db.session.get(Match, match_id)
    if match is None or match.table_id != table.id:
        abort(404)
    return match


def _actor(table: Table) -> str:
    return f"referee · table {table.label}"


def _device() -> str:
    body = request.get_json(silent=True) or {}
    device = str(body.get("device") or "")[:60]
    agent = (request.user_agent.string or "")[:120]
    return f"{device} {agent}".strip()


def _json_error(status: int, error: str, message: str, **extra: Any) -> Any:
    return jsonify({"error": error, "message": message, **extra}), status


@bp.errorhandler(CSRFError)
def _csrf_error(error: CSRFError) -> Any:
    """JSON posts from the tablet get a JSON answer, so the script can refresh its token."""
    if request.is_json or request.accept_mimetypes.best == "application/json":
        return _json_error(400, "csrf", _("The page was stale; it fetched a new token, try again."))
    return render_template(
        "table/pin.html", error=_("The form was stale; try again."), tables=[], csrf_failed=True
    ), 400


# -- PIN entry ---------------------------------------------------------------------------------


@bp.route("/t/", methods=["GET", "POST"])
def pin_entry() -> Any:
    """The referee types the table's PIN (and the table number when two tables share it)."""
    error = ""
    if request.method == "POST":
        locked_until = float(session.get("pin_locked_until", 0))
        if locked_until > time.time():
            error = _("Too many wrong PINs; wait a minute.")
        else:
            pin = (request.form.get("pin") or "").strip()
            number = (request.form.get("table") or "").strip()
            query = db.select(Table).filter_by(pin=pin) if pin.isdigit() else None
            tables = list(db.session.execute(query).scalars()) if query is not None else []
            if number.isdigit():
                tables = [t for t in tables if t.number == int(number)]
            tables = [t for t in tables if check_table_pin(t, pin)]
            if len(tables) == 1:
                session.pop("pin_failures", None)
                grant_table(tables[0])
                return redirect(url_for("table.home", table_id=tables[0].id))
            if len(tables) > 1:
                error = _("Several tables have this PIN: type the table number too.")
            else:
                failures = int(session.get("pin_failures", 0)) + 1
                session["pin_failures"] = failures
                if failures >= PIN_TRIES:
                    session["pin_locked_until"] = time.time() + PIN_LOCK_SECONDS
                    session["pin_failures"] = 0
                error = _("Wrong PIN.")
    return render_template("table/pin.html", error=error), (400 if error else 200)


# -- the table's pages ---------------------------------------------------------------------------


@bp.get("/t/<token>/")
@bp.get("/table/<int:table_id>/")
@table_referee_required
def home(table: Table) -> Any:
    """The table's matches; straight to the current one when there is exactly one open."""
    matches = sorted(table.matches, key=lambda m: (m.round, m.id))
    if request.args.get("list") is None:
        current = table.current_match()
        open_matches = [m for m in matches if not (m.state_cache or {}).get("finished")]
        if current is not None and len(open_matches) <= 1:
            return redirect(table_url("table.match", match_id=current.id))
    return render_template("table/home.html", table=table, matches=matches)


@bp.get("/t/<token>/match/<int:match_id>")
@bp.get("/table/<int:table_id>/match/<int:match_id>")
@table_referee_required
def match(table: Table, match_id: int) -> Any:
    """The live entry page (the tablet's app)."""
    the_match = _match_at(table, match_id)
    state = table_view(the_match)
    config = {
        "match_id": the_match.id,
        "game": state["game"],
        "state_url": table_url("table.state", match_id=the_match.id),
        "post_url": table_url("table.post", match_id=the_match.id),
        "csrf_url": table_url("table.csrf_token"),
        "live_url": url_for("live.stream", channel=f"match-{the_match.id}"),
        "csrf": generate_csrf(),
        "scoresheet_url": _optional_url("public.scoresheet_html", match_id=the_match.id),
        "confirm_url": _optional_url(
            "events.confirm_by_token", token=table.token, match_id=the_match.id
        ),
    }
    return render_template(
        "table/match.html",
        table=table,
        match=the_match,
        game=state["game"],
        state=state,
        strings=js_strings(),
        config_json=config,
    )


@bp.get("/t/<token>/match/<int:match_id>/state")
@bp.get("/table/<int:table_id>/match/<int:match_id>/state")
@table_referee_required
def state(table: Table, match_id: int) -> Any:
    """The tablet's view of the match as JSON (after a live update or a reconnect)."""
    the_match = _match_at(table, match_id)
    response = jsonify(table_view(the_match))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/t/<token>/csrf")
@bp.get("/table/<int:table_id>/csrf")
@table_referee_required
def csrf_token(table: Table) -> Any:
    """A fresh CSRF token for a tablet whose page has been open a long time."""
    return jsonify({"csrf_token": generate_csrf()})


@bp.post("/t/<token>/match/<int:match_id>/post")
@bp.post("/table/<int:table_id>/match/<int:match_id>/post")
@table_referee_required
def post(table: Table, match_id: int) -> Any:
    """One entry from the tablet: a record event, an undo, the seating or a new deal.

    Body (JSON): `kind`, `event` | `players` | `dealer`, `expected_seq`, `idempotency_key`,
    `device`. Answers 200 with the new view, 409 (conflict) or 422 (rejected) with the
    current view and a translated message; nothing is written unless the answer is 200.
    """
    the_match = _match_at(table, match_id)
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return _json_error(400, "bad_request", _("This entry could not be read."))
    kind = body.get("kind")
    expected_seq = body.get("expected_seq")
    key = body.get("idempotency_key")
    if kind not in POST_KINDS:
        return _json_error(400, "bad_request", _("Unknown kind of entry."))
    if isinstance(expected_seq, bool) or not isinstance(expected_seq, int):
        return _json_error(400, "bad_request", _("The entry does not say which state it expects."))
    if not isinstance(key, str) or not 8 <= len(key) <= 100:
        return _json_error(400, "bad_request", _("The entry has no idempotency key."))
    common: dict[str, Any] = {
        "expected_seq": expected_seq,
        "idempotency_key": key,
        "actor": _actor(table),
        "device": _device(),
    }
    try:
        if kind == "event":
            event = body.get("event")
            if not isinstance(event, dict):
                return _json_error(400, "bad_request", _("This entry could not be read."))
            new_state = services.append_event(the_match.id, event, **common)
        elif kind == "undo":
            new_state = services.undo_last(the_match.id, **common)
        elif kind == "seat":
            players = body.get("players")
            if not isinstance(players, list) or len(players) != 4 or not all(
                isinstance(p, str) and p.strip() for p in players
            ):
                return _json_error(422, "rejected", _("Name four players, one per seat."),
                                   state=table_view(the_match))
            new_state = services.set_seats(the_match.id, players, **common)
        else:
            deal_fields: dict[str, Any] = {
                k: body[k] for k in ("dealer", "first_drawer") if isinstance(body.get(k), int)
            }
            if body.get("redeal") is True:  # nobody declared: the deal is dealt again
                deal_fields["redeal"] = True
            new_state = services.start_deal(the_match.id, **common, **deal_fields)
    except services.ConflictError as error:
        db.session.rollback()
        return _json_error(409, "conflict", error.message, state=table_view(the_match, error.state))
    except services.RejectedEvent as error:
        db.session.rollback()
        return _json_error(
            422, "rejected", error.message, rule_id=error.rule_id, state=table_view(the_match)
        )
    db.session.refresh(the_match)
    return jsonify(
        {
            "ok": True,
            "replayed": bool(new_state.get("duplicate")),
            "state": table_view(the_match, new_state),
        }
    )
