from __future__ import annotations

import numpy as np
import pytest

from pokerlab.abstraction import (
    AbstractGame,
    CollapsedGame,
    abstract_game,
    collapse,
    lift,
    to_abstract_game,
)
from pokerlab.errors import SpecError
from pokerlab.eval import expected_value, exploitability
from pokerlab.games import kuhn, leduc, load
from pokerlab.strategy import Strategy
from pokerlab.tree import compile


def random_strategy(game: object, seed: int) -> Strategy:
    tree = compile(game)  # type: ignore[arg-type]
    rng = np.random.default_rng(seed)
    probs = rng.random((tree.n_infosets, tree.max_actions)) * tree.legal_mask
    return Strategy.from_array(game, probs, normalize=True)  # type: ignore[arg-type]


def test_keys_are_bucketed_and_the_tree_is_smaller() -> None:
    game = abstract_game(kuhn(cards=12), "uniform:4")
    assert game.abstract_key("7|pb") == "7-9|pb"
    tree = compile(game)
    assert tree.n_histories == compile(kuhn(cards=12)).n_histories
    assert tree.n_infosets == 16
    assert "1-3|" in tree.infoset_keys
    state = game.initial_state().child(0).child(11)
    assert state.infoset_key() == "1-3|"
    assert state.child(1).infoset_key() == "10-12|b"
    assert state.child(1).child(1).returns() == (-2.0, 2.0)


def test_identity_keys_are_the_real_keys() -> None:
    game = abstract_game(leduc(), "identity")
    assert compile(game).infoset_keys == compile(leduc()).infoset_keys


def test_spec_round_trip_and_load_by_name() -> None:
    game = abstract_game("kuhn(cards=30)", "boundaries:0,5,17")
    text = str(game.spec)
    assert text == "abstract(game='kuhn(cards=30)', cards='boundaries:0,5,17')"
    again = load(text)
    assert isinstance(again, AbstractGame)
    assert again == game
    assert load(game.spec) == game
    assert str(abstract_game("kuhn(cards=30)", "uniform:3").spec).endswith("cards='uniform:3')")
    with pytest.raises(SpecError, match="has no parameter colour"):
        load("abstract(game='kuhn', colour=1)")


def test_a_saved_abstract_strategy_loads_again(tmp_path: object) -> None:
    game = abstract_game(kuhn(cards=12), "uniform:4")
    collapsed = collapse(game)
    strategy = to_abstract_game(random_strategy(collapsed, 1))
    path = strategy.save(tmp_path / "abstract.npz")  # type: ignore[operator]
    loaded = Strategy.load(path)
    assert loaded.game == game
    np.testing.assert_allclose(loaded.probs, strategy.probs)


@pytest.mark.parametrize(
    ("spec", "cards", "board"),
    [
        ("kuhn(cards=12)", "uniform:4", None),
        ("kuhn(cards=7, players=3)", "uniform:3", None),
        ("leduc(ranks=4)", "uniform:2", None),
        ("leduc(ranks=4)", "uniform:2", "identity"),
        ("leduc(ranks=4, pair_counts=False)", "boundaries:0,1", None),
        ("leduc", "identity", None),
    ],
)
def test_the_collapsed_game_has_the_abstract_games_values(
    spec: str, cards: str, board: str | None
) -> None:
    game = abstract_game(spec, cards, board=board)
    collapsed = collapse(game)
    assert isinstance(collapsed, CollapsedGame)
    assert compile(collapsed).n_histories < compile(game).n_histories
    assert sorted(compile(collapsed).infoset_keys) == sorted(compile(game).infoset_keys)
    for seed in range(3):
        strategy = random_strategy(collapsed, seed)
        full = to_abstract_game(strategy)
        assert expected_value(collapsed, strategy) == pytest.approx(
            expected_value(game, full), abs=1e-12
        )
        if game.n_players == 2:
            assert exploitability(collapsed, strategy) == pytest.approx(
                exploitability(game, full), abs=1e-12
            )
        lifted = lift(strategy)
        assert lifted.game == game.full
        assert expected_value(game.full, lifted) == pytest.approx(
            expected_value(game, full), abs=1e-12
        )


def test_leduc_buckets_say_when_the_board_pairs() -> None:
    game = abstract_game("leduc(ranks=4)", "uniform:2")
    keys = compile(collapse(game)).infoset_keys
    assert "J-Q|J-Q(pair)|rc|" in keys
    assert "J-Q|J-Q|rc|" in keys
    assert game.abstract_key("Q|Q|rc|") == "J-Q|J-Q(pair)|rc|"
    assert game.abstract_key("Q|J|rc|") == "J-Q|J-Q|rc|"
    assert abstract_game("leduc(ranks=4)", "identity").abstract_key("Q|Q|rc|") == "Q|Q|rc|"


def test_bad_abstractions() -> None:
    with pytest.raises(SpecError, match="two-player leduc only"):
        abstract_game(kuhn(cards=10), "uniform:5", raise_cap=1)
    with pytest.raises(SpecError, match="below the game's own cap 2"):
        abstract_game(leduc(), raise_cap=2)
    with pytest.raises(SpecError, match="at least 1"):
        abstract_game(leduc(stack=50, raise_cap=None), raise_cap=0)
    with pytest.raises(SpecError, match="board buckets apply to leduc only"):
        abstract_game(kuhn(cards=10), "uniform:5", board="uniform:2")
    with pytest.raises(SpecError, match="kuhn and leduc"):
        abstract_game("rps", "identity")
