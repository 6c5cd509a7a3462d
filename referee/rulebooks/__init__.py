"""Rulebooks as data: one frozen `Rulebook` with every option, and named presets.

Each option is a dataclass field whose metadata carries its documentation (and the
interpretation I-n of RULEBOOKS.md it implements), so `docs/rulebooks.md` is generated
from these presets and cannot drift from them.

>>> find_rulebook("union-2deck").must_play_levels
('2', 'J', 'A')
>>> find_rulebook("union-2deck").with_options({"trump_chain": "stated"}).trump_chain
'stated'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.errors import NotationError

__all__ = ["PRESETS", "Rulebook", "find_rulebook", "option_docs"]


def _opt(default: Any, doc: str, interpretation: str = "", choices: tuple[Any, ...] = ()) -> Any:
    """A rulebook option: default, documentation, the I-n it implements, allowed values."""
    return field(
        default=default,
        metadata={"doc": doc, "interpretation": interpretation, "choices": choices},
    )


@dataclass(frozen=True, slots=True)
class Rulebook:
    """Every option of the five competition rulebooks; presets differ only in values.

    Options are plain values (str, int, bool, tuples of rank strings) so a record's
    `options` object can override any of them by name.
    """

    # -- identity -------------------------------------------------------------------
    name: str = _opt("custom", "Preset name (union-2deck, shuangsheng-17, …).")
    game: str = _opt("shengji", "Game family.", choices=("shengji", "guandan"))
    title: str = _opt("", "The rulebook's own title (Chinese).")
    seed: str = _opt("", "Source document in shared/seeds/.")

    # -- levels and match end (Shengji) ---------------------------------------------
    must_play_levels: tuple[str, ...] = _opt(
        (), "Levels a promotion stops at and must be played (union-2deck: 2, J, A)."
    )
    must_play_as_dealer: bool = _opt(
        False,
        "Stricter 必打: a side at a must-play level passes it only by winning there as the "
        "dealer; defenders on it who win stay and take the deal (off: this holds for A only; "
        "RULEBOOKS.md reads 必打 as 'a promotion stops there').",
        "I-14",
    )
    fixed_level: str | None = _opt(None, "Only this level is ever played (eighty-rr: 2).")
    match_end: str = _opt(
        "pass_a",
        "How a match ends: first side past A, a deal limit, or a fixed number of deals.",
        choices=("pass_a", "deal_limit", "fixed_deals"),
    )
    deal_limit: int | None = _opt(None, "deal_limit: deals played before the higher level wins (17).")
    fixed_deals: int | None = _opt(None, "fixed_deals: deals in a match (eighty-rr: 4).")
    time_limit_minutes: int | None = _opt(None, "Match clock; None = untimed.")
    time_up_rule: str = _opt(
        "higher_level",
        "At time-up: higher level wins, equal → side on the table; shuangkou: A's, soft A's, level, draw.",
        choices=("higher_level", "shuangkou", "none"),
    )
    shuangkou_mode: str = _opt(
        "direct",
        "shuangkou-simple 单场胜负: direct (直胜法, first past A) or timed (定时法, time limit).",
        choices=("direct", "timed"),
    )
    no_new_deal_minutes: int = _opt(
        0, "Timed matches: no new deal is started in the last N minutes (shuangkou timed: 3)."
    )
    dealer_win_at_a_ends_game: bool = _opt(
        True, "A side that passes A wins at once, before any deal limit.", "I-7"
    )

    # -- dealer ---------------------------------------------------------------------
    first_dealer: str = _opt(
        "grab",
        "First deal: the grab (抢亮/抢报) decides, or seating rotation.",
        choices=("grab", "rotation"),
    )
    nobody_declares: str = _opt(
        "flip",
        "When nobody declares: flip the top bottom card (定主), or redeal and grab again.",
        choices=("flip", "redeal"),
    )
    first_drawer_deals_if_nobody: bool = _opt(
        False, "shuangkou-simple: if nobody declares on deal 1, the first drawer deals."
    )
    next_dealer: str = _opt(
        "partner_or_next",
        "Dealer side won → dealer's partner, lost → dealer's 下家 (partner_or_next); "
        "every deal to the 下家 (rotate); won → same dealer, lost → 下家 (same_or_next).",
        choices=("partner_or_next", "rotate", "same_or_next"),
    )

    # -- declaring (亮主) and overcalling (反主) --------------------------------------
    declaration: str = _opt(
        "single_level",
        "What declares trump: one level card, or a level card with the matching joker.",
        choices=("single_level", "level_with_joker"),
    )
    declaration_face_down: bool = _opt(False, "Declarations are shown face down (shuangkou-simple).")
    overcall: str = _opt(
        "pair",
        "Overcall scheme: a pair over a single (pair), shuangsheng's joker ladder (ladder), "
        "pairs after the bury (after_bury).",
        choices=("pair", "ladder", "after_bury"),
    )
    overcall_suit_order_first_deal: bool = _opt(
        False, "Deal 1: pairs overcall pairs by suit ♠ > ♥ > ♣ > ♦ (union-2deck)."
    )
    joker_pair_final: bool = _opt(False, "A joker pair cannot be overcalled (eighty-rr).")
    declarer_overcall_after_other: bool = _opt(
        False, "The declarer may overcall only after someone else overcalled."
    )
    reinforce_allowed: bool = _opt(
        True,
        "防反: a single declarer may add the twin before any overcall (seed 000). Off where the "
        "seed has no 防反: shuangsheng-17, shuangkou-simple, and eighty-rr, whose seed 3.3.2 says "
        "\"反主只能反别人，不能反自己\" and gives the declarer no turn in the pass/overcall round.",
    )
    overcall_takes_deal_first_deal: bool = _opt(
        False, "Deal 1: the overcaller becomes dealer (反主反打/反主反庄)."
    )
    overcall_takes_bottom_later: bool = _opt(
        False, "Later deals: the overcaller takes the bottom and buries again (反主抄底)."
    )
    opponents_declare_take_deal: bool = _opt(
        False, "shuangsheng-17: opponents declaring at their own level take the deal."
    )
    equal_levels_take_deal: bool = _opt(
        False,
        "opponents_declare_take_deal when both sides are at the same level: the opponents' "
        "declaration takes the deal too (on), or the deal stays with the dealer, the level being "
        "the dealer's anyway (off; seed 001 names no case of equal levels).",
        "I-D3",
    )
    nobody_grab_dealer: str = _opt(
        "record",
        "Grab deal where nobody declares and first_drawer_deals_if_nobody is off (seed 000 is "
        "silent): the record's dealer deals, else the first drawer, unchecked (record); or the "
        "first drawer deals by rule, a record naming another seat gets wrong_dealer "
        "(first_drawer).",
        "I-D4",
        choices=("record", "first_drawer"),
    )
    declaration_round: bool = _opt(
        False,
        "eighty-rr (seed 002 3.4): before the dealer takes the bottom, from the declarer's 下家 "
        "round the table each of the other three says pass (不反, event `pass`) or overcalls, "
        "once and in turn; an overcall after passing or out of turn is illegal.",
    )
    round_skipped_seats_pass: bool = _opt(
        True,
        "declaration_round: a seat the record skips is taken to have passed, so the tablet "
        "need not log every 不反 (on); off: every seat must speak in turn, and a bury before "
        "all three spoke is reported (shengji.round.incomplete).",
        "I-D8",
    )
    overcall_only_over_single: bool = _opt(
        False,
        "After deal 1 an overcall (反主) may only answer a single declared level card, not a "
        "pair (seed 000 第十三条 \"反已亮单张级牌\"; eighty-rr lets a joker pair answer a pair).",
        "I-D1",
    )
    wrong_declaration_penalty: str = _opt(
        "none",
        "亮错级牌: none (the call is just void), or shuangkou (before the bottom is taken the "
        "offending side may not declare again; after, the other side goes straight to A).",
        "I-D2",
        choices=("none", "shuangkou"),
    )
    card_count_freezes_calls: bool = _opt(
        False,
        "A card_count penalty after the bottom was taken ends all declaring and overcalling "
        "(seed 003 十二.2).",
    )
    declarer_overcall_scope: str = _opt(
        "seat",
        "Who must wait for another player's overcall (declarer_overcall_after_other): the "
        "declaring seat, or its whole side (seed 003 三.1 \"叫主方\").",
        "I-D5",
        choices=("seat", "side"),
    )
    after_bury_pair_order: str = _opt(
        "jokers_above",
        "overcall=after_bury: any level pair answers a level pair (不分花色) and joker pairs rank "
        "above them, big over small (jokers_above); or any pair answers any pair (any_pair).",
        "I-D6",
        choices=("jokers_above", "any_pair"),
    )
    rebury_optional: bool = _opt(
        False,
        "After an overcall that takes the bottom the overcaller may keep it as buried "
        "(seed 001 四.2 \"还可拿起…再进行盖底牌\"); off: the overcaller must bury again.",
        "I-D7",
    )

    # -- tricks -----------------------------------------------------------------------
    trump_chain: str = _opt(
        "full",
        "Trump tractor chain: BJ–SJ–main level–off level–trump A (full) or only the links "
        "the seed states (stated).",
        "I-2",
        choices=("full", "stated"),
    )
    follow_tractor_strict: bool = _opt(
        False, "A follower must play a shorter tractor when it holds one.", "I-9"
    )
    over_ruff_throw: str = _opt(
        "every_component",
        "Over-ruffing a throw: every component type must beat the earlier ruff's.",
        "I-1",
        choices=("every_component",),
    )

    # -- bottom (抠底) ---------------------------------------------------------------
    bottom_multiplier: str = _opt(
        "linear",
        "Multiplier when the defenders win the last trick: single 2, pair 4, n-pair tractor "
        "2n+2 (linear); 2^(n+1) (power); flat ×2 (flat); by side suit or trump (shuangkou).",
        "I-3/I-4",
        choices=("linear", "power", "flat", "shuangkou"),
    )
    throw_multiplier_floor: int = _opt(
        0, "A throw winning the last trick multiplies by at least this (union-2deck: 3).", "I-3"
    )

    # -- promotion ----------------------------------------------------------------------
    promotion: str = _opt(
        "union",
        "Promotion table by the defenders' total (RULEBOOKS.md §2).",
        "I-5/I-6",
        choices=("union", "shuangsheng", "match_points", "shuangkou", "guandan"),
    )
    forty_is_plus_one: bool = _opt(True, "Defenders' total exactly 40 promotes the dealer +1.", "I-5")
    playing_a: str = _opt(
        "pass",
        "How A is passed: any dealer win (pass) or shuangkou's hard A rule (hard_a).",
        choices=("pass", "hard_a"),
    )

    # -- penalties ----------------------------------------------------------------------
    failed_throw_points_per_card: int = _opt(10, "Failed throw (甩错): points per thrown card.")
    failed_throw_partner_may_not_ruff: bool = _opt(
        False, "After a failed throw the dealer's partner may not ruff that trick (union-2deck)."
    )
    hidden_card_points: int = _opt(20, "Hidden card / revoke (藏张): default penalty points (20–30).")
    wrong_follow_points_per_card: int = _opt(0, "Wrong follow/discard/ruff: points per card.")
    penalty_floor_zero: bool = _opt(
        True, "Penalties against the defenders never take their total below 0.", "I-8"
    )
    silent_penalty_as_union: bool = _opt(
        True, "Offences the rulebook is silent on are treated as union-2deck's.", "I-10"
    )
    talking_limit: int | None = _opt(
        None, "Talking/hint violations a side may have; one more disqualifies it (shuangsheng-17: 2nd loses)."
    )

    # -- Guandan ---------------------------------------------------------------------
    guandan_a_failures_to_j: int = _opt(3, "Guandan: failed A deals before the side goes back to J.")
    guandan_return_max_rank: str = _opt("10", "Guandan: highest rank a returned card (还贡) may have.")
    guandan_tribute_excludes_wild: bool = _opt(
        True, "Guandan: the highest card for tribute excludes the ♥ level wilds.", "I-12"
    )
    guandan_tribute_seconds: int = _opt(45, "Guandan: seconds for a tribute.", "I-13")
    guandan_return_seconds: int = _opt(20, "Guandan: seconds for a return and the first lead.", "I-13")
    guandan_max_bomb: int = _opt(10, "Guandan: largest bomb with both wild cards (cards).")
    guandan_a_reset_levels: tuple[str, ...] = _opt(
        ("J", "2"),
        "Guandan: where a side goes after a series of failed A deals (1st series J, later 2).",
    )
    guandan_timeouts_per_level: int = _opt(
        2, "Guandan: time violations of a side that cost it one level (seed 6.4)."
    )
    guandan_report_at: int = _opt(6, "Guandan: cards left at which a player must report (报牌).")
    guandan_no_report_plays_for_level: int = _opt(
        2, "Guandan: unreported plays after which take-back becomes a level drop (seed 6.6)."
    )
    guandan_single_down_anti_tribute: str = _opt(
        "payer",
        "Guandan single-down 抗贡: the last player must hold both big jokers (payer, seed 四.5), "
        "or the last player's side between them (side).",
        choices=("payer", "side"),
    )
    guandan_disqualify_after: int = _opt(
        3, "Guandan: exposures, out-of-turn plays and fouls by one player that disqualify (9.4)."
    )

    def with_options(self, options: Mapping[str, Any]) -> Rulebook:
        """A copy with some options changed; unknown names or bad values raise `NotationError`."""
        changes: dict[str, Any] = {}
        known = {f.name: f for f in dataclasses.fields(self)}
        for key, value in options.items():
            spec = known.get(key)
            if spec is None or key in ("name", "game"):
                raise NotationError(str(key), "options", f"unknown rulebook option {key!r}")
            choices = spec.metadata.get("choices", ())
            if choices and value not in choices:
                raise NotationError(
                    str(value), f"options.{key}", f"option {key} must be one of {list(choices)}"
                )
            if isinstance(spec.default, tuple) and isinstance(value, list):
                value = tuple(value)
            changes[key] = value
        return dataclasses.replace(self, **changes)

    def non_default_options(self) -> dict[str, Any]:
        """Options that differ from the preset of the same name (for the scoresheet)."""
        base = PRESETS.get(self.name)
        if base is None:
            return {}
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if getattr(self, f.name) != getattr(base, f.name)
        }


def option_docs() -> list[tuple[str, str, str, tuple[Any, ...]]]:
    """(name, doc, interpretation, choices) for every option, in declaration order."""
    return [
        (f.name, f.metadata["doc"], f.metadata["interpretation"], f.metadata["choices"])
        for f in dataclasses.fields(Rulebook)
    ]


PRESETS: dict[str, Rulebook] = {
    rulebook.name: rulebook
    for rulebook in (
        Rulebook(
            name="union-2deck",
            title="两副牌升级比赛新版规则",
            seed="000_d0e55be4c278b190.txt",
            must_play_levels=("2", "J", "A"),
            time_limit_minutes=120,
            overcall_suit_order_first_deal=True,
            overcall_takes_deal_first_deal=True,
            overcall_only_over_single=True,
            bottom_multiplier="linear",
            throw_multiplier_floor=3,
            promotion="union",
            failed_throw_partner_may_not_ruff=True,
        ),
        Rulebook(
            name="shuangsheng-17",
            title="郑州职业技术学院 双升 竞赛细则",
            seed="001_3e6c1ed5da7ea3ee.txt",
            match_end="deal_limit",
            deal_limit=17,
            nobody_declares="redeal",
            declaration="level_with_joker",
            overcall="ladder",
            declarer_overcall_after_other=True,
            reinforce_allowed=False,
            overcall_takes_deal_first_deal=True,
            overcall_takes_bottom_later=True,
            rebury_optional=True,
            opponents_declare_take_deal=True,
            bottom_multiplier="power",
            promotion="shuangsheng",
            time_up_rule="none",
            talking_limit=1,
        ),
        Rulebook(
            name="eighty-rr",
            title="80分比赛规则 – 积分循环赛",
            seed="002_378cabe8c66921c2.txt",
            fixed_level="2",
            match_end="fixed_deals",
            fixed_deals=4,
            first_dealer="rotation",
            next_dealer="rotate",
            joker_pair_final=True,
            reinforce_allowed=False,
            declaration_round=True,
            bottom_multiplier="flat",
            promotion="match_points",
            time_up_rule="none",
        ),
        Rulebook(
            name="shuangkou-simple",
            title="撲克牌雙扣升級競賽簡易規則",
            seed="003_cb0b22df80d5b9b0.txt",
            first_drawer_deals_if_nobody=True,
            next_dealer="same_or_next",
            declaration_face_down=True,
            overcall="after_bury",
            declarer_overcall_after_other=True,
            reinforce_allowed=False,
            overcall_takes_deal_first_deal=True,
            overcall_takes_bottom_later=True,
            wrong_declaration_penalty="shuangkou",
            card_count_freezes_calls=True,
            bottom_multiplier="shuangkou",
            promotion="shuangkou",
            playing_a="hard_a",
            wrong_follow_points_per_card=10,
            time_up_rule="shuangkou",
            no_new_deal_minutes=3,
        ),
        Rulebook(
            name="guandan-lyg",
            game="guandan",
            title="连云港职业技术学院 掼蛋 比赛规则",
            seed="004_c66017c7e3c1cf7f.txt",
            time_limit_minutes=90,
            promotion="guandan",
        ),
    )
}


def find_rulebook(name: str, options: Mapping[str, Any] | None = None) -> Rulebook:
    """The preset called `name`, with `options` applied; `NotationError` if unknown.

    >>> find_rulebook("eighty-rr").fixed_deals
    4
    """
    try:
        rulebook = PRESETS[name]
    except KeyError:
        raise NotationError(
            name, "rulebook", f"unknown rulebook {name!r} (known: {', '.join(PRESETS)})"
        ) from None
    return rulebook.with_options(options) if options else rulebook
