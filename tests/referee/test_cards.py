"""Card notation (RECORD_FORMAT.md "Cards"): ASCII, Unicode and Chinese input, ASCII output."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.cards import (
    ALL_CARDS,
    BIG_JOKER,
    SMALL_JOKER,
    Card,
    Rank,
    Suit,
    copies_in_decks,
    format_cards,
    parse_card,
    parse_cards,
    points_of,
    two_decks,
)
from referee.errors import NotationError


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("10H", "10H"), ("AS", "AS"), ("JS", "JS"), ("BJ", "BJ"), ("SJ", "SJ"),
        ("2C", "2C"), ("QD", "QD"), ("KH", "KH"),
    ],
)
def test_ascii_cards_rank_first_then_suit(text: str, card: str) -> None:
    """Rank first, then suit; jokers BJ (大王) and SJ (小王)."""
    assert str(parse_card(text)) == card


@pytest.mark.parametrize("text", ["TH", "Th", "th", "T♥"])
def test_T_is_accepted_for_ten(text: str) -> None:
    """`T` is accepted for 10; writers always emit `10`."""
    assert str(parse_card(text)) == "10H"


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("A♠", "AS"), ("♠A", "AS"), ("♥10", "10H"), ("10♥", "10H"), ("♣K", "KC"), ("Q♦", "QD"),
        ("♤3", "3S"), ("♡4", "4H"), ("♧5", "5C"), ("♢6", "6D"),
    ],
)
def test_unicode_suit_signs_either_side(text: str, card: str) -> None:
    """Parsers accept `♠A` / `A♠` style Unicode."""
    assert str(parse_card(text)) == card


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("大王", "BJ"), ("小王", "SJ"), ("黑桃A", "AS"), ("红桃10", "10H"), ("梅花K", "KC"),
        ("方块3", "3D"), ("方片7", "7D"), ("草花9", "9C"),
    ],
)
def test_chinese_names(text: str, card: str) -> None:
    """大王 / 小王 and the Chinese suit names."""
    assert str(parse_card(text)) == card


def test_lowercase_and_spaces_are_forgiven() -> None:
    """Referees type quickly: case and surrounding spaces do not matter."""
    assert parse_card(" ks ") is parse_card("KS")
    assert parse_card("bj") is BIG_JOKER and parse_card("sj") is SMALL_JOKER


def test_cards_are_interned() -> None:
    """Each card value is one object; two decks hold every card twice."""
    assert parse_card("A♠") is parse_card("AS")
    decks = two_decks()
    assert len(decks) == 108 and len(set(decks)) == 54
    assert all(decks.count(card) == 2 for card in ALL_CARDS)


@pytest.mark.parametrize("text", ["XX", "1S", "11H", "AZ", "S", "", "BJS", "王"])
def test_unreadable_token_is_a_notation_error_naming_it(text: str) -> None:
    """An unreadable token is a NotationError naming the token."""
    with pytest.raises(NotationError) as error:
        parse_card(text, "deal 2, event 5")
    assert error.value.token == text
    assert "deal 2, event 5" in str(error.value)


def test_notation_error_names_the_place_in_a_list() -> None:
    """In a list, the error names the position of the bad token."""
    with pytest.raises(NotationError) as error:
        parse_cards(["2S", "KH", "ZZ"], "deal 1, event 3")
    assert error.value.token == "ZZ"
    assert error.value.where == "deal 1, event 3, card 3"


def test_parse_cards_from_one_string_with_separators() -> None:
    """A string of cards separated by spaces, commas or 、."""
    assert format_cards(parse_cards("10H, AS、sj  2c")) == "10H AS SJ 2C"


def test_non_string_token_is_a_notation_error() -> None:
    """A number where a card should be is unreadable, not a crash."""
    with pytest.raises(NotationError):
        parse_card(10)  # type: ignore[arg-type]


def test_points_five_ten_king() -> None:
    """5 = 5, 10 = 10, K = 10; 200 points in two decks."""
    assert points_of(parse_cards("5S 10H KD 3C BJ")) == 25
    assert points_of(two_decks()) == 200


def test_display_unicode_and_chinese() -> None:
    """Display forms: A♠, 10♥, 大王, 小王."""
    assert [c.display() for c in parse_cards("AS 10H BJ SJ")] == ["A♠", "10♥", "大王", "小王"]


def test_copies_in_decks_finds_third_copies() -> None:
    """A card seen more often than two decks hold."""
    assert copies_in_decks(parse_cards("AS AS AS KH KH")) == [parse_card("AS")]


cards = st.sampled_from(ALL_CARDS)


@given(cards)
def test_parse_print_identity_ascii(card: Card) -> None:
    """parse ∘ print is the identity (ASCII)."""
    assert parse_card(str(card)) is card


@given(cards)
def test_parse_display_identity_unicode(card: Card) -> None:
    """The Unicode/Chinese display form reads back as the same card."""
    assert parse_card(card.display()) is card


@given(st.lists(cards, max_size=30))
def test_format_parse_identity_lists(hand: list[Card]) -> None:
    """format_cards ∘ parse_cards is the identity on lists."""
    assert list(parse_cards(format_cards(hand))) == hand


def test_index_and_suits() -> None:
    """54 cards indexed 0..53, jokers 52 (SJ) and 53 (BJ); Suit/Rank values are ASCII."""
    assert [c.index for c in ALL_CARDS] == list(range(54))
    assert Suit.SPADES.symbol == "♠" and Suit.HEARTS.chinese == "红桃"
    assert Rank("10") is Rank.TEN and Rank.BIG_JOKER.is_joker
