"""Strategy tables name each row's actions as play does at that infoset (issue 26, item 6).

Leduc's ``1`` is a check where no bet is faced and a call where one is; tables, JSON and
CSV say so, and :meth:`Strategy.from_dict` reads both those names and the game's own
names (what tables wrote before) back to the same strategy.
"""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest

from pokerlab.errors import StrategyError
from pokerlab.games import kuhn, leduc, load
from pokerlab.strategy import Strategy, strategy_csv, strategy_json, strategy_rows
from pokerlab.strategy.action_names import infoset_action_names
from pokerlab.tree import compile

GAMES = (
    "kuhn",
    "kuhn(cards=5)",
    "kuhn(players=3)",
    "leduc",
    "leduc(stack=10, raise_cap=None)",
    "abstract(game='leduc(stack=10, raise_cap=None)', raise_cap=2)",
    "rps",
)


def _names(strategy: Strategy, key: str) -> tuple[str, ...]:
    (row,) = [row for row in strategy_rows(strategy) if row.key == key]
    return tuple(name for name, _ in row.actions)


def _random_strategy(spec: str, seed: int = 0) -> Strategy:
    game = load(spec)
    tree = compile(game)
    probs = np.random.default_rng(seed).random((tree.n_infosets, tree.max_actions))
    return Strategy.from_array(game, np.where(tree.legal_mask, probs, 0.0), normalize=True)


def test_leduc_rows_are_named_as_play_names_them() -> None:
    strategy = Strategy.uniform(leduc())
    assert _names(strategy, "A|") == ("check", "bet")  # the opening: no bet to face
    assert _names(strategy, "A|c") == ("check", "bet")  # after a check
    assert _names(strategy, "A|r") == ("fold", "call", "raise")  # facing a bet
    assert _names(strategy, "A|rr") == ("fold", "call")  # facing the capped raise
    assert _names(strategy, "A|K|cc|") == ("check", "bet")  # second round opens
    assert _names(strategy, "A|K|cc|cr") == ("fold", "call", "raise")
    state = leduc().initial_state().child(0).child(1)  # both cards dealt: P1 to act
    assert [state.action_name(a) for a in state.legal_actions()] == ["check", "bet"]


def test_the_fifty_chip_leduc_and_kuhn_name_rows_as_play() -> None:
    big = Strategy.uniform(leduc(stack=50, raise_cap=None))
    assert _names(big, "A|") == ("check", "bet")
    assert _names(big, "A|A|cc|crr") == ("fold", "call", "raise")
    assert _names(big, "A|A|cc|crrrrrrrrrrrrr") == ("fold", "call")  # the stack is all in
    small = Strategy.uniform(kuhn())
    assert [_names(small, key) for key in ("K|", "K|p", "K|b", "K|pb")] == [
        ("check", "bet"), ("check", "bet"), ("fold", "call"), ("fold", "call")]
    hundred = Strategy.uniform(kuhn(cards=100))
    assert _names(hundred, "100|") == ("check", "bet")
    assert _names(hundred, "1|b") == ("fold", "call")


@pytest.mark.parametrize("spec", GAMES)
def test_every_history_of_an_infoset_names_its_actions_alike(spec: str) -> None:
    tree = compile(load(spec))
    names = infoset_action_names(tree)
    for node in tree.decision_ids.tolist():
        state = tree.history_state(node)
        i = int(tree.infoset[node])
        n = int(tree.infoset_n_actions[i])
        assert tuple(state.action_name(int(a)) for a in tree.infoset_actions[i, :n]) == names[i]
        assert tuple(state.legal_actions()) == tuple(int(a) for a in tree.infoset_actions[i, :n])


def test_names_asked_in_parts_match_names_asked_at_once() -> None:
    tree = compile(leduc(stack=10, raise_cap=None))
    every = infoset_action_names(tree)
    fresh = compile(leduc(stack=10, raise_cap=None))
    assert fresh is tree  # cached: names are kept per tree
    late = list(range(tree.n_infosets - 1, -1, -7))
    assert infoset_action_names(tree, late) == [every[i] for i in late]
    assert infoset_action_names(tree, [3, 3, 0]) == [every[3], every[3], every[0]]
    assert infoset_action_names(tree, []) == []


@pytest.mark.parametrize("spec", GAMES)
def test_json_csv_and_rows_agree(spec: str) -> None:
    strategy = _random_strategy(spec)
    rows = strategy_rows(strategy)
    data = strategy_json(strategy)
    infosets = data["infosets"]
    assert isinstance(infosets, dict)
    assert {row.key: dict(row.actions) for row in rows} == {
        key: value["actions"] for key, value in infosets.items()}
    lines = list(csv.reader(io.StringIO(strategy_csv(strategy))))
    assert lines[0] == ["infoset", "player", "action", "probability"]
    assert [(key, name) for key, _, name, _ in lines[1:]] == [
        (row.key, name) for row in rows for name, _ in row.actions]


def test_leduc_json_and_csv_name_the_opening_check_and_bet() -> None:
    strategy = Strategy.from_dict(leduc(), {"A|": [0.25, 0.75], "A|r": [0.5, 0.25, 0.25]})
    infosets = strategy_json(strategy, prefix="A|")["infosets"]
    assert isinstance(infosets, dict)
    assert infosets["A|"] == {"player": 1, "actions": {"check": 0.25, "bet": 0.75}}
    assert infosets["A|r"] == {"player": 2,
                               "actions": {"fold": 0.5, "call": 0.25, "raise": 0.25}}
    lines = list(csv.reader(io.StringIO(strategy_csv(strategy, prefix="A|"))))
    assert lines[1:3] == [["A|", "1", "check", "0.25"], ["A|", "1", "bet", "0.75"]]
    assert ["A|r", "2", "fold", "0.5"] in lines


@pytest.mark.parametrize("spec", GAMES)
def test_json_and_csv_read_back_by_name(spec: str) -> None:
    strategy = _random_strategy(spec, seed=1)
    game = strategy.game
    infosets = strategy_json(strategy)["infosets"]
    assert isinstance(infosets, dict)
    again = Strategy.from_dict(
        game, {key: value["actions"] for key, value in infosets.items()}, default="error")
    np.testing.assert_array_equal(again.probs, strategy.probs)
    table: dict[str, dict[str, float]] = {}
    for key, _, name, prob in list(csv.reader(io.StringIO(strategy_csv(strategy))))[1:]:
        table.setdefault(key, {})[name] = float(prob)
    from_csv = Strategy.from_dict(game, table, default="error")
    np.testing.assert_allclose(from_csv.probs, strategy.probs, atol=1e-9)


@pytest.mark.parametrize("spec", GAMES)
def test_tables_written_before_with_the_games_names_still_read_back(spec: str) -> None:
    strategy = _random_strategy(spec, seed=2)
    game = strategy.game
    tree = compile(game)
    old = {  # what strategy_json wrote before: game.action_name at every infoset
        key: {game.action_name(int(a)): float(strategy.probs[i, k])
              for k, a in enumerate(tree.infoset_actions[i, : tree.infoset_n_actions[i]])}
        for i, key in enumerate(tree.infoset_keys)
    }
    again = Strategy.from_dict(game, old, default="error")
    np.testing.assert_array_equal(again.probs, strategy.probs)


def test_from_dict_takes_either_name_and_lists_play_names_when_neither_fits() -> None:
    game = leduc()
    by_play = Strategy.from_dict(game, {"A|": {"check": 0.3, "bet": 0.7}})
    by_game = Strategy.from_dict(game, {"A|": {"call": 0.3, "raise": 0.7}})
    np.testing.assert_array_equal(by_play.probs, by_game.probs)
    assert by_play.probabilities("A|") == {1: 0.3, 2: 0.7}
    listed = r"'A\|' has no action 'fold'; legal: check \(1\), bet \(2\)"
    with pytest.raises(StrategyError, match=listed):
        Strategy.from_dict(game, {"A|": {"fold": 1.0}})
    kuhn_game = kuhn()
    assert Strategy.from_dict(kuhn_game, {"K|b": {"call": 1.0}}).probabilities("K|b") == {
        0: 0.0, 1: 1.0}
    assert Strategy.from_dict(kuhn_game, {"K|b": {"pass": 1.0}}).probabilities("K|b") == {
        0: 1.0, 1: 0.0}


def test_json_and_csv_choose_rows_by_player_as_rows_do() -> None:
    strategy = Strategy.uniform(leduc())
    for player in (0, 1):
        keys = [row.key for row in strategy_rows(strategy, prefix="K|", player=player)]
        infosets = strategy_json(strategy, prefix="K|", player=player)["infosets"]
        assert isinstance(infosets, dict)
        assert list(infosets) == keys
        assert {value["player"] for value in infosets.values()} == {player + 1}
        lines = list(csv.reader(io.StringIO(strategy_csv(strategy, prefix="K|", player=player))))
        assert list(dict.fromkeys(key for key, *_ in lines[1:])) == keys
