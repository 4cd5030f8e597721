"""Tests of pokerlab.solvers.normal_form and the ``pokerlab matrix`` CLI."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import pokerlab.cli as cli
from pokerlab.errors import PokerlabError, SolverError, StrategyError
from pokerlab.games import bimatrix, load
from pokerlab.solvers import (
    EliminationResult,
    best_response_to,
    eliminate_dominated,
    expected_payoffs,
    mixed_equilibrium_2x2,
    pure_nash_equilibria,
    solve_zero_sum,
)

# ---------------------------------------------------------------------------------------
# Dominance


def test_dominance_preset_steps_in_order() -> None:
    result = eliminate_dominated(load("dominance"))
    assert isinstance(result, EliminationResult)
    described = [
        (s.round, s.player, s.action_id, s.dominated_by_id, s.is_strict) for s in result.steps
    ]
    assert described == [
        (1, 0, 1, 0, True),
        (1, 0, 2, 0, True),
        (1, 1, 1, 0, True),
        (2, 1, 2, 0, True),
    ]
    assert result.row_ids == (0,)
    assert result.col_ids == (0,)
    assert result.is_solved
    assert str(result.steps[0]) == "P1 removes 'Action 2', strictly dominated by 'Action 1'"


def test_dominance_on_plain_arrays_and_zero_sum_default() -> None:
    # Prisoner's dilemma: defect (row/col 1) strictly dominates cooperate for both.
    A = np.array([[-1.0, -3.0], [0.0, -2.0]])
    result = eliminate_dominated(A, A.T)
    assert (result.row_ids, result.col_ids) == ((1,), (1,))
    assert result.row_names == ("Row 2",)
    assert result.col_names == ("Col 2",)
    # A alone: zero-sum; row 0 dominates row 1, then P2 picks the column minimising A.
    result = eliminate_dominated([[3.0, 1.0], [2.0, 0.0]])
    assert (result.row_ids, result.col_ids) == ((0,), (1,))


def test_weak_dominance_only_when_asked() -> None:
    A = np.array([[1.0, 1.0], [1.0, 0.0]])
    B = np.zeros((2, 2))
    assert eliminate_dominated(A, B).steps == ()
    weak = eliminate_dominated(A, B, weak=True)
    assert weak.row_ids == (0,)
    assert weak.weak
    assert not weak.steps[0].is_strict


def test_weak_elimination_in_tutorial_game_reaches_same_cell() -> None:
    # P2's Action 1 weakly dominates Action 3 from the start (tutorial, section 3).
    result = eliminate_dominated(load("dominance"), weak=True)
    assert (result.row_ids, result.col_ids) == ((0,), (0,))


def test_equal_actions_do_not_dominate_each_other() -> None:
    A = np.array([[1.0, 2.0], [1.0, 2.0]])
    result = eliminate_dominated(A, np.zeros((2, 2)), weak=True)
    assert result.row_ids == (0, 1)


def test_game_and_b_together_is_an_error() -> None:
    with pytest.raises(SolverError, match="not a game and B"):
        eliminate_dominated(load("rps"), np.zeros((3, 3)))


@pytest.mark.parametrize(
    ("A", "B", "match"),
    [
        ([1.0, 2.0], None, "2-D"),
        ([[1.0, np.nan]], None, "finite"),
        ([[1.0, 2.0]], [[1.0], [2.0]], "same shape"),
        ([["a"]], None, "numbers"),
    ],
)
def test_bad_matrices_are_refused(A: object, B: object, match: str) -> None:
    with pytest.raises(SolverError, match=match):
        eliminate_dominated(A, B)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------
# Equilibria


def test_pure_equilibria() -> None:
    assert pure_nash_equilibria(load("battle_of_sexes")) == [(0, 0), (1, 1)]
    assert pure_nash_equilibria(load("rps")) == []
    assert pure_nash_equilibria(load("dominance")) == [(0, 0)]
    # Ties count as best responses: every cell of a constant game is an equilibrium.
    assert len(pure_nash_equilibria(np.ones((2, 3)), np.ones((2, 3)))) == 6


def test_mixed_equilibrium_2x2_matching_pennies() -> None:
    eq = mixed_equilibrium_2x2(np.array([[1.0, -1.0], [-1.0, 1.0]]))
    assert eq.p == pytest.approx(0.5)
    assert eq.q == pytest.approx(0.5)
    assert eq.row_payoff == pytest.approx(0.0)
    assert eq.col_payoff == pytest.approx(0.0)
    assert eq.outcome_probabilities == pytest.approx(np.full((2, 2), 0.25))
    with pytest.raises(ValueError, match="read-only"):
        eq.row_strategy[0] = 1.0


def test_mixed_equilibrium_2x2_refusals() -> None:
    with pytest.raises(SolverError, match="2x2 game; got 3x3"):
        mixed_equilibrium_2x2(load("rps"))
    # Prisoner's dilemma: the indifference probability is outside (0, 1).
    A = np.array([[-1.0, -3.0], [0.0, -2.0]])
    with pytest.raises(SolverError, match="no fully mixed equilibrium"):
        mixed_equilibrium_2x2(A, A.T)
    # P2 indifferent whatever P1 does: no mix of P1 can make P2 indifferent (it already is).
    with pytest.raises(SolverError, match="no fully mixed equilibrium"):
        mixed_equilibrium_2x2(np.array([[1.0, 0.0], [0.0, 1.0]]), np.zeros((2, 2)))


def test_solve_zero_sum_known_values() -> None:
    solution = solve_zero_sum(np.array([[2.0, -1.0], [-1.0, 1.0]]))
    assert solution.value == pytest.approx(0.2, abs=1e-9)
    assert solution.row_strategy == pytest.approx([0.4, 0.6], abs=1e-9)
    assert solution.col_strategy == pytest.approx([0.4, 0.6], abs=1e-9)
    # A saddle point: value 2, pure strategies.
    solution = solve_zero_sum([[2.0, 3.0], [1.0, 4.0]])
    assert solution.value == pytest.approx(2.0)
    assert solution.row_strategy == pytest.approx([1.0, 0.0])
    assert solution.col_strategy == pytest.approx([1.0, 0.0])
    # Non-square.
    solution = solve_zero_sum([[1.0, -1.0, 3.0], [-1.0, 1.0, -3.0]])
    assert solution.value == pytest.approx(0.0, abs=1e-9)


def test_solve_zero_sum_refuses_non_zero_sum_game_but_accepts_its_a() -> None:
    game = load("battle_of_sexes")
    with pytest.raises(SolverError, match="not zero-sum"):
        solve_zero_sum(game)
    assert solve_zero_sum(game.A).value == pytest.approx(1.2)


def test_solve_zero_sum_accepts_zero_sum_bimatrix_from_file(tmp_path: Path) -> None:
    path = tmp_path / "pennies.csv"
    path.write_text(",Heads,Tails\nHeads,1,-1\nTails,-1,1\n", encoding="utf-8")
    from pokerlab.games import matrix_from_file

    solution = solve_zero_sum(matrix_from_file(path))
    assert solution.row_strategy == pytest.approx([0.5, 0.5])


payoff_matrices = st.tuples(st.integers(1, 5), st.integers(1, 5)).flatmap(
    lambda shape: arrays(
        np.float64, shape, elements=st.floats(-10, 10, allow_nan=False, allow_subnormal=False)
    )
)


@settings(max_examples=60, deadline=None)
@given(payoff_matrices)
def test_solve_zero_sum_property_minimax(A: np.ndarray) -> None:
    solution = solve_zero_sum(A)
    for strategy in (solution.row_strategy, solution.col_strategy):
        assert np.all(strategy >= 0.0)
        assert strategy.sum() == pytest.approx(1.0, abs=1e-12)
    # P1's strategy guarantees the value against every column, P2's concedes no more.
    assert abs((solution.row_strategy @ A).min() - solution.value) <= 1e-7
    assert abs((A @ solution.col_strategy).max() - solution.value) <= 1e-7


# ---------------------------------------------------------------------------------------
# Best response and expected payoffs


def test_best_response_both_players_and_ties() -> None:
    rps = load("rps")
    assert best_response_to(rps, (0.5, 0.25, 0.25), player=0) == ((1,), pytest.approx(0.25))
    actions, payoff = best_response_to(rps, (1 / 3, 1 / 3, 1 / 3), player=1)
    assert actions == (0, 1, 2)
    assert payoff == pytest.approx(0.0)
    # Plain A: P2 gets -A.
    actions, payoff = best_response_to([[1.0, 2.0], [3.0, 0.0]], (1.0, 0.0), player=1)
    assert actions == (0,)
    assert payoff == pytest.approx(-1.0)


def test_expected_payoffs() -> None:
    u1, u2 = expected_payoffs(load("battle_of_sexes"), (0.6, 0.4), (0.4, 0.6))
    assert (u1, u2) == (pytest.approx(1.2), pytest.approx(1.2))
    assert expected_payoffs([[1.0, -1.0]], (1.0,), (0.5, 0.5)) == (0.0, 0.0)


@pytest.mark.parametrize(
    ("strategy", "match"),
    [
        ((0.5, 0.5), "3 probabilities"),
        ((0.5, 0.6, -0.1), ">= 0"),
        ((0.5, 0.2, 0.2), "sum to 1"),
        (("x", 0, 0), "probabilities"),
    ],
)
def test_bad_strategies_are_refused(strategy: tuple[object, ...], match: str) -> None:
    with pytest.raises(StrategyError, match=match):
        best_response_to(load("rps"), strategy, player=0)  # type: ignore[arg-type]


def test_bad_player_is_refused() -> None:
    with pytest.raises(SolverError, match=r"0 \(P1, rows\) or 1"):
        best_response_to(load("rps"), (1.0, 0.0, 0.0), player=2)


def test_errors_are_pokerlab_errors_and_value_errors() -> None:
    with pytest.raises(PokerlabError):
        mixed_equilibrium_2x2(load("rps"))
    with pytest.raises(ValueError, match="2x2"):
        mixed_equilibrium_2x2(load("rps"))


# ---------------------------------------------------------------------------------------
# CLI: pokerlab matrix ...


@pytest.fixture
def run_cli() -> None:
    """Nothing to set up: the CLI imports a command module only when its command runs."""


@pytest.mark.usefixtures("run_cli")
def test_cli_solve_preset_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["matrix", "solve", "rps", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["pure_equilibria"] == []
    assert data["mixed_equilibrium"] is None
    assert data["zero_sum"]["value"] == pytest.approx(0.0, abs=1e-9)
    assert data["zero_sum"]["row_strategy"] == pytest.approx([1 / 3] * 3)


@pytest.mark.usefixtures("run_cli")
def test_cli_solve_dominance_and_battle_of_sexes(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["matrix", "solve", "dominance", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["elimination"]["rows"] == ["Action 1"]
    assert data["elimination"]["cols"] == ["Action 1"]
    assert len(data["elimination"]["steps"]) == 4
    assert data["zero_sum"] is None
    assert cli.main(["matrix", "solve", "battle_of_sexes", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mixed_equilibrium"]["p"] == pytest.approx(0.6)
    assert data["mixed_equilibrium"]["payoffs"] == pytest.approx([1.2, 1.2])


@pytest.mark.usefixtures("run_cli")
def test_cli_solve_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["matrix", "solve", "battle_of_sexes"]) == 0
    out = capsys.readouterr().out
    assert "Pure Nash equilibria" in out
    assert "Tennis 0.6, Power Rangers 0.4" in out
    assert cli.main(["matrix", "solve", "rps"]) == 0
    out = capsys.readouterr().out
    assert "Zero-sum game value (P1 per game): 0" in out


@pytest.mark.usefixtures("run_cli")
def test_cli_solve_csv_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "pd.csv"
    path.write_text(
        ",Cooperate,Defect\nCooperate,-1;-1,-3;0\nDefect,0;-3,-2;-2\n", encoding="utf-8"
    )
    assert cli.main(["matrix", "solve", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["elimination"]["rows"] == ["Defect"]
    assert data["elimination"]["cols"] == ["Defect"]
    assert [(e["row"], e["col"]) for e in data["pure_equilibria"]] == [("Defect", "Defect")]
    assert data["mixed_equilibrium"] is None
    assert "no fully mixed equilibrium" in data["mixed_equilibrium_note"]


@pytest.mark.usefixtures("run_cli")
def test_cli_solve_malformed_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(",A,B\nX,1;2,oops\n", encoding="utf-8")
    assert cli.main(["matrix", "solve", str(path)]) == 1
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error:")
    assert "'oops' is not a number" in lines[0]
    assert "Traceback" not in captured.err


@pytest.mark.usefixtures("run_cli")
def test_cli_solve_refuses_non_matrix_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["matrix", "solve", "kuhn"]) == 1
    assert "not a matrix game" in capsys.readouterr().err


@pytest.mark.usefixtures("run_cli")
def test_cli_regret_matching(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["matrix", "regret-matching", "rps", "--opponent", "0.4,0.3,0.3", "-n", "2000"]
    assert cli.main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["current_strategy"][1] == [0.0, 1.0, 0.0]
    assert data["average_strategy"][0] == pytest.approx([0.4, 0.3, 0.3])
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert "P1 (fixed)" in out
    assert "Current strategy" in out


@pytest.mark.usefixtures("run_cli")
def test_cli_regret_matching_sampled_seeded(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["matrix", "regret-matching", "rps", "--sampled", "--seed", "3", "-n", "500", "--json"]
    assert cli.main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert cli.main(args) == 0
    assert json.loads(capsys.readouterr().out) == first


@pytest.mark.usefixtures("run_cli")
@pytest.mark.parametrize(
    ("opponent", "match"), [("0.4,0.3", "3 probabilities"), ("a,b,c", "separated by commas")]
)
def test_cli_regret_matching_bad_opponent(
    opponent: str, match: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["matrix", "regret-matching", "rps", "--opponent", opponent]) == 1
    err = capsys.readouterr().err
    assert match in err
    assert len(err.strip().splitlines()) == 1


def test_bimatrix_game_names_flow_into_results() -> None:
    game = bimatrix([[(1, 1), (0, 0)], [(0, 0), (1, 1)]], rows=("L", "R"), cols=("l", "r"))
    result = eliminate_dominated(game)
    assert result.row_names == ("L", "R")
    assert pure_nash_equilibria(game) == [(0, 0), (1, 1)]
