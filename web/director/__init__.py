"""The director's pages: events, pairs, tables, matches, live overview, corrections, exports."""

from flask import Blueprint

bp = Blueprint("director", __name__, url_prefix="/director")

from web.director import routes  # noqa: E402,F401  (routes attach themselves to bp)
