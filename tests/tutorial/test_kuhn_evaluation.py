"""The AI Poker Tutorial's Kuhn poker numbers on evaluation, reproduced exactly.

Kuhn poker section: the uniform strategy's exploitability, and the analytical
equilibrium family (P1 bets the A with probability y) with game value -1/18 for P1.
"""

from __future__ import annotations

import pytest

from pokerlab.eval import expected_value, exploitability, nash_conv
from pokerlab.games import kuhn
from pokerlab.strategy import Strategy

KUHN = kuhn()


def test_uniform_strategy_nash_conv_and_exploitability() -> None:
    # OpenSpiel's published value (open_spiel/python/algorithms/exploitability_test.py):
    # NashConv of the uniform Kuhn policy is 11/12, so exploitability is 11/24 chip a hand.
    uniform = Strategy.uniform(KUHN)
    assert nash_conv(KUHN, uniform) == pytest.approx(11 / 12, abs=1e-12)
    assert exploitability(KUHN, uniform) == pytest.approx(11 / 24, abs=1e-12)


def equilibrium(y: float) -> Strategy:
    """The tutorial's equilibrium, written out: the probability of action 1 (bet / call)."""
    bet = {
        # P1 opens: bets the A with y, bluffs the Q with y/3, never bets the K
        "A|": y, "Q|": y / 3, "K|": 0.0,
        # P1 after check-bet: calls with the K with (y+1)/3, always with the A, never the Q
        "K|pb": (y + 1) / 3, "A|pb": 1.0, "Q|pb": 0.0,
        # P2 facing a bet: calls the K 1/3, always the A, folds the Q
        "K|b": 1 / 3, "A|b": 1.0, "Q|b": 0.0,
        # P2 after a check: bets the Q 1/3, the A always, checks the K
        "Q|p": 1 / 3, "A|p": 1.0, "K|p": 0.0,
    }  # fmt: skip
    return Strategy.from_dict(KUHN, {k: [1 - p, p] for k, p in bet.items()}, default="error")


@pytest.mark.parametrize("y", [0.0, 0.5, 1.0])
def test_equilibrium_family_is_unexploitable_and_worth_minus_1_18(y: float) -> None:
    strategy = equilibrium(y)
    assert exploitability(KUHN, strategy) < 1e-12
    p1, p2 = expected_value(KUHN, strategy)
    assert p1 == pytest.approx(-1 / 18, abs=1e-12)  # the game value for P1
    assert p2 == pytest.approx(1 / 18, abs=1e-12)
