"""Public read-only pages: live table and event views, scoresheets, the language switch."""

from flask import Blueprint

bp = Blueprint("public", __name__)

from web.public import routes  # noqa: E402,F401  (routes attach themselves to bp)
