"""External-sampling MCCFR with linear weighting over the betting tree's arrays (Leduc, Hold'em).

One iteration samples one deal (numpy, in batches, outside the kernels: see
:mod:`pokerlab.blueprint.deals`), gives every player their bucket at every street and a
showdown strength, then lets each player in turn traverse the betting tree in a numba kernel:
all of the traverser's actions are explored, one action of every other player is sampled from
its current strategy (regret matching). Regrets and strategy sums are dense arrays indexed
[row, action], a row being (decision node, bucket): float64, or float32 (``storage``) to
halve the tables of a large abstraction (the kernels compute in float64 and round each
update as they store it). Updates of iteration ``t`` are weighted by ``t`` (Linear CFR).
Nothing in the kernel assumes two players.

Negative-regret pruning (Pluribus, Brown and Sandholm 2019): once ``prune_after`` iterations
are done, 95% of the traversals skip the traverser's actions whose regret is below
``-prune_threshold * W``, ``W = t (t + 1) / 2`` the sum of the linear weights so far: an
action whose value was ``prune_threshold`` chips below the row's, on average over every
iteration. Rows reached less often rarely cross it (their regret sums fewer updates), so it
is cautious where the sampling is thin. Actions on the last street and actions that end the
hand are always explored (as published); a skipped action's regret is not updated in that
traversal. The other 5% explore everything, so a pruned action that would recover is found
again. Whether an iteration prunes is drawn from its own stream (a hash of the batch seed
and ``t``), so turning pruning on leaves the sampling of deals and actions unchanged.

Both cores: with ``threads > 1`` a batch of deals is split in ``threads`` chunks walked in
parallel (numba ``prange``) that update the shared tables without locks (the "Hogwild" scheme:
a lost update now and then is noise of the same order as the sampling). Single-threaded runs
are deterministic by seed; multi-threaded ones are not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab._numba import njit, numba, prange
from pokerlab.abstraction.card_abstraction import CardAbstraction
from pokerlab.blueprint.betting_tree import (
    DECISION,
    FOLDED_OUT,
    BettingRules,
    BettingTree,
    TreeSize,
    build_tree,
    tree_size,
)
from pokerlab.blueprint.deals import Dealer, dealer_for, default_rules
from pokerlab.cards.splitmix import GAMMA, unit
from pokerlab.errors import GameTooLargeError, SpecError
from pokerlab.eval.exploitability import exploitability
from pokerlab.games.base import Game
from pokerlab.solvers.base import compiled_or_none
from pokerlab.solvers.run_loop import RunLoop
from pokerlab.strategy.strategy import Strategy
from pokerlab.tree import CompiledTree, compile
from pokerlab.tree.compile import DEFAULT_MEMORY_LIMIT

PRUNE_PROBABILITY = 0.95
"""The share of traversals that prune, once pruning is on (Pluribus)."""

DEFAULT_BATCH = 4096
"""Deals per kernel call: ``pokerlab blueprint train --chunk``'s default, and the Hard AI's."""

_UNKNOWN: Any = object()
"""Marks the compiled tree for measuring as not looked for yet (None: too big)."""


@njit(cache=True)
def _unit(seed, t):  # type: ignore[no-untyped-def]
    """A uniform draw in [0, 1) fixed by (seed, t) (SplitMix64): whether iteration t prunes.

    Its own stream, so pruning on or off leaves the sampling of actions unchanged.
    """
    return unit(np.uint64(seed) * GAMMA + np.uint64(t))


@njit(cache=True, error_model="numpy")
def _run_chunk(first, seed, start, stop, step, prune_after, threshold, depth, kind, player, street,  # type: ignore[no-untyped-def]
               n_actions, children, pot, contributions, active, node_row, buckets, strength,
               regrets, strategy_sum):
    """Walk deals ``start, start + step, ...`` below ``stop``; every player traverses each.

    Deal ``i`` of the batch is iteration ``first + i + 1`` (its linear weight). One
    external-sampling traversal per player, iterative: the other players' nodes are passed
    through (regret matching, strategy sums, one sampled action), the traverser's push a
    frame (``frame_*[k]``, its per-action entries at ``k * width + a``) whose actions are
    all explored. A traversal with ``cutoff`` > -inf prunes: an action of the traverser with
    regret below the cutoff is skipped unless it is on the last street or its child ends
    the hand.

    Written as one function over scalars and the arguments' arrays, no helper taking an
    array in the loop: each array passed or sliced there costs an atomic reference count.
    """
    n_players = contributions.shape[1]
    width = children.shape[1]
    frame_node = np.zeros(depth, dtype=np.int64)
    frame_row = np.zeros(depth, dtype=np.int64)
    frame_next = np.zeros(depth, dtype=np.int64)
    sigma = np.zeros((depth + 1) * width)  # frames' strategies, then the other players' scratch
    values = np.zeros(depth * width)
    done = np.zeros(depth * width, dtype=np.bool_)
    scratch = depth * width
    last_street = street.max()
    for i in range(start, stop, step):
        t = first + i + 1
        weight = float(t)
        cutoff = -np.inf
        if threshold > 0.0 and t > prune_after and _unit(seed, t) < PRUNE_PROBABILITY:
            cutoff = -threshold * 0.5 * float(t) * float(t + 1)
        for p in range(n_players):
            node = 0
            top = -1
            while True:
                if kind[node] == DECISION:
                    q = player[node]
                    n = n_actions[node]
                    row = node_row[node] + buckets[i, q, street[node]]
                    at = scratch if q != p else (top + 1) * width
                    total = 0.0  # regret matching into sigma[at:at + n]
                    for a in range(n):
                        r = regrets[row, a]
                        positive = r if r > 0.0 else 0.0
                        sigma[at + a] = positive
                        total += positive
                    if total > 0.0:
                        for a in range(n):
                            sigma[at + a] = sigma[at + a] / total
                    else:
                        uniform = 1.0 / n
                        for a in range(n):
                            sigma[at + a] = uniform
                    if q != p:  # another player: add to its strategy sums, sample an action
                        for a in range(n):
                            strategy_sum[row, a] += weight * sigma[at + a]
                        u = np.random.random()  # noqa: NPY002 (numba's per-thread generator)
                        chosen = n - 1
                        for a in range(n):
                            u -= sigma[at + a]
                            if u < 0.0:
                                chosen = a
                                break
                        node = children[node, chosen]
                        continue
                    top += 1
                    frame_node[top] = node
                    frame_row[top] = row
                    frame_next[top] = 0
                else:  # a terminal: p's chips won
                    mine = contributions[node, p]
                    if not active[node, p]:
                        value = -mine
                    elif kind[node] == FOLDED_OUT:
                        value = pot[node] - mine
                    else:
                        best = -1
                        for q in range(n_players):
                            if active[node, q] and strength[i, q] > best:
                                best = strength[i, q]
                        if strength[i, p] < best:
                            value = -mine
                        else:
                            winners = 0
                            for q in range(n_players):
                                if active[node, q] and strength[i, q] == best:
                                    winners += 1
                            value = pot[node] / winners - mine
                    if top < 0:
                        break
                    up = top * width + frame_next[top]
                    values[up] = value
                    done[up] = True
                    frame_next[top] += 1
                # the next action to explore, closing the frames whose actions are all done
                while top >= 0:
                    here = frame_node[top]
                    n = n_actions[here]
                    a = frame_next[top]
                    at = top * width
                    if a == n:
                        row = frame_row[top]
                        value = 0.0
                        for b in range(n):
                            if done[at + b]:
                                value += sigma[at + b] * values[at + b]
                        for b in range(n):
                            if done[at + b]:
                                regrets[row, b] += weight * (values[at + b] - value)
                        top -= 1
                        if top >= 0:
                            up = top * width + frame_next[top]
                            values[up] = value
                            done[up] = True
                            frame_next[top] += 1
                        continue
                    child = children[here, a]
                    if (cutoff > -np.inf and regrets[frame_row[top], a] < cutoff
                            and street[here] != last_street and kind[child] == DECISION):
                        done[at + a] = False
                        frame_next[top] = a + 1
                        continue
                    node = child
                    break
                if top < 0:
                    break


@njit(cache=True)
def _run_batch(first, seed, prune_after, threshold, depth, kind, player, street, n_actions,  # type: ignore[no-untyped-def]
               children, pot, contributions, active, node_row, buckets, strength, regrets,
               strategy_sum):
    np.random.seed(seed)  # noqa: NPY002 (numba's generator: the only one a kernel can use)
    # np.int64, not 0 and 1: numba would compile _run_chunk again for those literal values
    # (the parallel batch passes plain int64s), each compilation taking seconds.
    _run_chunk(first, seed, np.int64(0), buckets.shape[0], np.int64(1), prune_after, threshold,
               depth, kind, player, street, n_actions, children, pot, contributions, active,
               node_row, buckets, strength, regrets, strategy_sum)


@njit(cache=True, parallel=True)
def _run_batch_parallel(first, seed, threads, prune_after, threshold, depth, kind, player,  # type: ignore[no-untyped-def]
                        street, n_actions, children, pot, contributions, active, node_row,
                        buckets, strength, regrets, strategy_sum):
    for k in prange(threads):
        np.random.seed(seed + k)  # noqa: NPY002 (seeds this thread's generator)
        # np.int64(k): prange's index is a uint64, which compiled _run_chunk a second time
        _run_chunk(first, seed, np.int64(k), buckets.shape[0], threads, prune_after, threshold,
                   depth, kind, player, street, n_actions, children, pot, contributions, active,
                   node_row, buckets, strength, regrets, strategy_sum)


def _settled_contributions(tree: BettingTree) -> NDArray[np.float64]:
    """The tree's contributions with, at terminals, the uncalled top cut to the second largest.

    Hold'em gives back the part of a bet nobody matched (an all-in over a shorter stack);
    the payoffs the kernel computes from the contributions must not count it.
    """
    chips = tree.contributions.astype(np.float64)
    if chips.shape[1] < 2:
        return chips
    terminal = tree.kind != DECISION
    ordered = np.sort(chips, axis=1)
    top, second = ordered[:, -1], ordered[:, -2]
    cut = terminal[:, None] & (chips == top[:, None])
    return np.where(cut, second[:, None], chips)


STORAGES = ("float64", "float32")
"""The tables' number types: float64 (the default), or float32 for half the memory. float32
keeps about 7 significant digits: after ``k`` visits of a row (each adding a weight ``t``
to a sum of about ``k t / 2``) an update is stored to about ``k 2**-25`` of itself, and
after some 30 million visits it is lost: fine for the large abstractions that need it
(rows visited rarely), not for a small game whose every row is visited every iteration."""


def check_storage(storage: str) -> np.dtype[np.floating[Any]]:
    """The numpy type of a :data:`STORAGES` name; a clear error for anything else."""
    if storage not in STORAGES:
        raise SpecError(f"storage must be one of {', '.join(STORAGES)}; got {storage!r}")
    return np.dtype(storage)


def check_tables(size: TreeSize, bucket_counts: Sequence[int],
                 memory_limit: int = DEFAULT_MEMORY_LIMIT, storage: str = "float64") -> int:
    """Refuse, before anything is allocated, tables that would pass ``memory_limit``.

    Needs only the tree's count and the bucket counts, so a command can refuse before it
    builds the card abstraction (minutes for clustered tables not yet cached). Returns the
    tables' bytes (regrets and strategy sums).

    Raises:
        GameTooLargeError: naming the tables' size, its factors and what to change.
    """
    width = check_storage(storage).itemsize
    rows = sum(d * int(b) for d, b in zip(size.decisions_by_street, bucket_counts,
                                          strict=True))
    tables = 2 * width * rows * size.max_actions  # regrets and strategy sums
    if tables > memory_limit:
        smaller = (f", float32 tables (--storage float32: {tables / 2e6:,.0f} MB)"
                   if storage == "float64" else "")
        raise GameTooLargeError(
            f"the blueprint's tables need {tables / 1e6:,.0f} MB in {storage} ({rows:,} rows "
            f"of {size.max_actions} actions: the betting decisions by street "
            f"{list(size.decisions_by_street)} times the buckets {list(bucket_counts)}), "
            f"over the memory limit of {memory_limit / 1e6:,.0f} MB; use fewer buckets or "
            f"bet sizes{smaller}, or raise the limit (POKERLAB_MEMORY_LIMIT=16G)",
            found=tables, limit=memory_limit,
        )  # fmt: skip
    return tables


class BlueprintTrainer(RunLoop):
    """ES-MCCFR with linear weighting over (game, card abstraction, betting rules).

    On the run loop every solver shares (:class:`~pokerlab.solvers.run_loop.RunLoop`):
    ``run(iterations=, seconds=, target_exploitability=, callback=, interrupt=)``. Its
    iterations come in batches of ``batch`` deals (each batch one kernel call, drawn from
    the trainer's generator), counted from iteration 0: a run stopped between batches and
    resumed makes the very calls an uninterrupted one makes. Checks measure the
    exploitability only when asked (``measure=True``, or a target), and only where the
    game compiles (Leduc, small Hold'em); files and resuming: :mod:`pokerlab.blueprint.store`.

    Args:
        game: a Leduc or Hold'em game (2 or more players).
        cards: the card abstraction; None: lossless cards (small games only).
        rules: the betting rules of the abstract game; None: the game's own (limit) betting.
        seed: the seed of every random draw: two single-threaded trainers with the same seed
            and the same calls give the same arrays.
        prune_after: iterations before negative-regret pruning starts.
        prune_threshold: prune actions whose regret is below ``-prune_threshold`` times the
            sum of the weights so far (chips per weighted iteration); 0 turns pruning off.
        threads: kernels run on this many threads (1: deterministic).
        memory_limit: the betting tree and the tables are refused, with their sizes,
            before anything is allocated when either would pass this (bytes; default
            ``POKERLAB_MEMORY_LIMIT`` or 4 GiB).
        batch: deals per kernel call (and the run loop's unit of iterations); the same
            seed and batch give the same tables.
        storage: the tables' number type, one of :data:`STORAGES`.
    """

    measures_by_default = False

    def __init__(
        self,
        game: Game,
        cards: CardAbstraction | None = None,
        rules: BettingRules | None = None,
        *,
        seed: int = 0,
        prune_after: int = 0,
        prune_threshold: float = 0.0,
        threads: int = 1,
        memory_limit: int = DEFAULT_MEMORY_LIMIT,
        batch: int = DEFAULT_BATCH,
        storage: str = "float64",
    ) -> None:
        super().__init__()
        dtype = check_storage(storage)
        self.storage = storage
        if prune_threshold < 0 or prune_after < 0:
            raise SpecError(
                f"prune_after and prune_threshold must be >= 0; got {prune_after}, "
                f"{prune_threshold}"
            )
        if threads < 1:
            raise SpecError(f"threads must be >= 1; got {threads}")
        if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
            raise SpecError(f"batch must be an integer >= 1; got {batch!r}")
        self.batch = batch
        self.game = game
        self.rules = default_rules(game) if rules is None else rules
        if self.rules.n_players != game.n_players:
            raise SpecError(
                f"betting rules for {self.rules.n_players} players; the game has {game.n_players}"
            )
        self.dealer: Dealer = dealer_for(game, cards)
        self.cards: CardAbstraction = self.dealer.cards
        if tuple(self.cards.board_visible) != tuple(np.cumsum(self.rules.board_cards).tolist()):
            raise SpecError(
                f"the card abstraction sees boards {self.cards.board_visible} by street; the "
                f"betting rules deal {self.rules.board_cards}"
            )
        counts = np.array(self.cards.bucket_counts, dtype=np.int64)
        check_tables(tree_size(self.rules), self.cards.bucket_counts, memory_limit, storage)
        self.tree: BettingTree = build_tree(self.rules, memory_limit=memory_limit)
        decisions = np.flatnonzero(self.tree.kind == DECISION)
        rows = counts[self.tree.street[decisions]]
        self.row_offset = np.concatenate(([0], np.cumsum(rows)[:-1])).astype(np.int64)
        shape = (int(rows.sum()), self.tree.max_actions)
        self.regrets = np.zeros(shape, dtype=dtype)
        self.strategy_sum = np.zeros(shape, dtype=dtype)
        self.depth = self.tree.n_levels
        self.seed = seed
        self.prune_after = prune_after
        self.prune_threshold = float(prune_threshold)
        self.threads = threads
        self.rng = np.random.default_rng(seed)
        self._contributions = _settled_contributions(self.tree)
        self._pot = np.zeros(self.tree.n_nodes)
        for q in range(self._contributions.shape[1]):  # the kernel's order of the additions
            self._pot += self._contributions[:, q]
        self._compiled: Any = _UNKNOWN
        self._node_row = np.where(
            self.tree.kind == DECISION, self.row_offset[self.tree.decision_index], -1
        ).astype(np.int64)

    @property
    def n_rows(self) -> int:
        """Rows of the regret table: (decision node, bucket) pairs."""
        return int(self.regrets.shape[0])

    @property
    def nbytes(self) -> int:
        """Memory of the regret and strategy tables, in bytes."""
        return int(self.regrets.nbytes + self.strategy_sum.nbytes)

    # -- the run loop -------------------------------------------------------------------
    def _quantum(self) -> int:
        return self.batch

    def _default_check_every(self, iterations: int | None) -> int | None:
        # Checks every tenth of the run, in whole batches (every 25 batches by time).
        if iterations is None:
            return 25 * self.batch
        return max(self.batch, iterations // 10 // self.batch * self.batch)

    @property
    def can_measure(self) -> bool:
        """Whether the game compiles (then :meth:`average_strategy` can be measured)."""
        if self._compiled is _UNKNOWN:
            self._compiled = compiled_or_none(self.game)
        return self._compiled is not None

    def _measure(self) -> float | None:
        if not self.can_measure:
            return None
        return float(exploitability(self.game, self.average_strategy()))

    def infosets_touched(self) -> int | None:
        """Rows of the tables: (decision node, bucket) pairs."""
        return self.n_rows

    def memory_bytes(self) -> int | None:
        """Bytes of the regret and strategy-sum tables."""
        return self.nbytes

    def _advance(self, count: int) -> None:
        """Run ``count`` iterations (one deal each, every player traversing).

        In kernel calls of at most ``batch`` deals that never cross a multiple of
        ``batch`` (counted from iteration 0), whatever ``count`` is.
        """
        t = self.tree
        done = 0
        while done < count:
            room = self.batch - self.iterations % self.batch
            step = min(room, count - done)
            buckets, strength = self.dealer.deal(self.rng, step)
            seed = int(self.rng.integers(2**31 - 64))
            common = (self.prune_after, self.prune_threshold, self.depth, t.kind, t.player,
                      t.street, t.n_actions, t.children, self._pot, self._contributions,
                      t.active, self._node_row, buckets, strength, self.regrets,
                      self.strategy_sum)
            if self.threads > 1:
                numba.set_num_threads(min(self.threads, numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]
                _run_batch_parallel(self.iterations, seed, self.threads, *common)
            else:
                _run_batch(self.iterations, seed, *common)
            self.iterations += step
            done += step

    def row_of(self, node: int, bucket: int) -> int:
        """The table row of decision ``node`` seen with ``bucket``."""
        return int(self.row_offset[self.tree.decision_index[node]]) + bucket

    def average_probabilities(self, row: int, n: int) -> NDArray[np.float64]:
        """The average strategy at ``row`` over its ``n`` actions (uniform if never reached)."""
        probs: NDArray[np.float64] = self.average_rows(np.array([row]), n)[0]
        return probs

    def average_rows(self, rows: NDArray[np.integer], n: int) -> NDArray[np.float64]:
        """The average strategy at each of ``rows`` of one node: ``[len(rows), n]``.

        Uniform where a row was never reached; LBR's policy queries ask it for every
        hole-card pair at once.
        """
        sums = self.strategy_sum[rows, :n].astype(np.float64, copy=False)
        totals = sums.sum(axis=1, keepdims=True)
        out: NDArray[np.float64] = np.full(sums.shape, 1.0 / n)
        np.divide(sums, totals, out=out, where=totals > 0)
        return out

    def average_strategy(self) -> Strategy:
        """The average strategy as a Strategy on the game's compiled tree (exact evaluators).

        Only for games small enough to compile; each infoset is mapped to its betting node
        (replaying its actions) and its bucket (the card abstraction on its cards).
        """
        compiled = self._compiled if isinstance(self._compiled, CompiledTree) else (
            compile(self.game))
        nodes = np.zeros(compiled.n_infosets, dtype=np.int64)
        players = np.zeros(compiled.n_infosets, dtype=np.int64)
        holes, boards = [], []
        for i in range(compiled.n_infosets):
            history = int(compiled.infoset_history[i])
            node, state = self.dealer.replay(self.tree, compiled.history_actions(history))
            nodes[i] = node
            players[i] = state.player
            hole, board = self.dealer.seen_cards(state, state.player)
            holes.append(hole)
            boards.append(board)
        seen = self.cards.buckets(np.array(holes)[:, None, :], np.array(boards))
        probs = np.zeros((compiled.n_infosets, compiled.max_actions))
        for i in range(compiled.n_infosets):
            node = int(nodes[i])
            bucket = int(seen[i, 0, self.tree.street[node]])
            n = int(self.tree.n_actions[node])
            probs[i, :n] = self.average_probabilities(self.row_of(node, bucket), n)
        return Strategy.from_array(self.game, probs, metadata={
            "algorithm": "es-mccfr-linear (blueprint)", "iterations": self.iterations})


__all__ = ["DEFAULT_BATCH", "PRUNE_PROBABILITY", "STORAGES", "BlueprintTrainer", "check_storage",
           "check_tables"]
