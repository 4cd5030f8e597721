"""The sequence-form LP's equilibria, checked by OpenSpiel.

OpenSpiel's own ``sequence_form_lp`` needs cvxopt/cvxpy (not a dependency here); its C++
exploitability and the Python ``expected_game_score`` judge our LP strategies instead.
"""

from __future__ import annotations

import pyspiel
import pytest
from open_spiel.python import policy as os_policy
from open_spiel.python.algorithms import expected_game_score

from pokerlab.games import Game, kuhn, leduc
from pokerlab.interop.openspiel import openspiel_game, to_tabular_policy
from pokerlab.solvers import solve_sequence_form
from pokerlab.strategy import Strategy, kuhn_equilibrium

LEDUC_VALUE = -0.085606424  # verified by OpenSpiel (postflop-solver's tests quote -0.0856)


def openspiel_exploitability_and_value(game: Game, strategy: Strategy) -> tuple[float, float]:
    os_game = openspiel_game(game)
    tabular = to_tabular_policy(strategy)
    exploitability = pyspiel.exploitability(
        os_game, os_policy.python_policy_to_pyspiel_policy(tabular)
    )
    values = expected_game_score.policy_value(os_game.new_initial_state(), [tabular, tabular])
    return float(exploitability), float(values[0])


def test_kuhn_lp_is_an_equilibrium_for_openspiel() -> None:
    solution = solve_sequence_form(kuhn())
    exploitability, value = openspiel_exploitability_and_value(kuhn(), solution.strategy)
    assert exploitability < 1e-9
    assert value == pytest.approx(-1 / 18, abs=1e-9)
    assert solution.value == pytest.approx(value, abs=1e-9)


@pytest.mark.parametrize("y", [0.0, 0.5, 1.0])
def test_kuhn_analytical_family_for_openspiel(y: float) -> None:
    exploitability, value = openspiel_exploitability_and_value(kuhn(), kuhn_equilibrium(y))
    assert exploitability < 1e-12
    assert value == pytest.approx(-1 / 18, abs=1e-12)


@pytest.mark.slow
def test_leduc_lp_is_an_equilibrium_for_openspiel() -> None:
    solution = solve_sequence_form(leduc())
    assert solution.value == pytest.approx(LEDUC_VALUE, abs=1e-8)
    exploitability, value = openspiel_exploitability_and_value(leduc(), solution.strategy)
    assert exploitability < 1e-7
    assert value == pytest.approx(solution.value, abs=1e-9)
