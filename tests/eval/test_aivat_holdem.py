"""AIVAT on Hold'em (issue 17 item 6): equity values, exact zero-mean terms, matches."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from pokerlab.agents import AlwaysCall, AlwaysRaise, EasyAI
from pokerlab.cards import equity, parse_cards
from pokerlab.cards.evaluator import evaluate_batch
from pokerlab.errors import PokerlabError
from pokerlab.eval import play_match
from pokerlab.eval.aivat import aivat_method
from pokerlab.eval.aivat_holdem import (
    _combinations,
    holdem_aivat_corrections,
    holdem_aivat_estimates,
    holdem_equity,
    holdem_hand_corrections,
    preflop_equity_exact,
)
from pokerlab.eval.preflop_equity import class_pair_equity, class_pair_mean, hand_class_id
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


def test_board_terms_have_mean_zero_over_the_next_card() -> None:
    # The turn and the river (both methods), and the third flop card alone (board method).
    for cards, early in ((2, False), (3, False), (3, True), (4, False), (4, True)):
        history = _to_board(cards)
        state = _walk(history)
        before = holdem_hand_corrections(GAME, history, [None, None], early_chance=early)
        outcomes = state.chance_outcomes()
        terms = [holdem_hand_corrections(GAME, (*history, c), [None, None], early_chance=early)
                 for c, _ in outcomes]
        after = sum(p * term for (_, p), term in zip(outcomes, terms, strict=True))
        np.testing.assert_allclose(after, before, atol=1e-9)
        assert np.ptp([term[0] for term in terms]) > 0.1  # the card changes the estimate
    for cards in (0, 1):  # no term of its own for the first two flop cards
        history = _to_board(cards)
        state = _walk(history)
        for early in (False, True):
            before = holdem_hand_corrections(GAME, history, [None, None], early_chance=early)
            for card, _ in state.chance_outcomes()[:5]:
                after = holdem_hand_corrections(GAME, (*history, card), [None, None],
                                                early_chance=early)
                np.testing.assert_array_equal(after, before)


def test_hole_card_term_has_mean_zero_over_every_deal() -> None:
    table = class_pair_equity()
    mean = class_pair_mean(table)
    # Enumerate all 1,624,350 ordered deals directly (not through the deal counts).
    combos = [(a, b) for a in range(52) for b in range(a)]
    classes = np.array([hand_class_id(a, b) for a, b in combos])
    masks = np.array([(1 << a) | (1 << b) for a, b in combos], dtype=np.int64)
    first, second = np.nonzero((masks[:, None] & masks[None, :]) == 0)
    assert len(first) == 1_624_350
    values = table[classes[first], classes[second]]
    pot = float(sum(GAME.initial_state().contributions()))
    assert np.mean(pot * (values - mean)) == pytest.approx(0.0, abs=1e-12)
    # ... and the term of a dealt hand is exactly that: pot * (T[deal] - mean), zero-sum.
    rng = np.random.default_rng(5)
    for _ in range(20):
        deal = tuple(int(c) for c in rng.permutation(52)[:4])
        three = holdem_hand_corrections(GAME, deal[:3], [None, None])
        np.testing.assert_array_equal(three, 0.0)  # nothing before the deal is complete
        term = holdem_hand_corrections(GAME, deal, [None, None])
        expected = pot * (table[hand_class_id(deal[0], deal[2]),
                                hand_class_id(deal[1], deal[3])] - mean)
        assert term[0] == pytest.approx(expected, abs=1e-12)
        assert term[1] == pytest.approx(-expected, abs=1e-12)
        board_only = holdem_hand_corrections(GAME, deal, [None, None], early_chance=False)
        np.testing.assert_array_equal(board_only, 0.0)


@pytest.mark.slow
def test_whole_flop_term_has_mean_zero_over_every_flop() -> None:
    history = _to_board(0)  # before the first flop card, the preflop betting done
    state = _walk(history)
    first, second = tuple(state.hole[0::2]), tuple(state.hole[1::2])
    pot = float(sum(state.contributions()))
    deck = np.array(sorted(c for c, _ in state.chance_outcomes()), dtype=np.int64)
    assert len(deck) == 48
    # Every 5-card board once: seat 0's share on each, then each flop's exact equity as the
    # mean over the 990 boards that complete it (each board completes 10 flops).
    boards = _combinations(48, 5)
    cards = deck[boards]
    mine = evaluate_batch(np.concatenate([np.tile(first, (len(cards), 1)), cards], axis=1))
    theirs = evaluate_batch(np.concatenate([np.tile(second, (len(cards), 1)), cards], axis=1))
    share = (mine > theirs) + 0.5 * (mine == theirs)
    binomial = np.array([[math.comb(n, k) for k in range(4)] for n in range(48)])
    flop_sum = np.zeros(math.comb(48, 3))
    for a, b, c in itertools.combinations(range(5), 3):  # colex id of each sub-flop
        ids = binomial[boards[:, a], 1] + binomial[boards[:, b], 2] + binomial[boards[:, c], 3]
        flop_sum += np.bincount(ids, weights=share, minlength=len(flop_sum))
    flop_equity = flop_sum / math.comb(45, 2)
    assert len(flop_equity) == 17_296
    exact = preflop_equity_exact(first, second)
    assert np.mean(pot * (flop_equity - exact)) == pytest.approx(0.0, abs=1e-12)
    # The term of a dealt flop is exactly pot * (its exact equity - preflop equity).
    before = holdem_hand_corrections(GAME, history, [None, None])
    for a, b, c in ((0, 1, 2), (5, 17, 40), (30, 44, 47)):
        flop = (int(deck[a]), int(deck[b]), int(deck[c]))
        after = holdem_hand_corrections(GAME, (*history, *flop), [None, None])
        colex = binomial[a, 1] + binomial[b, 2] + binomial[c, 3]
        assert holdem_equity(first, second, flop) == pytest.approx(flop_equity[colex], abs=1e-12)
        expected = pot * (flop_equity[colex] - exact)
        assert after[0] - before[0] == pytest.approx(expected, abs=1e-9)
        assert after[1] - before[1] == pytest.approx(-expected, abs=1e-9)


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


@pytest.mark.slow
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
    with pytest.raises(PokerlabError, match="Texas Hold'em with 2 to 6 seats"):
        holdem_hand_corrections(kuhn(), (0, 1), [None, None])
    with pytest.raises(PokerlabError, match="Texas Hold'em with 2 to 6 seats"):
        holdem_hand_corrections(holdem(players=7), (), [None] * 7)
    with pytest.raises(PokerlabError, match="Texas Hold'em with 2 to 6 seats"):
        holdem_hand_corrections(holdem(ranks=8), (), [None, None])
    assert aivat_method(holdem(ranks=8)) is None
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
