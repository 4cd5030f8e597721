"""Texas Hold'em: spec, seats and blinds, actions, chance, infosets, observation, session."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.errors import GameTooLargeError, IllegalActionError, PokerlabError, SpecError
from pokerlab.games import holdem, load
from pokerlab.games.holdem import CALL, FOLD, RAISE, HoldemState
from tests.games.test_holdem_pots import run_hand


@pytest.mark.parametrize(
    "spec",
    [
        "holdem",
        "holdem(players=6, betting='limit')",
        "holdem(players=3, blinds=(5, 10), ante=1, stack=(100, 20, 300))",
        "holdem(betting='limit', cap=3, stack=50)",
    ],
)
def test_spec_round_trip(spec: str) -> None:
    game = load(spec)
    assert load(str(game.spec)) == game
    assert load(game.spec) == game


def test_defaults_and_registry() -> None:
    game = load("holdem")
    assert game == holdem()
    assert game.n_players == 2
    assert game.max_actions == 3 + 200
    assert holdem(betting="limit").max_actions == 3
    assert "no-limit" in game.describe()


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"players": 1}, "players=2..9"),
        ({"players": 10}, "players=2..9"),
        ({"betting": "potlimit"}, "'limit' or 'nolimit'"),
        ({"blinds": (2, 1)}, "small <= big"),
        ({"ante": -1}, "ante"),
        ({"stack": 0}, "at least 1"),
        ({"stack": (100, 100, 100)}, "one int per player"),
        ({"cap": 0}, "cap"),
    ],
)
def test_bad_parameters(params: dict[str, object], message: str) -> None:
    with pytest.raises(SpecError, match=message):
        load("holdem", **params)


def test_heads_up_button_posts_small_blind_acts_first_preflop_last_after() -> None:
    state = run_hand(holdem(), ["AsKd", "QhQc"], "Qs7c2d")
    assert state.committed == (2, 1)  # player 0 big blind, player 1 (button) small blind
    assert state.player == 1
    state = state.child(CALL)
    assert state.player == 0
    state = state.child(CALL)
    while state.player == CHANCE:
        state = state.child(state.legal_actions()[0])
    assert state.player == 0  # the big blind acts first after the flop


def test_three_or_more_players_order() -> None:
    game = holdem(players=4)
    state = run_hand(game, ["2c3c", "4c5c", "6c7c", "8c9c"], "")
    assert state.committed == (1, 2, 0, 0)  # small blind, big blind, then the rest
    assert state.player == 2  # left of the big blind
    for _ in range(4):
        state = state.child(CALL)
    assert state.player == CHANCE
    for card in (40, 41, 42):
        state = state.child(card)
    assert state.player == 0  # left of the button


def test_infoset_key_example() -> None:
    state = run_hand(holdem(), ["AsKd", "9c9d"], "Qh7c2d", "r6 c c")
    assert state.player == 1
    assert state.infoset_key(1) == "9c9d|Qh7c2d|r6c|c"
    assert state.infoset_key(0) == "AsKd|Qh7c2d|r6c|c"
    assert run_hand(holdem(), ["AsKd", "9c9d"], "", "r6").infoset_key() == "AsKd|r6"
    limit = run_hand(holdem(betting="limit"), ["AsKd", "9c9d"], "Qh7c2d", "r c c r")
    assert limit.infoset_key() == "AsKd|Qh7c2d|rc|cr"


def test_no_limit_actions_and_raise_helpers() -> None:
    state = run_hand(holdem(stack=100), ["AsKd", "9c9d"], "")
    assert state.raise_range() == (4, 100)
    legal = state.legal_actions()
    assert legal == (FOLD, CALL, *range(RAISE + 4, RAISE + 101))
    assert state.action_for_raise_to(10) == RAISE + 10
    assert state.action_name(RAISE + 10) == "raise to 10"
    assert state.action_name(CALL) == "call"
    assert state.to_call() == 1
    with pytest.raises(IllegalActionError, match=r"allowed: raise to 4..100"):
        state.action_for_raise_to(3)
    with pytest.raises(IllegalActionError, match=r"raise to X \(2\+X\) for X in 4..100"):
        state.child(RAISE + 3)
    after = state.child(RAISE + 10)
    assert after.raise_range() == (18, 100)  # a re-raise adds at least the last raise (8)
    assert after.to_call() == 8
    assert state.child(RAISE + 100).raise_range() is None  # facing an all-in: call or fold


def test_postflop_bet_names_and_min_bet() -> None:
    state = run_hand(holdem(stack=100), ["AsKd", "9c9d"], "Qh7c2d", "c c")
    assert state.raise_range() == (2, 98)
    assert state.legal_actions()[:2] == (CALL, RAISE + 2)  # no fold when a check is free
    assert state.action_name(CALL) == "check"
    assert state.action_name(RAISE + 5) == "bet 5"


def test_limit_sizes_and_cap() -> None:
    game = holdem(betting="limit", stack=1000)
    state = run_hand(game, ["AsKd", "9c9d"], "Qh7c2dTs5s")
    assert state.legal_actions() == (FOLD, CALL, RAISE)
    # Preflop: the big blind is the first bet, then three raises of 2 (cap 4).
    for expected in (4, 6, 8):
        assert state.raise_range() == (expected, expected)
        state = state.child(RAISE)
    assert state.raise_range() is None
    assert state.legal_actions() == (FOLD, CALL)
    state = state.child(CALL)
    while state.player == CHANCE:
        state = state.child(state.legal_actions()[0])
    # Flop: small bet 2, four bets allowed.
    for expected in (2, 4, 6, 8):
        assert state.raise_range() == (expected, expected)
        state = state.child(RAISE)
    assert state.raise_range() is None
    state = run_hand(game, ["AsKd", "9c9d"], "Qh7c2dTs5s", "c c c c")
    assert state.board
    assert len(state.board) == 4
    assert state.raise_range() == (4, 4)  # big bet on the turn


def test_illegal_actions_name_the_legal_ones() -> None:
    state = run_hand(holdem(stack=100), ["AsKd", "9c9d"], "Qh7c2d", "c c")
    with pytest.raises(IllegalActionError, match=r"'fold' .* legal: check"):
        state.child(FOLD)
    game_state = holdem().initial_state()
    with pytest.raises(IllegalActionError, match="cannot be dealt"):
        game_state.child(52)
    with pytest.raises(IllegalActionError, match="cannot be dealt"):
        game_state.child(5).child(5)


def test_chance_outcomes_deal_one_card_at_a_time() -> None:
    state = holdem(players=3).initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 52
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    state = state.child(51)
    assert len(state.chance_outcomes()) == 51
    assert 51 not in state.legal_actions()
    for card in range(5):
        state = state.child(card)
    assert state.player == 2
    assert state.private_cards(0) == "As2h"
    assert state.private_cards(1) == "2c2s"
    assert state.chance_outcomes() == ()


def test_states_are_immutable() -> None:
    state = run_hand(holdem(), ["AsKd", "9c9d"], "")
    before = (state.history, state.committed, state.player)
    state.child(RAISE + 10)
    assert (state.history, state.committed, state.player) == before
    with pytest.raises(AttributeError):
        state.street = 2  # type: ignore[misc]


def test_observation_pieces() -> None:
    state = run_hand(holdem(stack=100), ["AsKd", "9c9d"], "Qh7c2dTs", "r6 c c c")
    obs = state.observation()
    assert obs.seat == 0
    assert obs.private_cards == "AsKd"
    assert obs.board == "Qh7c2dTs"
    assert obs.committed == (6.0, 6.0)
    assert obs.stacks == (94.0, 94.0)
    assert obs.pot == 12.0
    assert obs.public_history == (
        (1, "raise to 6"), (0, "call"), (-1, "flop Qh7c2d"), (0, "check"), (1, "check"),
        (-1, "turn Ts"),
    )
    assert obs.action_names[:2] == ("check", "bet 2")
    other = state.observation(1)
    assert other.private_cards == "9c9d"
    assert other.legal_actions == ()
    assert "AsKd" not in str(other)


def test_random_playouts_are_zero_sum_and_end() -> None:
    rng = np.random.default_rng(0)
    for betting in ("nolimit", "limit"):
        game = holdem(players=5, betting=betting, stack=(30, 200, 5, 90, 400), ante=1)
        for _ in range(100):
            state: HoldemState = game.initial_state()
            while state.player != TERMINAL:
                legal = state.legal_actions()
                if state.player == CHANCE:
                    state = state.child(legal[int(rng.integers(len(legal)))])
                else:
                    state = state.child(legal[int(rng.integers(len(legal)))])
            assert sum(state.returns()) == 0
            assert all(s >= 0 for s in state.settle().final_stacks)


def test_returns_need_a_finished_hand() -> None:
    with pytest.raises(PokerlabError, match="not terminal"):
        holdem().initial_state().returns()


def test_compile_refuses_holdem() -> None:
    from pokerlab.tree import compile as compile_tree

    game = holdem()
    assert game.min_histories() > 10**15
    with pytest.raises(GameTooLargeError, match=r"at least .* histories"):
        compile_tree(game)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_history_is_every_action_in_order(players: int) -> None:
    # The state keeps cards and betting, not the actions twice: history is rebuilt from
    # them, all-in run-outs (short stacks) included.
    rng = np.random.default_rng(players)
    for stack in (3, 12, 200):
        game = holdem(players=players, stack=stack)
        for _ in range(30):
            state, taken = game.initial_state(), []
            while not state.is_terminal:
                legal = state.legal_actions()
                action = int(legal[int(rng.integers(len(legal)))])
                state = state.child(action)
                taken.append(action)
                assert state.history == tuple(taken)


@pytest.mark.parametrize("spec", ["holdem", "holdem(players=3, betting='limit', ante=1)",
                                  "holdem(players=3, stack=(100, 20, 300))"])
def test_the_state_api_and_the_engine_fields_agree(spec: str) -> None:
    # HoldemState's two vocabularies (docstring): the State API for any game's code,
    # the engine's exact chips for Hold'em's; at every state of random hands they agree.
    game = load(spec)
    rng = np.random.default_rng(7)
    for _ in range(30):
        state = game.initial_state()
        while True:
            assert isinstance(state, HoldemState)
            assert state.player == state.to_act
            assert state.game is game
            assert state.contributions() == tuple(float(c) for c in state.committed)
            assert state.stacks() == tuple(float(b) for b in state.behind)
            if state.player == TERMINAL:
                break
            if state.player == CHANCE:
                outcomes = state.chance_outcomes()
                state = state.child(outcomes[int(rng.integers(len(outcomes)))][0])
            else:
                legal = state.legal_actions()
                state = state.child(legal[int(rng.integers(len(legal)))])
