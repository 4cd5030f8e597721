"""The blueprint dealer's compiled passes equal their plain numpy definitions."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.blueprint.deals import (
    HoldemDealer,
    hand_strengths,
    shuffled_prefix,
    small_value_table,
)
from pokerlab.games import load


@pytest.mark.parametrize(("size", "needed"), [(6, 3), (52, 9), (52, 52), (20, 1)])
def test_shuffled_prefix_deals_what_argsort_deals(size: int, needed: int) -> None:
    first, second = np.random.default_rng(size), np.random.default_rng(size)
    dealt = shuffled_prefix(first, 500, size, needed)
    expected = np.argsort(second.random((500, size)), axis=1)[:, :needed]
    np.testing.assert_array_equal(dealt, expected)
    assert first.random() == second.random()  # the same draws were used up


def test_shuffled_prefix_puts_ties_in_deck_order() -> None:
    from pokerlab.blueprint.deals import _first_in_order

    draws = np.array([[0.5, 0.1, 0.5, 0.1, 0.9]])
    assert _first_in_order(draws, 4).tolist() == [[1, 3, 0, 2]]


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_small_value_table_equals_hand_strengths(size: int) -> None:
    table = small_value_table(size)
    assert table.shape == (13**size,)
    rng = np.random.default_rng(size)
    hands = np.array([rng.permutation(52)[:size] for _ in range(2000)], dtype=np.int64)
    index = ((hands // 4) * 13 ** np.arange(size)).sum(axis=1)
    np.testing.assert_array_equal(table[index], hand_strengths(hands))


@pytest.mark.parametrize("spec", [
    'holdem(betting="limit", ranks=3, suits=2, hole=1, board="1")',
    'holdem(betting="limit", players=3, ranks=6, suits=2, hole=2, board="1,1")',
    'holdem(betting="limit", ranks=5, suits=2, hole=2, board="3")',
])
def test_dealt_strengths_are_the_hands_strengths(spec: str) -> None:
    dealer = HoldemDealer(load(spec))
    buckets, strength = dealer.deal(np.random.default_rng(3), 400)
    again = np.random.default_rng(3)
    n, hole_size, board_size = dealer.n_players, dealer.hole_size, dealer.board_size
    order = np.argsort(again.random((400, dealer.deck.size)), axis=1)
    cards = dealer.deck[order[:, : n * hole_size + board_size]]
    hole = cards[:, : n * hole_size].reshape(400, n, hole_size)
    board = cards[:, n * hole_size :]
    hands = np.concatenate((hole, np.repeat(board[:, None, :], n, axis=1)), axis=2)
    expected = hand_strengths(hands.reshape(400 * n, -1)).reshape(400, n)
    np.testing.assert_array_equal(strength, expected)
    np.testing.assert_array_equal(buckets, dealer.cards.buckets(hole, board))
