"""The fast path of matches: whole hands sampled on the compiled tree, and the control variate.

When both agents are strategy-backed, hands are sampled with numpy over the flat arrays
(one vectorized step per tree level for all hands at once) instead of asking agents one
decision at a time; the AIVAT-style chance control variate is computed here too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import overload

import numpy as np

from pokerlab._types import CHANCE, TERMINAL, Action, FloatArray, IntArray
from pokerlab.errors import PokerlabError
from pokerlab.eval.records import HandRecord, Seats, _check_seats
from pokerlab.games.base import Game
from pokerlab.strategy import Strategy
from pokerlab.tree import CompiledTree, compile

# -- the fast path: whole hands sampled on the compiled tree -------------------------------


@dataclass(frozen=True, eq=False)
class _Sampler:
    """Per-tree arrays of the fast path, cached by spec."""

    tree: CompiledTree
    terminal_row: IntArray  # [H] row in terminal_payoffs, -1 elsewhere
    chance_parent: np.ndarray  # [H] bool: the edge into the node is a chance edge
    max_chance: int  # largest number of chance events on a path
    child_lookup: dict[tuple[int, int], int] = field(default_factory=dict)


_SAMPLERS: dict[object, _Sampler] = {}


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
    sampler = _Sampler(tree, terminal_row, chance_parent, int(count.max()))
    _SAMPLERS[game.spec] = sampler
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
        u = decision_u[active, step]
        if is_chance.any():
            rows = np.flatnonzero(is_chance)
            u[rows] = chance_u[active[rows], chance_count[active[rows]]]
            chance_count[active[rows]] += 1
        child = np.searchsorted(keys, current + u, side="right") + 1
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
    s1: Strategy,
    s2: Strategy,
    hands: int,
    seed: np.random.Generator | int | None = None,
    *,
    chance_uniforms: FloatArray | None = None,
) -> SampledHands:
    """Sample ``hands`` whole hands with ``s1`` in seat 0 and ``s2`` in seat 1 (fast path).

    Walks the compiled tree's flat arrays for all hands at once, one depth per numpy
    step: at each history the child is chosen by inverse CDF of a uniform over the edge
    probabilities (chance probabilities, or the acting seat's strategy row).

    Args:
        game: a two-player game small enough to compile.
        s1: the strategy of seat 0 (its player-0 rows are used).
        s2: the strategy of seat 1 (its player-1 rows are used).
        hands: how many hands.
        seed: the generator (or its seed) of the uniforms.
        chance_uniforms: ``[hands, k]`` uniforms for the chance events (shared between the
            two hands of a duplicate pair); drawn from ``seed`` when None.

    Raises:
        StrategyMismatchError: if a strategy was made for another game.
    """
    s1.check_game(game)
    s2.check_game(game)
    sampler = _sampler(game)
    tree = sampler.tree
    rng = np.random.default_rng(seed)
    profile = s1.combine([s1, s2]).probs if tree.n_players == 2 else s1.probs
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
        a_seats: IntArray,
        returns: FloatArray,
        *,
        first_hand: int = 0,
    ) -> None:
        self._first_hand = first_hand
        self._tree = tree
        self._terminals = terminals
        self._deals = deals
        self._a_seats = a_seats
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
        node = int(self._terminals[index])
        path = []
        while node > 0:
            path.append(int(self._tree.action[node]))
            node = int(self._tree.parent[node])
        seats = (0, 1) if self._a_seats[index] == 0 else (1, 0)
        return HandRecord(
            hand=self._first_hand + index,
            deal=int(self._deals[index]),
            seats=seats,
            returns=tuple(float(r) for r in self._returns[index]),
            history=tuple(reversed(path)),
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


def _pair_units(values: FloatArray, deals: IntArray) -> FloatArray:
    """Means over the hands sharing a deal (the independent units of a duplicate match)."""
    _, inverse, counts = np.unique(deals, return_inverse=True, return_counts=True)
    sums = np.bincount(inverse, weights=values)
    return sums / counts


def _sample_match(
    game: Game,
    sa: Strategy,
    sb: Strategy,
    a_seats: IntArray,
    deals: IntArray,
    rng: np.random.Generator,
) -> tuple[IntArray, FloatArray]:
    """Sample hands on the compiled tree; hands sharing a deal share the chance uniforms."""
    sampler = _sampler(game)
    first_deal = int(deals.min())
    chance_u = rng.random((int(deals.max()) - first_deal + 1, max(sampler.max_chance, 1)))
    hands = a_seats.shape[0]
    terminals = np.empty(hands, dtype=np.int64)
    returns = np.empty((hands, game.n_players))
    for seat in (0, 1):
        rows = np.flatnonzero(a_seats == seat)
        if not rows.size:
            continue
        first, second = (sa, sb) if seat == 0 else (sb, sa)
        sampled = play_strategies(
            game,
            first,
            second,
            int(rows.size),
            rng,
            chance_uniforms=chance_u[deals[rows] - first_deal],
        )
        terminals[rows] = sampled.terminals
        returns[rows] = sampled.returns
    return terminals, returns


def _schedule_arrays(index: IntArray, seats: Seats, duplicate: bool) -> tuple[IntArray, IntArray]:
    """``(deals, seat of agent a)`` of the hands ``index`` (see :func:`hand_schedule`)."""
    if seats == "first":
        return index.copy(), np.zeros_like(index)
    if seats == "second":
        return index.copy(), np.ones_like(index)
    return (index // 2 if duplicate else index.copy()), index % 2


def sample_hands(
    game: Game,
    sa: Strategy,
    sb: Strategy,
    *,
    start: int,
    stop: int,
    seats: Seats = "both",
    duplicate: bool = True,
    seed: int = 0,
) -> list[HandRecord]:
    """Sample hands ``start..stop-1`` of a strategy-vs-strategy match on the compiled tree.

    The arena's fast path: the result depends only on ``(seed, start, stop)``, so a batch
    replayed after a crash is the same batch. With duplicate hands, ``start`` and ``stop``
    must be even (both hands of a pair in the batch).

    Raises:
        PokerlabError: if a duplicate batch would split a pair.
    """
    _check_seats(seats)
    pairs = seats == "both" and duplicate
    if pairs and (start % 2 or stop % 2):
        raise PokerlabError(
            f"a duplicate batch must start and stop on even hands; got {start}..{stop}"
        )
    if stop <= start:
        return []
    index = np.arange(start, stop, dtype=np.int64)
    deals, a_seats = _schedule_arrays(index, seats, duplicate)
    rng = np.random.default_rng([seed, start, 0xFA57])
    terminals, returns = _sample_match(game, sa, sb, a_seats, deals, rng)
    tree = _sampler(game).tree
    return list(_LazyRecords(tree, terminals, deals, a_seats, returns, first_hand=start))


def _exact_value(game: Game, sa: Strategy, sb: Strategy, a_seats: IntArray) -> float:
    from pokerlab.eval.expected_value import expected_value

    total = 0.0
    weight = 0.0
    for seat in (0, 1):
        share = float(np.mean(a_seats == seat))
        if share == 0:
            continue
        profile = [sa, sb] if seat == 0 else [sb, sa]
        total += share * expected_value(game, profile)[seat]
        weight += share
    value = total / weight
    return 0.0 if math.isclose(value, 0.0, abs_tol=1e-12) else value
