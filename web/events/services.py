"""Tournament services: open and close rounds, pairing overrides, scoresheet confirmation,
match clocks, standings and exports. Views call these; pairing and ranking logic is in
`referee.tournament` (pure functions).
"""

from __future__ import annotations

import csv
import io
from datetime import datetime
from typing import Any

from flask_babel import gettext as _

from referee.rulebooks import Rulebook, find_rulebook
from referee.tournament import (
    DEFAULT_TIEBREAKS,
    TIEBREAKS,
    MatchFacts,
    Pairing,
    PairingError,
    PlayedMatch,
    StandingRow,
    clock_remaining,
    draw_first_round,
    draw_seed,
    facts_from_result,
    group_knockout,
    may_start_deal,
    next_knockout_round,
    pair_by_standing,
    round_robin,
    score_match,
    scoring_for,
    single_elimination,
    snake_groups,
    standings,
)
from web import services as match_services
from web.events.models import (
    FORMATS,
    MatchClock,
    PairingOverride,
    PlayoffResult,
    Round,
    ScoresheetConfirmation,
    TournamentSettings,
)
from web.extensions import db
from web.models import Event, Match, Table, utcnow

__all__ = [
    "TournamentError",
    "clock_info",
    "close_round",
    "confirm_scoresheet",
    "event_rulebook",
    "event_standings",
    "match_outcome",
    "open_round",
    "override_pairings",
    "pair_history",
    "pairings_rows",
    "pause_clock",
    "results_rows",
    "resume_clock",
    "round_status",
    "rounds_of",
    "settings_for",
    "standings_rows",
    "start_clock",
    "to_csv",
    "update_settings",
]

EPOCH = datetime(1970, 1, 1)


class TournamentError(Exception):
    """A director's or referee's request that the event's state does not allow (shown as a message)."""


# -- settings -------------------------------------------------------------------------------


def _event(event_id: int) -> Event:
    event = db.session.get(Event, event_id)
    if event is None:
        raise TournamentError(_("No such event."))
    return event


def event_rulebook(event: Event) -> Rulebook:
    """The event's rulebook with its option overrides."""
    return find_rulebook(event.rulebook, event.options or None)


def settings_for(event_id: int) -> TournamentSettings:
    """The event's tournament settings (created with defaults on first use)."""
    settings = db.session.execute(
        db.select(TournamentSettings).filter_by(event_id=event_id)
    ).scalar_one_or_none()
    if settings is None:
        event = _event(event_id)
        default_format = "eighty_rr" if event.rulebook == "eighty-rr" else "round_robin"
        settings = TournamentSettings(event_id=event_id, format=default_format)
        db.session.add(settings)
        db.session.flush()
    return settings


def tiebreak_order(event: Event, settings: TournamentSettings) -> tuple[str, ...]:
    """The director's tie-break order, else the rulebook's default."""
    if settings.tiebreaks:
        return tuple(settings.tiebreaks)
    return DEFAULT_TIEBREAKS[scoring_for(event_rulebook(event))]


def update_settings(event_id: int, *, actor: str, **fields: Any) -> TournamentSettings:
    """Change format, rounds, tie-breaks, club rule, groups; the format is fixed once round 1 is open."""
    settings = settings_for(event_id)
    if "format" in fields:
        if fields["format"] not in FORMATS:
            raise TournamentError(_("Unknown format."))
        if fields["format"] != settings.format and rounds_of(event_id):
            raise TournamentError(_("The format cannot change after round 1 is open."))
    if "tiebreaks" in fields and fields["tiebreaks"] is not None:
        names = [t for t in fields["tiebreaks"] if t]
        unknown = [t for t in names if t not in TIEBREAKS]
        if unknown or len(set(names)) != len(names):
            raise TournamentError(_("Unknown or repeated tie-break."))
        fields["tiebreaks"] = names or None
    for key, value in fields.items():
        if hasattr(settings, key) and key not in ("id", "event_id"):
            setattr(settings, key, value)
    db.session.commit()
    return settings


# -- rounds -------------------------------------------------------------------------------------


def rounds_of(event_id: int) -> list[Round]:
    """The event's rounds, in order."""
    return list(
        db.session.execute(
            db.select(Round).filter_by(event_id=event_id).order_by(Round.number)
        ).scalars()
    )


def _as_dicts(pairings: list[Pairing]) -> list[dict[str, Any]]:
    return [{"table": p.table, "home": p.home, "away": p.away} for p in pairings]


def _as_pairings(rows: list[dict[str, Any]]) -> list[Pairing]:
    return [Pairing(int(r["table"]), int(r["home"]), r["away"]) for r in rows]


def _seeding(event: Event, settings: TournamentSettings) -> list[int]:
    ids = [p.id for p in event.pairs]
    if settings.seeding:
        seeded = [p for p in settings.seeding if p in ids]
        return seeded + [p for p in ids if p not in seeded]
    return ids


def _forbidden(event: Event, settings: TournamentSettings) -> list[frozenset[int]]:
    if not settings.forbid_same_club:
        return []
    by_club: dict[str, list[int]] = {}
    for pair in event.pairs:
        if pair.club:
            by_club.setdefault(pair.club.strip(), []).append(pair.id)
    return [frozenset((a, b)) for ids in by_club.values() for a in ids for b in ids if a < b]


def _match_facts(event: Event, match: Match) -> MatchFacts | None:
    """The finished match's facts, or None while it is unfinished."""
    if not match_finished(match):
        return None
    state = match_services.match_state(match.id)
    clock = _clock(match)
    time_up = clock is not None and clock.time_up_at is not None
    return facts_from_result(event_rulebook(event), state.get("result") or {}, time_up=time_up)


def _played(event: Event, rounds: list[Round], stage: str | None = None) -> list[PlayedMatch]:
    """Every finished match and bye of `rounds` (optionally one stage) for the standings."""
    matches = {(m.round, m.pair_a_id, m.pair_b_id): m for m in event.matches}
    played: list[PlayedMatch] = []
    for round_ in rounds:
        if stage is not None and round_.stage != stage:
            continue
        for p in _as_pairings(round_.pairings):
            if p.away is None:
                played.append(PlayedMatch(round_.number, p.home, None, None))
                continue
            match = matches.get((round_.number, p.home, p.away))
            facts = _match_facts(event, match) if match is not None else None
            if facts is not None:
                played.append(PlayedMatch(round_.number, p.home, p.away, facts))
    return played


def _knockout_winners(event: Event, round_: Round) -> list[int]:
    matches = {(m.round, m.pair_a_id, m.pair_b_id): m for m in event.matches}
    winners = []
    for p in _as_pairings(round_.pairings):
        if p.away is None:
            winners.append(p.home)
            continue
        match = matches[(round_.number, p.home, p.away)]
        facts = _match_facts(event, match)
        playoff = playoff_of(match)
        if playoff is not None and facts is not None:
            winners.append(playoff.winner_pair_id)
            continue
        if facts is None or facts.winner is None:
            raise TournamentError(
                _("Table %(table)s has no winner yet (a drawn knockout match needs a play-off).",
                  table=p.table)
            )
        winners.append(p.home if facts.winner == 0 else p.away)
    return winners


def playoff_of(match: Match) -> PlayoffResult | None:
    """The director's play-off entry (加赛) for a drawn knockout match, if any."""
    return db.session.execute(  # type: ignore[no-any-return]
        db.select(PlayoffResult).filter_by(match_id=match.id)
    ).scalar_one_or_none()


def needs_playoff(event: Event, match: Match) -> bool:
    """A finished knockout match without a winner: someone must advance by a play-off."""
    if match.round is None:
        return False
    round_ = db.session.execute(
        db.select(Round).filter_by(event_id=event.id, number=match.round)
    ).scalar_one_or_none()
    if round_ is None or round_.stage != "knockout":
        return False
    facts = _match_facts(event, match)
    return facts is not None and facts.winner is None and match_finished(match)


def record_playoff(match_id: int, winner_pair_id: int, *, reason: str, actor: str) -> PlayoffResult:
    """The director records who advances from a drawn knockout match, with a reason (audited)."""
    match = db.session.get(Match, match_id)
    if match is None:
        raise TournamentError(_("No such match."))
    if winner_pair_id not in (match.pair_a_id, match.pair_b_id):
        raise TournamentError(_("The play-off winner must be one of the match's two pairs."))
    if not reason.strip():
        raise TournamentError(_("Give a reason for the play-off result."))
    if not needs_playoff(match.event, match):
        raise TournamentError(_("Only a finished, drawn knockout match needs a play-off."))
    if playoff_of(match) is not None:
        raise TournamentError(_("This match's play-off result is already recorded."))
    result = PlayoffResult(
        match_id=match_id, winner_pair_id=winner_pair_id, reason=reason.strip(), actor=actor[:120]
    )
    db.session.add(result)
    _publish(match.event_id, {"kind": "playoff", "match_id": match_id})
    db.session.commit()
    return result


def compute_next_round(event_id: int, *, seed: int | None = None) -> tuple[Round, list[Pairing]]:
    """The next round (unsaved `Round`) and its computed pairing, by the event's format."""
    event = _event(event_id)
    settings = settings_for(event_id)
    previous = rounds_of(event_id)
    if previous and previous[-1].status != "closed":
        raise TournamentError(_("Round %(n)s is still open.", n=previous[-1].number))
    number = len(previous) + 1
    if settings.rounds_planned and number > settings.rounds_planned and settings.format in (
        "round_robin",
        "eighty_rr",
    ):
        raise TournamentError(_("All planned rounds have been played."))
    seeding = _seeding(event, settings)
    if len(seeding) < 2:
        raise TournamentError(_("An event needs at least two pairs."))
    forbidden = _forbidden(event, settings)
    new = Round(event_id=event_id, number=number, stage="main")
    try:
        if settings.format == "round_robin":
            schedule = round_robin(seeding)
            if number > len(schedule):
                raise TournamentError(_("The round robin is complete."))
            new.method, pairing = "round_robin", schedule[number - 1]
        elif settings.format == "eighty_rr":
            if number == 1:
                new.seed = draw_seed() if seed is None else seed
                new.method = "draw"
                pairing = draw_first_round(seeding, new.seed, forbidden=forbidden)
            else:
                ranking = [row.pair for row in event_standings(event_id)]
                history = [_as_pairings(r.pairings) for r in previous]
                new.method = "standing"
                pairing = pair_by_standing(ranking, history, forbidden=forbidden)
        elif settings.format == "knockout":
            new.stage = "knockout"
            if number == 1:
                new.method, pairing = "seeded_bracket", single_elimination(seeding)
            else:
                winners = _knockout_winners(event, previous[-1])
                if len(winners) < 2:
                    raise TournamentError(_("The knockout is complete."))
                new.method, pairing = "bracket", next_knockout_round(winners)
        else:  # groups_knockout
            groups = snake_groups(seeding, max(1, settings.group_count))
            schedules = [round_robin(g) for g in groups if len(g) >= 2]
            group_rounds = max(len(s) for s in schedules)
            if number <= group_rounds:
                new.stage, new.method = "group", "group_round_robin"
                games: list[Pairing] = []
                for s in schedules:
                    if number <= len(s):
                        games.extend(s[number - 1])
                pairing = _renumber(games)
            elif number == group_rounds + 1:
                played = _played(event, previous, "group")
                rankings = []
                for g in groups:
                    rows = standings(g, [m for m in played if m.home in g], scoring_for(
                        event_rulebook(event)), tiebreak_order(event, settings),
                        bye_points=settings.bye_points)
                    rankings.append([row.pair for row in rows])
                new.stage, new.method = "knockout", "group_knockout"
                pairing = group_knockout(rankings, max(1, settings.advance_per_group))
            else:
                winners = _knockout_winners(event, previous[-1])
                if len(winners) < 2:
                    raise TournamentError(_("The knockout is complete."))
                new.stage, new.method = "knockout", "bracket"
                pairing = next_knockout_round(winners)
    except PairingError as error:
        raise TournamentError(_("No valid pairing: %(detail)s", detail=str(error))) from error
    return new, pairing


def _renumber(pairings: list[Pairing]) -> list[Pairing]:
    real = [p for p in pairings if not p.is_bye]
    byes = [p for p in pairings if p.is_bye]
    return [Pairing(i + 1, p.home, p.away) for i, p in enumerate(real)] + [
        Pairing(0, p.home, None) for p in byes
    ]


def _table(event: Event, number: int) -> Table:
    for table in event.tables:
        if table.number == number:
            return table
    table = Table(event_id=event.id, number=number)
    db.session.add(table)
    event.tables.append(table)
    db.session.flush()
    return table


def _create_matches(event: Event, round_: Round) -> None:
    rulebook = event_rulebook(event)
    pairs = {p.id: p for p in event.pairs}
    for p in _as_pairings(round_.pairings):
        if p.away is None:
            continue
        table = _table(event, p.table)
        match = Match(
            event_id=event.id,
            round=round_.number,
            table_id=table.id,
            pair_a_id=p.home,
            pair_b_id=p.away,
        )
        match.pair_a, match.pair_b = pairs[p.home], pairs[p.away]
        match.seats = match.default_seats()
        db.session.add(match)
        db.session.flush()
        if rulebook.time_limit_minutes:
            db.session.add(MatchClock(match_id=match.id, limit_seconds=rulebook.time_limit_minutes * 60))


def open_round(event_id: int, *, actor: str, seed: int | None = None) -> Round:
    """Pair and open the next round: stores the computed pairing, creates tables and matches."""
    new, pairing = compute_next_round(event_id, seed=seed)
    event = _event(event_id)
    new.computed = _as_dicts(pairing)
    new.pairings = _as_dicts(pairing)
    new.opened_by = actor
    db.session.add(new)
    db.session.flush()
    _create_matches(event, new)
    _publish(event_id, {"kind": "round_opened", "round": new.number})
    db.session.commit()
    return new


def _round(round_id: int) -> Round:
    round_ = db.session.get(Round, round_id)
    if round_ is None:
        raise TournamentError(_("No such round."))
    return round_


def _round_matches(round_: Round) -> list[Match]:
    return list(
        db.session.execute(
            db.select(Match).filter_by(event_id=round_.event_id, round=round_.number).order_by(Match.id)
        ).scalars()
    )


def override_pairings(
    round_id: int, pairings: list[dict[str, Any]], *, actor: str, reason: str
) -> Round:
    """Replace an open round's pairing (the director's override): every pair once, a reason,
    and no match of the round started yet. The computed pairing stays on the round."""
    if not reason.strip():
        raise TournamentError(_("An override needs a reason."))
    round_ = _round(round_id)
    event = _event(round_.event_id)
    if round_.status != "open":
        raise TournamentError(_("The round is closed."))
    matches = _round_matches(round_)
    if any(m.last_seq for m in matches):
        raise TournamentError(_("A match of this round has started; it cannot be re-paired."))
    try:
        new = [
            Pairing(int(r["table"]), int(r["home"]), None if r.get("away") in (None, "") else int(r["away"]))
            for r in pairings
        ]
    except (KeyError, TypeError, ValueError) as error:
        raise TournamentError(_("Unreadable pairing.")) from error
    seen = [x for p in new for x in p.pairs()]
    if sorted(seen) != sorted(p.id for p in event.pairs):
        raise TournamentError(_("Every pair must appear exactly once."))
    tables = [p.table for p in new if not p.is_bye]
    if len(set(tables)) != len(tables) or any(t < 1 for t in tables):
        raise TournamentError(_("Each match needs its own table number."))
    before = list(round_.pairings)
    for match in matches:
        db.session.delete(match)  # unstarted: nothing in its log
    db.session.flush()
    round_.pairings = _as_dicts(new)
    db.session.add(
        PairingOverride(round_id=round_.id, before=before, after=round_.pairings, actor=actor, reason=reason)
    )
    _create_matches(event, round_)
    _publish(event.id, {"kind": "pairing_override", "round": round_.number})
    db.session.commit()
    return round_


def swap_pairs(round_id: int, first: int, second: int, *, actor: str, reason: str) -> Round:
    """Override by swapping two pairs' places in the round's pairing."""
    round_ = _round(round_id)
    rows = []
    for r in round_.pairings:
        row = dict(r)
        for key in ("home", "away"):
            if row[key] == first:
                row[key] = second
            elif row[key] == second:
                row[key] = first
        rows.append(row)
    return override_pairings(round_id, rows, actor=actor, reason=reason)


def pairing_diff(round_: Round) -> list[dict[str, Any]]:
    """Per table: the computed and the actual pairing, and whether they differ."""
    by_table_c = {r["table"]: r for r in round_.computed if r["away"] is not None}
    by_table_a = {r["table"]: r for r in round_.pairings if r["away"] is not None}
    rows = []
    for table in sorted(set(by_table_c) | set(by_table_a)):
        c, a = by_table_c.get(table), by_table_a.get(table)
        same = c is not None and a is not None and {c["home"], c["away"]} == {a["home"], a["away"]}
        rows.append({"table": table, "computed": c, "actual": a, "changed": not same})
    byes_c = sorted(r["home"] for r in round_.computed if r["away"] is None)
    byes_a = sorted(r["home"] for r in round_.pairings if r["away"] is None)
    if byes_c or byes_a:
        rows.append(
            {"table": 0, "computed": byes_c, "actual": byes_a, "changed": byes_c != byes_a, "bye": True}
        )
    return rows


# -- match status, confirmation and closing ---------------------------------------------------------


def _clock(match: Match) -> MatchClock | None:
    return db.session.execute(db.select(MatchClock).filter_by(match_id=match.id)).scalar_one_or_none()


def match_finished(match: Match) -> bool:
    """Finished on the board (the engine says so) or by the match clock (time-up)."""
    if (match.state_cache or {}).get("finished"):
        return True
    clock = _clock(match)
    return clock is not None and clock.time_up_at is not None


def confirmation_of(match: Match) -> ScoresheetConfirmation | None:
    """The referee's scoresheet confirmation of `match`, if given."""
    return db.session.execute(
        db.select(ScoresheetConfirmation).filter_by(match_id=match.id)
    ).scalar_one_or_none()


def confirm_scoresheet(match_id: int, *, actor: str, device: str = "") -> ScoresheetConfirmation:
    """The referee confirms a finished match's scoresheet (idempotent)."""
    match = db.session.get(Match, match_id)
    if match is None:
        raise TournamentError(_("No such match."))
    clock = _clock(match)
    if clock is not None:
        _check_time_up(match, clock)
    if not match_finished(match):
        raise TournamentError(_("The match is not finished; the scoresheet cannot be confirmed yet."))
    existing = confirmation_of(match)
    if existing is not None:
        return existing
    confirmation = ScoresheetConfirmation(
        match_id=match.id, seq=match.last_seq, confirmed_by=actor[:120], device=device[:200]
    )
    db.session.add(confirmation)
    _publish(match.event_id, {"kind": "confirmed", "match_id": match.id})
    db.session.commit()
    return confirmation


def round_status(round_: Round) -> dict[str, Any]:
    """Matches of the round with finished/confirmed flags, and whether it may close."""
    matches = _round_matches(round_)
    rows = []
    for match in matches:
        finished = match_finished(match)
        playoff = playoff_of(match) if round_.stage == "knockout" else None
        rows.append(
            {
                "match": match,
                "finished": finished,
                "confirmation": confirmation_of(match),
                "clock": clock_info(match.id),
                "playoff": playoff,
                "needs_playoff": playoff is None
                and round_.stage == "knockout"
                and finished
                and needs_playoff(round_.event, match),
            }
        )
    ready = all(r["finished"] and r["confirmation"] is not None for r in rows)
    return {
        "matches": rows,
        "finished": sum(r["finished"] for r in rows),
        "confirmed": sum(r["confirmation"] is not None for r in rows),
        "can_close": round_.status == "open" and ready,
    }


def close_round(round_id: int, *, actor: str) -> Round:
    """Close a round: only when every match is finished and its scoresheet confirmed."""
    round_ = _round(round_id)
    if round_.status == "closed":
        return round_
    status = round_status(round_)
    if not status["can_close"]:
        raise TournamentError(
            _("Round %(n)s cannot close: %(f)s of %(t)s finished, %(c)s confirmed.",
              n=round_.number, f=status["finished"], t=len(status["matches"]),
              c=status["confirmed"])
        )
    round_.status = "closed"
    round_.closed_by = actor
    round_.closed_at = utcnow()
    _publish(round_.event_id, {"kind": "round_closed", "round": round_.number})
    db.session.commit()
    return round_


# -- clocks -------------------------------------------------------------------------------------


def _seconds(moment: datetime | None) -> float | None:
    return None if moment is None else (moment - EPOCH).total_seconds()


def _remaining(clock: MatchClock, now: datetime) -> float:
    return clock_remaining(
        clock.limit_seconds,
        _seconds(clock.started_at),
        _seconds(now) or 0.0,
        paused_seconds=clock.paused_seconds,
        paused_at=_seconds(clock.paused_at),
    )


def _get_clock(match_id: int) -> MatchClock:
    clock = db.session.execute(db.select(MatchClock).filter_by(match_id=match_id)).scalar_one_or_none()
    if clock is None:
        raise TournamentError(_("This match has no clock (the rulebook sets no time limit)."))
    return clock


def clock_info(match_id: int) -> dict[str, Any] | None:
    """The clock as the tablet and the overview show it (None when the match is untimed).

    `remaining` is computed on the server at `server_time`; pages count down from it.
    """
    clock = db.session.execute(db.select(MatchClock).filter_by(match_id=match_id)).scalar_one_or_none()
    if clock is None:
        return None
    match = db.session.get(Match, match_id)
    assert match is not None
    _check_time_up(match, clock)
    now = utcnow()
    remaining = _remaining(clock, now)
    rulebook = event_rulebook(match.event)
    return {
        "match_id": match_id,
        "limit": clock.limit_seconds,
        "remaining": round(remaining, 1),
        "started": clock.started_at is not None,
        "running": clock.started_at is not None and clock.paused_at is None and clock.time_up_at is None,
        "paused": clock.paused_at is not None,
        "time_up": clock.time_up_at is not None,
        "may_start_deal": may_start_deal(rulebook, remaining) if clock.started_at else True,
        "no_new_deal_minutes": rulebook.no_new_deal_minutes,
        "server_time": _seconds(now),
    }


def _check_time_up(match: Match, clock: MatchClock) -> None:
    """Record time-up once the clock has run out (on any read: the server is the authority)."""
    if clock.started_at is None or clock.time_up_at is not None or clock.paused_at is not None:
        return
    if (match.state_cache or {}).get("finished"):
        return
    if _remaining(clock, utcnow()) > 0:
        return
    clock.time_up_at = utcnow()
    _publish(match.event_id, {"kind": "time_up", "match_id": match.id})
    db.session.commit()
    _mark_record_time_up(match)


def _mark_record_time_up(match: Match) -> None:
    """Put `"time_up": true` on the match's record so the engine applies the time-up rule."""
    try:
        match_services.mark_time_up(match.id, actor="clock", device="server")
    except match_services.ServiceError:
        db.session.rollback()  # the clock's time_up_at still decides the standings


def start_clock(match_id: int, *, actor: str) -> dict[str, Any]:
    """The referee starts the match clock (once; a second start changes nothing)."""
    clock = _get_clock(match_id)
    if clock.started_at is None:
        clock.started_at = utcnow()
        clock.started_by = actor[:120]
        db.session.commit()
    info = clock_info(match_id)
    assert info is not None
    _publish_clock(clock.match, info)
    return info


def pause_clock(match_id: int, *, actor: str) -> dict[str, Any]:
    """Stop the clock (e.g. a referee's ruling); `resume_clock` continues it."""
    clock = _get_clock(match_id)
    if clock.started_at is None or clock.time_up_at is not None:
        raise TournamentError(_("The clock is not running."))
    if clock.paused_at is None:
        clock.paused_at = utcnow()
        db.session.commit()
    info = clock_info(match_id)
    assert info is not None
    _publish_clock(clock.match, info)
    return info


def resume_clock(match_id: int, *, actor: str) -> dict[str, Any]:
    """Continue a paused clock; the pause does not count against the limit."""
    clock = _get_clock(match_id)
    if clock.paused_at is not None:
        clock.paused_seconds += (utcnow() - clock.paused_at).total_seconds()
        clock.paused_at = None
        db.session.commit()
    info = clock_info(match_id)
    assert info is not None
    _publish_clock(clock.match, info)
    return info


def _publish(event_id: int, data: dict[str, Any]) -> None:
    from web import live

    live.publish_in_session(f"event-{event_id}", data)


def _publish_clock(match: Match, info: dict[str, Any]) -> None:
    from web import live

    data = {"kind": "clock", **info}
    live.publish_in_session(f"clock-{match.id}", data)
    live.publish_in_session(f"event-{match.event_id}", data)
    db.session.commit()
    live.notify_local()


# -- standings, history, exports ------------------------------------------------------------------


def event_standings(event_id: int) -> list[StandingRow]:
    """The event's standings from every finished match and bye (main stage: all rounds)."""
    event = _event(event_id)
    settings = settings_for(event_id)
    played = _played(event, rounds_of(event_id))
    return standings(
        [p.id for p in event.pairs],
        played,
        scoring_for(event_rulebook(event)),
        tiebreak_order(event, settings),
        bye_points=settings.bye_points,
    )


def match_outcome(event: Event, match: Match) -> dict[str, Any] | None:
    """Both sides' scores of a finished match (match points, standard score, level difference …)."""
    facts = _match_facts(event, match)
    if facts is None:
        return None
    home, away = score_match(scoring_for(event_rulebook(event)), facts)
    return {"facts": facts, "home": home, "away": away}


def pair_history(event_id: int, pair_id: int) -> list[dict[str, Any]]:
    """One pair's rounds: opponent, seat side, table, score, bye."""
    event = _event(event_id)
    matches = {(m.round, m.pair_a_id, m.pair_b_id): m for m in event.matches}
    names = {p.id: p.name for p in event.pairs}
    rows: list[dict[str, Any]] = []
    for round_ in rounds_of(event_id):
        for p in _as_pairings(round_.pairings):
            if pair_id not in p.pairs():
                continue
            if p.away is None:
                rows.append({"round": round_.number, "bye": True, "table": None})
                continue
            match = matches.get((round_.number, p.home, p.away))
            side = 0 if p.home == pair_id else 1
            opponent = p.away if side == 0 else p.home
            outcome = match_outcome(event, match) if match is not None else None
            mine = None if outcome is None else outcome["home" if side == 0 else "away"]
            rows.append(
                {
                    "round": round_.number,
                    "bye": False,
                    "table": p.table,
                    "side": side,
                    "opponent": opponent,
                    "opponent_name": names.get(opponent, "?"),
                    "match": match,
                    "score": mine,
                }
            )
    return rows


def pairings_rows(event_id: int) -> list[dict[str, Any]]:
    """Every round's pairing, one row per table (byes with table 0), for export."""
    event = _event(event_id)
    names = {p.id: p.name for p in event.pairs}
    rows = []
    for round_ in rounds_of(event_id):
        for r in round_.pairings:
            rows.append(
                {
                    "round": round_.number,
                    "stage": round_.stage,
                    "table": r["table"],
                    "home_id": r["home"],
                    "home": names.get(r["home"], ""),
                    "away_id": r["away"],
                    "away": names.get(r["away"], "") if r["away"] is not None else "",
                    "bye": r["away"] is None,
                    "seed": round_.seed,
                }
            )
    return rows


def results_rows(event_id: int) -> list[dict[str, Any]]:
    """Every finished match's result with both sides' scores, for export."""
    event = _event(event_id)
    names = {p.id: p.name for p in event.pairs}
    rows = []
    for match in event.matches:
        outcome = match_outcome(event, match)
        if outcome is None:
            continue
        facts, home, away = outcome["facts"], outcome["home"], outcome["away"]
        confirmation = confirmation_of(match)
        rows.append(
            {
                "round": match.round,
                "table": match.table.number if match.table else None,
                "match_id": match.id,
                "home": names.get(match.pair_a_id or 0, ""),
                "away": names.get(match.pair_b_id or 0, ""),
                "home_outcome": home.outcome,
                "away_outcome": away.outcome,
                "home_match_points": home.match_points,
                "away_match_points": away.match_points,
                "home_deal_points": home.deal_points,
                "away_deal_points": away.deal_points,
                "level_difference": home.level_difference,
                "home_standard_score": home.standard_score,
                "away_standard_score": away.standard_score,
                "time_up": facts.time_up,
                "confirmed_by": confirmation.confirmed_by if confirmation else "",
            }
        )
    return rows


def standings_rows(event_id: int) -> list[dict[str, Any]]:
    """The standings as flat rows (every tie-break value in its own column), for export."""
    event = _event(event_id)
    names = {p.id: p.name for p in event.pairs}
    rows = []
    for row in event_standings(event_id):
        item: dict[str, Any] = {
            "rank": row.rank,
            "pair_id": row.pair,
            "pair": names.get(row.pair, ""),
            "played": row.played,
            "won": row.won,
            "drawn": row.drawn,
            "lost": row.lost,
            "byes": row.byes,
            "match_points": row.match_points,
            "small_points": row.small_points,
            "level_difference": row.level_difference,
            "deal_points": row.deal_points,
            "playoff": row.playoff,
        }
        for name, value in row.decided_by:
            item[f"tb_{name}"] = value
        rows.append(item)
    return rows


def to_csv(rows: list[dict[str, Any]]) -> str:
    """Rows as CSV (UTF-8 text; the header from the first row's keys)."""
    out = io.StringIO()
    if rows:
        writer = csv.DictWriter(out, fieldnames=list(rows[0].keys()), extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    return out.getvalue()
