"""The Hold'em suit isomorphism: sizes, round trips, and classes checked by brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from pokerlab.abstraction.holdem_iso import HandIndexer, board_indexer, street_indexer
from pokerlab.cards import parse_cards
from pokerlab.errors import CardError

PERMUTATIONS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)


def canonical_keys(cards: np.ndarray, rounds: tuple[int, ...]) -> np.ndarray:
    """Brute force: the smallest (round masks...) over all 24 suit renamings, one per row.

    Independent of the indexer: a hand's class is its per-round card sets up to renaming.
    """
    keys = []
    for perm in PERMUTATIONS:
        renamed = (cards >> 2) * 4 + perm[cards & 3]
        masks = []
        start = 0
        for count in rounds:
            block = renamed[:, start : start + count]
            masks.append(np.bitwise_or.reduce(np.left_shift(np.int64(1), block), axis=1))
            start += count
        keys.append(np.stack(masks, axis=1))
    stacked = np.stack(keys)  # [24, n, rounds]
    best = stacked[0].copy()
    for candidate in stacked[1:]:
        smaller = np.zeros(len(best), dtype=bool)
        decided = np.zeros(len(best), dtype=bool)
        for j in range(len(rounds)):
            smaller |= ~decided & (candidate[:, j] < best[:, j])
            decided |= candidate[:, j] != best[:, j]
        best[smaller] = candidate[smaller]
    return best


def all_hands(n_cards_in_deck: int, rounds: tuple[int, ...]) -> np.ndarray:
    rows = []
    deck = range(n_cards_in_deck)
    first = rounds[0]
    for head in itertools.combinations(deck, first):
        rest = [c for c in deck if c not in head]
        if len(rounds) == 1:
            rows.append(head)
            continue
        for tail in itertools.combinations(rest, rounds[1]):
            rows.append(head + tail)
    return np.array(rows, dtype=np.int64)


@pytest.mark.parametrize(
    ("rounds", "size"),
    [
        ((2,), 169),
        ((2, 3), 1_286_792),
        ((2, 4), 13_960_050),
        ((2, 5), 123_156_254),
        ((3,), 1_755),
        ((4,), 16_432),
        ((5,), 134_459),
        ((2, 3, 1, 1), 2_428_287_420),
    ],
)
def test_standard_sizes(rounds: tuple[int, ...], size: int) -> None:
    assert HandIndexer(rounds).size == size


def test_street_indexers_are_the_standard_ones() -> None:
    assert [street_indexer(s).size for s in range(4)] == [169, 1_286_792, 13_960_050, 123_156_254]
    assert board_indexer(3).size == 1_755


def test_preflop_every_hand_both_ways() -> None:
    indexer = HandIndexer((2,))
    hands = all_hands(52, (2,))
    indices = indexer.index(hands)
    assert set(indices.tolist()) == set(range(169))
    keys = canonical_keys(hands, (2,))
    # same class <=> same index
    pairs = np.unique(np.stack([indices, keys[:, 0].astype(np.int64)], axis=1), axis=0)
    assert len(pairs) == 169
    representatives = indexer.unindex(np.arange(169))
    assert np.array_equal(indexer.index(representatives), np.arange(169))
    # 13 pairs (6 combos), 78 suited (4), 78 offsuit (12)
    assert sorted(np.bincount(indices).tolist()) == [4] * 78 + [6] * 13 + [12] * 78


@pytest.mark.parametrize(("n_ranks", "rounds"), [(5, (2, 3)), (4, (2, 2, 1)), (6, (3,))])
def test_small_deck_exhaustive(n_ranks: int, rounds: tuple[int, ...]) -> None:
    indexer = HandIndexer(rounds, n_ranks=n_ranks)
    if len(rounds) == 3:
        base = all_hands(4 * n_ranks, rounds[:2])
        hands = np.array(
            [[*row.tolist(), c] for row in base for c in range(4 * n_ranks) if c not in row],
            dtype=np.int64,
        )
    else:
        hands = all_hands(4 * n_ranks, rounds)
    indices = indexer.index(hands)
    keys = canonical_keys(hands, rounds)
    _, key_ids = np.unique(keys, axis=0, return_inverse=True)
    key_ids = key_ids.reshape(-1)
    # the index is a bijection between the brute-force classes and 0..size-1
    assert key_ids.max() + 1 == indexer.size
    assert set(indices.tolist()) == set(range(indexer.size))
    assert len(np.unique(np.stack([indices, key_ids], axis=1), axis=0)) == indexer.size
    # every index maps back and forth, to a member of its own class
    every = np.arange(indexer.size)
    representatives = indexer.unindex(every)
    assert np.array_equal(indexer.index(representatives), every)
    first_of_index = np.full(indexer.size, -1)
    first_of_index[indices[::-1]] = np.arange(len(indices))[::-1]
    assert np.array_equal(canonical_keys(representatives, rounds), keys[first_of_index])


def test_every_flop_index_both_ways() -> None:
    flop = street_indexer(1)
    every = np.arange(flop.size)
    assert np.array_equal(flop.index(flop.unindex(every)), every)


@pytest.mark.parametrize("street", [1, 2, 3])
def test_full_deck_samples(street: int) -> None:
    rng = np.random.default_rng(street)
    indexer = street_indexer(street)
    rounds = indexer.rounds
    n = 3000
    hands = np.argsort(rng.random((n, 52)), axis=1)[:, : indexer.n_cards].astype(np.int64)
    indices = indexer.index(hands)
    assert indices.min() >= 0
    assert indices.max() < indexer.size
    # renaming suits and shuffling inside rounds keeps the index
    perm = PERMUTATIONS[rng.integers(24, size=n)]
    renamed = (hands >> 2) * 4 + np.take_along_axis(perm, hands & 3, axis=1)
    shuffled = renamed.copy()
    shuffled[:, 2:] = np.take_along_axis(
        renamed[:, 2:], np.argsort(rng.random((n, rounds[1])), axis=1), axis=1
    )
    shuffled[:, :2] = shuffled[:, 1::-1]
    assert np.array_equal(indexer.index(shuffled), indices)
    # representatives are in the same class, and index back
    representatives = indexer.unindex(indices)
    assert np.array_equal(canonical_keys(representatives, rounds), canonical_keys(hands, rounds))
    assert np.array_equal(indexer.index(representatives), indices)
    # random indices (including both ends) map back and forth
    some = np.concatenate([[0, indexer.size - 1], rng.integers(indexer.size, size=n)])
    assert np.array_equal(indexer.index(indexer.unindex(some)), some)


def test_isomorphic_example() -> None:
    flop = street_indexer(1)
    a = flop.index([parse_cards("AsKs Qs7s2d")])
    b = flop.index([parse_cards("KhAh 2c7hQh")])
    c = flop.index([parse_cards("AsKs Qs7s2s")])
    assert a[0] == b[0] != c[0]


def test_bad_input_is_named() -> None:
    flop = street_indexer(1)
    with pytest.raises(CardError, match="repeats a card"):
        flop.index([[0, 1, 2, 3, 0]])
    with pytest.raises(CardError, match=r"\[n, 5\]"):
        flop.index([[0, 1, 2, 3]])
    with pytest.raises(CardError, match="outside the deck"):
        flop.index([[0, 1, 2, 3, 52]])
    with pytest.raises(CardError, match=r"outside 0\.\.1286791"):
        flop.unindex([1_286_792])
    with pytest.raises(CardError, match="n_ranks"):
        HandIndexer((2, 3), n_ranks=14)
    with pytest.raises(CardError, match="street"):
        street_indexer(4)
