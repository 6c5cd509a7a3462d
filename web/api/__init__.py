"""JSON API: match state (read-only, public), referee writes scoped by table token."""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api")

from web.api import routes  # noqa: E402,F401  (routes attach themselves to bp)
