"""End to end: the scoresheet renders in the browser, prints (print CSS, A4) and downloads
as a PDF with the CJK fonts embedded."""

from __future__ import annotations

import re
import shutil
import subprocess
import uuid
from pathlib import Path
from typing import Any

import pytest

from referee.guandan import simulate_guandan
from referee.rulebooks import find_rulebook
from referee.shengji.simulate import simulate_match


def _seed(live_app: Any, game: str, rulebook: str, deals: int) -> int:
    from web import services
    from web.extensions import db
    from web.models import Event, Match, Pair, Player, Table

    tag = uuid.uuid4().hex[:6]
    with live_app.app_context():
        event = Event(name=f"打印测试 {tag}", game=game, rulebook=rulebook)
        pairs = []
        for name, players in (("红队", ("张三", "李四")), ("蓝队", ("王五", "赵六"))):
            pair = Pair(event=event, name=f"{name}{tag}")
            pair.players = [Player(name=players[0], position=0), Player(name=players[1], position=1)]
            pairs.append(pair)
        match = Match(event=event, table=Table(event=event, number=1), pair_a=pairs[0], pair_b=pairs[1])
        db.session.add_all([event, match])
        db.session.flush()
        match.seats = match.default_seats()
        db.session.commit()
        book = find_rulebook(rulebook)
        doc = simulate_guandan(book, 5) if game == "guandan" else simulate_match(book, 5)
        services.import_record(
            match.id, {**doc, "players": match.seats, "deals": doc["deals"][:deals]}, actor="seed"
        )
        return int(match.id)


@pytest.mark.parametrize(
    ("game", "rulebook", "deals"), [("shengji", "union-2deck", 8), ("guandan", "guandan-lyg", 6)]
)
def test_scoresheet_renders_and_prints(live_app, live_server, page, tmp_path: Path, game, rulebook, deals):
    match_id = _seed(live_app, game, rulebook, deals)
    page.goto(f"{live_server}/public/matches/{match_id}/scoresheet")
    rows = page.locator("table.deals tbody tr")
    assert rows.count() == deals
    assert page.locator(".signatures div").count() == 3
    assert page.locator(".toolbar").is_visible()
    # Printing hides the toolbar (print CSS) and gives A4 pages.
    page.emulate_media(media="print")
    assert not page.locator(".toolbar").is_visible()
    printed = tmp_path / "printed.pdf"
    page.pdf(path=str(printed), prefer_css_page_size=True)
    assert printed.read_bytes().startswith(b"%PDF")
    page.emulate_media(media="screen")
    # The server's PDF (WeasyPrint): CJK fonts embedded, the names readable.
    response = page.request.get(f"{live_server}/public/matches/{match_id}/scoresheet.pdf")
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(response.body())
    if shutil.which("pdffonts"):
        fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True)
        assert "CJK" in fonts.stdout
        text = subprocess.run(
            ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
        ).stdout
        assert "张三" in text and "记分表" in text
        for path in (printed, pdf):
            info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
            size = next(line for line in info.stdout.splitlines() if line.startswith("Page size"))
            width, height = (float(x) for x in re.findall(r"[\d.]+", size)[:2])
            assert abs(width - 595.3) < 2 and abs(height - 841.9) < 2, size  # A4 portrait
    assert page.console_errors == []

