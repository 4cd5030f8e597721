"""The AI Poker Tutorial's Kuhn poker numbers on evaluation, reproduced exactly.

Kuhn poker section: the uniform strategy's exploitability, and the analytical
equilibrium family (P1 bets the A with probability y) with game value -1/18 for P1.
"""

from __future__ import annotations

import pytest

from pokerlab.eval import expected_value, exploitability, nash_conv
from pokerlab.games import kuhn
from pokerlab.games.base import State
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


def deal_value(strategy: Strategy, cards: tuple[str, str]) -> float:
    """P1's expected net winnings for one deal (P1's card, P2's card) under the profile."""
    state = KUHN.initial_state()
    while state.is_chance:
        want = cards[len(state.history)]
        outcomes = [a for a, _ in state.chance_outcomes()]
        state = next(
            child
            for child in (state.child(a) for a in outcomes)
            if child.private_cards(len(state.history)) == want
        )

    def value(node: State) -> float:
        if node.is_terminal:
            return node.returns()[0]
        probs = strategy.probabilities(node.infoset_key())
        return sum(p * value(node.child(a)) for a, p in probs.items() if p > 0)

    return value(state)


# The tutorial's per-deal totals count what P1 gets back for the 1-chip ante (net + 1).
DEAL_TOTALS = {
    ("A", "K"): lambda y: y / 3 + 2,
    ("A", "Q"): lambda y: (7 - y) / 3,
    ("K", "A"): lambda y: -(y + 1) / 3,
    ("K", "Q"): lambda y: (y + 5) / 3,
    ("Q", "A"): lambda y: -y / 3,
    ("Q", "K"): lambda y: y / 3,
}


@pytest.mark.parametrize("y", [0.0, 0.3, 0.5, 1.0])
@pytest.mark.parametrize("cards", list(DEAL_TOTALS))
def test_expected_value_of_each_of_the_six_deals(y: float, cards: tuple[str, str]) -> None:
    # Kuhn section, "the expected value of every possible deal-out": Cases 1 to 6.
    got = deal_value(equilibrium(y), cards)
    assert got + 1 == pytest.approx(DEAL_TOTALS[cards](y), abs=1e-12)


@pytest.mark.parametrize("y", [0.0, 0.5, 1.0])
def test_six_deal_totals_average_to_17_18(y: float) -> None:
    # "Overall total = 1/6 * [...] = 17/18": P1 gets back 17/18 for each chip put in.
    total = sum(deal_value(equilibrium(y), cards) + 1 for cards in DEAL_TOTALS) / 6
    assert total == pytest.approx(17 / 18, abs=1e-12)
