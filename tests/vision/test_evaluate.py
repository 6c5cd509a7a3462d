"""The card-level metric of `make vision-eval`: distinct cards per photo, jokers as one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.detector import SIZE_GAIN
from vision.evaluate import (
    AUDITED,
    RESTORED,
    PoolError,
    Score,
    add_counts,
    card_set,
    evaluate,
    fold_record,
    footnote,
    pool,
    score_photo,
    split_dev_set,
)
from vision.labels import (
    AuditEntry,
    held_back_fold,
    is_held_back,
    load_audit,
    load_dev_set,
    parse_label_line,
)


def test_jokers_compare_as_is_a_joker() -> None:
    """README caveat 3: the data set's joker colours are unreliable."""
    assert card_set(["BJ", "SJ", "AS", "AS"]) == {"JOKER", "AS"}


def test_score_counts_distinct_cards() -> None:
    s = Score()
    score_photo(s, {"AS", "KH", "JOKER"}, {"AS", "KH", "2C"})
    score_photo(s, set(), {"3D"})
    assert (s.tp, s.fp, s.fn, s.photos) == (2, 1, 2, 2)
    assert round(s.precision, 3) == 0.667 and s.recall == 0.5


def test_held_back_split_is_stable_and_a_fifth(carddata) -> None:  # type: ignore[no-untyped-def]
    dev = load_dev_set()
    held = [it for it in dev if it.held_back]
    assert 0.12 < len(held) / len(dev) < 0.28
    assert all(is_held_back(it.stem) for it in held)
    assert {it.subset for it in held} == {"webcam_multi", "phone_std", "phone_blackgold"}


def test_another_fifth_can_be_held_back_to_measure_a_recipe_on_other_photos(
        carddata, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """`VISION_HELD_BACK=k` holds back the photos whose crc32 is k modulo 5 instead of 0;
    the five fifths cover the set without overlap; anything but 0-4 is refused."""
    fifths = []
    for k in range(5):
        monkeypatch.setenv("VISION_HELD_BACK", str(k))
        assert held_back_fold() == k
        fifths.append({it.stem for it in load_dev_set() if it.held_back})
    assert all(fifths)
    assert sum(map(len, fifths)) == len(set().union(*fifths)) == len(load_dev_set())
    for bad in ("5", "-1", "x", "0.5"):
        monkeypatch.setenv("VISION_HELD_BACK", bad)
        with pytest.raises(ValueError, match="VISION_HELD_BACK"):
            is_held_back("IMG_7731")
    monkeypatch.delenv("VISION_HELD_BACK")
    assert {it.stem for it in load_dev_set() if it.held_back} == fifths[0]


def test_a_label_line_is_a_box_or_a_polygon_made_a_box() -> None:
    """Roboflow writes a region drawn as a polygon as `class x1 y1 x2 y2 ...`; it is read as
    its bounding box, never skipped (skipping it took labelled cards for unlabelled ones)."""
    assert parse_label_line("15 0.4 0.08 0.05 0.04") == (15, 0.4, 0.08, 0.05, 0.04)
    c, x, y, w, h = parse_label_line("22 0.1 0.2 0.3 0.25 0.2 0.4 0.05 0.3")
    assert c == 22
    assert (round(x, 6), round(y, 6), round(w, 6), round(h, 6)) == (0.175, 0.3, 0.25, 0.2)
    for bad in ("3 0.5 0.5 0.1", "3 0.1 0.1 0.2 0.2 0.3", "3 0.1 0.1 0.2 0.2 0.3 0.3 0.4",
                "x 0.5 0.5 0.1 0.1", "3 0.5 0.5 0 0.1", "3 0.5 0.5 0.1 one", "3 1.5 0.5 0.1 0.1"):
        with pytest.raises(ValueError, match="IMG_1.txt:2"):
            parse_label_line(bad, "IMG_1.txt:2")


def test_polygon_labels_count_as_labelled_cards(carddata) -> None:  # type: ignore[no-untyped-def]
    """IMG_7804 is labelled by polygons only (eight indices of four cards), IMG_7839's 6♥
    and J♣ too: read as boxes, not as a photo without cards and two unlabelled cards."""
    dev = {it.stem: it for it in load_dev_set(("phone_blackgold",))}
    photo = dev["IMG_7804_JPG"]
    assert len(photo.boxes) == 8 and photo.cards() == {"JS", "3H", "9S", "JC"}
    assert all(0.02 < b[3] < 0.1 and 0.02 < b[4] < 0.1 for b in photo.boxes)  # index-sized
    assert {"6H", "JC"} <= dev["IMG_7839_JPG"].cards()


def test_footnote_does_not_call_training_figures_honest() -> None:
    """Models trained on the held-back fifth too (`trained_on` "all") make every row a
    training figure; only models trained without it make the held-back row honest."""
    assert "every row is a training figure" in footnote("all")
    assert "honest" in footnote("train") and "training figure" not in footnote("train")


def test_f1_interval_brackets_the_figure_and_narrows_with_more_photos() -> None:
    """The bootstrap interval of `make vision-eval`: it holds the measured F1, it is a
    single point when every photo scores alike, and it narrows as photos are added."""
    mixed = [({"AS", "KH"}, {"AS", "KH"}), ({"AS"}, {"AS", "2C", "3D"}), ({"9S"}, {"8S"})]
    few, many = Score(), Score()
    for predicted, truth in mixed:
        score_photo(few, predicted, truth)
    for predicted, truth in mixed * 10:
        score_photo(many, predicted, truth)
    lo, hi = few.f1_interval()
    assert lo < few.f1 < hi
    lo_many, hi_many = many.f1_interval()
    assert lo_many <= many.f1 <= hi_many and hi_many - lo_many < hi - lo
    same = Score()
    for _ in range(5):
        score_photo(same, {"AS", "KH"}, {"AS", "2C"})
    assert same.f1_interval() == (0.5, 0.5)
    assert Score().f1_interval() == (0.0, 0.0)
    assert few.as_dict()["f1_90"] == [round(lo, 3), round(hi, 3)]


@pytest.mark.usefixtures("carddata", "model")
def test_webcam_photos_are_also_scored_restored_to_16_9() -> None:
    """carddata README caveat 1: the webcam frames were stretched to 640x640; the extra row
    reads them at their frames' shape, and phone photos get no such row."""
    items = [it for it in load_dev_set() if it.held_back]
    webcam = [it for it in items if it.subset == "webcam_multi"][:2]
    phone = [it for it in items if it.subset == "phone_std"][:1]
    scores = evaluate(webcam + phone)
    assert set(scores) == {"webcam_multi", RESTORED, "phone_std"}
    assert scores[RESTORED].photos == scores["webcam_multi"].photos == 2
    assert scores[RESTORED].tp + scores[RESTORED].fn == scores["webcam_multi"].tp + \
        scores["webcam_multi"].fn  # the same labelled cards, read from another view


def test_label_audit_checks_every_development_photo(carddata) -> None:  # type: ignore[no-untyped-def]
    """vision/label_audit.csv: every development photo was looked at (a row each, fifth 0 on
    2026-12-02, the others on 2026-12-06), and every correction fits the photo's labels (a
    removed card is labelled, an added one is not)."""
    audit = load_audit()
    dev = {it.stem: it for it in load_dev_set()}
    assert len(dev) == 227 and set(audit) == set(dev)
    changed = {stem: e.cards(dev[stem]) for stem, e in audit.items() if e.remove or e.add}
    assert all(audit[s].subset == dev[s].subset for s in audit)
    assert changed["IMG_7785_JPG"] == {"3H", "8D", "AS"}  # the index reads A, labelled 4S
    assert changed["IMG_20220921_194605_jpg"] == {"6C", "JOKER"}
    # fifth 3: a queen of clubs labelled QS, and two jacks known by their court pictures
    assert changed["WIN_20240627_17_15_49_Pro_jpg"] == {
        "KC", "KD", "KH", "KS", "QD", "QC", "JS", "JH"}
    # fifth 4: real cards at a photo's edge that the publisher left out
    assert changed["IMG_20220921_194856_jpg"] == {"3C", "4D", "6S", "QH", "7C", "AC"}
    # fifth 2: a 2 of diamonds labelled QD on one corner (2D on the other)
    assert changed["WIN_20240627_17_18_46_Pro_jpg"] == {
        "2C", "2D", "2H", "2S", "8C", "8D", "8H", "8S"}
    assert len(changed) == 16  # fifths 0-4: 3, 1, 3, 6 and 3 photos


def test_audited_rows_go_to_the_held_back_split_only(carddata, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """`make vision-eval` scores the held-back fifth against the audit, and never the
    training split (models saw it, so a mended label there would only flatter them)."""
    dev, audit = load_dev_set(), load_audit()
    for fifth, n_held in (("0", 43), ("1", 45), ("2", 38), ("3", 53), ("4", 48)):
        monkeypatch.setenv("VISION_HELD_BACK", fifth)
        splits = split_dev_set(dev, audit)
        held, held_audit = splits["held-back"]
        assert len(held) == len(held_audit) == n_held
        assert set(held_audit) == {it.stem for it in held}
        assert splits["train"][1] == {}
        assert len(held) + len(splits["train"][0]) == len(dev)


def _audit_file(tmp_path: Path, *rows: str) -> Path:
    path = tmp_path / "audit.csv"
    path.write_text("# comment\nsubset,stem,remove,add,what is seen\n" + "\n".join(rows) + "\n")
    return path


@pytest.mark.parametrize(("rows", "message"), [
    (("phone_std,IMG_1,,1S,x",), "not a card: 1S"),
    (("phone_std,IMG_1,,AS",), "5 fields expected"),
    (("phone_std,IMG_1,,,x", "phone_std,IMG_1,,,y"), "listed twice"),
    (("tablet,IMG_1,,,x",), "unknown subset"),
    (("phone_std,IMG_1,AS,AS,x",), "both removed and added"),
])
def test_label_audit_rejects_a_bad_row_with_its_line(tmp_path: Path, rows: tuple[str, ...],
                                                     message: str) -> None:
    with pytest.raises(ValueError, match=message) as err:
        load_audit(_audit_file(tmp_path, *rows))
    assert "line " in str(err.value)


def test_label_audit_needs_its_header(tmp_path: Path) -> None:
    (tmp_path / "bare.csv").write_text("stem,add\nIMG_1,AS\n")
    with pytest.raises(ValueError, match="header"):
        load_audit(tmp_path / "bare.csv")


def test_audit_entry_refuses_a_correction_that_does_not_fit_the_labels(carddata) -> None:  # type: ignore[no-untyped-def]
    item = next(it for it in load_dev_set() if it.stem == "IMG_7785_JPG")
    assert AuditEntry(item.subset, item.stem, frozenset(), frozenset(), "").cards(item) == \
        item.cards()
    with pytest.raises(ValueError, match="not labelled"):
        AuditEntry(item.subset, item.stem, frozenset({"KS"}), frozenset(), "").cards(item)
    with pytest.raises(ValueError, match="already labelled"):
        AuditEntry(item.subset, item.stem, frozenset(), frozenset({"3H"}), "").cards(item)


@pytest.mark.usefixtures("carddata", "model")
def test_audited_photos_are_scored_twice_with_the_same_readings() -> None:
    """The publisher's labels keep their row; the audited labels get a row of their own."""
    audit = load_audit()
    items = [it for it in load_dev_set() if it.stem in ("IMG_7785_JPG", "IMG_7839_JPG")]
    scores = evaluate(items, audit=audit)
    assert set(scores) == {"phone_blackgold", "phone_blackgold" + AUDITED}
    plain, audited = scores["phone_blackgold"], scores["phone_blackgold" + AUDITED]
    assert plain.photos == audited.photos == 2
    # labelled cards: IMG_7785 labels an A♠ as 4♠ (one card either way), IMG_7839 six
    assert plain.tp + plain.fn == 9 and audited.tp + audited.fn == 9
    assert plain.tp + plain.fp == audited.tp + audited.fp  # the same cards reported
    assert set(evaluate(items[:1])) == {"phone_blackgold"}  # no audit, no audited row


def _fold_file(tmp_path: Path, fold: int, rows: dict[str, list[tuple[str, int, int, int]]],
               threshold: float = 0.4) -> Path:
    """A fold file as `python -m vision evaluate --split held-back --save` writes it."""
    scores: dict[str, Score] = {}
    for row, photos in rows.items():
        for stem, tp, fp, fn in photos:
            add_counts(scores.setdefault(row, Score()), stem, tp, fp, fn)
    path = tmp_path / f"fold{fold}.json"
    path.write_text(json.dumps(fold_record(scores, fold, "train", threshold)), encoding="utf-8")
    return path


def test_pooled_folds_sum_each_rows_photos_across_fifths(tmp_path: Path) -> None:
    """Cross-validation (vision/training/crossval.sh): each fifth's held-back counts, photo by
    photo, summed over the folds; the pooled F1 is of the summed counts, not the mean of the
    folds' F1s (the blackgold figure of docs/VISION.md, 148 right / 23 missed / 10 false of
    171, is pooled so)."""
    a = _fold_file(tmp_path, 3, {"phone_blackgold": [("IMG_1", 4, 0, 1), ("IMG_2", 1, 1, 0)],
                                 "phone_blackgold" + AUDITED: [("IMG_1", 5, 0, 0)]})
    b = _fold_file(tmp_path, 4, {"phone_blackgold": [("IMG_3", 2, 0, 2)],
                                 "webcam_multi": [("WIN_1", 6, 1, 0)]})
    records = [(str(p), json.loads(p.read_text(encoding="utf-8"))) for p in (b, a)]
    folds, scores = pool(records)
    assert folds == [3, 4]
    gold = scores["phone_blackgold"]
    assert (gold.tp, gold.fp, gold.fn, gold.photos) == (7, 1, 3, 3)
    assert sorted(gold.stems) == ["IMG_1", "IMG_2", "IMG_3"]
    assert round(gold.f1, 4) == round(2 * 7 / (2 * 7 + 1 + 3), 4)
    assert scores["webcam_multi"].photos == 1 and scores["phone_blackgold" + AUDITED].tp == 5
    lo, hi = gold.f1_interval()
    assert lo <= gold.f1 <= hi


def test_pool_refuses_a_fifth_twice_a_photo_twice_and_mixed_thresholds(tmp_path: Path) -> None:
    """Two runs of one fifth would count its photos twice: pool one run of each fifth."""
    one = tmp_path / "one"
    two = tmp_path / "two"
    one.mkdir()
    two.mkdir()
    a = _fold_file(one, 3, {"phone_std": [("IMG_1", 1, 0, 0)]})
    again = _fold_file(two, 3, {"phone_std": [("IMG_9", 1, 0, 0)]})
    same_photo = _fold_file(two, 4, {"phone_std": [("IMG_1", 1, 0, 0)]})
    other_threshold = _fold_file(one, 2, {"phone_std": [("IMG_5", 1, 0, 0)]}, threshold=0.3)

    def records(*paths: Path) -> list[tuple[str, object]]:
        return [(str(p), json.loads(p.read_text(encoding="utf-8"))) for p in paths]

    with pytest.raises(PoolError, match="fifth 3 is in both"):
        pool(records(a, again))
    with pytest.raises(PoolError, match="IMG_1 .* in both"):
        pool(records(a, same_photo))
    with pytest.raises(PoolError, match="threshold 0.3"):
        pool(records(a, other_threshold))
    with pytest.raises(PoolError, match="not a fold file"):
        pool([("x.json", {"fold": 1})])
    with pytest.raises(PoolError, match="not a fold file"):
        pool([("x.json", {"fold": 1, "threshold": 0.4, "rows": {"phone_std": [["IMG_1", 1]]}})])
    with pytest.raises(PoolError, match="fifth 7 is not one of 0-4"):
        pool([("x.json", {"fold": 7, "threshold": 0.4, "rows": {}})])


def test_a_fold_file_is_refused_for_models_that_saw_the_held_back_fifth() -> None:
    """The shipped classifier's last stage saw every development photo (`trained_on` "all"):
    its held-back rows are training figures and must not be pooled as a fold's."""
    score = Score()
    add_counts(score, "IMG_1", 1, 0, 0)
    with pytest.raises(PoolError, match="trained on every development photo"):
        fold_record({"phone_std": score}, 0, "all", 0.4)
    record = fold_record({"phone_std": score}, 0, "train", 0.4, "abc")
    assert record["rows"] == {"phone_std": [["IMG_1", 1, 0, 0]]}
    assert record["models"] == "abc" and record["size_gain"] == SIZE_GAIN
