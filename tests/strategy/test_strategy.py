"""Strategy: construction and its checks, lookup, combine, readable tables."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest

from pokerlab.errors import PokerlabError, StrategyError, StrategyMismatchError
from pokerlab.games import kuhn, leduc, load
from pokerlab.strategy import Strategy, strategy_csv, strategy_json, strategy_rows
from pokerlab.tree import compile


def _bet_always() -> np.ndarray:
    tree = compile(kuhn())
    probs = np.zeros((tree.n_infosets, tree.max_actions))
    probs[:, 1] = 1.0
    return probs


def test_uniform() -> None:
    game = leduc()
    strategy = Strategy.uniform(game)
    tree = compile(game)
    assert strategy.probs.shape == (288, 3)
    np.testing.assert_allclose(strategy.probs.sum(axis=1), 1.0)
    np.testing.assert_array_equal(strategy.probs[~tree.legal_mask], 0.0)
    assert strategy.probabilities("K|") == {1: 0.5, 2: 0.5}
    assert strategy.probabilities("K|r") == pytest.approx({0: 1 / 3, 1: 1 / 3, 2: 1 / 3})
    assert strategy.probabilities("K|rr") == {0: 0.5, 1: 0.5}
    assert strategy.metadata["algorithm"] == "uniform"
    assert Strategy.uniform(kuhn()).probabilities("K|pb") == {0: 0.5, 1: 0.5}
    assert "uniform" in repr(strategy)


def test_probs_are_read_only() -> None:
    strategy = Strategy.uniform(kuhn())
    with pytest.raises(ValueError, match="read-only"):
        strategy.probs[0, 0] = 1.0


def test_from_array() -> None:
    game = kuhn()
    strategy = Strategy.from_array(game, _bet_always(), metadata={"name": "aggressive"})
    assert strategy.probabilities("Q|") == {0: 0.0, 1: 1.0}
    assert strategy.metadata == {"name": "aggressive"}
    source = _bet_always()
    strategy = Strategy.from_array(game, source)
    source[0] = [1.0, 0.0]
    assert strategy.probs[0, 1] == 1.0  # the array was copied


def test_from_array_bad_shape() -> None:
    with pytest.raises(StrategyError, match=r"needs shape \(12, 2\).*got \(12, 3\)"):
        Strategy.from_array(kuhn(), np.full((12, 3), 1 / 3))
    with pytest.raises(StrategyError, match="needs shape"):
        Strategy.from_array(kuhn(), np.full(12, 0.5))


def test_from_array_negative_names_the_infoset() -> None:
    tree = compile(kuhn())
    probs = _bet_always()
    probs[3] = [-0.5, 1.5]
    with pytest.raises(StrategyError, match=rf"infoset '{tree.infoset_keys[3]}'.*negative"):
        Strategy.from_array(kuhn(), probs)
    probs[3] = [np.nan, 1.0]
    with pytest.raises(StrategyError, match="non-finite"):
        Strategy.from_array(kuhn(), probs)
    probs[3] = [np.inf, 1.0]
    with pytest.raises(StrategyError, match="non-finite"):
        Strategy.from_array(kuhn(), probs, normalize=True)


def test_from_array_illegal_slot() -> None:
    game = leduc()
    tree = compile(game)
    probs = Strategy.uniform(game).probs.copy()
    i = tree.infoset_id("K|")  # check or bet: slot 2 is not legal
    probs[i] = [0.5, 0.25, 0.25]
    with pytest.raises(StrategyError, match=r"infoset 'K\|' puts probability on an illegal"):
        Strategy.from_array(game, probs)


def test_from_array_row_sum() -> None:
    game = kuhn()
    tree = compile(game)
    probs = _bet_always()
    i = tree.infoset_id("A|b")
    probs[i] = [0.3, 0.3]
    with pytest.raises(StrategyError, match=r"infoset 'A\|b': probabilities sum to 0\.6, not 1"):
        Strategy.from_array(game, probs)
    fixed = Strategy.from_array(game, probs, normalize=True)
    assert fixed.probabilities("A|b") == {0: 0.5, 1: 0.5}
    probs[i] = [0.0, 0.0]
    with pytest.raises(StrategyError, match="sum to 0"):
        Strategy.from_array(game, probs)
    assert Strategy.from_array(game, probs, normalize=True).probabilities("A|b") == {
        0: 0.5,
        1: 0.5,
    }
    probs[i] = [0.5, 0.5 + 1e-9]  # within tolerance
    Strategy.from_array(game, probs)


def test_from_dict() -> None:
    game = leduc()
    strategy = Strategy.from_dict(
        game,
        {
            "K|": [0.25, 0.75],  # a list over the legal actions in order
            "A|r": {2: 1.0},  # by action id
            "Q|r": {"fold": 0.5, "call": 0.5},  # by action name
        },
    )
    assert strategy.probabilities("K|") == {1: 0.25, 2: 0.75}
    assert strategy.probabilities("A|r") == {0: 0.0, 1: 0.0, 2: 1.0}
    assert strategy.probabilities("Q|r") == {0: 0.5, 1: 0.5, 2: 0.0}
    assert strategy.probabilities("A|") == {1: 0.5, 2: 0.5}  # the default: uniform
    kuhn_strategy = Strategy.from_dict(kuhn(), {"K|pb": {"bet": 1.0}})
    assert kuhn_strategy.probabilities("K|pb") == {0: 0.0, 1: 1.0}


def test_from_dict_errors() -> None:
    game = kuhn()
    with pytest.raises(StrategyError, match=r"no infoset 'X\|'; keys look like"):
        Strategy.from_dict(game, {"X|": [0.5, 0.5]})
    with pytest.raises(
        StrategyError, match=r"infoset 'K\|' has no action 'raise'; legal: check \(0\), bet \(1\)"
    ):
        Strategy.from_dict(game, {"K|": {"raise": 1.0}})
    with pytest.raises(StrategyError, match="has no action 5"):
        Strategy.from_dict(game, {"K|": {5: 1.0}})
    with pytest.raises(StrategyError, match=r"'K\|' has 2 legal actions \(check, bet\); got 3"):
        Strategy.from_dict(game, {"K|": [0.2, 0.3, 0.5]})
    with pytest.raises(StrategyError, match="sum to"):
        Strategy.from_dict(game, {"K|": [0.2, 0.3]})
    with pytest.raises(StrategyError, match=r"11 infosets have no row"):
        Strategy.from_dict(game, {"K|": [0.5, 0.5]}, default="error")
    with pytest.raises(StrategyError, match="default must be"):
        Strategy.from_dict(game, {}, default="zero")
    full = {key: [0.0, 1.0] for key in compile(game).infoset_keys}
    strategy = Strategy.from_dict(game, full, default="error")
    np.testing.assert_array_equal(strategy.probs, _bet_always())


def test_probabilities_unknown_key() -> None:
    with pytest.raises(PokerlabError, match="no infoset"):
        Strategy.uniform(kuhn()).probabilities("Z|")


def test_action_probabilities_of_a_state() -> None:
    strategy = Strategy.from_dict(kuhn(), {"A|b": [0.0, 1.0]})
    state = kuhn().initial_state().child(0).child(2).child(1)
    assert strategy.action_probabilities(state) == {0: 0.0, 1: 1.0}


def test_check_game_and_combine() -> None:
    game = kuhn()
    strategy = Strategy.uniform(game)
    strategy.check_game(kuhn(cards=3))
    with pytest.raises(StrategyMismatchError, match=r"made for kuhn, not for kuhn\(cards=4\)"):
        strategy.check_game(kuhn(cards=4))
    aggressive = Strategy.from_array(game, _bet_always())
    mixed = strategy.combine([aggressive, strategy])
    tree = compile(game)
    p1 = tree.infoset_player == 0
    np.testing.assert_array_equal(mixed.probs[p1], aggressive.probs[p1])
    np.testing.assert_array_equal(mixed.probs[~p1], strategy.probs[~p1])
    with pytest.raises(StrategyError, match="2 players; got 1"):
        strategy.combine([aggressive])
    with pytest.raises(StrategyMismatchError):
        strategy.combine([aggressive, Strategy.uniform(kuhn(cards=4))])
    tagged = strategy.with_metadata(iterations=3)
    assert tagged.metadata == {"algorithm": "uniform", "iterations": 3}
    assert strategy.metadata == {"algorithm": "uniform"}


# -- tables ---------------------------------------------------------------------------------


def test_strategy_rows_sorted() -> None:
    rows = strategy_rows(Strategy.uniform(kuhn()))
    assert [(r.player, r.key) for r in rows] == sorted(
        (r.player, r.key) for r in rows
    )  # 3-card keys sort alphabetically within a player
    assert [r.player for r in rows] == [0] * 6 + [1] * 6
    assert rows[0].actions == (("check", 0.5), ("bet", 0.5))  # as play names them
    hundred = strategy_rows(Strategy.uniform(kuhn(cards=100)), prefix="", player=0)
    roots = [r.key for r in hundred if r.key.endswith("|")]
    assert roots == [f"{c}|" for c in range(1, 101)]  # numeric order: 2 before 10


def test_strategy_rows_filters() -> None:
    strategy = Strategy.uniform(kuhn())
    assert [r.key for r in strategy_rows(strategy, prefix="K|")] == ["K|", "K|pb", "K|b", "K|p"]
    assert {r.player for r in strategy_rows(strategy, player=1)} == {1}
    assert [r.key for r in strategy_rows(strategy, prefix="K|", player=1)] == ["K|b", "K|p"]
    assert strategy_rows(strategy, prefix="nothing") == []
    leduc_rows = strategy_rows(Strategy.uniform(leduc()), prefix="K|A|")
    assert leduc_rows
    assert all(r.key.startswith("K|A|") for r in leduc_rows)


def test_strategy_csv() -> None:
    strategy = Strategy.from_dict(kuhn(), {"K|": [0.25, 0.75]})
    text = strategy_csv(strategy, prefix="K|")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["infoset", "player", "action", "probability"]
    assert rows[1] == ["K|", "1", "check", "0.25"]
    assert rows[2] == ["K|", "1", "bet", "0.75"]
    assert len(rows) == 1 + 4 * 2
    full = list(csv.reader(io.StringIO(strategy_csv(strategy))))
    assert len(full) == 1 + 12 * 2


def test_strategy_json() -> None:
    strategy = Strategy.from_dict(load("leduc(stack=4)"), {"K|": [0.25, 0.75]})
    data = strategy_json(strategy, prefix="K|")
    assert data["game"] == "leduc(stack=4)"
    assert data["metadata"] == {}
    infosets = data["infosets"]
    assert isinstance(infosets, dict)
    assert infosets["K|"] == {"player": 1, "actions": {"check": 0.25, "bet": 0.75}}
    assert all(key.startswith("K|") for key in infosets)
