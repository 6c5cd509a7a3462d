"""The table record (`table-record/1`): load, validate and replay a whole document.

`load_record(text)` reads the JSON; `replay_document(doc)` checks the document-level
fields and dispatches to the game: Shengji to `replay_match`, Guandan to
`replay_guandan`. Anything that makes the record unreplayable raises
`InvalidRecordError` naming the deal and the 0-based event index.

>>> doc = load_record('{"format": "table-record/1", "game": "shengji", '
...                   '"rulebook": "eighty-rr", "deals": []}')
>>> replay_document(doc)["match"]["finished"]
False
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from referee.cards import parse_rank
from referee.errors import InvalidRecordError, NotationError
from referee.rulebooks import Rulebook, find_rulebook

__all__ = ["FORMAT", "RESULT_FORMAT", "load_record", "replay_document", "rulebook_of"]

FORMAT = "table-record/1"
RESULT_FORMAT = "table-result/1"
GAMES = ("shengji", "guandan")


def load_record(text: str) -> dict[str, Any]:
    """Parse a record's JSON text; `InvalidRecordError` for unreadable JSON or a non-object.

    >>> load_record("[1]")
    Traceback (most recent call last):
    referee.errors.InvalidRecordError: a table record must be a JSON object
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidRecordError(
            f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})",
            rule_id="record.json",
        ) from None
    if not isinstance(data, dict):
        raise InvalidRecordError("a table record must be a JSON object", rule_id="record.document")
    return data


def rulebook_of(doc: Mapping[str, Any]) -> Rulebook:
    """The document's rulebook with its `options`, checked against `game`."""
    name = doc.get("rulebook")
    if not isinstance(name, str):
        raise InvalidRecordError(
            f"rulebook must be a preset name, not {name!r}", rule_id="record.rulebook"
        )
    options = doc.get("options") or {}
    if not isinstance(options, Mapping):
        raise InvalidRecordError("options must be a JSON object", rule_id="record.options")
    try:
        rulebook = find_rulebook(name, options)
    except NotationError as error:
        where = "record.options" if error.where.startswith("options") else "record.rulebook"
        raise InvalidRecordError(str(error), rule_id=where) from None
    game = doc.get("game", rulebook.game)
    if game != rulebook.game:
        raise InvalidRecordError(
            f"rulebook {name!r} is for {rulebook.game}, not {game!r}", rule_id="record.game"
        )
    return rulebook


def _check_document(doc: Mapping[str, Any]) -> None:
    if doc.get("format") != FORMAT:
        raise InvalidRecordError(
            f"format must be {FORMAT!r}, not {doc.get('format')!r}", rule_id="record.format"
        )
    game = doc.get("game")
    if game not in GAMES:
        raise InvalidRecordError(
            f"game must be one of {', '.join(GAMES)}, not {game!r}", rule_id="record.game"
        )
    players = doc.get("players")
    if players is not None and (
        not isinstance(players, list)
        or len(players) != 4
        or not all(isinstance(p, str) for p in players)
    ):
        raise InvalidRecordError("players must be a list of four names", rule_id="record.players")
    levels = doc.get("levels")
    if levels is not None:
        if not isinstance(levels, list) or len(levels) != 2:
            raise InvalidRecordError("levels must be a list of two levels", rule_id="record.levels")
        for side, level in enumerate(levels):
            if not isinstance(level, str):
                raise InvalidRecordError(
                    f"levels[{side}] must be a rank, not {level!r}", rule_id="record.levels"
                )
            try:
                parse_rank(level, f"levels[{side}]")
            except NotationError as error:
                raise InvalidRecordError(str(error), rule_id="record.levels") from None
    deals = doc.get("deals")
    if not isinstance(deals, list):
        raise InvalidRecordError("deals must be a list", rule_id="record.deals")
    for number, deal in enumerate(deals, start=1):
        if not isinstance(deal, Mapping):
            raise InvalidRecordError(
                "a deal must be a JSON object", deal=number, rule_id="record.deal"
            )
        if not isinstance(deal.get("events", []), list):
            raise InvalidRecordError("events must be a list", deal=number, rule_id="record.events")


def _canonical_levels(doc: Mapping[str, Any]) -> dict[str, Any]:
    levels = doc.get("levels")
    if levels is None:
        return dict(doc)
    data = dict(doc)
    data["levels"] = [str(parse_rank(level).value) for level in levels]
    return data


def replay_document(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Replay a table record into the `table-result/1` document (both games).

    Raises `InvalidRecordError` for a document that cannot be replayed; rules broken at
    the table are reported as `violations` inside the result.
    """
    if not isinstance(doc, Mapping):
        raise InvalidRecordError("a table record must be a JSON object", rule_id="record.document")
    _check_document(doc)
    rulebook = rulebook_of(doc)
    doc = _canonical_levels(doc)
    if rulebook.game == "guandan":
        from referee.guandan import replay_guandan

        return replay_guandan(rulebook, doc)
    from referee.shengji.match import replay_match

    try:
        return replay_match(rulebook, doc).to_json()
    except NotationError as error:  # a field read late (deal seats, levels)
        raise InvalidRecordError(str(error), rule_id=error.rule_id) from None
