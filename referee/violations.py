"""Rule violations found by the engine: reported, never raised.

A violation names the event that broke the rule and, for hindsight findings, the later
event that proves it (a revoke is proved by the card the seat plays afterwards).

>>> Violation("revoke", event=7, seat=1, proof_event=12).to_json()
{'event': 7, 'seat': 1, 'kind': 'revoke', 'proof_event': 12}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.cards import Card

__all__ = ["Violation"]


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule. `event` and `proof_event` are 0-based indexes into the deal's events.

    `rule_id` is the stable id the web layer translates (`shengji.follow.suit`);
    `detail` is a short English explanation quoting the input; `cards` the cards involved.
    """

    kind: str
    event: int
    seat: int | None = None
    proof_event: int | None = None
    rule_id: str = ""
    detail: str = ""
    cards: tuple[Card, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The violation as in RECORD_FORMAT.md (extra fields only when set)."""
        data: dict[str, Any] = {"event": self.event, "seat": self.seat, "kind": self.kind}
        if self.proof_event is not None:
            data["proof_event"] = self.proof_event
        if self.rule_id:
            data["rule_id"] = self.rule_id
        if self.detail:
            data["detail"] = self.detail
        if self.cards:
            data["cards"] = [str(card) for card in self.cards]
        return data
