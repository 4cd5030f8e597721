"""BlueprintPolicy.pair_probabilities answers as the per-observation path does, for every pair."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.blueprint.cards import cards_from_spec
from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.blueprint.nolimit import rules_for
from pokerlab.blueprint.policy import BlueprintPolicy
from pokerlab.eval import lbr_range as lbr
from pokerlab.games import load

TINY_CARDS = {"kind": "holdem", "bucket_counts": [10, 4, 4, 3], "seed": 0, "n_bins": 4,
              "sample": 500, "boards": 2}


class ObservationsOnly:
    """The blueprint seen through ``action_probabilities_batch`` only (LBR's generic path)."""

    def __init__(self, policy: BlueprintPolicy) -> None:
        self.action_probabilities_batch = policy.action_probabilities_batch


@pytest.mark.parametrize(
    ("game_text", "menu"), [('holdem(betting="limit")', None), ("holdem(stack=200)", "50%,a")]
)
def test_pair_probabilities_equal_the_observation_path(
    game_text: str, menu: str | None, tmp_path: Path
) -> None:
    game = load(game_text)
    cards = cards_from_spec(game, TINY_CARDS, cache_dir=tmp_path)
    trainer = BlueprintTrainer(game, cards, rules_for(game, menu), seed=0)
    trainer.run(3000)
    policy = BlueprintPolicy(trainer, game=game)
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(12):
        state = game.initial_state()
        weights = np.ones(len(lbr.PAIRS))
        while state.to_act != TERMINAL:
            if state.to_act == CHANCE:
                outcomes = state.chance_outcomes()
                state = state.child(outcomes[int(rng.integers(len(outcomes)))][0])
                continue
            seen = np.array([*state.hole_cards(state.to_act), *state.board])
            weights = np.where(lbr.HAS_CARD[seen].any(axis=0), 0.0, 1.0)
            legal, fast = lbr.opponent_probabilities(policy, state, weights)
            same, slow = lbr.opponent_probabilities(ObservationsOnly(policy), state, weights)
            assert legal == same
            np.testing.assert_allclose(fast, slow, atol=1e-12)
            live = weights > 0
            np.testing.assert_allclose(fast[live].sum(axis=1), 1.0)
            assert not fast[~live].any()
            checked += 1
            actions = state.legal_actions()
            state = state.child(actions[int(rng.integers(len(actions)))])
    assert checked >= 24
