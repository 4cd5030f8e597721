"""Blueprint ES-MCCFR on Leduc nears the exact equilibrium, for 2 and 3 players."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.blueprint.mccfr import LeducBlueprintTrainer
from pokerlab.eval.exploitability import exploitability
from pokerlab.games.leduc import leduc
from pokerlab.strategy.strategy import Strategy


@pytest.mark.slow
def test_leduc_exploitability_below_one_hundredth_of_the_pot() -> None:
    game = leduc()
    trainer = LeducBlueprintTrainer(game, seed=3)
    trainer.run(400_000)
    pot = 2.0  # the antes
    assert exploitability(game, trainer.average_strategy()) < 1e-2 * pot


@pytest.mark.slow
def test_same_seed_same_arrays_and_three_players_improve() -> None:
    game = leduc(players=3)
    first, second = LeducBlueprintTrainer(game, seed=5), LeducBlueprintTrainer(game, seed=5)
    first.run(3000)
    second.run(3000)
    np.testing.assert_array_equal(first.regrets, second.regrets)
    uniform = exploitability(game, Strategy.uniform(game))
    first.run(30_000)
    assert exploitability(game, first.average_strategy()) < 0.5 * uniform
