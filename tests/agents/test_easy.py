"""The Easy AI: the slides' thresholds, its frequencies, monotone tables, legal actions."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.agents.base import Agent
from pokerlab.agents.easy import (
    POSTFLOP_THRESHOLDS,
    PREFLOP_THRESHOLDS,
    EasyAI,
    move_to_action,
    pick_move,
    postflop_strength,
    preflop_strength,
)
from pokerlab.cards import parse_cards
from pokerlab.errors import SpecError
from pokerlab.games import holdem, kuhn
from pokerlab.games.holdem import CALL, FOLD, RAISE, HoldemState


def test_slide_thresholds() -> None:
    assert PREFLOP_THRESHOLDS[preflop_strength(parse_cards("2c2d"))] == (35, 58, 85, 100)
    assert PREFLOP_THRESHOLDS[preflop_strength(parse_cards("AhAs"))] == (14, 19, 69, 100)
    assert preflop_strength(parse_cards("Th2s")) == 12  # the slides' example
    assert PREFLOP_THRESHOLDS[12] == (31, 46, 82, 100)
    assert PREFLOP_THRESHOLDS[13] == (30, 45, 81, 100)


def test_slide_ranges_of_the_draw() -> None:
    # Pair of 2s: check 0..35, fold 36..58, call 59..85, raise 86..100.
    row = PREFLOP_THRESHOLDS[4]
    moves = [pick_move(row, r) for r in range(101)]
    assert moves.count(0) == 36
    assert moves[35] == 0
    assert moves[36] == 1
    assert moves.count(1) == 23
    assert moves[58] == 1
    assert moves[59] == 2
    assert moves.count(2) == 27
    assert moves[85] == 2
    assert moves[86] == 3
    assert moves.count(3) == 15
    with pytest.raises(ValueError, match=r"0\.\.100"):
        pick_move(row, 101)


def test_tables_are_complete_and_monotone() -> None:
    rows = [PREFLOP_THRESHOLDS[s] for s in range(4, 29)]
    assert sorted(PREFLOP_THRESHOLDS) == list(range(4, 29))
    for table in (rows, list(POSTFLOP_THRESHOLDS)):
        assert all(r[3] == 100 and r[0] <= r[1] <= r[2] <= r[3] for r in table)
        folds = [r[1] - r[0] for r in table]
        raises = [100 - r[2] for r in table]
        assert folds == sorted(folds, reverse=True), folds  # stronger hands fold less
        assert raises == sorted(raises), raises  # and raise more
    assert len(POSTFLOP_THRESHOLDS) == 9


@pytest.mark.parametrize(
    "row", [PREFLOP_THRESHOLDS[4], PREFLOP_THRESHOLDS[28], POSTFLOP_THRESHOLDS[4]]
)
def test_frequencies_match_the_table(row: tuple[int, int, int, int]) -> None:
    ai = EasyAI(seed=row[0])
    moves = [pick_move(row, ai.draw()) for _ in range(100_000)]
    counts = np.bincount(moves, minlength=4) / len(moves)
    expected = np.diff([-1, *row]) / 101  # 101 equally likely draws 0..100
    assert np.allclose(counts, expected, atol=0.005), (counts, expected)


def test_strengths_cover_every_hand_type() -> None:
    cases = [
        ("AhKh", "QhJhTh", 8),  # royal flush
        ("5h4h", "3h2hAh", 8),  # steel wheel
        ("AhKd", "QcJsTh", 4),  # broadway straight
        ("Ah2d", "3c4s5h", 4),  # wheel
        ("AhAd", "AcAs2h", 7),
        ("AhAd", "AcKsKh2d3c", 6),
        ("9h8h", "2h5hKhTs", 5),
        ("2h7d", "9cJsKh", 0),
    ]
    for hole, board, category in cases:
        assert postflop_strength(parse_cards(hole), parse_cards(board)) == category


def test_move_mapping() -> None:
    facing = (FOLD, CALL, RAISE + 8, RAISE + 9)
    free = (CALL, RAISE + 2, RAISE + 3)
    assert move_to_action(1, facing) == FOLD
    assert move_to_action(1, free) == CALL  # no fold when a check is free
    assert move_to_action(0, facing) == CALL  # a check facing a bet is a call
    assert move_to_action(3, facing) == RAISE + 8  # the minimum raise
    assert move_to_action(3, (FOLD, CALL)) == CALL  # raising impossible: call
    assert move_to_action(3, (FOLD, CALL, RAISE)) == RAISE  # limit


@pytest.mark.parametrize("betting", ["nolimit", "limit"])
def test_plays_legal_actions_in_random_hands(betting: str) -> None:
    rng = np.random.default_rng(5)
    ai = EasyAI(seed=11)
    assert isinstance(ai, Agent)
    moves = set()
    for hand in range(150):
        game = holdem(players=2 + hand % 5, betting=betting, stack=int(rng.integers(3, 300)))
        state: HoldemState = game.initial_state()
        while state.player != TERMINAL:
            if state.player == CHANCE:
                legal = state.legal_actions()
                state = state.child(legal[int(rng.integers(len(legal)))])
                continue
            observation = state.observation()
            action = ai.act(observation)
            assert action in observation.legal_actions
            assert state.is_legal(action)
            moves.add(ai.last_move)
            state = state.child(action)
    assert moves == {"check", "fold", "call", "raise"}


def test_seeded_and_holdem_only() -> None:
    state = holdem().initial_state().apply_sequence([51, 50, 47, 46])
    first = [EasyAI(seed=3).act(state.observation()) for _ in range(3)]
    assert len(set(first)) == 1
    with pytest.raises(SpecError, match="holdem only"):
        EasyAI().act(kuhn().initial_state().child(0).child(1).observation())
