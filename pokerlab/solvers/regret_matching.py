"""Regret matching for two-player matrix games: self-play, or against a fixed opponent.

Regret matching (Hart and Mas-Colell, 2000) plays each action in proportion to its
positive cumulative regret, and uniformly when no regret is positive. One iteration:

1. Each learning player's current strategy is the regret-matching strategy of its
   cumulative regrets (uniform at the start, when every regret is 0).
2. Each player's regret of every action is what that action would have earned minus what
   the player earned: against the opponent's current mixed strategy (full information, the
   default), or, with ``sampled=True``, against the opponent's sampled action, after
   sampling one's own (the tutorial's table of plays).
3. Regrets are added to the cumulative regrets, and the current strategy to the strategy
   sum whose normalisation is the average strategy.

In a two-player zero-sum game the average strategies of two regret-matching players
converge to a Nash equilibrium (the current strategies may cycle: Rock-Paper-Scissors);
against a fixed opponent the learner's strategy converges to a best response.

References:
    S. Hart and A. Mas-Colell, "A simple adaptive procedure leading to correlated
    equilibrium", Econometrica 68(5), 2000. The AI Poker Tutorial, section 3 (Regret).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike

from pokerlab._types import FloatArray, IntArray
from pokerlab.errors import SolverError
from pokerlab.games.base import Game
from pokerlab.games.matrix import MatrixGame
from pokerlab.solvers.base import (
    Seed,
    Solver,
    generator_from_state,
    make_generator,
    register_solver,
    seed_value,
    strategy_metadata,
)
from pokerlab.solvers.normal_form import StrategyPair, as_probability_vector, matrix_strategy
from pokerlab.strategy import Strategy
from pokerlab.strategy.regrets import regret_matching_strategy


def action_regrets(action_payoffs: ArrayLike, played: int | ArrayLike) -> FloatArray:
    """Return the regret of every action: what it would have earned minus what was earned.

    Args:
        action_payoffs: what each of the player's actions earns against what the opponent
            did (a pure action: a column of the payoff matrix; or a mixed strategy).
        played: the action the player took (an id), or the mixed strategy it played.

    Returns:
        ``action_payoffs - earned``: the played action (pure) gets regret 0.

    Example:
        The tutorial's example: we play Rock, the opponent Paper. Our payoffs against Paper
        (Rock, Paper, Scissors) are (-1, 0, 1):

        >>> action_regrets([-1.0, 0.0, 1.0], played=0).tolist()
        [0.0, 1.0, 2.0]
    """
    payoffs = np.asarray(action_payoffs, dtype=np.float64)
    if payoffs.ndim != 1 or payoffs.size == 0:
        raise SolverError(
            f"action_payoffs must be a 1-D array, one payoff per action; got shape {payoffs.shape}"
        )
    if isinstance(played, int | np.integer) and not isinstance(played, bool):
        if not 0 <= played < payoffs.size:
            raise SolverError(
                f"played action {played} is out of range; allowed: 0..{payoffs.size - 1}"
            )
        earned = float(payoffs[int(played)])
    else:
        strategy = as_probability_vector(played, payoffs.size, "the played strategy")
        earned = float(strategy @ payoffs)
    return payoffs - earned


@dataclass(frozen=True, slots=True, eq=False)
class RegretMatchingHistory:
    """The strategies of every iteration, for plots of cycling and convergence.

    Row ``t`` is iteration ``t + 1``: the current strategy played in it, and the average
    strategy after it. A fixed player's rows all hold its fixed strategy.
    """

    iterations: IntArray
    """Iteration numbers 1..T. # [T]"""
    current_strategies: StrategyPair
    """P1's and P2's current strategies. # ([T, n_rows], [T, n_cols])"""
    average_strategies: StrategyPair
    """P1's and P2's average strategies. # ([T, n_rows], [T, n_cols])"""


@register_solver
class RegretMatching(Solver):
    """Regret matching on a two-player matrix game, in self-play or against a fixed opponent.

    A :class:`~pokerlab.solvers.base.Solver` like the others: ``run`` is cumulative
    (``run(iterations=5000)`` twice equals ``run(iterations=10000)`` once, the sampled
    variant included: one random stream, drawn in order), measures the exploitability of
    the average strategy every ``check_every`` iterations, and stops by iterations,
    seconds or target; :meth:`average_strategy` and :meth:`current_strategy` are
    :class:`~pokerlab.strategy.Strategy` objects over the game's two infosets (``"P1"``
    and ``"P2"``), and :meth:`average_vectors` / :meth:`current_vectors` the same as
    probability vectors.

    Args:
        game: the matrix game.
        opponent: a fixed strategy for ``fixed_player``; ``None`` (default) for self-play,
            where both players learn.
        fixed_player: who plays ``opponent``: 0 (P1, the tutorial's setting: P2 learns) or
            1 (P2; P1 learns). Ignored in self-play.
        sampled: update regrets against sampled actions (both players sample from their
            current strategies each iteration) instead of against the opponent's current
            mixed strategy.
        seed: an integer seed or a numpy Generator for ``sampled=True`` (None: fresh
            entropy; unused without sampling).
        record_history: keep every iteration's strategies for :meth:`trajectory`
            (``2 * T * (n_rows + n_cols)`` floats).

    Raises:
        SolverError: if ``game`` is not a MatrixGame, ``fixed_player`` is not 0 or 1, a
            flag is not a bool, or ``seed`` is not a seed.
        StrategyError: if ``opponent`` is not a probability vector over the fixed player's
            actions.

    Example:
        >>> from pokerlab.games import load
        >>> solver = RegretMatching(load("rps"), opponent=(0.4, 0.3, 0.3)).run(iterations=1000)
        >>> solver.current_vectors()[1].tolist()   # P2 learns to always play Paper
        [0.0, 1.0, 0.0]
        >>> solver.current_strategy().probabilities("P2")
        {0: 0.0, 1: 1.0, 2: 0.0}
    """

    algorithm: ClassVar[str] = "regret-matching"
    sampling: ClassVar[bool] = True

    def __init__(
        self,
        game: Game,
        *,
        opponent: Sequence[float] | FloatArray | None = None,
        fixed_player: int = 0,
        sampled: bool = False,
        seed: Seed = None,
        record_history: bool = True,
    ) -> None:
        if not isinstance(game, MatrixGame):
            raise SolverError(
                f"RegretMatching needs a MatrixGame (load('rps'), bimatrix(...)); got "
                f"{type(game).__name__}; for extensive-form games use a CFR solver"
            )
        if isinstance(fixed_player, bool) or fixed_player not in (0, 1):
            raise SolverError(
                f"fixed_player must be 0 (P1 fixed, P2 learns) or 1 (P2 fixed, P1 learns); "
                f"got {fixed_player!r}"
            )
        for name, flag in (("sampled", sampled), ("record_history", record_history)):
            if not isinstance(flag, bool):
                raise SolverError(f"{name} must be True or False; got {flag!r}")
        generator = make_generator(seed)
        super().__init__(game)
        self.matrix: MatrixGame = game
        self.opponent = opponent
        self.fixed_player = fixed_player
        self.sampled = sampled
        self.seed = seed
        self.record_history = record_history

        self._payoffs: StrategyPair = (
            np.asarray(game.A, dtype=np.float64),  # [n_rows, n_cols]: P1's payoffs
            np.asarray(game.B, dtype=np.float64).T.copy(),  # [n_cols, n_rows]: P2's, own first
        )
        self._n_actions = game.shape
        self._fixed: FloatArray | None = None
        if opponent is not None:
            self._fixed = as_probability_vector(
                opponent,
                self._n_actions[fixed_player],
                f"the fixed opponent (P{fixed_player + 1}, {self._n_actions[fixed_player]} "
                "actions)",
            )
        self._generator = generator
        self._regrets: list[FloatArray] = [np.zeros(n) for n in self._n_actions]
        self._strategy_sums: list[FloatArray] = [np.zeros(n) for n in self._n_actions]
        self._history_current: list[list[FloatArray]] = [[], []]
        self._history_average: list[list[FloatArray]] = [[], []]

    def hyperparameters(self) -> dict[str, Any]:
        """The hyper-parameters, JSON-ready (the integer seed; None for a Generator)."""
        opponent = None if self.opponent is None else [float(p) for p in self.opponent]
        return {
            "opponent": opponent,
            "fixed_player": self.fixed_player,
            "sampled": self.sampled,
            "seed": seed_value(self.seed),
            "record_history": self.record_history,
        }

    def _is_learning(self, player: int) -> bool:
        return self._fixed is None or player != self.fixed_player

    def _strategy(self, player: int) -> FloatArray:
        if not self._is_learning(player):
            assert self._fixed is not None
            return self._fixed
        return regret_matching_strategy(self._regrets[player], check=False)

    # -- Solver ---------------------------------------------------------------------------
    def _iterate(self) -> None:
        self._run_batch(1)

    def _advance(self, count: int) -> None:
        self._run_batch(count)
        self.iterations += count

    def _run_batch(self, count: int) -> None:
        """Run ``count`` iterations (``self.iterations`` is advanced by the caller)."""
        # One block of uniforms per batch, consumed in order, so split runs equal one run.
        uniforms = self._generator.random((count, 2)) if self.sampled else None
        currents: list[FloatArray] = [np.empty((count, n)) for n in self._n_actions]
        sums: list[FloatArray] = [np.empty((count, n)) for n in self._n_actions]
        A_own, B_own = self._payoffs
        for t in range(count):
            row, col = self._strategy(0), self._strategy(1)
            if uniforms is None:
                row_values = A_own @ col  # [n_rows]: each row against P2's mix
                col_values = B_own @ row  # [n_cols]: each column against P1's mix
                row_regret = row_values - row @ row_values
                col_regret = col_values - col @ col_values
            else:
                row_action = _sample(row, uniforms[t, 0])
                col_action = _sample(col, uniforms[t, 1])
                row_regret = A_own[:, col_action] - A_own[row_action, col_action]
                col_regret = B_own[:, row_action] - B_own[col_action, row_action]
            for player, strategy, regret in ((0, row, row_regret), (1, col, col_regret)):
                if self._is_learning(player):
                    self._regrets[player] += regret
                # Summed one iteration at a time, so split runs match one run bit for bit.
                self._strategy_sums[player] += strategy
                currents[player][t] = strategy
                sums[player][t] = self._strategy_sums[player]
        if self.record_history:
            done = np.arange(self.iterations + 1, self.iterations + count + 1, dtype=np.float64)
            for player in (0, 1):
                self._history_current[player].append(currents[player])
                self._history_average[player].append(sums[player] / done[:, np.newaxis])

    def current_vectors(self) -> StrategyPair:
        """Both players' strategies for the next iteration, as probability vectors (copies).

        A learner's is the regret-matching strategy of its cumulative regrets (uniform
        before the first iteration); a fixed player's is its fixed strategy.
        """
        return (self._strategy(0).copy(), self._strategy(1).copy())

    def average_vectors(self) -> StrategyPair:
        """Both players' average strategies, as probability vectors (copies).

        Before any iteration: the current strategies (uniform for a learner).
        """
        if self.iterations == 0:
            return self.current_vectors()
        return (
            self._strategy_sums[0] / self.iterations,
            self._strategy_sums[1] / self.iterations,
        )

    def current_strategy(self) -> Strategy:
        """The strategies of the next iteration, as a Strategy over ``"P1"`` and ``"P2"``."""
        return matrix_strategy(
            self.matrix, *self.current_vectors(), metadata=strategy_metadata(self, "current")
        )

    def average_strategy(self) -> Strategy:
        """The average strategies, as a Strategy over ``"P1"`` and ``"P2"``."""
        return matrix_strategy(
            self.matrix, *self.average_vectors(), metadata=strategy_metadata(self, "average")
        )

    def regrets(self) -> StrategyPair:
        """Return copies of both players' cumulative regrets (zeros for a fixed player)."""
        return (self._regrets[0].copy(), self._regrets[1].copy())

    def trajectory(self) -> RegretMatchingHistory:
        """Return every iteration's current and average strategies (copies).

        Raises:
            SolverError: if the solver was made with ``record_history=False``.
        """
        if not self.record_history:
            raise SolverError(
                "the trajectory was not recorded; create the solver with record_history=True"
            )

        def stack(chunks: list[FloatArray], n_actions: int) -> FloatArray:
            if not chunks:
                return np.empty((0, n_actions))
            return np.concatenate(chunks, axis=0)

        n_rows, n_cols = self._n_actions
        return RegretMatchingHistory(
            iterations=np.arange(1, self.iterations + 1, dtype=np.int64),
            current_strategies=(
                stack(self._history_current[0], n_rows),
                stack(self._history_current[1], n_cols),
            ),
            average_strategies=(
                stack(self._history_average[0], n_rows),
                stack(self._history_average[1], n_cols),
            ),
        )

    # -- checkpoints ----------------------------------------------------------------------
    def _state(self) -> dict[str, Any]:
        state: dict[str, Any] = {"rng_state": self._generator.bit_generator.state}
        for player in (0, 1):
            state[f"regrets_{player}"] = self._regrets[player].copy()
            state[f"strategy_sum_{player}"] = self._strategy_sums[player].copy()
        if self.record_history and self.iterations:
            history = self.trajectory()
            for player in (0, 1):
                state[f"current_{player}"] = history.current_strategies[player]
                state[f"average_{player}"] = history.average_strategies[player]
        return state

    def _restore(self, state: dict[str, Any]) -> None:
        generator = generator_from_state(state.get("rng_state"))
        arrays: dict[str, FloatArray] = {}
        for player, n in enumerate(self._n_actions):
            for name in (f"regrets_{player}", f"strategy_sum_{player}"):
                value = state.get(name)
                if not isinstance(value, np.ndarray) or value.shape != (n,):
                    raise SolverError(
                        f"checkpoint state {name!r} must be an array of shape ({n},); got "
                        f"{getattr(value, 'shape', None)}"
                    )
                arrays[name] = value
        self._generator = generator
        self._regrets = [arrays["regrets_0"].astype(np.float64), arrays["regrets_1"].astype(
            np.float64)]
        self._strategy_sums = [
            arrays["strategy_sum_0"].astype(np.float64),
            arrays["strategy_sum_1"].astype(np.float64),
        ]
        self._history_current = [[], []]
        self._history_average = [[], []]
        for player in (0, 1):
            for name, target in (("current", self._history_current),
                                 ("average", self._history_average)):
                value = state.get(f"{name}_{player}")
                if isinstance(value, np.ndarray):
                    target[player].append(value.astype(np.float64))

    def __repr__(self) -> str:
        parts = [f"game={self.game.spec}"]
        if self.opponent is not None:
            parts.append(f"opponent={tuple(float(p) for p in self.opponent)}")
            parts.append(f"fixed_player={self.fixed_player}")
        if self.sampled:
            parts.append(f"sampled=True, seed={self.seed!r}")
        return f"RegretMatching({', '.join(parts)}) after {self.iterations} iterations"


def _sample(strategy: FloatArray, uniform: float) -> int:
    """The action whose cumulative-probability interval holds ``uniform`` (in [0, 1))."""
    cumulative = np.cumsum(strategy)
    action = int(np.searchsorted(cumulative, uniform * cumulative[-1], side="right"))
    return min(action, strategy.size - 1)


__all__ = [
    "RegretMatching",
    "RegretMatchingHistory",
    "StrategyPair",
    "action_regrets",
    "regret_matching_strategy",
]
