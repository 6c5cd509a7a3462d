"""End-to-end fixtures: the app served on a free 127.0.0.1 port, and headless Chromium.

`live_app` is the Flask app (fresh SQLite file database, tables created) living in the
test process, so a test seeds data with `with live_app.app_context(): ...` through the
services and models; `live_server` is the base URL (``http://127.0.0.1:PORT``) of the same
app served by a threaded werkzeug server in a background thread (SSE streams need threads).
`browser` is one Chromium for the session (`/usr/bin/chromium`, Playwright cannot download
browsers here); `context` and `page` are fresh per test, 1024×768 like a landscape tablet.
A test needing a second tablet calls `browser.new_context(...)` itself.
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
TABLET_LANDSCAPE = {"width": 1024, "height": 768}
TABLET_PORTRAIT = {"width": 768, "height": 1024}

def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test under tests/e2e carries the `e2e` marker (select with `-m e2e`)."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def live_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The app on a fresh SQLite file database, all tables created."""
    from app import create_app
    from web.extensions import db

    db_path = tmp_path_factory.mktemp("e2e-db") / "referee.sqlite"
    uri = f"sqlite:///{db_path}"
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "e2e-secret",
            "SQLALCHEMY_DATABASE_URI": uri,
            "DATABASE_URL": uri,
            "SERVER_NAME": None,
        }
    )
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture(scope="session")
def live_server(live_app: Any) -> Iterator[str]:
    """Base URL of `live_app` served in a background thread on a free port."""
    from werkzeug.serving import make_server

    port = _free_port()
    server = make_server("127.0.0.1", port, live_app, threaded=True)
    server.daemon_threads = True  # open SSE streams must not block shutdown
    thread = threading.Thread(target=server.serve_forever, name="e2e-live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="session")
def playwright_instance() -> Iterator[Any]:
    """The Playwright driver (sync API) for the session."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium not found at {CHROMIUM}")
    with sync_api.sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_instance: Any) -> Iterator[Any]:
    """Headless Chromium, shared by the session."""
    chromium = playwright_instance.chromium.launch(executable_path=CHROMIUM, headless=True)
    yield chromium
    chromium.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A fresh browser context (cookies, localStorage) sized as a landscape tablet."""
    ctx = browser.new_context(viewport=TABLET_LANDSCAPE, locale="zh-CN", has_touch=True)
    ctx.set_default_timeout(10_000)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: Any) -> Iterator[Any]:
    """A page in `context`; console errors are collected on `page.console_errors`."""
    new_page = context.new_page()
    errors: list[str] = []
    new_page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    new_page.on("pageerror", lambda exc: errors.append(str(exc)))
    new_page.console_errors = errors  # type: ignore[attr-defined]
    yield new_page
    new_page.close()
