from __future__ import annotations

import itertools

import numpy as np
import pytest

from pokerlab.abstraction import (
    BucketEvaluator,
    behaviour_buckets,
    lifting_map,
    optimal_segmentation,
    optimize_buckets,
    solve_abstraction,
    uniform_buckets,
)
from pokerlab.errors import SolverError
from pokerlab.games import kuhn, leduc, load
from pokerlab.tree import compile

KUHN100 = "kuhn(cards=100)"


def test_identity_buckets_lift_to_the_unabstracted_solution() -> None:
    result = solve_abstraction(KUHN100, "uniform:100", algorithm="lp")
    assert result.n_infosets_abstract == result.n_infosets_full == 400
    assert result.lifted_exploitability < 1e-9
    assert result.abstract_value == pytest.approx(result.lifted_value, abs=1e-12)
    assert result.lifted.game == load(KUHN100)


def test_identity_buckets_with_cfr_plus_to_a_precision() -> None:
    result = solve_abstraction(
        kuhn(cards=10), "identity", algorithm="cfr+", target_exploitability=1e-7, check_every=100
    )
    assert result.abstract_exploitability <= 1e-7
    assert result.lifted_exploitability < 1e-6


def test_uniform_buckets_lose_less_as_they_get_finer() -> None:
    evaluator = BucketEvaluator(KUHN100)
    values = [evaluator(uniform_buckets(100, b)) for b in (3, 10, 25, 50)]
    assert all(a > b for a, b in itertools.pairwise(values)), values
    assert values[0] > 0.01
    assert values[-1] < 1e-3


def test_optimized_ten_buckets_beat_uniform_ten_buckets() -> None:
    found = optimize_buckets(KUHN100, 10, max_evaluations=30)
    assert found.bucketing.n_buckets == 10
    assert found.exploitability < found.candidates["uniform"]
    assert found.evaluations <= 30
    check = solve_abstraction(KUHN100, found.bucketing, algorithm="lp")
    assert check.lifted_exploitability == pytest.approx(found.exploitability, abs=1e-12)


def test_behaviour_buckets_are_contiguous_and_complete() -> None:
    bucketing = behaviour_buckets(kuhn(cards=30), 5)
    assert bucketing.n_buckets == 5
    assert bucketing.n_items == 30
    assert bucketing.method == "behaviour"


def test_optimal_segmentation_matches_brute_force() -> None:
    rng = np.random.default_rng(3)
    x = rng.random((8, 3))
    w = rng.random((8, 3))

    def cost(starts: tuple[int, ...]) -> float:
        total = 0.0
        for lo, hi in zip(starts, (*starts[1:], 8), strict=True):
            mean = (w[lo:hi] * x[lo:hi]).sum(0) / w[lo:hi].sum(0)
            total += float((w[lo:hi] * (x[lo:hi] - mean) ** 2).sum())
        return total

    for k in (1, 2, 3, 5, 8):
        best = min(((0, *c) for c in itertools.combinations(range(1, 8), k - 1)), key=cost)
        found = optimal_segmentation(x, w, k)
        assert cost(found) == pytest.approx(cost(best))


def test_leduc_rank_buckets() -> None:
    coarse = solve_abstraction("leduc(ranks=5)", "uniform:2", algorithm="lp")
    finer = solve_abstraction("leduc(ranks=5)", "uniform:3", algorithm="lp")
    exact = solve_abstraction("leduc(ranks=5)", "identity", algorithm="lp")
    assert coarse.n_infosets_abstract < finer.n_infosets_abstract < exact.n_infosets_abstract
    assert coarse.lifted_exploitability > finer.lifted_exploitability > 1e-3
    assert exact.lifted_exploitability < 1e-9


def test_standard_leduc_collapses_suits_and_keeps_its_value() -> None:
    result = solve_abstraction(leduc(), "identity", algorithm="lp")
    assert result.n_histories_solved < compile(leduc()).n_histories
    assert result.abstract_value == pytest.approx(-0.0856064, abs=1e-6)  # OpenSpiel's value
    assert result.lifted_exploitability < 1e-9


def test_betting_abstraction_is_played_by_raise_translation() -> None:
    full = leduc(stack=50, raise_cap=None)
    results = {k: solve_abstraction(full, raise_cap=k, algorithm="lp") for k in (2, 4)}
    for k, result in results.items():
        mapping = lifting_map(result.abstract, result.abstract_strategy.game)
        tree = mapping.full_tree
        probs = result.lifted.probs
        for key in ("A|rrrr", "K|Q|rrc|rrrrr", "Q|rr"):
            i = tree.infoset_id(key)
            raises = len(key.split("|")[-1])
            raise_slot = list(tree.infoset_actions[i]).index(2) if 2 in tree.infoset_actions[
                i] else None
            if raise_slot is not None and raises >= k:
                assert probs[i, raise_slot] == 0.0, (k, key)
        np.testing.assert_allclose(probs.sum(axis=1), 1.0)
    assert results[4].lifted_exploitability < results[2].lifted_exploitability
    assert results[4].n_infosets_abstract < results[4].n_infosets_full


def test_unknown_algorithm() -> None:
    with pytest.raises(SolverError, match="known: "):
        solve_abstraction(kuhn(cards=10), "uniform:5", algorithm="magic")
