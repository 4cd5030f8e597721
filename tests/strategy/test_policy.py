"""The policy contract: tables, keyed tables, function policies, tabulate, one answer checker."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pokerlab.errors import (
    FileFormatError,
    GameTooLargeError,
    PolicyError,
    StrategyError,
    StrategyMismatchError,
)
from pokerlab.eval import best_response, expected_value, exploitability
from pokerlab.games import holdem, kuhn, leduc
from pokerlab.strategy import (
    FunctionPolicy,
    InfosetTable,
    Policy,
    Strategy,
    check_distribution,
    kuhn_equilibrium,
    load_policy,
    tabulate,
)
from pokerlab.tree import compile


def _always_bet(observation):
    return {observation.legal_actions[-1]: 1.0}


def test_every_kind_is_a_policy() -> None:
    game = kuhn()
    table = InfosetTable.from_rows(game, {"K|": {0: 1.0, 1: 0.0}})
    for policy in (Strategy.uniform(game), table, FunctionPolicy(game, _always_bet)):
        assert isinstance(policy, Policy)
        observation = game.initial_state().child(0).child(1).observation()
        probs = policy.action_probabilities(observation)
        assert set(probs) == set(observation.legal_actions)
        assert sum(probs.values()) == pytest.approx(1.0)


def test_check_distribution_accepts_mappings_and_sequences() -> None:
    assert check_distribution({1: 1.0}, (0, 1)) == {0: 0.0, 1: 1.0}
    assert check_distribution(np.array([0.25, 0.75]), (0, 1)) == {0: 0.25, 1: 0.75}
    assert check_distribution({np.int64(0): np.float32(0.5), 1: 0.5}, (0, 1)) == {0: 0.5, 1: 0.5}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({0: 0.5}, "sum to 0.5"),
        ({0: -0.5, 1: 1.5}, "finite and >= 0"),
        ({0: math.nan, 1: 1.0}, "finite and >= 0"),
        ({0: math.inf}, "finite and >= 0"),
        ({2: 1.0}, "not legal"),
        ({True: 1.0}, "not legal"),
        ({0: "1"}, "not a number"),
        ([1.0], "1 probabilities for 2 legal actions"),
        ("fold", "not a mapping"),
        (None, "not a mapping"),
    ],
)
def test_check_distribution_refuses_what_is_not_a_distribution(raw, message) -> None:
    with pytest.raises(PolicyError, match=message):
        check_distribution(raw, (0, 1))


def test_tabulate_a_function_policy_on_kuhn_and_leduc() -> None:
    for game in (kuhn(), leduc()):
        table = tabulate(FunctionPolicy(game, _always_bet), game)
        tree = compile(game)
        last = tree.infoset_n_actions - 1
        assert np.all(table.probs[np.arange(tree.n_infosets), last] == 1.0)


def test_evaluators_accept_any_policy() -> None:
    game = kuhn()
    function = FunctionPolicy(game, lambda obs: {a: 1 / len(obs.legal_actions)
                                                 for a in obs.legal_actions})
    uniform = Strategy.uniform(game)
    assert exploitability(game, function) == pytest.approx(exploitability(game, uniform), abs=0)
    assert expected_value(game, [function, uniform]) == pytest.approx(
        expected_value(game, uniform))
    assert best_response(game, function, 1).value == pytest.approx(5 / 12)
    rows = {key: uniform.probabilities(key) for key in compile(game).infoset_keys}
    table = InfosetTable.from_rows(game, rows)
    assert exploitability(game, table) == pytest.approx(11 / 24)


def test_exact_evaluators_say_when_the_game_is_too_big() -> None:
    game = holdem()
    policy = FunctionPolicy(game, _always_bet)
    with pytest.raises(GameTooLargeError, match="exploitability needs the whole game tree"):
        exploitability(game, policy)
    with pytest.raises(GameTooLargeError, match="an exact expected value needs the whole"):
        expected_value(game, policy)


def test_tabulate_refuses_a_policy_of_another_game() -> None:
    with pytest.raises(StrategyMismatchError, match="made for kuhn, not for leduc"):
        tabulate(Strategy.uniform(kuhn()), leduc())


def test_infoset_table_round_trip(tmp_path) -> None:
    game = leduc()
    rows = {"K|": {1: 0.25, 2: 0.75}, "Q|rc|": {1: 1.0, 2: 0.0}}
    table = InfosetTable.from_rows(game, rows, metadata={"algorithm": "es-mccfr"})
    path = table.save(tmp_path / "t.npz")
    again = InfosetTable.load(path, game=game)
    assert again.keys == table.keys
    assert again.get("K|") == {1: 0.25, 2: 0.75}
    assert again.metadata["algorithm"] == "es-mccfr"
    assert isinstance(load_policy(path), InfosetTable)
    assert isinstance(load_policy(Strategy.uniform(game).save(tmp_path / "s.npz")), Strategy)
    with pytest.raises(StrategyMismatchError, match="holds a table for leduc, not for kuhn"):
        InfosetTable.load(path, game=kuhn())
    with pytest.raises(FileFormatError, match="pokerlab-table file, not a pokerlab-strategy"):
        Strategy.load(path)


def test_unseen_infosets_play_uniformly_and_are_counted() -> None:
    game = kuhn()
    table = InfosetTable.from_rows(game, {"K|": {0: 1.0, 1: 0.0}})
    observation = game.initial_state().child(0).child(1).observation()  # Q for P1
    assert table.action_probabilities(observation) == {0: 0.5, 1: 0.5}
    assert table.unseen == 1
    strategy = tabulate(table, game)
    assert strategy.probabilities("K|") == {0: 1.0, 1: 0.0}
    assert strategy.probabilities("A|b") == {0: 0.5, 1: 0.5}


def test_infoset_table_checks_its_rows() -> None:
    game = kuhn()
    with pytest.raises(StrategyError, match=r"sum to 0\.5"):
        InfosetTable.from_rows(game, {"K|": {0: 0.5}})
    with pytest.raises(StrategyError, match="negative or non-finite"):
        InfosetTable.from_rows(game, {"K|": {0: -1.0, 1: 2.0}})
    normalized = InfosetTable.from_rows(game, {"K|": {0: 0.0, 1: 0.0}, "A|": {0: 2.0, 1: 6.0}},
                                        normalize=True)
    assert normalized.get("K|") == {0: 0.5, 1: 0.5}
    assert normalized.get("A|") == {0: 0.25, 1: 0.75}
    observation = game.initial_state().child(0).child(1).child(0).observation()  # P2 after a check
    wrong = InfosetTable.from_rows(game, {observation.infoset_key: {0: 0.5, 7: 0.5}})
    with pytest.raises(StrategyError, match="legal actions are"):
        wrong.action_probabilities(observation)


def test_strategy_is_looked_up_by_observation() -> None:
    strategy = kuhn_equilibrium(0.6)
    state = kuhn().initial_state().child(2).child(0)  # P1 holds the A
    assert strategy.action_probabilities(state.observation()) == pytest.approx({0: 0.4, 1: 0.6})


@pytest.mark.parametrize("raw", [{0: 1.0, 5: 0.0}, {True: 0.0, 0: 1.0}, {0: 1.0, 1: -0.0 - 1e-3}])
def test_a_zero_for_an_illegal_or_bool_action_is_still_refused(raw: dict) -> None:
    # the fast skip of exact zeros applies to legal int actions only
    with pytest.raises(PolicyError):
        check_distribution(raw, (0, 1))


def test_zeros_over_a_long_no_limit_menu_are_accepted() -> None:
    legal = tuple(range(200))
    answer = check_distribution({a: (1.0 if a == 7 else 0.0) for a in legal}, legal)
    assert answer[7] == 1.0
    assert sum(answer.values()) == 1.0
    assert len(answer) == 200
