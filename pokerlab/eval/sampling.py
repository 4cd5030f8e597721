"""The fast path of matches: whole hands sampled on the compiled tree, and the control variate.

When every agent is policy-backed and the game compiles, hands are sampled with numpy over
the flat arrays (one vectorized step per tree level for all hands at once) instead of
asking agents one decision at a time. Chance takes the dealer's uniforms
(:func:`pokerlab.play.dealer.chance_uniforms`) by the same inverse CDF, so a deal gets the
same cards on both paths; decisions draw from a generator of their own.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import overload

import numpy as np

from pokerlab._cache import SpecCache
from pokerlab._types import CHANCE, TERMINAL, Action, FloatArray, IntArray
from pokerlab.eval.expected_value import expected_value
from pokerlab.games.base import Game
from pokerlab.play.dealer import chance_uniforms
from pokerlab.play.records import HandRecord
from pokerlab.strategy import Strategy
from pokerlab.tree import CompiledTree, compile


@dataclass(frozen=True, eq=False)
class _Sampler:
    """Per-tree arrays of the fast path, cached by spec."""

    tree: CompiledTree
    terminal_row: IntArray  # [H] row in terminal_payoffs, -1 elsewhere
    max_chance: int  # largest number of chance events on a path
    chance_row: IntArray  # [H] row of a chance node in chance_cum, -1 elsewhere
    chance_cum: FloatArray  # [C, widest] running sums of the children's probabilities
    child_lookup: dict[tuple[int, int], int] = field(default_factory=dict)


_SAMPLERS: SpecCache[_Sampler] = SpecCache("eval.sampler", maxsize=16)


def _sampler(game: Game) -> _Sampler:
    cached = _SAMPLERS.get(game.spec)
    if cached is not None:
        return cached
    tree = compile(game)
    h = tree.n_histories
    terminal_row = np.full(h, -1, dtype=np.int64)
    terminal_row[tree.terminal_ids] = np.arange(tree.n_terminals)
    chance_parent = np.zeros(h, dtype=bool)
    chance_parent[1:] = tree.player[tree.parent[1:]] == CHANCE
    count = np.zeros(h, dtype=np.int64)
    offsets = tree.level_offsets
    for d in range(1, len(offsets) - 1):
        lo, hi = int(offsets[d]), int(offsets[d + 1])
        count[lo:hi] = count[tree.parent[lo:hi]] + chance_parent[lo:hi]
    # Running sums of each chance node's children, added left to right exactly as the
    # dealer adds them (sample_chance), so both pick the same outcome from a uniform.
    chance_nodes = np.flatnonzero(tree.player == CHANCE)
    chance_row = np.full(h, -1, dtype=np.int64)
    chance_row[chance_nodes] = np.arange(chance_nodes.size)
    widths = tree.n_children[chance_nodes]
    widest = int(widths.max()) if chance_nodes.size else 1
    cum = np.full((chance_nodes.size, widest), np.inf)
    running = np.zeros(chance_nodes.size)
    for k in range(widest):
        rows = np.flatnonzero(widths > k)
        running[rows] += tree.chance_prob[tree.first_child[chance_nodes[rows]] + k]
        cum[rows, k] = running[rows]
    sampler = _Sampler(tree, terminal_row, int(count.max()), chance_row, cum)
    _SAMPLERS.put(game.spec, sampler)
    return sampler


def _edge_probabilities(tree: CompiledTree, probs: FloatArray) -> FloatArray:
    """``[H]`` probability of the edge into each history under the profile ``probs``."""
    edge = tree.chance_prob.copy()
    parent = tree.parent[1:]
    decided = tree.player[parent] >= 0
    rows = np.flatnonzero(decided) + 1
    edge[rows] = probs[tree.infoset[tree.parent[rows]], tree.slot[rows]]
    return edge


def _search_keys(tree: CompiledTree, probs: FloatArray) -> FloatArray:
    """``[H-1]`` sorted keys ``parent + cumulative probability`` of children ``1..H-1``."""
    edge = _edge_probabilities(tree, probs)[1:]
    cum = np.cumsum(edge)
    parent = tree.parent[1:]
    start = tree.first_child[parent] - 1  # index of the group's first child in ``edge``
    before = np.where(start > 0, cum[np.maximum(start - 1, 0)], 0.0)
    within = np.minimum(cum - before, 1.0)
    last = tree.first_child[parent] + tree.n_children[parent] - 1
    within[np.arange(1, tree.n_histories) == last] = 1.0
    return parent.astype(np.float64) + within


def _walk(
    sampler: _Sampler, keys: FloatArray, chance_u: FloatArray, decision_u: FloatArray
) -> IntArray:
    """Sample one terminal history per row of the uniforms; return their history ids."""
    tree = sampler.tree
    n = chance_u.shape[0]
    nodes = np.zeros(n, dtype=np.int64)
    chance_count = np.zeros(n, dtype=np.int64)
    active = np.arange(n)
    step = 0
    player = tree.player
    while active.size:
        current = nodes[active]
        who = player[current]
        live = who != TERMINAL
        if not live.all():
            active, current, who = active[live], current[live], who[live]
            if not active.size:
                break
        is_chance = who == CHANCE
        child = np.empty(active.size, dtype=np.int64)
        deciding = np.flatnonzero(~is_chance)
        if deciding.size:
            u = decision_u[active[deciding], step]
            child[deciding] = np.searchsorted(keys, current[deciding] + u, side="right") + 1
        dealing = np.flatnonzero(is_chance)
        if dealing.size:
            rows = active[dealing]
            u = chance_u[rows, chance_count[rows]]
            chance_count[rows] += 1
            at = current[dealing]
            pick = (sampler.chance_cum[sampler.chance_row[at]] <= u[:, None]).sum(axis=1)
            pick = np.minimum(pick, tree.n_children[at] - 1)
            child[dealing] = tree.first_child[at] + pick
        nodes[active] = child
        step += 1
    return nodes


@dataclass(frozen=True)
class SampledHands:
    """Hands sampled by :func:`play_strategies`.

    Attributes:
        terminals: ``[hands]`` the terminal history id of each hand (compiled tree ids).
        returns: ``[hands, n_players]`` chips won by each seat.
    """

    terminals: IntArray
    returns: FloatArray


def play_strategies(
    game: Game,
    strategies: Sequence[Strategy],
    hands: int,
    seed: np.random.Generator | int | None = None,
    *,
    chance_uniforms: FloatArray | None = None,
) -> SampledHands:
    """Sample ``hands`` whole hands, ``strategies[s]`` playing seat ``s`` (the fast path).

    Walks the compiled tree's flat arrays for all hands at once, one depth per numpy
    step: at each history the child is chosen by inverse CDF of a uniform over the edge
    probabilities (chance probabilities, or the acting seat's strategy row).

    Args:
        game: a game small enough to compile.
        strategies: one strategy per seat (seat ``s`` plays its player-``s`` rows).
        hands: how many hands.
        seed: the generator (or its seed) of the uniforms.
        chance_uniforms: ``[hands, k]`` uniforms for the chance events (the dealer's, to
            share deals between hands); drawn from ``seed`` when None.

    Raises:
        StrategyMismatchError: if a strategy was made for another game.
        StrategyError: if there is not one strategy per seat.
    """
    for strategy in strategies:
        strategy.check_game(game)
    sampler = _sampler(game)
    tree = sampler.tree
    rng = np.random.default_rng(seed)
    profile = strategies[0].combine(list(strategies)).probs
    keys = _search_keys(tree, profile)
    if chance_uniforms is None:
        chance_uniforms = rng.random((hands, max(sampler.max_chance, 1)))
    decision_u = rng.random((hands, tree.depth + 1))
    terminals = _walk(sampler, keys, chance_uniforms, decision_u)
    payoffs = tree.terminal_payoffs[sampler.terminal_row[terminals]]
    return SampledHands(terminals, payoffs)


class _LazyRecords(Sequence[HandRecord]):
    """Hand records of a sampled match, built on access."""

    def __init__(
        self,
        tree: CompiledTree,
        terminals: IntArray,
        deals: IntArray,
        seatings: IntArray,
        returns: FloatArray,
        *,
        first_hand: int = 0,
    ) -> None:
        self._first_hand = first_hand
        self._tree = tree
        self._terminals = terminals
        self._deals = deals
        self._seatings = seatings
        self._returns = returns

    def __len__(self) -> int:
        return int(self._terminals.shape[0])

    @overload
    def __getitem__(self, index: int) -> HandRecord: ...

    @overload
    def __getitem__(self, index: slice) -> list[HandRecord]: ...

    def __getitem__(self, index: int | slice) -> HandRecord | list[HandRecord]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return HandRecord(
            hand=self._first_hand + index,
            deal=int(self._deals[index]),
            seats=tuple(int(a) for a in self._seatings[index]),
            returns=tuple(float(r) for r in self._returns[index]),
            history=self._tree.history_actions(int(self._terminals[index])),
        )


# -- control variate -----------------------------------------------------------------------


def _history_values(tree: CompiledTree, probs: FloatArray) -> FloatArray:
    """``[H, n_players]`` exact expected returns of every history under ``probs``."""
    edge = _edge_probabilities(tree, probs)
    values = np.zeros((tree.n_histories, tree.n_players))
    values[tree.terminal_ids] = tree.terminal_payoffs
    offsets = tree.level_offsets
    for d in range(len(offsets) - 2, 0, -1):
        lo, hi = int(offsets[d]), int(offsets[d + 1])
        np.add.at(values, tree.parent[lo:hi], values[lo:hi] * edge[lo:hi, None])
    return values


def chance_luck(tree: CompiledTree, reference: FloatArray) -> FloatArray:
    """``[H, n_players]`` sum over the chance edges above each history of ``V(child) - V(node)``.

    ``V`` is the exact value under the ``reference`` profile; at a terminal history this
    is the control variate of the hand: its expectation is exactly 0 for any agents.
    """
    values = _history_values(tree, reference)
    luck = np.zeros_like(values)
    offsets = tree.level_offsets
    for d in range(1, len(offsets) - 1):
        lo, hi = int(offsets[d]), int(offsets[d + 1])
        parent = tree.parent[lo:hi]
        step = values[lo:hi] - values[parent]
        step[tree.player[parent] != CHANCE] = 0.0
        luck[lo:hi] = luck[parent] + step
    return luck


def _terminal_of(sampler: _Sampler, history: Sequence[Action]) -> int:
    tree = sampler.tree
    node = 0
    lookup = sampler.child_lookup
    for action in history:
        key = (node, action)
        child = lookup.get(key)
        if child is None:
            first = int(tree.first_child[node])
            children = tree.action[first : first + int(tree.n_children[node])]
            child = first + int(np.flatnonzero(children == action)[0])
            lookup[key] = child
        node = child
    return node


def _deal_groups(deals: IntArray) -> tuple[IntArray, IntArray]:
    """``(group of each hand, hands per group)`` of the distinct deals, in deal order.

    Matches schedule a deal's hands next to each other, so ``deals`` is usually sorted:
    then the groups are found in one pass instead of by sorting (``np.unique``).
    """
    deals = np.asarray(deals)
    if deals.size and bool(np.all(deals[1:] >= deals[:-1])):
        starts = np.empty(deals.size, dtype=bool)
        starts[0] = True
        np.not_equal(deals[1:], deals[:-1], out=starts[1:])
        inverse = np.cumsum(starts) - 1
        counts = np.diff(np.append(np.flatnonzero(starts), deals.size))
        return inverse, counts
    _, inverse, counts = np.unique(deals, return_inverse=True, return_counts=True)
    return inverse, counts


def deal_units(values: FloatArray, deals: IntArray) -> FloatArray:
    """Means over the hands sharing a deal (the independent units of a rotated match).

    ``values`` is ``[hands]`` or ``[hands, k]``; the result has one row per distinct deal.
    """
    inverse, counts = _deal_groups(deals)
    if values.ndim == 1:
        return np.bincount(inverse, weights=values) / counts
    return np.stack(
        [np.bincount(inverse, weights=values[:, j]) / counts for j in range(values.shape[1])],
        axis=1,
    )


def sample_match(
    game: Game,
    strategies: Sequence[Strategy],
    seatings: IntArray,
    deals: IntArray,
    *,
    seed: int,
    rng: np.random.Generator,
) -> tuple[IntArray, FloatArray]:
    """Sample hands on the compiled tree; ``seatings[i, s]`` is the agent in seat ``s``.

    Chance takes the dealer's stream of each hand's deal (:func:`chance_uniforms` with
    ``seed``); agent ``a`` plays ``strategies[a]``. Returns the terminal history ids and
    the chips won by each seat.
    """
    sampler = _sampler(game)
    chance_u = chance_uniforms(seed, deals, max(sampler.max_chance, 1))
    hands = seatings.shape[0]
    terminals = np.empty(hands, dtype=np.int64)
    returns = np.empty((hands, game.n_players))
    for seating, rows in _seating_groups(seatings):
        sampled = play_strategies(
            game,
            [strategies[int(a)] for a in seating],
            int(rows.size),
            rng,
            chance_uniforms=chance_u[rows],
        )
        terminals[rows] = sampled.terminals
        returns[rows] = sampled.returns
    return terminals, returns


def _seating_groups(seatings: IntArray) -> list[tuple[IntArray, IntArray]]:
    """The distinct rows of ``seatings`` with the hands that use each (a table has few)."""
    n = seatings.shape[1]
    codes = seatings @ (n ** np.arange(n, dtype=np.int64))
    distinct, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
    return [(seatings[first[g]], np.flatnonzero(inverse == g)) for g in range(distinct.size)]


def seat_returns_to_agents(returns: FloatArray, seatings: IntArray) -> FloatArray:
    """``[hands, n]`` chips by agent from chips by seat (``seatings[i, s]`` = agent in seat s)."""
    out = np.empty_like(returns)
    rows = np.arange(returns.shape[0])[:, None]
    out[rows, seatings] = returns
    return out


def exact_values(
    game: Game, strategies: Sequence[Strategy], seatings: IntArray
) -> tuple[float, ...]:
    """Each agent's exact chips per hand, averaged over the seatings of the hands played."""
    n = game.n_players
    totals = np.zeros(n)
    for seating, rows in _seating_groups(seatings):
        values = expected_value(game, [strategies[int(a)] for a in seating])
        for seat, agent in enumerate(seating):
            totals[int(agent)] += rows.size * values[seat]
    means = totals / seatings.shape[0]
    return tuple(0.0 if math.isclose(v, 0.0, abs_tol=1e-12) else float(v) for v in means)


__all__ = [
    "SampledHands",
    "chance_luck",
    "deal_units",
    "exact_values",
    "play_strategies",
    "sample_match",
    "seat_returns_to_agents",
]
