"""Hold'em games with parameters: the deck, streets, limit sizes; specs and bad input."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pokerlab.errors import SpecError
from pokerlab.games import load
from pokerlab.games.holdem import RHODE_ISLAND_ACPC, holdem, rhode_island_acpc
from pokerlab.games.holdem_pots import hand_values


def test_defaults_are_texas_holdem() -> None:
    assert str(holdem().spec) == "holdem"
    assert holdem(betting="limit") == load('holdem(betting="limit")')
    assert "Texas Hold'em" in holdem().describe()


def test_three_card_acpc_variant_round_trips_and_deals_three_cards() -> None:
    game = rhode_island_acpc()
    assert load(str(game.spec)) == game == load(RHODE_ISLAND_ACPC)
    assert game.rules.board_sizes == (0, 1, 2)
    assert game.rules.street_bets == (10, 10, 20)
    rng = random.Random(1)
    for _ in range(200):
        state = game.initial_state()
        while not state.is_terminal:
            state = state.child(rng.choice(state.legal_actions()))
        assert len(state.hole_cards(0)) == 1
        assert len(state.board) <= 2
        assert sum(state.returns()) == 0


def test_short_deck_deals_only_its_cards() -> None:
    game = holdem(betting="limit", ranks=6, suits=3)
    assert len(game.rules.deck) == 18
    assert all(c // 4 >= 7 and c % 4 < 3 for c in game.rules.deck)
    assert set(game.initial_state().legal_actions()) == set(game.rules.deck)
    assert "6 ranks x 3 suits" in game.describe()


def test_small_hands_rank_pairs_trips_and_kickers() -> None:
    # As Ks Kd (pair of kings) > Ac Qd Jd (ace high) ; Ks Kd Kh (trips) > the pair.
    values = hand_values(np.array([[51, 47, 45], [48, 41, 37], [47, 45, 46]]))
    assert values[2] > values[0] > values[1]
    # two pair beats one pair with an ace kicker; high cards compare kickers.
    two_pair, pair = hand_values(np.array([[0, 1, 4, 5], [51, 0, 1, 8]]))
    assert two_pair > pair
    a, b = hand_values(np.array([[51, 8], [51, 4]]))
    assert a > b


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("holdem(ranks=1)", "ranks must be 2..13"),
        ("holdem(suits=5)", "suits must be 1..4"),
        ("holdem(hole=0)", "hole (cards per player) must be 1..4"),
        ('holdem(board="3,x")', "comma-separated ints"),
        ('holdem(board="1,1,1,1")', "at most 3 streets"),
        ('holdem(hole=3, board="3,1,1")', "<= 7 cards"),
        ("holdem(ranks=2, suits=2, players=3)", "deck has only 4"),
        ('holdem(betting="limit", raises="2,2")', "one value per street (4)"),
        ('holdem(betting="nolimit", raises="2,2,4,4")', "for limit betting"),
        ('holdem(first="0,0,0,5")', "seats 0..1"),
        ("holdem(seat_blinds=(0, 0))", "not all 0"),
    ],
)
def test_bad_parameters_say_what_is_allowed(spec: str, words: str) -> None:
    with pytest.raises(SpecError, match=words.replace("(", r"\(").replace(")", r"\)")):
        load(spec)
