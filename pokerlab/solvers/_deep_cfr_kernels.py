"""Compiled external-sampling traversals of Deep CFR (numba, cached on disk).

Imported on first use only. During one Deep CFR iteration the networks do not change, so
the strategy they give at every infoset is computed once, in one batch
(``sigma[I, A]``), and the traversals look it up: the same samples as asking the network
at each visit, without a network call per history.

The tree is passed as in :mod:`pokerlab.solvers._mccfr_kernels`: ``nodes[H, 4]`` (first
child, number of children, player, infoset), ``probs[H]`` (chance edge probabilities)
and ``payoffs[H, n_players]``. Randomness is a SplitMix64 stream
(:mod:`pokerlab.cards.splitmix`), seeded by the caller from its numpy Generator.

What a traversal for ``player`` writes (Brown et al. 2019, algorithm 1):

- at each of ``player``'s histories it walks (every action is walked there): the infoset
  and the sampled instantaneous regrets ``v(a) - sum_b sigma(b) v(b)`` (the advantage
  memory's rows);
- at each other player's history it passes (one action is sampled there): the infoset
  and ``sigma`` there (the strategy memory's rows).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from pokerlab._numba import numba
from pokerlab.cards.splitmix import uniform
from pokerlab.solvers._mccfr_kernels import _sample

_CHANCE = -1
_TERMINAL = -2


@numba.njit(cache=True, nogil=True)
def _walk(
    player: int,
    nodes: NDArray[np.int32],
    probs: NDArray[np.float64],
    payoffs: NDArray[np.float64],
    sigma: NDArray[np.float64],
    frames: NDArray[np.int64],
    values: NDArray[np.float64],
    advantage_ids: NDArray[np.int32],
    advantage_rows: NDArray[np.float32],
    strategy_ids: NDArray[np.int32],
    strategy_rows: NDArray[np.float32],
    counts: NDArray[np.int64],
    rng: NDArray[np.uint64],
) -> float:
    """One traversal for ``player``; rows are appended at ``counts[0]`` and ``counts[1]``.

    ``frames[d]`` holds (first child, number of children, infoset, next child) of the
    d-th of ``player``'s histories on the current path, ``values[d]`` its children's
    values so far. Returns the sampled value of the root for ``player``.
    """
    top = -1
    node = 0
    while True:
        # Descend to a terminal history, sampling chance and the other players.
        ret = 0.0
        while True:
            who = nodes[node, 2]
            if who == _TERMINAL:
                ret = payoffs[node, player]
                break
            first = nodes[node, 0]
            n = nodes[node, 1]
            if who == _CHANCE:
                node = first + _sample(probs, first, n, uniform(rng))
                continue
            infoset = nodes[node, 3]
            if who != player:
                row = counts[1]
                strategy_ids[row] = infoset
                for a in range(n):
                    strategy_rows[row, a] = sigma[infoset, a]
                counts[1] = row + 1
                node = first + _sample(sigma[infoset], 0, n, uniform(rng))
                continue
            top += 1
            frames[top, 0] = first
            frames[top, 1] = n
            frames[top, 2] = infoset
            frames[top, 3] = 0
            node = first
        # Climb: hand the value to the parent frame; walk its next child or close it.
        while top >= 0:
            k = frames[top, 3]
            values[top, k] = ret
            k += 1
            frames[top, 3] = k
            n = frames[top, 1]
            if k < n:
                node = frames[top, 0] + k
                break
            infoset = frames[top, 2]
            expected = 0.0
            for a in range(n):
                expected += sigma[infoset, a] * values[top, a]
            row = counts[0]
            advantage_ids[row] = infoset
            for a in range(n):
                advantage_rows[row, a] = values[top, a] - expected
            counts[0] = row + 1
            ret = expected
            top -= 1
        if top < 0:
            return ret


@numba.njit(cache=True, nogil=True)
def traverse(
    player: int,
    count: int,
    nodes: NDArray[np.int32],
    probs: NDArray[np.float64],
    payoffs: NDArray[np.float64],
    sigma: NDArray[np.float64],
    frames: NDArray[np.int64],
    values: NDArray[np.float64],
    advantage_ids: NDArray[np.int32],
    advantage_rows: NDArray[np.float32],
    strategy_ids: NDArray[np.int32],
    strategy_rows: NDArray[np.float32],
    advantage_bound: int,
    strategy_bound: int,
    seed: int,
) -> NDArray[np.int64]:
    """Run up to ``count`` traversals for ``player`` while the row buffers have room.

    ``advantage_bound`` and ``strategy_bound`` are the most rows one traversal can write;
    a traversal starts only if that much room is left. Returns ``[advantage rows,
    strategy rows, traversals done]``.
    """
    counts = np.zeros(3, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    advantage_room = advantage_ids.shape[0]
    strategy_room = strategy_ids.shape[0]
    for _ in range(count):
        if (
            counts[0] + advantage_bound > advantage_room
            or counts[1] + strategy_bound > strategy_room
        ):
            break
        _walk(player, nodes, probs, payoffs, sigma, frames, values, advantage_ids,
              advantage_rows, strategy_ids, strategy_rows, counts, rng)
        counts[2] += 1
    return counts
