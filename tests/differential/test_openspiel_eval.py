"""Exact evaluation against OpenSpiel on many random strategies.

Best-response values come from OpenSpiel's C++ ``TabularBestResponse`` (built once per
player, then re-pointed at each strategy with ``set_policy``), NashConv and
exploitability from ``pyspiel.nash_conv`` / ``pyspiel.exploitability``, expected values
from the Python ``expected_game_score.policy_value``. OpenSpiel's Leduc functions take
about 0.1 s per strategy, so Leduc checks NashConv and exploitability on a subset and
derives the rest from the per-player best-response values (checked on all strategies).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import expected_game_score

from pokerlab.eval import (
    best_response,
    best_response_values_array,
    expected_value,
    exploitability,
    nash_conv,
)
from pokerlab.games import Game, kuhn, leduc
from pokerlab.interop.openspiel import infostate_map, to_tabular_policy
from pokerlab.strategy import Strategy
from pokerlab.tree import compile
from tests.differential.lockstep import random_strategy

N_STRATEGIES = 200
TOLERANCE = 1e-9

GAMES = {
    "kuhn": (kuhn, N_STRATEGIES),  # (game, how many strategies also get pyspiel.nash_conv)
    "kuhn3": (lambda: kuhn(players=3), N_STRATEGIES),
    "leduc": (leduc, 10),
}


@dataclass
class Pair:
    game: Game
    os_game: pyspiel.Game
    rows: list[tuple[str, int, list[int]]]  # OpenSpiel info state, our infoset id, legal

    def policy_dict(self, strategy: Strategy) -> dict[str, list[tuple[int, float]]]:
        """The strategy as pyspiel's {info state: [(action, prob)]} (fast path)."""
        probs = strategy.probs.tolist()
        return {
            theirs: [(a, probs[i][k]) for k, a in enumerate(legal)]
            for theirs, i, legal in self.rows
        }


_PAIRS: dict[str, Pair] = {}


def pair_for(name: str) -> Pair:
    if name not in _PAIRS:
        game = GAMES[name][0]()
        mapping = infostate_map(game)
        tree = compile(game)
        rows = []
        for theirs, i in zip(mapping.infostates, mapping.infoset_ids.tolist(), strict=True):
            n = int(tree.infoset_n_actions[i])
            rows.append((theirs, i, [int(a) for a in tree.infoset_actions[i, :n]]))
        _PAIRS[name] = Pair(game, mapping.os_game, rows)
    return _PAIRS[name]


@pytest.mark.parametrize("name", list(GAMES))
def test_fast_policy_dict_matches_the_bridge(name: str) -> None:
    pair = pair_for(name)
    strategy = random_strategy(pair.game, np.random.default_rng(7))
    bridge = to_tabular_policy(strategy).to_dict()
    fast = pair.policy_dict(strategy)
    assert bridge.keys() == fast.keys()
    for key, row in fast.items():
        full = dict(bridge[key])
        assert {a: full.pop(a) for a, _ in row} == pytest.approx(dict(row), abs=1e-15)
        assert all(p == 0 for p in full.values())  # illegal actions only


@pytest.mark.slow
@pytest.mark.parametrize("name", list(GAMES))
def test_best_response_values_nash_conv_and_exploitability(name: str) -> None:
    pair = pair_for(name)
    game, os_game = pair.game, pair.os_game
    n_players = game.n_players
    tree = compile(game)
    rng = np.random.default_rng(20240601)
    uniform = pair.policy_dict(Strategy.uniform(game))
    responders = [pyspiel.TabularBestResponse(os_game, p, uniform) for p in range(n_players)]
    n_nash_conv = GAMES[name][1]
    for index in range(N_STRATEGIES):
        strategy = Strategy.uniform(game) if index == 0 else random_strategy(game, rng)
        table = pair.policy_dict(strategy)
        theirs = []
        for responder in responders:
            responder.set_policy(table)
            theirs.append(responder.value(""))
        ours = best_response_values_array(tree, strategy.probs)
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=TOLERANCE)
        for player in range(n_players):
            assert best_response(game, strategy, player).value == pytest.approx(
                theirs[player], abs=TOLERANCE
            )
        if index < n_nash_conv:
            assert nash_conv(game, strategy) == pytest.approx(
                pyspiel.nash_conv(os_game, table), abs=TOLERANCE
            )
            assert exploitability(game, strategy) == pytest.approx(
                pyspiel.exploitability(os_game, table), abs=TOLERANCE
            )
        else:
            # zero-sum: OpenSpiel's NashConv is the sum of its best-response values
            assert nash_conv(game, strategy) == pytest.approx(sum(theirs), abs=TOLERANCE)
            assert exploitability(game, strategy) == pytest.approx(
                sum(theirs) / n_players, abs=TOLERANCE
            )


@pytest.mark.parametrize(("name", "count"), [("kuhn", 50), ("kuhn3", 50), ("leduc", 8)])
def test_expected_values_match_policy_value(name: str, count: int) -> None:
    pair = pair_for(name)
    game, os_game = pair.game, pair.os_game
    rng = np.random.default_rng(99)
    for _ in range(count):
        seats = [random_strategy(game, rng) for _ in range(game.n_players)]
        policies = [to_tabular_policy(s) for s in seats]
        theirs = expected_game_score.policy_value(os_game.new_initial_state(), policies)
        np.testing.assert_allclose(expected_value(game, seats), theirs, rtol=0, atol=TOLERANCE)
