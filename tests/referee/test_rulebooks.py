"""Rulebooks as data: presets match RULEBOOKS.md §2, every option is documented, the
human-readable docs/rulebooks.md is generated from the presets and cannot drift."""

from __future__ import annotations

import dataclasses

import pytest

from referee.errors import NotationError
from referee.record import replay_document, rulebook_of
from referee.rulebooks import PRESETS, Rulebook, find_rulebook, option_docs
from referee.rulebooks.docs import DOC_PATH, render


def test_five_presets_by_name() -> None:
    """RULEBOOKS.md: four Shengji presets and one Guandan preset."""
    assert set(PRESETS) == {
        "union-2deck", "shuangsheng-17", "eighty-rr", "shuangkou-simple", "guandan-lyg"
    }
    assert {p.game for p in PRESETS.values()} == {"shengji", "guandan"}
    assert all(p.seed and p.title for p in PRESETS.values())


def test_unknown_rulebook_is_a_notation_error() -> None:
    """find_rulebook names the unknown preset."""
    with pytest.raises(NotationError) as error:
        find_rulebook("bridge")
    assert "bridge" in str(error.value)


def test_rulebook_is_frozen() -> None:
    """A Rulebook is an immutable value."""
    with pytest.raises(dataclasses.FrozenInstanceError):
        find_rulebook("union-2deck").trump_chain = "stated"  # type: ignore[misc]


def test_options_override_and_report_non_defaults() -> None:
    """A record's `options` change a preset; non_default_options lists them."""
    rulebook = find_rulebook("union-2deck", {"forty_is_plus_one": False, "trump_chain": "stated"})
    assert rulebook.non_default_options() == {"trump_chain": "stated", "forty_is_plus_one": False}
    assert find_rulebook("union-2deck").non_default_options() == {}


def test_bad_option_value_and_unknown_option_are_errors() -> None:
    """Choices are checked; unknown names are rejected."""
    with pytest.raises(NotationError):
        find_rulebook("union-2deck", {"trump_chain": "sideways"})
    with pytest.raises(NotationError):
        find_rulebook("union-2deck", {"no_such_option": 1})


def test_every_option_is_documented() -> None:
    """Every option carries a doc string (the source of docs/rulebooks.md)."""
    docs = option_docs()
    assert len(docs) == len(dataclasses.fields(Rulebook))
    assert all(doc for _, doc, _, _ in docs)


@pytest.mark.parametrize(
    ("option", "interpretation"),
    [
        ("over_ruff_throw", "I-1"), ("trump_chain", "I-2"), ("throw_multiplier_floor", "I-3"),
        ("forty_is_plus_one", "I-5"), ("dealer_win_at_a_ends_game", "I-7"),
        ("penalty_floor_zero", "I-8"), ("follow_tractor_strict", "I-9"),
        ("silent_penalty_as_union", "I-10"), ("guandan_tribute_excludes_wild", "I-12"),
    ],
)
def test_each_interpretation_is_an_option(option: str, interpretation: str) -> None:
    """RULEBOOKS.md: every I-n is a rulebook option with a documented default."""
    metadata = {name: interp for name, _, interp, _ in option_docs()}
    assert interpretation in metadata[option]


@pytest.mark.parametrize(
    ("preset", "field", "value"),
    [
        # §2 levels / game ends
        ("union-2deck", "must_play_levels", ("2", "J", "A")),
        ("union-2deck", "match_end", "pass_a"),
        ("union-2deck", "time_limit_minutes", 120),
        ("shuangsheng-17", "match_end", "deal_limit"),
        ("shuangsheng-17", "deal_limit", 17),
        ("eighty-rr", "fixed_level", "2"),
        ("eighty-rr", "fixed_deals", 4),
        ("shuangkou-simple", "match_end", "pass_a"),
        # first-deal dealer / nobody declares
        ("union-2deck", "first_dealer", "grab"),
        ("eighty-rr", "first_dealer", "rotation"),
        ("shuangsheng-17", "nobody_declares", "redeal"),
        ("shuangkou-simple", "first_drawer_deals_if_nobody", True),
        # next dealer
        ("union-2deck", "next_dealer", "partner_or_next"),
        ("shuangsheng-17", "next_dealer", "partner_or_next"),
        ("eighty-rr", "next_dealer", "rotate"),
        ("shuangkou-simple", "next_dealer", "same_or_next"),
        # declaring / overcall
        ("shuangsheng-17", "declaration", "level_with_joker"),
        ("shuangkou-simple", "declaration_face_down", True),
        ("union-2deck", "overcall_suit_order_first_deal", True),
        ("eighty-rr", "joker_pair_final", True),
        # trump chain (I-2: full for all four)
        ("union-2deck", "trump_chain", "full"),
        ("shuangsheng-17", "trump_chain", "full"),
        ("eighty-rr", "trump_chain", "full"),
        ("shuangkou-simple", "trump_chain", "full"),
        # bottom multiplier
        ("union-2deck", "bottom_multiplier", "linear"),
        ("union-2deck", "throw_multiplier_floor", 3),
        ("shuangsheng-17", "bottom_multiplier", "power"),
        ("eighty-rr", "bottom_multiplier", "flat"),
        ("shuangkou-simple", "bottom_multiplier", "shuangkou"),
        # promotion / playing A
        ("union-2deck", "promotion", "union"),
        ("shuangsheng-17", "promotion", "shuangsheng"),
        ("eighty-rr", "promotion", "match_points"),
        ("shuangkou-simple", "promotion", "shuangkou"),
        ("shuangkou-simple", "playing_a", "hard_a"),
        # §3 penalties
        ("union-2deck", "failed_throw_points_per_card", 10),
        ("union-2deck", "failed_throw_partner_may_not_ruff", True),
        ("shuangsheng-17", "failed_throw_partner_may_not_ruff", False),
        ("union-2deck", "hidden_card_points", 20),
        ("shuangkou-simple", "wrong_follow_points_per_card", 10),
        ("union-2deck", "wrong_follow_points_per_card", 0),
        ("shuangsheng-17", "talking_limit", 1),
    ],
)
def test_presets_match_rulebooks_md_s2_s3(preset: str, field: str, value: object) -> None:
    """Each preset carries the RULEBOOKS.md §2/§3 value for its seed."""
    assert getattr(find_rulebook(preset), field) == value


def test_record_options_reach_the_replay() -> None:
    """A record's `options` apply to its replay (forty_is_plus_one off: 40 → +2)."""
    doc = {
        "format": "table-record/1", "game": "shengji", "rulebook": "union-2deck",
        "options": {"forty_is_plus_one": False},
        "deals": [{"events": [
            {"type": "declare", "seat": 0, "cards": ["2S"]},
            {"type": "bury", "seat": 0, "cards": ["3D", "3D", "4D", "4D", "6D", "6D", "7D", "7D"]},
            {"type": "result", "defender_points": 40, "bottom_points": 0, "last_trick_winner": 0,
             "last_trick_shape": "single", "last_trick_trump": False},
        ]}],
    }
    assert replay_document(doc)["deals"][0]["levels_after"] == ["4", "2"]
    assert rulebook_of(doc).forty_is_plus_one is False


def test_rulebook_game_must_match_the_record() -> None:
    """A Guandan preset in a Shengji record is refused."""
    from referee.errors import InvalidRecordError

    with pytest.raises(InvalidRecordError):
        rulebook_of({"rulebook": "guandan-lyg", "game": "shengji"})


def test_docs_rulebooks_md_is_generated_from_the_presets() -> None:
    """docs/rulebooks.md equals `python -m referee.rulebooks.docs` output (no drift)."""
    assert DOC_PATH.read_text(encoding="utf-8") == render(), (
        "docs/rulebooks.md is out of date: run .venv/bin/python -m referee.rulebooks.docs"
    )


def test_docs_name_every_option_and_the_chinese_terms() -> None:
    """The page lists every option and gives the Chinese terms."""
    text = render()
    for field in dataclasses.fields(Rulebook):
        if field.name not in ("name", "game", "title", "seed"):
            assert f"`{field.name}`" in text
    for term in ("庄家", "抠底", "拖拉机", "甩牌", "台上", "硬A"):
        assert term in text
