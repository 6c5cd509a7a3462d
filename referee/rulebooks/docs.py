"""Generate `docs/rulebooks.md` from the presets and the option metadata.

The human-readable rulebook page is produced from `PRESETS` and each option's `doc` /
`interpretation` / `choices`, so it cannot drift from the engine; a test compares the
committed file with `render()`.

    python -m referee.rulebooks.docs            # rewrite docs/rulebooks.md
    python -m referee.rulebooks.docs --check    # exit 1 if the file is out of date

>>> "union-2deck" in render()
True
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any

from referee.rulebooks import PRESETS, Rulebook, option_docs

__all__ = ["DOC_PATH", "render", "main"]

DOC_PATH = Path(__file__).resolve().parents[2] / "docs" / "rulebooks.md"

GLOSSARY: tuple[tuple[str, str, str], ...] = (
    ("升级", "Shengji", "the two-deck trick-taking game of levels (Tractor, 80分, 双升)"),
    ("掼蛋", "Guandan", "the climbing game with 27 cards each and bombs"),
    ("级 / 级牌", "level / level card", "each side's current rank; its cards are trump"),
    ("庄家", "dealer", "the seat whose side plays its level; takes and buries the bottom"),
    ("防守方 / 闲家 / 捡分方", "defenders", "the other side; only their points count"),
    ("上家 / 下家", "previous / next player", "the opponent before / after you in play order"),
    ("亮主 / 报主 / 叫主", "declare", "show a level card to fix the trump suit"),
    ("抢亮 / 抢报 / 抢庄", "grab", "first deal: the first declarer becomes dealer"),
    ("反主", "overcall", "a stronger declaration over the standing one"),
    ("防反", "reinforce", "adding the twin to one's own single declaration"),
    ("定主", "flip", "nobody declared: the top bottom card fixes trump"),
    ("无主", "no trump", "only jokers and level cards are trump"),
    ("底牌 / 扣底", "bottom / bury", "the 8 cards left over; the dealer's 8 put back"),
    ("抠底 / 保底", "bottom won / kept", "defenders / dealer side win the last trick"),
    ("主级牌 / 副级牌", "main / off level card", "level card of the trump suit / of another suit"),
    ("对子 / 拖拉机 (连对)", "pair / tractor", "two identical cards / consecutive pairs"),
    ("甩牌 / 甩错", "throw / failed throw", "several top cards of one suit led at once"),
    ("将吃 / 超将吃", "ruff / over-ruff", "trumping a side-suit lead / beating that ruff"),
    ("垫牌", "discard", "a card of another suit when void in the led one"),
    ("藏张", "hidden card (revoke)", "a card that should have been played but was held back"),
    ("台上", "on the table", "the side currently dealing"),
    ("硬A / 软A", "hard A / soft A", "shuangkou-simple: A won at the table / by 200 points"),
)


INTERPRETATIONS: dict[str, str] = {
    "I-1": "over-ruffing a throw: every component type of the later ruff must beat the earlier",
    "I-2": "trump tractor chain BJ–SJ–main level–off level–trump A (full) or the stated links",
    "I-3": "a throw winning the last trick multiplies by its largest component (union: ≥ ×3)",
    "I-4": "eighty-rr bottom: a flat ×2 whatever won the last trick",
    "I-5": "union-2deck: defenders' total exactly 40 promotes the dealer +1",
    "I-6": "shuangkou-simple: the dealer side's score is 200 − x",
    "I-7": "shuangsheng-17: a side passing A before deal 17 wins at once",
    "I-8": "penalties against defenders come off x (not below 0); against the dealer side add",
    "I-9": "a follower without the led tractor keeps its pairs; shorter tractors optional",
    "I-10": "offences a rulebook is silent on are treated as in union-2deck",
    "I-11": "Guandan straights: the level card keeps its natural rank; A low or high",
    "I-12": "Guandan tribute: the highest card excludes the ♥ level wild cards",
    "I-13": "Guandan: 20 s for the return and the first lead, 45 s for the tribute",
}


def _value(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value) if value else "—"
    if value == "":
        return "—"
    return str(value).replace("|", "\\|")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


NEXT_DEALER = {
    "partner_or_next": "dealer side won → the dealer's partner; lost → the dealer's 下家",
    "rotate": "every deal the 下家 (rotation)",
    "same_or_next": "dealer side won → the same dealer; lost → the dealer's 下家",
}
MATCH_END = {
    "pass_a": "the first side past A wins",
    "deal_limit": "after {deal_limit} deals the higher level wins, equal levels → the side on "
    "the table (台上)",
    "fixed_deals": "a match is {fixed_deals} deals; more deal points wins (2 : 0, draw 1 : 1)",
}
TOTALS = (0, 5, 35, 40, 75, 80, 85, 90, 115, 120, 155, 160, 195, 200, 205, 240)


def _shengji_summary(rulebook: Rulebook) -> list[str]:
    """Bullet points and the bottom and promotion tables, computed by the engine itself."""
    from referee.shengji.scoring import bottom_multiplier, promote

    levels = "only 2 is played" if rulebook.fixed_level else "2 … A"
    if rulebook.must_play_levels:
        levels += f"; must-play levels {', '.join(rulebook.must_play_levels)} (a promotion stops there)"
    end = MATCH_END[rulebook.match_end].format(
        deal_limit=rulebook.deal_limit, fixed_deals=rulebook.fixed_deals
    )
    if rulebook.time_limit_minutes:
        end += f"; {rulebook.time_limit_minutes}-minute limit"
    first = "the grab (抢亮 / 抢报)" if rulebook.first_dealer == "grab" else "seating rotation"
    nobody = "flip the top bottom card (定主)" if rulebook.nobody_declares == "flip" else (
        "redeal and grab again"
    )
    declare = "a single level card" if rulebook.declaration == "single_level" else (
        "a level card with the matching joker (big joker ♥/♦, small joker ♠/♣)"
    )
    if rulebook.declaration_face_down:
        declare += ", face down"
    lines = [
        f"- Levels (级): {levels}.",
        f"- Match: {end}.",
        f"- First dealer (庄家): {first}; nobody declares → {nobody}.",
        f"- Next dealer: {NEXT_DEALER[rulebook.next_dealer]}.",
        "- Playing A: " + (
            "the dealer at A passes only with x < 80 and the last trick won by the dealer "
            "side's A (硬A, one per A in that play); x = 0 or x ≥ 200 sends a side straight "
            "to A with a soft A (软A)."
            if rulebook.playing_a == "hard_a"
            else "no levels are played." if rulebook.fixed_level
            else "going past A passes it"
            + (" (A must be won as dealer)." if "A" in rulebook.must_play_levels else ".")
            + (" I-7: before the deal limit, passing A wins at once."
               if rulebook.match_end == "deal_limit" and rulebook.dealer_win_at_a_ends_game
               else "")
        ),
        f"- Declaring (亮主): {declare}; overcall (反主) scheme `{rulebook.overcall}`.",
        f"- Failed throw (甩错): {rulebook.failed_throw_points_per_card} points per card"
        + ("; the dealer's partner may not ruff that trick" if
           rulebook.failed_throw_partner_may_not_ruff else "")
        + f". Hidden card (藏张): {rulebook.hidden_card_points} points. Wrong follow: "
        f"{rulebook.wrong_follow_points_per_card} points per card.",
        "",
        "Bottom multiplier when the defenders win the last trick (抠底):",
        "",
    ]
    shapes = ("single", "pair", "tractor2", "tractor3", "throw:single", "throw:pair")
    lines.append("| won with | " + " | ".join(shapes) + " |")
    lines.append("|---|" + "---|" * len(shapes))
    for trump in (False, True) if rulebook.bottom_multiplier == "shuangkou" else (False,):
        label = "trump (将牌)" if trump else ("side suit (副牌)" if
                                               rulebook.bottom_multiplier == "shuangkou" else "any")
        cells = " | ".join(f"×{bottom_multiplier(rulebook, shape, trump)}" for shape in shapes)
        lines.append(f"| {label} | {cells} |")
    lines += ["", "Defenders' total x (dealer seat 0, both sides at 2 before the deal):", ""]
    if rulebook.promotion == "match_points":
        lines += ["| x | winner | deal points [side 0, side 1] |", "|---|---|---|"]
    else:
        lines += ["| x | winner | levels up | levels after | next dealer |", "|---|---|---|---|---|"]
    for x in TOTALS:
        score = promote(rulebook, x, dealer=0, levels=("2", "2"))
        if score.match_points is not None:
            lines.append(f"| {x} | {score.winner} | {list(score.match_points)} |")
        else:
            extra = " (+1 soft A)" if any(score.soft_a) else ""
            lines.append(
                f"| {x} | {score.winner} | {score.levels_up}{extra} | "
                f"{' : '.join(score.levels_after)} | seat {score.next_dealer} |"
            )
    return lines


def render() -> str:
    """The whole `docs/rulebooks.md` text."""
    presets = list(PRESETS.values())
    lines: list[str] = [
        "# Rulebooks (规则)",
        "",
        "<!-- Generated by `python -m referee.rulebooks.docs` from `referee/rulebooks/`."
        " Do not edit by hand: a test checks this file equals the generated one. -->",
        "",
        "Table Referee (牌桌裁判) referees five competition rule documents. Each is a preset of",
        "one frozen `Rulebook`; every option below can be changed per event by the tournament",
        "director (a table record's `options` object). Options marked **I-n** implement the",
        "interpretations of `shared/rules/RULEBOOKS.md`, where a seed text is garbled, silent",
        "or self-contradictory.",
        "",
        "## Presets",
        "",
        "| preset | game | rulebook (Chinese title) | seed |",
        "|---|---|---|---|",
    ]
    for rulebook in presets:
        game = "Shengji (升级)" if rulebook.game == "shengji" else "Guandan (掼蛋)"
        lines.append(f"| `{rulebook.name}` | {game} | {rulebook.title} | `{rulebook.seed}` |")
    for rulebook in presets:
        if rulebook.game != "shengji":
            continue
        lines += ["", f"## `{rulebook.name}`: {rulebook.title}", ""]
        lines += _shengji_summary(rulebook)
    lines += ["", "## Options by preset", ""]
    header = "| option | " + " | ".join(f"`{r.name}`" for r in presets) + " |"
    lines += [header, "|---|" + "---|" * len(presets)]
    identity = {"name", "game", "title", "seed"}
    for field in dataclasses.fields(Rulebook):
        if field.name in identity:
            continue
        values = [getattr(r, field.name) for r in presets]
        row = " | ".join(_value(v) for v in values)
        lines.append(f"| `{field.name}` | {row} |")
    lines += ["", "## Option reference", ""]
    lines += ["| option | default | choices | I-n | meaning |", "|---|---|---|---|---|"]
    base = Rulebook()
    for name, doc, interpretation, choices in option_docs():
        if name in identity:
            continue
        lines.append(
            f"| `{name}` | {_value(getattr(base, name))} | {_value(tuple(choices))} | "
            f"{interpretation or '—'} | {_cell(doc)} |"
        )
    lines += ["", "## Interpretations (I-n) and the options that carry them", ""]
    by_interpretation: dict[str, list[str]] = {}
    for name, _doc, interpretation, _choices in option_docs():
        for part in interpretation.split("/"):
            part = part.strip()
            if part:
                key = part if part.startswith("I-") else f"I-{part}"
                by_interpretation.setdefault(key, []).append(name)
    for key in sorted(by_interpretation, key=lambda k: int(k[2:]) if k[2:].isdigit() else 99):
        names = ", ".join(f"`{n}`" for n in by_interpretation[key])
        meaning = INTERPRETATIONS.get(key)
        lines.append(f"- **{key}** ({meaning}): {names}" if meaning else f"- **{key}**: {names}")
    lines += ["", "## Glossary (术语)", "", "| 中文 | English | meaning |", "|---|---|---|"]
    for chinese, english, meaning in GLOSSARY:
        lines.append(f"| {chinese} | {english} | {meaning} |")
    lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Write `docs/rulebooks.md`, or with `--check` report whether it is up to date."""
    args = sys.argv[1:] if argv is None else argv
    text = render()
    if "--check" in args:
        current = DOC_PATH.read_text(encoding="utf-8") if DOC_PATH.exists() else ""
        if current != text:
            print(f"{DOC_PATH} is out of date: run python -m referee.rulebooks.docs", file=sys.stderr)
            return 1
        return 0
    DOC_PATH.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
