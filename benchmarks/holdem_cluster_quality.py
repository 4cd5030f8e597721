"""Study: is EMD k-medians as good as the alternatives on the flop? (docs/holdem_abstraction.md).

``python -m benchmarks.holdem_cluster_quality`` (about 1.5 minutes on 2 cores) computes the
flop features of every canonical hand, then clusters them into 50 buckets three ways and
prints each clustering's mean EMD from a hand to its bucket's barycenter (the
coordinate-wise weighted median of the members' CDFs), weighted by deals: EMD k-medians
(ours), k-means on CDF vectors under L2 (k-means++ seeding, the same sample size), and
equal-weight percentiles of expected hand strength. It also prints the preflop EHS of a few
hands against ``pokerlab.cards.equity`` versus a random hand.
"""

from __future__ import annotations

import time

import numpy as np

from pokerlab.abstraction.holdem_clusters import _medians, emd_kmedians
from pokerlab.abstraction.holdem_features import preflop_distributions, street_distributions
from pokerlab.abstraction.holdem_iso import street_indexer
from pokerlab.cards import equity, parse_cards

K = 50
SAMPLE = 200_000


def main() -> None:
    start = time.perf_counter()
    flop = street_distributions(1, 50)
    print(f"flop features {time.perf_counter() - start:.1f} s", flush=True)
    pre = preflop_distributions(flop)
    for hand in ["AsAh", "KsKh", "AsKs", "AsKh", "JsTs", "7s2h", "3s2h"]:
        i = street_indexer(0).index([parse_cards(hand)])[0]
        sampled = equity([hand, "random"], samples=2_000_000, seed=1)
        print(
            f"{hand} EHS {pre.ehs[i]:.4f} EHS2 {pre.ehs2[i]:.4f} equity() vs random "
            f"{sampled.equity[0]:.4f} +- {sampled.ci95[0]:.4f}",
            flush=True,
        )
    weights = flop.weights.astype(np.float64)
    cdf = np.cumsum(flop.histograms[:, :-1], axis=1, dtype=np.int64)
    scale = flop.n_runouts * flop.histograms.shape[1]

    def mean_emd(labels: np.ndarray) -> float:
        centers = _medians(cdf, weights, labels.astype(np.int32), K, flop.n_runouts)
        distances = np.abs(cdf - centers[labels]).sum(axis=1)
        return float(np.dot(weights, distances) / weights.sum() / scale)

    for iterations in (40, 100):
        start = time.perf_counter()
        ours = emd_kmedians(
            flop.histograms, K, weights=flop.weights, order_by=flop.ehs, seed=0,
            max_iterations=iterations,
        )  # fmt: skip
        print(
            f"EMD k-medians, at most {iterations} iterations ({ours.iterations} run): mean EMD "
            f"{mean_emd(ours.labels):.5f}, {time.perf_counter() - start:.1f} s",
            flush=True,
        )
    start = time.perf_counter()
    labels, iterations = _l2_kmeans(cdf / flop.n_runouts, weights, seed=0)
    print(
        f"k-means on CDFs (L2), {iterations} iterations: mean EMD {mean_emd(labels):.5f}, "
        f"{time.perf_counter() - start:.1f} s",
        flush=True,
    )
    order = np.argsort(flop.ehs, kind="stable")
    cumulative = np.cumsum(weights[order]) / weights.sum()
    percentile = np.empty(len(cdf), dtype=np.int64)
    percentile[order] = np.minimum((cumulative * K).astype(np.int64), K - 1)
    print(f"EHS percentiles: mean EMD {mean_emd(percentile):.5f}", flush=True)


def _l2_kmeans(
    points: np.ndarray, weights: np.ndarray, seed: int, max_iterations: int = 100
) -> tuple[np.ndarray, int]:
    """Plain Lloyd k-means (L2) with k-means++ seeding, trained on a weighted sample."""
    rng = np.random.default_rng(seed)
    x = points[np.sort(rng.choice(len(points), size=SAMPLE, p=weights / weights.sum()))]
    chosen = [x[rng.integers(len(x))]]
    nearest = ((x - chosen[0]) ** 2).sum(axis=1)
    for _ in range(1, K):
        chosen.append(x[rng.choice(len(x), p=nearest / nearest.sum())])
        nearest = np.minimum(nearest, ((x - chosen[-1]) ** 2).sum(axis=1))
    centers = np.array(chosen)
    iterations = 0
    while iterations < max_iterations:
        iterations += 1
        labels = _nearest(x, centers)
        updated = np.array(
            [x[labels == c].mean(axis=0) if np.any(labels == c) else centers[c] for c in range(K)]
        )
        if np.allclose(updated, centers):
            break
        centers = updated
    labels = np.concatenate(
        [_nearest(points[s : s + SAMPLE], centers) for s in range(0, len(points), SAMPLE)]
    )
    return labels, iterations


def _nearest(x: np.ndarray, centers: np.ndarray) -> np.ndarray:
    squared = (x**2).sum(axis=1)[:, None] - 2 * x @ centers.T + (centers**2).sum(axis=1)[None, :]
    return squared.argmin(axis=1)  # type: ignore[no-any-return]


if __name__ == "__main__":
    main()
