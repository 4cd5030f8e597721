"""The seed's Hard AI: the slides' example and rules, online learning, legal play everywhere."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.agents.easy import EasyAI
from pokerlab.agents.hard_seed import (
    CALL_MOVE,
    CHECK_MOVE,
    FOLD_MOVE,
    MOVES,
    RAISE_MOVE,
    HardSeedAI,
    OpponentEvent,
    apply_event,
    bet_faced,
    event_kind,
    likelihood_after,
    move_to_action,
    move_utilities,
    raise_cost,
    strength_class,
)
from pokerlab.agents.registry import check_builtin, make_agent
from pokerlab.agents.simple import AlwaysRaise, RandomAgent
from pokerlab.cards import parse_cards
from pokerlab.errors import PokerlabError, SpecError
from pokerlab.eval.matches import play_match
from pokerlab.games import holdem, kuhn
from pokerlab.games.holdem import CALL, FOLD, RAISE, HoldemGame, HoldemState
from pokerlab.games.observation import HandResult
from pokerlab.strategy import FunctionPolicy
from pokerlab.strategy.regrets import regret_matching_strategy


def test_tables_start_uniform_and_zero() -> None:
    ai = HardSeedAI(seed=0)
    assert MOVES == ("fold", "raise", "check", "call")
    assert ai.strategy.shape == ai.regrets.shape == (9, 4)
    assert np.all(ai.strategy == 0.25)
    assert np.all(ai.regrets == 0.0)


def test_the_slides_worked_example() -> None:
    ai = HardSeedAI(seed=0)
    high_card = strength_class(parse_cards("AsQh"), ())
    assert high_card == 0
    # Preflop: raised 50; utilities raise 50, fold 0, call 20, check 20: no positive regret.
    ai.update(high_card, np.array([0.0, 50.0, 20.0, 20.0]), RAISE_MOVE)
    assert np.all(ai.regrets[high_card] == 0.0)
    assert np.allclose(ai.strategy[high_card], 0.25)
    # Flop Ah Qc 7s: two pair; folded; utilities raise 100, fold 0, call 30, check 30.
    two_pair = strength_class(parse_cards("AsQh"), parse_cards("AhQc7s"))
    assert two_pair == 2
    ai.update(two_pair, np.array([0.0, 100.0, 30.0, 30.0]), FOLD_MOVE)
    assert ai.regrets[two_pair].tolist() == [0.0, 100.0, 30.0, 30.0]
    assert np.allclose(ai.strategy[two_pair], [0.0, 0.625, 0.1875, 0.1875])
    assert np.allclose(ai.strategy[high_card], 0.25)  # each class has its own tables


def test_regret_matching() -> None:
    assert np.allclose(regret_matching_strategy(np.zeros(4)), 0.25)
    strategy = regret_matching_strategy(np.array([-5.0, 3.0, 1.0, 0.0]))
    assert np.allclose(strategy, [0, 0.75, 0.25, 0])


def test_strength_classes() -> None:
    assert strength_class(parse_cards("7c7d"), ()) == 1
    assert strength_class(parse_cards("7c2d"), ()) == 0
    assert strength_class(parse_cards("AhKh"), parse_cards("QhJhTh")) == 8
    assert strength_class(parse_cards("2c3d"), parse_cards("9hJsKd5c")) == 0


def test_the_slides_raise_costs() -> None:
    for strength in (5, 6, 7, 8):
        assert raise_cost(strength) == 0.08  # strength in (4, 8]
    assert raise_cost(2) == pytest.approx(0.45 / 2)  # 0.45 * (1 / strength)
    assert raise_cost(4) == pytest.approx(0.45 / 4)
    assert raise_cost(0) == raise_cost(1) == pytest.approx(0.45)  # high card counts as 1


def test_raised_then_reraised_and_called_then_raised() -> None:
    raised = [OpponentEvent("raise", 1)]
    # A flush (5) on the flop: our raise of a strong hand +0.05, re-raised -10%, strength -0.08.
    assert likelihood_after(0.5, RAISE_MOVE, raised, 5, 1) == pytest.approx(0.5 + 0.05 - 0.18)
    assert likelihood_after(0.5, CALL_MOVE, raised, 5, 1) == pytest.approx(0.5 - 0.07 - 0.08)
    assert likelihood_after(0.5, CHECK_MOVE, raised, 5, 1) == pytest.approx(0.5 - 0.04 - 0.08)
    # Repeated raising costs 0.05 more per earlier raise in the window.
    twice = [OpponentEvent("raise", 1)] * 2
    assert likelihood_after(0.9, CALL_MOVE, twice, 6, 2) == pytest.approx(
        0.9 - 2 * (0.07 + 0.08) - 0.05)


def test_the_likelihood_stays_between_zero_and_one() -> None:
    # 0.3 - 0.45 would fall below zero (the slides' code guards it): the floor is 0.
    assert apply_event(0.3, OpponentEvent("raise", 1), None, 0, 0, 0) == 0.0
    assert apply_event(0.98, OpponentEvent("check", 1), None, 0, 3, 0) == 1.0


def test_folds_checks_and_calls() -> None:
    assert apply_event(0.5, OpponentEvent("fold", 1), None, 0, 0, 0) == 1.0  # heads-up: won
    assert apply_event(0.25, OpponentEvent("fold", 3), None, 0, 0, 0) == pytest.approx(0.5)
    assert apply_event(0.5, OpponentEvent("check", 1), None, 0, 2, 0) == pytest.approx(0.53)
    assert apply_event(0.5, OpponentEvent("call", 1), None, 3, 3, 0) == pytest.approx(0.54)
    assert apply_event(0.5, OpponentEvent("call", 1), None, 1, 3, 0) == pytest.approx(0.46)
    assert apply_event(0.5, OpponentEvent("call", 1), None, 1, 0, 0) == pytest.approx(0.51)


def test_utilities_fold_is_the_baseline() -> None:
    utilities = move_utilities(0.5, [OpponentEvent("raise", 1)], 2, 1)
    # Two pair on the flop, re-raised: raise +5 -10 -22.5, call -7 -22.5, check -4 -22.5.
    assert utilities.tolist() == pytest.approx([0.0, -27.5, -26.5, -29.5])
    assert move_utilities(0.5, [], 2, 1).tolist() == pytest.approx([0.0, 5.0, 0.0, 0.0])


def test_event_names() -> None:
    assert [event_kind(n) for n in ("fold", "check", "call", "raise", "raise to 6", "bet 4")] \
        == ["fold", "check", "call", "raise", "raise", "raise"]


def _deal(game: HoldemGame, cards: str) -> HoldemState:
    state = game.initial_state()
    for card in parse_cards(cards):
        state = state.child(card)
    return state


def test_raise_amounts() -> None:
    nolimit = holdem(players=3, stack=100)
    state = _deal(nolimit, "AsKsQhQd2c3d")
    observation = state.observation()
    # Facing the big blind 2 with 3 in the pot: raise by half the pot, to 2 + 1.5 -> 3,
    # but at least the minimum raise-to 4.
    assert move_to_action(RAISE_MOVE, observation) == RAISE + 4
    state = state.child(RAISE + 20)
    observation = state.observation()
    # Pot 23: 20 + 11 = 31 is short of the minimum raise-to 38.
    assert move_to_action(RAISE_MOVE, observation) == RAISE + 38
    assert move_to_action(FOLD_MOVE, observation) == FOLD
    assert move_to_action(CHECK_MOVE, observation) == CALL
    flop = state.child(CALL).child(CALL)
    for card in parse_cards("7h8h9c"):
        flop = flop.child(card)
    assert flop.observation().pot == 60  # half the pot: bet 30 (the minimum is 2)
    assert move_to_action(RAISE_MOVE, flop.observation()) == RAISE + 30
    raised = flop.child(RAISE + 10).child(RAISE + 30)  # pot 100, facing a raise to 30
    assert bet_faced(raised.observation()) == 30
    assert move_to_action(RAISE_MOVE, raised.observation()) == RAISE + 80  # all-in, 30 + 50
    big = state.child(RAISE + 100)  # all-in: the next player can only fold or call
    assert move_to_action(RAISE_MOVE, big.observation()) == CALL
    limit = holdem(players=2, betting="limit")
    observation = _deal(limit, "AsKsQhQd").observation()
    assert move_to_action(RAISE_MOVE, observation) == RAISE
    assert move_to_action(FOLD_MOVE, observation) == FOLD


def test_policy_is_the_current_table() -> None:
    game = holdem(players=2, betting="limit")
    ai = HardSeedAI(game, seed=1)
    assert isinstance(ai.policy, FunctionPolicy)
    observation = _deal(game, "AsQhKdJc").observation()
    assert ai.probabilities(observation) == pytest.approx({FOLD: 0.25, CALL: 0.5, RAISE: 0.25})
    ai.update(0, np.array([0.0, 100.0, 30.0, 30.0]), FOLD_MOVE)
    assert ai.probabilities(observation) == pytest.approx({FOLD: 0.0, CALL: 0.375, RAISE: 0.625})


def _play_hand(ai: HardSeedAI, game: HoldemGame, seat: int, opponent: str,
               rng: np.random.Generator) -> HoldemState:
    """One hand like the dealer plays it: reset, act, observe after every action, the end."""
    ai.reset()
    state = game.initial_state()
    while not state.is_terminal:
        if state.is_chance:
            outcomes = state.chance_outcomes()
            state = state.child(outcomes[int(rng.integers(len(outcomes)))][0])
            continue
        if state.player == seat:
            action = ai.act(state.observation())
            assert action in state.legal_actions()
        else:
            legal = state.legal_actions()
            action = CALL if opponent == "call" else max(legal)
        state = state.child(action)
        ai.observe(state.observation(seat))
    ai.observe(HandResult(seat, state.returns(), state.public_history(), ("",) * 2))
    return state


def test_likelihood_starts_at_one_over_players_and_is_carried() -> None:
    game = holdem(players=4, betting="limit")
    ai = HardSeedAI(game, seed=3)
    ai.reset()
    state = _deal(game, "AsQh KdJc 2c3d 9h9s".replace(" ", ""))
    ai.act(state.observation())
    assert ai.likelihood == 0.25
    # Heads-up, the opponent only checks and calls: our likelihood only grows.
    game = holdem(players=2, betting="limit")
    ai = HardSeedAI(game, seed=4)
    ai.regrets[:, CALL_MOVE] = 1.0  # always check or call
    ai.strategy[:] = regret_matching_strategy(ai.regrets[0])
    rng = np.random.default_rng(0)
    for _ in range(5):
        _play_hand(ai, game, 0, "call", rng)
        assert ai.likelihood is not None
        assert ai.likelihood > 0.5
    assert ai.updates >= 10


def test_it_learns_across_hands_and_reset_keeps_the_tables() -> None:
    game = holdem(players=2, betting="limit")
    ai = HardSeedAI(game, seed=5)
    rng = np.random.default_rng(1)
    for hand in range(30):
        _play_hand(ai, game, hand % 2, "raise", rng)
    assert ai.updates > 30
    assert ai.regrets.sum() > 0
    before = ai.strategy.copy()
    ai.reset()
    assert np.array_equal(ai.strategy, before)
    # Against a maniac, staying in loses likelihood: folding gains weight in played classes.
    played = ai.regrets.sum(axis=1) > 0
    assert np.all(ai.strategy[played, FOLD_MOVE] > 0.25)


def test_it_refuses_other_games() -> None:
    with pytest.raises(SpecError, match="holdem only"):
        HardSeedAI(kuhn())
    with pytest.raises(PokerlabError, match="hard-seed"):
        check_builtin("hard-seed", kuhn())


@pytest.mark.parametrize("name", ["easy", "hard-seed"])
def test_registry_and_play_match(name: str) -> None:
    game = holdem(players=3, betting="nolimit", stack=100)
    agent = make_agent(name, game, seed=2)
    assert isinstance(agent, EasyAI if name == "easy" else HardSeedAI)
    result = play_match(game, agent, RandomAgent(game, seed=1), AlwaysRaise(game), hands=10,
                        seed=3)
    assert result.n_hands == 30
    assert result.events == ()


def test_a_scripted_hand_the_slides_example_board() -> None:
    # Heads-up limit; the AI (seat 1, small blind) holds As Qh; the flop is Ah Qc 7s.
    game = holdem(players=2, betting="limit")
    ai = HardSeedAI(game, seed=0)
    ai.regrets[0, CALL_MOVE] = 1e9  # preflop high card: always call
    ai.regrets[2, RAISE_MOVE] = 1e9  # two pair: always raise
    ai.strategy[:] = [regret_matching_strategy(row) for row in ai.regrets]
    before = ai.regrets.copy()
    ai.reset()
    state = _deal(game, "KdAs3cQh")
    opponent = iter([CALL, CALL, RAISE])  # checks preflop, checks the flop, re-raises
    board = iter(parse_cards("AhQc7s"))
    decisions = 0
    while True:
        if state.is_chance:
            state = state.child(next(board))
            continue
        if state.player == 1:
            action = ai.act(state.observation())
            decisions += 1
            if decisions == 3:  # its second flop decision: the first flop window closed
                break
        else:
            action = next(opponent)
        state = state.child(action)
        ai.observe(state.observation(1))
    # Preflop: it called, the opponent checked: call/check +1 point, raise -5 + 1, fold 0.
    assert ai.regrets[0] - before[0] == pytest.approx([0.0, 0.0, 0.0, 0.0])
    # Carried 0.51, +0.02 for the flop check: 0.53. It bet two pair, was raised:
    # raise 0.53 + 0.05 - 0.10 - 0.225, call 0.53 - 0.07 - 0.225, check 0.53 - 0.04 - 0.225.
    assert ai.regrets[2] - before[2] == pytest.approx([27.5, 0.0, 1.0, 0.0])
    assert ai.likelihood == pytest.approx(0.53 + 0.05 - 0.10 - 0.225)  # carried on
