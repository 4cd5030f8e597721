"""The Hard AI: plays blueprints in matches, translates off-menu bets, caches its default."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pokerlab.agents.hard import (
    DEFAULT_ITERATIONS,
    HardAI,
    default_blueprint_path,
    default_command,
    default_recipe,
)
from pokerlab.agents.registry import agent_names, make_agent
from pokerlab.blueprint.betting_tree import RAISE
from pokerlab.blueprint.cards import cards_from_spec
from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.blueprint.nolimit import abstract_node, rules_for
from pokerlab.blueprint.store import save_blueprint
from pokerlab.errors import PokerlabError, SpecError
from pokerlab.eval.matches import play_match
from pokerlab.games import load
from pokerlab.games.base import State

TINY_CARDS = {"kind": "holdem", "bucket_counts": [10, 4, 4, 2], "seed": 0, "n_bins": 4,
              "sample": 500, "boards": 1}
"""A very coarse Texas Hold'em abstraction (built in seconds) for the tests."""
SMALL = (
    'holdem(betting="limit", ranks=3, suits=2, hole=1, board="1", seat_blinds=(1, 1), '
    'raises="2,4", caps="2,2", first="0,0", stack=100)'
)


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


def _blueprint(game_text: str, menu: str | None, cache: Path, name: str) -> Path:
    game = load(game_text)
    cards = cards_from_spec(game, TINY_CARDS, cache_dir=cache)
    trainer = BlueprintTrainer(game, cards, rules_for(game, menu), seed=0)
    trainer.run(8000)
    return save_blueprint(trainer, cache / name, cards=TINY_CARDS, bet_menu=menu)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game_text", "menu"),
    [
        ('holdem(betting="limit")', None),
        ("holdem(stack=200)", "50%,100%,a"),
        ("holdem(stack=200)", "2.5x,a/33%,75%,a/75%,a/a"),  # per street, multiples
    ],
)
def test_hard_plays_full_hands_against_easy(game_text: str, menu: str | None,
                                            cache: Path) -> None:  # fmt: skip
    game = load(game_text)
    name = "".join(c if c.isalnum() else "_" for c in f"{game_text}-{menu}") + ".bp"
    path = _blueprint(game_text, menu, cache, name)
    hard = HardAI(game, blueprint=path, seed=0, cache_dir=cache)
    result = play_match(game, hard, make_agent("easy", game, seed=1), hands=100, seed=3)
    assert result.n_hands == 200
    assert result.events == ()  # no fault: every answer was a legal action
    assert np.allclose(result.agent_returns.sum(axis=1), 0.0)
    for record in list(result.hands)[:20]:
        assert record.history  # full hands were dealt and played


def _raise_to(state: State, amount: int) -> State:
    return state.child(state.action_for_raise_to(amount))  # type: ignore[attr-defined]


@pytest.mark.slow
def test_off_menu_bets_are_translated_to_the_raises_around_them(cache: Path) -> None:
    game = load("holdem(stack=200)")
    path = _blueprint("holdem(stack=200)", "50%,100%,a", cache, "nl.bp")
    hard = HardAI(game, blueprint=path, seed=0, cache_dir=cache)
    tree = hard.policy.trainer.tree
    state = game.initial_state()
    for card in (51, 50, 3, 7):
        state = state.child(card)
    # The button (small blind 1) raises to 7: 5 more over a pot of 2 + 1 to call = 5/4 pot,
    # between the tree's pot-sized raise (to 6) and all-in.
    off = _raise_to(state, 7)
    reached = set()
    for seed in range(40):
        node, _ = abstract_node(tree, game, off.history, np.random.default_rng(seed))
        reached.add(int(tree.contributions[node, 1]))
    assert reached == {6, 200}
    observation = off.observation()
    probs = hard.policy.action_probabilities(observation)
    assert set(probs) == set(observation.legal_actions)
    assert sum(probs.values()) == pytest.approx(1.0)
    assert any(a >= RAISE for a, p in probs.items() if p > 0) or probs[1] > 0
    action = hard.act(observation)
    assert action in observation.legal_actions


def test_the_default_blueprint_is_trained_once_then_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pokerlab.agents.hard as hard_module

    game = load(SMALL)
    recipe = default_recipe(game)
    assert recipe.cards == {"kind": "lossless"}
    monkeypatch.setattr(hard_module, "default_recipe",
                        lambda g: hard_module.Recipe({"kind": "lossless"}, None, 20_000))
    agent = make_agent("hard", game, seed=0, cache_dir=tmp_path)
    path = default_blueprint_path(game, tmp_path)
    assert isinstance(agent, HardAI)
    assert agent.blueprint_path == path
    stamp = path.stat().st_mtime_ns
    again = make_agent("hard", game, seed=0, cache_dir=tmp_path)
    assert isinstance(again, HardAI)
    assert path.stat().st_mtime_ns == stamp  # loaded, not trained again
    result = play_match(game, agent, make_agent("always-call", game), hands=200, seed=0)
    assert result.n_hands == 400
    assert result.estimates[0].mean > 0  # the blueprint beats always-call


def test_hard_is_registered_and_refuses_other_games(tmp_path: Path) -> None:
    assert "hard" in agent_names()
    with pytest.raises(PokerlabError, match="cannot play leduc"):
        make_agent("hard", load("leduc"), cache_dir=tmp_path)
    trainer = BlueprintTrainer(load(SMALL), seed=0)
    path = save_blueprint(trainer, tmp_path / "s.bp", cards={"kind": "lossless"})
    with pytest.raises(SpecError, match="differs in n_players"):
        HardAI(load(SMALL.replace("(1, 1)", "(1, 1, 1)").replace("holdem(", "holdem(players=3, ")),
               blueprint=path)


def test_default_command_names_the_recipe() -> None:
    command = default_command(load('holdem(betting="limit")'), "hard.bp")
    assert f"--buckets 169,50,50,50 --iterations {DEFAULT_ITERATIONS} " in command
    assert "--boards" not in command
    assert "--bins" not in command  # the full build's defaults
    assert "--bets" in default_command(load("holdem(stack=200)"), "nl.bp")


@pytest.mark.parametrize("game_text", ['holdem(betting="limit")', "holdem(stack=200)"])
def test_the_default_recipe_sees_every_board(game_text: str) -> None:
    # Not a card-blind test build: every canonical board of every street, the full tables
    # that `pokerlab abstract --cards 169,50,50,50` caches (built here by no test).
    recipe = default_recipe(load(game_text))
    assert recipe.cards["boards"] is None
    assert recipe.cards["bucket_counts"] == [169, 50, 50, 50]
    assert (recipe.cards["n_bins"], recipe.cards["sample"]) == (50, 200_000)
    assert recipe.iterations == DEFAULT_ITERATIONS
    assert 0 < recipe.prune_after < recipe.iterations


def test_the_default_command_refuses_the_test_only_board_subset(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pokerlab.agents.hard as hard_module

    monkeypatch.setattr(hard_module, "default_recipe",
                        lambda g: hard_module.Recipe(TINY_CARDS, None, 10))
    with pytest.raises(SpecError, match="test-only"):
        default_command(load('holdem(betting="limit")'), "hard.bp")


@pytest.mark.slow
def test_a_blueprint_plays_its_game_with_other_stacks(cache: Path) -> None:
    game = load("holdem(stack=200)")
    path = _blueprint("holdem(stack=200)", "50%,100%,a", cache, "nl-stacks.bp")
    other = load("holdem(stack=(150, 260))")
    hard = HardAI(other, blueprint=path, seed=0, cache_dir=cache)
    assert hard.policy.trainer.game == game
    hard.check_game(other)
    result = play_match(other, hard, make_agent("easy", other, seed=1), hands=50, seed=2)
    assert result.events == ()
    with pytest.raises(SpecError, match="differs in n_players"):
        hard.check_game(load("holdem(players=3)"))


@pytest.mark.parametrize("game_text", ['holdem(players=4, betting="limit")',
                                       "holdem(players=7)"])
def test_larger_multiplayer_texas_has_no_default_blueprint(game_text: str) -> None:
    with pytest.raises(SpecError, match="too large; the hard AI plays Texas Hold'em heads-up"):
        default_recipe(load(game_text))


@pytest.mark.slow
def test_lbr_plays_against_a_blueprint_file(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from pokerlab.cli import main

    path = _blueprint('holdem(betting="limit")', None, cache, "lbr.bp")
    assert main(["lbr", str(path), "--game", 'holdem(betting="limit")', "--hands", "20",
                 "--rollouts", "8", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["hands"] == 20
    assert np.isfinite(report["mbb_per_hand"])


def test_the_documented_command_trains_the_default_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shlex

    import pokerlab.agents.hard as hard_module
    from pokerlab.blueprint.store import load_blueprint
    from pokerlab.cli import main

    monkeypatch.setattr(hard_module, "default_recipe",
                        lambda g: hard_module.Recipe({"kind": "lossless"}, None, 10_000))
    game = load(SMALL)
    cached = hard_module.train_default_blueprint(game, tmp_path, show_progress=False)
    out = tmp_path / "by-hand.bp"
    words = shlex.split(default_command(game, out))
    assert words[:3] == ["pokerlab", "blueprint", "train"]
    assert main([*words[1:], "--json"]) == 0
    mine, _ = load_blueprint(out)
    theirs, _ = load_blueprint(cached)
    np.testing.assert_array_equal(mine.regrets, theirs.regrets)
    np.testing.assert_array_equal(mine.strategy_sum, theirs.strategy_sum)


@pytest.mark.parametrize(("game_text", "menu", "counts"), [
    ("holdem(players=3)", "100%,a", [169, 50, 50, 50]),
    ("holdem(players=4)", "100%,a", [169, 50, 50, 50]),
    ("holdem(players=5)", "a", [169, 50, 50, 50]),
    ("holdem(players=6)", "a", [169, 50, 50, 50]),
    ('holdem(players=3, betting="limit")', None, [169, 10, 5, 3]),
])
def test_multiway_texas_has_a_default_recipe_whose_tables_fit(
        game_text: str, menu: str | None, counts: list[int]) -> None:
    from pokerlab.agents.hard import check_trainable, preparation_plan

    game = load(game_text)
    recipe = default_recipe(game)
    assert recipe.bet_menu == menu
    assert recipe.cards["bucket_counts"] == counts
    assert recipe.cards["boards"] is None  # every board, as heads-up
    check_trainable(game)  # the tree counted, the tables under the memory limit
    assert "iterations/s on 2 cores" in preparation_plan(game)[-1]
    command = default_command(game, "m.bp")
    assert f"--buckets {','.join(map(str, counts))}" in command
    assert ("--bets" in command) == (menu is not None)


def test_three_handed_limit_with_fifty_buckets_would_not_fit() -> None:
    # why the three-handed limit recipe has fewer buckets: the same check, 50 a street
    from pokerlab.blueprint.betting_tree import tree_size
    from pokerlab.blueprint.mccfr import check_tables
    from pokerlab.errors import GameTooLargeError

    game = load('holdem(players=3, betting="limit")')
    size = tree_size(rules_for(game, None))
    with pytest.raises(GameTooLargeError, match="485,601,010 rows"):
        check_tables(size, [169, 50, 50, 50])


def test_check_trainable_refuses_a_tree_over_the_memory_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # counted, not built: the tree's own bytes are checked as build_tree would (a review
    # found only the tables checked after check_trainable stopped building the tree)
    import pokerlab.blueprint.betting_tree as betting_tree
    from pokerlab.agents.hard import check_trainable
    from pokerlab.errors import GameTooLargeError

    game = load('holdem(players=3, betting="limit")')
    size = betting_tree.tree_size(rules_for(game, None))
    assert size.bytes > 1_700_000_000  # 1,867 MB
    monkeypatch.setattr(betting_tree.check_tree, "__defaults__", (1_700_000_000,))
    with pytest.raises(GameTooLargeError, match="the betting tree has"):
        check_trainable(game)


def test_heads_up_plans_say_what_training_took() -> None:
    from pokerlab.agents.hard import preparation_plan

    for spec, rate, minutes in (("holdem()", "17,036", 2), ('holdem(betting="limit")',
                                                            "104,678", 1)):
        plan = preparation_plan(load(spec))[-1]
        assert f"measured at {rate} iterations/s on 2 cores: about {minutes} min" in plan
