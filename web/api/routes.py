"""JSON API. Reads of a match are public (as the public pages); writes need the table's token.

POST bodies are JSON; CSRF applies (send the page's token in the `X-CSRFToken` header).

    POST /api/t/<token>/matches/<id>/events  {"event": {...}, "expected_seq": 4, "idempotency_key": "…"}
      200 {"state": …}   409 {"error": "conflict", "message", "state"}
      422 {"error": "rejected", "message", "rule_id"}
"""

from __future__ import annotations

from typing import Any

from flask import abort, jsonify, request

from web import services
from web.api import bp
from web.auth import table_referee_required
from web.extensions import db
from web.models import Match, Table

LEAN_OMITS = ("event_seqs", "record", "result")


def _public_state(state: dict[str, Any], *, lean: bool = False) -> dict[str, Any]:
    """The state as JSON; `lean` leaves out the whole record and result (posts answer fast)."""
    omit = LEAN_OMITS if lean else ("event_seqs",)
    return {key: value for key, value in state.items() if key not in omit}


def _match_at(table: Table, match_id: int) -> Match:
    match = db.session.get(Match, match_id)
    if match is None or match.table_id != table.id:
        abort(404)  # another table's match: not found, whatever the token
    return match


def _body() -> dict[str, Any]:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        abort(400)
    return body


def _device() -> str:
    return str(_body().get("device") or request.user_agent.string or "")[:200]


def _answer(call: Any) -> Any:
    """Run a service; 200 with the new state, 409 with the fresh state, 422 with the reason.

    The state leaves out the full record and result unless the body asks `"full": true`.
    """
    lean = not _body().get("full")
    try:
        state = call()
    except services.ConflictError as error:
        return jsonify(
            error="conflict", message=error.message, state=_public_state(error.state, lean=lean)
        ), 409
    except services.RejectedEvent as error:
        return jsonify(error="rejected", message=error.message, rule_id=error.rule_id), 422
    return jsonify(state=_public_state(state, lean=lean), duplicate=bool(state.get("duplicate")))


@bp.get("/matches/<int:match_id>/state")
def match_state(match_id: int) -> Any:
    if db.session.get(Match, match_id) is None:
        abort(404)
    return jsonify(state=_public_state(services.match_state(match_id)))


@bp.get("/t/<token>/state")
@table_referee_required
def table_state(table: Table) -> Any:
    match = table.current_match()
    if match is None:
        return jsonify(state=None)
    return jsonify(state=_public_state(services.match_state(match.id)))


@bp.post("/t/<token>/matches/<int:match_id>/events")
@table_referee_required
def post_event(table: Table, match_id: int) -> Any:
    match = _match_at(table, match_id)
    body = _body()
    return _answer(
        lambda: services.append_event(
            match.id,
            body.get("event") or {},
            expected_seq=body.get("expected_seq"),
            idempotency_key=body.get("idempotency_key"),
            actor=str(body.get("actor") or f"table:{table.number}"),
            device=_device(),
            reason=str(body.get("reason") or ""),
        )
    )


@bp.post("/t/<token>/matches/<int:match_id>/undo")
@table_referee_required
def post_undo(table: Table, match_id: int) -> Any:
    match = _match_at(table, match_id)
    body = _body()
    return _answer(
        lambda: services.undo_last(
            match.id,
            expected_seq=body.get("expected_seq"),
            idempotency_key=body.get("idempotency_key"),
            actor=str(body.get("actor") or f"table:{table.number}"),
            device=_device(),
        )
    )


@bp.post("/t/<token>/matches/<int:match_id>/deals")
@table_referee_required
def post_deal(table: Table, match_id: int) -> Any:
    match = _match_at(table, match_id)
    body = _body()
    fields = {k: body[k] for k in services.DEAL_FIELDS if k in body}
    return _answer(
        lambda: services.start_deal(
            match.id,
            expected_seq=body.get("expected_seq"),
            idempotency_key=body.get("idempotency_key"),
            actor=str(body.get("actor") or f"table:{table.number}"),
            device=_device(),
            **fields,
        )
    )
