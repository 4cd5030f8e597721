from __future__ import annotations

import numpy as np
import pytest

from pokerlab.agents.simple import AlwaysCall, RandomAgent
from pokerlab.blueprint import lbr as module
from pokerlab.blueprint.lbr import PAIRS, LocalBestResponse, run_lbr, win_probability
from pokerlab.cards import parse_cards
from pokerlab.cards.equity import equity
from pokerlab.errors import SpecError
from pokerlab.games.holdem import CALL, FOLD, RAISE, holdem
from pokerlab.strategy.policy import FunctionPolicy


def always_fold(game):  # type: ignore[no-untyped-def]
    return FunctionPolicy(game, lambda o: {o.legal_actions[0]: 1.0}, name="always-fold")


@pytest.mark.parametrize("betting", ["limit", "nolimit"])
def test_always_fold_loses_750_mbb_folding_every_blind(betting: str) -> None:
    game = holdem(betting=betting)
    result = run_lbr(game, always_fold(game), 20, seed=3)
    # as player 0 (big blind) the small blind folds at once: +1 chip = 500 mbb; as player 1
    # (small blind) LBR raises and the big blind folds: +2 chips = 1000 mbb; mean 750
    assert result.seat_mbb == (500.0, 1000.0)
    assert result.mbb_per_hand == 750.0
    assert result.ci95 == 0.0


@pytest.mark.slow
@pytest.mark.parametrize("agent", [AlwaysCall, RandomAgent])
def test_lbr_beats_call_and_random_in_limit(agent: type) -> None:
    game = holdem(betting="limit")
    result = run_lbr(game, agent(game=game).policy, 40, seed=1, rollouts=24)
    assert result.mbb_per_hand - result.ci95 > 300


def test_range_weights_follow_bayes() -> None:
    game = holdem(betting="limit")
    # a policy that raises with pocket aces only, else calls
    def aces_raise(observation):  # type: ignore[no-untyped-def]
        aces = observation.private_cards.count("A") == 2
        return {RAISE: 1.0} if aces else {CALL: 1.0}

    policy = FunctionPolicy(game, aces_raise, name="aces")
    lbr = LocalBestResponse(game, policy)
    state = game.initial_state().apply_sequence([0, 51, 1, 50])  # P1 (SB) holds As Ah
    weights = np.ones(len(PAIRS))
    legal, table = module._opponent_probabilities(policy, state, weights)
    after = weights * table[:, legal.index(RAISE)]
    live = PAIRS[after > 0]
    assert len(live) == 6
    assert all(a // 4 == 12 and b // 4 == 12 for a, b in live)
    # LBR holding 2c 2d facing only aces: equity ~18%, so it folds to the raise in limit
    assert lbr.decide(state.child(RAISE), after, np.random.default_rng(0)) == FOLD


def test_river_equity_is_exact_against_a_range() -> None:
    hole = parse_cards("AsKs")
    board = parse_cards("2c7d9hJcQs")
    weights = np.zeros(len(PAIRS))
    villain = sorted(parse_cards("QhQd"))
    weights[np.flatnonzero((PAIRS[:, 0] == villain[0]) & (PAIRS[:, 1] == villain[1]))] = 1
    assert win_probability(hole, board, weights, np.random.default_rng(0), 1) == 0.0
    weights[:] = 1
    expected = equity(["AsKs", "random"], board="2c7d9hJcQs")
    wp = win_probability(hole, board, weights, np.random.default_rng(0), 1)
    assert wp == pytest.approx(expected.equity[0], abs=1e-9)


def test_bad_arguments() -> None:
    game = holdem(betting="limit")
    with pytest.raises(SpecError, match="even"):
        run_lbr(game, always_fold(game), 3)
    with pytest.raises(SpecError, match="heads-up"):
        LocalBestResponse(holdem(players=3), always_fold(holdem(players=3)))


@pytest.mark.slow
def test_lbr_beats_always_call_in_no_limit_with_pot_and_all_in() -> None:
    game = holdem(betting="nolimit")
    result = run_lbr(game, AlwaysCall(game=game).policy, 20, seed=1, rollouts=16)
    assert result.mbb_per_hand - result.ci95 > 1000
