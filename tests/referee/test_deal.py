"""One Shengji deal replayed: tricks, points, leaders, copies, failed throws, penalties,
quick results and partial deals (RECORD_FORMAT.md, RULEBOOKS.md §1 and §3)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from record_builders import ZERO_BOTTOM, first_trick_index, quick_deal, record, simulated

from referee.cards import Rank, Suit, parse_cards
from referee.errors import InvalidRecordError
from referee.record import replay_document
from referee.shengji.deal import _winning_aces
from referee.shengji.order import TrumpContext


def deal_of(doc: dict[str, Any], number: int = 1) -> dict[str, Any]:
    result: dict[str, Any] = replay_document(doc)["deals"][number - 1]
    return result


def kinds(deal: dict[str, Any]) -> list[str]:
    return [v["kind"] for v in deal["violations"]]


# -- a full simulated deal ---------------------------------------------------------------


@pytest.mark.parametrize("rulebook", ["union-2deck", "shuangsheng-17", "eighty-rr", "shuangkou-simple"])
def test_full_deal_scores_all_200_points(rulebook: str) -> None:
    """§1: 200 points in two decks: captured + dealer side's tricks + bottom = 200."""
    doc = simulated(rulebook, 11)
    deal = deal_of(doc)
    assert deal["phase"] == "finished"
    won = sum(t["points"] for t in deal["tricks"])
    bottom = deal["bottom"]["points"]
    assert won + bottom == 200
    dealer_side = deal["dealer"] % 2
    captured = sum(t["points"] for t in deal["tricks"] if t["winner"] % 2 != dealer_side)
    assert deal["captured"] == captured
    assert deal["violations"] == []
    assert deal["outcome"]["next_dealer"] in range(4)


def test_result_fields_as_record_format() -> None:
    """RECORD_FORMAT.md "Result": every documented deal field is there."""
    deal = deal_of(simulated("union-2deck", 2))
    for key in ("number", "dealer", "level", "trump", "tricks", "captured", "bottom",
                "penalties", "defender_total", "outcome", "levels_after", "violations"):
        assert key in deal
    assert set(deal["bottom"]) == {"points", "multiplier", "won_by"}
    assert set(deal["trump"]) == {"suit", "level"}
    assert {"leader", "winner", "points", "shape"} <= set(deal["tricks"][0])
    assert deal["tricks"][0]["shape"] in ("single", "pair", "tractor", "throw")
    assert len(deal["bottom_cards"]) == 8


def test_wrong_leader_first_trick_must_be_the_dealer_000_s4() -> None:
    """000 第四条: 第一圈牌有庄家先出 (首引); a different leader is `wrong_leader`."""
    doc = simulated("eighty-rr", 5)
    events = doc["deals"][0]["events"]
    first = first_trick_index(events)
    trick = events[first]
    trick["leader"] = (trick["leader"] + 1) % 4
    trick["plays"] = trick["plays"][1:] + trick["plays"][:1]  # same seats, same cards
    deal = deal_of(doc)
    wrong = [v for v in deal["violations"] if v["kind"] == "wrong_leader"]
    assert wrong and wrong[0]["event"] == first


def test_wrong_leader_later_trick_must_be_previous_winner_000_s4() -> None:
    """后来每圈牌由上圈牌牌最大一家先出."""
    doc = simulated("union-2deck", 6)
    events = doc["deals"][0]["events"]
    index = first_trick_index(events) + 3
    trick = events[index]
    trick["leader"] = (trick["leader"] + 2) % 4
    trick["plays"] = trick["plays"][2:] + trick["plays"][:2]
    deal = deal_of(doc)
    assert any(v["kind"] == "wrong_leader" and v["event"] == index for v in deal["violations"])


def test_third_copy_of_a_card_makes_the_record_invalid() -> None:
    """RECORD_FORMAT.md: a card played more often than two decks hold → invalid (names event)."""
    doc = simulated("eighty-rr", 7)
    events = doc["deals"][0]["events"]
    first = first_trick_index(events)
    # every card appears twice in a full deal: any extra copy is a third one
    card = events[first]["plays"][0][0]
    target = first + 5
    events[target]["plays"][1][0] = card
    with pytest.raises(InvalidRecordError) as error:
        replay_document(doc)
    assert error.value.deal == 1
    assert error.value.event is not None and error.value.event >= first
    assert f"a third {card}" in str(error.value)  # found where the third copy shows up


def test_trick_before_the_bury_is_invalid() -> None:
    """Events out of order: a trick before the bury (扣底)."""
    doc = simulated("eighty-rr", 8)
    events = doc["deals"][0]["events"]
    doc["deals"][0]["events"] = [e for e in events if e["type"] != "bury"]
    with pytest.raises(InvalidRecordError):
        replay_document(doc)


def test_second_result_is_invalid() -> None:
    """Events out of order: a second quick `result`."""
    deal = quick_deal(0, ["2S"], 0, 40)
    deal["events"].append(copy.deepcopy(deal["events"][-1]))
    with pytest.raises(InvalidRecordError) as error:
        replay_document(record("eighty-rr", [deal]))
    assert error.value.event == 3


def test_trick_after_the_last_is_invalid() -> None:
    """A trick after the 25th (all 100 cards played) is out of order."""
    doc = simulated("eighty-rr", 9)
    events = doc["deals"][0]["events"]
    events.append(copy.deepcopy(events[-1]))
    with pytest.raises(InvalidRecordError):
        replay_document(doc)


def test_declare_after_the_play_began_is_invalid() -> None:
    """Declarations belong before the first trick."""
    doc = simulated("eighty-rr", 10)
    events = doc["deals"][0]["events"]
    events.insert(first_trick_index(events) + 2, {"type": "declare", "seat": 1, "cards": ["2H"]})
    with pytest.raises(InvalidRecordError):
        replay_document(doc)


# -- partial deals -------------------------------------------------------------------------


def test_partial_deal_reports_the_state_so_far() -> None:
    """RECORD_FORMAT.md: a record may stop anywhere; replay reports the state so far."""
    doc = simulated("shuangsheng-17", 4)
    events = doc["deals"][0]["events"]
    trick_indexes = [i for i, event in enumerate(events) if event["type"] == "trick"]
    cut = trick_indexes[9] + 1  # ten tricks in (a throw_fail may sit between them)
    doc["deals"][0]["events"] = events[:cut]
    full = deal_of(simulated("shuangsheng-17", 4))
    deal = deal_of(doc)
    assert deal["phase"] == "playing"
    assert deal["outcome"] is None and deal["defender_total"] is None
    assert len(deal["tricks"]) == 10
    assert deal["next_leader"] == full["tricks"][9]["winner"]
    dealer_side = deal["dealer"] % 2
    so_far = sum(t["points"] for t in full["tricks"][:10] if t["winner"] % 2 != dealer_side)
    assert deal["captured_so_far"] == so_far == deal["captured"]


def test_deal_before_the_bury_is_declaring_or_burying() -> None:
    """Phases: `declaring` until the bottom is taken; `playing` after the bury."""
    doc = record("eighty-rr", [{"events": [{"type": "declare", "seat": 2, "cards": ["2H"]}]}])
    deal = deal_of(doc)
    assert deal["phase"] in ("declaring", "burying")
    assert deal["next_leader"] is None
    doc["deals"][0]["events"].append({"type": "bury", "seat": 0, "cards": ZERO_BOTTOM})
    deal = deal_of(doc)
    assert deal["phase"] == "playing" and deal["next_leader"] == 0
    assert deal["trump"] == {"suit": "H", "level": "2"}


# -- quick result ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("rulebook", ["union-2deck", "shuangsheng-17", "eighty-rr", "shuangkou-simple"])
def test_quick_result_gives_the_same_outcome_as_tricks(rulebook: str, seed: int) -> None:
    """Both entry modes give the same outcome: full tricks, or the quick `result`."""
    from referee.rulebooks import find_rulebook
    from referee.shengji.events import parse_events
    from referee.shengji.tricks import evaluate_trick

    doc = simulated(rulebook, seed)
    full = deal_of(doc)
    events = doc["deals"][0]["events"]
    trump = full["trump"]
    ctx = TrumpContext.of(
        Rank(trump["level"]), None if trump["suit"] is None else Suit(trump["suit"]),
        find_rulebook(rulebook).trump_chain,
    )
    last_event = parse_events([events[-1]], 1)[0]
    outcome = evaluate_trick(ctx, last_event.leader, last_event.plays)  # type: ignore[union-attr]
    shape = outcome.last_trick_shape
    result: dict[str, Any] = {
        "type": "result",
        "defender_points": full["captured"],
        "bottom_points": full["bottom"]["points"],
        "last_trick_winner": outcome.winner,
        "last_trick_shape": "throw" if shape.startswith("throw") else shape,
        "last_trick_trump": outcome.won_with_trump,
    }
    if shape.startswith("throw"):
        result["last_trick_throw_largest"] = shape[6:]
    quick = copy.deepcopy(doc)
    kept = [
        {"type": "penalty", "seat": e["seat"], "kind": "failed_throw",
         "points": 10 * len(e["attempted"])} if e["type"] == "throw_fail" else e
        for e in events
        if e["type"] != "trick"
    ]
    quick["deals"][0]["events"] = [*kept, result]
    deal = deal_of(quick)
    assert deal["phase"] == "finished"
    for key in ("captured", "bottom", "defender_total", "levels_after"):
        assert deal[key] == full[key], key
    assert deal["outcome"]["winner"] == full["outcome"]["winner"]
    assert deal["outcome"]["next_dealer"] == full["outcome"]["next_dealer"]
    if rulebook != "shuangkou-simple":  # hard A needs the last trick's cards
        assert deal["outcome"] == full["outcome"]


def test_quick_result_multiplier_when_defenders_win_last_trick_000_s11() -> None:
    """抠底: defenders win the last trick with a pair → bottom × 4 added (union)."""
    deal = quick_deal(0, ["2S"], 0, 50, last_winner=1, bottom=["5C", "10C", "KC", "3D", "3D",
                                                            "4D", "4D", "6D"], shape="pair")
    result = deal_of(record("union-2deck", [deal]))
    assert result["bottom"] == {"points": 25, "multiplier": 4, "won_by": "defenders"}
    assert result["defender_total"] == 50 + 100
    assert result["outcome"] == {"winner": "defenders", "levels_up": 1, "next_dealer": 1}
    assert result["levels_after"] == ["2", "3"]


def test_quick_result_dealer_keeps_the_bottom_000_s11() -> None:
    """保底: the dealer side wins the last trick; the bottom's points are not the defenders'."""
    deal = quick_deal(0, ["2S"], 0, 75, last_winner=2, bottom=["5C", "10C", "KC", "3D", "3D",
                                                            "4D", "4D", "6D"], shape="pair")
    result = deal_of(record("union-2deck", [deal]))
    assert result["bottom"]["won_by"] == "dealer"
    assert result["defender_total"] == 75
    assert result["outcome"]["winner"] == "dealer" and result["levels_after"] == ["3", "2"]


def test_quick_result_bottom_points_mismatch_is_reported() -> None:
    """The table's bottom points are checked against the buried cards (a warning)."""
    deal = quick_deal(0, ["2S"], 0, 50)
    deal["events"][-1]["bottom_points"] = 30
    result = deal_of(record("eighty-rr", [deal]))
    assert result["bottom"]["points"] == 30  # what the table agreed counts
    assert "30 bottom points" in result["warnings"][0] and result["violations"] == []


def test_eighty_deal_carries_match_points_002() -> None:
    """eighty-rr: each deal carries `match_points` [side0, side1]."""
    result = deal_of(record("eighty-rr", [quick_deal(0, ["2S"], 0, 130, last_winner=0)]))
    assert result["match_points"] == [0, 3]
    assert result["levels_after"] == ["2", "2"]


# -- failed throws and penalties -------------------------------------------------------------


def union_throw_fail_deal(rulebook: str = "union-2deck") -> dict[str, Any]:
    """Dealer 0 (grab 2S); seat 3 fails a throw AH KH; the forced KH is ruffed by seat 2."""
    events = [
        {"type": "declare", "seat": 0, "cards": ["2S"]},
        {"type": "bury", "seat": 0, "cards": ZERO_BOTTOM},
        {"type": "trick", "leader": 0, "plays": [["3C"], ["4C"], ["5C"], ["AC"]]},
        {"type": "throw_fail", "seat": 3, "attempted": ["AH", "KH"], "blocker": 1,
         "blocking": ["AH"]},
        {"type": "trick", "leader": 3, "plays": [["KH"], ["6H"], ["7H"], ["3S"]]},
    ]
    return record(rulebook, [{"events": events}])


def test_failed_throw_penalty_ten_per_card_against_thrower_side_000_s17() -> None:
    """000 §17 甩错几张牌扣几十分: 2 cards → 20 points, charged to the thrower's side."""
    deal = deal_of(union_throw_fail_deal())
    assert deal["penalties"] == [
        {"event": 3, "seat": 3, "kind": "failed_throw", "points": 20, "side": 1}
    ]


def test_dealer_partner_may_not_ruff_after_failed_throw_000_s17() -> None:
    """000 §17 庄家同伴不得将吃和超将吃: seat 2's ruff does not win; KH does."""
    deal = deal_of(union_throw_fail_deal())
    assert deal["tricks"][1]["winner"] == 3


def test_partner_ruff_wins_where_the_rulebook_allows_it_001() -> None:
    """shuangsheng-17 has no such rule: the same ruff by seat 2 wins."""
    doc = union_throw_fail_deal()
    doc["options"] = {"failed_throw_partner_may_not_ruff": False}
    assert deal_of(doc)["tricks"][1]["winner"] == 2


def test_failed_throw_penalty_applied_I8() -> None:
    """I-8: a defender's failed throw comes off x (not below 0); a dealer's is added to x."""
    base = quick_deal(0, ["2S"], 0, 60)
    penalty = {"type": "penalty", "seat": 1, "kind": "failed_throw", "points": 30}
    with_defender = quick_deal(0, ["2S"], 0, 60, extra=[penalty])
    assert deal_of(record("union-2deck", [base]))["defender_total"] == 60
    assert deal_of(record("union-2deck", [with_defender]))["defender_total"] == 30
    penalty_dealer = dict(penalty, seat=2)
    with_dealer = quick_deal(0, ["2S"], 0, 60, extra=[penalty_dealer])
    result = deal_of(record("union-2deck", [with_dealer]))
    assert result["defender_total"] == 90
    assert result["outcome"]["winner"] == "defenders"  # applied before promotion
    floor = quick_deal(0, ["2S"], 0, 10, extra=[penalty])
    assert deal_of(record("union-2deck", [floor]))["defender_total"] == 0


def test_explicit_failed_throw_penalty_replaces_the_automatic_one() -> None:
    """A `penalty` failed_throw after a `throw_fail` is the same penalty, not a second one."""
    doc = union_throw_fail_deal()
    doc["deals"][0]["events"].append(
        {"type": "penalty", "seat": 3, "kind": "failed_throw", "points": 30}
    )
    penalties = deal_of(doc)["penalties"]
    assert len(penalties) == 1 and penalties[0]["points"] == 30


@pytest.mark.parametrize(
    ("rulebook", "kind", "points", "silent"),
    [
        ("union-2deck", "hidden_card", 20, False),  # 000 §18: 20–30
        ("shuangsheng-17", "hidden_card", 20, True),  # I-10
        ("shuangkou-simple", "wrong_follow", 10, False),  # 003 十三: 10 per card
        ("union-2deck", "wrong_follow", 0, False),  # 000 §17: minor, no penalty
        ("eighty-rr", "hidden_card", 20, True),
        ("union-2deck", "timeout", 0, False),
    ],
)
def test_penalty_defaults_by_rulebook_s3_I10(
    rulebook: str, kind: str, points: int, silent: bool
) -> None:
    """RULEBOOKS.md §3 penalty table with I-10 for silent rulebooks."""
    extra = [{"type": "penalty", "seat": 2, "kind": kind}]
    result = deal_of(record(rulebook, [quick_deal(0, ["2S"], 0, 40, extra=extra)]))
    penalty = result["penalties"][0]
    assert (penalty["points"], penalty["side"]) == (points, 0)
    assert ("rule" in penalty) == silent
    assert result["defender_total"] == 40 + points


def test_penalty_given_points_override_the_default_000_s18() -> None:
    """藏张 20–30 at the referee's choice: the event's points win."""
    extra = [{"type": "penalty", "seat": 1, "kind": "hidden_card", "points": 30}]
    result = deal_of(record("union-2deck", [quick_deal(0, ["2S"], 0, 100, extra=extra)]))
    assert result["defender_total"] == 70
    assert result["outcome"]["winner"] == "dealer"


def test_union_card_count_offending_side_loses_the_trick_000_s16() -> None:
    """000 §16 多牌少牌: the offending side loses that trick."""
    events = [
        {"type": "declare", "seat": 0, "cards": ["2S"]},
        {"type": "bury", "seat": 0, "cards": ZERO_BOTTOM},
        {"type": "trick", "leader": 0, "plays": [["KC"], ["4C"], ["5C", "6C"], ["3C"]]},
        {"type": "penalty", "seat": 2, "kind": "card_count"},
    ]
    events.append({"type": "trick", "leader": 3, "plays": [["8H"], ["9H"], ["10H"], ["JH"]]})
    deal = deal_of(record("union-2deck", [{"events": events}]))
    assert "wrong_count" in kinds(deal)
    assert deal["tricks"][0]["winner"] == 3  # the offender's 下家 takes the trick
    assert "wrong_leader" not in kinds(deal)  # and leads the next one
    assert deal["captured"] == 15  # KC + 5C; the 10H trick goes to JH (seat 2, dealer side)


def test_shuangkou_card_count_after_first_lead_other_side_to_a_003_s12() -> None:
    """003 十二.3: 出牌后发现多牌少牌，判违规方负，非违规方直接升级至A."""
    events = [
        {"type": "declare", "seat": 0, "cards": ["2S"], "face_down": True},
        {"type": "bury", "seat": 0, "cards": ZERO_BOTTOM},
        {"type": "trick", "leader": 0, "plays": [["KC"], ["4C"], ["5C"], ["3C"]]},
        {"type": "penalty", "seat": 0, "kind": "card_count"},
        {"type": "result", "defender_points": 20, "bottom_points": 0, "last_trick_winner": 0,
         "last_trick_shape": "single", "last_trick_trump": False},
    ]
    deal = deal_of(record("shuangkou-simple", [{"events": events}]))
    assert deal["levels_after"] == ["2", "A"]
    assert deal["outcome"]["winner"] == "defenders"


# -- declared cards and hard A ----------------------------------------------------------------


def test_declared_card_never_played_by_its_seat_is_reported() -> None:
    """Hindsight: a card shown to declare is in the declarer's hand; another seat played it."""
    doc = simulated("eighty-rr", 12, deals=2)
    deal = doc["deals"][1]
    events = deal["events"]
    declare = next(e for e in events if e["type"] == "declare")
    card = declare["cards"][0]
    dealer = next(e for e in events if e["type"] == "bury")["seat"]
    plays: dict[int, list[str]] = {s: [] for s in range(4)}
    for event in events:
        if event["type"] == "trick":
            for position, play in enumerate(event["plays"]):
                plays[(event["leader"] + position) % 4].extend(play)
    liar = next(s for s in range(4) if s not in (dealer, declare["seat"]) and card not in plays[s])
    declare["seat"] = liar
    result = replay_document(doc)["deals"][1]
    mismatch = [v for v in result["violations"] if v["kind"] == "declared_card_mismatch"]
    assert mismatch and mismatch[0]["proof_event"] == events.index(declare)


def test_winning_aces_count_hard_a_003_s9_4() -> None:
    """003 九.4: the last trick's largest card must be the dealer's A; each A is a hard A."""
    ctx = TrumpContext.of(Rank.ACE, Suit.SPADES)
    assert _winning_aces(ctx, parse_cards("AS AS")) == 2
    assert _winning_aces(ctx, parse_cards("AH")) == 1
    assert _winning_aces(ctx, parse_cards("BJ")) == 0
    assert _winning_aces(ctx, parse_cards("KS KS")) == 0


def test_revoke_found_in_hindsight_with_its_proof_000_s7_s18() -> None:
    """000 第七条/第十八条 藏张: a seat that discards while holding the led suit, proved by the
    later trick where it plays that card, is reported end to end through the replay."""
    from referee.rulebooks import find_rulebook

    for seed in range(1, 40):
        doc = simulated("eighty-rr", seed)
        events = doc["deals"][0]["events"]
        tricks = [(i, e) for i, e in enumerate(events) if e["type"] == "trick"]
        full = deal_of(doc)
        trump = full["trump"]
        ctx = TrumpContext.of(Rank(trump["level"]), None if trump["suit"] is None
                              else Suit(trump["suit"]), find_rulebook("eighty-rr").trump_chain)

        def suit(card: str, ctx: TrumpContext = ctx) -> int:
            return ctx.suit_key(parse_cards(card)[0])

        for t, (i, early) in enumerate(tricks):
            if len(early["plays"][0]) != 1:
                continue
            led = suit(early["plays"][0][0])
            for position in (1, 2, 3):
                card = early["plays"][position][0]
                if suit(card) != led:
                    continue
                seat = (early["leader"] + position) % 4
                for j, late in tricks[t + 1:]:
                    mine = late["plays"][(seat - late["leader"]) % 4]
                    if len(mine) == 1 and suit(mine[0]) != led and len(late["plays"][0]) == 1:
                        early["plays"][position][0], mine[0] = mine[0], card
                        deal = deal_of(doc)
                        revokes = [v for v in deal["violations"] if v["kind"] == "revoke"]
                        assert revokes, deal["violations"]
                        assert revokes[0]["event"] == i and revokes[0]["seat"] == seat
                        assert i < revokes[0]["proof_event"] <= j
                        return
    raise AssertionError("no simulated deal offered a swap")  # pragma: no cover


def test_shuangkou_wrong_level_card_after_bottom_other_side_to_a_003_s5() -> None:
    """003 五: 亮错级牌 after the dealer took the bottom → 无过错方直接升级至A."""
    events = [
        {"type": "declare", "seat": 0, "cards": ["2S"], "face_down": True},
        {"type": "overcall", "seat": 1, "cards": ["2D", "2D"], "face_down": True},
        {"type": "bury", "seat": 1, "cards": ["3C", "3C", "4C", "4C", "6C", "6C", "7C", "7C"]},
        {"type": "overcall", "seat": 2, "cards": ["7H", "7H"], "face_down": True},
        {"type": "result", "defender_points": 120, "bottom_points": 0, "last_trick_winner": 1,
         "last_trick_shape": "single", "last_trick_trump": False},
    ]
    deal = deal_of(record("shuangkou-simple", [{"events": events}]))
    assert deal["levels_after"] == ["2", "A"]  # side 0 erred: side 1 to A, whatever x was
    assert deal["outcome"] == {"winner": "dealer", "levels_up": 12, "next_dealer": 1}
    at_a = deal_of(record("shuangkou-simple", [{"events": events}], levels=("2", "A")))
    assert at_a["promotion"]["soft_a"] == [0, 1]  # already at A: one soft A


def test_later_failed_throw_penalty_is_a_second_penalty() -> None:
    """A failed_throw penalty two tricks after a logged throw_fail is another offence."""
    doc = union_throw_fail_deal()
    doc["deals"][0]["events"] += [
        {"type": "trick", "leader": 3, "plays": [["8H"], ["9H"], ["10H"], ["JH"]]},
        {"type": "penalty", "seat": 3, "kind": "failed_throw", "points": 30},
    ]
    assert [p["points"] for p in deal_of(doc)["penalties"]] == [20, 30]


def test_reinforced_pair_must_both_be_in_the_seats_hand_000_s13() -> None:
    """防反 shows the twin: the seat held both copies, so another seat cannot play one."""
    for seed in range(1, 60):
        doc = simulated("eighty-rr", seed, deals=2)
        events = doc["deals"][1]["events"]
        declare = events[0]
        if declare["type"] != "declare" or len(declare["cards"]) != 1:
            continue
        seat, card = declare["seat"], declare["cards"][0]
        if any(e["type"] in ("overcall", "reinforce") for e in events) or any(
            e["type"] == "bury" and e["seat"] == seat for e in events
        ):
            continue
        plays = [
            (e["leader"] + position) % 4
            for e in events if e["type"] == "trick"
            for position, play in enumerate(e["plays"]) for c in play if c == card
        ]
        if plays.count(seat) != 1 or len(plays) != 2:
            continue
        assert kinds(replay_document(doc)["deals"][1]).count("declared_card_mismatch") == 0
        events.insert(1, {"type": "reinforce", "seat": seat, "cards": [card]})
        deal = replay_document(doc)["deals"][1]
        mismatch = [v for v in deal["violations"] if v["kind"] == "declared_card_mismatch"]
        assert mismatch and mismatch[0]["proof_event"] == 1, deal["violations"]
        return
    raise AssertionError("no simulated deal fits")  # pragma: no cover


def test_deal_with_a_short_play_still_ends_and_scores() -> None:
    """多牌少牌: one card short in one trick; the deal still ends when the hands run out."""
    doc = simulated("eighty-rr", 15)
    events = doc["deals"][0]["events"]
    tricks = [e for e in events if e["type"] == "trick" and len(e["plays"][0]) == 1]
    short = tricks[3]
    short["plays"][2] = []  # the third player played nothing
    deal = deal_of(doc)
    assert deal["phase"] == "finished" and deal["outcome"] is not None
    assert "wrong_count" in kinds(deal)


def test_deal_with_an_extra_card_early_is_not_cut_short() -> None:
    """多牌: a seat that played one card too many earlier does not end the deal early."""
    doc = simulated("eighty-rr", 15)
    events = doc["deals"][0]["events"]
    tricks = [e for e in events if e["type"] == "trick"]
    single = next(e for e in tricks[2:] if len(e["plays"][0]) == 1)
    last = tricks[-1]
    seat = (single["leader"] + 1) % 4
    # move seat's card of the last trick into the earlier single trick
    position_last = (seat - last["leader"]) % 4
    moved = last["plays"][position_last].pop()
    single["plays"][1].append(moved)
    deal = deal_of(doc)
    assert deal["phase"] == "finished" and len(deal["tricks"]) == len(tricks)
    assert "wrong_count" in kinds(deal)
