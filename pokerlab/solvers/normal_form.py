"""Normal-form game theory over payoff matrices: dominance, pure and mixed equilibria, LP.

Every function takes either a :class:`~pokerlab.games.matrix.MatrixGame` or plain
payoff arrays: ``A`` (P1, the row player) and optionally ``B`` (P2, the column player),
both ``[n_rows, n_cols]``. Given ``A`` alone, the game is taken as zero-sum (``B = -A``).
Payoffs are in the game's units (chips for poker); player 0 is P1, player 1 is P2.

What is here, following section 3 of the AI Poker Tutorial:

1. :func:`eliminate_dominated`: iterated elimination of strictly (or weakly) dominated
   pure strategies, with every step recorded (who removed which action, dominated by which).
2. :func:`pure_nash_equilibria`: every cell where each action is a best response to the other.
3. :func:`mixed_equilibrium_2x2`: the fully mixed equilibrium of a 2x2 game by the
   indifference principle (each player mixes so that the other is indifferent).
4. :func:`solve_zero_sum`: the value and optimal strategies of a zero-sum game, by linear
   programming (HiGHS through :func:`scipy.optimize.linprog`).
5. :func:`best_response_to` and :func:`expected_payoffs`: exploiting a fixed mixed strategy.
   These are the matrix view of :func:`pokerlab.eval.best_response` and
   :func:`pokerlab.eval.expected_value`, which compute them (a matrix game is a small
   extensive game: P1 picks a row, P2 a column without seeing it);
   :func:`matrix_strategy` and :func:`strategy_vectors` convert between probability
   vectors and the :class:`~pokerlab.strategy.Strategy` the evaluators take.

Example:
    >>> from pokerlab.games import load
    >>> result = eliminate_dominated(load("dominance"))
    >>> result.row_names, result.col_names
    (('Action 1',), ('Action 1',))
    >>> solution = solve_zero_sum(load("rps"))
    >>> round(solution.value, 9), solution.row_strategy.round(6).tolist()
    (0.0, [0.333333, 0.333333, 0.333333])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from pokerlab._types import FloatArray
from pokerlab.errors import SolverError, StrategyError
from pokerlab.eval import best_response, expected_value
from pokerlab.games.base import Game
from pokerlab.games.matrix import MatrixGame, bimatrix
from pokerlab.strategy import Strategy
from pokerlab.tree import compile

PROBABILITY_TOLERANCE = 1e-9
"""How far a strategy's sum may be from 1 (and its entries below 0) and still be accepted."""

_PLAYER_NAMES = ("P1", "P2")

StrategyPair = tuple[FloatArray, FloatArray]
"""P1's and P2's probability vectors: ``([n_rows], [n_cols])``."""


# --------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True, slots=True)
class EliminationStep:
    """One action removed during iterated elimination of dominated strategies."""

    round: int
    """The pass (1, 2, ...) in which the action was removed."""
    player: int
    """Who removed it: 0 (P1, a row) or 1 (P2, a column)."""
    action_id: int
    """The removed action's index in the original game."""
    action_name: str
    """The removed action's name."""
    dominated_by_id: int
    """The index (in the original game) of an action that dominates it."""
    dominated_by_name: str
    """The name of that dominating action."""
    is_strict: bool
    """True when the dominance is strict (better against every remaining opponent action)."""

    def __str__(self) -> str:
        kind = "strictly" if self.is_strict else "weakly"
        return (
            f"{_PLAYER_NAMES[self.player]} removes {self.action_name!r}, {kind} dominated "
            f"by {self.dominated_by_name!r}"
        )


@dataclass(frozen=True, slots=True)
class EliminationResult:
    """What is left of a game after iterated elimination of dominated pure strategies."""

    row_ids: tuple[int, ...]
    """P1's remaining actions (indices in the original game), in their original order."""
    col_ids: tuple[int, ...]
    """P2's remaining actions (indices in the original game), in their original order."""
    row_names: tuple[str, ...]
    """Names of the remaining rows."""
    col_names: tuple[str, ...]
    """Names of the remaining columns."""
    steps: tuple[EliminationStep, ...]
    """Every removal, in the order it was made."""
    weak: bool
    """True when weakly dominated actions were removed too (the result may then depend on
    the order of removal; see :func:`eliminate_dominated`)."""

    @property
    def is_solved(self) -> bool:
        """True when a single cell remains (a pure equilibrium found by dominance alone)."""
        return len(self.row_ids) == 1 and len(self.col_ids) == 1


@dataclass(frozen=True, slots=True, eq=False)
class MixedEquilibrium:
    """The fully mixed equilibrium of a 2x2 game.

    Probabilities are of each player's first action (row 0, column 0); payoffs are the
    expected payoffs per game at the equilibrium, in the game's units.
    """

    p: float
    """Probability that P1 plays the first row."""
    q: float
    """Probability that P2 plays the first column."""
    row_strategy: FloatArray
    """P1's strategy ``(p, 1 - p)``. # [2]"""
    col_strategy: FloatArray
    """P2's strategy ``(q, 1 - q)``. # [2]"""
    row_payoff: float
    """P1's expected payoff."""
    col_payoff: float
    """P2's expected payoff."""

    @property
    def outcome_probabilities(self) -> FloatArray:
        """Probability of every cell: ``[row, col]``, the outer product of the strategies."""
        return np.outer(self.row_strategy, self.col_strategy)


@dataclass(frozen=True, slots=True, eq=False)
class ZeroSumSolution:
    """The value and a pair of optimal (minimax) strategies of a zero-sum matrix game."""

    value: float
    """What P1 wins per game when both play optimally (P2 wins ``-value``)."""
    row_strategy: FloatArray
    """An optimal strategy for P1: it guarantees at least ``value``. # [n_rows]"""
    col_strategy: FloatArray
    """An optimal strategy for P2: it concedes at most ``value``. # [n_cols]"""


class BestResponseActions(NamedTuple):
    """The pure best responses to a fixed strategy, and what they earn."""

    action_ids: tuple[int, ...]
    """Every action that earns the maximum (ties all listed, in order)."""
    payoff: float
    """The responding player's expected payoff per game with any of them."""


# --------------------------------------------------------------------------------------
# Input normalisation


@dataclass(frozen=True, slots=True, eq=False)
class _Payoffs:
    A: FloatArray  # [n_rows, n_cols], P1's payoffs
    B: FloatArray  # [n_rows, n_cols], P2's payoffs
    row_names: tuple[str, ...]
    col_names: tuple[str, ...]
    is_game: bool
    b_given: bool

    @property
    def is_zero_sum(self) -> bool:
        scale = max(1.0, float(np.max(np.abs(self.A))))
        return bool(np.all(np.abs(self.A + self.B) <= 1e-12 * scale))


def _matrix(value: ArrayLike, what: str) -> FloatArray:
    try:
        array = np.array(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise SolverError(f"{what} must be a 2-D array of numbers; got {value!r} ({exc})") from None
    if array.ndim != 2 or array.shape[0] == 0 or array.shape[1] == 0:
        raise SolverError(
            f"{what} must be a non-empty 2-D array [n_rows, n_cols]; got shape {array.shape}"
        )
    if not np.all(np.isfinite(array)):
        raise SolverError(f"{what} must hold finite numbers only; got NaN or infinity")
    return array


def _payoffs(game: Game | ArrayLike, B: ArrayLike | None = None) -> _Payoffs:
    if isinstance(game, Game) and not isinstance(game, MatrixGame):
        raise SolverError(
            f"{game.spec} is not a matrix game; pass a MatrixGame (load('rps'), bimatrix(...), "
            "matrix_from_file(...)) or payoff arrays A (and B)"
        )
    if isinstance(game, MatrixGame):
        if B is not None:
            raise SolverError("pass either a MatrixGame or arrays A (and B), not a game and B")
        return _Payoffs(
            game.A.astype(np.float64),
            game.B.astype(np.float64),
            game.row_names,
            game.col_names,
            is_game=True,
            b_given=True,
        )
    A = _matrix(game, "A (P1's payoffs)")
    if B is None:
        B_array = -A
    else:
        B_array = _matrix(B, "B (P2's payoffs)")
        if B_array.shape != A.shape:
            raise SolverError(
                f"A and B must have the same shape [n_rows, n_cols]; got {A.shape} and "
                f"{B_array.shape}"
            )
    rows = tuple(f"Row {i + 1}" for i in range(A.shape[0]))
    cols = tuple(f"Col {j + 1}" for j in range(A.shape[1]))
    return _Payoffs(A, B_array, rows, cols, is_game=False, b_given=B is not None)


def _check_player(player: int) -> int:
    if isinstance(player, bool) or not isinstance(player, int | np.integer) or player not in (0, 1):
        raise SolverError(f"player must be 0 (P1, rows) or 1 (P2, columns); got {player!r}")
    return int(player)


def as_probability_vector(strategy: ArrayLike, n_actions: int, what: str) -> FloatArray:
    """Return ``strategy`` as a float array after checking it is a probability vector.

    Args:
        strategy: probabilities, one per action.
        n_actions: how many actions the player has.
        what: how to name the strategy in an error message (``"P1's strategy"``).

    Returns:
        A new float64 array ``[n_actions]``.

    Raises:
        StrategyError: if it has the wrong length, a negative or non-finite entry, or does
            not sum to 1 (within :data:`PROBABILITY_TOLERANCE`).
    """
    try:
        vector = np.array(strategy, dtype=np.float64)
    except (TypeError, ValueError):
        raise StrategyError(
            f"{what} must be {n_actions} probabilities summing to 1; got {strategy!r}"
        ) from None
    if vector.shape != (n_actions,):
        raise StrategyError(
            f"{what} must be {n_actions} probabilities (one per action); got shape {vector.shape}"
        )
    if not np.all(np.isfinite(vector)) or np.any(vector < -PROBABILITY_TOLERANCE):
        raise StrategyError(f"{what} must hold probabilities >= 0; got {vector.tolist()}")
    total = float(vector.sum())
    if abs(total - 1.0) > PROBABILITY_TOLERANCE:
        raise StrategyError(f"{what} must sum to 1; got {vector.tolist()} (sum {total:.12g})")
    return np.clip(vector, 0.0, None)


# --------------------------------------------------------------------------------------
# Dominance


def _dominator(
    payoffs: FloatArray, candidate: int, alive: Sequence[int], *, weak: bool
) -> tuple[int, bool] | None:
    """The first alive action that dominates ``candidate``; rows of ``payoffs`` are actions."""
    mine = payoffs[candidate]
    for other in alive:
        if other == candidate:
            continue
        theirs = payoffs[other]
        if np.all(theirs > mine):
            return other, True
        if weak and np.all(theirs >= mine) and np.any(theirs > mine):
            return other, False
    return None


def eliminate_dominated(
    game: Game | ArrayLike, B: ArrayLike | None = None, *, weak: bool = False
) -> EliminationResult:
    """Remove dominated pure strategies, again and again, until none is left.

    An action is strictly dominated when another action of the same player earns strictly
    more against every remaining action of the opponent; weakly dominated when it earns at
    least as much everywhere and strictly more somewhere.

    Strict elimination works in passes: each pass finds, on the game left by the previous
    pass, every dominated row (P1) and every dominated column (P2), and removes them all.
    The result does not depend on the order (a standard fact for strict dominance).
    Weak elimination (``weak=True``) removes P1's dominated rows, then P2's dominated
    columns in the game without them, pass after pass; its result can depend on that order.
    Within one player's turn actions are examined in their index order; the recorded
    dominator is the first (lowest index) dominating action still present.

    Args:
        game: a matrix game, or P1's payoff matrix ``A`` ``[n_rows, n_cols]``.
        B: P2's payoff matrix when ``game`` is an array (default ``-A``: zero-sum).
        weak: also remove weakly dominated actions.

    Returns:
        The remaining action ids of both players and every elimination step in order.

    Raises:
        SolverError: if the arrays are not non-empty matrices of one shape.

    Example:
        >>> from pokerlab.games import load
        >>> result = eliminate_dominated(load("dominance"))
        >>> for step in result.steps:
        ...     print(step)
        P1 removes 'Action 2', strictly dominated by 'Action 1'
        P1 removes 'Action 3', strictly dominated by 'Action 1'
        P2 removes 'Action 2', strictly dominated by 'Action 1'
        P2 removes 'Action 3', strictly dominated by 'Action 1'
        >>> result.row_names, result.col_names
        (('Action 1',), ('Action 1',))
    """
    payoffs = _payoffs(game, B)
    rows = list(range(payoffs.A.shape[0]))
    cols = list(range(payoffs.A.shape[1]))
    steps: list[EliminationStep] = []
    round_number = 0

    def dominated(player: int) -> list[EliminationStep]:
        if player == 0:
            matrix, alive, names = payoffs.A[np.ix_(rows, cols)], rows, payoffs.row_names
        else:
            matrix, alive, names = payoffs.B[np.ix_(rows, cols)].T, cols, payoffs.col_names
        found: list[EliminationStep] = []
        positions = list(range(len(alive)))
        for position in list(positions):
            hit = _dominator(matrix, position, positions, weak=weak)
            if hit is None:
                continue
            by, is_strict = hit
            found.append(
                EliminationStep(
                    round=round_number,
                    player=player,
                    action_id=alive[position],
                    action_name=names[alive[position]],
                    dominated_by_id=alive[by],
                    dominated_by_name=names[alive[by]],
                    is_strict=is_strict,
                )
            )
            # Dominance is transitive, so dropping a dominated action at once loses no
            # dominance relation among the others and keeps every recorded dominator alive.
            positions.remove(position)
        return found

    while True:
        round_number += 1
        removed_rows = dominated(0)
        if weak:
            rows = [r for r in rows if r not in {s.action_id for s in removed_rows}]
        removed_cols = dominated(1)
        rows = [r for r in rows if r not in {s.action_id for s in removed_rows}]
        cols = [c for c in cols if c not in {s.action_id for s in removed_cols}]
        steps.extend(removed_rows)
        steps.extend(removed_cols)
        if not removed_rows and not removed_cols:
            break
    return EliminationResult(
        row_ids=tuple(rows),
        col_ids=tuple(cols),
        row_names=tuple(payoffs.row_names[r] for r in rows),
        col_names=tuple(payoffs.col_names[c] for c in cols),
        steps=tuple(steps),
        weak=weak,
    )


# --------------------------------------------------------------------------------------
# Equilibria


def _tolerance(matrix: FloatArray) -> float:
    return 1e-12 * max(1.0, float(np.max(np.abs(matrix))))


def pure_nash_equilibria(
    game: Game | ArrayLike, B: ArrayLike | None = None
) -> list[tuple[int, int]]:
    """Return every pure-strategy Nash equilibrium ``(row, col)``, in row-major order.

    A cell is an equilibrium when its row is a best response of P1 to its column and its
    column a best response of P2 to its row (ties count as best responses).

    Args:
        game: a matrix game, or P1's payoff matrix ``A``.
        B: P2's payoff matrix when ``game`` is an array (default ``-A``).

    Returns:
        The equilibrium cells; empty when there is none (Rock-Paper-Scissors).

    Example:
        >>> from pokerlab.games import load
        >>> pure_nash_equilibria(load("battle_of_sexes"))
        [(0, 0), (1, 1)]
    """
    payoffs = _payoffs(game, B)
    A, B_matrix = payoffs.A, payoffs.B
    column_maxima = A.max(axis=0, keepdims=True)  # P1's best payoff against each column
    row_maxima = B_matrix.max(axis=1, keepdims=True)  # P2's best payoff against each row
    row_best = np.greater_equal(A, column_maxima - _tolerance(A))
    col_best = np.greater_equal(B_matrix, row_maxima - _tolerance(B_matrix))
    return [(int(r), int(c)) for r, c in zip(*np.nonzero(row_best & col_best), strict=True)]


def mixed_equilibrium_2x2(game: Game | ArrayLike, B: ArrayLike | None = None) -> MixedEquilibrium:
    """Return the fully mixed equilibrium of a 2x2 game by the indifference principle.

    A player mixes only between actions that earn the same, so P1's probability ``p`` of
    the first row makes P2 indifferent between the columns,
    ``p B[0,0] + (1-p) B[1,0] = p B[0,1] + (1-p) B[1,1]``, and P2's ``q`` makes P1
    indifferent between the rows.

    Args:
        game: a 2x2 matrix game, or P1's 2x2 payoff matrix ``A``.
        B: P2's payoff matrix when ``game`` is an array (default ``-A``).

    Returns:
        Both strategies and both expected payoffs.

    Raises:
        SolverError: if the game is not 2x2, or has no fully mixed equilibrium (the
            indifference probability is outside (0, 1), or a player is indifferent
            whatever the other does, so no unique one exists).

    Example:
        >>> from pokerlab.games import load
        >>> eq = mixed_equilibrium_2x2(load("battle_of_sexes"))
        >>> round(eq.p, 9), round(eq.q, 9), round(eq.row_payoff, 9), round(eq.col_payoff, 9)
        (0.6, 0.4, 1.2, 1.2)
    """
    payoffs = _payoffs(game, B)
    A, B_matrix = payoffs.A, payoffs.B
    if A.shape != (2, 2):
        raise SolverError(
            f"mixed_equilibrium_2x2 needs a 2x2 game; got {A.shape[0]}x{A.shape[1]} "
            "(use solve_zero_sum for a zero-sum game of any size)"
        )
    # P1's p makes P2 indifferent; P2's q makes P1 indifferent.
    p = _indifference(B_matrix[0, 0], B_matrix[1, 0], B_matrix[0, 1], B_matrix[1, 1], "P1", "P2")
    q = _indifference(A[0, 0], A[0, 1], A[1, 0], A[1, 1], "P2", "P1")
    row_strategy = np.array([p, 1.0 - p])
    col_strategy = np.array([q, 1.0 - q])
    row_strategy.setflags(write=False)
    col_strategy.setflags(write=False)
    return MixedEquilibrium(
        p=p,
        q=q,
        row_strategy=row_strategy,
        col_strategy=col_strategy,
        row_payoff=float(row_strategy @ A @ col_strategy),
        col_payoff=float(row_strategy @ B_matrix @ col_strategy),
    )


def _indifference(
    first_vs_first: float,
    second_vs_first: float,
    first_vs_second: float,
    second_vs_second: float,
    mixer: str,
    other: str,
) -> float:
    """The probability x of the mixer's first action that makes the other player indifferent.

    The other player's payoffs: ``first_vs_first`` is what their first action earns when the
    mixer plays its first action, and so on; solve
    ``x a + (1-x) b = x c + (1-x) d`` for x.
    """
    a, b, c, d = (
        float(v) for v in (first_vs_first, second_vs_first, first_vs_second, second_vs_second)
    )
    denominator = (a - b) - (c - d)
    scale = max(1.0, abs(a), abs(b), abs(c), abs(d))
    if abs(denominator) <= 1e-12 * scale:
        raise SolverError(
            f"no fully mixed equilibrium: no mix of {mixer} makes {other} indifferent "
            f"between its two actions (the difference between them does not depend on "
            f"{mixer}'s action); look at pure_nash_equilibria instead"
        )
    x = (d - b) / denominator
    if not 0.0 < x < 1.0:
        raise SolverError(
            f"no fully mixed equilibrium: {mixer} would have to play its first action with "
            f"probability {x:.6g}, but a fully mixed strategy needs a probability strictly "
            f"between 0 and 1; look at pure_nash_equilibria instead"
        )
    return x


def solve_zero_sum(game: Game | ArrayLike) -> ZeroSumSolution:
    """Return the value and optimal strategies of a zero-sum matrix game, by LP.

    P1 maximises ``v`` subject to ``x^T A[:, j] >= v`` for every column ``j``, ``x`` a
    probability vector; P2 solves the dual problem the same way. Both linear programs are
    solved by HiGHS (:func:`scipy.optimize.linprog`, ``method="highs"``) with tight
    tolerances; strategies are clipped at 0 and renormalised.

    Args:
        game: a zero-sum matrix game, or P1's payoff matrix ``A`` (P2 then gets ``-A``).

    Returns:
        The value for P1 and an optimal strategy for each player.

    Raises:
        SolverError: if ``game`` is a MatrixGame that is not zero-sum (``A + B != 0``), if
            ``A`` is not a finite non-empty matrix, or if the LP solver fails.

    Example:
        >>> import numpy as np
        >>> solution = solve_zero_sum(np.array([[2.0, -1.0], [-1.0, 1.0]]))
        >>> round(solution.value, 9), solution.row_strategy.round(9).tolist()
        (0.2, [0.4, 0.6])
    """
    payoffs = _payoffs(game)
    if payoffs.is_game and not payoffs.is_zero_sum:
        raise SolverError(
            "solve_zero_sum needs a zero-sum game (A + B = 0 in every cell); this game is "
            "not zero-sum. Pass just P1's matrix A to solve the zero-sum game it defines, or "
            "use pure_nash_equilibria / mixed_equilibrium_2x2"
        )
    A = payoffs.A
    row_strategy, value = _maximin(A)
    col_strategy, minus_value = _maximin(-A.T)
    del minus_value  # equal to -value up to the solver's tolerance
    for array in (row_strategy, col_strategy):
        array.setflags(write=False)
    return ZeroSumSolution(value=value, row_strategy=row_strategy, col_strategy=col_strategy)


def _maximin(A: FloatArray) -> tuple[FloatArray, float]:
    """The row player's maximin strategy of ``A`` and its guaranteed value."""
    n_rows, n_cols = A.shape
    # Shift payoffs so that the value is positive and well scaled; it changes nothing else.
    shift = float(A.min())
    scale = max(1.0, float(A.max() - A.min()))
    M = (A - shift) / scale
    # Variables: x_0..x_{n_rows-1}, v. Minimise -v.
    objective = np.zeros(n_rows + 1)
    objective[-1] = -1.0
    upper = np.hstack([-M.T, np.ones((n_cols, 1))])  # v - x^T M[:, j] <= 0
    equality = np.hstack([np.ones((1, n_rows)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * n_rows + [(None, None)]
    from scipy.optimize import linprog  # here: scipy.optimize takes a second to import

    result = linprog(
        objective,
        A_ub=upper,
        b_ub=np.zeros(n_cols),
        A_eq=equality,
        b_eq=np.ones(1),
        bounds=bounds,
        method="highs",
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
    )
    if result.status != 0 or result.x is None:
        raise SolverError(f"the LP solver (HiGHS) failed: {result.message}")
    strategy = np.clip(np.asarray(result.x[:n_rows], dtype=np.float64), 0.0, None)
    strategy /= strategy.sum()
    value = float(result.x[-1]) * scale + shift
    return strategy, value


# --------------------------------------------------------------------------------------
# Playing against fixed strategies


def matrix_strategy(
    game: MatrixGame,
    row_strategy: ArrayLike,
    col_strategy: ArrayLike,
    *,
    metadata: dict[str, object] | None = None,
) -> Strategy:
    """Both players' probability vectors as a :class:`Strategy` of the matrix game.

    The game's infosets are ``"P1"`` (the rows) and ``"P2"`` (the columns); this is the
    form every evaluator and file of pokerlab takes.

    Raises:
        StrategyError: if a vector is not a probability vector of the right length.

    Example:
        >>> from pokerlab.games import load
        >>> matrix_strategy(load("rps"), (1, 0, 0), (0, 0.5, 0.5)).probabilities("P2")
        {0: 0.0, 1: 0.5, 2: 0.5}
    """
    n_rows, n_cols = game.shape
    x = as_probability_vector(row_strategy, n_rows, "P1's strategy")
    y = as_probability_vector(col_strategy, n_cols, "P2's strategy")
    tree = compile(game)
    probs = np.zeros((tree.n_infosets, tree.max_actions))
    probs[tree.infoset_id("P1"), :n_rows] = x
    probs[tree.infoset_id("P2"), :n_cols] = y
    return Strategy(game, probs, dict(metadata or {}))


def strategy_vectors(strategy: Strategy) -> StrategyPair:
    """A matrix game's :class:`Strategy` as P1's and P2's probability vectors (copies).

    Raises:
        SolverError: if the strategy is not of a matrix game.
    """
    game = strategy.game
    if not isinstance(game, MatrixGame):
        raise SolverError(f"strategy_vectors needs a matrix game's strategy; got {game.spec}")
    n_rows, n_cols = game.shape
    return (
        np.array(list(strategy.probabilities("P1").values()), dtype=np.float64)[:n_rows],
        np.array(list(strategy.probabilities("P2").values()), dtype=np.float64)[:n_cols],
    )


def _as_game(payoffs: _Payoffs, game: Game | ArrayLike) -> MatrixGame:
    """The matrix game the payoffs stand for (built from the arrays when given arrays)."""
    if isinstance(game, MatrixGame):
        return game
    return bimatrix(
        [
            [(float(a), float(b)) for a, b in zip(row_a, row_b, strict=True)]
            for row_a, row_b in zip(payoffs.A.tolist(), payoffs.B.tolist(), strict=True)
        ]
    )


def expected_payoffs(
    game: Game | ArrayLike,
    row_strategy: ArrayLike,
    col_strategy: ArrayLike,
    *,
    B: ArrayLike | None = None,
) -> tuple[float, float]:
    """Return both players' expected payoffs per game when they play these strategies.

    :func:`pokerlab.eval.expected_value` on the matrix game, with strategies given as
    probability vectors.

    Args:
        game: a matrix game, or P1's payoff matrix ``A``.
        row_strategy: P1's probabilities, one per row.
        col_strategy: P2's probabilities, one per column.
        B: P2's payoff matrix when ``game`` is an array (default ``-A``).

    Returns:
        ``(u1, u2)``: P1's and P2's expected payoffs.

    Raises:
        StrategyError: if a strategy is not a probability vector of the right length.

    Example:
        >>> from pokerlab.games import load
        >>> expected_payoffs(load("rps"), (0.5, 0.25, 0.25), (0, 1, 0))
        (-0.25, 0.25)
    """
    payoffs = _payoffs(game, B)
    matrix = _as_game(payoffs, game)
    u1, u2 = expected_value(matrix, matrix_strategy(matrix, row_strategy, col_strategy))
    return u1, u2


def best_response_to(
    game: Game | ArrayLike,
    opponent_strategy: ArrayLike,
    player: int,
    *,
    B: ArrayLike | None = None,
) -> BestResponseActions:
    """Return the pure actions that earn the most for ``player`` against a fixed opponent.

    :func:`pokerlab.eval.best_response` on the matrix game, with every tied action listed.

    Args:
        game: a matrix game, or P1's payoff matrix ``A``.
        opponent_strategy: the other player's probabilities, one per action.
        player: who responds: 0 (P1, picks a row against a column strategy) or 1 (P2,
            picks a column against a row strategy).
        B: P2's payoff matrix when ``game`` is an array (default ``-A``).

    Returns:
        The best action ids (all ties) and the responding player's expected payoff.

    Raises:
        SolverError: if ``player`` is not 0 or 1.
        StrategyError: if ``opponent_strategy`` is not a probability vector of the right
            length.

    Example:
        >>> from pokerlab.games import load
        >>> best_response_to(load("rps"), (0.5, 0.25, 0.25), player=1)
        BestResponseActions(action_ids=(1,), payoff=0.25)
    """
    payoffs = _payoffs(game, B)
    player = _check_player(player)
    matrix = _as_game(payoffs, game)
    n_rows, n_cols = matrix.shape
    if player == 0:
        profile = matrix_strategy(matrix, np.full(n_rows, 1.0 / n_rows), opponent_strategy)
    else:
        profile = matrix_strategy(matrix, opponent_strategy, np.full(n_cols, 1.0 / n_cols))
    response = best_response(matrix, profile, player)
    row = compile(matrix).infoset_id(_PLAYER_NAMES[player])
    values = response.action_values[row, : matrix.shape[player]]
    ties = np.flatnonzero(values >= response.value - _tolerance(values[np.newaxis, :]))
    return BestResponseActions(tuple(int(a) for a in ties), response.value)


__all__ = [
    "PROBABILITY_TOLERANCE",
    "BestResponseActions",
    "EliminationResult",
    "EliminationStep",
    "MixedEquilibrium",
    "StrategyPair",
    "ZeroSumSolution",
    "as_probability_vector",
    "best_response_to",
    "eliminate_dominated",
    "expected_payoffs",
    "matrix_strategy",
    "mixed_equilibrium_2x2",
    "pure_nash_equilibria",
    "solve_zero_sum",
    "strategy_vectors",
]
