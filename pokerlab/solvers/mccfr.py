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

Speed and reproducibility: the walks are compiled numba kernels
(:mod:`pokerlab.solvers._mccfr_kernels`) that run a whole batch of iterations per call;
:meth:`run` cuts batches at the measurement points. Each iteration draws one 64-bit seed
from the solver's numpy Generator (``rng=``/``seed=``) and the kernel's SplitMix64 stream
is reseeded with it, so a run depends only on the seed and the number of iterations:
same seed, same strategy, however the iterations are split between calls, and a
checkpoint (which records the Generator's state) resumes bit for bit.

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
from pokerlab.errors import SolverError
from pokerlab.games.base import Game
from pokerlab.solvers.base import RegretSolver
from pokerlab.solvers.checkpoint import register_solver
from pokerlab.strategy import Strategy
from pokerlab.tree import CompiledTree, compile

_TIME_SLICE = 0.1
"""Longest batch (seconds) when ``run(seconds=...)`` must stop on time."""

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


def _regret_matching(regrets: FloatArray, legal: NDArray[np.bool_]) -> FloatArray:
    positive = np.maximum(regrets, 0.0)
    sums = positive.sum(axis=1, keepdims=True)
    uniform = legal / legal.sum(axis=1, keepdims=True)
    return np.where(sums > 0, positive / np.where(sums > 0, sums, 1.0), uniform)


class _MonteCarloCFR(RegretSolver):
    """Shared machinery: seeding, state, batched runs; subclasses call one kernel."""

    algorithm: ClassVar[str] = "mccfr"

    def __init__(
        self,
        game: Game,
        *,
        rng: np.random.Generator | int | None = None,
        seed: int | None = None,
    ) -> None:
        if seed is not None and rng is not None:
            raise SolverError(
                f"give the randomness once: seed= (an int) or rng= (a Generator or an int), "
                f"not both; got seed={seed!r} and rng={rng!r}"
            )
        for name, value in (("seed", seed), ("rng", rng)):
            if isinstance(value, bool) or (
                value is not None
                and not isinstance(value, int | np.integer | np.random.Generator)
            ):
                raise SolverError(
                    f"{name} must be an integer seed"
                    f"{' or a numpy Generator' if name == 'rng' else ''} or None; got {value!r}"
                )
        super().__init__(game)
        self.rng = rng
        self.seed = seed
        self._generator = np.random.default_rng(seed if seed is not None else rng)
        tree = compile(game)
        self._tree: CompiledTree = tree
        self._kernel_tree = kernel_tree(tree)
        shape = (tree.n_infosets, tree.max_actions)
        self._regrets: FloatArray = np.zeros(shape)  # [n_infosets, max_actions]
        self._strategy_sum: FloatArray = np.zeros(shape)  # [n_infosets, max_actions]

    # -- the variant ----------------------------------------------------------------------
    @abstractmethod
    def _run_kernel(self, seeds: NDArray[np.uint64]) -> None:
        """Run ``len(seeds)`` iterations, iteration ``t`` seeded with ``seeds[t]``."""

    def hyperparameters(self) -> dict[str, Any]:
        """The hyper-parameters, JSON-ready: the integer seed (None if not an int)."""
        seed = self.seed if self.seed is not None else self.rng
        return {"seed": int(seed) if isinstance(seed, int | np.integer) else None}

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
        self._run_kernel(seeds)

    def average_probs(self) -> FloatArray:
        """The average strategy as a new ``[I, A]`` array (uniform where never updated)."""
        legal = self._tree.legal_mask
        sums = self._strategy_sum.sum(axis=1, keepdims=True)
        uniform = legal / legal.sum(axis=1, keepdims=True)
        return np.where(sums > 0, self._strategy_sum / np.where(sums > 0, sums, 1.0), uniform)

    def current_strategy(self) -> Strategy:
        """The strategy the next iteration will play (regret matching; a copy)."""
        probs = _regret_matching(self._regrets, self._tree.legal_mask)
        return Strategy(self.game, probs, self._metadata("current"))

    def _measure(self) -> float:
        from pokerlab.eval import exploitability_array

        return float(exploitability_array(self._tree, self.average_probs()))

    # -- checkpoints ----------------------------------------------------------------------
    def _state(self) -> dict[str, Any]:
        return {
            "regrets": self._regrets.copy(),
            "strategy_sum": self._strategy_sum.copy(),
            "iterations": self.iterations,
            "rng_state": self._generator.bit_generator.state,
        }

    def _restore(self, state: dict[str, Any]) -> None:
        for name, target in (("regrets", self._regrets), ("strategy_sum", self._strategy_sum)):
            value = state.get(name)
            if not isinstance(value, np.ndarray) or value.shape != target.shape:
                found = getattr(value, "shape", None)
                raise SolverError(
                    f"checkpoint state {name!r} must be an array of shape {target.shape}; "
                    f"got {found}"
                )
        rng_state = state.get("rng_state")
        if not isinstance(rng_state, dict) or not isinstance(rng_state.get("bit_generator"), str):
            raise SolverError(
                "checkpoint state 'rng_state' must be a numpy bit generator state (a dict "
                f"naming its 'bit_generator'); got {rng_state!r}"
            )
        bit_generator_class = getattr(np.random, rng_state["bit_generator"], None)
        if not (
            isinstance(bit_generator_class, type)
            and issubclass(bit_generator_class, np.random.BitGenerator)
        ):
            raise SolverError(
                f"checkpoint state names an unknown bit generator {rng_state['bit_generator']!r}"
            )
        bit_generator = bit_generator_class()
        try:
            bit_generator.state = rng_state
        except (TypeError, ValueError, KeyError) as exc:
            raise SolverError(f"checkpoint state 'rng_state' is not valid: {exc}") from None
        self._regrets[...] = state["regrets"]
        self._strategy_sum[...] = state["strategy_sum"]
        if "iterations" in state:
            self.iterations = int(state["iterations"])
        self._generator = np.random.Generator(bit_generator)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.spec} after {self.iterations} iterations>"


@register_solver
class ChanceSamplingMCCFR(_MonteCarloCFR):
    """Chance-sampled CFR: sample chance, walk every action of every player.

    Each walk costs a full CFR pass over one deal's betting tree; the regret estimates
    have the least variance of the three samplers.

    Args:
        game: the game (its compiled tree must fit in memory).
        rng: the random generator, or an integer seed.
        seed: an integer seed (the same as ``rng=`` with an int; give one of the two).

    Raises:
        SolverError: if both ``seed`` and ``rng`` are given, or either has a wrong type.

    Example:
        >>> from pokerlab.games import kuhn
        >>> solver = ChanceSamplingMCCFR(kuhn(), seed=0)
        >>> solver.run(iterations=2000, check_every=2000).iterations
        2000
    """

    algorithm: ClassVar[str] = "cs-mccfr"

    def _run_kernel(self, seeds: NDArray[np.uint64]) -> None:
        from pokerlab.solvers import _mccfr_kernels as kernels

        t = self._kernel_tree
        kernels.chance_sampling(
            t.nodes, t.probs, t.payoffs, self._regrets, self._strategy_sum, seeds, t.depth
        )


@register_solver
class ExternalSamplingMCCFR(_MonteCarloCFR):
    """External-sampling MCCFR: sample chance and the other players, walk the updater's actions.

    The usual choice for two-player poker: an iteration costs about the square root of a
    full pass, and the average is OpenSpiel's simple (stochastically weighted) one.

    Args:
        game: the game (its compiled tree must fit in memory).
        rng: the random generator, or an integer seed.
        seed: an integer seed (the same as ``rng=`` with an int; give one of the two).

    Raises:
        SolverError: if both ``seed`` and ``rng`` are given, or either has a wrong type.

    Example:
        >>> from pokerlab.games import kuhn
        >>> solver = ExternalSamplingMCCFR(kuhn(), seed=0)
        >>> solver.run(iterations=2000, check_every=2000).iterations
        2000
    """

    algorithm: ClassVar[str] = "es-mccfr"

    def _run_kernel(self, seeds: NDArray[np.uint64]) -> None:
        from pokerlab.solvers import _mccfr_kernels as kernels

        t = self._kernel_tree
        kernels.external_sampling(
            t.nodes, t.probs, t.payoffs, self._regrets, self._strategy_sum, seeds, t.depth
        )


@register_solver
class OutcomeSamplingMCCFR(_MonteCarloCFR):
    """Outcome-sampling MCCFR: one sampled trajectory per walk, importance weighted.

    The cheapest iteration and the noisiest estimates; ``epsilon`` explores at the
    updating player's histories so that every action keeps a positive sampling
    probability (OpenSpiel's default 0.6).

    Args:
        game: the game (its compiled tree must fit in memory).
        epsilon: the weight of the uniform strategy in the updating player's sampling
            distribution, in (0, 1].
        rng: the random generator, or an integer seed.
        seed: an integer seed (the same as ``rng=`` with an int; give one of the two).

    Raises:
        SolverError: if ``epsilon`` is not a number in (0, 1], both ``seed`` and ``rng``
            are given, or either has a wrong type.

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
        rng: np.random.Generator | int | None = None,
        seed: int | None = None,
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
        super().__init__(game, rng=rng, seed=seed)
        self.epsilon = float(epsilon)

    def hyperparameters(self) -> dict[str, Any]:
        """The hyper-parameters, JSON-ready: ``epsilon`` and the integer seed."""
        return {"epsilon": self.epsilon, **super().hyperparameters()}

    def _run_kernel(self, seeds: NDArray[np.uint64]) -> None:
        from pokerlab.solvers import _mccfr_kernels as kernels

        t = self._kernel_tree
        kernels.outcome_sampling(
            t.nodes,
            t.probs,
            t.payoffs,
            self._regrets,
            self._regrets,
            self._strategy_sum,
            seeds,
            t.depth,
            self.epsilon,
        )


__all__ = [
    "DEFAULT_EPSILON",
    "ChanceSamplingMCCFR",
    "ExternalSamplingMCCFR",
    "KernelTree",
    "OutcomeSamplingMCCFR",
    "kernel_tree",
]
