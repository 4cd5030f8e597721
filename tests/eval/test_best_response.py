"""Best response: value, pure strategy, action values; 2 and 3 players."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerlab.errors import PokerlabError, StrategyMismatchError
from pokerlab.eval import BestResponse, best_response, best_response_values_array, expected_value
from pokerlab.games import kuhn, leduc
from pokerlab.strategy import Strategy
from pokerlab.tree import compile
from tests.eval.test_exploitability import random_probs

KUHN = kuhn()


def test_uniform_kuhn_best_responses() -> None:
    uniform = Strategy.uniform(KUHN)
    p1 = best_response(KUHN, uniform, 0)
    p2 = best_response(KUHN, uniform, 1)
    assert isinstance(p1, BestResponse)
    assert (p1.player, p2.player) == (0, 1)
    # 1/2 + 5/12 = 11/12, the uniform NashConv (values of the profile sum to 0)
    assert p1.value == pytest.approx(0.5, abs=1e-12)
    assert p2.value == pytest.approx(5 / 12, abs=1e-12)
    # P2 against a uniform P1: fold the Q and call the A facing a bet; bet the A after a check
    assert p2.strategy.probabilities("Q|b") == {0: 1.0, 1: 0.0}
    assert p2.strategy.probabilities("A|b") == {0: 0.0, 1: 1.0}
    assert p2.strategy.probabilities("A|p") == {0: 0.0, 1: 1.0}
    # the other player's rows are copied from the input
    assert p2.strategy.probabilities("K|") == {0: 0.5, 1: 0.5}


def test_result_is_frozen_and_read_only() -> None:
    response = best_response(KUHN, Strategy.uniform(KUHN), 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        response.value = 0.0  # type: ignore[misc]
    with pytest.raises(ValueError, match="read-only"):
        response.action_values[0, 0] = 1.0


def test_action_values() -> None:
    tree = compile(KUHN)
    response = best_response(KUHN, Strategy.uniform(KUHN), 1)
    mine = tree.infoset_player == 1
    assert np.isnan(response.action_values[~mine]).all()
    values = response.action_values[mine]
    assert np.isfinite(values).all()
    # P2 holding the A facing a bet (P1 bets with probability 1/2, each other card 1/2 * 1/3):
    # folding loses 1, calling wins 2, weighted by the reach of chance and P1 (1/6 * 1/2 * 2).
    a_b = tree.infoset_id("A|b")
    assert response.action_values[a_b].tolist() == pytest.approx([-1 / 6, 2 / 6])
    # the chosen action is a best one
    chosen = np.argmax(response.strategy.probs[mine], axis=1)
    assert np.allclose(values[np.arange(values.shape[0]), chosen], values.max(axis=1))


def test_three_player_kuhn() -> None:
    game = kuhn(players=3)
    uniform = Strategy.uniform(game)
    values = expected_value(game, uniform)
    tree = compile(game)
    for player in range(3):
        response = best_response(game, uniform, player)
        assert response.value >= values[player]
        played = expected_value(game, response.strategy)
        assert played[player] == pytest.approx(response.value, abs=1e-12)
        others = tree.infoset_player != player
        assert np.array_equal(response.strategy.probs[others], uniform.probs[others])
        mine = response.strategy.probs[~others]
        assert set(np.unique(mine)) <= {0.0, 1.0}
        from_array = best_response_values_array(tree, uniform.probs)[player]
        assert response.value == pytest.approx(from_array, abs=1e-15)


def test_errors() -> None:
    with pytest.raises(StrategyMismatchError, match=r"kuhn\(cards=4"):
        best_response(KUHN, Strategy.uniform(kuhn(cards=4)), 0)
    with pytest.raises(PokerlabError, match=r"players 0\.\.1; got player=2"):
        best_response(KUHN, Strategy.uniform(KUHN), 2)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), which=st.sampled_from(["kuhn", "kuhn3", "leduc"]))
def test_best_response_is_a_best_response(seed: int, which: str) -> None:
    game = {"kuhn": KUHN, "kuhn3": kuhn(players=3), "leduc": leduc()}[which]
    tree = compile(game)
    strategy = Strategy.from_array(game, random_probs(game, seed))
    rival = Strategy.from_array(game, random_probs(game, seed + 1))
    values = expected_value(game, strategy)
    for player in range(game.n_players):
        response = best_response(game, strategy, player)
        # its value is what the pure strategy earns when played...
        assert expected_value(game, response.strategy)[player] == pytest.approx(
            response.value, abs=1e-12
        )
        # ...and no less than the strategy's own rows or another strategy's rows earn
        assert response.value >= values[player] - 1e-12
        seats = [strategy] * game.n_players
        seats[player] = rival
        assert response.value >= expected_value(game, seats)[player] - 1e-12
        assert response.strategy.probs.sum(axis=1) == pytest.approx(np.ones(tree.n_infosets))
