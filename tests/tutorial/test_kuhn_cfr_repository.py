"""The numbers of the Kuhn CFR repository's README (one of the tutorial's sources).

"KUHN POKER ... Using Counter Factual Regret Minimization and regret matching": its rules'
pot and stakes, the second player's edge, and its regret-matching example.
"""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.games import kuhn
from pokerlab.solvers import SequenceFormLP, regret_matching_strategy
from pokerlab.tree import compile


def test_pot_is_at_most_4_and_a_hand_wins_or_loses_at_most_2() -> None:
    # "maximum pot size is 4 chips so the maximum amount one can win/lose is 2"
    tree = compile(kuhn())
    payoffs = tree.terminal_payoffs
    assert np.abs(payoffs).max() == 2
    assert np.abs(payoffs).min() == 1  # an ante is always at stake
    assert np.allclose(payoffs.sum(axis=1), 0)


def test_second_player_wins_one_eighteenth() -> None:
    # "player2 the second player to act should win about 1/18 chips per hand and player 1
    # should lose at the same rate since this is a 0 sum game"
    value = SequenceFormLP(kuhn()).run().value
    assert -value == pytest.approx(1 / 18, abs=1e-12)


def test_regret_matching_example() -> None:
    # "if I regreted betting -1 and checking .25 ... my next strategy will be bet: 0 check: 1"
    check, bet = regret_matching_strategy(np.array([0.25, -1.0]))
    assert (bet, check) == (0.0, 1.0)
    # "if the regrets sum to 0 we then chose a uniform probability"
    assert regret_matching_strategy(np.array([0.0, 0.0])).tolist() == [0.5, 0.5]
    assert regret_matching_strategy(np.array([-1.0, -3.0])).tolist() == [0.5, 0.5]
