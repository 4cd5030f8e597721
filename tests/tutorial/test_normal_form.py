"""Every number of the AI Poker Tutorial's section 3 (normal-form games, regret), reproduced.

Section 3, "Game Theory -- Equilibrium and Regret": Normal Form Games, Rock Paper Scissors,
Regret, Regret Matching. One test per number the tutorial states.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from pokerlab.games import load
from pokerlab.solvers import (
    RegretMatching,
    action_regrets,
    best_response_to,
    eliminate_dominated,
    expected_payoffs,
    mixed_equilibrium_2x2,
    pure_nash_equilibria,
    regret_matching_strategy,
    solve_zero_sum,
)

ROCK, PAPER, SCISSORS = 0, 1, 2


# --- Section 3, "Normal Form Games": the 3x3 example ------------------------------------


def test_dominance_example_p1_action_1_dominates_actions_2_and_3() -> None:
    # Section 3, Normal Form Games: "Player 1's strategy of Action 1 dominates Actions 2 and 3".
    steps = eliminate_dominated(load("dominance")).steps
    p1_steps = [(s.action_name, s.dominated_by_name) for s in steps if s.player == 0]
    assert p1_steps == [("Action 2", "Action 1"), ("Action 3", "Action 1")]


def test_dominance_example_p2_action_1_dominates_2_and_weakly_3() -> None:
    # Section 3, Normal Form Games: "Action 1 dominates Action 2 for Player 2 and ... Action 1
    # weakly dominates Action 3 for Player 2".
    # Compare P2's columns against all three of P1's rows: keep P1's rows (a zero A).
    B = load("dominance").B
    strict = eliminate_dominated(np.zeros((3, 3)), B).steps
    # Action ids: 0 is Action 1, 1 is Action 2, 2 is Action 3.
    assert [(s.player, s.action_id, s.dominated_by_id) for s in strict] == [(1, 1, 0)]
    weak = eliminate_dominated(np.zeros((3, 3)), B, weak=True).steps
    assert [(s.player, s.action_id, s.dominated_by_id, s.is_strict) for s in weak] == [
        (1, 1, 0, True),
        (1, 2, 0, False),
    ]


def test_dominance_example_reduced_game_is_action_1_by_actions_1_and_3() -> None:
    # Section 3, Normal Form Games: the reduced game after the first eliminations has P1
    # {Action 1} against P2 {Action 1, Action 3}, payoffs (10, 2) and (3, -1).
    steps = eliminate_dominated(load("dominance")).steps
    after_first_round = {0, 1, 2} - {s.action_id for s in steps if s.round == 1 and s.player == 1}
    assert sorted(after_first_round) == [0, 2]
    game = load("dominance")
    assert [(game.A[0, c], game.B[0, c]) for c in (0, 2)] == [(10, 2), (3, -1)]


def test_dominance_example_reduces_to_action_1_action_1_paying_10_2() -> None:
    # Section 3, Normal Form Games: "a Nash Equilibrium with both players playing Action 1
    # pure strategy and the payouts will be 10 to Player 1 and 2 to Player 2".
    game = load("dominance")
    result = eliminate_dominated(game)
    assert (result.row_names, result.col_names) == (("Action 1",), ("Action 1",))
    row, col = result.row_ids[0], result.col_ids[0]
    assert (game.A[row, col], game.B[row, col]) == (10, 2)
    assert pure_nash_equilibria(game) == [(0, 0)]


# --- Section 3, "Normal Form Games": battle of the sexes --------------------------------


def test_battle_of_sexes_no_dominated_strategy_two_pure_equilibria() -> None:
    # Section 3: "neither player can eliminate a strategy" ... "(both of these are Nash
    # Equilibrium)".
    game = load("battle_of_sexes")
    assert eliminate_dominated(game).steps == ()
    assert pure_nash_equilibria(game) == [(0, 0), (1, 1)]


def test_battle_of_sexes_p1_tennis_three_fifths() -> None:
    # Section 3: "2p = 3 - 3p ==> p = 3/5": P1 plays Tennis 3/5, Power Rangers 2/5.
    eq = mixed_equilibrium_2x2(load("battle_of_sexes"))
    assert eq.p == pytest.approx(3 / 5)
    assert eq.row_strategy == pytest.approx([3 / 5, 2 / 5])


def test_battle_of_sexes_p2_tennis_two_fifths() -> None:
    # Section 3: "By symmetry, P2's strategy is to choose Tennis 2/5 and Power Rangers 3/5".
    eq = mixed_equilibrium_2x2(load("battle_of_sexes"))
    assert eq.q == pytest.approx(2 / 5)
    assert eq.col_strategy == pytest.approx([2 / 5, 3 / 5])


def test_battle_of_sexes_outcome_probabilities() -> None:
    # Section 3: Tennis,Tennis 6/25; Power Rangers,Power Rangers 6/25; Tennis,Power Rangers
    # 9/25; Power Rangers,Tennis 4/25.
    outcomes = mixed_equilibrium_2x2(load("battle_of_sexes")).outcome_probabilities
    assert outcomes[0, 0] == pytest.approx(6 / 25)
    assert outcomes[1, 1] == pytest.approx(6 / 25)
    assert outcomes[0, 1] == pytest.approx(9 / 25)
    assert outcomes[1, 0] == pytest.approx(4 / 25)


def test_battle_of_sexes_each_player_earns_1_2() -> None:
    # Section 3: "6/25 * (3) + 6/25 * (2) = 30/25 = 1.2" (the same for each player).
    game = load("battle_of_sexes")
    eq = mixed_equilibrium_2x2(game)
    assert (eq.row_payoff, eq.col_payoff) == (pytest.approx(1.2), pytest.approx(1.2))
    assert expected_payoffs(game, (3 / 5, 2 / 5), (2 / 5, 3 / 5)) == (
        pytest.approx(1.2),
        pytest.approx(1.2),
    )


# --- Section 3, "Rock Paper Scissors" ---------------------------------------------------


def test_rps_equilibrium_is_one_third_each() -> None:
    # Section 3, Rock Paper Scissors: "The equilibrium strategy is to play each action with
    # 1/3 probability each" (r = p = s = 1/3).
    solution = solve_zero_sum(load("rps"))
    assert solution.row_strategy == pytest.approx([1 / 3] * 3, abs=1e-9)
    assert solution.col_strategy == pytest.approx([1 / 3] * 3, abs=1e-9)


def test_rps_equilibrium_value_is_zero() -> None:
    # Section 3: against the equilibrium, "EV = 1*(1/3) + 0*(1/3) + (-1)*(1/3) = 0".
    assert solve_zero_sum(load("rps")).value == pytest.approx(0.0, abs=1e-9)
    _, payoff = best_response_to(load("rps"), (1 / 3, 1 / 3, 1 / 3), player=1)
    assert payoff == pytest.approx(0.0)


def test_rps_best_response_to_half_rock_is_paper() -> None:
    # Section 3: "if you play Rock 50%, Paper 25%, and Scissors 25%, your opponent can play
    # Paper 100%".
    actions, _ = best_response_to(load("rps"), (0.5, 0.25, 0.25), player=1)
    assert actions == (PAPER,)


def test_rps_paper_wins_0_25_per_game_against_half_rock() -> None:
    # Section 3: "1*0.5 + 0*0.25 + (-1)*0.25 = 0.25".
    _, payoff = best_response_to(load("rps"), (0.5, 0.25, 0.25), player=1)
    assert payoff == pytest.approx(0.25)
    assert expected_payoffs(load("rps"), (0.5, 0.25, 0.25), (0, 1, 0))[1] == pytest.approx(0.25)


# --- Section 3, "Regret": the worked RPS examples ---------------------------------------


def _p1_regrets(played: int, opponent: int) -> list[float]:
    """P1's regrets (Rock, Paper, Scissors) for ``played`` against P2's ``opponent``."""
    game = load("rps")
    return action_regrets(game.A[:, opponent], played=played).tolist()


def test_regret_we_play_rock_opponent_paper() -> None:
    # Section 3, Regret: "We play rock and opponent plays paper": Regret(scissors) = 2,
    # Regret(paper) = 1, Regret(rock) = 0.
    assert _p1_regrets(ROCK, PAPER) == [0.0, 1.0, 2.0]


def test_regret_we_play_scissors_opponent_paper() -> None:
    # Section 3, Regret: "We play scissors and opponent plays paper": scissors 0, paper -1,
    # rock -2.
    assert _p1_regrets(SCISSORS, PAPER) == [-2.0, -1.0, 0.0]


def test_regret_we_play_paper_opponent_paper() -> None:
    # Section 3, Regret: "We play paper and opponent plays paper": scissors 1, paper 0,
    # rock -1.
    assert _p1_regrets(PAPER, PAPER) == [-1.0, 0.0, 1.0]


def test_regret_generalisation() -> None:
    # Section 3, Regret, "To generalize": played action 0; tie -> loser -1, winner +1;
    # win -> tie -1, loss -2; loss -> winner +2, tie +1.
    for played in (ROCK, PAPER, SCISSORS):
        for opponent in (ROCK, PAPER, SCISSORS):
            regrets = _p1_regrets(played, opponent)
            assert regrets[played] == 0.0
            outcome = load("rps").A[played, opponent]
            expected = {0.0: [-1.0, 1.0], 1.0: [-2.0, -1.0], -1.0: [1.0, 2.0]}[outcome]
            assert sorted(r for a, r in enumerate(regrets) if a != played) == expected


# --- Section 3, "Regret Matching" -------------------------------------------------------


def test_regret_matching_regrets_0_1_2() -> None:
    # Section 3, Regret Matching: positive regrets normalised: [0, 1, 2] -> [0, 1/3, 2/3].
    assert regret_matching_strategy([0.0, 1.0, 2.0]) == pytest.approx([0, 1 / 3, 2 / 3])


def test_regret_matching_cumulative_1_3_2() -> None:
    # Section 3, Regret Matching: cumulative regrets [1, 3, 2] -> [1/6, 1/2, 1/3].
    assert regret_matching_strategy([1.0, 3.0, 2.0]) == pytest.approx([1 / 6, 1 / 2, 1 / 3])


def test_regret_matching_all_regrets_non_positive_is_uniform() -> None:
    # Section 3, Regret Matching: "1/n, if all regrets negative" (and none positive).
    assert regret_matching_strategy([-1.0, -2.0, 0.0]) == pytest.approx([1 / 3] * 3)
    assert regret_matching_strategy([-3.0, -1.0, -2.0]) == pytest.approx([1 / 3] * 3)


# The tutorial's table of plays: P1 fixed (Rock 40%, Paper 30%, Scissors 30%), P2 learns.
# Columns as printed: P1's play, P2's play, P2's new regrets, P2's total regrets, P2's
# strategy from those totals.
_TABLE = [
    ("S", "S", [1, 0, -1], [1, 0, -1], ["1", "0", "0"]),
    ("P", "R", [0, 1, 2], [1, 1, 1], ["1/3", "1/3", "1/3"]),
    ("S", "P", [2, 0, 1], [3, 1, 2], ["1/2", "1/6", "1/3"]),
    ("P", "R", [0, 1, 2], [3, 2, 4], ["3/10", "1/5", "2/5"]),
    ("R", "S", [1, 2, 0], [4, 4, 4], ["1/3", "1/3", "1/3"]),
    ("R", "R", [0, 1, -1], [4, 5, 3], ["1/3", "5/12", "1/4"]),
    ("P", "P", [-1, 0, 1], [3, 5, 4], ["1/4", "5/12", "1/3"]),
    ("S", "P", [2, 0, 1], [5, 5, 5], ["1/3", "1/3", "1/3"]),
    ("R", "R", [0, 1, -1], [5, 6, 4], ["1/3", "2/5", "4/15"]),
    ("R", "P", [-1, 0, -2], [4, 6, 2], ["1/3", "1/2", "1/6"]),
]
_PLAYS = {"R": ROCK, "P": PAPER, "S": SCISSORS}


def test_regret_matching_table_new_regrets() -> None:
    # Section 3, Regret Matching, table of plays, column "New Regrets": P2's regrets for its
    # play against P1's play. Row 1 (both Scissors) is printed [1, 0, -1]; P2's regrets
    # there are Rock +1, Paper -1, Scissors 0 = [1, -1, 0] (a slip in the tutorial).
    game = load("rps")
    for row, (p1, p2, new, _, _) in enumerate(_TABLE):
        regrets = action_regrets(game.B[_PLAYS[p1], :], played=_PLAYS[p2]).tolist()
        assert regrets == ([1.0, -1.0, 0.0] if row == 0 else new)


def test_regret_matching_table_total_regrets() -> None:
    # Section 3, Regret Matching, table of plays, column "New Total Regrets": running sums of
    # the printed new regrets.
    total = np.zeros(3)
    for _, _, new, running, _ in _TABLE:
        total += new
        assert total.tolist() == running


def test_regret_matching_table_strategies() -> None:
    # Section 3, Regret Matching, table of plays, column "Strategy": regret matching of the
    # printed totals. Row 4 prints [3/10, 1/5, 2/5] for totals [3, 2, 4]; regret matching
    # gives [3/9, 2/9, 4/9] (a slip in the tutorial); every other row matches.
    for row, (_, _, _, running, strategy) in enumerate(_TABLE):
        expected = [3 / 9, 2 / 9, 4 / 9] if row == 3 else [float(Fraction(p)) for p in strategy]
        assert regret_matching_strategy(np.array(running, dtype=float)) == pytest.approx(expected)


def test_regret_matching_against_fixed_opponent_converges_to_always_paper() -> None:
    # Section 3, Regret Matching: "the best strategy is to play 100% Paper to exploit the
    # opponent over-playing Rock"; 10,000 iterations as in the tutorial's runs.
    solver = RegretMatching(load("rps"), opponent=(0.4, 0.3, 0.3)).run(iterations=10_000)
    assert solver.average_vectors()[1][PAPER] > 0.95
    assert solver.current_vectors()[1].tolist() == [0.0, 1.0, 0.0]
    sampled = RegretMatching(load("rps"), opponent=(0.4, 0.3, 0.3), sampled=True, seed=0)
    sampled.run(iterations=10_000)
    assert sampled.average_vectors()[1][PAPER] > 0.9
    assert sampled.current_vectors()[1].tolist() == [0.0, 1.0, 0.0]


def test_regret_matching_self_play_rps_average_is_equilibrium() -> None:
    # Section 3: regret matching's average strategy in self-play reaches the 1/3 equilibrium.
    solver = RegretMatching(load("rps"), sampled=True, seed=0).run(iterations=10_000)
    for strategy in solver.average_vectors():
        assert np.abs(strategy - 1 / 3).max() < 0.02
