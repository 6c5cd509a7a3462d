"""Knockout play-offs (加赛): a drawn knockout match advances the pair the director names,
with a reason, audited, shown on the pairings page and used by the next knockout round."""

from __future__ import annotations

from typing import Any

import pytest
from events_helpers import finish_eighty, make_event

from web.events import services as ts
from web.events.models import PlayoffResult, Round
from web.extensions import db
from web.models import Match


def _matches(event: Any, number: int) -> list[Match]:
    return list(
        db.session.execute(
            db.select(Match).filter_by(event_id=event.id, round=number).order_by(Match.id)
        ).scalars()
    )


def _knockout_with_a_draw(factory: Any) -> tuple[Any, Match, Match]:
    event = make_event(factory, 4)
    ts.update_settings(event.id, actor="td", format="knockout")
    ts.open_round(event.id, actor="td")
    drawn, won = _matches(event, 1)
    finish_eighty(drawn.id, None)
    finish_eighty(won.id, 0)
    for match in (drawn, won):
        ts.confirm_scoresheet(match.id, actor="ref")
    round1 = db.session.execute(db.select(Round).filter_by(event_id=event.id, number=1)).scalar_one()
    ts.close_round(round1.id, actor="td")
    return event, drawn, won


def test_drawn_knockout_blocks_until_playoff_then_away_pair_advances(app: Any, factory: Any) -> None:
    event, drawn, won = _knockout_with_a_draw(factory)
    with pytest.raises(ts.TournamentError):
        ts.open_round(event.id, actor="td")
    assert ts.needs_playoff(event, drawn) and not ts.needs_playoff(event, won)
    ts.record_playoff(drawn.id, drawn.pair_b_id, reason="加赛一副 B 胜", actor="director:td")
    row = db.session.execute(db.select(PlayoffResult).filter_by(match_id=drawn.id)).scalar_one()
    assert (row.actor, row.reason, row.winner_pair_id) == ("director:td", "加赛一副 B 胜", drawn.pair_b_id)
    assert row.created_at is not None
    final = ts.open_round(event.id, actor="td")
    assert {final.pairings[0]["home"], final.pairings[0]["away"]} == {drawn.pair_b_id, won.pair_a_id}


def test_playoff_refused_without_reason_for_outsider_or_for_a_decided_match(app: Any, factory: Any) -> None:
    event, drawn, won = _knockout_with_a_draw(factory)
    with pytest.raises(ts.TournamentError):
        ts.record_playoff(drawn.id, drawn.pair_a_id, reason="  ", actor="td")
    with pytest.raises(ts.TournamentError):
        ts.record_playoff(drawn.id, won.pair_a_id, reason="x", actor="td")
    with pytest.raises(ts.TournamentError):
        ts.record_playoff(won.id, won.pair_b_id, reason="x", actor="td")
    ts.record_playoff(drawn.id, drawn.pair_a_id, reason="x", actor="td")
    with pytest.raises(ts.TournamentError):  # recorded once
        ts.record_playoff(drawn.id, drawn.pair_b_id, reason="y", actor="td")


def test_playoff_form_on_rounds_page_and_result_on_pairings_page(
    app: Any, director_client: Any, factory: Any
) -> None:
    event, drawn, _won = _knockout_with_a_draw(factory)
    page = director_client.get(f"/events/{event.id}/rounds").get_data(as_text=True)
    assert f"/events/{event.id}/matches/{drawn.id}/playoff" in page
    response = director_client.post(
        f"/events/{event.id}/matches/{drawn.id}/playoff",
        data={"winner": drawn.pair_a_id, "reason": "加赛胜"},
    )
    assert response.status_code == 302
    assert ts.playoff_of(drawn) is not None
    pairings = director_client.get(f"/events/{event.id}/rounds/1").get_data(as_text=True)
    assert "加赛胜" in pairings


def test_playoff_route_needs_a_director(app: Any, client: Any, factory: Any) -> None:
    event, drawn, _won = _knockout_with_a_draw(factory)
    response = client.post(f"/events/{event.id}/matches/{drawn.id}/playoff",
                           data={"winner": drawn.pair_a_id, "reason": "x"})
    assert response.status_code in (302, 401, 403)
    assert ts.playoff_of(drawn) is None
