"""EMD k-medians and the optimal 1-D split: determinism, optimality, and EMD itself."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.stats import wasserstein_distance

from pokerlab.abstraction.holdem_clusters import (
    _medians,
    emd_kmedians,
    one_dimensional_buckets,
)
from pokerlab.errors import SpecError


def blobs(seed: int, n: int = 1500, bins: int = 12, k: int = 4) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    shapes = rng.dirichlet(np.full(bins, 0.5), size=k)
    truth = rng.integers(k, size=n)
    histograms = np.array([rng.multinomial(46, shapes[t]) for t in truth])
    return histograms, truth


def test_same_seed_same_buckets_and_every_bucket_used() -> None:
    histograms, _ = blobs(0)
    weights = np.random.default_rng(1).integers(1, 25, size=len(histograms))
    first = emd_kmedians(histograms, 7, weights=weights, seed=5, sample=600)
    again = emd_kmedians(histograms, 7, weights=weights, seed=5, sample=600)
    assert np.array_equal(first.labels, again.labels)
    assert np.array_equal(first.centers, again.centers)
    assert sorted(set(first.labels.tolist())) == list(range(7))
    other = emd_kmedians(histograms, 7, weights=weights, seed=6, sample=600)
    assert sorted(set(other.labels.tolist())) == list(range(7))


def test_recovers_well_separated_groups() -> None:
    histograms, truth = blobs(2)
    result = emd_kmedians(histograms, 4, seed=0)
    # each found cluster is (almost) one true group
    purity = sum(
        np.bincount(truth[result.labels == c]).max() for c in range(4) if np.any(result.labels == c)
    )
    assert purity / len(truth) > 0.95


def test_buckets_are_ordered_by_strength() -> None:
    histograms, _ = blobs(3)
    strength = (histograms * np.arange(histograms.shape[1])).sum(axis=1)
    result = emd_kmedians(histograms, 5, order_by=strength.astype(float), seed=0)
    means = [strength[result.labels == c].mean() for c in range(5)]
    assert means == sorted(means)


def test_emd_is_l1_of_cdfs() -> None:
    """The distance the clustering uses is scipy's Wasserstein-1 between the histograms."""
    rng = np.random.default_rng(4)
    bins = 20
    centers = np.arange(bins) / bins
    for _ in range(20):
        a, b = rng.multinomial(100, np.full(bins, 1 / bins), size=2)
        l1 = np.abs(np.cumsum(a)[:-1] - np.cumsum(b)[:-1]).sum() / 100 / bins
        assert l1 == pytest.approx(wasserstein_distance(centers, centers, a, b))


def test_reported_emd_is_the_mean_distance_to_centers() -> None:
    histograms, _ = blobs(5, n=400)
    result = emd_kmedians(histograms, 3, seed=0)
    bins = histograms.shape[1]
    centers_pdf = np.diff(result.centers, axis=1, prepend=0, append=46)
    grid = np.arange(bins) / bins
    expected = np.mean(
        [
            wasserstein_distance(grid, grid, h, centers_pdf[label])
            for h, label in zip(histograms, result.labels, strict=True)
        ]
    )
    assert result.emd == pytest.approx(expected)


def test_medians_are_weighted_medians() -> None:
    rng = np.random.default_rng(6)
    points = np.sort(rng.integers(0, 11, size=(60, 5)), axis=1).astype(np.int64)
    weights = rng.random(60)
    labels = rng.integers(0, 3, size=60).astype(np.int32)
    centers = _medians(points, weights, labels, 3, 10)
    for c in range(3):
        members = labels == c
        for j in range(5):
            # the median minimises the weighted L1 cost over every candidate value
            costs = [np.sum(weights[members] * np.abs(points[members, j] - v)) for v in range(11)]
            assert costs[centers[c, j]] == pytest.approx(min(costs))


def split_cost(assignment: np.ndarray, weights: np.ndarray, k: int) -> float:
    """Summed weighted distance of the values to their bucket's best center."""
    values = np.arange(len(weights))
    total = 0.0
    for b in range(k):
        members = (assignment == b) & (weights > 0)
        if members.any():
            total += min(np.sum(weights[members] * np.abs(values[members] - v)) for v in values)
    return total


def test_one_dimensional_split_is_optimal() -> None:
    rng = np.random.default_rng(7)
    k = 3
    values = np.arange(9)
    for _ in range(5):
        weights = rng.integers(0, 4, size=9).astype(float)
        weights[0] = 1
        buckets = one_dimensional_buckets(weights, k)
        present = np.flatnonzero(weights > 0)
        best = min(
            split_cost(np.searchsorted(np.array(cut), values, side="right"), weights, k)
            for cut in itertools.combinations(range(1, 9), k - 1)
            if len({int(np.searchsorted(np.array(cut), v, side="right")) for v in present}) == k
        )
        assert split_cost(buckets, weights, k) == pytest.approx(best)
        assert set(buckets[present].tolist()) == set(range(k))
        assert np.all(np.diff(buckets) >= 0)


def test_bad_arguments() -> None:
    histograms, _ = blobs(0, n=20)
    with pytest.raises(SpecError, match=r"buckets must be 1\.\.20"):
        emd_kmedians(histograms, 21)
    with pytest.raises(SpecError, match="same mass"):
        emd_kmedians(np.array([[1, 2], [3, 4]]), 1)
    with pytest.raises(SpecError, match="distinct strengths"):
        one_dimensional_buckets(np.array([1.0, 0.0, 1.0]), 3)
