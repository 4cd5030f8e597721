"""The tutorial's Kuhn linear program, as its MATLAB program runs it, and the reduced matrix.

Section 3.2 of the tutorial solves 3-card Kuhn poker by the sequence-form LP with MATLAB's
``linprog`` and prints four vectors: P1's plan ``x``, P2's plan ``y``, the LP's ``p`` (``p[0]``
is the game value) and ``q``, the multipliers of P2's constraints ``F y = f``.
:func:`tutorial_program` runs the same program (same matrices, same bounds ``0 <= y <= 1``,
same sign conventions) with HiGHS and returns the four vectors in the tutorial's order.

``q`` is not unique: Kuhn's LP is dual degenerate, so several ``q`` are optimal, and HiGHS
finds another one than MATLAB. :func:`dual_certificate` checks that a given ``(x, q)`` is an
optimal dual of the program (stationarity with bound multipliers, and a dual objective
equal to the game value), which holds for the tutorial's printed ``q`` and for ours.

The tutorial then reduces the 13 x 13 payoff matrix "by eliminating dominated strategies".
:func:`dominated_sequences` computes, by iterated elimination over the 64 x 64 normal form,
which actions are weakly dominated (switching that one action to the other never does worse
against any surviving opposing pure strategy, and sometimes better), and
:func:`reduced_matrix` returns the payoff matrix without the sequences one asks to remove.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog

from pokerlab._types import FloatArray
from pokerlab.errors import PokerlabError
from pokerlab.games import Game, kuhn
from pokerlab.solvers.normal_form_kuhn import kuhn_normal_form
from pokerlab.solvers.sequence_form import SequenceFormMatrices, tutorial_matrices

TUTORIAL_REMOVED_ROWS = ("A_pp", "K_b", "Q_pb")
"""P1's sequences the tutorial's reduced table leaves out."""

TUTORIAL_REMOVED_COLUMNS = ("A_p(ab)",)
"""P2's sequences the tutorial's reduced table leaves out."""


@dataclass(frozen=True)
class TutorialProgram:
    """The four vectors the MATLAB program prints, in the tutorial's order.

    Attributes:
        x: P1's realization plan (13 entries, labels ``matrices.x_labels``).
        y: P2's realization plan (13 entries, labels ``matrices.y_labels``).
        p: the LP's variables for P1's constraint rows (7; ``p[0]`` is P1's game value).
        q: the multipliers of ``-F y = -f`` (7, rows ``matrices.f_rows``), MATLAB's signs.
        value: P1's game value, chips per hand.
        matrices: the sequence-form matrices in the tutorial's order.
    """

    x: FloatArray
    y: FloatArray
    p: FloatArray
    q: FloatArray
    value: float
    matrices: SequenceFormMatrices


def tutorial_program(
    game: Game | None = None,
    *,
    removed_rows: Sequence[str] = (),
    removed_columns: Sequence[str] = (),
) -> TutorialProgram:
    """Run the tutorial's MATLAB LP on 3-card Kuhn (HiGHS in place of ``linprog``).

    The program: minimise ``e^T p`` over ``(y, p)`` subject to ``A y - E^T p <= 0``,
    ``-F y = -f``, ``0 <= y <= 1``, ``p`` free. ``x`` is the inequalities' multipliers and
    ``q`` the equalities', with MATLAB's sign convention (``lambda.ineqlin``, ``lambda.eqlin``).
    ``removed_rows`` / ``removed_columns`` forbid those P1 / P2 sequences (plan entry 0): the
    LP of the reduced matrix.

    Raises:
        SolverError: if ``game`` is not 2-player 3-card Kuhn.
        PokerlabError: if HiGHS does not reach an optimum.
    """
    m = tutorial_matrices(game if game is not None else kuhn())
    _check_labels(removed_rows, m.x_labels, "P1")
    _check_labels(removed_columns, m.y_labels, "P2")
    n_y, n_p = m.F.shape[1], m.E.shape[0]
    objective = np.concatenate([np.zeros(n_y), m.e])
    inequalities = np.hstack([m.A, -m.E.T])
    equalities = np.hstack([-m.F, np.zeros((m.F.shape[0], n_p))])
    bounds: list[tuple[float | None, float | None]] = [
        (0.0, 0.0 if label in removed_columns else 1.0) for label in m.y_labels
    ] + [(None, None)] * n_p
    # A removed P1 sequence has x = 0: its inequality row is dropped (its multiplier is x).
    kept = np.array([label not in removed_rows for label in m.x_labels])
    inequalities = inequalities[kept]
    result = linprog(
        objective, A_ub=inequalities, b_ub=np.zeros(int(kept.sum())), A_eq=equalities,
        b_eq=-m.f, bounds=bounds, method="highs",
    )
    if result.status != 0:
        raise PokerlabError(f"HiGHS did not solve the tutorial's LP: {result.message}")
    # HiGHS's marginals are d(objective)/d(right-hand side); MATLAB's lambdas are their negatives
    # for the inequalities, and for the equalities of the (min) program the marginals themselves
    # with the constraint written -F y = -f.
    x = np.zeros(m.E.shape[1])
    x[kept] = np.clip(-result.ineqlin.marginals, 0.0, None)
    q = -np.asarray(result.eqlin.marginals, dtype=np.float64)
    return TutorialProgram(
        x=x, y=np.clip(result.x[:n_y], 0.0, None), p=np.asarray(result.x[n_y:]), q=q,
        value=float(result.fun), matrices=m,
    )


def _check_labels(names: Sequence[str], labels: tuple[str, ...], who: str) -> None:
    unknown = [n for n in names if n not in labels or n == "0"]
    if unknown:
        raise PokerlabError(
            f"unknown {who} sequence(s) {unknown}; choose among {', '.join(labels[1:])}"
        )


@dataclass(frozen=True)
class DualCertificate:
    """Whether ``(x, q)`` is an optimal dual of the tutorial's program, and by how much not.

    Attributes:
        plan_residual: ``max |E x - e|`` (P1's plan constraints).
        sign_violation: how far the multipliers of ``y >= 0`` / ``y <= 1`` are from feasible
            and complementary to ``y`` (0 when they are).
        dual_value: the dual objective ``f^T q - sum(upper multipliers)``.
        gap: ``|dual_value - value|``.
    """

    plan_residual: float
    sign_violation: float
    dual_value: float
    gap: float

    def holds(self, tolerance: float) -> bool:
        """Whether every residual is at most ``tolerance``."""
        return max(self.plan_residual, self.sign_violation, self.gap) <= tolerance


def dual_certificate(
    program: TutorialProgram, x: Sequence[float], q: Sequence[float], y: Sequence[float]
) -> DualCertificate:
    """Check ``(x, q)`` against the program's optimality conditions, with ``y`` the primal plan.

    Stationarity in ``y`` reads ``A^T x - F^T q = lower - upper`` with ``lower, upper >= 0``;
    ``lower`` may be positive only where ``y = 0`` and ``upper`` only where ``y = 1``. The dual
    objective is then ``f^T q - sum(upper)``, equal to the game value at an optimum.
    """
    m = program.matrices
    xs, qs, ys = (np.asarray(v, dtype=np.float64) for v in (x, q, y))
    if xs.shape != (m.E.shape[1],) or qs.shape != (m.F.shape[0],) or ys.shape != (m.F.shape[1],):
        raise PokerlabError(
            f"x, q, y must have {m.E.shape[1]}, {m.F.shape[0]} and {m.F.shape[1]} entries; "
            f"got {xs.shape}, {qs.shape}, {ys.shape}"
        )
    slack = m.A.T @ xs - m.F.T @ qs
    lower, upper = np.maximum(slack, 0.0), np.maximum(-slack, 0.0)
    violation = float(np.max(np.concatenate([lower * ys, upper * (1.0 - ys), [0.0]])))
    dual_value = float(m.f @ qs - upper.sum())
    return DualCertificate(
        plan_residual=float(np.abs(m.E @ xs - m.e).max()),
        sign_violation=violation,
        dual_value=dual_value,
        gap=abs(dual_value - program.value),
    )


def _action_sequence(player: int, infoset: str, action: str) -> str:
    """``("A", "bet")`` -> ``"A_b"``; ``("Apb", "pass")`` -> ``"A_pp"``; P2: ``"A_b(ab)"``."""
    card, history, letter = infoset[0], infoset[1:], action[0]
    if player == 0:
        return f"{card}_{history[:1]}{letter}"
    return f"{card}_{letter}(a{history})"


def _parse(label: str) -> dict[str, str]:
    return dict(part.split(" - ") for part in label.split(", "))


def _is_dominated(
    plans: list[dict[str, str]],
    payoff: FloatArray,
    alive: list[np.ndarray],
    player: int,
    infoset: str,
    free: set[str],
    action: str,
    other: str,
) -> bool:
    """Whether ``action`` at ``infoset`` is weakly dominated by ``other`` (best continuation)."""
    takers = [i for i, p in enumerate(plans) if alive[player][i] and p[infoset] == action]
    if not takers:
        return False
    columns = alive[1 - player]
    strict = False
    for i in takers:
        fixed = {k: v for k, v in plans[i].items() if k not in free}
        best: np.ndarray | None = None
        for j, p in enumerate(plans):
            if not alive[player][j] or p[infoset] != other:
                continue
            if any(p[k] != v for k, v in fixed.items()):
                continue
            diff = (payoff[j] - payoff[i])[columns]
            if (diff >= -1e-12).all() and (best is None or diff.sum() > best.sum()):
                best = diff
        if best is None:
            return False
        strict = strict or bool((best > 1e-12).any())
    return strict


def dominated_sequences(game: Game | None = None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """P1's and P2's weakly dominated sequences of 3-card Kuhn, by iterated elimination.

    Over the 64 x 64 normal form: an action at an infoset is dominated when every surviving
    pure strategy that takes it can switch to the other action there (choosing afresh what to
    do at the player's later infosets with that card, the rest unchanged) and get at least
    as much against every surviving opposing pure strategy, and more against one.
    Dominated actions are removed (with the pure strategies that take them) and the search
    repeats until nothing changes. Returned in the order they were found.
    """
    matrix, row_labels, col_labels = kuhn_normal_form(game if game is not None else kuhn())
    plans = [[_parse(label) for label in row_labels], [_parse(label) for label in col_labels]]
    payoff = [matrix, -matrix.T]  # each player's payoff, own strategies as rows
    alive = [np.ones(len(row_labels), dtype=bool), np.ones(len(col_labels), dtype=bool)]
    found: list[list[str]] = [[], []]
    changed = True
    while changed:
        changed = False
        for player in (0, 1):
            for infoset in plans[player][0]:
                # The infoset and the player's later infosets with the same card ("K", "Kpb").
                free = {i for i in plans[player][0] if i[0] == infoset[0] and i.startswith(infoset)}
                for action, other in (("bet", "pass"), ("pass", "bet")):
                    if _is_dominated(plans[player], payoff[player], alive, player, infoset,
                                     free, action, other):
                        alive[player] &= np.array([p[infoset] != action for p in plans[player]])
                        found[player].append(_action_sequence(player, infoset, action))
                        changed = True
    return tuple(found[0]), tuple(found[1])


@dataclass(frozen=True)
class ReducedMatrix:
    """The sequence-form payoff matrix without some sequences (``A`` scaled by 6: integers).

    Attributes:
        A_times_6: ``[rows, columns]`` P1's payoffs times 6 (each deal has probability 1/6).
        rows: P1's sequences kept.
        columns: P2's sequences kept.
    """

    A_times_6: FloatArray
    rows: tuple[str, ...]
    columns: tuple[str, ...]


def reduced_matrix(
    removed_rows: Sequence[str] = TUTORIAL_REMOVED_ROWS,
    removed_columns: Sequence[str] = TUTORIAL_REMOVED_COLUMNS,
    game: Game | None = None,
) -> ReducedMatrix:
    """The tutorial's 13 x 13 matrix ``6 A`` without the given P1 and P2 sequences."""
    m = tutorial_matrices(game if game is not None else kuhn())
    _check_labels(removed_rows, m.x_labels, "P1")
    _check_labels(removed_columns, m.y_labels, "P2")
    rows = [i for i, label in enumerate(m.x_labels) if label not in removed_rows]
    columns = [j for j, label in enumerate(m.y_labels) if label not in removed_columns]
    return ReducedMatrix(
        A_times_6=np.round(6 * m.A[np.ix_(rows, columns)], 12),
        rows=tuple(m.x_labels[i] for i in rows),
        columns=tuple(m.y_labels[j] for j in columns),
    )


__all__ = [
    "TUTORIAL_REMOVED_COLUMNS",
    "TUTORIAL_REMOVED_ROWS",
    "DualCertificate",
    "ReducedMatrix",
    "TutorialProgram",
    "dominated_sequences",
    "dual_certificate",
    "reduced_matrix",
    "tutorial_program",
]
