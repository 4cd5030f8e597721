"""The CFR family against OpenSpiel: same exploitability of the average strategy, iteration by
iteration.

Vanilla CFR and CFR+ are compared with OpenSpiel's C++ solvers (``pyspiel.CFRSolver`` and
``pyspiel.CFRPlusSolver``: alternating updates; CFR+ with regret matching+ and linear
averaging); the other variants and simultaneous updates with OpenSpiel's Python solvers,
which expose those switches. Both sides are deterministic, so the figures agree to rounding.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import cfr as os_cfr
from open_spiel.python.algorithms import discounted_cfr as os_dcfr
from open_spiel.python.algorithms import exploitability as os_exploitability
from open_spiel.python.policy import python_policy_to_pyspiel_policy

from pokerlab.eval import exploitability_array
from pokerlab.games import Game, kuhn, leduc
from pokerlab.interop.openspiel import openspiel_game, to_tabular_policy
from pokerlab.solvers import CFR, CFRPlus, DiscountedCFR, LinearCFR
from pokerlab.solvers.cfr import _FullWidthCFR
from pokerlab.tree import compile

ITERATIONS = 20
"""Iterations compared. Beyond about 100 Leduc iterations the two CFR+ runs drift apart
(1e-9 at 120, 1e-5 by 160) because regret matching+ amplifies rounding: our own run with
payoffs perturbed by one ulp drifts the same way, so the drift says nothing about either."""
TOLERANCE = 1e-9


def _step(solver: _FullWidthCFR) -> None:
    solver._iterate()
    solver.iterations += 1


def _compare_cpp(game: Game, ours: _FullWidthCFR, theirs: Any) -> None:
    os_game = openspiel_game(game)
    tree = compile(game)
    for iteration in range(1, ITERATIONS + 1):
        _step(ours)
        theirs.evaluate_and_update_policy()
        mine = exploitability_array(tree, ours.average_probs())
        other = pyspiel.exploitability(os_game, theirs.average_policy())
        assert abs(mine - other) < TOLERANCE, (iteration, mine, other)
    # The same number measured by OpenSpiel on our strategy: the strategies agree too.
    converted = to_tabular_policy(ours.average_strategy())
    assert abs(pyspiel.exploitability(os_game, python_policy_to_pyspiel_policy(converted))
               - other) < TOLERANCE


@pytest.mark.parametrize(
    ("ours", "theirs"), [(CFR, pyspiel.CFRSolver), (CFRPlus, pyspiel.CFRPlusSolver)]
)
def test_kuhn_matches_openspiel_cpp(ours: type[_FullWidthCFR], theirs: Any) -> None:
    game = kuhn()
    _compare_cpp(game, ours(game), theirs(openspiel_game(game)))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("ours", "theirs"), [(CFR, pyspiel.CFRSolver), (CFRPlus, pyspiel.CFRPlusSolver)]
)
def test_leduc_matches_openspiel_cpp(ours: type[_FullWidthCFR], theirs: Any) -> None:
    game = leduc()
    _compare_cpp(game, ours(game), theirs(openspiel_game(game)))


def _python_solvers(os_game: pyspiel.Game) -> dict[str, Any]:
    return {
        "cfr-simultaneous": os_cfr._CFRSolver(
            os_game, alternating_updates=False, linear_averaging=False,
            regret_matching_plus=False),
        "cfr+-simultaneous": os_cfr._CFRSolver(
            os_game, alternating_updates=False, linear_averaging=True,
            regret_matching_plus=True),
        "lcfr": os_dcfr.LCFRSolver(os_game),
        "dcfr": os_dcfr.DCFRSolver(os_game),
        "dcfr(1,0.5,3)": os_dcfr.DCFRSolver(os_game, alpha=1.0, beta=0.5, gamma=3.0),
    }


def _ours(game: Game) -> dict[str, _FullWidthCFR]:
    return {
        "cfr-simultaneous": CFR(game, alternating=False),
        "cfr+-simultaneous": CFRPlus(game, alternating=False),
        "lcfr": LinearCFR(game),
        "dcfr": DiscountedCFR(game),
        "dcfr(1,0.5,3)": DiscountedCFR(game, alpha=1.0, beta=0.5, gamma=3.0),
    }


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize(
    "name", ["cfr-simultaneous", "cfr+-simultaneous", "lcfr", "dcfr", "dcfr(1,0.5,3)"]
)
def test_kuhn_variants_match_openspiel_python(name: str, players: int) -> None:
    game = kuhn(players=players)
    os_game = openspiel_game(game)
    ours = _ours(game)[name]
    theirs = _python_solvers(os_game)[name]
    tree = compile(game)
    for iteration in range(1, ITERATIONS + 1):
        _step(ours)
        theirs.evaluate_and_update_policy()
        # NashConv works for any number of players: exploitability = NashConv / players.
        other = os_exploitability.nash_conv(os_game, theirs.average_policy()) / players
        mine = exploitability_array(tree, ours.average_probs())
        assert abs(mine - other) < TOLERANCE, (iteration, mine, other)


def test_three_player_kuhn_cfr_plus_matches_openspiel_cpp() -> None:
    game = kuhn(players=3)
    os_game = openspiel_game(game)
    ours = CFRPlus(game)
    theirs = pyspiel.CFRPlusSolver(os_game)
    tree = compile(game)
    for iteration in range(1, ITERATIONS + 1):
        _step(ours)
        theirs.evaluate_and_update_policy()
        other = pyspiel.nash_conv(os_game, theirs.average_policy()) / 3
        mine = exploitability_array(tree, ours.average_probs())
        assert abs(mine - other) < TOLERANCE, (iteration, mine, other)
    assert np.isfinite(other)
