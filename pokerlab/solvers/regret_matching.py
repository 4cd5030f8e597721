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

import numpy as np
from numpy.typing import ArrayLike

from pokerlab._types import FloatArray, IntArray
from pokerlab.errors import SolverError
from pokerlab.games.base import Game
from pokerlab.games.matrix import MatrixGame
from pokerlab.solvers.normal_form import as_probability_vector

StrategyPair = tuple[FloatArray, FloatArray]
"""P1's and P2's probability vectors: ``([n_rows], [n_cols])``."""


def regret_matching_strategy(regrets: ArrayLike) -> FloatArray:
    """Return the regret-matching strategy of cumulative regrets.

    The positive parts of the regrets, normalised to sum to 1; uniform where no regret is
    positive. Works on the last axis, so a ``[n_infosets, n_actions]`` array gives one
    strategy per row.

    Args:
        regrets: cumulative regrets ``[..., n_actions]``.

    Returns:
        A new array of the same shape whose last axis holds probabilities.

    Raises:
        SolverError: if ``regrets`` is empty, zero-dimensional, or not finite.

    Example:
        >>> regret_matching_strategy([0.0, 1.0, 2.0]).round(4).tolist()
        [0.0, 0.3333, 0.6667]
        >>> regret_matching_strategy([-1.0, 0.0, -3.0]).round(4).tolist()
        [0.3333, 0.3333, 0.3333]
    """
    array = np.asarray(regrets, dtype=np.float64)
    if array.ndim == 0 or array.shape[-1] == 0:
        raise SolverError(
            f"regrets must be an array [..., n_actions] with at least one action; "
            f"got shape {array.shape}"
        )
    if not np.all(np.isfinite(array)):
        raise SolverError("regrets must be finite numbers; got NaN or infinity")
    positive = np.maximum(array, 0.0)
    total = positive.sum(axis=-1, keepdims=True)
    uniform = np.full_like(array, 1.0 / array.shape[-1])
    safe_total = np.where(total > 0.0, total, 1.0)
    return np.where(total > 0.0, positive / safe_total, uniform)


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


class RegretMatching:
    """Regret matching on a two-player matrix game, in self-play or against a fixed opponent.

    Hyper-parameters are keyword-only, stored as given, and validated here. ``run`` is
    cumulative: ``run(iterations=5000)`` twice equals ``run(iterations=10000)`` once, the
    sampled variant included (one random stream, drawn in order).

    Args:
        game: the matrix game.
        opponent: a fixed strategy for ``fixed_player``; ``None`` (default) for self-play,
            where both players learn.
        fixed_player: who plays ``opponent``: 0 (P1, the tutorial's setting: P2 learns) or
            1 (P2; P1 learns). Ignored in self-play.
        sampled: update regrets against sampled actions (both players sample from their
            current strategies each iteration) instead of against the opponent's current
            mixed strategy.
        rng: the random generator (or seed) for ``sampled=True``.
        record_history: keep every iteration's strategies for :meth:`history`
            (``2 * T * (n_rows + n_cols)`` floats).

    Raises:
        SolverError: if ``game`` is not a MatrixGame, ``fixed_player`` is not 0 or 1, or a
            flag is not a bool.
        StrategyError: if ``opponent`` is not a probability vector over the fixed player's
            actions.

    Example:
        >>> from pokerlab.games import load
        >>> solver = RegretMatching(load("rps"), opponent=(0.4, 0.3, 0.3)).run(iterations=1000)
        >>> solver.current_strategy()[1].tolist()   # P2 learns to always play Paper
        [0.0, 1.0, 0.0]
    """

    def __init__(
        self,
        game: Game,
        *,
        opponent: Sequence[float] | FloatArray | None = None,
        fixed_player: int = 0,
        sampled: bool = False,
        rng: np.random.Generator | int | None = None,
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
        self.game = game
        self.opponent = opponent
        self.fixed_player = fixed_player
        self.sampled = sampled
        self.rng = rng
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
        self._generator = np.random.default_rng(rng)
        self._regrets: list[FloatArray] = [np.zeros(n) for n in self._n_actions]
        self._strategy_sums: list[FloatArray] = [np.zeros(n) for n in self._n_actions]
        self._iterations = 0
        self._history_current: list[list[FloatArray]] = [[], []]
        self._history_average: list[list[FloatArray]] = [[], []]

    @property
    def iterations(self) -> int:
        """How many iterations have run, over every call of :meth:`run`."""
        return self._iterations

    def _is_learning(self, player: int) -> bool:
        return self._fixed is None or player != self.fixed_player

    def _strategy(self, player: int) -> FloatArray:
        if not self._is_learning(player):
            assert self._fixed is not None
            return self._fixed
        return _positive_part_normalised(self._regrets[player])

    def run(self, *, iterations: int) -> RegretMatching:
        """Run more iterations (cumulative with earlier calls) and return ``self``.

        Args:
            iterations: how many iterations to add (>= 1).

        Raises:
            SolverError: if ``iterations`` is not an integer >= 1.
        """
        if (
            isinstance(iterations, bool)
            or not isinstance(iterations, int | np.integer)
            or iterations < 1
        ):
            raise SolverError(f"iterations must be an integer >= 1; got {iterations!r}")
        count = int(iterations)
        # One block of uniforms per call, consumed in order, so split runs equal one run.
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
        done = np.arange(self._iterations + 1, self._iterations + count + 1, dtype=np.float64)
        averages = [sums[player] / done[:, np.newaxis] for player in (0, 1)]
        self._iterations += count
        if self.record_history:
            for player in (0, 1):
                self._history_current[player].append(currents[player])
                self._history_average[player].append(averages[player])
        return self

    def current_strategy(self) -> StrategyPair:
        """Return copies of both players' strategies for the next iteration.

        A learner's is the regret-matching strategy of its cumulative regrets (uniform
        before the first iteration); a fixed player's is its fixed strategy.
        """
        return (self._strategy(0).copy(), self._strategy(1).copy())

    def average_strategy(self) -> StrategyPair:
        """Return copies of both players' average strategies over the iterations run.

        Before any iteration: the current strategies (uniform for a learner).
        """
        if self._iterations == 0:
            return self.current_strategy()
        return (
            self._strategy_sums[0] / self._iterations,
            self._strategy_sums[1] / self._iterations,
        )

    def regrets(self) -> StrategyPair:
        """Return copies of both players' cumulative regrets (zeros for a fixed player)."""
        return (self._regrets[0].copy(), self._regrets[1].copy())

    def history(self) -> RegretMatchingHistory:
        """Return every iteration's current and average strategies (copies).

        Raises:
            SolverError: if the solver was made with ``record_history=False``.
        """
        if not self.record_history:
            raise SolverError(
                "history was not recorded; create the solver with record_history=True"
            )

        def stack(chunks: list[FloatArray], n_actions: int) -> FloatArray:
            if not chunks:
                return np.empty((0, n_actions))
            return np.concatenate(chunks, axis=0)

        n_rows, n_cols = self._n_actions
        return RegretMatchingHistory(
            iterations=np.arange(1, self._iterations + 1, dtype=np.int64),
            current_strategies=(
                stack(self._history_current[0], n_rows),
                stack(self._history_current[1], n_cols),
            ),
            average_strategies=(
                stack(self._history_average[0], n_rows),
                stack(self._history_average[1], n_cols),
            ),
        )

    def __repr__(self) -> str:
        parts = [f"game={self.game.spec}"]
        if self.opponent is not None:
            parts.append(f"opponent={tuple(float(p) for p in self.opponent)}")
            parts.append(f"fixed_player={self.fixed_player}")
        if self.sampled:
            parts.append(f"sampled=True, rng={self.rng!r}")
        return f"RegretMatching({', '.join(parts)}) after {self._iterations} iterations"


def _positive_part_normalised(regrets: FloatArray) -> FloatArray:
    """:func:`regret_matching_strategy` of a 1-D array, without checks (the hot path)."""
    positive = np.maximum(regrets, 0.0)
    total = positive.sum()
    if total > 0.0:
        return positive / total  # type: ignore[no-any-return]
    return np.full(regrets.size, 1.0 / regrets.size)


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
