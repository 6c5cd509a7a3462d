"""Every string the tablet's JavaScript shows, translated on the server (Flask-Babel).

The page embeds `js_strings()` as JSON; `static/js/table.js` reads it as `T.key`.
Msgids are English (zh_Hans is the default locale); their Chinese translations are in
`web/table/messages_zh_Hans.po`, merged into `translations/zh_Hans` by the catalog owner.
`%(name)s` placeholders are filled in by the script.
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l

STRINGS: dict[str, Any] = {
    # tabs
    "tab_seat": _l("Seats (座位)"),
    "tab_declare": _l("Declare (亮主)"),
    "tab_bury": _l("Bury (扣底)"),
    "tab_tricks": _l("Tricks (出牌)"),
    "tab_quick": _l("Quick entry (快速录入)"),
    "tab_penalty": _l("Penalty (罚则)"),
    "tab_summary": _l("Deal result (本副结果)"),
    "tab_play": _l("Play (出牌)"),
    "tab_tribute": _l("Tribute (进贡)"),
    "tab_order": _l("Finishing order (名次)"),
    # top bar and seats
    "levels": _l("Levels"),
    "deal_no": _l("Deal"),
    "level_card": _l("Level (级牌)"),
    "trump": _l("Trump (将牌)"),
    "no_trump": _l("No trump (无主)"),
    "dealer": _l("Dealer (庄家)"),
    "dealer_short": _l("庄"),
    "dealer_side": _l("dealer side (庄家方)"),
    "defenders": _l("defenders (闲家)"),
    "defenders_points": _l("Defenders' points (闲家得分)"),
    "seat_n": _l("Seat %(n)s"),
    "seat_label": _l("Seat"),
    "side_a": _l("side 0 (seats 0 and 2)"),
    "side_b": _l("side 1 (seats 1 and 3)"),
    "big_joker": _l("BJ (大王)"),
    "small_joker": _l("SJ (小王)"),
    "cards_left_n": _l("%(n)s cards left"),
    "finished_nth": _l("#%(n)s out"),
    # network and outbox
    "online": _l("online"),
    "pending_n": _l("sending %(n)s…"),
    "offline_pending": _l("offline · %(n)s pending"),
    "conflict": _l("Another tablet logged first; the view has been refreshed."),
    "held_n": _l("%(n)s of your entries were not stored."),
    "resubmit": _l("Submit them anyway"),
    "discard": _l("Discard them"),
    "already_stored": _l("Already stored (a repeated tap)."),
    "rejected": _l("The engine rejected this entry; nothing changed."),
    "http_error": _l("The server refused this entry (HTTP %(status)s)."),
    # common actions
    "confirm": _l("Confirm ✓"),
    "cancel": _l("Cancel"),
    "backspace": _l("Remove the last card"),
    "undo": _l("Undo (撤销)"),
    "yes": _l("yes"),
    "no": _l("no"),
    # seating
    "seat_hint": _l("Type the players in play order (counter-clockwise); partners sit opposite."),
    "seat_first": _l("Seat the players first."),
    # declaring
    "declare": _l("Declare (亮主)"),
    "overcall": _l("Overcall (反主)"),
    "reinforce": _l("Reinforce (防反)"),
    "flip": _l("Flip (翻底定主)"),
    "to_bury": _l("To the bury (扣底) ▶"),
    "declare_hint": _l("Tap the seat, then the cards shown (level cards, jokers); then declare or overcall."),
    "redeal_button": _l("Nobody declared: redeal (重新发牌)"),
    "face_down": _l("Face down (扣着亮)"),
    "pass_round": _l("Pass (不反)"),
    "round_hint": _l("Pass/overcall round (表态): the three seats after the declarer, from its 下家, each pass (不反) or overcall once, in turn."),
    "rule": _l("Rule"),
    # burying
    "bury": _l("Bury (扣底)"),
    "bury_title": _l("Bury 8 cards (扣底): %(n)s / 8"),
    "bury_hint": _l("%(seat)s puts down 8 cards; tap them, then confirm."),
    # tricks
    "trick_no": _l("Trick %(n)s"),
    "seat_to_play": _l("%(seat)s to play"),
    "pick_leader": _l("Tap the seat that leads."),
    "pick_seat": _l("Tap the seat to play."),
    "tap_confirm": _l("All four have played: confirm (tap a seat to enter its cards again)."),
    "lead_size": _l("Lead"),
    "lead_free": _l("Throw (甩牌)…"),
    "leader_done": _l("Lead done ▶"),
    "throw_fail_short": _l("Failed throw (甩牌失败)"),
    "throw_fail": _l("Failed throw (甩牌失败)"),
    "throw_pick_blocker": _l("Failed throw: tap the seat that blocks it."),
    "throw_pick_blocking": _l("Tap the cards %(seat)s shows to block the throw."),
    "throw_forced": _l("Now enter the forced play of this trick. Attempted:"),
    "throw_enter_first": _l("Enter the attempted throw as the leader's cards first."),
    # the engine's answer
    "winner": _l("Winner"),
    "points": _l("Points"),
    "shape": _l("Shape"),
    "next_leader": _l("Leads next"),
    "next_to_play": _l("To play"),
    "violations": _l("Violations (违例)"),
    "recent": _l("Last entries"),
    "bottom": _l("Bottom (底牌)"),
    "captured": _l("Points captured"),
    "bottom_won": _l("Bottom won by the defenders (抠底)"),
    "bottom_value": _l("%(points)s × %(multiplier)s, %(won_by)s"),
    "defender_total": _l("Defenders' total"),
    "levels_after": _l("Levels after"),
    "penalty": _l("Penalty"),
    "redeal": _l("Redeal: nobody declared."),
    "match_over": _l("The match is over."),
    "deal_summary": _l("Deal %(n)s"),
    "no_deal_yet": _l("No deal yet."),
    "next_deal": _l("Next deal ▶"),
    "start_deal": _l("Start the deal ▶"),
    # quick entry
    "quick_hint": _l("When the table only wants results: what the table agreed for this deal."),
    "defender_points_in_tricks": _l("Defenders' points in tricks"),
    "bottom_points": _l("Points in the bottom"),
    "last_trick_winner": _l("Last trick won by"),
    "last_trick_shape": _l("Last trick shape"),
    "last_trick_trump": _l("Won with trump"),
    "throw_largest": _l("Largest part of the throw"),
    "shape_single": _l("single"),
    "shape_pair": _l("pair"),
    "shape_tractor2": _l("tractor ×2 (拖拉机)"),
    "shape_tractor3": _l("tractor ×3"),
    "shape_tractor4": _l("tractor ×4"),
    "shape_throw": _l("throw (甩牌)"),
    # penalties
    "offence": _l("Offence"),
    "cards_count": _l("Cards"),
    "note": _l("Note"),
    "note_placeholder": _l("what happened"),
    # Guandan
    "play": _l("Play ✓"),
    "pass": _l("Pass (不要)"),
    "report": _l("Report (报牌)"),
    "report_for": _l("%(seat)s reports cards left"),
    "on_table": _l("On the table"),
    "tribute": _l("Tribute (进贡)"),
    "return_": _l("Return (还贡)"),
    "anti_tribute": _l("Anti-tribute (抗贡)"),
    "tribute_hint": _l("From %(from)s to %(to)s: tap the two seats, then the card."),
    "anti_hint": _l("%(seat)s shows the big jokers: tap the seat, then the jokers."),
    "tribute_expected": _l("Expected:"),
    "from_seat": _l("from"),
    "to_seat": _l("to"),
    "scoresheet": _l("Scoresheet (记分表)"),
    "confirm_scoresheet": _l("Confirm the scoresheet (确认记分表)"),
    "scoresheet_confirmed": _l("Scoresheet confirmed."),
    "offline_try_later": _l("No connection: try again when the tablet is online."),
    "camera_filled": _l("Cards from the photo: check them, then confirm."),
    "order_hint": _l("Tap the seats in finishing order: 头游, 二游, 三游, 末游."),
}


def js_strings() -> dict[str, Any]:
    """The strings in the current locale, ready for `tojson` (`rules`: `rule_texts()`)."""
    strings: dict[str, Any] = {key: str(value) for key, value in STRINGS.items()}
    strings["rules"] = rule_texts()
    return strings


def rule_text(rule_id: str | None) -> str:
    """The engine's declaration rule `rule_id` in the reader's language, "" if unknown.

    Looked up by id in the engine's own bilingual table `referee.shengji.declaration.RULE_IDS`
    ("中文 / English"): Chinese alone in zh_Hans, "English (中文)" in English. The engine's
    English `detail` is never parsed.
    """
    from referee.shengji.declaration import RULE_IDS

    text = RULE_IDS.get(rule_id or "")
    if not text:
        return ""
    chinese, _sep, english = text.partition(" / ")
    if _english() and english:
        return f"{english} ({chinese})"
    return chinese


def rule_texts() -> dict[str, str]:
    """Every declaration rule id (`shengji.declare.*`, `shengji.round.*`, …) translated."""
    from referee.shengji.declaration import RULE_IDS

    return {rule_id: rule_text(rule_id) for rule_id in RULE_IDS}


def _english() -> bool:
    from flask_babel import get_locale

    locale = get_locale()
    return locale is not None and locale.language == "en"
