"""The Flask application factory: config, extensions, blueprints and CLI (no module-level work).

    flask --app app:create_app run

Config comes from (later wins): defaults, `instance/config.py`, the environment
(`DATABASE_URL`, `SECRET_KEY`), then `test_config`.
"""

from __future__ import annotations

import importlib
import logging
import os
import secrets
from pathlib import Path
from typing import Any

import flask_babel
from flask import Flask, has_request_context, render_template, session
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from sqlalchemy import event as sa_event
from sqlalchemy.engine import Engine

ROOT = Path(__file__).resolve().parent

# Blueprint packages other parts own; the app starts without any of them.
OPTIONAL_BLUEPRINTS = ("web.table", "web.camera", "web.events")
LANGUAGES = {"zh_Hans": "中文", "en": "English"}

log = logging.getLogger(__name__)


def _database_url(url: str) -> str:
    """Use the psycopg 3 driver for plain `postgres://`/`postgresql://` URLs."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _secret_key(instance: Path) -> str:
    """A persistent random key in `instance/secret_key` when none is configured."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
    return path.read_text().strip()


@sa_event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
    """WAL (readers never block the writer), foreign keys on, wait for locks (CTFd's habit)."""
    module = type(dbapi_connection).__module__
    if not module.startswith("sqlite3"):
        return
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _select_locale() -> str:
    if not has_request_context():  # CLI, services called from scripts
        return "zh_Hans"
    # Chinese first (issue 5): the browser's Accept-Language is ignored; only the language
    # switch (stored in the session) turns a page English.
    lang = session.get("lang")
    if lang in LANGUAGES:
        return str(lang)
    return "zh_Hans"


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: config, extensions, blueprints, error pages and `flask demo` CLI."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True)

    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{instance / 'referee.sqlite'}",
        SQLALCHEMY_ENGINE_OPTIONS={"pool_pre_ping": True},
        BABEL_DEFAULT_LOCALE="zh_Hans",
        BABEL_TRANSLATION_DIRECTORIES=str(ROOT / "translations"),
        WTF_CSRF_TIME_LIMIT=None,
        SESSION_COOKIE_SAMESITE="Lax",
        REMEMBER_COOKIE_SAMESITE="Lax",
        LIVE_POLL_SECONDS=0.5,
        LIVE_STREAM_SECONDS=120.0,
        OPTIONAL_BLUEPRINTS=OPTIONAL_BLUEPRINTS,
        PUBLIC_BASE_URL="",
    )
    app.config.from_pyfile("config.py", silent=True)
    if os.environ.get("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
    if os.environ.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ["SECRET_KEY"]
    if test_config:
        app.config.update(test_config)
    app.config["SQLALCHEMY_DATABASE_URI"] = _database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)

    from web import i18n
    from web.extensions import babel, csrf, db, login_manager, migrate

    i18n.compile_catalogs(ROOT / "translations")
    db.init_app(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"))
    csrf.init_app(app)
    babel.init_app(app, locale_selector=_select_locale)
    # The locale is cached on the app context, which a request may share (tests, CLI).
    app.before_request(flask_babel.refresh)
    login_manager.init_app(app)

    import web.models  # noqa: F401  (the models must be known before migrations run)
    from web import api, auth, demo, director, live, public

    auth.init_app(app)
    i18n.init_app(app, LANGUAGES)
    app.register_blueprint(public.bp)
    app.register_blueprint(director.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(live.bp)
    _register_optional(app)
    demo.init_app(app)
    from web.director.cli import director_cli

    app.cli.add_command(director_cli)
    _register_error_pages(app)
    return app


def _register_optional(app: Flask) -> None:
    """Register the blueprints of packages that exist (`bp`, `blueprint` or `init_app`)."""
    for name in app.config["OPTIONAL_BLUEPRINTS"]:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name and name.startswith(error.name):
                continue  # the package is not there (yet): run without it
            raise
        init = getattr(module, "init_app", None)
        if callable(init):
            init(app)
            continue
        for attribute in ("bp", "blueprint"):
            blueprint = getattr(module, attribute, None)
            if blueprint is not None:
                app.register_blueprint(blueprint)
                break
        else:
            log.warning("%s has no blueprint (bp) to register", name)


def _register_error_pages(app: Flask) -> None:
    def page(code: int, title: str, message: str) -> tuple[str, int]:
        return render_template("errors/error.html", code=code, title=title, message=message), code

    @app.errorhandler(403)
    def forbidden(error: Exception) -> tuple[str, int]:
        return page(403, _("Forbidden"), _("You may not open this page."))

    @app.errorhandler(404)
    def not_found(error: Exception) -> tuple[str, int]:
        return page(404, _("Not found"), _("There is no such page."))

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> tuple[str, int]:
        return page(400, _("Form expired"), _("The form was stale or forged; reload and try again."))

    @app.errorhandler(500)
    def server_error(error: Exception) -> tuple[str, int]:
        return page(500, _("Server error"), _("Something went wrong; the log is unchanged."))
