"""Discrete actions: fixed games map indices to their own ids; no-limit maps a bet menu."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab._types import TERMINAL
from pokerlab.envs.actions import FixedActions, MenuActions, action_map
from pokerlab.errors import IllegalActionError, SpecError
from pokerlab.games import HoldemState, State, load
from pokerlab.games.bet_sizes import parse_bet_menu
from pokerlab.games.holdem_rules import CALL, FOLD, RAISE


def _raise_to(state: State, amount: int) -> State:
    assert isinstance(state, HoldemState)
    return state.child(state.action_for_raise_to(amount))


@pytest.mark.parametrize("spec", ["kuhn(players=4)", "leduc(players=3)", 'holdem(betting="limit")'])
def test_fixed_games_use_their_own_action_ids(spec: str) -> None:
    game = load(spec)
    actions = action_map(game)
    assert isinstance(actions, FixedActions)
    assert actions.n_actions == game.max_actions
    rng = np.random.default_rng(0)
    for _ in range(100):
        state = game.initial_state()
        while state.player != TERMINAL:
            legal = state.legal_actions()
            if state.player >= 0:
                mask = actions.mask(state)
                assert np.flatnonzero(mask).tolist() == list(legal)
                for index in legal:
                    assert actions.game_action(state, np.int64(index)) == index
            state = state.child(legal[int(rng.integers(len(legal)))])


def test_a_masked_or_malformed_index_is_refused_naming_the_legal_ones() -> None:
    game = load("leduc")
    actions = action_map(game)
    state = game.initial_state().apply_sequence([0, 2])  # P1 to act, nothing owed
    with pytest.raises(
        IllegalActionError, match=r"action 0 is not legal here; legal: 1 \(check\), 2 \(bet\)"
    ):
        actions.game_action(state, 0)
    for bad in (True, 1.0, "1", 3, -1, None):
        with pytest.raises(IllegalActionError):
            actions.game_action(state, bad)


def test_the_default_menu_is_half_pot_pot_and_all_in() -> None:
    game = load("holdem")
    actions = action_map(game)
    assert isinstance(actions, MenuActions)
    assert actions.names == ("fold", "check/call", "50%", "100%", "a")
    state = game.initial_state().apply_sequence([0, 1, 2, 3])  # the button (SB) to act
    # Facing the big blind: max bet 2, pot 3, 1 to call. 50%: 2 + 0.5 * 4; 100%: 2 + 4.
    assert actions.slots(state) == (FOLD, CALL, RAISE + 4, RAISE + 6, RAISE + 200)
    assert actions.mask(state).tolist() == [1, 1, 1, 1, 1]
    called = state.child(CALL)  # the big blind may check or raise
    assert actions.slots(called) == (None, CALL, RAISE + 4, RAISE + 6, RAISE + 200)


def test_sizes_move_into_the_legal_range_and_a_repeated_amount_keeps_the_last_index() -> None:
    game = load("holdem(stack=9)")
    actions = action_map(game, bet_sizes="50%,100%,200%,a")
    state = game.initial_state().apply_sequence([0, 1, 2, 3])
    state = _raise_to(state, 6)  # the big blind faces a raise to 6 (9 chips each)
    # 50%: 6 + 0.5 * (8 + 4) = 12 -> all-in 9; every size is all-in: only "a" is legal.
    assert actions.slots(state) == (FOLD, CALL, None, None, None, RAISE + 9)
    small = load("holdem(stack=200)")
    state = small.initial_state().apply_sequence([0, 1, 2, 3])
    tiny = action_map(small, bet_sizes="1%,2%,a")  # both below the minimum raise to 4
    assert tiny.slots(state) == (FOLD, CALL, None, RAISE + 4, RAISE + 200)


def test_per_street_menus_and_multiples() -> None:
    game = load("holdem")
    actions = action_map(game, bet_sizes="2.5x,a/50%,a/50%,a/50%,a")
    assert actions.names == ("fold", "check/call", "2.5x/50%/50%/50%", "a")
    state = game.initial_state().apply_sequence([0, 1, 2, 3])
    assert actions.slots(state) == (FOLD, CALL, RAISE + 5, RAISE + 200)
    flop = state.child(CALL).child(CALL).apply_sequence([10, 20, 30])
    assert flop.street == 1  # type: ignore[attr-defined]
    assert actions.slots(flop) == (None, CALL, RAISE + 2, RAISE + 198)  # 50% of 4; all-in
    narrow = action_map(game, bet_sizes="2.5x,3x,a/75%,a/75%,a/75%,a")
    flop_slots = narrow.slots(flop)
    assert flop_slots[2:] == (RAISE + 3, RAISE + 198, None)  # the flop has two sizes


@pytest.mark.parametrize(
    ("spec", "menu"),
    [("holdem", None), ("holdem(players=6, stack=100)", "33%,75%,150%,a"),
     ("holdem(players=3, stack=(20, 300, 80))", "2.5x,a/50%,100%,a/50%,a/a")],
)
def test_every_legal_index_is_a_legal_distinct_engine_action(spec: str, menu: str | None) -> None:
    game = load(spec)
    actions = action_map(game, bet_sizes=menu)
    rng = np.random.default_rng(1)
    for _ in range(150):
        state = game.initial_state()
        while state.player != TERMINAL:
            if state.player < 0:
                legal = state.legal_actions()
                state = state.child(legal[int(rng.integers(len(legal)))])
                continue
            slots = [a for a in actions.slots(state) if a is not None]
            assert slots
            assert all(state.is_legal(a) for a in slots)
            assert len(set(slots)) == len(slots)
            assert (FOLD in slots) == (state.to_call() > 0)  # type: ignore[attr-defined]
            state = state.child(slots[int(rng.integers(len(slots)))])


def test_bet_menus_are_for_no_limit_only_and_checked() -> None:
    with pytest.raises(SpecError, match="bet sizes are for no-limit Hold'em"):
        action_map(load("leduc"), bet_sizes="50%")
    with pytest.raises(SpecError, match="cannot read bet size"):
        action_map(load("holdem"), bet_sizes="half")
    with pytest.raises(SpecError, match="the bet menu has 4 streets"):
        action_map(load('holdem(board="1")'), bet_sizes=parse_bet_menu("50%,a"))
    parsed = parse_bet_menu("50%,a", names=("preflop", "flop"))
    assert action_map(load('holdem(board="1")'), bet_sizes=parsed).names[2:] == ("50%", "a")


def test_menu_options_reach_the_action_space() -> None:
    game = load("holdem(stack=100)")
    state = game.initial_state().apply_sequence([0, 1, 2, 3])  # SB faces the big blind
    # 2000%: 2 + 20 * 4 = 82, leaving 18 behind in a pot of 164 after a call (SPR 0.11)
    assert action_map(game, bet_sizes="2000%,a").slots(state)[2:] == (RAISE + 82, RAISE + 100)
    forced = action_map(game, bet_sizes="2000%,a", force_all_in_threshold=0.15)
    assert forced.slots(state)[2:] == (None, RAISE + 100)  # forced all-in: one move, the last
    # 100% raises to 6 (1 pot), 125% to 7 (1.25 pots): (1 + 1.25) / (1 + 1) = 1.125, under
    # 1 + 0.2: 100% merges into 125%; all-in (24.5 pots) stays
    assert action_map(game, bet_sizes="100%,125%,a").slots(state)[2:] == (
        RAISE + 6, RAISE + 7, RAISE + 100)
    merged = action_map(game, bet_sizes=parse_bet_menu("100%,125%,a", merging_threshold=0.2))
    assert merged.slots(state)[2:] == (None, RAISE + 7, RAISE + 100)
    with pytest.raises(SpecError, match="without donk sizes or an add-all-in threshold"):
        action_map(game, bet_sizes=parse_bet_menu("50%,a", add_all_in_threshold=1.0))
    with pytest.raises(SpecError, match="one list of sizes per street for every player"):
        action_map(game, bet_sizes=parse_bet_menu("50%", "a"))
