"""Helpers for the director's end-to-end tests: seed a director and a match into `live_app`."""

from __future__ import annotations

import uuid
from typing import Any

from referee.rulebooks import find_rulebook
from referee.shengji.simulate import simulate_match

PASSWORD = "e2e-director-pass"


def seed_match(live_app: Any, deals: int = 2) -> dict[str, Any]:
    """A director, an event with one table and a match holding `deals` simulated deals."""
    from web import services
    from web.extensions import db
    from web.models import Event, Match, Pair, Player, Table, User

    tag = uuid.uuid4().hex[:6]
    with live_app.app_context():
        user = User(username=f"td-{tag}", is_director=True)
        user.set_password(PASSWORD)
        event = Event(name=f"端到端 {tag}", game="shengji", rulebook="shuangsheng-17")
        pairs = []
        for name, players in (("东队", ("赵", "钱")), ("西队", ("孙", "李"))):
            pair = Pair(event=event, name=f"{name}{tag}")
            pair.players = [Player(name=players[0], position=0), Player(name=players[1], position=1)]
            pairs.append(pair)
        table = Table(event=event, number=1)
        match = Match(event=event, table=table, pair_a=pairs[0], pair_b=pairs[1])
        db.session.add_all([user, event, match])
        db.session.flush()
        match.seats = match.default_seats()
        db.session.commit()
        doc = simulate_match(find_rulebook("shuangsheng-17"), 21)
        head = {**doc, "players": match.seats, "deals": doc["deals"][:deals]}
        services.import_record(match.id, head, actor="seed")
        state = services.match_state(match.id)
        return {
            "username": user.username,
            "match_id": match.id,
            "event_id": event.id,
            "state_seq": state["seq"],
            "event_seqs": state["event_seqs"],
            "record": state["record"],
            "next_deal": doc["deals"][deals],
        }
