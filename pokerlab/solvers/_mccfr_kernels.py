"""Compiled traversals of Monte Carlo CFR (numba, cached on disk).

Imported on first use only, so ``import pokerlab.solvers`` does not pay for numba. Every
kernel runs a batch of iterations in one call (the call overhead is paid once per batch)
over the compiled tree, passed as two arrays:

- ``nodes[H, 4]`` (int32): first child, number of children, player (``CHANCE`` = -1,
  ``TERMINAL`` = -2) and infoset (-1 at non-decision nodes) of every history;
- ``probs[H]``: the probability of the edge into a history from a chance parent, else 1;
- ``payoffs[H, n_players]``: chips won at terminal histories (0 elsewhere).

Learned arrays: ``regrets[I, A]`` (cumulative counterfactual regrets) and
``strategy_sum[I, A]`` (the average strategy's unnormalised rows), updated in place.

Randomness: a SplitMix64 stream (:mod:`pokerlab.cards.splitmix`), one 64-bit word of
state in ``rng[0]``, reseeded at the start of every iteration with ``seeds[t]``. The caller
draws ``seeds`` from its numpy Generator, one per iteration, so the results depend only on
the Generator's state and on the number of iterations run, never on how they are split into
batches: a run of 1,000 iterations equals ten runs of 100, and a checkpoint holding the
Generator's state resumes exactly.

Abbreviations: ``cfv`` counterfactual value, ``sigma`` the current strategy (regret
matching), ``q`` the sampling distribution.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from pokerlab._numba import numba
from pokerlab.cards.splitmix import uniform

_CHANCE = -1
_TERMINAL = -2

@numba.njit(cache=True, nogil=True, inline="always")
def _sample(dist: NDArray[np.float64], offset: int, n: int, u: float) -> int:
    """The index k < n with ``dist[offset:offset + n]`` cumulating past ``u``.

    Rounding can leave ``u`` above the last partial sum; the last index of positive
    probability is returned then, so an impossible index is never drawn.
    """
    total = 0.0
    last = 0
    for k in range(n):
        p = dist[offset + k]
        if p > 0.0:
            last = k
            total += p
            if u < total:
                return k
    return last


@numba.njit(cache=True, nogil=True, inline="always")
def _regret_matching(
    regrets: NDArray[np.float64], infoset: int, n: int, out: NDArray[np.float64]
) -> None:
    """Write the current strategy of ``infoset`` (positive regrets, normalised) to ``out``."""
    total = 0.0
    for a in range(n):
        r = regrets[infoset, a]
        if r > 0.0:
            total += r
    if total > 0.0:
        for a in range(n):
            r = regrets[infoset, a]
            out[a] = r / total if r > 0.0 else 0.0
    else:
        for a in range(n):
            out[a] = 1.0 / n


# -- external sampling --------------------------------------------------------------------
# The walks are loops over an explicit stack of frames, one frame per history whose
# children are all walked (numba cannot cache recursive functions). A frame records the
# history's first child, its number of children, its infoset, the next action to walk,
# the value so far, and, in ``sigma[frame]`` / ``cfv[frame]``, the current strategy and
# the children's values.
@numba.njit(cache=True, nogil=True)
def _external_walk(
    player: int,
    nodes: NDArray[np.int32],
    probs: NDArray[np.float64],
    payoffs: NDArray[np.float64],
    regrets: NDArray[np.float64],
    strategy_sum: NDArray[np.float64],
    frames: NDArray[np.int64],
    values: NDArray[np.float64],
    sigma: NDArray[np.float64],
    cfv: NDArray[np.float64],
    scratch: NDArray[np.float64],
    rng: NDArray[np.uint64],
) -> float:
    """Walk once for ``player``: update its regrets and the next player's average.

    Returns the sampled value of the root for ``player``.
    """
    n_players = payoffs.shape[1]
    averaging = (player + 1) % n_players
    top = -1
    node = 0
    result = 0.0
    while True:
        # Descend through sampled histories to a terminal or to one of the player's.
        ret = 0.0
        pushed = False
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
                _regret_matching(regrets, infoset, n, scratch)
                k = _sample(scratch, 0, n, uniform(rng))
                # Simple (stochastically weighted) averaging: the player after the
                # updating one adds its current strategy, unweighted, where sampled.
                if who == averaging:
                    for a in range(n):
                        strategy_sum[infoset, a] += scratch[a]
                node = first + k
                continue
            top += 1
            frames[top, 0] = first
            frames[top, 1] = n
            frames[top, 2] = infoset
            frames[top, 3] = 0
            values[top] = 0.0
            _regret_matching(regrets, infoset, n, sigma[top])
            node = first
            pushed = True
            break
        if pushed:
            continue
        # Ascend: hand the value to the frames above until one has an action left.
        while top >= 0:
            a = frames[top, 3]
            cfv[top, a] = ret
            values[top] += sigma[top, a] * ret
            a += 1
            frames[top, 3] = a
            if a < frames[top, 1]:
                node = frames[top, 0] + a
                break
            value = values[top]
            infoset = frames[top, 2]
            for b in range(frames[top, 1]):
                regrets[infoset, b] += cfv[top, b] - value
            ret = value
            top -= 1
        if top < 0:
            result = ret
            break
    return result


@numba.njit(cache=True, nogil=True)
def external_sampling(
    nodes: NDArray[np.int32],
    probs: NDArray[np.float64],
    payoffs: NDArray[np.float64],
    regrets: NDArray[np.float64],
    strategy_sum: NDArray[np.float64],
    seeds: NDArray[np.uint64],
    depth: int,
) -> None:
    """Run ``len(seeds)`` iterations of external sampling (one walk per player each)."""
    n_players = payoffs.shape[1]
    width = regrets.shape[1]
    frames = np.zeros((depth + 1, 4), dtype=np.int64)
    values = np.zeros(depth + 1)
    sigma = np.zeros((depth + 1, width))
    cfv = np.zeros((depth + 1, width))
    scratch = np.zeros(width)
    rng = np.zeros(1, dtype=np.uint64)
    for t in range(seeds.shape[0]):
        rng[0] = seeds[t]
        for player in range(n_players):
            _external_walk(player, nodes, probs, payoffs, regrets, strategy_sum, frames,
                           values, sigma, cfv, scratch, rng)


# -- chance sampling ----------------------------------------------------------------------
@numba.njit(cache=True, nogil=True)
def _chance_walk(
    player: int,
    nodes: NDArray[np.int32],
    probs: NDArray[np.float64],
    payoffs: NDArray[np.float64],
    regrets: NDArray[np.float64],
    strategy_sum: NDArray[np.float64],
    frames: NDArray[np.int64],
    values: NDArray[np.float64],
    reaches: NDArray[np.float64],
    sigma: NDArray[np.float64],
    cfv: NDArray[np.float64],
    rng: NDArray[np.uint64],
) -> float:
    """Walk once for ``player`` under sampled chance, every action of every player.

    ``reaches[frame]`` holds the player's own reach and the others' (chance excluded: it
    is sampled, so its probability cancels with the sampling probability). A child that
    neither reaches is skipped: nothing in it changes, and its value is weighted by 0.
    Returns the root's value for ``player``.
    """
    top = -1
    node = 0
    my_reach = 1.0
    other_reach = 1.0
    ret = 0.0
    while True:
        # Descend through sampled chance to a terminal (deliver its value) or to a
        # decision history (push a frame, then pick its first child below).
        deliver = False
        while True:
            who = nodes[node, 2]
            if who == _TERMINAL:
                ret = payoffs[node, player]
                deliver = True
                break
            first = nodes[node, 0]
            n = nodes[node, 1]
            if who == _CHANCE:
                node = first + _sample(probs, first, n, uniform(rng))
                continue
            infoset = nodes[node, 3]
            top += 1
            frames[top, 0] = first
            frames[top, 1] = n
            frames[top, 2] = infoset
            frames[top, 3] = 0
            frames[top, 4] = who
            values[top] = 0.0
            reaches[top, 0] = my_reach
            reaches[top, 1] = other_reach
            _regret_matching(regrets, infoset, n, sigma[top])
            break
        # Ascend: record the value delivered, move to the next child worth walking, or
        # close the frame and deliver its value to the frame above.
        descend = False
        while top >= 0:
            a = frames[top, 3]
            if deliver:
                cfv[top, a] = ret
                values[top] += sigma[top, a] * ret
                a += 1
            n = frames[top, 1]
            mine = frames[top, 4] == player
            while a < n:
                p = sigma[top, a]
                if mine:
                    my_reach = reaches[top, 0] * p
                    other_reach = reaches[top, 1]
                else:
                    my_reach = reaches[top, 0]
                    other_reach = reaches[top, 1] * p
                if my_reach != 0.0 or other_reach != 0.0:
                    break
                cfv[top, a] = 0.0
                a += 1
            frames[top, 3] = a
            if a < n:
                node = frames[top, 0] + a
                descend = True
                break
            value = values[top]
            if mine:
                infoset = frames[top, 2]
                weight = reaches[top, 1]
                own = reaches[top, 0]
                for b in range(n):
                    regrets[infoset, b] += weight * (cfv[top, b] - value)
                    strategy_sum[infoset, b] += own * sigma[top, b]
            ret = value
            deliver = True
            top -= 1
        if not descend:
            break
    return ret


@numba.njit(cache=True, nogil=True)
def chance_sampling(
    nodes: NDArray[np.int32],
    probs: NDArray[np.float64],
    payoffs: NDArray[np.float64],
    regrets: NDArray[np.float64],
    strategy_sum: NDArray[np.float64],
    seeds: NDArray[np.uint64],
    depth: int,
) -> None:
    """Run ``len(seeds)`` iterations of chance sampling (one walk per player each)."""
    n_players = payoffs.shape[1]
    width = regrets.shape[1]
    frames = np.zeros((depth + 1, 5), dtype=np.int64)
    values = np.zeros(depth + 1)
    reaches = np.zeros((depth + 1, 2))
    sigma = np.zeros((depth + 1, width))
    cfv = np.zeros((depth + 1, width))
    rng = np.zeros(1, dtype=np.uint64)
    for t in range(seeds.shape[0]):
        rng[0] = seeds[t]
        for player in range(n_players):
            _chance_walk(player, nodes, probs, payoffs, regrets, strategy_sum, frames, values,
                         reaches, sigma, cfv, rng)


# -- outcome sampling ---------------------------------------------------------------------
@numba.njit(cache=True, nogil=True)
def _outcome_walk(
    player: int,
    epsilon: float,
    nodes: NDArray[np.int32],
    probs: NDArray[np.float64],
    payoffs: NDArray[np.float64],
    regrets: NDArray[np.float64],
    regret_out: NDArray[np.float64],
    strategy_sum: NDArray[np.float64],
    path: NDArray[np.int64],
    reaches: NDArray[np.float64],
    sigma: NDArray[np.float64],
    q: NDArray[np.float64],
    rng: NDArray[np.uint64],
) -> float:
    """Sample one trajectory for ``player``, then update along it from the leaf up.

    Going down, each decision history of the path records its infoset, number of
    actions, sampled action ``s``, owner, and the reaches (own, others' with chance, the
    sampling's) in ``reaches``. Coming up, the value handed up is the terminal payoff times
    the players' tail reach over the sampling tail reach (``sigma[s] / q[s]`` per step),
    so that times ``others_reach / sample_reach`` it estimates a counterfactual value
    without bias. Returns the root's estimate.
    """
    node = 0
    my_reach = 1.0
    other_reach = 1.0
    sample_reach = 1.0
    length = 0
    while True:
        who = nodes[node, 2]
        if who == _TERMINAL:
            break
        first = nodes[node, 0]
        n = nodes[node, 1]
        if who == _CHANCE:
            k = _sample(probs, first, n, uniform(rng))
            p = probs[first + k]
            other_reach *= p
            sample_reach *= p
            node = first + k
            continue
        infoset = nodes[node, 3]
        here = sigma[length]
        explore = q[length]
        _regret_matching(regrets, infoset, n, here)
        if who == player:
            for a in range(n):
                explore[a] = epsilon / n + (1.0 - epsilon) * here[a]
        else:
            for a in range(n):
                explore[a] = here[a]
        s = _sample(explore, 0, n, uniform(rng))
        path[length, 0] = infoset
        path[length, 1] = n
        path[length, 2] = s
        path[length, 3] = who
        reaches[length, 0] = my_reach
        reaches[length, 1] = other_reach
        reaches[length, 2] = sample_reach
        if who == player:
            my_reach *= here[s]
        else:
            other_reach *= here[s]
        sample_reach *= explore[s]
        length += 1
        node = first + s
    value = payoffs[node, player]
    for d in range(length - 1, -1, -1):
        s = path[d, 2]
        sampled_value = value / q[d, s]  # the unsampled actions' estimates are 0
        value = sigma[d, s] * sampled_value
        if path[d, 3] == player:
            infoset = path[d, 0]
            n = path[d, 1]
            weight = reaches[d, 1] / reaches[d, 2]
            own = reaches[d, 0] / reaches[d, 2]
            for a in range(n):
                action_value = sampled_value if a == s else 0.0
                regret_out[infoset, a] += weight * (action_value - value)
                strategy_sum[infoset, a] += own * sigma[d, a]
    return float(value)


@numba.njit(cache=True, nogil=True)
def outcome_sampling(
    nodes: NDArray[np.int32],
    probs: NDArray[np.float64],
    payoffs: NDArray[np.float64],
    regrets: NDArray[np.float64],
    regret_out: NDArray[np.float64],
    strategy_sum: NDArray[np.float64],
    seeds: NDArray[np.uint64],
    depth: int,
    epsilon: float,
) -> None:
    """Run ``len(seeds)`` iterations of outcome sampling (one trajectory per player each).

    The current strategy is read from ``regrets``; regret increments are added to
    ``regret_out`` (the same array when solving; another one to measure the estimates
    for a fixed strategy).
    """
    n_players = payoffs.shape[1]
    width = regrets.shape[1]
    path = np.zeros((depth + 1, 4), dtype=np.int64)
    reaches = np.zeros((depth + 1, 3))
    sigma = np.zeros((depth + 1, width))
    q = np.zeros((depth + 1, width))
    rng = np.zeros(1, dtype=np.uint64)
    for t in range(seeds.shape[0]):
        rng[0] = seeds[t]
        for player in range(n_players):
            _outcome_walk(player, epsilon, nodes, probs, payoffs, regrets, regret_out,
                          strategy_sum, path, reaches, sigma, q, rng)
