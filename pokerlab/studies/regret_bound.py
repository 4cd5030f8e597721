"""Regret minimization, proved and measured: average regret against the theorems' bounds.

The tutorial's CFR chapter lists "proofs of regret minimization". The two theorems, and
what this module measures beside them:

1. **Regret matching** (Hart and Mas-Colell 2000; the form of Zinkevich et al. 2007,
   Theorem 8): playing each action in proportion to its positive cumulative regret keeps
   the largest regret after ``T`` rounds at most ``Delta sqrt(|A| T)``, whatever the
   opponent does, where ``Delta`` bounds the spread of one round's payoffs. The proof in
   three lines: the regret vector ``r_t`` of round ``t`` satisfies ``sigma_t . r_t = 0``
   and ``sigma_t`` is proportional to ``R_{t-1}^+``, so ``R_{t-1}^+ . r_t = 0``; then
   ``|R_t^+|^2 <= |R_{t-1}^+ + r_t|^2 = |R_{t-1}^+|^2 + |r_t|^2 <= |R_{t-1}^+|^2 + |A|
   Delta^2``; summing, ``max_a R_T(a) <= |R_T^+| <= Delta sqrt(|A| T)``. On
   Rock-Paper-Scissors ``Delta = 2`` and ``|A| = 3``: the average regret is at most
   ``2 sqrt(3 / T)``. :func:`rps_regret` measures it against the tutorial's fixed
   (0.4, 0.3, 0.3) and against a best response to the learner's current strategy.
2. **CFR** (Zinkevich et al. 2007, Theorem 4): each infoset runs regret matching on its
   counterfactual values, and a player's overall regret is at most the sum of the
   infosets' positive immediate counterfactual regrets, so
   ``R_i^T / T <= Delta_i |I_i| sqrt(|A_i|) / sqrt(T)``, with ``Delta_i`` the spread of
   player ``i``'s payoffs, ``|I_i|`` its number of infosets and ``|A_i|`` its most actions.
   :func:`cfr_regret` runs :class:`pokerlab.solvers.CFR` with simultaneous updates (the
   theorem's setting) and measures each player's regret exactly: since a player's value
   is linear in the opponent's realization plan, ``R_i^T / T = BR_i(average of the
   opponent) - (1/T) sum_t u_i(sigma^t)``, with ``sigma^t`` the strategies played in
   iteration ``t`` and the average CFR's (uniform) average strategy. In a two-player
   zero-sum game the two players' average regrets add up to the NashConv of the average
   profile, exactly (the values ``u_1 + u_2`` cancel): the folk theorem that turns no
   regret into an equilibrium.

References:
    S. Hart and A. Mas-Colell, "A simple adaptive procedure leading to correlated
    equilibrium", Econometrica 68(5), 2000. M. Zinkevich, M. Johanson, M. Bowling,
    C. Piccione, "Regret minimization in games with incomplete information", NIPS 2007.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from pokerlab._types import FloatArray, IntArray
from pokerlab.errors import PokerlabError
from pokerlab.eval import best_response_values_array, expected_values_array
from pokerlab.games import Game
from pokerlab.solvers import CFR
from pokerlab.strategy.regrets import regret_matching_strategy
from pokerlab.tree import compile

RPS = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])
"""The learner's payoff at Rock-Paper-Scissors: row its action, column the opponent's."""

RPS_OPPONENTS = ("fixed", "best-response")
"""The opponents of :func:`rps_regret`: the tutorial's (0.4, 0.3, 0.3), and a best response
to the learner's current strategy (ties to the first action)."""


@dataclass(frozen=True)
class RegretCurve:
    """Measured average regret against the bound, at checkpoints.

    Attributes:
        label: what was run (``"RM vs fixed"``, ``"CFR on kuhn"``...).
        iterations: ``[checkpoints]`` the T of each measurement.
        average_regret: ``[checkpoints, players]`` each learning player's ``R^T / T``
            (chips or payoff units per round); one column for regret matching.
        bound: ``[checkpoints]`` the theorem's bound on ``R^T / T``.
        nash_conv: ``[checkpoints]`` CFR only: NashConv of the average profile (equals
            the sum of the players' average regrets); empty for regret matching.
        constant: the bound's constant ``c`` in ``c / sqrt(T)``.
    """

    label: str
    iterations: IntArray
    average_regret: FloatArray
    bound: FloatArray
    nash_conv: FloatArray
    constant: float


def checkpoints(iterations: int, per_decade: int = 4) -> IntArray:
    """Log-spaced iteration counts from 1 to ``iterations`` (both included).

    Example:
        >>> checkpoints(100, per_decade=2).tolist()
        [1, 3, 10, 32, 100]
    """
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise PokerlabError(f"iterations must be an integer >= 1; got {iterations!r}")
    points = np.unique(np.round(np.logspace(0, math.log10(iterations),
                                            max(2, int(per_decade * math.log10(iterations)) + 1))))
    points = points.astype(np.int64)
    return np.unique(np.concatenate([points, [iterations]]))


def rm_constant(actions: int = 3, payoff_spread: float = 2.0) -> float:
    """``Delta sqrt(|A|)``: regret matching's average regret is at most this over ``sqrt(T)``.

    ``payoff_spread`` bounds how far one round's regret of an action can go (the spread of
    the payoffs: 2 in Rock-Paper-Scissors, from -1 to 1).
    """
    return payoff_spread * math.sqrt(actions)


def rps_regret(
    opponent: str = "fixed",
    iterations: int = 100_000,
    *,
    fixed: Sequence[float] = (0.4, 0.3, 0.3),
    per_decade: int = 4,
) -> RegretCurve:
    """Regret matching on Rock-Paper-Scissors: its average regret at checkpoints.

    Full information, no sampling: each round the learner's regret of action ``a`` grows by
    ``u(a, y_t) - u(sigma_t, y_t)`` with ``y_t`` the opponent's strategy of the round
    (:class:`pokerlab.solvers.RegretMatching` does the same against a fixed opponent).

    Raises:
        PokerlabError: an unknown opponent, or a bad ``fixed`` or ``iterations``.
    """
    if opponent not in RPS_OPPONENTS:
        raise PokerlabError(f"unknown opponent {opponent!r}; known: {', '.join(RPS_OPPONENTS)}")
    mix = np.asarray(fixed, dtype=np.float64)
    if mix.shape != (3,) or np.any(mix < 0) or not math.isclose(float(mix.sum()), 1.0):
        raise PokerlabError(f"fixed must be probabilities of Rock, Paper, Scissors; got {fixed!r}")
    marks = checkpoints(iterations, per_decade)
    regrets = np.zeros(3)
    measured = np.empty((marks.shape[0], 1))
    k = 0
    for t in range(1, iterations + 1):
        sigma = regret_matching_strategy(regrets, check=False)
        if opponent == "fixed":
            other = mix
        else:  # the opponent's best action against sigma: the learner's worst column
            other = np.zeros(3)
            other[int(np.argmin(sigma @ RPS))] = 1.0
        values = RPS @ other
        regrets += values - sigma @ values
        if t == marks[k]:
            measured[k, 0] = max(float(regrets.max()), 0.0) / t
            k += 1
    constant = rm_constant()
    return RegretCurve(
        label=f"RM on RPS vs {opponent}",
        iterations=marks,
        average_regret=measured,
        bound=constant / np.sqrt(marks),
        nash_conv=np.empty(0),
        constant=constant,
    )


def cfr_constants(game: Game) -> tuple[float, ...]:
    """Per player, ``Delta_i |I_i| sqrt(|A_i|)``: CFR's average regret is at most this / sqrt(T)."""
    tree = compile(game)
    constants = []
    for player in range(tree.n_players):
        payoffs = tree.terminal_payoffs[:, player]
        spread = float(payoffs.max() - payoffs.min())
        mine = tree.infosets_of(player)
        most = int(tree.infoset_n_actions[mine].max())
        constants.append(spread * mine.shape[0] * math.sqrt(most))
    return tuple(constants)


def cfr_regret(
    game: Game,
    iterations: int = 10_000,
    *,
    per_decade: int = 4,
    progress: Callable[[int], None] | None = None,
) -> RegretCurve:
    """CFR (simultaneous updates) on a two-player zero-sum game: each player's average regret.

    Before each iteration the strategies it will play are evaluated exactly; at each
    checkpoint, each player's best response to the opponent's average strategy.

    Raises:
        PokerlabError: if the game does not have two players.
    """
    if game.n_players != 2:
        raise PokerlabError(f"cfr_regret measures two-player games; {game.spec} has "
                            f"{game.n_players} players")
    tree = compile(game)
    solver = CFR(game, alternating=False)
    marks = checkpoints(iterations, per_decade)
    value_sums = np.zeros(2)
    regrets = np.empty((marks.shape[0], 2))
    nash_conv = np.empty(marks.shape[0])
    k = 0
    for t in range(1, iterations + 1):
        value_sums += expected_values_array(tree, solver.current_strategy().probs)
        solver.run(iterations=1, check_every=iterations + 1)
        if t == marks[k]:
            average = solver.average_strategy().probs
            responses = best_response_values_array(tree, average)
            regrets[k] = responses - value_sums / t
            nash_conv[k] = float(responses.sum() - expected_values_array(tree, average).sum())
            k += 1
        if progress is not None:
            progress(t)
    constants = cfr_constants(game)
    if not math.isclose(constants[0], constants[1]):
        raise PokerlabError(f"{game.spec}: the players' bounds differ ({constants}); this study "
                            "draws one bound")
    return RegretCurve(
        label=f"CFR on {game.spec}",
        iterations=marks,
        average_regret=regrets,
        bound=constants[0] / np.sqrt(marks),
        nash_conv=nash_conv,
        constant=constants[0],
    )


def regret_figure(curves: Sequence[RegretCurve], path: str) -> str:
    """Log-log plots of each curve's average regret with its bound (dashed), one panel each."""
    from pokerlab.studies._figures import pyplot, save_figure

    if not curves:
        raise PokerlabError("regret_figure needs at least one curve")
    plt = pyplot()
    figure, axes = plt.subplots(1, len(curves), figsize=(5 * len(curves), 4.3), squeeze=False)
    for axis, curve in zip(axes[0], curves, strict=True):
        for player in range(curve.average_regret.shape[1]):
            name = "learner" if curve.average_regret.shape[1] == 1 else f"P{player + 1}"
            axis.loglog(curve.iterations, np.maximum(curve.average_regret[:, player], 1e-12),
                        marker=".", label=f"{name}: measured R/T")
        axis.loglog(curve.iterations, curve.bound, "k--",
                    label=f"bound {curve.constant:.4g} / sqrt(T)")
        if curve.nash_conv.size:
            axis.loglog(curve.iterations, np.maximum(curve.nash_conv, 1e-12), ":",
                        color="tab:gray", label="NashConv of the average")
        axis.set_title(curve.label, fontsize=10)
        axis.set_xlabel("iterations T")
        axis.set_ylabel("average regret")
        axis.grid(True, which="major", alpha=0.3)
        axis.legend(fontsize=7)
    figure.tight_layout()
    return str(save_figure(figure, path))


__all__ = [
    "RPS",
    "RPS_OPPONENTS",
    "RegretCurve",
    "cfr_constants",
    "cfr_regret",
    "checkpoints",
    "regret_figure",
    "rm_constant",
    "rps_regret",
]
