"""Compiled loops of the full-width CFR family (numba, cached on disk).

One call of :func:`cfr_iteration` is one CFR iteration over a compiled tree: for each
updating player (one after the other with alternating updates, all at once otherwise) a
forward pass in history-id order computes reach probabilities (parents come before their
children) and adds to the strategy sums, a backward pass in reverse id order computes
each history's expected value under the current strategies and adds the counterfactual
regrets, then the player's cumulative regrets are discounted or floored as the variant
asks and regret matched into the current strategy.

Values are unweighted expected returns of a history (as in OpenSpiel); the regret of slot
``a`` at history ``h`` is ``cf_reach(h) * (value(child_a) - value(h))``, where
``cf_reach`` is the product of chance's and the other players' reach probabilities.
Subtrees that the other players and chance never reach (``cf_reach == 0``) carry no regret
and are skipped in the backward pass (their values only ever meet a zero weight).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from pokerlab._numba import numba

Floats = NDArray[np.float64]
Ints = NDArray[np.int64]


@numba.njit(cache=True, nogil=True)
def _forward_one(
    player: Ints,
    infoset: Ints,
    first_child: Ints,
    n_children: Ints,
    chance_prob: Floats,
    sigma: Floats,
    updating: int,
    own: Floats,
    cf: Floats,
    infoset_reach: Floats,
) -> None:
    """Reach of ``updating`` (own) and of everyone else (cf); sum own reach per infoset."""
    n_histories = player.shape[0]
    own[0] = 1.0
    cf[0] = 1.0
    for h in range(n_histories):
        n = n_children[h]
        if n == 0:
            continue
        first = first_child[h]
        who = player[h]
        own_h = own[h]
        cf_h = cf[h]
        if who < 0:
            for k in range(n):
                c = first + k
                own[c] = own_h
                cf[c] = cf_h * chance_prob[c]
        elif who == updating:
            row = infoset[h]
            infoset_reach[row] += own_h
            for k in range(n):
                c = first + k
                own[c] = own_h * sigma[row, k]
                cf[c] = cf_h
        else:
            row = infoset[h]
            for k in range(n):
                c = first + k
                own[c] = own_h
                cf[c] = cf_h * sigma[row, k]


@numba.njit(cache=True, nogil=True)
def _backward_one(
    player: Ints,
    infoset: Ints,
    first_child: Ints,
    n_children: Ints,
    chance_prob: Floats,
    terminal_index: Ints,
    payoffs: Floats,
    sigma: Floats,
    regrets: Floats,
    updating: int,
    regret_weight: float,
    cf: Floats,
    values: Floats,
) -> None:
    """Expected value of every history for ``updating``; add its counterfactual regrets."""
    n_histories = player.shape[0]
    for h in range(n_histories - 1, -1, -1):
        t = terminal_index[h]
        if t >= 0:
            values[h] = payoffs[t, updating]
            continue
        cf_h = cf[h]
        if cf_h == 0.0:
            values[h] = 0.0
            continue
        n = n_children[h]
        first = first_child[h]
        who = player[h]
        value = 0.0
        if who < 0:
            for k in range(n):
                c = first + k
                value += chance_prob[c] * values[c]
            values[h] = value
            continue
        row = infoset[h]
        for k in range(n):
            value += sigma[row, k] * values[first + k]
        values[h] = value
        if who == updating:
            weight = regret_weight * cf_h
            for k in range(n):
                regrets[row, k] += weight * (values[first + k] - value)


@numba.njit(cache=True, nogil=True)
def _forward_all(
    player: Ints,
    infoset: Ints,
    first_child: Ints,
    n_children: Ints,
    chance_prob: Floats,
    sigma: Floats,
    reach: Floats,
    infoset_reach: Floats,
) -> None:
    """Every player's reach (column ``n_players`` is chance's); sum own reach per infoset."""
    n_histories = player.shape[0]
    columns = reach.shape[1]
    for q in range(columns):
        reach[0, q] = 1.0
    for h in range(n_histories):
        n = n_children[h]
        if n == 0:
            continue
        first = first_child[h]
        who = player[h]
        if who < 0:
            for k in range(n):
                c = first + k
                for q in range(columns):
                    reach[c, q] = reach[h, q]
                reach[c, columns - 1] = reach[h, columns - 1] * chance_prob[c]
        else:
            row = infoset[h]
            own_h = reach[h, who]
            infoset_reach[row] += own_h
            for k in range(n):
                c = first + k
                for q in range(columns):
                    reach[c, q] = reach[h, q]
                reach[c, who] = own_h * sigma[row, k]


@numba.njit(cache=True, nogil=True)
def _backward_all(
    player: Ints,
    infoset: Ints,
    first_child: Ints,
    n_children: Ints,
    chance_prob: Floats,
    terminal_index: Ints,
    payoffs: Floats,
    sigma: Floats,
    regrets: Floats,
    regret_weight: float,
    reach: Floats,
    values: Floats,
) -> None:
    """Every player's expected value of every history; add every player's regrets."""
    n_histories = player.shape[0]
    n_players = values.shape[1]
    for h in range(n_histories - 1, -1, -1):
        t = terminal_index[h]
        if t >= 0:
            for q in range(n_players):
                values[h, q] = payoffs[t, q]
            continue
        n = n_children[h]
        first = first_child[h]
        who = player[h]
        for q in range(n_players):
            values[h, q] = 0.0
        if who < 0:
            for k in range(n):
                c = first + k
                prob = chance_prob[c]
                for q in range(n_players):
                    values[h, q] += prob * values[c, q]
            continue
        row = infoset[h]
        for k in range(n):
            c = first + k
            prob = sigma[row, k]
            for q in range(n_players):
                values[h, q] += prob * values[c, q]
        cf_h = reach[h, n_players]
        for q in range(n_players):
            if q != who:
                cf_h *= reach[h, q]
        if cf_h == 0.0:
            continue
        weight = regret_weight * cf_h
        value = values[h, who]
        for k in range(n):
            regrets[row, k] += weight * (values[first + k, who] - value)


@numba.njit(cache=True, nogil=True)
def _update_infosets(
    rows: Ints,
    n_actions: Ints,
    regrets: Floats,
    strategy_sum: Floats,
    infoset_reach: Floats,
    average_weight: float,
    sigma: Floats,
    floor: bool,
    discount: bool,
    positive_factor: float,
    negative_factor: float,
) -> None:
    """Add to the strategy sums of ``rows``; discount or floor their regrets; regret match.

    ``infoset_reach`` holds each row's summed own reach this iteration, and is reset to 0.
    """
    for i in range(rows.shape[0]):
        row = rows[i]
        n = n_actions[row]
        reach = infoset_reach[row]
        if reach != 0.0:
            weight = average_weight * reach
            for k in range(n):
                strategy_sum[row, k] += weight * sigma[row, k]
            infoset_reach[row] = 0.0
        total = 0.0
        for k in range(n):
            r = regrets[row, k]
            if discount:
                r = r * positive_factor if r >= 0.0 else r * negative_factor
            if floor and r < 0.0:
                r = 0.0
            regrets[row, k] = r
            if r > 0.0:
                total += r
        if total > 0.0:
            for k in range(n):
                r = regrets[row, k]
                sigma[row, k] = r / total if r > 0.0 else 0.0
        else:
            uniform = 1.0 / n
            for k in range(n):
                sigma[row, k] = uniform


@numba.njit(cache=True, nogil=True)
def cfr_iteration(
    player: Ints,
    infoset: Ints,
    first_child: Ints,
    n_children: Ints,
    chance_prob: Floats,
    terminal_index: Ints,
    payoffs: Floats,
    player_rows: Ints,
    player_row_offsets: Ints,
    n_actions: Ints,
    regrets: Floats,
    strategy_sum: Floats,
    sigma: Floats,
    work: Floats,
    infoset_reach: Floats,
    reach: Floats,
    values: Floats,
    alternating: bool,
    regret_weight: float,
    average_weight: float,
    floor: bool,
    discount: bool,
    positive_factor: float,
    negative_factor: float,
) -> None:
    """Run one CFR iteration in place (regrets, strategy sums, current strategy ``sigma``).

    Args:
        player: per history, the player to act, CHANCE (-1) or TERMINAL (-2).
        infoset: per history, its infoset id (-1 at non-decision histories).
        first_child: per history, its first child's id (children are contiguous).
        n_children: per history, its number of children.
        chance_prob: per history, the probability of the edge from a chance parent.
        terminal_index: per history, its row in ``payoffs``, or -1 if not terminal.
        payoffs: ``[T, n_players]`` terminal returns.
        player_rows: infoset ids grouped by player; player ``p``'s are
            ``player_rows[player_row_offsets[p]:player_row_offsets[p + 1]]``.
        player_row_offsets: ``[n_players + 1]`` bounds of each player's block.
        n_actions: per infoset, its number of legal actions.
        regrets: ``[I, A]`` cumulative regrets, updated in place.
        strategy_sum: ``[I, A]`` weighted sums of the current strategies, updated in place.
        sigma: ``[I, A]`` the current strategy, replaced by the next one.
        work: ``[3, H]`` work space for alternating updates (never read before written).
        infoset_reach: ``[I]`` zeros (work space, left zeroed).
        reach: ``[H, n_players + 1]`` work space for simultaneous updates.
        values: ``[H, n_players]`` work space for simultaneous updates.
        alternating: update the players one after the other (each seeing the strategies
            already updated this iteration), rather than all at once.
        regret_weight: multiplies this iteration's regrets (``t`` for Linear CFR).
        average_weight: multiplies this iteration's strategy-sum contributions.
        floor: clip cumulative regrets at 0 after the update (regret matching+).
        discount: multiply cumulative regrets, after the update, by ``positive_factor``
            where non-negative and by ``negative_factor`` where negative (Discounted CFR).
        positive_factor: the discount of non-negative cumulative regrets.
        negative_factor: the discount of negative cumulative regrets.
    """
    n_players = player_row_offsets.shape[0] - 1
    if alternating:
        own = work[0]
        cf = work[1]
        own_values = work[2]
        for p in range(n_players):
            _forward_one(player, infoset, first_child, n_children, chance_prob, sigma, p,
                         own, cf, infoset_reach)
            _backward_one(player, infoset, first_child, n_children, chance_prob,
                          terminal_index, payoffs, sigma, regrets, p, regret_weight, cf,
                          own_values)
            rows = player_rows[player_row_offsets[p]:player_row_offsets[p + 1]]
            _update_infosets(rows, n_actions, regrets, strategy_sum, infoset_reach,
                             average_weight, sigma, floor, discount, positive_factor,
                             negative_factor)
    else:
        _forward_all(player, infoset, first_child, n_children, chance_prob, sigma, reach,
                     infoset_reach)
        _backward_all(player, infoset, first_child, n_children, chance_prob, terminal_index,
                      payoffs, sigma, regrets, regret_weight, reach, values)
        _update_infosets(player_rows, n_actions, regrets, strategy_sum, infoset_reach,
                         average_weight, sigma, floor, discount, positive_factor,
                         negative_factor)


@numba.njit(cache=True, nogil=True)
def normalize_rows(strategy_sum: Floats, n_actions: Ints, out: Floats) -> None:
    """Write the average strategy: each row of sums over its total (uniform if zero)."""
    for row in range(strategy_sum.shape[0]):
        n = n_actions[row]
        total = 0.0
        for k in range(n):
            total += strategy_sum[row, k]
        for k in range(out.shape[1]):
            out[row, k] = 0.0
        if total > 0.0:
            for k in range(n):
                out[row, k] = strategy_sum[row, k] / total
        else:
            for k in range(n):
                out[row, k] = 1.0 / n
