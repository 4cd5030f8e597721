"""The lossless card abstraction: same bucket exactly when the player sees the same cards."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.abstraction.card_abstraction import CardAbstraction
from pokerlab.abstraction.lossless_cards import LosslessCards, lossless_for
from pokerlab.errors import SpecError
from pokerlab.games.leduc import leduc


@pytest.mark.parametrize("players", [2, 3])
def test_leduc_buckets_agree_with_infoset_keys(players: int) -> None:
    game = leduc(players=players)
    abstraction = lossless_for(game)
    assert isinstance(abstraction, CardAbstraction)
    assert abstraction.bucket_counts == (game.ranks, game.ranks**2)
    rng = np.random.default_rng(players)
    deals = np.array([rng.permutation(game.n_cards)[: players + 1] for _ in range(300)])
    buckets = abstraction.buckets(deals[:, :players, None], deals[:, players:])
    assert buckets.shape == (300, players, 2)
    by_key: dict[tuple[int, str], int] = {}
    by_bucket: dict[tuple[int, int], str] = {}
    for d in range(300):
        state = game.initial_state()
        for card in deals[d]:  # deal, checking every round through
            state = state.child(int(card))
            while state.player >= 0:
                state = state.child(1)
        for p in range(players):
            # The card part of the player's infoset key after the board: "K|Q|cc|cc".
            rank, board = state.infoset_key(p).split("|")[:2]
            for street, text in ((0, rank), (1, f"{rank}|{board}")):
                bucket = int(buckets[d, p, street])
                assert 0 <= bucket < abstraction.bucket_counts[street]
                assert by_key.setdefault((street, text), bucket) == bucket
                assert by_bucket.setdefault((street, bucket), text) == text


def test_buckets_ignore_order_within_a_group_but_not_across_streets() -> None:
    cards = LosslessCards(card_class=tuple(range(6)), hole_size=2, board_cards=(0, 1, 1))
    hole = np.array([[[0, 1]], [[1, 0]], [[0, 1]]])
    board = np.array([[2, 3], [2, 3], [3, 2]])
    out = cards.buckets(hole, board)
    assert out[0].tolist() == out[1].tolist()
    assert out[0, 0, 1] != out[2, 0, 1]
    assert out[0, 0, 2] != out[2, 0, 2]


def test_bad_input_is_refused_with_what_is_allowed() -> None:
    cards = lossless_for(leduc())
    with pytest.raises(SpecError, match="hole must be"):
        cards.buckets(np.zeros((2, 2)), np.zeros((2, 1)))
    with pytest.raises(SpecError, match=r"card ids must be in 0\.\.5"):
        cards.buckets(np.full((1, 2, 1), 9), np.zeros((1, 1)))
    with pytest.raises(SpecError, match="clustered"):
        LosslessCards(card_class=tuple(range(52)), hole_size=2, board_cards=(0, 3, 1, 1))


def test_buckets_are_the_mixed_radix_index_of_each_sorted_group() -> None:
    cards = LosslessCards(card_class=tuple(c // 4 for c in range(52)), hole_size=2,
                          board_cards=(0, 3, 1))
    rng = np.random.default_rng(11)
    deals = np.array([rng.permutation(52)[:8] for _ in range(200)])
    hole, board = deals[:, :4].reshape(200, 2, 2), deals[:, 4:]
    out = cards.buckets(hole, board)
    for d in range(200):
        for p in range(2):
            code = 0
            groups = (hole[d, p], board[d, :0], board[d, :3], board[d, 3:4])
            for street, group in enumerate(groups):  # the hole, then each street's cards
                for card_class in sorted(int(c) // 4 for c in group):
                    code = code * 13 + card_class
                if street:
                    assert out[d, p, street - 1] == code
