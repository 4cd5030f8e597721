"""AIVAT on heads-up Hold'em (issue 17 item 6): equity values, exact zero-mean terms, a match."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.agents import AlwaysCall, AlwaysRaise, EasyAI
from pokerlab.cards import equity, parse_cards
from pokerlab.errors import PokerlabError
from pokerlab.eval import play_match
from pokerlab.eval.aivat_holdem import (
    holdem_aivat_corrections,
    holdem_aivat_estimates,
    holdem_equity,
    holdem_hand_corrections,
)
from pokerlab.games import holdem, kuhn
from pokerlab.games.holdem_state import HoldemState
from pokerlab.strategy import Policy

GAME = holdem(betting="limit")
# Seat 0: As Ks... the deal order is seat 0, seat 1, seat 0, seat 1 (hole[p::2]).
DEAL = (51, 22, 47, 24)


def _walk(history: tuple[int, ...]) -> HoldemState:
    state = GAME.initial_state()
    for action in history:
        state = state.child(action)
    return state


def _to_board(cards: int) -> tuple[int, ...]:
    """A history that reaches the chance node dealing board card ``cards + 1`` (calls only)."""
    history = list(DEAL)
    state = _walk(tuple(history))
    board = iter((3, 36, 16, 20, 9))
    while len(state.board) < cards or state.player != -1:
        action = next(board) if state.player == -1 else 1
        history.append(action)
        state = state.child(action)
    return tuple(history)


def test_equity_is_exact_and_a_martingale() -> None:
    # The same number as the card layer's exact equity, and the mean over the next card is
    # the equity now (so the chance terms have mean zero exactly).
    first, second, board = (parse_cards(t) for t in ("AsKs", "QdQh", "Qs7s2d"))
    mine = holdem_equity(tuple(first), tuple(second), tuple(board))
    assert mine == pytest.approx(equity(["AsKs", "QdQh"], board="Qs7s2d").equity[0], abs=1e-12)
    for cards in (2, 3, 4):
        history = _to_board(cards)
        state = _walk(history)
        assert state.player == -1
        assert len(state.board) == cards
        first, second = tuple(state.hole[0::2]), tuple(state.hole[1::2])
        now = holdem_equity(first, second, tuple(state.board))
        outcomes = state.chance_outcomes()
        nxt = sum(p * holdem_equity(first, second, (*state.board, c)) for c, p in outcomes)
        assert nxt == pytest.approx(now, abs=1e-12)
        assert 0.0 < now < 1.0


def test_chance_terms_have_mean_zero_over_the_next_card() -> None:
    for cards in (1, 2, 3, 4):
        history = _to_board(cards)
        state = _walk(history)
        before = holdem_hand_corrections(GAME, history, [None, None])
        outcomes = state.chance_outcomes()
        terms = [holdem_hand_corrections(GAME, (*history, c), [None, None]) for c, _ in outcomes]
        after = sum(p * term for (_, p), term in zip(outcomes, terms, strict=True))
        np.testing.assert_allclose(after, before, atol=1e-9)
        spread = [term[0] for term in terms]
        if cards >= 2:  # terms from the third flop card on: the card changes the estimate
            assert np.ptp(spread) > 0.1
        else:  # no term for the first two flop cards
            assert np.ptp(spread) == 0.0


def test_action_terms_have_mean_zero_under_the_known_policy() -> None:
    easy = EasyAI(GAME)
    assert easy.policy is not None
    for history in (DEAL, (*_to_board(3), 9)):  # before the flop; on the turn
        state = _walk(history)
        assert state.player >= 0
        policies: list[Policy | None] = [None, None]
        policies[state.player] = easy.policy
        probs = easy.policy.action_probabilities(state.observation(state.player))
        before = holdem_hand_corrections(GAME, history, policies)
        after = np.zeros(2)
        for action, p in probs.items():
            if p > 0:
                after += p * holdem_hand_corrections(GAME, (*history, action), policies)
        np.testing.assert_allclose(after, before, atol=1e-9)


def test_a_match_is_corrected_without_bias_and_with_less_variance() -> None:
    easy, call = EasyAI(GAME, seed=1), AlwaysCall(GAME)
    result = play_match(GAME, easy, call, hands=250, seed=3)
    corrections = holdem_aivat_corrections(GAME, result.hands, [easy, call])
    assert np.allclose(corrections.sum(axis=1), 0.0)  # zero-sum
    mean = corrections[:, 0].mean()
    std_error = corrections[:, 0].std(ddof=1) / np.sqrt(len(corrections))
    assert abs(mean) < 4 * std_error
    estimate = holdem_aivat_estimates(GAME, result, [easy, call])[0]
    assert estimate.variance_reduction > 1.2
    chance_only = holdem_aivat_estimates(GAME, result, [None, None])[0]
    assert estimate.variance_reduction > chance_only.variance_reduction > 1.0
    nothing = holdem_aivat_corrections(GAME, result.hands, [None, None], chance=False)
    assert not nothing.any()


def test_bad_input() -> None:
    with pytest.raises(PokerlabError, match="heads-up Texas Hold'em"):
        holdem_hand_corrections(kuhn(), (0, 1), [None, None])
    with pytest.raises(PokerlabError, match="heads-up Texas Hold'em"):
        holdem_hand_corrections(holdem(players=3), (), [None, None, None])
    with pytest.raises(PokerlabError, match="one entry per seat"):
        holdem_hand_corrections(GAME, DEAL, [None])
    with pytest.raises(PokerlabError, match="no card twice"):
        holdem_equity((51, 47), (51, 3), ())
    # Seat 1 (the small blind) folds; always-raise never folds: a claimed policy that lies.
    with pytest.raises(PokerlabError, match="never plays"):
        holdem_hand_corrections(GAME, (*DEAL, 0), [None, AlwaysRaise(GAME).policy])
    easy = EasyAI(GAME, seed=2)
    result = play_match(GAME, easy, AlwaysCall(GAME), hands=3, seed=1)
    with pytest.raises(PokerlabError, match="one entry per agent"):
        holdem_aivat_estimates(GAME, result, [easy])
    with pytest.raises(PokerlabError, match="played on"):
        holdem_aivat_estimates(holdem(betting="limit", stack=100), result, [None, None])
