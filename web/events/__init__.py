"""Running the event: rounds and pairings, match clocks, standings, the hall display, exports."""

from flask import Blueprint

bp = Blueprint("events", __name__)

from web.events import models, routes  # noqa: E402,F401  (models register; routes attach to bp)
