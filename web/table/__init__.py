"""The referee's tablet (裁判平板): table pages reached by the table's token or PIN.

Routes (both URL forms reach the same views; a token or a PIN session opens one table only):

    /t/                                   PIN entry (the referee types the table's PIN)
    /t/<token>/                           the table's matches      (/table/<id>/ after a PIN)
    /t/<token>/match/<id>                 live entry: seats, declarations, bury, tricks…
    /t/<token>/match/<id>/state           the tablet's view of the match (JSON)
    POST /t/<token>/match/<id>/post       one entry: {kind: event|undo|seat|deal, …,
                                          expected_seq, idempotency_key, device} (JSON)

The tablet's Chinese strings live in `web/table/translations` (a catalog of this package,
merged under the main one, so the main catalog wins where both translate a msgid).
"""

from pathlib import Path
from typing import Any

from flask import Blueprint

bp = Blueprint("table", __name__)
TRANSLATIONS = Path(__file__).resolve().parent / "translations"


@bp.record_once
def _add_translations(state: Any) -> None:
    from web.i18n import compile_catalogs

    compile_catalogs(TRANSLATIONS)
    babel_config = state.app.extensions.get("babel")
    directories = getattr(babel_config, "translation_directories", None)
    if isinstance(directories, list) and str(TRANSLATIONS) not in directories:
        directories.insert(0, str(TRANSLATIONS))


from web.table import routes  # noqa: E402,F401  (routes attach themselves to bp)
