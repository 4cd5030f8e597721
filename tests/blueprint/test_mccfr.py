"""Blueprint ES-MCCFR nears the exact equilibrium on Leduc and small Hold'em, 2 and 3 players."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.blueprint.deals import hand_strengths, lossless_holdem
from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.errors import SolverError, SpecError
from pokerlab.eval.exploitability import exploitability
from pokerlab.games import load
from pokerlab.games.holdem import holdem
from pokerlab.games.holdem_pots import hand_values
from pokerlab.games.leduc import leduc
from pokerlab.strategy.strategy import Strategy

LEDUC_AS_HOLDEM = (
    'holdem(betting="limit", ranks=3, suits=2, hole=1, board="1", seat_blinds=(1, 1), '
    'raises="2,4", caps="2,2", first="0,0", stack=100)'
)
"""Leduc written as a Hold'em game (universal_poker's Leduc definition)."""
THREE_PLAYERS = (
    'holdem(betting="limit", players=3, ranks=4, suits=1, hole=1, board="1", '
    'seat_blinds=(1, 1, 1), raises="1,2", caps="1,1", first="0,0", stack=50)'
)


@pytest.mark.slow
def test_leduc_exploitability_below_one_hundredth_of_the_pot() -> None:
    game = leduc()
    trainer = BlueprintTrainer(game, seed=3)
    trainer.run(400_000)
    pot = 2.0  # the antes
    assert exploitability(game, trainer.average_strategy()) < 1e-2 * pot


@pytest.mark.slow
def test_same_seed_same_arrays_and_three_players_improve() -> None:
    game = leduc(players=3)
    first, second = BlueprintTrainer(game, seed=5), BlueprintTrainer(game, seed=5)
    first.run(3000)
    second.run(3000)
    np.testing.assert_array_equal(first.regrets, second.regrets)
    uniform = exploitability(game, Strategy.uniform(game))
    first.run(30_000)
    assert exploitability(game, first.average_strategy()) < 0.5 * uniform


@pytest.mark.slow
def test_small_holdem_without_abstraction_reaches_one_hundredth_of_the_pot() -> None:
    game = load(LEDUC_AS_HOLDEM)
    trainer = BlueprintTrainer(game, seed=1)
    trainer.run(400_000)
    pot = 2.0  # the two blinds of 1
    assert exploitability(game, trainer.average_strategy()) < 1e-2 * pot


def test_three_player_holdem_trains_to_a_valid_policy() -> None:
    game = load(THREE_PLAYERS)
    trainer = BlueprintTrainer(game, seed=2)
    trainer.run(20_000)
    strategy = trainer.average_strategy()
    probs = strategy.probs
    assert probs.shape[0] == strategy.tree.n_infosets
    np.testing.assert_allclose(probs.sum(axis=1), 1.0)
    assert exploitability(game, strategy) < exploitability(game, Strategy.uniform(game))


def test_holdem_same_seed_same_tables_other_seed_differs() -> None:
    game = load(LEDUC_AS_HOLDEM)
    runs = [BlueprintTrainer(game, seed=s, batch=1000) for s in (7, 7, 8)]
    for trainer in runs:
        trainer.run(5000)
    np.testing.assert_array_equal(runs[0].regrets, runs[1].regrets)
    np.testing.assert_array_equal(runs[0].strategy_sum, runs[1].strategy_sum)
    assert not np.array_equal(runs[0].regrets, runs[2].regrets)


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 7])
def test_hand_strengths_equal_the_engine_values(size: int) -> None:
    rng = np.random.default_rng(size)
    hands = np.array([rng.permutation(52)[:size] for _ in range(300)], dtype=np.int64)
    assert hand_strengths(hands).tolist() == hand_values(hands.astype(np.uint8))


def test_lossless_holdem_uses_ranks_below_five_cards_and_cards_from_five() -> None:
    assert lossless_holdem(load(LEDUC_AS_HOLDEM)).n_classes == 3
    assert lossless_holdem(holdem(betting="limit", ranks=5, suits=2, board="3")).n_classes == 10


def test_rules_for_another_player_count_are_refused() -> None:
    from pokerlab.blueprint.deals import default_rules

    rules = default_rules(load(LEDUC_AS_HOLDEM))
    with pytest.raises(SpecError, match="the game has 3"):
        BlueprintTrainer(load(THREE_PLAYERS), rules=rules)


KUHN_AS_HOLDEM = (
    'holdem(betting="limit", ranks=3, suits=1, hole=1, board="", seat_blinds=(1, 1), '
    'raises="1", caps="1", first="0", stack=100)'
)


def test_pruning_never_touches_the_last_street() -> None:
    game = load(KUHN_AS_HOLDEM)  # one street: every action is on the last one
    plain = BlueprintTrainer(game, seed=3)
    pruned = BlueprintTrainer(game, seed=3, prune_threshold=1e-9)
    plain.run(5000)
    pruned.run(5000)
    np.testing.assert_array_equal(plain.regrets, pruned.regrets)


@pytest.mark.slow
def test_pruning_skips_actions_and_still_converges() -> None:
    game = load(LEDUC_AS_HOLDEM)
    plain = BlueprintTrainer(game, seed=1)
    pruned = BlueprintTrainer(game, seed=1, prune_after=10_000, prune_threshold=0.02)
    plain.run(20_000)
    pruned.run(20_000)
    assert not np.array_equal(plain.regrets, pruned.regrets)  # something was skipped
    pruned.run(380_000)
    assert exploitability(game, pruned.average_strategy()) < 1e-2 * 2.0


@pytest.mark.slow
def test_two_threads_train_a_valid_improving_strategy() -> None:
    game = load(LEDUC_AS_HOLDEM)
    trainer = BlueprintTrainer(game, seed=1, threads=2)
    trainer.run(200_000)
    assert trainer.iterations == 200_000
    assert exploitability(game, trainer.average_strategy()) < 0.05


def test_float32_tables_take_half_the_memory_and_train_as_float64_does() -> None:
    game = load(LEDUC_AS_HOLDEM)
    wide = BlueprintTrainer(game, seed=2)
    narrow = BlueprintTrainer(game, seed=2, storage="float32")
    assert narrow.regrets.dtype == narrow.strategy_sum.dtype == np.float32
    assert 2 * narrow.nbytes == wide.nbytes
    wide.run(20_000)
    narrow.run(20_000)
    # the kernels compute in float64 and round each stored update: the same run to 1e-5
    np.testing.assert_allclose(narrow.strategy_sum, wide.strategy_sum, rtol=1e-4, atol=1e-2)
    exact = exploitability(game, wide.average_strategy())
    assert exact < 0.5 * exploitability(game, Strategy.uniform(game))
    assert exploitability(game, narrow.average_strategy()) == pytest.approx(exact, rel=0.02)


def test_tables_past_the_limit_name_float32_storage_and_its_size() -> None:
    from pokerlab.blueprint.betting_tree import tree_size
    from pokerlab.blueprint.deals import default_rules
    from pokerlab.blueprint.mccfr import check_tables
    from pokerlab.errors import GameTooLargeError

    size = tree_size(default_rules(load(LEDUC_AS_HOLDEM)))
    rows = sum(size.decisions_by_street) * 1000
    wide = 16 * rows * size.max_actions
    check_tables(size, [1000, 1000], memory_limit=wide // 2, storage="float32")  # fits
    with pytest.raises(GameTooLargeError, match=r"float64 .*\(--storage float32: "
                       rf"{wide / 2e6:,.0f} MB\)"):
        check_tables(size, [1000, 1000], memory_limit=wide // 2)
    with pytest.raises(GameTooLargeError, match="in float32") as info:
        check_tables(size, [1000, 1000], memory_limit=wide // 4, storage="float32")
    assert "--storage" not in str(info.value)


def test_bad_trainer_options_are_refused() -> None:
    game = load(KUHN_AS_HOLDEM)
    with pytest.raises(SpecError, match="storage must be one of float64, float32; got 'float16'"):
        BlueprintTrainer(game, storage="float16")
    with pytest.raises(SpecError, match="threads must be >= 1"):
        BlueprintTrainer(game, threads=0)
    with pytest.raises(SpecError, match="prune_threshold must be >= 0"):
        BlueprintTrainer(game, prune_threshold=-1.0)
    with pytest.raises(SolverError, match="iterations must be an integer >= 1"):
        BlueprintTrainer(game).run(-1)
    with pytest.raises(SpecError, match="batch must be an integer >= 1"):
        BlueprintTrainer(game, batch=0)
