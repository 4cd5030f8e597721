"""AIVAT on Hold'em with 3 to 6 seats (issue 17 item 6): exact zero-mean terms, a match."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest

from pokerlab.agents import AlwaysCall, RandomAgent
from pokerlab.cards.evaluator import evaluate_batch
from pokerlab.cli import main
from pokerlab.eval import play_match
from pokerlab.eval.aivat import aivat_method, hand_corrections, match_aivat
from pokerlab.eval.aivat_holdem import (
    _combinations,
    holdem_aivat_corrections,
    holdem_hand_corrections,
    preflop_shares_exact,
)
from pokerlab.games import holdem
from pokerlab.games.holdem_state import HoldemState
from pokerlab.strategy import Policy

GAME = holdem(players=3, betting="limit")
DEAL = (51, 22, 8, 47, 24, 13)  # seat p holds DEAL[p], DEAL[p + 3]
BOARD = (3, 36, 16, 20, 9)
FOLD, CALL = 0, 1


def _walk(game: object, history: tuple[int, ...]) -> HoldemState:
    assert hasattr(game, "initial_state")
    state = game.initial_state()
    for action in history:
        state = state.child(action)
    assert isinstance(state, HoldemState)
    return state


def _to_board(cards: int, *, first: tuple[int, ...] = (), game: object = GAME,
              deal: tuple[int, ...] = DEAL) -> tuple[int, ...]:
    """A history reaching the chance node of board card ``cards + 1``: ``first``, then calls."""
    history = [*deal, *first]
    state = _walk(game, tuple(history))
    board = iter(BOARD)
    while len(state.board) < cards or state.player != -1:
        action = next(board) if state.player == -1 else CALL
        history.append(action)
        state = state.child(action)
    return tuple(history)


def _mean_over_next_card(history: tuple[int, ...], game: object = GAME, *,
                         early: bool = True) -> None:
    state = _walk(game, history)
    n = state.game.n_players
    none: list[Policy | None] = [None] * n
    before = holdem_hand_corrections(state.game, history, none, early_chance=early)
    outcomes = state.chance_outcomes()
    terms = [holdem_hand_corrections(state.game, (*history, c), none, early_chance=early)
             for c, _ in outcomes]
    after = sum(p * term for (_, p), term in zip(outcomes, terms, strict=True))
    np.testing.assert_allclose(after, before, atol=1e-9)
    assert np.ptp([term[0] for term in terms]) > 0.1  # the card changes the estimate
    for term in terms:
        assert term.sum() == pytest.approx(0.0, abs=1e-9)  # zero-sum


def test_board_terms_have_mean_zero_over_the_next_card() -> None:
    assert aivat_method(GAME) == "equity"
    _mean_over_next_card(_to_board(2), early=False)  # the third flop card alone
    for cards in (3, 4):  # the turn, the river
        _mean_over_next_card(_to_board(cards))
    # A seat folded before the flop: its share is 0, the two others split the pot.
    _mean_over_next_card(_to_board(3, first=(FOLD,)))


@pytest.mark.slow
@pytest.mark.parametrize("first", [(), (FOLD,)])
def test_whole_flop_term_has_mean_zero_over_every_flop(first: tuple[int, ...]) -> None:
    history = _to_board(0, first=first)  # before the first flop card
    state = _walk(GAME, history)
    live = [p for p in range(3) if not state.folded[p]]
    hands = np.array([state.hole[p::3] for p in live])
    pot = float(sum(state.contributions()))
    deck = np.array(sorted(c for c, _ in state.chance_outcomes()), dtype=np.int64)
    assert len(deck) == 46  # a folded hand's cards are dead
    boards = _combinations(46, 5)
    cards = deck[boards]
    values = np.stack([evaluate_batch(np.concatenate([np.tile(h, (len(cards), 1)), cards], 1))
                       for h in hands], axis=1)
    winners = values == values.max(axis=1, keepdims=True)
    shares = winners / winners.sum(axis=1, keepdims=True)  # [boards, live]
    binomial = np.array([[math.comb(n, k) for k in range(4)] for n in range(46)])
    flop_sum = np.zeros((math.comb(46, 3), len(live)))
    for a, b, c in itertools.combinations(range(5), 3):  # colex id of each sub-flop
        ids = binomial[boards[:, a], 1] + binomial[boards[:, b], 2] + binomial[boards[:, c], 3]
        for k in range(len(live)):
            flop_sum[:, k] += np.bincount(ids, weights=shares[:, k], minlength=len(flop_sum))
    flop_shares = flop_sum / math.comb(43, 2)
    dead = tuple(c for p in range(3) if state.folded[p] for c in state.hole[p::3])
    exact = preflop_shares_exact(tuple(tuple(h) for h in hands.tolist()), dead)
    np.testing.assert_allclose(flop_shares.mean(axis=0), exact, atol=1e-12)
    none: list[Policy | None] = [None] * 3
    before = holdem_hand_corrections(GAME, history, none)
    for a, b, c in ((0, 1, 2), (5, 17, 40), (30, 44, 45)):
        flop = (int(deck[a]), int(deck[b]), int(deck[c]))
        after = holdem_hand_corrections(GAME, (*history, *flop), none)
        colex = binomial[a, 1] + binomial[b, 2] + binomial[c, 3]
        np.testing.assert_allclose((after - before)[live], pot * (flop_shares[colex] - exact),
                                   atol=1e-9)
        assert after.sum() == pytest.approx(0.0, abs=1e-9)


def test_no_term_for_the_hole_cards_and_first_flop_cards() -> None:
    none: list[Policy | None] = [None] * 3
    for cards in (0, 1):
        history = _to_board(cards)
        state = _walk(GAME, history)
        before = holdem_hand_corrections(GAME, history, none)
        for card, _ in state.chance_outcomes()[:4]:
            after = holdem_hand_corrections(GAME, (*history, card), none)
            np.testing.assert_array_equal(after, before)
    np.testing.assert_array_equal(holdem_hand_corrections(GAME, DEAL, none), 0.0)


def test_six_seats_river_term_has_mean_zero() -> None:
    six = holdem(players=6, betting="limit")
    deal = (51, 22, 8, 47, 24, 13, 50, 21, 7, 46, 25, 12)
    _mean_over_next_card(_to_board(4, game=six, deal=deal), six)


def test_action_terms_have_mean_zero_under_the_known_policy() -> None:
    uniform = RandomAgent(GAME).policy
    assert uniform is not None
    for history in (DEAL, (*_to_board(3), 9)):  # before the flop; on the turn
        state = _walk(GAME, history)
        assert state.player >= 0
        policies: list[Policy | None] = [None, None, None]
        policies[state.player] = uniform
        probs = uniform.action_probabilities(state.observation(state.player))
        assert len(probs) >= 2
        before = holdem_hand_corrections(GAME, history, policies)
        after = np.zeros(3)
        for action, p in probs.items():
            after += p * holdem_hand_corrections(GAME, (*history, action), policies)
        np.testing.assert_allclose(after, before, atol=1e-9)


@pytest.mark.slow
def test_a_three_seat_match() -> None:
    agents = [RandomAgent(GAME, seed=1), AlwaysCall(GAME), RandomAgent(GAME, seed=2)]
    result = play_match(GAME, *agents, hands=12, seed=4)
    corrections = holdem_aivat_corrections(GAME, result.hands, agents)
    assert corrections.shape == (len(result.hands), 3)
    np.testing.assert_allclose(corrections.sum(axis=1), 0.0, atol=1e-9)  # zero-sum
    assert np.abs(corrections).max() > 0.0
    # The arena's leaderboard goes through hand_corrections: the same terms.
    np.testing.assert_array_equal(hand_corrections(GAME, result.hands, agents), corrections)
    estimates = match_aivat(GAME, result, agents)
    assert estimates is not None
    assert len(estimates) == 3
    for k, estimate in enumerate(estimates):
        assert estimate.estimate.low <= estimate.estimate.mean <= estimate.estimate.high
        assert np.isfinite(estimate.variance_reduction)
        corrected = result.estimates[k].mean - corrections[:, k].mean()
        assert estimate.estimate.mean == pytest.approx(corrected, abs=1e-9)


@pytest.mark.slow
def test_match_command_reports_aivat_for_three_seats(capsys: pytest.CaptureFixture[str]) -> None:
    spec = 'holdem(players=3, betting="limit")'
    assert main(["match", spec, "random", "always-call", "random", "--hands", "3", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["agents"]
    assert [row["aivat"]["policy_known"] for row in rows] == [True, True, True]
    assert {row["aivat"]["values"] for row in rows} == {"equity"}
    assert sum(row["aivat"]["mean"] for row in rows) == pytest.approx(0.0, abs=1e-9)
