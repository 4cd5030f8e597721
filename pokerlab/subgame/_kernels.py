"""Compiled passes of the range solver over a public tree (numba, cached on disk).

Vocabulary (as postflop solvers write it): ``cfreach`` is the opponent's reach of a node
for each of their hands (their range weights times their strategy along the path, times
the chance probabilities of the public cards); ``cfv`` is the updating player's
counterfactual value of a node for each of their hands (chips, summed over the opponent's
compatible hands weighted by ``cfreach``). Parents have smaller ids than their children,
so a pass in id order sees parents first (reach goes down) and a pass in reverse order
sees children first (values come up). A node whose parent is the updating player's
decision has the parent's reach: ``source[n]`` names the row that holds it, so those rows
are never copied.

Terminal values take ``O(hands)`` per node with card removal and no pairwise loop:

- a fold: the opponent's total reach, minus the reach of their hands holding each of our
  cards (per-card sums over static per-card lists), plus the identical hand (removed twice);
- a showdown: the opponent's hands sorted by strength on the board; a prefix sum of their
  reach in that order, and one per card over the sorted hands holding it; each of our
  hands reads its wins (weaker, compatible) and losses (stronger, compatible) from those
  prefix sums at cut positions precomputed per board. Ties win nothing: they lie between
  the two cuts.

A player's arrays travel as one tuple (:class:`~pokerlab.subgame.public_tree.HandTables`,
in that order): cards, weights, the identical hand of the other player, fold cards, fold
entries and offsets, and per board the sorted hands, their count, the hands grouped by
card, the card offsets, the cuts; then the suit swaps. Index arrays are unsigned where
they are read in hot loops (numba then skips the negative-index check).

Compressed storage (16 bits, as the Rust postflop solver's): regrets are ``int16`` and
strategy sums ``uint16``, each node's rows scaled by one number (``scales[row]`` at the
node's first row: the stored integers times it are the values). Regret matching and
normalizing the sums are blind to a positive factor per node, so they read the integers
as they are; an update decodes the node's rows, adds, and encodes them again with the new
largest magnitude (:func:`encode_node`). Regrets round to nearest; strategy sums round
stochastically (up with the probability of the fraction, from a hash of the entry and the
iteration: the same on any thread count), since a hand whose reach-weighted increments
stay under half a step of its node's largest sum would otherwise never move its average.
An empty ``scales`` array means plain floats.
"""

from __future__ import annotations

import math
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from pokerlab._numba import numba
from pokerlab.cards.splitmix import GAMMA, mix, unit

Floats = NDArray[np.float64]
Ints = NDArray[np.int64]
UInts = NDArray[np.uint64]
Scales = NDArray[np.float32]

INT16_TOP = 32767.0
UINT16_TOP = 65535.0

# Constants one kernel passes to another. numba compiles a callee once per argument type,
# and a plain ``0`` or ``True`` is typed as its literal value: every pass would be compiled
# again for player 0 and player 1, for start 0 and for each flag (measured: 77 s of
# compilation for one storage's kernels, half of it such copies). numpy scalars are typed
# as ``int64`` and ``bool``: one compilation serves every value.
I0: int = cast(int, np.int64(0))
I1: int = cast(int, np.int64(1))
YES: bool = cast(bool, np.bool_(True))
NO: bool = cast(bool, np.bool_(False))
MINUS_ONE: int = cast(int, np.int64(-1))

_DECISION = 0
_CHANCE = 1
_FOLD = 2
_SHOWDOWN = 3
_VALUE = 4

# Positions in a player's table tuple.
CARDS, WEIGHTS, SAME, FOLD_CARDS, FOLD_ENTRIES, FOLD_OFFSETS = 0, 1, 2, 3, 4, 5
ORDER, N_VALID, ENTRIES, OFFSETS, CUTS, SWAPS, VALUES = 6, 7, 8, 9, 10, 11, 12


@numba.njit(cache=True, nogil=True)
def regret_match(regrets: Floats, row: int, n_actions: int, n_hands: int, out: Floats) -> None:
    """Write the regret-matching strategy of rows ``row..row+n_actions`` into ``out[:n, :H]``.

    ``out`` has one spare row (``out[n_actions]``) used for the sums. Rows are indexed in
    place (no array views: a view costs a reference count in numba). The arithmetic is in
    ``out``'s dtype (constants typed from it: a float64 literal would turn float32 work
    into float64 and back, at half the vector width).
    """
    zero = out.dtype.type(0.0)
    one = out.dtype.type(1.0)
    # a total under the smallest normal number counts as 0 (uniform): its reciprocal
    # would overflow (1 / 1e-39 is inf in float32), and inf * 0 is NaN
    tiny = out.dtype.type(np.finfo(out.dtype).tiny)
    for h in range(n_hands):
        out[n_actions, h] = zero
    for a in range(n_actions):
        for h in range(n_hands):
            out[n_actions, h] += max(regrets[row + a, h], zero)
    for h in range(n_hands):
        total = out[n_actions, h]
        out[n_actions, h] = one / total if total >= tiny else zero
    uniform = one / out.dtype.type(n_actions)
    for a in range(n_actions):
        for h in range(n_hands):
            scale = out[n_actions, h]
            out[a, h] = max(regrets[row + a, h], zero) * scale if scale > zero else uniform


@numba.njit(cache=True, nogil=True)
def apply_lock(lock_at: Ints, locks: Floats, n: int, n_actions: int, n_hands: int,
               out: Floats) -> None:
    """Overwrite ``out[:n_actions, :H]`` with node ``n``'s locked rows (node locking).

    ``lock_at[n]`` is the first row of node ``n``'s block in ``locks`` (-1: not locked; an
    empty ``lock_at`` locks nothing); a hand whose entry is NaN is left as it was.
    """
    if n >= lock_at.shape[0]:
        return
    first = lock_at[n]
    if first < 0:
        return
    for h in range(n_hands):
        if locks[first, h] == locks[first, h]:  # not NaN: this hand is locked
            for a in range(n_actions):
                out[a, h] = locks[first + a, h]


@numba.njit(cache=True, nogil=True)
def fold_values(cfreach: Floats, r: int, entries_o: UInts, offsets_o: Ints, n_o: int,
                cards_p: UInts, same_p: Ints, scale: float, scratch: Floats, out: Floats,
                n: int) -> None:
    """``out[n, h] = scale * (the opponent's reach, row r, over hands compatible with h)``."""
    n_cards = offsets_o.shape[0] - 1
    total = 0.0
    for j in range(n_o):
        total += cfreach[r, j]
    for c in range(n_cards):
        s = 0.0
        for k in range(offsets_o[c], offsets_o[c + 1]):
            s += cfreach[r, entries_o[k]]
        scratch[c] = s
    scratch[n_cards] = 0.0
    for h in range(cards_p.shape[0]):
        v = total - scratch[cards_p[h, 0]] - scratch[cards_p[h, 1]]
        same = same_p[h]
        if same >= 0:
            v += cfreach[r, same]
        out[n, h] = scale * v


@numba.njit(cache=True, nogil=True)
def showdown_values(cfreach: Floats, r: int, b: int, order_o: UInts, valid_o: Ints,
                    entries_o: UInts, offsets_o: Ints, order_p: UInts, valid_p: Ints,
                    cuts_p: UInts, n_p: int, scale: float, scratch: Floats, out: Floats,
                    n: int) -> None:
    """``out[n, h] = scale * (compatible weaker reach - compatible stronger reach)``.

    The opponent's reach is row ``r`` of ``cfreach``, the board is ``b``; hands that touch
    the board get 0.
    """
    for h in range(n_p):
        out[n, h] = 0.0
    count_o = valid_o[b]
    # scratch: the prefix sums [count_o + 1], then the per-card prefix sums.
    cum = 0.0
    scratch[0] = 0.0
    for j in range(count_o):
        cum += cfreach[r, order_o[b, j]]
        scratch[j + 1] = cum
    cards_prefix = scratch[count_o + 1:]
    n_cards = offsets_o.shape[1] - 1
    for c in range(n_cards):
        start = offsets_o[b, c]
        base = start + c
        s = 0.0
        cards_prefix[base] = 0.0
        for k in range(start, offsets_o[b, c + 1]):
            s += cfreach[r, entries_o[b, k]]
            cards_prefix[base + k - start + 1] = s
    cards_prefix[offsets_o[b, n_cards] + n_cards] = 0.0
    for i in range(valid_p[b]):
        win = scratch[cuts_p[b, i, 0]] - cards_prefix[cuts_p[b, i, 2]] - cards_prefix[
            cuts_p[b, i, 3]]
        lose = (cum - scratch[cuts_p[b, i, 1]]
                - (cards_prefix[cuts_p[b, i, 6]] - cards_prefix[cuts_p[b, i, 4]])
                - (cards_prefix[cuts_p[b, i, 7]] - cards_prefix[cuts_p[b, i, 5]]))
        out[n, order_p[b, i]] = scale * (win - lose)


@numba.njit(cache=True, nogil=True)
def average_rows(sums: Floats, row: int, n_actions: int, n_hands: int, out: Floats,
                 out_row: int) -> None:
    """``out[out_row + k, h]`` = ``sums[row + k, h]`` over the node's total (uniform if 0).

    The average strategy of one decision node: every check and every report normalizes
    the strategy sums this one way.
    """
    zero = out.dtype.type(0.0)  # in out's dtype (see regret_match)
    uniform = out.dtype.type(1.0) / out.dtype.type(n_actions)
    for h in range(n_hands):
        total = zero
        for k in range(n_actions):
            total += sums[row + k, h]
        if total > zero:
            for k in range(n_actions):
                out[out_row + k, h] = sums[row + k, h] / total
        else:
            for k in range(n_actions):
                out[out_row + k, h] = uniform


@numba.njit(cache=True, nogil=True)
def encode_node(values: Floats, n_actions: int, n_hands: int, stored: NDArray[Any], row: int,
                scales: Scales, top: float, salt: int) -> None:
    """Store ``values[:n_actions, :n_hands]`` in rows ``row..`` of ``stored`` as integers.

    The node's scale (``scales[row]``) becomes its largest magnitude over ``top`` (32,767
    for int16 regrets, 65,535 for uint16 sums), so that magnitude is stored as ``top``.
    With ``salt < 0`` every value is rounded to the nearest step; otherwise up or down at
    random, up with the probability of its fraction (unbiased: tiny additions survive on
    average), the draw a hash of ``salt``, the row and the hand. A node too small for a
    float32 scale (below about 1e-40) is stored as zeros.
    """
    largest = 0.0
    for a in range(n_actions):
        for h in range(n_hands):
            largest = max(largest, abs(values[a, h]))
    scales[row] = largest / top
    encoder = 1.0 / scales[row] if scales[row] > 0.0 else 0.0  # the stored (float32) scale
    if salt < 0:
        for a in range(n_actions):
            for h in range(n_hands):
                stored[row + a, h] = min(max(math.floor(values[a, h] * encoder + 0.5), -top),
                                         top)
        return
    width = np.uint64(stored.shape[1])
    seed = np.uint64(salt) * GAMMA
    for a in range(n_actions):
        entry = np.uint64(row + a) * width
        for h in range(n_hands):
            draw = unit(mix(seed + entry + np.uint64(h)))
            stored[row + a, h] = min(max(math.floor(values[a, h] * encoder + draw), -top), top)


@numba.njit(cache=True, nogil=True)
def _blocked(cards: Ints, h: int, card: int) -> bool:
    return bool(cards[h, 0] == card or cards[h, 1] == card)


@numba.njit(cache=True, nogil=True)
def _row(slot: Ints, n: int, base: int) -> int:
    """The work-array row of node ``n`` (see :mod:`pokerlab.subgame.units`, "layout").

    ``slot[n] >= 0`` is a row of its own; ``-1 - i`` is row ``base + i`` of the scratch
    area the unit is running in (``base`` names that area).
    """
    s = int(slot[n])
    return s if s >= 0 else base - 1 - s


@numba.njit(cache=True, nogil=True)
def _reach_nodes(order: Ints, start: int, stop: int, p: int, nodes: Ints, amounts: Floats,
                 cards_o: Ints, regrets_o: Floats, strategy_o: Floats, use_regrets: bool,
                 cum_o: Floats, sum_scales_o: Scales, average_weight: float, cfreach: Floats,
                 source: Ints,
                 sigma: Floats, lock_at: Ints, locks_o: Floats, slot: Ints,
                 base: int, normalized: bool, iteration: int) -> None:
    """Pass the opponent's reach from each node ``order[start:stop]`` to its children.

    Parents come before children in ``order`` (the root's row is set first: see
    :func:`_reach_root`). The opponent plays regret matching on ``regrets_o``
    (``use_regrets``; its locked rows, ``lock_at`` and ``locks_o``, replace it where a node
    is locked) or the rows of ``strategy_o``; with ``normalized``, ``strategy_o`` holds
    strategy sums: each node's are normalized into ``sigma`` (whose dtype rounds them as
    a stored average would be), then the locks written over them. With
    ``average_weight > 0`` its
    reach-weighted strategy is added to ``cum_o`` (the strategy sums; compressed where
    ``sum_scales_o`` is not empty; ``iteration`` salts their rounding). ``source[c]``
    becomes the work row holding child ``c``'s reach.
    """
    n_o = cards_o.shape[0]
    compressed = sum_scales_o.shape[0] > 0
    zero = cfreach.dtype.type(0.0)
    weight = cfreach.dtype.type(average_weight)  # work in the work arrays' dtype
    for i in range(start, stop):
        n = order[i]
        count = nodes[n, 3]
        if count == 0:
            continue
        first = nodes[n, 2]
        kind = nodes[n, 0]
        parent = source[n]
        if kind == _CHANCE:
            for k in range(count):
                c = first + k
                r = _row(slot, c, base)
                source[c] = r
                card = nodes[c, 5]
                factor = cfreach.dtype.type(amounts[c, 2])
                for h in range(n_o):
                    blocked = cards_o[h, 0] == card or cards_o[h, 1] == card
                    cfreach[r, h] = zero if blocked else cfreach[parent, h] * factor
        elif nodes[n, 1] == p:
            for k in range(count):
                source[first + k] = parent
        else:
            row = nodes[n, 6]
            if use_regrets:
                regret_match(regrets_o, row, count, n_o, sigma)
                apply_lock(lock_at, locks_o, n, count, n_o, sigma)
                for k in range(count):
                    c = first + k
                    r = _row(slot, c, base)
                    source[c] = r
                    for h in range(n_o):
                        cfreach[r, h] = cfreach[parent, h] * sigma[k, h]
            elif normalized:
                average_rows(strategy_o, row, count, n_o, sigma, I0)
                apply_lock(lock_at, locks_o, n, count, n_o, sigma)
                for k in range(count):
                    c = first + k
                    r = _row(slot, c, base)
                    source[c] = r
                    for h in range(n_o):
                        cfreach[r, h] = cfreach[parent, h] * sigma[k, h]
            else:
                for k in range(count):
                    c = first + k
                    r = _row(slot, c, base)
                    source[c] = r
                    for h in range(n_o):
                        cfreach[r, h] = cfreach[parent, h] * strategy_o[row + k, h]
            if average_weight > 0.0 and compressed:  # sigma is free again: decode, add
                scale = sum_scales_o[row]
                for k in range(count):
                    r = source[first + k]
                    for h in range(n_o):
                        sigma[k, h] = cum_o[row + k, h] * scale + weight * cfreach[r, h]
                encode_node(sigma, count, n_o, cum_o, row, sum_scales_o, UINT16_TOP,
                            2 * iteration + 1 - p)
            elif average_weight > 0.0:
                for k in range(count):
                    r = source[first + k]
                    for h in range(n_o):
                        cum_o[row + k, h] += weight * cfreach[r, h]


@numba.njit(cache=True, nogil=True)
def _reach_root(weights_o: Floats, cfreach: Floats, source: Ints, slot: Ints) -> None:
    """The root's reach row: the opponent's range weights."""
    r = slot[0]
    for h in range(weights_o.shape[0]):
        cfreach[r, h] = weights_o[h]
    source[0] = r


@numba.njit(cache=True, nogil=True)
def _terminal_or_chance(n: int, p: int, nodes: Ints, amounts: Floats, isomorphic: Ints,
                        mine: tuple, theirs: tuple,  # type: ignore[type-arg]
                        cfreach: Floats, source: Ints, cfv: Floats, scratch: Floats,
                        slot: Ints, base: int) -> None:
    """The values of a fold, showdown, value or chance node (the same in every pass)."""
    kind = nodes[n, 0]
    cards_p = mine[CARDS]
    n_p = cards_p.shape[0]
    v = _row(slot, n, base)
    if kind == _FOLD:
        folder = nodes[n, 1]
        stake = amounts[n, folder]
        fold_values(cfreach, source[n], theirs[FOLD_ENTRIES], theirs[FOLD_OFFSETS],
                    theirs[CARDS].shape[0], mine[FOLD_CARDS], mine[SAME],
                    -stake if folder == p else stake, scratch, cfv, v)
    elif kind == _SHOWDOWN:
        showdown_values(cfreach, source[n], nodes[n, 4], theirs[ORDER], theirs[N_VALID],
                        theirs[ENTRIES], theirs[OFFSETS], mine[ORDER], mine[N_VALID],
                        mine[CUTS], n_p, amounts[n, 0], scratch, cfv, v)
    elif kind == _VALUE:
        row = nodes[n, 6]
        r = source[n]
        if nodes[n, 1] == p:  # p's hand h wins values[row, h] from each compatible hand
            fold_values(cfreach, r, theirs[FOLD_ENTRIES], theirs[FOLD_OFFSETS],
                        theirs[CARDS].shape[0], mine[FOLD_CARDS], mine[SAME], 1.0, scratch,
                        cfv, v)
            values = mine[VALUES]
            for h in range(n_p):
                cfv[v, h] *= values[row, h]
        else:  # the owner is the opponent: its reach weighted by what each hand wins
            # (the node's reach row is its own: its parent is the opponent's decision)
            values = theirs[VALUES]
            for j in range(theirs[CARDS].shape[0]):
                cfreach[r, j] *= values[row, j]
            fold_values(cfreach, r, theirs[FOLD_ENTRIES], theirs[FOLD_OFFSETS],
                        theirs[CARDS].shape[0], mine[FOLD_CARDS], mine[SAME], -1.0, scratch,
                        cfv, v)
    else:  # chance: each card's values, for the hands that do not hold it
        for h in range(n_p):
            cfv[v, h] = 0.0
        first = nodes[n, 2]
        for k in range(nodes[n, 3]):
            c = first + k
            r = _row(slot, c, base)
            card = nodes[c, 5]
            for h in range(n_p):
                if cards_p[h, 0] != card and cards_p[h, 1] != card:
                    cfv[v, h] += cfv[r, h]
        swaps_p = mine[SWAPS]
        for e in range(nodes[n, 7], nodes[n, 8]):
            r = _row(slot, isomorphic[e, 0], base)
            card = isomorphic[e, 1]
            swap = isomorphic[e, 2]
            for h in range(n_p):
                if cards_p[h, 0] != card and cards_p[h, 1] != card:
                    cfv[v, h] += cfv[r, swaps_p[swap, h]]


@numba.njit(cache=True, nogil=True)
def _update_nodes(order: Ints, start: int, stop: int, p: int, nodes: Ints, amounts: Floats,
                  isomorphic: Ints, mine: tuple, theirs: tuple,  # type: ignore[type-arg]
                  regrets_p: Floats, regret_scales_p: Scales, cfreach: Floats,
                  source: Ints, cfv: Floats, sigma: Floats, scratch: Floats,
                  regret_weight: float, floor: bool,
                  discount: bool, positive_factor: float, negative_factor: float,
                  lock_at: Ints, locks_p: Floats, slot: Ints, base: int) -> None:
    """``p``'s values and regret updates at the nodes ``order[start:stop]``, children first.

    ``R += regret_weight * (cfv(child) - cfv(node))`` at ``p``'s nodes, then floored at 0
    (``floor``, CFR+) or discounted by sign (``discount``, DCFR). Locked nodes and hands
    play their locked rows; their regrets still move but are never read. Compressed
    regrets (``regret_scales_p`` not empty) are decoded, updated alike and encoded again.
    """
    n_p = mine[CARDS].shape[0]
    compressed = regret_scales_p.shape[0] > 0
    # in the work arrays' dtype (see regret_match)
    zero = cfv.dtype.type(0.0)
    weight = cfv.dtype.type(regret_weight)
    positive = cfv.dtype.type(positive_factor)
    negative = cfv.dtype.type(negative_factor)
    for i in range(stop - 1, start - 1, -1):
        n = order[i]
        if nodes[n, 0] != _DECISION:
            _terminal_or_chance(n, p, nodes, amounts, isomorphic, mine, theirs, cfreach,
                                source, cfv, scratch, slot, base)
            continue
        first = nodes[n, 2]
        count = nodes[n, 3]
        v = _row(slot, n, base)
        r = _row(slot, first, base)
        if nodes[n, 1] != p:
            for h in range(n_p):
                cfv[v, h] = cfv[r, h]
            for k in range(1, count):
                r = _row(slot, first + k, base)
                for h in range(n_p):
                    cfv[v, h] += cfv[r, h]
            continue
        row = nodes[n, 6]
        regret_match(regrets_p, row, count, n_p, sigma)
        apply_lock(lock_at, locks_p, n, count, n_p, sigma)
        for h in range(n_p):
            cfv[v, h] = sigma[0, h] * cfv[r, h]
        for k in range(1, count):
            r = _row(slot, first + k, base)
            for h in range(n_p):
                cfv[v, h] += sigma[k, h] * cfv[r, h]
        if compressed:  # the new regrets in sigma (read above, free now), then encoded
            scale = regret_scales_p[row]
            for k in range(count):
                r = _row(slot, first + k, base)
                for h in range(n_p):
                    x = regrets_p[row + k, h] * scale + weight * (cfv[r, h] - cfv[v, h])
                    if floor:
                        x = max(x, zero)
                    elif discount:
                        x *= positive if x >= zero else negative
                    sigma[k, h] = x
            encode_node(sigma, count, n_p, regrets_p, row, regret_scales_p, INT16_TOP, MINUS_ONE)
            continue
        for k in range(count):
            r = _row(slot, first + k, base)
            if floor:
                for h in range(n_p):
                    regrets_p[row + k, h] = max(
                        regrets_p[row + k, h] + weight * (cfv[r, h] - cfv[v, h]), zero)
            elif discount:
                for h in range(n_p):
                    x = regrets_p[row + k, h] + weight * (cfv[r, h] - cfv[v, h])
                    regrets_p[row + k, h] = x * (positive if x >= zero else negative)
            else:
                for h in range(n_p):
                    regrets_p[row + k, h] += weight * (cfv[r, h] - cfv[v, h])


@numba.njit(cache=True, nogil=True)
def cfr_top_down(p: int, nodes: Ints, amounts: Floats, theirs: tuple,  # type: ignore[type-arg]
                 regrets_o: Floats, cum_o: Floats, sum_scales_o: Scales, cfreach: Floats,
                 source: Ints, sigma: Floats, average_weight: float, lock_at: Ints,
                 locks_o: Floats, slot: Ints, top: Ints, iteration: int) -> None:
    """A CFR update's first step: the opponent's reach through the nodes above the units."""
    _reach_root(theirs[WEIGHTS], cfreach, source, slot)
    _reach_nodes(top, I0, top.shape[0], p, nodes, amounts, theirs[CARDS], regrets_o,
                 regrets_o, YES, cum_o, sum_scales_o, average_weight, cfreach, source, sigma,
                 lock_at, locks_o, slot, I0, NO, iteration)


@numba.njit(cache=True, nogil=True)
def cfr_units(units: Ints, unit_nodes: Ints, unit_offsets: Ints, p: int, nodes: Ints,
              amounts: Floats, isomorphic: Ints, mine: tuple, theirs: tuple,  # type: ignore[type-arg]
              regrets_p: Floats, regret_scales_p: Scales, regrets_o: Floats, cum_o: Floats,
              sum_scales_o: Scales, cfreach: Floats, source: Ints, cfv: Floats,
              sigma: Floats, scratch: Floats, regret_weight: float, average_weight: float,
              floor: bool, discount: bool, positive_factor: float, negative_factor: float,
              lock_at: Ints, locks_p: Floats, locks_o: Floats, slot: Ints,
              base: int, iteration: int) -> None:
    """A CFR update inside each unit of ``units``: reach down, then values and regrets up.

    Units share no node, row or reach entry, so threads may run disjoint lists at once,
    each in its own scratch area (``base``).
    """
    for u in units:
        start = unit_offsets[u]
        stop = unit_offsets[u + 1]
        _reach_nodes(unit_nodes, start, stop, p, nodes, amounts, theirs[CARDS], regrets_o,
                     regrets_o, YES, cum_o, sum_scales_o, average_weight, cfreach, source,
                     sigma, lock_at, locks_o, slot, base, NO, iteration)
        _update_nodes(unit_nodes, start, stop, p, nodes, amounts, isomorphic, mine, theirs,
                      regrets_p, regret_scales_p, cfreach, source, cfv, sigma, scratch,
                      regret_weight, floor, discount, positive_factor, negative_factor,
                      lock_at, locks_p, slot, base)


@numba.njit(cache=True, nogil=True)
def cfr_top_up(p: int, nodes: Ints, amounts: Floats, isomorphic: Ints,
               mine: tuple, theirs: tuple,  # type: ignore[type-arg]
               regrets_p: Floats, regret_scales_p: Scales, cfreach: Floats, source: Ints,
               cfv: Floats, sigma: Floats, scratch: Floats, regret_weight: float,
               floor: bool, discount: bool, positive_factor: float, negative_factor: float,
               lock_at: Ints, locks_p: Floats, slot: Ints, top: Ints) -> None:
    """A CFR update's last step: values and regrets of the nodes above the units."""
    _update_nodes(top, I0, top.shape[0], p, nodes, amounts, isomorphic, mine, theirs, regrets_p,
                  regret_scales_p, cfreach, source, cfv, sigma, scratch, regret_weight, floor,
                  discount, positive_factor, negative_factor, lock_at, locks_p, slot, I0)


@numba.njit(cache=True, nogil=True)
def cfr_pass(p: int, nodes: Ints, amounts: Floats, isomorphic: Ints,
             mine: tuple, theirs: tuple,  # type: ignore[type-arg]
             regrets_p: Floats, regret_scales_p: Scales, regrets_o: Floats, cum_o: Floats,
             sum_scales_o: Scales, cfreach: Floats, source: Ints, cfv: Floats,
             sigma: Floats, scratch: Floats, regret_weight: float,
             average_weight: float, floor: bool, discount: bool, positive_factor: float,
             negative_factor: float, lock_at: Ints, locks_p: Floats, locks_o: Floats,
             slot: Ints, base: int, top: Ints, unit_nodes: Ints, unit_offsets: Ints,
             all_units: Ints, iteration: int) -> None:
    """One CFR update of player ``p``: regrets of ``p``, strategy sums of the opponent.

    Top-down, the opponent plays regret matching and its reach-weighted strategy is added
    to its sums (``average_weight``); bottom-up, ``p``'s counterfactual values are computed
    and ``p``'s regrets updated. The nodes come as a :class:`~pokerlab.subgame.units.Units`
    split (``top``, then each unit down and up in the scratch area at ``base``, then
    ``top`` up); every node's arithmetic is the same whatever the split and the layout,
    so the threaded passes give the same numbers.
    """
    cfr_top_down(p, nodes, amounts, theirs, regrets_o, cum_o, sum_scales_o, cfreach, source,
                 sigma, average_weight, lock_at, locks_o, slot, top, iteration)
    cfr_units(all_units, unit_nodes, unit_offsets, p, nodes, amounts, isomorphic, mine,
              theirs, regrets_p, regret_scales_p, regrets_o, cum_o, sum_scales_o, cfreach,
              source, cfv, sigma, scratch, regret_weight, average_weight, floor, discount,
              positive_factor, negative_factor, lock_at, locks_p, locks_o, slot, base,
              iteration)
    cfr_top_up(p, nodes, amounts, isomorphic, mine, theirs, regrets_p, regret_scales_p,
               cfreach, source, cfv, sigma, scratch, regret_weight, floor, discount,
               positive_factor, negative_factor, lock_at, locks_p, slot, top)


@numba.njit(cache=True, nogil=True)
def _evaluate_nodes(order: Ints, start: int, stop: int, p: int, nodes: Ints,
                    amounts: Floats, isomorphic: Ints,
                    mine: tuple, theirs: tuple,  # type: ignore[type-arg]
                    strategy_p: Floats, best_response: bool, cfreach: Floats, source: Ints,
                    cfv: Floats, scratch: Floats, lock_at: Ints, locks_p: Floats,
                    slot: Ints, base: int) -> None:
    """``p``'s values at the nodes ``order[start:stop]``, children first.

    ``p`` plays ``strategy_p``, or a best response (the largest child value per hand) with
    ``best_response``; a best response plays ``p``'s locked rows where a node is locked
    (``lock_at``, ``locks_p``: it may deviate only where it is free).
    """
    n_p = mine[CARDS].shape[0]
    for i in range(stop - 1, start - 1, -1):
        n = order[i]
        if nodes[n, 0] != _DECISION:
            _terminal_or_chance(n, p, nodes, amounts, isomorphic, mine, theirs, cfreach,
                                source, cfv, scratch, slot, base)
            continue
        first = nodes[n, 2]
        count = nodes[n, 3]
        v = _row(slot, n, base)
        r = _row(slot, first, base)
        for h in range(n_p):
            cfv[v, h] = cfv[r, h]
        if nodes[n, 1] != p:
            for k in range(1, count):
                r = _row(slot, first + k, base)
                for h in range(n_p):
                    cfv[v, h] += cfv[r, h]
        elif best_response:
            for k in range(1, count):
                r = _row(slot, first + k, base)
                for h in range(n_p):
                    cfv[v, h] = max(cfv[v, h], cfv[r, h])
            if n < lock_at.shape[0] and lock_at[n] >= 0:
                locked = lock_at[n]
                for h in range(n_p):
                    if locks_p[locked, h] == locks_p[locked, h]:  # not NaN: locked hand
                        cfv[v, h] = 0.0
                        for k in range(count):
                            r = _row(slot, first + k, base)
                            cfv[v, h] += locks_p[locked + k, h] * cfv[r, h]
        else:
            row = nodes[n, 6]
            for h in range(n_p):
                cfv[v, h] *= strategy_p[row, h]
            for k in range(1, count):
                r = _row(slot, first + k, base)
                for h in range(n_p):
                    cfv[v, h] += strategy_p[row + k, h] * cfv[r, h]


@numba.njit(cache=True, nogil=True)
def evaluate_top_down(p: int, nodes: Ints, amounts: Floats,
                      theirs: tuple,  # type: ignore[type-arg]
                      strategy_o: Floats, cfreach: Floats, source: Ints, sigma: Floats,
                      lock_at: Ints, locks_o: Floats, slot: Ints, normalized: bool,
                      top: Ints) -> None:
    """An evaluation's first step: the opponent's reach through the nodes above the units.

    The opponent plays ``strategy_o`` as given (its locks are in it), or with
    ``normalized`` its strategy sums normalized with its locks ``locks_o`` written in.
    """
    _reach_root(theirs[WEIGHTS], cfreach, source, slot)
    no_scales = np.zeros(0, dtype=np.float32)  # nothing is added to strategy sums here
    _reach_nodes(top, I0, top.shape[0], p, nodes, amounts, theirs[CARDS], strategy_o,
                 strategy_o, NO, strategy_o, no_scales, 0.0, cfreach, source, sigma,
                 lock_at, locks_o, slot, I0, normalized, I0)


@numba.njit(cache=True, nogil=True)
def evaluate_units(units: Ints, unit_nodes: Ints, unit_offsets: Ints, p: int, nodes: Ints,
                   amounts: Floats, isomorphic: Ints,
                   mine: tuple, theirs: tuple,  # type: ignore[type-arg]
                   strategy_p: Floats, strategy_o: Floats, best_response: bool,
                   cfreach: Floats, source: Ints, cfv: Floats, sigma: Floats,
                   scratch: Floats, lock_at: Ints, locks_p: Floats, locks_o: Floats,
                   slot: Ints, base: int, normalized: bool) -> None:
    """An evaluation inside each unit of ``units``: reach down, then values up."""
    no_scales = np.zeros(0, dtype=np.float32)  # nothing is added to strategy sums here
    for u in units:
        start = unit_offsets[u]
        stop = unit_offsets[u + 1]
        _reach_nodes(unit_nodes, start, stop, p, nodes, amounts, theirs[CARDS], strategy_o,
                     strategy_o, NO, strategy_o, no_scales, 0.0, cfreach, source, sigma,
                     lock_at, locks_o, slot, base, normalized, I0)
        _evaluate_nodes(unit_nodes, start, stop, p, nodes, amounts, isomorphic, mine, theirs,
                        strategy_p, best_response, cfreach, source, cfv, scratch, lock_at,
                        locks_p, slot, base)


@numba.njit(cache=True, nogil=True)
def evaluate_top_up(p: int, nodes: Ints, amounts: Floats, isomorphic: Ints,
                    mine: tuple, theirs: tuple,  # type: ignore[type-arg]
                    strategy_p: Floats, best_response: bool, cfreach: Floats, source: Ints,
                    cfv: Floats, scratch: Floats, lock_at: Ints, locks_p: Floats,
                    slot: Ints, top: Ints) -> None:
    """An evaluation's last step: the values of the nodes above the units."""
    _evaluate_nodes(top, I0, top.shape[0], p, nodes, amounts, isomorphic, mine, theirs,
                    strategy_p, best_response, cfreach, source, cfv, scratch, lock_at,
                    locks_p, slot, I0)


@numba.njit(cache=True, nogil=True)
def evaluate_pass(p: int, nodes: Ints, amounts: Floats, isomorphic: Ints,
                  mine: tuple, theirs: tuple,  # type: ignore[type-arg]
                  strategy_p: Floats, strategy_o: Floats, best_response: bool,
                  cfreach: Floats, source: Ints, cfv: Floats, sigma: Floats,
                  scratch: Floats, lock_at: Ints, locks_p: Floats, locks_o: Floats,
                  slot: Ints, base: int, normalized: bool, top: Ints, unit_nodes: Ints,
                  unit_offsets: Ints, all_units: Ints) -> None:
    """Counterfactual values of ``p`` at every node against the opponent's ``strategy_o``.

    ``cfreach`` (through ``source``) and ``cfv`` are left filled at the rows ``slot``
    gives (every node's, in the full layout). With ``normalized``, ``strategy_o`` is the
    opponent's strategy sums (see :func:`evaluate_top_down`). The steps are
    :func:`evaluate_top_down`, :func:`evaluate_units` and :func:`evaluate_top_up`.
    """
    evaluate_top_down(p, nodes, amounts, theirs, strategy_o, cfreach, source, sigma, lock_at,
                      locks_o, slot, normalized, top)
    evaluate_units(all_units, unit_nodes, unit_offsets, p, nodes, amounts, isomorphic, mine,
                   theirs, strategy_p, strategy_o, best_response, cfreach, source, cfv, sigma,
                   scratch, lock_at, locks_p, locks_o, slot, base, normalized)
    evaluate_top_up(p, nodes, amounts, isomorphic, mine, theirs, strategy_p, best_response,
                    cfreach, source, cfv, scratch, lock_at, locks_p, slot, top)


@numba.njit(cache=True, nogil=True)
def cfr_iterations(count: int, schedule: Floats, nodes: Ints, amounts: Floats,
                   isomorphic: Ints, hands0: tuple, hands1: tuple,  # type: ignore[type-arg]
                   regrets0: Floats, regrets1: Floats, sums0: Floats, sums1: Floats,
                   regret_scales0: Scales, regret_scales1: Scales, sum_scales0: Scales,
                   sum_scales1: Scales, cfreach: Floats, source: Ints, cfv: Floats, sigma: Floats,
                   scratch: Floats, floor: bool, discount: bool, lock_at: Ints,
                   locks0: Floats, locks1: Floats, slot: Ints, base: int, top: Ints,
                   unit_nodes: Ints, unit_offsets: Ints, all_units: Ints,
                   first: int) -> None:
    """``count`` alternating iterations on one thread: player 0's update, then player 1's.

    ``schedule[i]`` holds the ``i``-th iteration's ``(regret_weight, average_weight,
    positive_factor, negative_factor)``; ``lock_at``, ``locks0`` and ``locks1`` are the
    locked nodes (:class:`~pokerlab.subgame.node_lock.LockTable`); the scales are those
    of compressed storage (empty for floats); ``first`` is the first iteration's number.
    """
    for i in range(count):
        regret_weight = schedule[i, 0]
        average_weight = schedule[i, 1]
        positive = schedule[i, 2]
        negative = schedule[i, 3]
        cfr_pass(I0, nodes, amounts, isomorphic, hands0, hands1, regrets0, regret_scales0,
                 regrets1, sums1, sum_scales1, cfreach, source, cfv, sigma, scratch,
                 regret_weight, average_weight, floor, discount, positive, negative, lock_at,
                 locks0, locks1, slot, base, top, unit_nodes, unit_offsets, all_units,
                 first + i)
        cfr_pass(I1, nodes, amounts, isomorphic, hands1, hands0, regrets1, regret_scales1,
                 regrets0, sums0, sum_scales0, cfreach, source, cfv, sigma, scratch,
                 regret_weight, average_weight, floor, discount, positive, negative, lock_at,
                 locks1, locks0, slot, base, top, unit_nodes, unit_offsets, all_units,
                 first + i)


@numba.njit(cache=True, nogil=True)
def normalize_rows(nodes: Ints, player: int, sums: Floats, out: Floats, start: int,
                   stop: int) -> None:
    """``out`` = ``sums`` normalized over each decision node's actions (uniform if 0).

    Nodes ``start..stop-1`` only (threads share a tree by node ranges).
    """
    n_hands = sums.shape[1]
    for n in range(start, stop):
        if nodes[n, 0] != _DECISION or nodes[n, 1] != player:
            continue
        row = nodes[n, 6]
        average_rows(sums, row, nodes[n, 3], n_hands, out, row)


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
def average_over_sums(nodes: Ints, order: Ints, sums: NDArray[Any], out: NDArray[Any],
                      copy: Floats) -> None:
    """``out`` = ``sums`` normalized, where ``out`` lies over ``sums`` in memory.

    The decision nodes come in ``order`` (increasing rows); each node's sums are copied to
    ``copy`` before its rows of ``out`` are written (compressed storage's finish:
    :func:`pokerlab.subgame.storage.finish_in_place`).
    """
    n_hands = sums.shape[1]
    for n in order:
        row = nodes[n, 6]
        count = nodes[n, 3]
        for k in range(count):
            for h in range(n_hands):
                copy[k, h] = sums[row + k, h]
        average_rows(copy, I0, count, n_hands, out, row)
