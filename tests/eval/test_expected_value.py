"""Exact expected values: hand-enumerated Kuhn deals, per-seat strategies, errors."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import numpy as np
import pytest

from pokerlab.errors import StrategyError, StrategyMismatchError
from pokerlab.eval import expected_value, expected_values_array
from pokerlab.games import kuhn, leduc
from pokerlab.strategy import Strategy
from pokerlab.tree import compile
from tests.eval.test_exploitability import random_probs

KUHN = kuhn()
PASS, BET = 0, 1

# A pure profile. P1: bet the A; check the K and call a bet; check the Q and fold.
# P2: facing a bet, call only with the A; after a check, bet only with the A.
PURE = {
    "Q|": PASS, "K|": PASS, "A|": BET,
    "Q|pb": PASS, "K|pb": BET, "A|pb": BET,
    "Q|b": PASS, "K|b": PASS, "A|b": BET,
    "Q|p": PASS, "K|p": PASS, "A|p": BET,
}  # fmt: skip


def test_pure_profile_by_enumerating_deals() -> None:
    # The six deals (P1's card, P2's card), each with probability 1/6, played out by hand:
    by_hand = {
        ("Q", "K"): -1,  # check, check: showdown, P1 loses the ante
        ("Q", "A"): -1,  # check, A bets, Q folds
        ("K", "Q"): +1,  # check, check: showdown, K beats Q
        ("K", "A"): -2,  # check, A bets, K calls and loses
        ("A", "Q"): +1,  # A bets, Q folds
        ("A", "K"): +1,  # A bets, K folds
    }
    assert set(by_hand) == set(permutations("QKA", 2))
    expected = Fraction(sum(by_hand.values()), 6)  # -1/6
    strategy = Strategy.from_dict(
        KUHN, {key: [1 - a, a] for key, a in PURE.items()}, default="error"
    )
    p1, p2 = expected_value(KUHN, strategy)
    assert p1 == pytest.approx(float(expected), abs=1e-12)
    assert p2 == pytest.approx(-float(expected), abs=1e-12)


def test_uniform_kuhn_value() -> None:
    # Uniform play: P1 wins 1/8 per hand (OpenSpiel's expected_game_score gives the same)
    assert expected_value(KUHN, Strategy.uniform(KUHN)) == pytest.approx((0.125, -0.125))


def test_one_strategy_per_player() -> None:
    tree = compile(KUHN)
    first = Strategy.from_array(KUHN, random_probs(KUHN, 1))
    second = Strategy.from_array(KUHN, random_probs(KUHN, 2))
    combined = first.combine([first, second])
    assert expected_value(KUHN, [first, second]) == expected_value(KUHN, combined)
    mixed = np.where((tree.infoset_player == 0)[:, None], first.probs, second.probs)
    assert expected_values_array(tree, mixed).tolist() == list(expected_value(KUHN, combined))


def test_three_players_sum_to_zero() -> None:
    game = kuhn(players=3)
    seats = [Strategy.from_array(game, random_probs(game, s)) for s in range(3)]
    values = expected_value(game, seats)
    assert len(values) == 3
    assert sum(values) == pytest.approx(0.0, abs=1e-12)


def test_leduc_uniform_values_sum_to_zero() -> None:
    values = expected_value(leduc(), Strategy.uniform(leduc()))
    assert sum(values) == pytest.approx(0.0, abs=1e-12)


def test_errors() -> None:
    uniform = Strategy.uniform(KUHN)
    with pytest.raises(StrategyMismatchError):
        expected_value(leduc(), uniform)
    with pytest.raises(StrategyMismatchError):
        expected_value(KUHN, [uniform, Strategy.uniform(kuhn(cards=4))])
    with pytest.raises(StrategyError, match="2 players"):
        expected_value(KUHN, [uniform])
    with pytest.raises(StrategyError, match="shape"):
        expected_values_array(compile(KUHN), np.ones(24))
