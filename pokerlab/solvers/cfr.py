"""The full-width CFR family on the compiled tree: CFR, CFR+, Linear CFR, Discounted CFR.

Counterfactual regret minimization (Zinkevich et al. 2007) keeps, at every infoset, a
cumulative regret per action and plays the regret-matching strategy of those regrets. One
iteration, for each updating player:

1. forward pass: every history's reach probability under the current strategies (the
   player's own, and the product of chance's and the others', the counterfactual reach);
   the player's own reach times its current strategy is added to the strategy sums;
2. backward pass: every history's expected value for the player; at the player's
   histories the counterfactual regret ``cf_reach * (value(child) - value(history))`` is
   added to the cumulative regret of the infoset's slot;
3. the cumulative regrets are discounted or floored as the variant asks, and regret
   matching gives the next current strategy.

The *average* strategy (strategy sums normalised per infoset) converges to a Nash
equilibrium in two-player zero-sum games; the current strategy need not.

Variants (all with alternating updates by default, as OpenSpiel and the papers):

- :class:`CFR`: uniform averaging (OpenSpiel's ``CFRSolver``);
- :class:`CFRPlus`: regret matching+ (cumulative regrets floored at 0) and linear
  averaging (iteration ``t`` weighs ``t``) (Tammelin 2014; OpenSpiel's ``CFRPlusSolver``);
- :class:`LinearCFR`: iteration ``t``'s regrets and strategy weigh ``t``;
- :class:`DiscountedCFR`: after iteration ``t`` positive cumulative regrets are multiplied
  by ``t^alpha / (t^alpha + 1)``, negative ones by ``t^beta / (t^beta + 1)``, and
  iteration ``t``'s strategy weighs ``t^gamma`` (Brown and Sandholm 2019).

Each iteration is one call of a compiled kernel (:mod:`pokerlab.solvers._cfr_kernels`)
over flat arrays: no Python per history, no allocation per iteration.

References:
    M. Zinkevich, M. Johanson, M. Bowling, C. Piccione, "Regret minimization in games
    with incomplete information", NIPS 2007. O. Tammelin, "Solving large imperfect
    information games using CFR+", 2014. N. Brown and T. Sandholm, "Solving
    imperfect-information games via discounted regret minimization", AAAI 2019.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np

from pokerlab._types import FloatArray, IntArray
from pokerlab.errors import SolverError
from pokerlab.games.base import Game
from pokerlab.solvers import _cfr_kernels as kernels
from pokerlab.solvers.base import RegretSolver, register_solver, strategy_metadata
from pokerlab.strategy import Strategy
from pokerlab.tree import CompiledTree, compile


class _FullWidthCFR(RegretSolver):
    """Shared machinery: the tree arrays, the state, one kernel call per iteration.

    Subclasses set :attr:`_floor` / :attr:`_discount` and implement :meth:`_schedule`.
    """

    algorithm: ClassVar[str] = "cfr"
    _floor: ClassVar[bool] = False
    _discount: ClassVar[bool] = False

    def __init__(self, game: Game, *, alternating: bool = True) -> None:
        if not isinstance(alternating, bool):
            raise SolverError(f"alternating must be True or False; got {alternating!r}")
        super().__init__(game)
        self.alternating = alternating
        tree = compile(game)
        self._tree: CompiledTree = tree
        n_histories = tree.n_histories
        n_players = tree.n_players
        shape = (tree.n_infosets, tree.max_actions)
        self._regrets: FloatArray = np.zeros(shape)
        self._strategy_sum: FloatArray = np.zeros(shape)
        uniform = 1.0 / np.maximum(tree.infoset_n_actions, 1)
        self._sigma: FloatArray = np.where(tree.legal_mask, uniform[:, None], 0.0)
        terminal_index = np.full(n_histories, -1, dtype=np.int64)
        terminal_index[tree.terminal_ids] = np.arange(tree.n_terminals, dtype=np.int64)
        self._terminal_index: IntArray = terminal_index
        order = np.argsort(tree.infoset_player, kind="stable").astype(np.int64)
        counts = np.bincount(tree.infoset_player, minlength=n_players)[:n_players]
        self._player_rows: IntArray = np.ascontiguousarray(order)
        self._player_row_offsets: IntArray = np.concatenate(([0], np.cumsum(counts))).astype(
            np.int64
        )
        self._payoffs: FloatArray = np.ascontiguousarray(tree.terminal_payoffs, dtype=np.float64)
        self._work: FloatArray = np.zeros((3, n_histories))
        self._infoset_reach: FloatArray = np.zeros(tree.n_infosets)
        simultaneous = not alternating
        self._reach: FloatArray = np.zeros(
            (n_histories if simultaneous else 1, n_players + 1)
        )
        self._values: FloatArray = np.zeros((n_histories if simultaneous else 1, n_players))

    # -- the variant ----------------------------------------------------------------------
    def _schedule(self, t: int) -> tuple[float, float, float, float]:
        """Weights of iteration ``t`` (1-based).

        Returns:
            ``(regret_weight, average_weight, positive_factor, negative_factor)``.
        """
        return 1.0, 1.0, 1.0, 1.0

    def hyperparameters(self) -> dict[str, Any]:
        """The hyper-parameters as given, JSON-ready (recorded in files)."""
        return {"alternating": self.alternating}

    # -- Solver ---------------------------------------------------------------------------
    def _iterate(self) -> None:
        tree = self._tree
        regret_weight, average_weight, positive, negative = self._schedule(self.iterations + 1)
        kernels.cfr_iteration(
            tree.player,
            tree.infoset,
            tree.first_child,
            tree.n_children,
            tree.chance_prob,
            self._terminal_index,
            self._payoffs,
            self._player_rows,
            self._player_row_offsets,
            tree.infoset_n_actions,
            self._regrets,
            self._strategy_sum,
            self._sigma,
            self._work,
            self._infoset_reach,
            self._reach,
            self._values,
            self.alternating,
            regret_weight,
            average_weight,
            self._floor,
            self._discount,
            positive,
            negative,
        )

    def average_probs(self) -> FloatArray:
        """The average strategy as a new ``[I, A]`` array (uniform where never reached)."""
        out = np.empty_like(self._strategy_sum)
        kernels.normalize_rows(self._strategy_sum, self._tree.infoset_n_actions, out)
        return out

    def current_strategy(self) -> Strategy:
        """The strategy the next iteration will play (a copy)."""
        return Strategy(self.game, self._sigma.copy(), strategy_metadata(self, "current"))

    # -- checkpoints ----------------------------------------------------------------------
    def _state(self) -> dict[str, Any]:
        return {
            "regrets": self._regrets.copy(),
            "strategy_sum": self._strategy_sum.copy(),
            "current": self._sigma.copy(),
        }

    def _restore(self, state: dict[str, Any]) -> None:
        for name, target in (
            ("regrets", self._regrets),
            ("strategy_sum", self._strategy_sum),
            ("current", self._sigma),
        ):
            value = state.get(name)
            if not isinstance(value, np.ndarray) or value.shape != target.shape:
                found = getattr(value, "shape", None)
                raise SolverError(
                    f"checkpoint state {name!r} must be an array of shape {target.shape}; "
                    f"got {found}"
                )
            target[...] = value

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.spec} after {self.iterations} iterations>"


@register_solver
class CFR(_FullWidthCFR):
    """Vanilla CFR: regret matching, uniform averaging (Zinkevich et al. 2007).

    With ``alternating=True`` (the default, as OpenSpiel's ``CFRSolver``) player 0 is
    updated first and player 1 then sees player 0's new strategy; with ``False`` every
    player is updated from the same strategies, as in the original paper.

    Example:
        >>> from pokerlab.games import kuhn
        >>> solver = CFR(kuhn()).run(iterations=100, check_every=100)
        >>> solver.iterations
        100
    """

    algorithm: ClassVar[str] = "cfr"


@register_solver
class CFRPlus(_FullWidthCFR):
    """CFR+: regret matching+ (regrets floored at 0) and linear averaging (Tammelin 2014).

    Iteration ``t`` adds ``t`` times the player's reach-weighted strategy to the strategy
    sums, as OpenSpiel's ``CFRPlusSolver`` (no averaging delay).
    """

    algorithm: ClassVar[str] = "cfr+"
    _floor: ClassVar[bool] = True

    def _schedule(self, t: int) -> tuple[float, float, float, float]:
        return 1.0, float(t), 1.0, 1.0


@register_solver
class LinearCFR(_FullWidthCFR):
    """Linear CFR: iteration ``t``'s regrets and strategy weigh ``t`` (Brown and Sandholm 2019).

    Equivalent to Discounted CFR with ``alpha = beta = gamma = 1``.
    """

    algorithm: ClassVar[str] = "lcfr"

    def _schedule(self, t: int) -> tuple[float, float, float, float]:
        return float(t), float(t), 1.0, 1.0


@register_solver
class DiscountedCFR(_FullWidthCFR):
    """Discounted CFR(alpha, beta, gamma) (Brown and Sandholm 2019).

    After iteration ``t`` positive cumulative regrets are multiplied by
    ``t^alpha / (t^alpha + 1)`` and negative ones by ``t^beta / (t^beta + 1)``; iteration
    ``t``'s strategy weighs ``t^gamma`` in the average. The defaults (1.5, 0, 2) are the
    paper's recommendation.

    Args:
        game: the game to solve.
        alpha: discount exponent of positive regrets, a finite number >= 0.
        beta: discount exponent of negative regrets, a finite number (0 halves them each
            iteration; more negative discounts them faster).
        gamma: exponent of the averaging weight, a finite number >= 0.
        alternating: update the players one after the other.

    Raises:
        SolverError: if a hyper-parameter is out of range.
    """

    algorithm: ClassVar[str] = "dcfr"
    _discount: ClassVar[bool] = True

    def __init__(
        self,
        game: Game,
        *,
        alpha: float = 1.5,
        beta: float = 0.0,
        gamma: float = 2.0,
        alternating: bool = True,
    ) -> None:
        for name, value, lowest in (("alpha", alpha, 0.0), ("beta", beta, None),
                                    ("gamma", gamma, 0.0)):
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not math.isfinite(value)
                or (lowest is not None and value < lowest)
            ):
                allowed = "a finite number >= 0" if lowest is not None else "a finite number"
                raise SolverError(f"{name} must be {allowed}; got {value!r}")
        self.alpha = alpha
        self.beta = beta
        self.gamma = gamma
        super().__init__(game, alternating=alternating)

    def hyperparameters(self) -> dict[str, Any]:
        """The hyper-parameters as given, JSON-ready (recorded in files)."""
        return {
            "alpha": self.alpha,
            "beta": self.beta,
            "gamma": self.gamma,
            "alternating": self.alternating,
        }

    def _schedule(self, t: int) -> tuple[float, float, float, float]:
        up = float(t) ** self.alpha
        down = float(t) ** self.beta
        return 1.0, float(t) ** self.gamma, up / (up + 1.0), down / (down + 1.0)


__all__ = ["CFR", "CFRPlus", "DiscountedCFR", "LinearCFR"]
