"""Every number of the tutorial's section 3.2 (Kuhn poker: analytical, normal form, sequence form).

Source: "AIPT Section 3.2: Solving Poker -- Toy Poker Games". Matrices and the MATLAB
program's output are copied from the text; A is given there in units of 1/6 chip.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from pokerlab.eval import expected_value, exploitability
from pokerlab.games import kuhn
from pokerlab.solvers import SequenceFormLP, solve_sequence_form
from pokerlab.solvers.normal_form import solve_zero_sum
from pokerlab.solvers.normal_form_kuhn import kuhn_normal_form
from pokerlab.solvers.sequence_form import plan_to_behaviour, tutorial_matrices
from pokerlab.strategy import Strategy, kuhn_equilibrium
from pokerlab.tree import compile

# --- the tutorial's matrices (section "Simplified Linear Program", MATLAB givens) -------
TUTORIAL_A_TIMES_6 = [
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 2, 1, 0, 0, 2, 1, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1],
    [0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 2, 0],
    [0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, -1, 0],
    [0, -2, 1, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0],
    [0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 1],
    [0, 0, 0, -2, 0, 0, 0, 0, 0, 0, 0, 2, 0],
    [0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, -1, 0],
    [0, -2, 1, 0, 0, -2, 1, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, 0],
    [0, 0, 0, -2, 0, 0, 0, -2, 0, 0, 0, 0, 0],
    [0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, 0, 0],
]
TUTORIAL_F = [
    [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [-1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [-1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
    [-1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0],
    [-1, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0],
    [-1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0],
    [-1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1],
]
TUTORIAL_E = [
    [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [-1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [0, 0, -1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
    [-1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0, -1, 1, 1, 0, 0, 0, 0],
    [-1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0],
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 1, 1],
]
TUTORIAL_e = [1, 0, 0, 0, 0, 0, 0]
TUTORIAL_f = [1, 0, 0, 0, 0, 0, 0]
TUTORIAL_X_LABELS = (
    "0", "A_b", "A_p", "A_pb", "A_pp", "K_b", "K_p", "K_pb", "K_pp", "Q_b", "Q_p", "Q_pb", "Q_pp",
)  # fmt: skip
TUTORIAL_Y_LABELS = (
    "0", "A_b(ab)", "A_p(ab)", "A_b(ap)", "A_p(ap)", "K_b(ab)", "K_p(ab)", "K_b(ap)", "K_p(ap)",
    "Q_b(ab)", "Q_p(ab)", "Q_b(ap)", "Q_p(ap)",
)  # fmt: skip

# --- the MATLAB program's output --------------------------------------------------------
MATLAB_X = [1.0, 1.0, 0, 0, 0, 0, 1.0, 0.6667, 0.3333, 0.3333, 0.6667, 0, 0.6667]
MATLAB_Y = [1.0, 1.0, 0, 1.0, 0, 0.3333, 0.6667, -0.0, 1.0, -0.0, 1.0, 0.3333, 0.6667]
MATLAB_P = [-0.0556, 0.3889, 0.1111, -0.1111, -0.2222, -0.3333, -0.1667]

KUHN_VALUE = -1 / 18


# --- the analytical solution ------------------------------------------------------------


def test_game_value_is_17_18_minus_1() -> None:
    # "Overall total = 17/18": P1 gets back 17/18 of the 1 chip put in, a value of -1/18.
    value = SequenceFormLP(kuhn()).run().value
    assert value == pytest.approx(17 / 18 - 1, abs=1e-9)
    assert value == pytest.approx(-0.05555, abs=1e-5)  # "1 - 17/18 = -0.05555"
    assert -100 * value == pytest.approx(5.56, abs=5e-3)  # "$5.56 on average per 100 hands"


@pytest.mark.parametrize("y", [0.0, 0.25, 0.5, 1.0])
def test_game_value_does_not_depend_on_y(y: float) -> None:
    assert expected_value(kuhn(), kuhn_equilibrium(y))[0] == pytest.approx(KUHN_VALUE, abs=1e-12)


def _with_row(strategy: Strategy, key: str, row: list[float]) -> Strategy:
    game = strategy.game
    probs = strategy.probs.copy()
    probs[compile(game).infoset_id(key)] = row
    return Strategy.from_array(game, probs)


def _indifferent(strategy: Strategy, key: str) -> bool:
    """Whether the player at ``key`` gets the same value passing and betting there."""
    game = kuhn()
    player = 0 if key.endswith(("|", "|pb")) else 1
    passing = expected_value(game, _with_row(strategy, key, [1.0, 0.0]))[player]
    betting = expected_value(game, _with_row(strategy, key, [0.0, 1.0]))[player]
    return abs(passing - betting) < 1e-12


@pytest.mark.parametrize("y", [0.0, 0.5, 1.0])
def test_a_is_one_third(y: float) -> None:
    # a = 1/3: P2 calls a bet with the K a third of the time, making P1 indifferent to bluffing.
    strategy = kuhn_equilibrium(y)
    assert strategy.probabilities("K|b")[1] == pytest.approx(1 / 3)
    assert _indifferent(strategy, "Q|")
    assert not _indifferent(_with_row(strategy, "K|b", [0.5, 0.5]), "Q|")


@pytest.mark.parametrize("y", [0.0, 0.5, 1.0])
def test_b_is_one_third(y: float) -> None:
    # b = 1/3: P2 bluffs the Q after a check a third of the time: P1's K indifferent to calling.
    strategy = kuhn_equilibrium(y)
    assert strategy.probabilities("Q|p")[1] == pytest.approx(1 / 3)
    assert _indifferent(strategy, "K|pb")
    assert not _indifferent(_with_row(strategy, "Q|p", [0.5, 0.5]), "K|pb")


@pytest.mark.parametrize("y", [0.3, 0.5, 0.9])
def test_x_is_y_over_3(y: float) -> None:
    # y = 3x: P1 value-bets the A three times as often as he bluffs the Q; P2's K indifferent.
    strategy = kuhn_equilibrium(y)
    assert strategy.probabilities("Q|")[1] == pytest.approx(y / 3)
    assert _indifferent(strategy, "K|b")
    assert not _indifferent(_with_row(strategy, "Q|", [1 - y / 2, y / 2]), "K|b")


@pytest.mark.parametrize("y", [0.0, 0.5, 1.0])
def test_z_is_y_plus_1_over_3(y: float) -> None:
    # z = (y + 1) / 3: P1 calls with the K after check-bet; P2's Q indifferent to bluffing.
    strategy = kuhn_equilibrium(y)
    assert strategy.probabilities("K|pb")[1] == pytest.approx((y + 1) / 3)
    assert _indifferent(strategy, "Q|p")
    # y = 0.5 gives z = 0.5, the tutorial's example.
    if y == 0.5:
        assert strategy.probabilities("K|pb")[1] == pytest.approx(0.5)


def test_lp_equilibrium_is_a_member_of_the_family() -> None:
    strategy = SequenceFormLP(kuhn()).run().average_strategy()
    y = strategy.probabilities("A|")[1]
    analytical = kuhn_equilibrium(y)
    game = compile(kuhn())
    reached = [k for k in game.infoset_keys if not (k == "A|pb" and y == 1.0)]  # never reached
    for key in reached:
        assert strategy.probabilities(key) == pytest.approx(analytical.probabilities(key), abs=1e-9)


# --- the normal form: 2^6 = 64 pure strategies per player -------------------------------


def test_normal_form_is_64_by_64_with_value_minus_1_18() -> None:
    matrix, rows, _ = kuhn_normal_form(kuhn())
    assert matrix.shape == (64, 64)
    assert matrix.size == 4096  # "This matrix has 4096 entries"
    # The tutorial's example strategy 1: bet everywhere.
    assert rows[0] == "A - bet, Apb - bet, K - bet, Kpb - bet, Q - bet, Qpb - bet"
    assert solve_zero_sum(matrix).value == pytest.approx(KUHN_VALUE, abs=1e-9)


# --- the sequence form ------------------------------------------------------------------


def test_sequence_form_matrices_equal_the_tutorial() -> None:
    m = tutorial_matrices(kuhn())
    assert m.x_labels == TUTORIAL_X_LABELS
    assert m.y_labels == TUTORIAL_Y_LABELS
    assert m.e_rows == ("0", "A", "Ap", "K", "Kp", "Q", "Qp")
    assert m.f_rows == ("0", "Ab", "Ap", "Kb", "Kp", "Qb", "Qp")
    assert m.E.shape == (7, 13)  # "E is a 7 x 13 matrix"
    np.testing.assert_array_equal(m.E, TUTORIAL_E)
    np.testing.assert_array_equal(m.F, TUTORIAL_F)
    np.testing.assert_array_equal(m.e, TUTORIAL_e)
    np.testing.assert_array_equal(m.f, TUTORIAL_f)
    np.testing.assert_allclose(m.A, np.array(TUTORIAL_A_TIMES_6) / 6, atol=1e-15)


def test_lp_value_is_p0() -> None:
    # "The first p value shows the value of the game": p[0] = -0.0556.
    solution = solve_sequence_form(kuhn())
    m = tutorial_matrices(kuhn())
    np.testing.assert_allclose(solution.p[m.e_ids], MATLAB_P, atol=5e-5)
    assert solution.p[0] == pytest.approx(-0.0556, abs=5e-5)


def test_lp_plans_equal_the_matlab_output() -> None:
    # The MATLAB program found y = 1 (always bet the A); HiGHS finds the same vertex.
    solution = solve_sequence_form(kuhn())
    m = tutorial_matrices(kuhn())
    np.testing.assert_allclose(solution.x[m.x_ids], MATLAB_X, atol=5e-5)
    np.testing.assert_allclose(solution.y[m.y_ids], MATLAB_Y, atol=5e-5)


def _strategy_from_plans(x: list[float], y: list[float]) -> Strategy:
    game = kuhn()
    tree = compile(game)
    m = tutorial_matrices(game)
    plan_x = np.zeros(tree.n_sequences[0])
    plan_y = np.zeros(tree.n_sequences[1])
    plan_x[m.x_ids] = x
    plan_y[m.y_ids] = y
    probs = np.zeros((tree.n_infosets, tree.max_actions))
    plan_to_behaviour(tree, 0, plan_x, probs)
    plan_to_behaviour(tree, 1, plan_y, probs)
    return Strategy.from_array(game, probs)


def test_matlab_plans_are_an_equilibrium() -> None:
    game = kuhn()
    # As printed (4 decimals): value -0.0556, exploitability only the rounding's.
    printed = _strategy_from_plans(MATLAB_X, MATLAB_Y)
    assert expected_value(game, printed)[0] == pytest.approx(-0.0556, abs=5e-5)
    assert exploitability(game, printed) < 1e-4
    # Read as the fractions they round (0.6667 = 2/3): exactly an equilibrium.
    exact = _strategy_from_plans(
        [float(Fraction(v).limit_denominator(10)) for v in MATLAB_X],
        [float(Fraction(v).limit_denominator(10)) for v in MATLAB_Y],
    )
    assert expected_value(game, exact)[0] == pytest.approx(KUHN_VALUE, abs=1e-12)
    assert exploitability(game, exact) < 1e-12
