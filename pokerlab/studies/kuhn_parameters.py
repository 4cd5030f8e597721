"""Kuhn poker with other antes and bets: section 3.2's remark about betting the A, shown.

The tutorial (section 3.2, "Main takeaways") remarks that P1's value does not depend on
``y``, how often P1 bets the A, and that "if the pot did not start at $2, P1 should always
bet or always check the A (the math above would change and the result would depend on
y)". ``kuhn(ante=..., bet=...)`` plays that game; this study shows the remark three ways,
for several (ante, bet) pairs:

1. the exact game value by the sequence-form LP, beside the closed form of
   :func:`pokerlab.strategy.kuhn_solution.kuhn_value`, and the values of ``y`` some
   equilibrium uses (:func:`~pokerlab.strategy.kuhn_solution.y_range`);
2. P1's value when committed to betting the A with probability ``y`` (and playing the rest
   of the game as well as possible against a P2 who knows it): one restricted LP per ``y``,
   :func:`value_given_y`. It is flat in ``y`` only when the ante equals the bet; otherwise
   it peaks at ``y = 1`` (bet smaller than the ante) or ``y = 0`` (bet larger);
3. against P2's equilibrium strategy, what betting the A gains over checking it, per hand
   in which P1 holds the A, measured on the game tree (:func:`a_bet_gain`) beside the
   closed form ``bet (ante - bet) / (2 ante + bet)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from scipy import sparse
from scipy.optimize import linprog

from pokerlab._types import FloatArray
from pokerlab.errors import PokerlabError
from pokerlab.eval import expected_value
from pokerlab.games import kuhn
from pokerlab.games.kuhn import BET, KuhnGame
from pokerlab.solvers import build_sequence_form, solve_sequence_form
from pokerlab.strategy import Strategy
from pokerlab.strategy.kuhn_solution import kuhn_equilibrium, kuhn_value, y_range
from pokerlab.tree import compile

DEFAULT_PAIRS: tuple[tuple[int, int], ...] = (
    (1, 1), (2, 2), (2, 1), (3, 2), (2, 3), (1, 2), (1, 3)
)
"""(ante, bet) pairs of the study: the tutorial's, a multiple, bets below and above the ante."""


@dataclass(frozen=True)
class AnteBetRow:
    """One (ante, bet) pair's figures, P1's view, chips per hand.

    Attributes:
        ante: chips each player antes (the pot starts at twice this).
        bet: the bet size.
        lp_value: the game value from the sequence-form LP.
        closed_form: the closed form, exactly.
        y_low: the smallest probability of betting the A in an equilibrium of P1.
        y_high: the largest.
        lp_y: the probability of betting the A in the LP's equilibrium.
        value_y0: P1's value when committed to checking the A (:func:`value_given_y`).
        value_y1: P1's value when committed to betting the A.
        a_bet_gain: against P2's equilibrium, betting the A minus checking it, per hand in
            which P1 holds the A (:func:`a_bet_gain`).
        a_bet_gain_closed_form: ``bet (ante - bet) / (2 ante + bet)`` (0 above twice the ante).
    """

    ante: int
    bet: int
    lp_value: float
    closed_form: Fraction
    y_low: float
    y_high: float
    lp_y: float
    value_y0: float
    value_y1: float
    a_bet_gain: float
    a_bet_gain_closed_form: Fraction


def _bet_sequence(game: KuhnGame) -> int:
    """P1's sequence id of betting the A at the start (the infoset ``"A|"``)."""
    tree = compile(game)
    infoset = tree.infoset_id(game.card_names[-1] + "|")
    slots = [k for k in range(int(tree.infoset_n_actions[infoset]))
             if int(tree.infoset_actions[infoset, k]) == BET]
    return int(tree.seq_offset[infoset]) + slots[0]


def value_given_y(game: KuhnGame, y: float) -> float:
    """P1's best value when it must bet its highest card at the start with probability ``y``.

    The sequence-form LP of P1 (maximise ``f^T q`` subject to ``F^T q <= A^T x``,
    ``E x = e``, ``x >= 0``) with one more constraint: the realization of "bet the top card
    at the start" is ``y``. P2 knows ``y`` (it best-responds to the whole plan), so this is
    the most P1 can guarantee with that commitment.

    Raises:
        PokerlabError: if ``y`` is not in ``[0, 1]``, or the game is not 2-player Kuhn.
    """
    if not 0.0 <= y <= 1.0:
        raise PokerlabError(f"y (P1's probability of betting the A) must be in [0, 1]; got {y}")
    if game.n_players != 2:
        raise PokerlabError(f"value_given_y needs 2-player Kuhn; got {game.spec}")
    form = build_sequence_form(game)
    n1, _ = form.n_sequences
    m2 = form.F.shape[0]
    c = np.concatenate([np.zeros(n1), -form.f])
    A_ub = sparse.hstack([-form.A.T, form.F.T], format="csc")
    A_eq = sparse.hstack([form.E, sparse.csr_array((form.E.shape[0], m2))], format="csc")
    bounds: list[tuple[float | None, float | None]] = [(0.0, None)] * n1 + [(None, None)] * m2
    bounds[_bet_sequence(game)] = (y, y)
    result = linprog(c, A_ub=A_ub, b_ub=np.zeros(A_ub.shape[0]), A_eq=A_eq, b_eq=form.e,
                     bounds=bounds, method="highs")
    if result.status != 0:
        raise PokerlabError(f"HiGHS could not solve the restricted LP of {game.spec}: "
                            f"{result.message}")
    return float(-result.fun)


def a_bet_gain(ante: int, bet: int) -> float:
    """Betting the A minus checking it, against P2's equilibrium, per hand P1 holds the A.

    Measured on the game tree: P1 plays :func:`kuhn_equilibrium` except at ``"A|"``, once
    always betting and once always checking, against the equilibrium P2; the difference of
    P1's values is divided by 1/3 (the chance of holding the A).
    """
    game = kuhn(ante=ante, bet=bet)
    base = kuhn_equilibrium(ante=ante, bet=bet)
    values = []
    for row in ([0.0, 1.0], [1.0, 0.0]):
        probs = base.probs.copy()
        probs[compile(game).infoset_id("A|")] = row
        values.append(expected_value(game, Strategy(game, probs))[0])
    return 3.0 * (values[0] - values[1])


def a_bet_gain_closed_form(ante: int, bet: int) -> Fraction:
    """``bet (ante - bet) / (2 ante + bet)``, and 0 once the bet is more than twice the ante.

    Against the P2 of :func:`kuhn_equilibrium` (``bet / 2 * (a - b)``); above twice the ante
    P2 neither calls with the K nor bluffs, and betting the A wins the ante like checking.
    """
    if bet > 2 * ante:
        return Fraction(0)
    return Fraction(bet * (ante - bet), 2 * ante + bet)


def ante_bet_row(ante: int, bet: int) -> AnteBetRow:
    """Every figure of the study for one (ante, bet) pair."""
    game = kuhn(ante=ante, bet=bet)
    solution = solve_sequence_form(game)
    low, high = y_range(ante=ante, bet=bet)
    return AnteBetRow(
        ante=ante,
        bet=bet,
        lp_value=solution.value,
        closed_form=kuhn_value(ante=ante, bet=bet),
        y_low=low,
        y_high=high,
        lp_y=float(solution.strategy.probabilities("A|")[BET]),
        value_y0=value_given_y(game, 0.0),
        value_y1=value_given_y(game, 1.0),
        a_bet_gain=a_bet_gain(ante, bet),
        a_bet_gain_closed_form=a_bet_gain_closed_form(ante, bet),
    )


def study(pairs: Sequence[tuple[int, int]] = DEFAULT_PAIRS) -> list[AnteBetRow]:
    """The study's table: one row per (ante, bet) pair."""
    if not pairs:
        raise PokerlabError("the study needs at least one (ante, bet) pair")
    return [ante_bet_row(ante, bet) for ante, bet in pairs]


def value_curves(
    pairs: Sequence[tuple[int, int]] = DEFAULT_PAIRS, points: int = 21
) -> tuple[FloatArray, dict[tuple[int, int], FloatArray]]:
    """``y`` on a grid of ``points`` values in ``[0, 1]``, and :func:`value_given_y` per pair."""
    if points < 2:
        raise PokerlabError(f"points must be at least 2; got {points}")
    ys = np.linspace(0.0, 1.0, points)
    curves = {}
    for ante, bet in pairs:
        game = kuhn(ante=ante, bet=bet)
        curves[(ante, bet)] = np.array([value_given_y(game, float(y)) for y in ys])
    return ys, curves


def curves_figure(ys: FloatArray, curves: dict[tuple[int, int], FloatArray], path: str) -> str:
    """Plot P1's value against its commitment ``y``, per (ante, bet), scaled by the ante.

    Left: the value per chip of ante (so the tutorial's game and its multiples coincide);
    right: the same minus the game value, which is 0 exactly where ``y`` is an equilibrium's.
    """
    from pokerlab.studies._figures import pyplot, save_figure

    if not curves:
        raise PokerlabError("curves_figure needs at least one curve")
    plt = pyplot()
    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    for (ante, bet), values in curves.items():
        label = f"ante {ante}, bet {bet}"
        best = float(kuhn_value(ante=ante, bet=bet))
        left.plot(ys, values / ante, marker=".", label=label)
        right.plot(ys, (values - best) / ante, marker=".", label=label)
    left.set_title("P1's value committed to betting the A with y (per chip of ante)")
    right.set_title("the same, minus the game value (0: an equilibrium's y)")
    for axis in (left, right):
        axis.set_xlabel("y: P1's probability of betting the A")
        axis.grid(True, alpha=0.3)
        axis.legend(fontsize=8)
    left.set_ylabel("chips per hand / ante")
    figure.tight_layout()
    return str(save_figure(figure, path))


__all__ = [
    "DEFAULT_PAIRS",
    "AnteBetRow",
    "a_bet_gain",
    "a_bet_gain_closed_form",
    "ante_bet_row",
    "curves_figure",
    "study",
    "value_curves",
    "value_given_y",
]
