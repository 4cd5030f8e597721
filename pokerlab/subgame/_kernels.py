"""Compiled passes of the range solver over a public tree (numba, cached on disk).

Vocabulary (as postflop solvers write it): ``cfreach`` is the opponent's reach of a node
for each of their hands (their range weights times their strategy along the path, times
the chance probabilities of the public cards); ``cfv`` is the updating player's
counterfactual value of a node for each of their hands (chips, summed over the opponent's
compatible hands weighted by ``cfreach``). Node ids are breadth-first, so a pass in id
order sees parents first (reach goes down) and a pass in reverse order sees children first
(values come up).

Terminal values are computed in ``O(hands)`` per node with card removal: a fold sums the
opponent's reach over the hands that share no card with each of ours (the total, minus
what each of our cards blocks, plus the identical hand counted twice); a showdown sweeps
both players' hands sorted by strength, keeping running sums in total and per card, so
each hand's wins (and, sweeping down, its losses) exclude the opponent's hands that share
a card with it.
"""

from __future__ import annotations

import numba
import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float64]
Ints = NDArray[np.int64]

_DECISION = 0
_CHANCE = 1
_FOLD = 2
_SHOWDOWN = 3


@numba.njit(cache=True, nogil=True)
def regret_match(regrets: Floats, row: int, n_actions: int, n_hands: int, out: Floats) -> None:
    """Write the regret-matching strategy of rows ``row..row+n_actions`` into ``out[:n, :H]``.

    ``out`` has one spare row (``out[n_actions]``) used for the sums.
    """
    total = out[n_actions]
    for h in range(n_hands):
        total[h] = 0.0
    for a in range(n_actions):
        source = regrets[row + a]
        for h in range(n_hands):
            r = source[h]
            if r > 0.0:
                total[h] += r
    uniform = 1.0 / n_actions
    for a in range(n_actions):
        source = regrets[row + a]
        target = out[a]
        for h in range(n_hands):
            t = total[h]
            if t > 0.0:
                r = source[h]
                target[h] = r / t if r > 0.0 else 0.0
            else:
                target[h] = uniform


@numba.njit(cache=True, nogil=True)
def fold_values(
    cfreach: Floats,
    cards_p: Ints,
    cards_o: Ints,
    same_p: Ints,
    scale: float,
    card_sums: Floats,
    out: Floats,
) -> None:
    """``out[h] = scale * (opponent reach over hands compatible with h)``."""
    n_o = cards_o.shape[0]
    for c in range(card_sums.shape[0]):
        card_sums[c] = 0.0
    total = 0.0
    for j in range(n_o):
        r = cfreach[j]
        if r != 0.0:
            total += r
            card_sums[cards_o[j, 0]] += r
            second = cards_o[j, 1]
            if second >= 0:
                card_sums[second] += r
    for h in range(cards_p.shape[0]):
        v = total - card_sums[cards_p[h, 0]]
        second = cards_p[h, 1]
        if second >= 0:
            v -= card_sums[second]
        same = same_p[h]
        if same >= 0:
            v += cfreach[same]
        out[h] = scale * v


@numba.njit(cache=True, nogil=True)
def showdown_values(
    cfreach: Floats,
    cards_p: Ints,
    cards_o: Ints,
    strength_p: Ints,
    order_p: Ints,
    valid_p: int,
    strength_o: Ints,
    order_o: Ints,
    valid_o: int,
    scale: float,
    card_sums: Floats,
    out: Floats,
) -> None:
    """``out[h] = scale * (reach of compatible weaker hands - of compatible stronger ones)``.

    Hands that touch the board (not in ``order_p``) get 0.
    """
    for h in range(cards_p.shape[0]):
        out[h] = 0.0
    # Upwards: the opponent's hands strictly weaker than each of ours.
    for c in range(card_sums.shape[0]):
        card_sums[c] = 0.0
    cum = 0.0
    j = 0
    for i in range(valid_p):
        h = order_p[i]
        s = strength_p[h]
        while j < valid_o:
            k = order_o[j]
            if strength_o[k] >= s:
                break
            r = cfreach[k]
            cum += r
            card_sums[cards_o[k, 0]] += r
            second = cards_o[k, 1]
            if second >= 0:
                card_sums[second] += r
            j += 1
        v = cum - card_sums[cards_p[h, 0]]
        second = cards_p[h, 1]
        if second >= 0:
            v -= card_sums[second]
        out[h] = v
    # Downwards: the opponent's hands strictly stronger.
    for c in range(card_sums.shape[0]):
        card_sums[c] = 0.0
    cum = 0.0
    j = valid_o - 1
    for i in range(valid_p - 1, -1, -1):
        h = order_p[i]
        s = strength_p[h]
        while j >= 0:
            k = order_o[j]
            if strength_o[k] <= s:
                break
            r = cfreach[k]
            cum += r
            card_sums[cards_o[k, 0]] += r
            second = cards_o[k, 1]
            if second >= 0:
                card_sums[second] += r
            j -= 1
        v = cum - card_sums[cards_p[h, 0]]
        second = cards_p[h, 1]
        if second >= 0:
            v -= card_sums[second]
        out[h] = scale * (out[h] - v)


@numba.njit(cache=True, nogil=True)
def _blocked(cards: Ints, h: int, card: int) -> bool:
    return bool(cards[h, 0] == card or cards[h, 1] == card)


@numba.njit(cache=True, nogil=True)
def _reach_down(
    p: int,
    nodes: Ints,
    amounts: Floats,
    cards_o: Ints,
    weights_o: Floats,
    regrets_o: Floats,
    strategy_o: Floats,
    use_regrets: bool,
    cum_o: Floats,
    average_weight: float,
    cfreach: Floats,
    sigma: Floats,
) -> None:
    """Fill ``cfreach[n]`` (the opponent's reach) at every node, top-down.

    The opponent plays regret matching on ``regrets_o`` (``use_regrets``) or the rows of
    ``strategy_o``; with ``average_weight > 0`` its reach-weighted strategy is added to
    ``cum_o`` (the strategy sums).
    """
    n_o = cards_o.shape[0]
    for h in range(n_o):
        cfreach[0, h] = weights_o[h]
    for n in range(nodes.shape[0]):
        count = nodes[n, 3]
        if count == 0:
            continue
        first = nodes[n, 2]
        kind = nodes[n, 0]
        parent = cfreach[n]
        if kind == _CHANCE:
            for k in range(count):
                c = first + k
                card = nodes[c, 5]
                factor = amounts[c, 2]
                child = cfreach[c]
                for h in range(n_o):
                    child[h] = 0.0 if _blocked(cards_o, h, card) else parent[h] * factor
        elif nodes[n, 1] == p:
            for k in range(count):
                child = cfreach[first + k]
                for h in range(n_o):
                    child[h] = parent[h]
        else:
            row = nodes[n, 6]
            if use_regrets:
                regret_match(regrets_o, row, count, n_o, sigma)
            for k in range(count):
                child = cfreach[first + k]
                probs = sigma[k] if use_regrets else strategy_o[row + k]
                for h in range(n_o):
                    child[h] = parent[h] * probs[h]
                if average_weight > 0.0:
                    target = cum_o[row + k]
                    for h in range(n_o):
                        target[h] += average_weight * child[h]


@numba.njit(cache=True, nogil=True)
def _terminal_or_chance(
    n: int,
    p: int,
    nodes: Ints,
    amounts: Floats,
    isomorphic: Ints,
    cards_p: Ints,
    cards_o: Ints,
    same_p: Ints,
    strength_p: Ints,
    order_p: Ints,
    strength_o: Ints,
    order_o: Ints,
    n_valid: Ints,
    swaps_p: Ints,
    cfreach: Floats,
    cfv: Floats,
    card_sums: Floats,
) -> None:
    """The values of a fold, showdown or chance node (the same in every pass)."""
    kind = nodes[n, 0]
    n_p = cards_p.shape[0]
    out = cfv[n]
    if kind == _FOLD:
        folder = nodes[n, 1]
        stake = amounts[n, folder]
        scale = -stake if folder == p else stake
        fold_values(cfreach[n], cards_p, cards_o, same_p, scale, card_sums, out)
    elif kind == _SHOWDOWN:
        b = nodes[n, 4]
        showdown_values(cfreach[n], cards_p, cards_o, strength_p[b], order_p[b], n_valid[b, p],
                        strength_o[b], order_o[b], n_valid[b, 1 - p], amounts[n, 0],
                        card_sums, out)
    else:  # chance: each card's values, for the hands that do not hold it
        for h in range(n_p):
            out[h] = 0.0
        first = nodes[n, 2]
        for k in range(nodes[n, 3]):
            c = first + k
            card = nodes[c, 5]
            child = cfv[c]
            for h in range(n_p):
                if not _blocked(cards_p, h, card):
                    out[h] += child[h]
        for e in range(nodes[n, 7], nodes[n, 8]):
            child = cfv[isomorphic[e, 0]]
            card = isomorphic[e, 1]
            swap = swaps_p[isomorphic[e, 2]]
            for h in range(n_p):
                if not _blocked(cards_p, h, card):
                    out[h] += child[swap[h]]


@numba.njit(cache=True, nogil=True)
def cfr_pass(
    p: int,
    nodes: Ints,
    amounts: Floats,
    isomorphic: Ints,
    cards_p: Ints,
    same_p: Ints,
    strength_p: Ints,
    order_p: Ints,
    swaps_p: Ints,
    cards_o: Ints,
    weights_o: Floats,
    strength_o: Ints,
    order_o: Ints,
    n_valid: Ints,
    regrets_p: Floats,
    regrets_o: Floats,
    cum_o: Floats,
    cfreach: Floats,
    cfv: Floats,
    sigma: Floats,
    card_sums: Floats,
    regret_weight: float,
    average_weight: float,
    floor: bool,
    discount: bool,
    positive_factor: float,
    negative_factor: float,
) -> None:
    """One CFR update of player ``p``: regrets of ``p``, strategy sums of the opponent.

    Top-down, the opponent plays regret matching and its reach-weighted strategy is added
    to its sums (``average_weight``); bottom-up, ``p``'s counterfactual values are computed
    and ``p``'s regrets updated: ``R += regret_weight * (cfv(child) - cfv(node))``, then
    floored at 0 (``floor``, CFR+) or discounted by sign (``discount``, DCFR).
    """
    _reach_down(p, nodes, amounts, cards_o, weights_o, regrets_o, regrets_o, True, cum_o,
                average_weight, cfreach, sigma)
    n_p = cards_p.shape[0]
    for n in range(nodes.shape[0] - 1, -1, -1):
        kind = nodes[n, 0]
        if kind != _DECISION:
            _terminal_or_chance(n, p, nodes, amounts, isomorphic, cards_p, cards_o, same_p,
                                strength_p, order_p, strength_o, order_o, n_valid, swaps_p,
                                cfreach, cfv, card_sums)
            continue
        first = nodes[n, 2]
        count = nodes[n, 3]
        out = cfv[n]
        if nodes[n, 1] != p:
            for h in range(n_p):
                out[h] = cfv[first, h]
            for k in range(1, count):
                child = cfv[first + k]
                for h in range(n_p):
                    out[h] += child[h]
            continue
        row = nodes[n, 6]
        regret_match(regrets_p, row, count, n_p, sigma)
        for h in range(n_p):
            out[h] = 0.0
        for k in range(count):
            child = cfv[first + k]
            probs = sigma[k]
            for h in range(n_p):
                out[h] += probs[h] * child[h]
        for k in range(count):
            child = cfv[first + k]
            target = regrets_p[row + k]
            for h in range(n_p):
                r = target[h] + regret_weight * (child[h] - out[h])
                if floor and r < 0.0:
                    r = 0.0
                elif discount:
                    r = r * positive_factor if r >= 0.0 else r * negative_factor
                target[h] = r


@numba.njit(cache=True, nogil=True)
def evaluate_pass(
    p: int,
    nodes: Ints,
    amounts: Floats,
    isomorphic: Ints,
    cards_p: Ints,
    same_p: Ints,
    strength_p: Ints,
    order_p: Ints,
    swaps_p: Ints,
    cards_o: Ints,
    weights_o: Floats,
    strength_o: Ints,
    order_o: Ints,
    n_valid: Ints,
    strategy_p: Floats,
    strategy_o: Floats,
    best_response: bool,
    cfreach: Floats,
    cfv: Floats,
    sigma: Floats,
    card_sums: Floats,
) -> None:
    """Counterfactual values of ``p`` at every node against the opponent's ``strategy_o``.

    ``p`` plays ``strategy_p``, or a best response (the largest child value per hand) with
    ``best_response``. ``cfreach`` and ``cfv`` are left filled for every node.
    """
    _reach_down(p, nodes, amounts, cards_o, weights_o, strategy_o, strategy_o, False,
                strategy_o, 0.0, cfreach, sigma)
    n_p = cards_p.shape[0]
    for n in range(nodes.shape[0] - 1, -1, -1):
        kind = nodes[n, 0]
        if kind != _DECISION:
            _terminal_or_chance(n, p, nodes, amounts, isomorphic, cards_p, cards_o, same_p,
                                strength_p, order_p, strength_o, order_o, n_valid, swaps_p,
                                cfreach, cfv, card_sums)
            continue
        first = nodes[n, 2]
        count = nodes[n, 3]
        out = cfv[n]
        if nodes[n, 1] != p:
            for h in range(n_p):
                out[h] = cfv[first, h]
            for k in range(1, count):
                child = cfv[first + k]
                for h in range(n_p):
                    out[h] += child[h]
        elif best_response:
            for h in range(n_p):
                out[h] = cfv[first, h]
            for k in range(1, count):
                child = cfv[first + k]
                for h in range(n_p):
                    if child[h] > out[h]:
                        out[h] = child[h]
        else:
            row = nodes[n, 6]
            for h in range(n_p):
                out[h] = 0.0
            for k in range(count):
                child = cfv[first + k]
                probs = strategy_p[row + k]
                for h in range(n_p):
                    out[h] += probs[h] * child[h]


@numba.njit(cache=True, nogil=True)
def normalize_rows(nodes: Ints, player: int, sums: Floats, out: Floats) -> None:
    """``out`` = ``sums`` normalized over each decision node's actions (uniform if 0)."""
    n_hands = sums.shape[1]
    for n in range(nodes.shape[0]):
        if nodes[n, 0] != _DECISION or nodes[n, 1] != player:
            continue
        row = nodes[n, 6]
        count = nodes[n, 3]
        for h in range(n_hands):
            total = 0.0
            for k in range(count):
                total += sums[row + k, h]
            if total > 0.0:
                for k in range(count):
                    out[row + k, h] = sums[row + k, h] / total
            else:
                for k in range(count):
                    out[row + k, h] = 1.0 / count


@numba.njit(cache=True, nogil=True)
def current_rows(nodes: Ints, player: int, regrets: Floats, out: Floats, sigma: Floats) -> None:
    """``out`` = the regret-matching strategy of every decision node of ``player``."""
    n_hands = regrets.shape[1]
    for n in range(nodes.shape[0]):
        if nodes[n, 0] != _DECISION or nodes[n, 1] != player:
            continue
        row = nodes[n, 6]
        count = nodes[n, 3]
        regret_match(regrets, row, count, n_hands, sigma)
        for k in range(count):
            for h in range(n_hands):
                out[row + k, h] = sigma[k, h]


@numba.njit(cache=True, nogil=True)
def cfr_iterations(
    count: int,
    first_iteration: int,
    schedule: Floats,
    nodes: Ints,
    amounts: Floats,
    isomorphic: Ints,
    cards0: Ints,
    weights0: Floats,
    same0: Ints,
    strength0: Ints,
    order0: Ints,
    swaps0: Ints,
    cards1: Ints,
    weights1: Floats,
    same1: Ints,
    strength1: Ints,
    order1: Ints,
    swaps1: Ints,
    n_valid: Ints,
    regrets0: Floats,
    regrets1: Floats,
    sums0: Floats,
    sums1: Floats,
    cfreach: Floats,
    cfv: Floats,
    sigma: Floats,
    card_sums: Floats,
    floor: bool,
    discount: bool,
) -> None:
    """``count`` alternating iterations: player 0's update, then player 1's, each time.

    ``schedule[t - first_iteration]`` holds iteration ``t``'s ``(regret_weight,
    average_weight, positive_factor, negative_factor)``.
    """
    for i in range(count):
        regret_weight = schedule[i, 0]
        average_weight = schedule[i, 1]
        positive = schedule[i, 2]
        negative = schedule[i, 3]
        cfr_pass(0, nodes, amounts, isomorphic, cards0, same0, strength0, order0, swaps0,
                 cards1, weights1, strength1, order1, n_valid, regrets0, regrets1, sums1,
                 cfreach, cfv, sigma, card_sums, regret_weight, average_weight, floor,
                 discount, positive, negative)
        cfr_pass(1, nodes, amounts, isomorphic, cards1, same1, strength1, order1, swaps1,
                 cards0, weights0, strength0, order0, n_valid, regrets1, regrets0, sums0,
                 cfreach, cfv, sigma, card_sums, regret_weight, average_weight, floor,
                 discount, positive, negative)
