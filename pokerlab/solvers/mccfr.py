"""Monte Carlo CFR: chance, external and outcome sampling on the compiled tree.

Full-width CFR walks every history each iteration; Monte Carlo CFR (Lanctot et al. 2009)
walks a sampled part of the tree and updates the regrets with estimates whose expectation
is the full-width counterfactual regret, so that iterations are much cheaper on large
games (the 50-chip Leduc, Kuhn with 100 cards) at the price of noise. One iteration walks
the tree once per player (the *updating* player), as OpenSpiel's solvers do:

- :class:`ChanceSamplingMCCFR`: one chance outcome is sampled at each chance node met;
  every action of every player is walked. Regrets get ``other_reach * (v(a) - v)``
  (other players' reach; chance's cancels with its sampling probability) and the
  updating player's strategy sums get ``my_reach * sigma``, as in vanilla CFR.
- :class:`ExternalSamplingMCCFR`: chance and the other players' actions are sampled
  (theirs from their current strategies); every action of the updating player is walked.
  Regrets get ``v(a) - v`` (the sampling probabilities cancel the reach weights). The
  average strategy is OpenSpiel's *simple* (stochastically weighted) one: at the sampled
  histories of the player after the updating one, its current strategy is added,
  unweighted (with two players: at the opponent's histories).
- :class:`OutcomeSamplingMCCFR`: one trajectory per walk; at the updating player's
  histories the action is sampled from ``epsilon * uniform + (1 - epsilon) * sigma``,
  elsewhere from the current strategies and chance. The sampled action's value is
  divided by its sampling probability ``q`` (importance weight ``1/q``), the others'
  are 0; regrets get ``(other_reach / sample_reach) * (v(a) - v)`` and the strategy
  sums ``my_reach * sigma / sample_reach``, all at the updating player's histories
  (OpenSpiel's ``outcome_sampling_mccfr.py``).

The current strategy is regret matching of the cumulative regrets (uniform where none is
positive); the average strategy (strategy sums normalised per infoset, uniform where the
sums are 0) is the one that converges to equilibrium in two-player zero-sum games.

Two paths, one result. Where the game compiles, the walks are compiled numba kernels
(:mod:`pokerlab.solvers._mccfr_kernels`) over the tree's arrays, a whole batch of
iterations per call, with ``[n_infosets, max_actions]`` regrets. Where it does not
(Hold'em), the walks go through the game's State API (:mod:`pokerlab.solvers._mccfr_walk`)
and keep rows only for the infosets they meet (:class:`InfosetStore`); the average
strategy is then an :class:`~pokerlab.strategy.InfosetTable` (uniform where never met),
and the exploitability is not measured (``run`` stops by iterations or seconds and
reports the infosets met and the memory). ``compiled=None`` (the default) compiles when
the game fits in memory and walks states otherwise; ``True`` or ``False`` forces a path.
Where the game compiles, :meth:`average_strategy` is a
:class:`~pokerlab.strategy.Strategy` on both paths.

Reproducibility: each iteration draws one 64-bit seed from the solver's numpy Generator
(``seed=``, an integer or a Generator) and a SplitMix64 stream is reseeded with it; both
paths draw from that stream in the same order with the same arithmetic, so a run depends
only on the seed and the number of iterations: same seed, same strategy on either path
(to float rounding), however the iterations are split between calls, and a checkpoint
(which records the Generator's state) resumes bit for bit.

References:
    M. Lanctot, K. Waugh, M. Zinkevich, M. Bowling, "Monte Carlo sampling for regret
    minimization in extensive games", NIPS 2009. M. Lanctot, "Monte Carlo sampling and
    regret minimization for equilibrium computation and decision-making in large
    extensive form games", PhD thesis, University of Alberta, 2013 (chapter 4).
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, ClassVar, NamedTuple

import numpy as np
from numpy.typing import NDArray

from pokerlab._types import FloatArray
from pokerlab.errors import GameTooLargeError, SolverError
from pokerlab.eval import exploitability_array
from pokerlab.games.base import Game
from pokerlab.solvers import _mccfr_walk as walks
from pokerlab.solvers.base import (
    Seed,
    Solver,
    compiled_or_none,
    generator_from_state,
    make_generator,
    register_solver,
    seed_value,
    strategy_metadata,
)
from pokerlab.solvers.infoset_store import InfosetStore
from pokerlab.strategy import InfosetTable, Strategy, tabulate
from pokerlab.strategy.io import keys_fingerprint
from pokerlab.strategy.regrets import regret_matching_strategy
from pokerlab.tree import CompiledTree, compile

DEFAULT_EPSILON = 0.6
"""Outcome sampling's exploration at the updating player's histories (OpenSpiel's value)."""


class KernelTree(NamedTuple):
    """The compiled tree as the kernels read it (see :mod:`pokerlab.solvers._mccfr_kernels`).

    Attributes:
        nodes: ``[H, 4]`` int32: first child, number of children, player, infoset.
        probs: ``[H]`` probability of the edge from a chance parent, else 1.
        payoffs: ``[H, n_players]`` chips won at terminal histories, 0 elsewhere.
        depth: the largest depth of a history.
    """

    nodes: NDArray[np.int32]
    probs: FloatArray
    payoffs: FloatArray
    depth: int


def kernel_tree(tree: CompiledTree) -> KernelTree:
    """Pack ``tree`` into the arrays the Monte Carlo kernels walk."""
    nodes = np.stack([tree.first_child, tree.n_children, tree.player, tree.infoset], axis=1)
    payoffs = np.zeros((tree.n_histories, tree.n_players))
    payoffs[tree.terminal_ids] = tree.terminal_payoffs
    return KernelTree(
        nodes=np.ascontiguousarray(nodes, dtype=np.int32),
        probs=np.ascontiguousarray(tree.chance_prob, dtype=np.float64),
        payoffs=payoffs,
        depth=tree.depth,
    )


_UNKNOWN: Any = object()
"""Marks the compiled tree for measuring as not looked for yet (None: too big)."""


class _MonteCarloCFR(Solver):
    """Shared machinery: seeding, the two paths, state, batched runs.

    Subclasses run a batch of iterations on the compiled tree (:meth:`_run_kernel`) and
    by walking states (:meth:`_run_walk`).
    """

    algorithm: ClassVar[str] = "mccfr"
    sampling: ClassVar[bool] = True

    def __init__(self, game: Game, *, seed: Seed = None, compiled: bool | None = None) -> None:
        if compiled is not None and not isinstance(compiled, bool):
            raise SolverError(
                f"compiled must be True (the compiled tree), False (walk the game's states) "
                f"or None (compile when the game fits); got {compiled!r}"
            )
        generator = make_generator(seed)
        super().__init__(game)
        self.seed = seed
        self.compiled = compiled
        self._generator = generator
        self._tree: CompiledTree | None = None
        self._kernel_tree: KernelTree | None = None
        self._regrets: FloatArray = np.zeros((0, 0))  # [n_infosets, max_actions]
        self._strategy_sum: FloatArray = np.zeros((0, 0))  # [n_infosets, max_actions]
        self._store: InfosetStore | None = None
        self._measure_tree: CompiledTree | None = _UNKNOWN
        if compiled is False:
            self._store = InfosetStore()
            return
        tree = compiled_or_none(game) if compiled is None else self._compile_or_explain()
        if tree is None:
            self._store = InfosetStore()
        else:
            self._use_tree(tree)

    def _compile_or_explain(self) -> CompiledTree:
        try:
            return compile(self.game)
        except GameTooLargeError as exc:
            raise GameTooLargeError(
                f"compiled=True asks for the compiled tree, and {exc}; leave compiled=None "
                "(or pass False) to walk the game's states instead",
                found=exc.found,
                limit=exc.limit,
            ) from None

    def _use_tree(self, tree: CompiledTree) -> None:
        self._tree = tree
        self._measure_tree = tree
        self._kernel_tree = kernel_tree(tree)
        shape = (tree.n_infosets, tree.max_actions)
        self._regrets = np.zeros(shape)
        self._strategy_sum = np.zeros(shape)
        self._store = None

    # -- the variant ----------------------------------------------------------------------
    @abstractmethod
    def _run_kernel(self, tree: KernelTree, seeds: NDArray[np.uint64]) -> None:
        """Run ``len(seeds)`` iterations on the compiled tree, iteration ``t`` from ``seeds[t]``."""

    @abstractmethod
    def _run_walk(self, store: InfosetStore, seeds: list[int]) -> None:
        """Run ``len(seeds)`` iterations by walking the game's states."""

    def hyperparameters(self) -> dict[str, Any]:
        """The hyper-parameters, JSON-ready: the integer seed (None if not an int), the path."""
        return {"seed": seed_value(self.seed), "compiled": self.compiled}

    # -- the paths ------------------------------------------------------------------------
    @property
    def is_compiled(self) -> bool:
        """True on the compiled tree; False when walking the game's states."""
        return self._store is None

    def _tree_for_measuring(self) -> CompiledTree | None:
        """The compiled tree, or None where the game is too big (looked for once)."""
        if self._measure_tree is _UNKNOWN:
            self._measure_tree = compiled_or_none(self.game)
        return self._measure_tree

    @property
    def can_measure(self) -> bool:
        """Whether the exploitability can be measured: the game compiles."""
        return self._tree_for_measuring() is not None

    # -- Solver ---------------------------------------------------------------------------
    def _advance(self, count: int) -> None:
        self._run_seeded(count)
        self.iterations += count

    def _iterate(self) -> None:
        self._run_seeded(1)

    def _run_seeded(self, count: int) -> None:
        """Run ``count`` iterations, each seeded by one draw from the solver's generator."""
        seeds = self._generator.integers(
            0, np.iinfo(np.uint64).max, size=count, dtype=np.uint64, endpoint=True
        )
        if self._store is not None:
            self._run_walk(self._store, seeds.tolist())
        else:
            assert self._kernel_tree is not None
            self._run_kernel(self._kernel_tree, seeds)

    def average_probs(self) -> FloatArray:
        """The average strategy as a new ``[I, A]`` array (uniform where never updated).

        Raises:
            GameTooLargeError: when walking the states of a game too big to compile.
        """
        if self._store is not None:
            return self._tabulated(self._store.table(self.game, "average")).probs
        assert self._tree is not None
        legal = self._tree.legal_mask
        sums = self._strategy_sum.sum(axis=1, keepdims=True)
        uniform = legal / legal.sum(axis=1, keepdims=True)
        return np.where(sums > 0, self._strategy_sum / np.where(sums > 0, sums, 1.0), uniform)

    def _tabulated(self, table: InfosetTable) -> Strategy:
        return tabulate(table, self.game, purpose=f"a {self.algorithm} strategy array")

    def average_strategy(self) -> Strategy | InfosetTable:
        """The average strategy so far (a copy): the one that converges to equilibrium.

        A :class:`Strategy` where the game compiles (on both paths); an
        :class:`InfosetTable` of the infosets met otherwise (uniform elsewhere).
        """
        metadata = strategy_metadata(self, "average")
        if self._store is None:
            return Strategy(self.game, self.average_probs(), metadata)
        table = self._store.table(self.game, "average", metadata)
        return table if self._tree_for_measuring() is None else self._tabulated(table)

    def current_strategy(self) -> Strategy | InfosetTable:
        """The strategy the next iteration will play (regret matching; a copy)."""
        metadata = strategy_metadata(self, "current")
        if self._store is None:
            assert self._tree is not None
            probs = regret_matching_strategy(self._regrets, self._tree.legal_mask)
            return Strategy(self.game, probs, metadata)
        table = self._store.table(self.game, "current", metadata)
        return table if self._tree_for_measuring() is None else self._tabulated(table)

    def _measure(self) -> float | None:
        tree = self._tree_for_measuring()
        if tree is None:
            return None
        return float(exploitability_array(tree, self.average_probs()))

    def infosets_touched(self) -> int | None:
        """Infosets with a row: those met when walking states; every one when compiled."""
        if self._store is not None:
            return len(self._store)
        assert self._tree is not None
        return self._tree.n_infosets

    def memory_bytes(self) -> int | None:
        """Bytes of the regret and strategy-sum tables (and keys, when walking states)."""
        if self._store is not None:
            return self._store.nbytes
        return int(self._regrets.nbytes + self._strategy_sum.nbytes)

    def _keys_fingerprint(self) -> str | None:
        return None if self._tree is None else keys_fingerprint(self._tree)

    # -- checkpoints ----------------------------------------------------------------------
    def _state(self) -> dict[str, Any]:
        tables: dict[str, Any]
        if self._store is not None:
            tables = self._store.numpy()
        else:
            tables = {"regrets": self._regrets.copy(), "strategy_sum": self._strategy_sum.copy()}
        return {
            **tables,
            "iterations": self.iterations,
            "rng_state": self._generator.bit_generator.state,
        }

    def _restore(self, state: dict[str, Any]) -> None:
        generator = generator_from_state(state.get("rng_state"))
        if "keys" in state:  # saved while walking states
            self._store = InfosetStore.from_numpy(state)
            self._tree = self._kernel_tree = None
            self._regrets = self._strategy_sum = np.zeros((0, 0))
        else:
            if self._tree is None:
                self._use_tree(self._compile_or_explain())
            for name, target in (
                ("regrets", self._regrets),
                ("strategy_sum", self._strategy_sum),
            ):
                value = state.get(name)
                if not isinstance(value, np.ndarray) or value.shape != target.shape:
                    found = getattr(value, "shape", None)
                    raise SolverError(
                        f"checkpoint state {name!r} must be an array of shape {target.shape}; "
                        f"got {found}"
                    )
            self._regrets[...] = state["regrets"]
            self._strategy_sum[...] = state["strategy_sum"]
        if "iterations" in state:
            self.iterations = int(state["iterations"])
        self._generator = generator

    def __repr__(self) -> str:
        path = "compiled" if self.is_compiled else "walking states"
        name = type(self).__name__
        return f"<{name} {self.game.spec}, {path}, after {self.iterations} iterations>"


@register_solver
class ChanceSamplingMCCFR(_MonteCarloCFR):
    """Chance-sampled CFR: sample chance, walk every action of every player.

    Each walk costs a full CFR pass over one deal's betting tree; the regret estimates
    have the least variance of the three samplers.

    Args:
        game: the game.
        seed: an integer seed or a numpy Generator (None: fresh entropy).
        compiled: True for the compiled tree, False to walk the game's states, None
            (default) to compile when the game fits in memory.

    Raises:
        SolverError: if ``seed`` or ``compiled`` has a wrong type.
        GameTooLargeError: with ``compiled=True``, if the game does not compile.

    Example:
        >>> from pokerlab.games import kuhn
        >>> solver = ChanceSamplingMCCFR(kuhn(), seed=0)
        >>> solver.run(iterations=2000, check_every=2000).iterations
        2000
    """

    algorithm: ClassVar[str] = "cs-mccfr"

    def _run_kernel(self, tree: KernelTree, seeds: NDArray[np.uint64]) -> None:
        from pokerlab.solvers import _mccfr_kernels as kernels

        kernels.chance_sampling(
            tree.nodes, tree.probs, tree.payoffs, self._regrets, self._strategy_sum, seeds,
            tree.depth,
        )

    def _run_walk(self, store: InfosetStore, seeds: list[int]) -> None:
        walks.chance_sampling(self.game, store, seeds)


@register_solver
class ExternalSamplingMCCFR(_MonteCarloCFR):
    """External-sampling MCCFR: sample chance and the other players, walk the updater's actions.

    The usual choice for two-player poker: an iteration costs about the square root of a
    full pass, and the average is OpenSpiel's simple (stochastically weighted) one. On a
    game too big to compile (Hold'em) it walks the game's states and stores the infosets
    it meets.

    Args:
        game: the game.
        seed: an integer seed or a numpy Generator (None: fresh entropy).
        compiled: True for the compiled tree, False to walk the game's states, None
            (default) to compile when the game fits in memory.

    Raises:
        SolverError: if ``seed`` or ``compiled`` has a wrong type.
        GameTooLargeError: with ``compiled=True``, if the game does not compile.

    Example:
        >>> from pokerlab.games import kuhn
        >>> solver = ExternalSamplingMCCFR(kuhn(), seed=0)
        >>> solver.run(iterations=2000, check_every=2000).iterations
        2000
        >>> walker = ExternalSamplingMCCFR(kuhn(), seed=0, compiled=False)  # the State API
        >>> walker = walker.run(iterations=2000, check_every=2000)
        >>> [round(s.history[-1].exploitability, 9) for s in (solver, walker)]  # seed for seed
        [0.016639324, 0.016639324]
    """

    algorithm: ClassVar[str] = "es-mccfr"

    def _run_kernel(self, tree: KernelTree, seeds: NDArray[np.uint64]) -> None:
        from pokerlab.solvers import _mccfr_kernels as kernels

        kernels.external_sampling(
            tree.nodes, tree.probs, tree.payoffs, self._regrets, self._strategy_sum, seeds,
            tree.depth,
        )

    def _run_walk(self, store: InfosetStore, seeds: list[int]) -> None:
        walks.external_sampling(self.game, store, seeds)


@register_solver
class OutcomeSamplingMCCFR(_MonteCarloCFR):
    """Outcome-sampling MCCFR: one sampled trajectory per walk, importance weighted.

    The cheapest iteration and the noisiest estimates; ``epsilon`` explores at the
    updating player's histories so that every action keeps a positive sampling
    probability (OpenSpiel's default 0.6).

    Args:
        game: the game.
        epsilon: the weight of the uniform strategy in the updating player's sampling
            distribution, in (0, 1].
        seed: an integer seed or a numpy Generator (None: fresh entropy).
        compiled: True for the compiled tree, False to walk the game's states, None
            (default) to compile when the game fits in memory.

    Raises:
        SolverError: if ``epsilon`` is not a number in (0, 1], or ``seed`` or
            ``compiled`` has a wrong type.
        GameTooLargeError: with ``compiled=True``, if the game does not compile.

    Example:
        >>> from pokerlab.games import kuhn
        >>> solver = OutcomeSamplingMCCFR(kuhn(), seed=0, epsilon=0.6)
        >>> solver.run(iterations=2000, check_every=2000).iterations
        2000
    """

    algorithm: ClassVar[str] = "os-mccfr"

    def __init__(
        self,
        game: Game,
        *,
        epsilon: float = DEFAULT_EPSILON,
        seed: Seed = None,
        compiled: bool | None = None,
    ) -> None:
        if (
            isinstance(epsilon, bool)
            or not isinstance(epsilon, int | float | np.floating | np.integer)
            or not 0.0 < float(epsilon) <= 1.0
        ):
            raise SolverError(
                f"epsilon must be a number in (0, 1] (the uniform exploration weight at the "
                f"updating player's histories; OpenSpiel uses 0.6); got {epsilon!r}"
            )
        super().__init__(game, seed=seed, compiled=compiled)
        self.epsilon = float(epsilon)

    def hyperparameters(self) -> dict[str, Any]:
        """The hyper-parameters, JSON-ready: ``epsilon``, the integer seed, the path."""
        return {"epsilon": self.epsilon, **super().hyperparameters()}

    def _run_kernel(self, tree: KernelTree, seeds: NDArray[np.uint64]) -> None:
        from pokerlab.solvers import _mccfr_kernels as kernels

        kernels.outcome_sampling(
            tree.nodes,
            tree.probs,
            tree.payoffs,
            self._regrets,
            self._regrets,
            self._strategy_sum,
            seeds,
            tree.depth,
            self.epsilon,
        )

    def _run_walk(self, store: InfosetStore, seeds: list[int]) -> None:
        walks.outcome_sampling(self.game, store, seeds, self.epsilon)


__all__ = [
    "DEFAULT_EPSILON",
    "ChanceSamplingMCCFR",
    "ExternalSamplingMCCFR",
    "KernelTree",
    "OutcomeSamplingMCCFR",
    "kernel_tree",
]
