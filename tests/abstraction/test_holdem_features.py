"""Hold'em hand-strength features, checked against brute force and against eval7."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

from pokerlab.abstraction.holdem_features import (
    NOT_COMPUTED,
    STRENGTH_SCALE,
    StreetFeatures,
    board_weights,
    preflop_distributions,
    river_strengths,
    street_distributions,
)
from pokerlab.abstraction.holdem_iso import street_indexer
from pokerlab.cards import evaluate_batch
from pokerlab.errors import SpecError

with warnings.catch_warnings():  # eval7 (a dev dependency) still calls pyparsing's old names
    warnings.simplefilter("ignore", DeprecationWarning)
    import eval7


def brute_numerator(hole: tuple[int, int], board: list[int]) -> int:
    """2 * wins + ties of `hole` against every opponent pair, by the batch evaluator."""
    rest = [c for c in range(52) if c not in hole and c not in board]
    opponents = np.array(list(itertools.combinations(rest, 2)))
    theirs = evaluate_batch(np.hstack([opponents, np.tile(board, (len(opponents), 1))]))
    mine = evaluate_batch([[*hole, *board]])[0]
    return int(2 * np.sum(mine > theirs) + np.sum(mine == theirs))


@pytest.mark.parametrize("n_board", [3, 4, 5])
def test_board_weights_count_every_board(n_board: int) -> None:
    reps, counts = board_weights(n_board)
    assert counts.sum() == {3: 22_100, 4: 270_725, 5: 2_598_960}[n_board]
    assert set(np.unique(counts).tolist()) <= {1, 4, 6, 12, 24}
    assert len(reps) == {3: 1_755, 4: 16_432, 5: 134_459}[n_board]


def test_river_strengths_match_brute_force_and_eval7() -> None:
    rng = np.random.default_rng(3)
    reps, counts = board_weights(5)
    chosen = np.array([0, 777, 134_458])
    result = river_strengths(boards=chosen)
    indexer = street_indexer(3)
    deck = [eval7.Card(s) for s in _names()]
    for board_index in chosen:
        board = reps[board_index].tolist()
        rest = [c for c in range(52) if c not in board]
        pairs = list(itertools.combinations(rest, 2))
        # every pair on the board wrote its class
        indices = indexer.index([[a, b, *board] for a, b in pairs])
        assert np.all(result.numerators[indices] <= STRENGTH_SCALE)
        for k in rng.choice(len(pairs), size=8, replace=False):
            hole = pairs[k]
            expected = brute_numerator(hole, board)
            assert result.numerators[indices[k]] == expected
            # eval7, an independent evaluator, agrees on the strength
            mine = eval7.evaluate([deck[c] for c in [*hole, *board]])
            others = [c for c in rest if c not in hole]
            score = 0
            for a, b in itertools.combinations(others, 2):
                theirs = eval7.evaluate([deck[c] for c in [a, b, *board]])
                score += 2 if mine > theirs else 1 if mine == theirs else 0
            assert score == expected
    # the classes of other boards were not written; the weights count every dealt pair
    assert np.count_nonzero(result.numerators != NOT_COMPUTED) <= 3 * 1081
    assert result.value_weights.sum() == counts[chosen].sum() * 1081


def _names() -> list[str]:
    return [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


@pytest.mark.parametrize(("street", "board_index", "n_holes"), [(2, 5000, 6), (1, 900, 2)])
def test_distributions_match_brute_force(street: int, board_index: int, n_holes: int) -> None:
    n_bins = 10
    features = street_distributions(street, n_bins, boards=np.array([board_index]))
    n_board = street + 2
    reps, _ = board_weights(n_board)
    board = reps[board_index].tolist()
    rest = [c for c in range(52) if c not in board]
    rng = np.random.default_rng(street)
    pairs = list(itertools.combinations(rest, 2))
    indexer = street_indexer(street)
    for k in rng.choice(len(pairs), size=n_holes, replace=False):
        hole = pairs[k]
        index = indexer.index([[*hole, *board]])[0]
        live = [c for c in rest if c not in hole]
        numerators = [
            brute_numerator(hole, board + list(runout))
            for runout in itertools.combinations(live, 5 - n_board)
        ]
        histogram = np.bincount(
            np.array(numerators) * n_bins // (STRENGTH_SCALE + 1), minlength=n_bins
        )
        assert features.histograms[index].tolist() == histogram.tolist()
        assert features.strength_sum[index] == sum(numerators)
        assert features.strength_square_sum[index] == sum(x * x for x in numerators)
        assert features.n_runouts == len(numerators)
        assert features.ehs[index] == pytest.approx(np.mean(numerators) / STRENGTH_SCALE)


def test_preflop_sums_the_flop_classes_by_weight() -> None:
    """A synthetic flop table: each class's histogram names its preflop class."""
    flop = street_indexer(1)
    pre = street_indexer(0).index(flop.unindex(np.arange(flop.size))[:, :2])
    n_bins = 13
    histograms = np.zeros((flop.size, n_bins), dtype=np.uint16)
    histograms[np.arange(flop.size), pre % n_bins] = 1081
    features = StreetFeatures(
        1,
        histograms,
        pre.astype(np.int64) * 1081,
        pre.astype(np.int64) ** 2 * 1081,
        np.ones(flop.size, dtype=np.int64),
        1081,
    )
    result = preflop_distributions(features)
    assert np.array_equal(result.histograms.argmax(axis=1), np.arange(169) % n_bins)
    assert np.all(result.histograms.sum(axis=1) == 1000)
    assert np.allclose(result.ehs, np.arange(169) / STRENGTH_SCALE)
    assert result.weights.sum() == flop.size


def test_bad_arguments() -> None:
    with pytest.raises(SpecError, match="flop"):
        street_distributions(3)
    with pytest.raises(SpecError, match="n_bins"):
        street_distributions(1, 1)
