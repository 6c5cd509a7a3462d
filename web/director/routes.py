"""Director routes: thin views that parse a form and call one service or model change."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_login import current_user, login_user, logout_user
from wtforms.fields.choices import SelectChoice

from referee.errors import NotationError
from referee.rulebooks import find_rulebook
from web import services
from web.auth import director_required, login_throttle
from web.director import bp
from web.director.forms import (
    ActionForm,
    CorrectionForm,
    EventForm,
    ImportRecordForm,
    ImportResultsForm,
    LoginForm,
    MatchForm,
    PairForm,
    SeatsForm,
    TablesForm,
)
from web.director.qr import qr_svg
from web.extensions import db
from web.models import Event, LogEntry, Match, Pair, Player, Table, User


def _actor() -> str:
    return f"director:{current_user.username}"


def _device() -> str:
    return (request.user_agent.string or "")[:200]


def _event_or_404(event_id: int) -> Event:
    event = db.session.get(Event, event_id)
    if event is None:
        abort(404)
    return event


def _match_or_404(match_id: int) -> Match:
    match = db.session.get(Match, match_id)
    if match is None:
        abort(404)
    return match


LOG_PAGE = 300  # log entries shown on the match page unless ?all=1


def referee_url(table: Table) -> str:
    """The table's referee link (the tablet blueprint serves `/t/<token>/`)."""
    base = current_app.config.get("PUBLIC_BASE_URL") or request.host_url.rstrip("/")
    return f"{base}/t/{table.token}/"


# -- login ------------------------------------------------------------------------------


@bp.route("/login", methods=["GET", "POST"])
def login() -> Any:
    form = LoginForm()
    if form.validate_on_submit():
        throttle = login_throttle(current_app)
        username = form.username.data or ""
        locked = throttle.locked_for(username)
        if locked > 0:
            flash(
                _("Too many failed logins for this user name; try again in %(s)s seconds.",
                  s=int(locked) + 1),
                "error",
            )
            return render_template("director/login.html", form=form), 429
        user = db.session.execute(
            db.select(User).filter_by(username=username)
        ).scalar_one_or_none()
        if user is None or not user.check_password(form.password.data or ""):
            throttle.failed(username)
            flash(_("Wrong user name or password."), "error")
        else:
            throttle.succeeded(username)
            login_user(user)
            target = request.args.get("next", "")
            if not target or urlsplit(target).netloc or not target.startswith("/"):
                target = url_for("director.index")
            return redirect(target)
    return render_template("director/login.html", form=form)


@bp.post("/logout")
def logout() -> Any:
    form = ActionForm()
    if form.validate_on_submit():
        logout_user()
    return redirect(url_for("public.index"))


# -- events -----------------------------------------------------------------------------


@bp.get("/")
@director_required
def index() -> Any:
    events = db.session.execute(db.select(Event).order_by(Event.id.desc())).scalars().all()
    return render_template("director/index.html", events=events, form=EventForm())


@bp.route("/events/new", methods=["GET", "POST"])
@director_required
def event_new() -> Any:
    form = EventForm()
    if form.validate_on_submit():
        try:
            options = json.loads(form.options.data or "{}") if (form.options.data or "").strip() else {}
            if not isinstance(options, dict):
                raise ValueError
            rulebook = find_rulebook(form.rulebook.data or "", options)
        except (ValueError, NotationError) as error:
            message = str(error) if isinstance(error, NotationError) else ""
            form.options.errors.append(
                _("Not valid rulebook options: %(detail)s", detail=message or _("JSON object expected"))
            )
        else:
            event = Event(
                name=form.name.data,
                game=rulebook.game,
                rulebook=rulebook.name,
                options=options,
                start_levels=[form.level_a.data, form.level_b.data],
            )
            db.session.add(event)
            db.session.commit()
            flash(_("Event created."), "success")
            return redirect(url_for("director.event", event_id=event.id))
    return render_template("director/event_new.html", form=form)


@bp.get("/events/<int:event_id>")
@director_required
def event(event_id: int) -> Any:
    event = _event_or_404(event_id)
    match_form = MatchForm()
    match_form.table_id.choices = [
        SelectChoice(t.id, _("Table %(n)s", n=t.label)) for t in event.tables
    ]
    pair_choices = [SelectChoice(p.id, p.name) for p in event.pairs]
    match_form.pair_a_id.choices = pair_choices
    match_form.pair_b_id.choices = pair_choices
    rulebook = find_rulebook(event.rulebook, event.options or None)
    return render_template(
        "director/event.html",
        event=event,
        rulebook=rulebook,
        non_default=rulebook.non_default_options(),
        pair_form=PairForm(),
        tables_form=TablesForm(),
        match_form=match_form,
        results_form=ImportResultsForm(),
        referee_url=referee_url,
        has_rounds="events.rounds" in current_app.view_functions,
    )


@bp.post("/events/<int:event_id>/pairs")
@director_required
def pair_add(event_id: int) -> Any:
    event = _event_or_404(event_id)
    form = PairForm()
    if form.validate_on_submit():
        pair = Pair(event=event, name=form.name.data, club=form.club.data or "")
        pair.players = [
            Player(name=form.player1.data, position=0),
            Player(name=form.player2.data, position=1),
        ]
        db.session.add(pair)
        db.session.commit()
        flash(_("Pair added."), "success")
    else:
        flash(_("Fill in the pair's name and both players."), "error")
    return redirect(url_for("director.event", event_id=event.id) + "#pairs")


@bp.post("/events/<int:event_id>/tables")
@director_required
def tables_add(event_id: int) -> Any:
    event = _event_or_404(event_id)
    form = TablesForm()
    if form.validate_on_submit():
        start = max((t.number for t in event.tables), default=0)
        for number in range(start + 1, start + 1 + (form.count.data or 1)):
            db.session.add(Table(event=event, number=number))
        db.session.commit()
        flash(_("Tables added."), "success")
    return redirect(url_for("director.event", event_id=event.id) + "#tables")


@bp.post("/events/<int:event_id>/matches")
@director_required
def match_add(event_id: int) -> Any:
    event = _event_or_404(event_id)
    form = MatchForm()
    form.table_id.choices = [SelectChoice(t.id, str(t.number)) for t in event.tables]
    form.pair_a_id.choices = [SelectChoice(p.id, p.name) for p in event.pairs]
    form.pair_b_id.choices = form.pair_a_id.choices
    if not form.validate_on_submit():
        flash(_("Choose a table and two pairs."), "error")
    elif form.pair_a_id.data == form.pair_b_id.data:
        flash(_("A pair cannot play itself."), "error")
    else:
        match = Match(
            event=event,
            round=form.round.data or 1,
            table_id=form.table_id.data,
            pair_a_id=form.pair_a_id.data,
            pair_b_id=form.pair_b_id.data,
        )
        db.session.add(match)
        db.session.flush()
        seats = match.default_seats()
        if form.swap_a.data:
            seats[0], seats[2] = seats[2], seats[0]
        if form.swap_b.data:
            seats[1], seats[3] = seats[3], seats[1]
        match.seats = seats
        db.session.commit()
        flash(_("Match created."), "success")
    return redirect(url_for("director.event", event_id=event.id) + "#matches")


@bp.get("/events/<int:event_id>/overview")
@director_required
def overview(event_id: int) -> Any:
    event = _event_or_404(event_id)
    return render_template("director/overview.html", event=event)


@bp.get("/events/<int:event_id>/overview/fragment")
@director_required
def overview_fragment(event_id: int) -> Any:
    event = _event_or_404(event_id)
    return render_template("_partials/overview_rows.html", event=event, director=True)


@bp.get("/events/<int:event_id>/results.csv")
@director_required
def results_csv(event_id: int) -> Any:
    event = _event_or_404(event_id)
    text = services.results_csv(event.id)
    return Response(
        "\ufeff" + text,  # a BOM so spreadsheet programs read the Chinese names as UTF-8
        mimetype="text/csv",
        headers={"Content-Disposition": f"attachment; filename=results-event-{event.id}.csv"},
    )


@bp.get("/events/<int:event_id>/scoresheets.pdf")
@director_required
def scoresheets_pdf(event_id: int) -> Any:
    """Every scoresheet of the event (or of `?round=N`) in one PDF, for printing."""
    from web import scoresheet

    event = _event_or_404(event_id)
    round_number = request.args.get("round", type=int)
    matches = [m for m in event.matches if round_number is None or m.round == round_number]
    if not matches:
        abort(404)
    suffix = f"-round-{round_number}" if round_number is not None else ""
    return Response(
        scoresheet.render_many_pdf(matches),
        mimetype="application/pdf",
        headers={
            "Content-Disposition": f"inline; filename=scoresheets-event-{event.id}{suffix}.pdf"
        },
    )


@bp.post("/events/<int:event_id>/results")
@director_required
def results_check(event_id: int) -> Any:
    """Compare an uploaded results CSV with the results recomputed from the logs."""
    event = _event_or_404(event_id)
    form = ImportResultsForm()
    if not form.validate_on_submit() or not form.file.data:
        flash(_("Choose a CSV file."), "error")
        return redirect(url_for("director.event", event_id=event.id))
    text = form.file.data.read().decode("utf-8-sig", errors="replace")
    try:
        rows = services.parse_results_csv(text)
    except services.RejectedEvent as error:
        flash(error.message, "error")
        return redirect(url_for("director.event", event_id=event.id))
    current = {row["match"]: row for row in services.parse_results_csv(services.results_csv(event.id))}
    checked = []
    for row in rows:
        mine = current.get(row.get("match", ""))
        differs = [
            key for key in services.RESULT_COLUMNS
            if mine is None or (row.get(key, "") or "") != (mine.get(key, "") or "")
        ]
        checked.append({"row": row, "known": mine is not None, "differs": differs})
    return render_template("director/results_check.html", event=event, checked=checked)


# -- tables -----------------------------------------------------------------------------


@bp.get("/tables/<int:table_id>/qr.svg")
@director_required
def table_qr(table_id: int) -> Any:
    table = db.session.get(Table, table_id)
    if table is None:
        abort(404)
    return Response(qr_svg(referee_url(table)), mimetype="image/svg+xml")


@bp.get("/tables/<int:table_id>/card")
@director_required
def table_card(table_id: int) -> Any:
    """A printable card for the table: QR code, link and PIN."""
    table = db.session.get(Table, table_id)
    if table is None:
        abort(404)
    url = referee_url(table)
    return render_template("director/table_card.html", table=table, url=url, svg=qr_svg(url))


# -- matches ----------------------------------------------------------------------------


@bp.get("/matches/<int:match_id>")
@director_required
def match(match_id: int) -> Any:
    match = _match_or_404(match_id)
    error = None
    try:
        state = services.match_state(match.id)
    except services.RejectedEvent as rejected:  # a log the engine no longer accepts
        state, error = None, rejected.message
    seats_form = SeatsForm(
        data={f"seat{i}": name for i, name in enumerate(match.seats or match.default_seats())}
    )
    entries = services.log_entries(match.id)
    show_all = request.args.get("all") == "1"
    return render_template(
        "director/match.html",
        match=match,
        state=state,
        error=error,
        entries=entries,
        shown=entries if show_all else entries[-LOG_PAGE:],
        corrections=services.corrections(match.id),
        seats_form=seats_form,
        import_form=ImportRecordForm(),
        action_form=ActionForm(),
        referee_url=referee_url,
    )


@bp.get("/matches/<int:match_id>/fragment")
@director_required
def match_fragment(match_id: int) -> Any:
    match = _match_or_404(match_id)
    return render_template(
        "_partials/match_state.html", match=match, state=services.match_state(match.id)
    )


@bp.get("/matches/<int:match_id>/log-fragment")
@director_required
def match_log_fragment(match_id: int) -> Any:
    """The log table alone, for the live refresh of the director's match page."""
    match = _match_or_404(match_id)
    entries = services.log_entries(match.id)
    show_all = request.args.get("all") == "1"
    return render_template(
        "director/_match_log.html",
        match=match,
        entries=entries,
        shown=entries if show_all else entries[-LOG_PAGE:],
    )


@bp.post("/matches/<int:match_id>/seats")
@director_required
def match_seats(match_id: int) -> Any:
    match = _match_or_404(match_id)
    form = SeatsForm()
    if form.validate_on_submit():
        players = [form.seat0.data, form.seat1.data, form.seat2.data, form.seat3.data]
        try:
            services.set_seats(
                match.id,
                [p or "" for p in players],
                expected_seq=None,
                actor=_actor(),
                device=_device(),
            )
            flash(_("Players seated."), "success")
        except services.ServiceError as error:
            flash(error.message, "error")
    return redirect(url_for("director.match", match_id=match.id))


@bp.post("/matches/<int:match_id>/undo")
@director_required
def match_undo(match_id: int) -> Any:
    match = _match_or_404(match_id)
    form = ActionForm()
    if form.validate_on_submit():
        try:
            services.undo_last(
                match.id,
                expected_seq=request.form.get("expected_seq", type=int),
                actor=_actor(),
                device=_device(),
            )
            flash(_("Last entry undone."), "success")
        except services.ServiceError as error:
            flash(error.message, "error")
    return redirect(url_for("director.match", match_id=match.id))


@bp.route("/matches/<int:match_id>/correct/<int:seq>", methods=["GET", "POST"])
@director_required
def match_correct(match_id: int, seq: int) -> Any:
    match = _match_or_404(match_id)
    entry = db.session.execute(
        db.select(LogEntry).filter_by(match_id=match.id, seq=seq)
    ).scalar_one_or_none()
    if entry is None or entry.kind not in ("event", "deal_start"):
        abort(404)
    state = services.match_state(match.id)
    current_event = _current_event(state, seq) if entry.kind == "event" else None
    if current_event is None:
        latest = [c["after"] for c in services.corrections(match.id) if c["target_seq"] == seq]
        current_event = latest[-1] if latest and latest[-1] is not None else entry.payload
    form = CorrectionForm()
    if request.method == "GET":
        form.event_json.data = json.dumps(current_event, ensure_ascii=False)
    if form.validate_on_submit():
        new_event: dict[str, Any] | None = None
        try:
            if not form.void.data:
                new_event = json.loads(form.event_json.data or "")
                if not isinstance(new_event, dict):
                    raise ValueError
        except ValueError:
            form.event_json.errors.append(_("Write the event as a JSON object."))
        else:
            try:
                services.correct_event(
                    match.id, seq, new_event, reason=form.reason.data or "", actor=_actor(),
                    device=_device(),
                )
            except services.ServiceError as error:
                form.event_json.errors.append(error.message)
            else:
                flash(_("Correction saved."), "success")
                return redirect(url_for("director.match", match_id=match.id) + f"#seq-{seq}")
    return render_template(
        "director/correct.html", match=match, entry=entry, form=form, current_event=current_event
    )


def _current_event(state: dict[str, Any], seq: int) -> dict[str, Any] | None:
    for deal_index, seqs in enumerate(state["event_seqs"]):
        if seq in seqs:
            event: dict[str, Any] = state["record"]["deals"][deal_index]["events"][seqs.index(seq)]
            return event
    return None


@bp.get("/matches/<int:match_id>/record.json")
@director_required
def match_export(match_id: int) -> Any:
    match = _match_or_404(match_id)
    doc = services.export_record(match.id)
    return Response(
        json.dumps(doc, ensure_ascii=False, indent=1),
        mimetype="application/json",
        headers={"Content-Disposition": f"attachment; filename=match-{match.id}.json"},
    )


@bp.get("/matches/<int:match_id>/log.json")
@director_required
def match_log(match_id: int) -> Any:
    """The full audit trail: every log entry with who, when, device and why."""
    match = _match_or_404(match_id)
    entries = [entry.to_json() for entry in services.log_entries(match.id)]
    return Response(
        json.dumps({"match": match.id, "log": entries}, ensure_ascii=False, indent=1),
        mimetype="application/json",
    )


@bp.post("/matches/<int:match_id>/import")
@director_required
def match_import(match_id: int) -> Any:
    match = _match_or_404(match_id)
    form = ImportRecordForm()
    if not form.validate_on_submit():
        abort(400)
    raw = form.file.data.read() if form.file.data else (form.text.data or "").encode()
    try:
        doc = json.loads(raw.decode("utf-8-sig"))
        if not isinstance(doc, dict):
            raise ValueError
    except ValueError:
        flash(_("The file is not a JSON table record."), "error")
        return redirect(url_for("director.match", match_id=match.id))
    try:
        services.import_record(match.id, doc, actor=_actor(), device=_device())
        flash(_("Record imported."), "success")
    except services.ServiceError as error:
        flash(error.message, "error")
    return redirect(url_for("director.match", match_id=match.id))
