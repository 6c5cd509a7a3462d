"""Scoresheet: a row per deal from the replay, penalties with reasons, corrections, PDF with
embedded CJK fonts."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from referee.guandan import simulate_guandan
from referee.rulebooks import find_rulebook
from referee.shengji.simulate import simulate_match
from web import services


def _shengji(factory, deals=3, options=None):
    match = factory.match(rulebook="union-2deck", options=options)
    doc = simulate_match(find_rulebook("union-2deck", options), 11)
    doc = {**doc, "players": match.seats, "deals": doc["deals"][:deals]}
    if options:
        doc["options"] = options
    # A penalty with the referee's reason in deal 1 (after the bury, before the tricks).
    events = list(doc["deals"][0]["events"])
    bury = next(i for i, e in enumerate(events) if e["type"] == "bury")
    events.insert(bury + 1, {"type": "penalty", "seat": 1, "kind": "talking", "note": "出牌前说话"})
    doc["deals"] = [{**doc["deals"][0], "events": events}, *doc["deals"][1:]]
    services.import_record(match.id, doc, actor="td")
    return match


def test_shengji_scoresheet_rows_and_sections(client, factory):
    match = _shengji(factory, options={"trump_chain": "stated"})
    page = client.get(f"/public/matches/{match.id}/scoresheet").data.decode()
    state = services.match_state(match.id)
    assert page.count('<td class="num">') >= 3 * 5
    for deal in state["result"]["deals"]:
        assert f'<td class="num">{deal["number"]}</td>' in page
    assert "trump_chain = stated" in page  # the non-default option
    assert "出牌前说话" in page  # the penalty's reason
    assert "union-2deck" in page and match.pair_a.name in page and match.pair_b.name in page
    for label in ("裁判签名", "A 方队长签名", "B 方队长签名"):
        assert label in page


def test_scoresheet_lists_corrections(client, factory):
    match = _shengji(factory)
    seq = services.match_state(match.id)["event_seqs"][0][0]
    services.correct_event(match.id, seq, None, reason="重复录入", actor="director:td")
    page = client.get(f"/public/matches/{match.id}/scoresheet").data.decode()
    assert "重复录入" in page and "director:td" in page


def test_guandan_scoresheet_has_order_levels_up_tribute(client, factory):
    match = factory.match(game="guandan", rulebook="guandan-lyg")
    doc = simulate_guandan(find_rulebook("guandan-lyg"), 4)
    doc = {**doc, "players": match.seats, "deals": doc["deals"][:4]}
    services.import_record(match.id, doc, actor="td")
    page = client.get(f"/public/matches/{match.id}/scoresheet").data.decode()
    assert "名次" in page and "升级" in page and "进贡" in page
    has_tribute = any(
        e["type"] in ("tribute", "anti_tribute") for d in doc["deals"] for e in d["events"]
    )
    assert ("还贡" in page or "抗贡" in page) == has_tribute or not has_tribute
    assert page.count("›") >= 3 * len(doc["deals"])


@pytest.mark.skipif(not shutil.which("pdffonts"), reason="poppler-utils not installed")
def test_scoresheet_pdf_embeds_cjk_fonts(client, factory, tmp_path: Path):
    match = _shengji(factory)
    response = client.get(f"/public/matches/{match.id}/scoresheet.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF")
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(response.data)
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True)
    rows = [line.split() for line in fonts.stdout.splitlines()[2:]]
    cjk = [row for row in rows if "CJK" in row[0]]
    assert cjk, fonts.stdout
    assert all(row[-5] == "yes" for row in cjk), fonts.stdout  # the "emb" column
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True)
    assert "记分表" in text.stdout and match.pair_a.name in text.stdout
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    assert "595.276 x 841.89" in info.stdout or "A4" in info.stdout  # A4 pages


@pytest.mark.skipif(not shutil.which("pdfinfo"), reason="poppler-utils not installed")
def test_all_scoresheets_of_a_round_in_one_pdf(director_client, factory, tmp_path: Path):
    first = _shengji(factory, deals=2)
    second = factory.match(event=first.event)
    services.import_record(
        second.id,
        {**simulate_match(find_rulebook("union-2deck"), 12), "players": second.seats,
         "deals": simulate_match(find_rulebook("union-2deck"), 12)["deals"][:1]},
        actor="td",
    )
    response = director_client.get(f"/director/events/{first.event_id}/scoresheets.pdf?round=1")
    assert response.status_code == 200 and response.data.startswith(b"%PDF")
    pdf = tmp_path / "all.pdf"
    pdf.write_bytes(response.data)
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
    assert first.pair_a.name in text and second.pair_b.name in text
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
    pages = next(line for line in info.splitlines() if line.startswith("Pages"))
    assert int(pages.split()[-1]) >= 2
    assert director_client.get(f"/director/events/{first.event_id}/scoresheets.pdf?round=9").status_code == 404


def test_eighty_rr_scoresheet_shows_match_points(client, factory):
    """eighty-rr scores each deal in match points (RECORD_FORMAT: deals carry match_points)."""
    match = factory.match(rulebook="eighty-rr")
    doc = simulate_match(find_rulebook("eighty-rr"), 3)
    services.import_record(match.id, {**doc, "players": match.seats}, actor="td")
    result = services.match_state(match.id)["result"]
    points = [deal["match_points"] for deal in result["deals"] if deal.get("match_points")]
    assert points
    page = client.get(f"/public/matches/{match.id}/scoresheet").data.decode()
    assert "比赛分 A : B" in page
    assert f"{points[0][0]} : {points[0][1]}" in page
