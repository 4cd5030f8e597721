"""The off-menu bettor: a base policy's sized bets moved to 37%, 70% or 140% of the pot."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.agents.off_menu import OffMenuBettor, OffMenuPolicy, off_menu_amounts
from pokerlab.agents.registry import check_builtin
from pokerlab.errors import PokerlabError, SpecError
from pokerlab.eval import play_match
from pokerlab.games import Game, load
from pokerlab.games.bet_sizes import BetContext, parse_bet_menu
from pokerlab.games.betting_sequences import menu_raises
from pokerlab.games.holdem_rules import CALL, FOLD, RAISE
from pokerlab.games.observation import Observation
from pokerlab.strategy.policy import Policy

MENU = parse_bet_menu("50%,100%,a")


class MenuPolicy:
    """A blueprint stand-in: fixed shares of fold, call and each menu size (50%, 100%, a)."""

    def __init__(self, game: Game, shares: tuple[float, ...] = (0.1, 0.2, 0.3, 0.3, 0.1)
                 ) -> None:
        self._game = game
        self.shares = shares

    @property
    def game(self) -> Game:
        return self._game

    def action_probabilities(self, observation: Observation) -> dict[int, float]:
        state = self._game.public_state(observation)  # type: ignore[attr-defined]
        raises = menu_raises(MENU, state)
        actions = [FOLD if FOLD in observation.legal_actions else None, CALL,
                   *(RAISE + a for a in raises)]
        weights = {a: s for a, s in zip(actions, self.shares, strict=False) if a is not None}
        total = sum(weights.values())
        return {a: w / total for a, w in weights.items()}


class MenuAgent:
    """An agent exposing :class:`MenuPolicy` (the bettor's base)."""

    def __init__(self, game: Game) -> None:
        self.policy = MenuPolicy(game)


def _flop_bet_faced(game: Game, bet: int | None) -> object:
    """Hole cards, a raise to 10 called preflop (pot 20), a flop; then maybe a bet."""
    state = game.initial_state()
    for card in (0, 1, 2, 3):  # hole cards, dealt round robin
        state = state.child(card)
    state = state.child(RAISE + 10).child(CALL)
    for card in (10, 20, 30):
        state = state.child(card)
    if bet is not None:
        state = state.child(RAISE + bet)
    return state


def test_amounts_move_each_menu_size_to_the_sizes_around_it() -> None:
    bet = BetContext(1, 0, faced=0, pot=100, to_call=0, low=2, high=500)
    assert off_menu_amounts(bet, 50) == {37: 0.5, 70: 0.5}
    assert off_menu_amounts(bet, 100) == {70: 0.5, 140: 0.5}
    assert off_menu_amounts(bet, 20) == {37: 1.0}  # under every off size: the smallest
    assert off_menu_amounts(bet, 300) == {140: 1.0}  # over them all: the largest
    assert off_menu_amounts(bet, 70) == {70: 1.0}  # already off the menu: kept
    assert off_menu_amounts(bet, 500) == {500: 1.0}  # all-in stays
    raised = BetContext(1, 1, faced=40, pot=140, to_call=40, low=80, high=500)
    assert off_menu_amounts(raised, 220) == {132: 1.0}  # to 3.3x the bet faced
    short = BetContext(1, 1, faced=40, pot=140, to_call=40, low=80, high=120)
    assert off_menu_amounts(short, 100) == {120: 1.0}  # 3.3x is past the stack: all-in
    tiny = BetContext(1, 0, faced=0, pot=4, to_call=0, low=2, high=200)
    assert off_menu_amounts(tiny, 2) == {2: 0.5, 3: 0.5}  # 37% of 4 is under the minimum


def test_the_policy_moves_every_sized_bet_and_keeps_the_rest() -> None:
    game = load("holdem()")
    state = _flop_bet_faced(game, None)
    observation = state.observation(state.player)
    base = MenuPolicy(game)
    moved = OffMenuPolicy(base).action_probabilities(observation)
    assert state.pot == 20
    # no fold when nothing is owed: call 0.2, 50% 0.3, 100% 0.3, all-in 0.1 (over 0.9)
    expected = {CALL: 0.2 / 0.9, RAISE + 7: 0.15 / 0.9, RAISE + 14: (0.15 + 0.15) / 0.9,
                RAISE + 28: 0.15 / 0.9, max(observation.legal_actions): 0.1 / 0.9}
    assert moved.keys() == expected.keys()
    for action, p in expected.items():
        assert moved[action] == pytest.approx(p)
    assert set(moved) <= set(observation.legal_actions)
    for menu_amount in menu_raises(MENU, state)[:2]:  # the 50% and 100% bets are gone
        assert RAISE + menu_amount not in moved
    assert sum(moved.values()) == pytest.approx(1.0)
    assert isinstance(OffMenuPolicy(base), Policy)


def test_a_raise_goes_to_three_point_three_times_the_bet() -> None:
    game = load("holdem()")
    state = _flop_bet_faced(game, 6)  # a 6-chip bet into 20
    observation = state.observation(state.player)
    moved = OffMenuPolicy(MenuPolicy(game)).action_probabilities(observation)
    raises = [a for a in moved if a >= RAISE and a != max(observation.legal_actions)]
    assert raises == [RAISE + 20]  # round(3.3 * 6)
    assert moved[RAISE + 20] == pytest.approx(0.6)  # both menu raises went there
    assert moved[FOLD] == pytest.approx(0.1)


def test_limit_games_are_refused_with_what_is_needed() -> None:
    limit = load('holdem(betting="limit")')
    with pytest.raises(SpecError, match="no-limit"):
        OffMenuPolicy(MenuPolicy(limit))
    with pytest.raises(SpecError, match="no-limit"):
        OffMenuBettor(limit, base=MenuAgent(limit))
    with pytest.raises(PokerlabError, match=r"hard-offmenu.*no-limit"):
        check_builtin("hard-offmenu", limit)
    with pytest.raises(SpecError, match="raise_to"):
        OffMenuPolicy(MenuPolicy(load("holdem()")), raise_to=1.0)


def test_the_bettor_plays_legal_seeded_hands() -> None:
    game = load("holdem(stack=40)")

    def bettor(seed: int) -> OffMenuBettor:
        return OffMenuBettor(game, base=MenuAgent(game), seed=seed)

    first = play_match(game, bettor(1), bettor(2), hands=30, seed=5)
    again = play_match(game, bettor(1), bettor(2), hands=30, seed=5)
    assert [h.returns for h in first.hands] == [h.returns for h in again.hands]
    assert np.isfinite(first.estimates[0].mean)
