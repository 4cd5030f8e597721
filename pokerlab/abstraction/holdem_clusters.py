"""Clustering Hold'em hands into buckets: earth mover's distance on equity distributions.

Potential-aware buckets group hands whose *distributions* of future hand strength are
close, not just their means (Johanson et al. 2013; Ganzfried and Sandholm 2014 use the
earth mover's distance, EMD). Our distributions are 1-D histograms with equal mass over
equal bins, and there EMD is exact and cheap: the L1 distance between the cumulative
histograms (CDFs), times the bin width over the mass. So:

- :func:`emd_kmedians` runs Lloyd's algorithm with that distance exactly: each hand goes to
  the center at the least EMD, and each center moves to the point minimising its cluster's
  summed EMD, which for L1 on CDFs is the coordinate-wise weighted median of the members'
  CDFs (a valid CDF again: medians of non-decreasing vectors are non-decreasing; it is the
  Wasserstein-1 barycenter). We chose this over k-means on CDF vectors (L2, means) because
  it optimises the EMD objective itself, needs no equivalence argument, and costs the
  same: the CDFs are small integers (runouts counted), so a median is a counting pass.
  Seeding is k-means++ with EMD (D-weighting, k-medians' analogue of D²), from a
  ``numpy`` Generator seeded by ``seed``: same seed, same buckets.
- :func:`one_dimensional_buckets`: the river has no future, so its buckets split the river
  hand strength itself into intervals, optimally (dynamic programming over the 1,981
  strength values, least summed absolute deviation, i.e. the 1-D EMD objective again).

Large streets (14 million turn hands) train on a sample drawn in proportion to the hands'
weights, then assign every hand once; assignment runs on both cores.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pokerlab._numba import numba
from pokerlab._types import StepCallback
from pokerlab.errors import SpecError


@dataclass(frozen=True)
class Clustering:
    """The result of :func:`emd_kmedians`.

    Attributes:
        labels: ``[n]`` int32 cluster of every point, ``0 .. k - 1``, ordered by the
            clusters' weighted mean of ``order_by`` (bucket 0 the weakest).
        centers: ``[k, d]`` the centers' CDFs (integer counts, in the new order).
        emd: weighted mean EMD of the points to their centers, in hand-strength units
            (the histograms' bins split [0, 1] equally).
        iterations: Lloyd iterations run on the training points.
    """

    labels: NDArray[np.int32]
    centers: NDArray[np.int64]
    emd: float
    iterations: int


def emd_kmedians(
    histograms: NDArray[np.integer],
    k: int,
    *,
    weights: NDArray[np.integer] | NDArray[np.floating] | None = None,
    order_by: NDArray[np.floating] | None = None,
    seed: int = 0,
    sample: int = 200_000,
    max_iterations: int = 40,
    progress: StepCallback | None = None,
) -> Clustering:
    """Cluster equal-mass 1-D histograms into ``k`` clusters under the earth mover's distance.

    Args:
        histograms: ``[n, bins]`` non-negative integer counts, every row of the same mass.
        k: clusters wanted, 1..n (the hands with positive weight).
        weights: ``[n]`` how much each row counts (deals it stands for); rows of weight 0
            neither train nor are assigned (label 0). Default: all 1.
        order_by: ``[n]`` the clusters are numbered by their weighted mean of this
            (expected hand strength: bucket 0 the weakest). Default: the histogram mean.
        seed: seed of the sample and of the k-means++ seeding.
        sample: train on at most this many rows, drawn in proportion to their weights
            (with replacement); all rows when there are fewer with positive weight.
        max_iterations: most Lloyd iterations (it stops earlier when no label changes).
        progress: called with (iteration, max_iterations) after each iteration.

    Raises:
        SpecError: for ``k`` outside 1..n, rows of different masses, or bad weights.
    """
    histograms = np.asarray(histograms)
    n, n_bins = histograms.shape
    if weights is None:
        weights = np.ones(n, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (n,) or np.any(w < 0) or not np.any(w > 0):
        raise SpecError("weights must be [n] non-negative numbers, some positive")
    positive = np.flatnonzero(w > 0)
    if not 1 <= k <= len(positive):
        raise SpecError(f"buckets must be 1..{len(positive)} (hands to cluster); got {k}")
    masses = histograms[positive].sum(axis=1, dtype=np.int64)
    if np.any(masses != masses[0]):
        raise SpecError("every histogram must have the same mass (runouts counted)")
    mass = int(masses[0])
    rng = np.random.default_rng(seed)
    if len(positive) > sample:
        train_rows = np.sort(rng.choice(n, size=sample, p=w / w.sum()))
        train_weights = np.ones(sample, dtype=np.float64)
    else:
        train_rows = positive
        train_weights = w[positive]
    train = np.cumsum(histograms[train_rows, :-1], axis=1, dtype=np.int64)
    centers = _seed_centers(train, train_weights, k, rng)
    labels = np.full(len(train), -1, dtype=np.int32)
    iterations = 0
    for iterations in range(1, max_iterations + 1):
        new_labels, distances = _assign(train, centers)
        centers = _medians(train, train_weights, new_labels, k, mass)
        _fill_empty(train, train_weights, new_labels, distances, centers)
        if progress is not None:
            progress(iterations, max_iterations)
        if np.array_equal(new_labels, labels):
            break
        labels = new_labels
    all_labels, distances = _assign_rows(histograms, positive, centers)
    for _ in range(k):  # a center no full-set point chose: move it to the worst-served point
        used = np.bincount(all_labels[positive], minlength=k)
        if np.all(used > 0):
            break
        empty = int(np.argmin(used))
        worst = positive[int(np.argmax(distances[positive] * w[positive]))]
        centers[empty] = np.cumsum(histograms[worst, :-1], dtype=np.int64)
        all_labels, distances = _assign_rows(histograms, positive, centers)
    if order_by is None:
        order_by = (histograms * np.arange(n_bins)).sum(axis=1) / max(mass, 1)
    key = np.bincount(all_labels, w * order_by, minlength=k) / np.maximum(
        np.bincount(all_labels, w, minlength=k), 1e-300
    )
    rank = np.empty(k, dtype=np.int32)
    rank[np.argsort(key, kind="stable")] = np.arange(k, dtype=np.int32)
    emd = float(np.dot(w, distances) / w.sum()) / max(mass, 1) / n_bins
    return Clustering(rank[all_labels], centers[np.argsort(key, kind="stable")], emd, iterations)


def one_dimensional_buckets(value_weights: NDArray[np.floating], k: int) -> NDArray[np.int32]:
    """Optimal split of weighted values ``0 .. m-1`` into ``k`` intervals (least L1 cost).

    Args:
        value_weights: ``[m]`` how much each value occurs.
        k: intervals wanted, 1..(values of positive weight).

    Returns:
        ``[m]`` int32 the bucket of each value, non-decreasing, every bucket ``0 .. k - 1``
        holding at least one value of positive weight.

    Raises:
        SpecError: for ``k`` out of range.
    """
    weights = np.asarray(value_weights, dtype=np.float64)
    present = np.flatnonzero(weights > 0)
    if not 1 <= k <= len(present):
        raise SpecError(f"buckets must be 1..{len(present)} (distinct strengths); got {k}")
    starts = _interval_dp(present.astype(np.float64), weights[present], k)
    buckets = np.zeros(len(weights), dtype=np.int32)
    for bucket, start in enumerate(starts[1:], start=1):
        buckets[present[start] :] = bucket
    return buckets


def _assign_rows(
    histograms: NDArray[np.integer], positive: NDArray[np.int64], centers: NDArray[np.int64]
) -> tuple[NDArray[np.int32], NDArray[np.float64]]:
    """Assign the rows of positive weight; the others (never dealt) get label 0, distance 0."""
    if len(positive) == len(histograms):
        return _assign_histograms(histograms, centers)
    labels = np.zeros(len(histograms), dtype=np.int32)
    distances = np.zeros(len(histograms), dtype=np.float64)
    labels[positive], distances[positive] = _assign_histograms(histograms[positive], centers)
    return labels, distances


def _seed_centers(
    train: NDArray[np.int64], weights: NDArray[np.float64], k: int, rng: np.random.Generator
) -> NDArray[np.int64]:
    """k-means++ seeding with EMD: each new center drawn in proportion to weight x distance."""
    first = int(rng.choice(len(train), p=weights / weights.sum()))
    centers = [train[first]]
    nearest = _distances_to(train, train[first])
    for _ in range(1, k):
        score = nearest * weights
        total = score.sum()
        if total <= 0:  # fewer distinct points than clusters: take any unused point
            chosen = int(rng.integers(len(train)))
        else:
            chosen = int(rng.choice(len(train), p=score / total))
        centers.append(train[chosen])
        nearest = np.minimum(nearest, _distances_to(train, train[chosen]))
    return np.array(centers, dtype=np.int64)


def _fill_empty(
    train: NDArray[np.int64],
    weights: NDArray[np.float64],
    labels: NDArray[np.int32],
    distances: NDArray[np.float64],
    centers: NDArray[np.int64],
) -> None:
    """Move each center left without members to the training point served worst."""
    counts = np.bincount(labels, minlength=len(centers))
    score = distances * weights
    for empty in np.flatnonzero(counts == 0):
        worst = int(np.argmax(score))
        centers[empty] = train[worst]
        score[worst] = -1.0


# -- compiled loops ---------------------------------------------------------------------------


@numba.njit(cache=True, nogil=True, parallel=True)
def _distances_to(points: NDArray[np.int64], center: NDArray[np.int64]) -> NDArray[np.float64]:
    """L1 distance of every CDF row to one center."""
    out = np.empty(points.shape[0], dtype=np.float64)
    for i in numba.prange(points.shape[0]):
        total = 0
        for j in range(points.shape[1]):
            total += abs(points[i, j] - center[j])
        out[i] = total
    return out


@numba.njit(cache=True, nogil=True, parallel=True)
def _assign(
    points: NDArray[np.int64], centers: NDArray[np.int64]
) -> tuple[NDArray[np.int32], NDArray[np.float64]]:
    """Nearest center (L1 on CDFs; ties to the lower index) and its distance, per row."""
    labels = np.empty(points.shape[0], dtype=np.int32)
    distances = np.empty(points.shape[0], dtype=np.float64)
    for i in numba.prange(points.shape[0]):
        best = -1
        best_label = 0
        for c in range(centers.shape[0]):
            total = 0
            for j in range(points.shape[1]):
                total += abs(points[i, j] - centers[c, j])
                if best >= 0 and total >= best:
                    break
            if best < 0 or total < best:
                best = total
                best_label = c
        labels[i] = best_label
        distances[i] = best
    return labels, distances


@numba.njit(cache=True, nogil=True, parallel=True)
def _assign_histograms(
    histograms: NDArray[np.integer], centers: NDArray[np.int64]
) -> tuple[NDArray[np.int32], NDArray[np.float64]]:
    """:func:`_assign` of histogram rows, their CDFs built on the fly (no [n, d] copy)."""
    n_rows = histograms.shape[0]
    d = centers.shape[1]
    labels = np.empty(n_rows, dtype=np.int32)
    distances = np.empty(n_rows, dtype=np.float64)
    for i in numba.prange(n_rows):
        cdf = np.empty(d, dtype=np.int64)
        running = 0
        for j in range(d):
            running += histograms[i, j]
            cdf[j] = running
        best = -1
        best_label = 0
        for c in range(centers.shape[0]):
            total = 0
            for j in range(d):
                total += abs(cdf[j] - centers[c, j])
                if best >= 0 and total >= best:
                    break
            if best < 0 or total < best:
                best = total
                best_label = c
        labels[i] = best_label
        distances[i] = best
    return labels, distances


@numba.njit(cache=True, nogil=True)
def _medians(
    points: NDArray[np.int64],
    weights: NDArray[np.float64],
    labels: NDArray[np.int32],
    k: int,
    mass: int,
) -> NDArray[np.int64]:
    """Coordinate-wise weighted median of each cluster's CDFs (values 0..mass)."""
    d = points.shape[1]
    counts = np.zeros((k, d, mass + 1), dtype=np.float64)
    totals = np.zeros(k, dtype=np.float64)
    for i in range(points.shape[0]):
        c = labels[i]
        totals[c] += weights[i]
        for j in range(d):
            counts[c, j, points[i, j]] += weights[i]
    centers = np.zeros((k, d), dtype=np.int64)
    for c in range(k):
        half = totals[c] / 2.0
        for j in range(d):
            running = 0.0
            for v in range(mass + 1):
                running += counts[c, j, v]
                if running >= half:
                    centers[c, j] = v
                    break
    return centers


@numba.njit(cache=True, nogil=True)
def _interval_dp(values: NDArray[np.float64], weights: NDArray[np.float64], k: int) -> list[int]:
    """First positions of the ``k`` intervals minimising the weighted L1 cost to medians."""
    m = values.shape[0]
    prefix_w = np.zeros(m + 1)
    prefix_wx = np.zeros(m + 1)
    for i in range(m):
        prefix_w[i + 1] = prefix_w[i] + weights[i]
        prefix_wx[i + 1] = prefix_wx[i] + weights[i] * values[i]
    # cost[i, j]: values i..j-1 around their weighted median
    cost = np.zeros((m + 1, m + 1))
    for i in range(m):
        median = i
        for j in range(i + 1, m + 1):
            half = (prefix_w[j] - prefix_w[i]) / 2.0
            while prefix_w[median + 1] - prefix_w[i] < half:
                median += 1
            x = values[median]
            left = x * (prefix_w[median] - prefix_w[i]) - (prefix_wx[median] - prefix_wx[i])
            right = (prefix_wx[j] - prefix_wx[median]) - x * (prefix_w[j] - prefix_w[median])
            cost[i, j] = left + right
    best = np.full((k + 1, m + 1), np.inf)
    back = np.zeros((k + 1, m + 1), dtype=np.int64)
    best[0, 0] = 0.0
    for c in range(1, k + 1):
        for j in range(c, m + 1):
            for i in range(c - 1, j):
                candidate = best[c - 1, i] + cost[i, j]
                if candidate < best[c, j]:
                    best[c, j] = candidate
                    back[c, j] = i
    starts = [0] * k
    j = m
    for c in range(k, 0, -1):
        i = back[c, j]
        starts[c - 1] = i
        j = i
    return starts
