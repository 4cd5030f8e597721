"""The tutorial's section 3.2: the MATLAB program's q, and the matrix reduced by dominance.

Source: "AIPT Section 3.2: Solving Poker -- Toy Poker Games", "Simplified Linear Program"
(the printed x, y, p, q) and "Simplified Payoff Matrix" (the reduced table).
"""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.errors import PokerlabError
from pokerlab.games import kuhn
from pokerlab.studies import kuhn_lp

MATLAB_X = [1.0, 1.0, 0, 0, 0, 0, 1.0, 0.6667, 0.3333, 0.3333, 0.6667, 0, 0.6667]
MATLAB_Y = [1.0, 1.0, 0, 1.0, 0, 0.3333, 0.6667, -0.0, 1.0, -0.0, 1.0, 0.3333, 0.6667]
MATLAB_P = [-0.0556, 0.3889, 0.1111, -0.1111, -0.2222, -0.3333, -0.1667]
MATLAB_Q = [0.1111, -0.1111, -0.3889, 0.2222, -0.1111, 0.3333, 0.1667]

# The tutorial's reduced table, rows and columns as printed (blank cells are 0).
TUTORIAL_REDUCED_ROWS = ("0", "A_b", "A_p", "A_pb", "K_p", "K_pb", "K_pp", "Q_b", "Q_p", "Q_pp")
TUTORIAL_REDUCED_COLUMNS = (
    "0", "A_b(ab)", "A_b(ap)", "A_p(ap)", "K_b(ab)", "K_p(ab)", "K_b(ap)", "K_p(ap)",
    "Q_b(ab)", "Q_p(ab)", "Q_b(ap)", "Q_p(ap)",
)  # fmt: skip
TUTORIAL_REDUCED = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 2, 1, 0, 0, 2, 1, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1],
    [0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 2, 0],
    [0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 1],
    [0, 0, -2, 0, 0, 0, 0, 0, 0, 0, 2, 0],
    [0, 0, -1, 0, 0, 0, 0, 0, 0, 0, -1, 0],
    [0, 1, 0, 0, -2, 1, 0, 0, 0, 0, 0, 0],  # Q_b: the tutorial prints 1 under A_b(ab)
    [0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, 0],
    [0, 0, -1, 0, 0, 0, -1, 0, 0, 0, 0, 0],
]


def test_program_prints_the_matlab_x_y_p() -> None:
    program = kuhn_lp.tutorial_program()
    np.testing.assert_allclose(program.x, MATLAB_X, atol=5e-5)
    np.testing.assert_allclose(program.y, MATLAB_Y, atol=5e-5)
    np.testing.assert_allclose(program.p, MATLAB_P, atol=5e-5)
    assert program.value == pytest.approx(-1 / 18, abs=1e-12)


def test_our_q_is_an_optimal_dual() -> None:
    program = kuhn_lp.tutorial_program()
    certificate = kuhn_lp.dual_certificate(program, program.x, program.q, program.y)
    assert certificate.holds(1e-9)
    assert certificate.dual_value == pytest.approx(-1 / 18, abs=1e-9)


def test_the_tutorials_q_is_an_optimal_dual_too() -> None:
    # q is not unique (the LP is dual degenerate): the MATLAB q passes the same check, to
    # its 4 printed decimals; HiGHS's agrees with it on the rows Kb, Kp and Qp only.
    program = kuhn_lp.tutorial_program()
    certificate = kuhn_lp.dual_certificate(program, MATLAB_X, MATLAB_Q, MATLAB_Y)
    assert certificate.holds(1e-4)
    same = [3, 4, 6]
    assert [program.matrices.f_rows[k] for k in same] == ["Kb", "Kp", "Qp"]
    np.testing.assert_allclose(program.q[same], np.array(MATLAB_Q)[same], atol=5e-5)
    assert np.abs(program.q - MATLAB_Q).max() > 0.1


def test_a_perturbed_q_fails_the_check() -> None:
    program = kuhn_lp.tutorial_program()
    wrong = np.array(MATLAB_Q)
    wrong[6] += 0.1
    assert not kuhn_lp.dual_certificate(program, MATLAB_X, wrong, MATLAB_Y).holds(1e-4)


def test_dual_certificate_refuses_wrong_lengths() -> None:
    program = kuhn_lp.tutorial_program()
    with pytest.raises(PokerlabError, match="13, 7 and 13 entries"):
        kuhn_lp.dual_certificate(program, MATLAB_X, MATLAB_Q[:6], MATLAB_Y)


def test_tutorials_removed_sequences_are_dominated() -> None:
    p1, p2 = kuhn_lp.dominated_sequences()
    assert set(kuhn_lp.TUTORIAL_REMOVED_ROWS) <= set(p1)
    assert set(kuhn_lp.TUTORIAL_REMOVED_COLUMNS) <= set(p2)
    # Folding the A (P2, facing a bet) and calling with the Q (P1) go first: strictly dominated.
    assert p2[0] == "A_p(ab)"
    assert "Q_pb" in p1[:2]
    # Iterated elimination finds more than the tutorial removes; never an equilibrium action
    # that every equilibrium uses (P1 betting A, P2 calling with the A).
    assert "A_b(ab)" not in p2
    assert "K_pb" not in p1


def test_reduced_matrix_equals_the_tutorial_but_one_cell() -> None:
    reduced = kuhn_lp.reduced_matrix()
    assert reduced.rows == TUTORIAL_REDUCED_ROWS
    assert reduced.columns == TUTORIAL_REDUCED_COLUMNS
    different = np.argwhere(reduced.A_times_6 != np.array(TUTORIAL_REDUCED))
    # The tutorial's slip: row Q_b shows the removed column A_p(ab)'s 1 under A_b(ab),
    # where P1 betting the Q into a calling A loses 2.
    assert different.tolist() == [[7, 1]]
    assert reduced.A_times_6[7, 1] == -2


def test_reduced_lp_keeps_the_value() -> None:
    program = kuhn_lp.tutorial_program(
        removed_rows=kuhn_lp.TUTORIAL_REMOVED_ROWS, removed_columns=kuhn_lp.TUTORIAL_REMOVED_COLUMNS
    )
    assert program.value == pytest.approx(-1 / 18, abs=1e-12)
    p1, p2 = kuhn_lp.dominated_sequences()
    assert kuhn_lp.tutorial_program(removed_rows=p1, removed_columns=p2).value == pytest.approx(
        -1 / 18, abs=1e-12
    )
    # Removing an undominated sequence changes the value: P1 may no longer call with the K
    # after check-bet, so P2 bluffs the Q freely.
    assert kuhn_lp.tutorial_program(removed_rows=("K_pb",)).value == pytest.approx(-1 / 12)


def test_unknown_sequence_is_refused() -> None:
    with pytest.raises(PokerlabError, match="unknown P1 sequence"):
        kuhn_lp.reduced_matrix(removed_rows=("A_x",))


def test_row_three_of_e_sums_to_zero() -> None:
    # "What do the matrices mean?", Row 3 prints -A_p + A_pb + A_pp = 1; e's row is 0 (the
    # tutorial's own e), so the row reads A_pb + A_pp = A_p, as its next line says.
    program = kuhn_lp.tutorial_program()
    m = program.matrices
    assert m.e_rows[2] == "Ap"
    assert m.e[2] == 0
    assert float(m.E[2] @ program.x) == pytest.approx(0.0, abs=1e-12)
    assert program.x[2] == pytest.approx(0.0)  # the LP's P1 always bets the A: row 3 is 0 = 0
    ks = m.x_labels.index("K_p")
    assert float(m.E[4] @ program.x) == pytest.approx(0.0, abs=1e-12)
    assert program.x[ks] == pytest.approx(1.0)  # ...and for the K, 2/3 + 1/3 = 1 = K_p


def test_strategy_pairs_are_64_times_64_not_2_to_the_64() -> None:
    # "there are 2^64 strategy combinations": 2^6 = 64 pure strategies each, 64 x 64 = 4096
    # pairs, the matrix's 4096 entries.
    from pokerlab.solvers.normal_form_kuhn import kuhn_normal_form

    matrix, rows, columns = kuhn_normal_form(kuhn())
    assert len(rows) * len(columns) == 4096 == 2**12
    assert matrix.size != 2**64
