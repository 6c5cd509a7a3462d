"""Match services: the only way to change a match. Views parse input and call one of these.

A match's log is append-only. The table record is the *fold* of the log:

- `seat` entries set the players (and optionally `levels`, `on_table`);
- `deal_start` opens a new deal (its payload: `dealer`, `first_drawer`, …);
- `event` appends a table-record event to the current deal (opening deal 1 if needed);
- `undo` removes its `target_seq`; `correction` replaces its target's event (or voids it).

Every change replays the whole record with the engine (`referee.record.replay_document`)
before anything is written: an event the engine cannot replay is rejected and nothing
changes. `expected_seq` guards against two tablets at one table; an idempotency key makes
a double tap harmless.

>>> state = append_event(m.id, {"type": "declare", "seat": 0, "cards": ["2S"]},
...                      expected_seq=0, idempotency_key="k1", actor="ref", device="ipad")
>>> state["seq"], state["phase"]
(1, 'declaring')
"""

from __future__ import annotations

import copy
import csv
import io
import json
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import update
from sqlalchemy.exc import IntegrityError, OperationalError

from web.extensions import db
from web.i18n import REJECT_REASONS
from web.models import Event, LogEntry, Match, utcnow

__all__ = [
    "ConflictError",
    "RejectedEvent",
    "ServiceError",
    "append_event",
    "correct_event",
    "export_record",
    "fold_log",
    "import_record",
    "log_entries",
    "match_state",
    "results_csv",
    "set_seats",
    "start_deal",
    "undo_last",
]

CONTENT_KINDS = ("seat", "deal_start", "event")
DEAL_FIELDS = ("dealer", "first_drawer", "on_table", "levels", "redeal")
SETUP_FIELDS = ("players", "levels", "on_table", "time_up", "elapsed_minutes")
ALL_CARD_NAMES = [
    rank + suit
    for suit in "SHCD"
    for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
] + ["SJ", "BJ"]


class ServiceError(Exception):
    """Base of the errors a service raises on purpose (views turn them into messages)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class RejectedEvent(ServiceError):
    """The engine cannot replay the record with this event; nothing was written.

    `message` is translated for people; `rule_id` is stable (`record.invalid`,
    `record.notation`, an engine `rule_id`, or `log.*` for log operations).
    """

    def __init__(self, message: str, rule_id: str = "record.invalid", detail: str = "") -> None:
        super().__init__(message)
        self.rule_id = rule_id
        self.detail = detail


class ConflictError(ServiceError):
    """`expected_seq` was stale: someone else logged first. `state` is the fresh state."""

    def __init__(self, message: str, state: dict[str, Any]) -> None:
        super().__init__(message)
        self.state = state


class MatchNotFound(ServiceError, LookupError):
    """No match with this id."""


# ---------------------------------------------------------------------------------------
# Folding the log into a table record
# ---------------------------------------------------------------------------------------


@dataclass
class Fold:
    """The record built from a log, with where each record event came from."""

    doc: dict[str, Any]
    event_seqs: list[list[int]] = field(default_factory=list)  # per deal, per event: its seq
    deal_seqs: list[int | None] = field(default_factory=list)  # the deal_start seq (or None)
    removed: dict[int, int] = field(default_factory=dict)  # target seq -> undo/void seq
    replaced: dict[int, int] = field(default_factory=dict)  # target seq -> correction seq
    last_content_seq: int | None = None

    def extended(self, seq: int, kind: str, payload: dict[str, Any]) -> Fold:
        """A copy with one more content entry at the end (copies only what changes)."""
        doc = dict(self.doc)
        deals = list(doc["deals"])
        event_seqs = list(self.event_seqs)
        deal_seqs = list(self.deal_seqs)
        if kind == "seat":
            for key in SETUP_FIELDS:
                if key in payload:
                    doc[key] = payload[key]
        elif kind == "deal_start":
            deals.append(_new_deal(payload))
            event_seqs.append([])
            deal_seqs.append(seq)
        elif kind == "event":
            if not deals:
                deals.append({"events": []})
                event_seqs.append([])
                deal_seqs.append(None)
            last = dict(deals[-1])
            last["events"] = [*last["events"], payload]
            deals[-1] = last
            event_seqs[-1] = [*event_seqs[-1], seq]
        doc["deals"] = deals
        return Fold(doc, event_seqs, deal_seqs, self.removed, self.replaced, seq)


def _new_deal(payload: dict[str, Any]) -> dict[str, Any]:
    deal = {key: value for key, value in payload.items() if key != "events"}
    deal["events"] = []
    return deal


def base_document(match: Match) -> dict[str, Any]:
    """The record document of `match` before any log entry: rulebook, players, levels."""
    event: Event = match.event
    doc: dict[str, Any] = {
        "format": "table-record/1",
        "game": event.game,
        "rulebook": event.rulebook,
        "players": list(match.seats or match.default_seats()),
        "levels": list(event.start_levels or ["2", "2"]),
        "deals": [],
    }
    if event.options:
        doc["options"] = dict(event.options)
    return doc


def fold_log(match: Match, entries: Iterable[Any]) -> Fold:
    """Fold log entries (in seq order) into the table record they describe."""
    entries = list(entries)
    removed: dict[int, int] = {}
    replaced: dict[int, int] = {}
    corrected_payload: dict[int, dict[str, Any]] = {}
    for entry in entries:
        if entry.kind == "undo" and entry.target_seq is not None:
            removed[entry.target_seq] = entry.seq
        elif entry.kind == "correction" and entry.target_seq is not None:
            new_event = entry.payload.get("event")
            if new_event is None:
                removed[entry.target_seq] = entry.seq
            else:
                replaced[entry.target_seq] = entry.seq
                corrected_payload[entry.target_seq] = new_event
    fold = Fold(base_document(match), removed=removed, replaced=replaced)
    for entry in entries:
        if entry.kind not in CONTENT_KINDS or entry.seq in removed:
            continue
        payload = corrected_payload.get(entry.seq, entry.payload)
        fold = fold.extended(entry.seq, entry.kind, payload)
    return fold


# ---------------------------------------------------------------------------------------
# Replay and the UI state
# ---------------------------------------------------------------------------------------

_CACHE: OrderedDict[tuple[Any, ...], tuple[Fold, dict[str, Any]]] = OrderedDict()
_CACHE_LOCK = threading.Lock()
_CACHE_SIZE = 256
# Per match (and database, meta): the newest folded log this process has seen, so a post
# that another app server took is caught up by reading only the entries after it.
_LATEST: OrderedDict[tuple[Any, ...], tuple[int, Fold]] = OrderedDict()


def _cache_key(match: Match) -> tuple[Any, ...]:
    event = match.event
    meta = json.dumps(
        [event.game, event.rulebook, event.options, event.start_levels, match.seats],
        sort_keys=True,
        ensure_ascii=False,
    )
    # The database URL keeps two apps in one process (tests, a second tenant) apart.
    return (str(db.engine.url), match.id, match.last_seq, meta)


def _cache_get(key: tuple[Any, ...]) -> tuple[Fold, dict[str, Any]] | None:
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
        return hit


def _cache_put(key: tuple[Any, ...], value: tuple[Fold, dict[str, Any]]) -> None:
    url, match_id, seq, meta = key
    with _CACHE_LOCK:
        _CACHE[key] = value
        _CACHE.move_to_end(key)
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
        latest_key = (url, match_id, meta)
        known = _LATEST.get(latest_key)
        if known is None or known[0] <= seq:
            _LATEST[latest_key] = (seq, value[0])
            _LATEST.move_to_end(latest_key)
            while len(_LATEST) > _CACHE_SIZE:
                _LATEST.popitem(last=False)


def clear_cache(*, deals: bool = True) -> None:
    """Forget cached match states (and, with `deals`, cached deal replays)."""
    with _CACHE_LOCK:
        _CACHE.clear()
        _LATEST.clear()
    if deals:
        from referee.shengji.match import clear_deal_memo

        clear_deal_memo()


def _engine_replay() -> Callable[[dict[str, Any]], dict[str, Any]]:
    from referee.record import replay_document

    return replay_document  # type: ignore[no-any-return]




def replay(doc: dict[str, Any]) -> dict[str, Any]:
    """The engine's result for `doc`; engine errors become `RejectedEvent` (translated)."""
    from referee.errors import IllegalPlayError, InvalidRecordError, NotationError, RefereeError

    try:
        return _engine_replay()(doc)
    except NotationError as error:
        raise RejectedEvent(
            _("Cannot read this entry: %(detail)s", detail=str(error)),
            getattr(error, "rule_id", None) or "record.notation",
            str(error),
        ) from error
    except InvalidRecordError as error:
        rule_id = getattr(error, "rule_id", None) or "record.invalid"
        reason = REJECT_REASONS.get(rule_id)
        if reason is not None:
            message = _(
                "The engine rejected this entry: %(reason)s (%(detail)s)",
                reason=reason,
                detail=str(error),
            )
        else:
            message = _("The engine rejected this entry: %(detail)s", detail=str(error))
        raise RejectedEvent(message, rule_id, str(error)) from error
    except IllegalPlayError as error:
        raise RejectedEvent(
            _("This breaks a rule (%(rule)s): %(detail)s", rule=error.rule_id, detail=str(error)),
            error.rule_id,
            str(error),
        ) from error
    except RefereeError as error:
        raise RejectedEvent(
            _("The engine rejected this entry: %(detail)s", detail=str(error)),
            "record.invalid",
            str(error),
        ) from error


def _cards_in(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple):
        return [card for card in value if isinstance(card, str)]
    return []


def _canonical(cards: Iterable[str]) -> list[str]:
    from referee.cards import parse_card
    from referee.errors import NotationError

    result = []
    for card in cards:
        try:
            result.append(str(parse_card(card)))
        except NotationError:
            continue
    return result


def unplayed_counts(game: str, events: list[dict[str, Any]]) -> dict[str, int]:
    """Per card (ASCII), how many of the two copies are still in the players' hands.

    Shengji: minus cards played in tricks and buried (the bottom is out of play).
    Guandan: minus cards laid down.
    """
    seen: list[str] = []
    for event in events:
        kind = event.get("type")
        if kind == "trick":
            for play in event.get("plays") or []:
                seen.extend(_cards_in(play))
        elif kind == "bury" and game == "shengji":
            seen.extend(_cards_in(event.get("cards")))
        elif kind == "play" and game == "guandan":
            seen.extend(_cards_in(event.get("cards")))
    counts = Counter(_canonical(seen))
    return {card: max(0, 2 - counts.get(card, 0)) for card in ALL_CARD_NAMES}


def _ui_state(match: Match, fold: Fold, result: dict[str, Any]) -> dict[str, Any]:
    """What a table page needs besides the raw result: the current deal at a glance."""
    doc = fold.doc
    deals_doc = doc["deals"]
    deals_result = result.get("deals") or []
    number = len(deals_doc)
    current = deals_result[number - 1] if number and len(deals_result) >= number else {}
    events = deals_doc[-1]["events"] if deals_doc else []
    game = doc["game"]
    phase = current.get("phase") or ("not_started" if not number else "declaring")
    to_play = current.get("next_to_play") if game == "guandan" else current.get("next_leader")
    if phase == "burying":
        to_play = current.get("bury_seat", current.get("dealer"))
    if phase in ("finished", "redeal", "declaring", "not_started"):
        to_play = None if game == "shengji" or phase != "declaring" else to_play
    violations = []
    for deal_index, deal in enumerate(deals_result):
        seqs = fold.event_seqs[deal_index] if deal_index < len(fold.event_seqs) else []
        for violation in deal.get("violations") or []:
            item = dict(violation)
            item["deal"] = deal_index + 1
            event_index, proof_index = item.get("event"), item.get("proof_event")
            if isinstance(event_index, int) and 0 <= event_index < len(seqs):
                item["seq"] = seqs[event_index]
            if isinstance(proof_index, int) and 0 <= proof_index < len(seqs):
                item["proof_seq"] = seqs[proof_index]
                item["proof"] = deals_doc[deal_index]["events"][proof_index]
            violations.append(item)
    match_result = result.get("match") or {}
    trump = current.get("trump")
    return {
        "match_id": match.id,
        "seq": match.last_seq,
        "game": game,
        "rulebook": doc["rulebook"],
        "players": doc.get("players"),
        "record": doc,
        "result": result,
        "event_seqs": fold.event_seqs,
        "deal": number,
        "deal_result": current,
        "phase": phase,
        "dealer": current.get("dealer"),
        "level": current.get("level"),
        "trump": trump,
        "to_play": to_play,
        "next_leader": current.get("next_leader"),
        "unplayed": unplayed_counts(game, events),
        "defender_total": current.get("defender_total"),
        "captured_so_far": current.get("captured_so_far", current.get("captured")),
        "cards_left": current.get("cards_left"),
        "violations": violations,
        "levels": match_result.get("levels", doc.get("levels")),
        "finished": bool(match_result.get("finished")),
        "winner": match_result.get("winner"),
        "corrections": len(fold.replaced),
    }


def _summary(state: dict[str, Any]) -> dict[str, Any]:
    """The small, JSON-safe summary kept on `Match.state_cache` and sent to live pages."""
    return {
        "match_id": state["match_id"],
        "seq": state["seq"],
        "deal": state["deal"],
        "phase": state["phase"],
        "dealer": state["dealer"],
        "level": state["level"],
        "trump": state["trump"],
        "to_play": state["to_play"],
        "defender_total": state["defender_total"],
        "captured": state["captured_so_far"],
        "levels": state["levels"],
        "finished": state["finished"],
        "winner": state["winner"],
        "violations": len(state["violations"]),
    }


def _get_match(match_id: int, *, lock: bool = False) -> Match:
    if lock and db.engine.dialect.name == "postgresql":
        match = db.session.get(Match, match_id, with_for_update=True, populate_existing=True)
    else:
        match = db.session.get(Match, match_id)
    if match is None:
        raise MatchNotFound(_("No such match."))
    return match


def log_entries(match_id: int) -> list[LogEntry]:
    """The match's whole log, in seq order."""
    return list(
        db.session.execute(
            db.select(LogEntry).filter_by(match_id=match_id).order_by(LogEntry.seq)
        ).scalars()
    )


def _log_rows(match_id: int) -> list[Any]:
    """The log as light rows (seq, kind, payload, target_seq): folding needs no ORM objects."""
    return list(
        db.session.execute(
            db.select(LogEntry.seq, LogEntry.kind, LogEntry.payload, LogEntry.target_seq)
            .where(LogEntry.match_id == match_id)
            .order_by(LogEntry.seq)
        ).all()
    )


def _fold_and_state(match: Match) -> tuple[Fold, dict[str, Any]]:
    key = _cache_key(match)
    hit = _cache_get(key)
    if hit is not None:
        return hit
    fold = _caught_up(match, key) or fold_log(match, _log_rows(match.id))
    result = replay(fold.doc)
    state = _ui_state(match, fold, result)
    _cache_put(key, (fold, state))
    return fold, state


def _caught_up(match: Match, key: tuple[Any, ...]) -> Fold | None:
    """The newest fold this process knows, extended by the entries logged since (elsewhere).

    Only when every newer entry is content (no undo or correction) and none is missing;
    otherwise None, and the caller folds the whole log.
    """
    url, match_id, seq, meta = key
    with _CACHE_LOCK:
        known = _LATEST.get((url, match_id, meta))
    if known is None or known[0] > seq:
        return None
    known_seq, fold = known
    if known_seq == seq:
        return fold
    rows = list(
        db.session.execute(
            db.select(LogEntry.seq, LogEntry.kind, LogEntry.payload)
            .where(LogEntry.match_id == match_id, LogEntry.seq > known_seq)
            .order_by(LogEntry.seq)
        ).all()
    )
    if [row.seq for row in rows] != list(range(known_seq + 1, seq + 1)):
        return None
    if any(row.kind not in CONTENT_KINDS for row in rows):
        return None
    for row in rows:
        fold = fold.extended(row.seq, row.kind, row.payload)
    return fold


def match_state(match_id: int) -> dict[str, Any]:
    """The match now: record doc, engine result, `seq`, current deal, phase, seat to play,
    unplayed counts, running defender total, trump/level/dealer, violations with proofs.

    Callers must not modify the returned dict (it is shared with the replay cache).
    """
    match = _get_match(match_id)
    return _fold_and_state(match)[1]


# ---------------------------------------------------------------------------------------
# Writing the log
# ---------------------------------------------------------------------------------------


@dataclass
class _NewEntry:
    kind: str
    payload: dict[str, Any]
    target_seq: int | None = None


def _existing_by_key(match_id: int, key: str) -> LogEntry | None:
    return db.session.execute(
        db.select(LogEntry).filter_by(match_id=match_id, idempotency_key=key)
    ).scalar_one_or_none()


def _conflict(match_id: int) -> ConflictError:
    db.session.rollback()
    return ConflictError(
        _("Someone else logged at this table first; the view has been refreshed."),
        match_state(match_id),
    )


def _write(
    match_id: int,
    build: Callable[[Match, Fold, dict[str, Any]], tuple[list[_NewEntry], Fold | None]],
    *,
    expected_seq: int | None,
    idempotency_key: str | None,
    actor: str,
    device: str,
    reason: str = "",
) -> dict[str, Any]:
    """The one write path: lock, check seq and key, build entries, replay, append, publish."""
    from web import live

    if idempotency_key is not None and (
        not isinstance(idempotency_key, str) or not 0 < len(idempotency_key) <= 100
    ):
        raise RejectedEvent(_("The entry has no valid idempotency key."), "log.idempotency_key")
    match = _get_match(match_id, lock=True)
    if idempotency_key:
        existing = _existing_by_key(match_id, idempotency_key)
        if existing is not None:
            db.session.rollback()
            return {**match_state(match_id), "duplicate": True, "entry_seq": existing.seq}
    if expected_seq is not None and expected_seq != match.last_seq:
        raise _conflict(match_id)
    old_seq = match.last_seq
    fold, state = _fold_and_state(match)
    try:
        new_entries, new_fold = build(match, fold, state)
    except ServiceError:
        db.session.rollback()
        raise
    if new_fold is None:
        # Undo/correction: fold the whole log again with the new (still transient) entries.
        pending = [
            LogEntry(seq=old_seq + i + 1, kind=e.kind, payload=e.payload, target_seq=e.target_seq)
            for i, e in enumerate(new_entries)
        ]
        new_fold = fold_log(match, [*_log_rows(match_id), *pending])
    try:
        result = replay(new_fold.doc)
    except RejectedEvent:
        db.session.rollback()
        raise
    rows = []
    for i, entry in enumerate(new_entries):
        rows.append(
            LogEntry(
                match_id=match_id,
                seq=old_seq + i + 1,
                kind=entry.kind,
                payload=entry.payload,
                target_seq=entry.target_seq,
                actor=actor[:120],
                device=device[:200],
                reason=reason,
                idempotency_key=idempotency_key if i == len(new_entries) - 1 else None,
            )
        )
    new_seq = old_seq + len(rows)
    try:
        bumped = db.session.execute(
            update(Match)
            .where(Match.id == match_id, Match.last_seq == old_seq)
            .values(last_seq=new_seq)
            .execution_options(synchronize_session=False)
        )
        if bumped.rowcount != 1:
            raise _conflict(match_id)
        db.session.add_all(rows)
        match.last_seq = new_seq
        state = _ui_state(match, new_fold, result)
        summary = _summary(state)
        match.state_cache = summary
        live.publish_in_session(f"match-{match_id}", summary)
        live.publish_in_session(f"event-{match.event_id}", summary)
        if match.table_id is not None:
            live.publish_in_session(f"table-{match.table_id}", summary)
        db.session.commit()
    except (IntegrityError, OperationalError):
        db.session.rollback()
        if idempotency_key:
            existing = _existing_by_key(match_id, idempotency_key)
            if existing is not None:
                return {**match_state(match_id), "duplicate": True, "entry_seq": existing.seq}
        raise _conflict(match_id) from None
    _cache_put(_cache_key(match), (new_fold, state))
    live.notify_local()
    return state


def _current_phase(state: dict[str, Any]) -> str:
    return str(state.get("phase") or "")


def _refresh_clock(match_id: int) -> None:
    """Let the match clock record time-up first (it writes its own log entry)."""
    from web.events import services as tournament

    tournament.clock_info(match_id)


def _check_new_deal_allowed(match: Match, fold: Fold) -> None:
    """Refuse to open a deal once the match clock forbids it (nothing is written).

    Time is up (any timed rulebook): no further deal. Seed 003 §十 定時法: in the
    shuangkou timed mode no new deal starts in the last `no_new_deal_minutes` minutes.
    """
    from referee.tournament import may_start_deal
    from web.events import services as tournament
    from web.events.models import MatchClock

    clock = db.session.execute(
        db.select(MatchClock).filter_by(match_id=match.id)
    ).scalar_one_or_none()
    if fold.doc.get("time_up") or (clock is not None and clock.time_up_at is not None):
        raise RejectedEvent(_("Time is up: no further deal starts."), "clock.time_up")
    if clock is None or clock.started_at is None:
        return
    remaining = tournament._remaining(clock, utcnow())
    if remaining <= 0:
        raise RejectedEvent(_("Time is up: no further deal starts."), "clock.time_up")
    rulebook = tournament.event_rulebook(match.event)
    if (
        rulebook.shuangkou_mode == "timed"
        and rulebook.no_new_deal_minutes
        and not may_start_deal(rulebook, remaining)
    ):
        raise RejectedEvent(
            _(
                "No new deal in the last %(minutes)s minutes of the match clock.",
                minutes=rulebook.no_new_deal_minutes,
            ),
            "clock.no_new_deal",
        )


def append_event(
    match_id: int,
    event: dict[str, Any],
    *,
    expected_seq: int | None,
    idempotency_key: str | None,
    actor: str,
    device: str,
    reason: str = "",
) -> dict[str, Any]:
    """Log one table-record event (validated by replaying); returns the new state.

    Raises `RejectedEvent` (nothing written) when the engine cannot replay it,
    `ConflictError` (with `.state`) when `expected_seq` is stale; a repeated
    `idempotency_key` returns the current state with `duplicate: True`. When the current
    deal is finished, the event opens the next deal.
    """
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise RejectedEvent(_("An event needs a type."), "record.notation")
    payload = json.loads(json.dumps(event))  # a private, JSON-clean copy
    _refresh_clock(match_id)

    def build(match: Match, fold: Fold, state: dict[str, Any]) -> tuple[list[_NewEntry], Fold]:
        entries = []
        new_fold = fold
        if not fold.doc["deals"]:
            _check_new_deal_allowed(match, fold)
        if fold.doc["deals"] and _current_phase(state) in ("finished", "redeal"):
            _check_new_deal_allowed(match, fold)
            entries.append(_NewEntry("deal_start", {}))
            new_fold = new_fold.extended(match.last_seq + 1, "deal_start", {})
        entries.append(_NewEntry("event", payload))
        new_fold = new_fold.extended(match.last_seq + len(entries), "event", payload)
        return entries, new_fold

    return _write(
        match_id,
        build,
        expected_seq=expected_seq,
        idempotency_key=idempotency_key,
        actor=actor,
        device=device,
        reason=reason,
    )


def start_deal(
    match_id: int,
    *,
    expected_seq: int | None,
    actor: str,
    device: str,
    idempotency_key: str | None = None,
    **deal_fields: Any,
) -> dict[str, Any]:
    """Open the next deal (`dealer=`, `first_drawer=` as the record allows)."""
    payload = {key: value for key, value in deal_fields.items() if key in DEAL_FIELDS}
    _refresh_clock(match_id)

    def build(match: Match, fold: Fold, state: dict[str, Any]) -> tuple[list[_NewEntry], Fold]:
        _check_new_deal_allowed(match, fold)
        return [_NewEntry("deal_start", payload)], fold.extended(
            match.last_seq + 1, "deal_start", payload
        )

    return _write(
        match_id,
        build,
        expected_seq=expected_seq,
        idempotency_key=idempotency_key,
        actor=actor,
        device=device,
    )


def set_seats(
    match_id: int,
    players: list[str],
    *,
    expected_seq: int | None,
    actor: str,
    device: str,
    idempotency_key: str | None = None,
    levels: list[str] | None = None,
) -> dict[str, Any]:
    """Seat the four players (seat order 0..3) in the record; optionally the start levels."""
    if not isinstance(players, list) or len(players) != 4:
        raise RejectedEvent(_("Name four players, one per seat."), "log.seats")
    payload: dict[str, Any] = {"players": [str(name).strip() for name in players]}
    if levels is not None:
        payload["levels"] = [str(level) for level in levels]

    def build(match: Match, fold: Fold, state: dict[str, Any]) -> tuple[list[_NewEntry], Fold]:
        return [_NewEntry("seat", payload)], fold.extended(match.last_seq + 1, "seat", payload)

    return _write(
        match_id,
        build,
        expected_seq=expected_seq,
        idempotency_key=idempotency_key,
        actor=actor,
        device=device,
    )


def _effective_content(match_id: int, fold: Fold) -> list[LogEntry]:
    return [
        entry
        for entry in log_entries(match_id)
        if entry.kind in CONTENT_KINDS and entry.seq not in fold.removed
    ]


def undo_last(
    match_id: int,
    *,
    expected_seq: int | None,
    actor: str,
    device: str,
    idempotency_key: str | None = None,
) -> dict[str, Any]:
    """Undo the last entry still in effect (an `undo` log entry; the log keeps both)."""

    def build(match: Match, fold: Fold, state: dict[str, Any]) -> tuple[list[_NewEntry], None]:
        content = [e for e in _effective_content(match.id, fold) if e.kind != "seat"]
        if not content:
            raise RejectedEvent(_("There is nothing to undo."), "log.nothing_to_undo")
        return [_NewEntry("undo", {}, content[-1].seq)], None

    return _write(
        match_id,
        build,
        expected_seq=expected_seq,
        idempotency_key=idempotency_key,
        actor=actor,
        device=device,
    )


def correct_event(
    match_id: int,
    seq: int,
    new_event: dict[str, Any] | None,
    *,
    reason: str,
    actor: str,
    device: str = "",
    expected_seq: int | None = None,
) -> dict[str, Any]:
    """A director replaces (or, with `new_event=None`, voids) the event logged at `seq`.

    `seq` may also name a `deal_start` entry: `new_event` is then the deal's fields
    (`{"dealer": 2}`). The reason is required; the correction is a new log entry listed on
    the scoresheet, and the engine must accept the corrected record.
    """
    if not reason or not reason.strip():
        raise RejectedEvent(_("A correction needs a reason."), "log.reason_required")
    payload: dict[str, Any] = {"event": None}
    if new_event is not None:
        if not isinstance(new_event, dict):
            raise RejectedEvent(_("An event needs a type."), "record.notation")
        payload["event"] = json.loads(json.dumps(new_event))

    def build(match: Match, fold: Fold, state: dict[str, Any]) -> tuple[list[_NewEntry], None]:
        target = next((e for e in _effective_content(match.id, fold) if e.seq == seq), None)
        if target is None or target.kind not in ("event", "deal_start"):
            raise RejectedEvent(
                _("Entry %(seq)s is not an event in effect.", seq=seq), "log.no_such_event"
            )
        if target.kind == "event" and new_event is not None and not isinstance(
            new_event.get("type"), str
        ):
            raise RejectedEvent(_("An event needs a type."), "record.notation")
        original = next(
            (e for e in log_entries(match.id) if e.seq == fold.replaced.get(seq)), None
        )
        payload["before"] = original.payload.get("event") if original else target.payload
        return [_NewEntry("correction", payload, seq)], None

    return _write(
        match_id,
        build,
        expected_seq=expected_seq,
        idempotency_key=None,
        actor=actor,
        device=device,
        reason=reason.strip(),
    )


def corrections(match_id: int) -> list[dict[str, Any]]:
    """The audit trail of corrections (and voids): who, when, why, before and after."""
    return [
        {
            "seq": entry.seq,
            "target_seq": entry.target_seq,
            "before": entry.payload.get("before"),
            "after": entry.payload.get("event"),
            "reason": entry.reason,
            "actor": entry.actor,
            "created_at": entry.created_at,
        }
        for entry in log_entries(match_id)
        if entry.kind == "correction"
    ]


# ---------------------------------------------------------------------------------------
# Export and import
# ---------------------------------------------------------------------------------------


def export_record(match_id: int) -> dict[str, Any]:
    """The match's table record (`table-record/1`), as `python -m referee replay` reads it."""
    return copy.deepcopy(match_state(match_id)["record"])


def import_record(match_id: int, doc: dict[str, Any], *, actor: str, device: str = "import") -> dict[str, Any]:
    """Load a table record into a match whose log is empty (each event becomes an entry).

    The record's game and rulebook must be the event's; the whole record is replayed
    first, so an invalid record writes nothing.
    """
    if not isinstance(doc, dict) or doc.get("format", "table-record/1") != "table-record/1":
        raise RejectedEvent(_("This is not a table record (table-record/1)."), "import.format")
    match = _get_match(match_id)
    event = match.event
    if doc.get("game", "shengji") != event.game or doc.get("rulebook") != event.rulebook:
        raise RejectedEvent(
            _("The record's game and rulebook must be this event's (%(rulebook)s).",
              rulebook=event.rulebook),
            "import.rulebook",
        )
    if (doc.get("options") or {}) != (event.options or {}):
        raise RejectedEvent(
            _("The record's rulebook options differ from this event's."), "import.options"
        )
    if match.last_seq:
        raise RejectedEvent(
            _("This match already has a log; import only into an empty match."), "import.not_empty"
        )
    deals = doc.get("deals") or []
    if not isinstance(deals, list):
        raise RejectedEvent(_("This is not a table record (table-record/1)."), "import.format")

    def build(match: Match, fold: Fold, state: dict[str, Any]) -> tuple[list[_NewEntry], Fold]:
        entries: list[_NewEntry] = []
        setup = {key: doc[key] for key in SETUP_FIELDS if key in doc}
        if setup:
            entries.append(_NewEntry("seat", setup))
        for deal in deals:
            if not isinstance(deal, dict):
                raise RejectedEvent(_("This is not a table record (table-record/1)."), "import.format")
            entries.append(_NewEntry("deal_start", {k: v for k, v in deal.items() if k != "events"}))
            for item in deal.get("events") or []:
                entries.append(_NewEntry("event", json.loads(json.dumps(item))))
        new_fold = fold
        for i, entry in enumerate(entries):
            new_fold = new_fold.extended(match.last_seq + i + 1, entry.kind, entry.payload)
        return entries, new_fold

    return _write(
        match_id, build, expected_seq=0, idempotency_key=None, actor=actor, device=device,
        reason="import",
    )


RESULT_COLUMNS = (
    "event", "round", "table", "match", "pair_a", "pair_b", "players", "deals",
    "levels_a", "levels_b", "finished", "winner",
)


def results_csv(event_id: int) -> str:
    """One CSV row per match of the event: pairs, deals played, levels, winner."""
    event = db.session.get(Event, event_id)
    if event is None:
        raise ServiceError(_("No such event."))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(RESULT_COLUMNS)
    for match in event.matches:
        state = match_state(match.id)
        levels = state["levels"] or ["", ""]
        winner = state["winner"]
        writer.writerow(
            [
                event.name,
                match.round,
                match.table.label if match.table else "",
                match.id,
                match.pair_a.name if match.pair_a else "",
                match.pair_b.name if match.pair_b else "",
                " / ".join(state["players"] or []),
                state["deal"],
                levels[0],
                levels[1],
                "yes" if state["finished"] else "no",
                {0: "A", 1: "B"}.get(winner, "") if isinstance(winner, int) else "",
            ]
        )
    return out.getvalue()


def parse_results_csv(text: str) -> list[dict[str, str]]:
    """Read a results CSV back (rows as dicts keyed by `RESULT_COLUMNS`)."""
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in RESULT_COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise RejectedEvent(
            _("The CSV lacks the columns %(columns)s.", columns=", ".join(missing)), "import.csv"
        )
    return list(reader)


def mark_time_up(match_id: int, *, actor: str, device: str) -> dict[str, Any]:
    """The match clock ran out (tournament clock): the record gets `"time_up": true`."""
    payload: dict[str, Any] = {"time_up": True}

    def build(match: Match, fold: Fold, state: dict[str, Any]) -> tuple[list[_NewEntry], Fold]:
        return [_NewEntry("seat", payload)], fold.extended(match.last_seq + 1, "seat", payload)

    return _write(
        match_id,
        build,
        expected_seq=None,
        idempotency_key=f"time-up-{match_id}",
        actor=actor,
        device=device,
    )
