import numpy as np
import pytest

from pokerlab.cards import (
    Deck,
    card_pretty,
    card_str,
    cards_pretty,
    cards_str,
    make_card,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from pokerlab.errors import CardError, PokerlabError


def test_encoding_is_rank_times_four_plus_suit() -> None:
    assert parse_card("2c") == 0
    assert parse_card("2d") == 1
    assert parse_card("3c") == 4
    assert parse_card("As") == 51
    assert make_card(12, 3) == 51
    assert rank_of(51) == 12
    assert suit_of(parse_card("Kh")) == 2


def test_every_card_round_trips() -> None:
    for card in range(52):
        assert parse_card(card_str(card)) == card
    assert parse_card("td") == parse_card("Td") == parse_card("10d")


def test_parse_cards_with_and_without_spaces() -> None:
    assert parse_cards("AsKd QhJh") == parse_cards("AsKdQhJh") == parse_cards("As, Kd, Qh, Jh")
    assert cards_str(parse_cards("AsKd")) == "AsKd"
    assert cards_str(parse_cards("AsKd"), sep=" ") == "As Kd"
    assert parse_cards("") == ()


def test_pretty_form_uses_suit_symbols() -> None:
    assert card_pretty(parse_card("As")) == "A♠"
    assert cards_pretty(parse_cards("AsKdQhJc")) == "A♠ K♦ Q♥ J♣"


@pytest.mark.parametrize("text", ["Zz", "A", "Ax", "1s", "AsK", "As Zz"])
def test_bad_card_text_names_it(text: str) -> None:
    with pytest.raises(CardError, match="allowed"):
        parse_cards(text)


def test_duplicate_card_is_an_error() -> None:
    with pytest.raises(CardError, match="As appears twice"):
        parse_cards("AsKdAs")
    assert parse_cards("AsAs", allow_duplicates=True) == (51, 51)


def test_card_error_is_a_value_error_and_pokerlab_error() -> None:
    with pytest.raises(ValueError, match="Zz"):
        parse_card("Zz")
    with pytest.raises(PokerlabError):
        card_str(52)


def test_deck_is_seeded_and_deals_distinct_cards() -> None:
    first = Deck(rng=3)
    second = Deck(rng=np.random.default_rng(3))
    assert first.cards == second.cards
    assert sorted(first.cards) == list(range(52))
    assert first.cards != Deck(rng=4).cards
    hand = first.deal(2)
    board = first.deal(5)
    assert len(first) == 45
    assert not set(hand) & set(board)
    assert not set(hand + board) & set(first.cards)


def test_deck_removes_known_cards() -> None:
    deck = Deck(rng=0, exclude="AsKd")
    assert len(deck) == 50
    assert 51 not in deck.cards
    deck.remove("Qh 2c")
    assert len(deck) == 48
    with pytest.raises(CardError, match="not in the deck"):
        deck.remove("As")
    with pytest.raises(CardError, match="cannot deal 49"):
        deck.deal(49)
