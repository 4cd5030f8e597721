"""Leduc poker: standard sizes and rules, and the variants (stacks, no cap, ranks, 3 players)."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.errors import IllegalActionError
from pokerlab.games import LeducGame, LeducState, leduc, load
from pokerlab.tree import compile

F, C, R = 0, 1, 2
# Card ids of standard Leduc: rank * 2 + suit, ranks Q < K < A.
QA, QB, KA, KB, AA, AB = range(6)


def _state(game: LeducGame, cards: tuple[int, ...], actions: str = "") -> LeducState:
    """Deal ``cards`` (private cards in seat order, then optionally the board), then bet.

    Letters: f fold, c call/check, r raise/bet. The board is dealt as soon as round 1
    ends, from ``cards`` after the private cards.
    """
    state = game.initial_state()
    n = game.n_players
    for card in cards[:n]:
        state = state.child(card)
    boards = list(cards[n:])
    for letter in actions:
        if state.player == CHANCE:
            state = state.child(boards.pop(0))
        state = state.child("fcr".index(letter))
    if state.player == CHANCE and boards:
        state = state.child(boards.pop(0))
    return state


def test_standard_sizes() -> None:
    game = leduc()
    tree = compile(game)
    assert tree.n_histories == 9_457
    assert tree.n_infosets == 288
    assert tree.n_sequences == (337, 337)
    assert len(tree.infosets_of(0)) == len(tree.infosets_of(1)) == 144
    assert game.count_histories() == 9_457


@pytest.mark.parametrize("ranks", [3, 4, 13])
def test_sizes_by_ranks(ranks: int) -> None:
    # Per deal: round 1 has 6 decision nodes, 4 folds and 5 ends; each end deals one of
    # (cards - 2) boards, each followed by the same 15 nodes.
    cards = 2 * ranks
    expected = 1 + cards + cards * (cards - 1) * (15 + 5 * (cards - 2) * 15)
    game = leduc(ranks=ranks)
    assert game.count_histories() == expected
    if ranks <= 4:
        tree = compile(game)
        assert tree.n_histories == expected
        # 3 decision points per player in each round; every (card, board) pair occurs.
        assert len(tree.infosets_of(0)) == 3 * ranks + 15 * ranks * ranks


def test_thirteen_ranks() -> None:
    game = leduc(ranks=13)
    assert game.count_histories() == 1_179_777
    assert game.rank_names == tuple("23456789TJQKA")
    assert game.n_cards == 26
    ace, king, deuce = 24, 23, 1  # A a, K b, 2 b
    state = _state(game, (ace, king, deuce), "cc")
    assert state.infoset_key(0) == "A|2|cc|"
    assert state.infoset_key(1) == "K|2|cc|"
    end = _state(game, (ace, king, deuce), "cccc")
    assert end.returns() == (1.0, -1.0)
    end = _state(game, (ace, deuce - 1, deuce), "cccc")  # P2 pairs the board with a 2
    assert end.returns() == (-1.0, 1.0)


def test_round_one_rules() -> None:
    game = leduc()
    state = _state(game, (AA, KA))
    assert state.player == 0  # P1 acts first
    assert state.legal_actions() == (C, R)  # no fold when nothing is owed
    assert state.committed == (1, 1)
    assert state.action_name(C) == "check"
    assert state.action_name(R) == "bet"
    state = state.child(R)
    assert state.player == 1
    assert state.committed == (3, 1)  # a bet of 2
    assert state.legal_actions() == (F, C, R)
    assert [state.action_name(a) for a in state.legal_actions()] == ["fold", "call", "raise"]
    state = state.child(R)
    assert state.committed == (3, 5)
    assert state.player == 0
    assert state.legal_actions() == (F, C)  # raise cap 2: a bet and a raise
    legal = r"'raise' is not legal here; legal: fold \(0\), call \(1\)"
    with pytest.raises(IllegalActionError, match=legal):
        state.child(R)
    state = state.child(C)
    assert state.committed == (5, 5)
    assert state.player == CHANCE
    assert state.chance_outcomes() == tuple((c, 0.25) for c in (QA, QB, KB, AB))


def test_round_two_rules() -> None:
    game = leduc()
    state = _state(game, (AA, KA, QA), "rc")
    assert state.round == 1
    assert state.player == 0  # P1 acts first in round 2 too
    assert state.legal_actions() == (C, R)
    state = state.child(R)
    assert state.committed == (7, 3)  # a bet of 4
    state = state.child(R)
    assert state.committed == (7, 11)
    assert state.legal_actions() == (F, C)
    end = state.child(C)
    assert end.is_terminal
    assert end.committed == (11, 11)
    assert end.returns() == (11.0, -11.0)  # K beats Q
    # P2 opens round 2 when P1 checks.
    state = _state(game, (AA, KA, QA), "ccc")
    assert state.player == 1
    assert state.legal_actions() == (C, R)
    # P1 acts first in round 2 whoever closed round 1.
    assert _state(game, (AA, KA, QA), "crc").player == 0


def test_checks_end_rounds_and_folds_end_hands() -> None:
    game = leduc()
    assert _state(game, (AA, KA), "cc").player == CHANCE
    assert _state(game, (AA, KA), "c").player == 1
    folded = _state(game, (KA, AA), "rf")
    assert folded.is_terminal
    assert folded.returns() == (1.0, -1.0)  # the K wins when the A folds
    folded = _state(game, (AA, KA), "crrf")
    assert folded.returns() == (3.0, -3.0)  # P2 bets, P1 raises, P2 folds
    folded = _state(game, (AA, KA, QA), "ccrf")
    assert folded.returns() == (1.0, -1.0)
    assert _state(game, (AA, KA, QA), "cccc").is_terminal


def test_showdown() -> None:
    game = leduc()
    # A pair with the board beats any unpaired hand.
    assert _state(game, (QA, AA, QB), "cccc").returns() == (1.0, -1.0)
    assert _state(game, (AA, QA, QB), "cccc").returns() == (-1.0, 1.0)
    # Otherwise the higher card wins.
    assert _state(game, (KA, AA, QA), "cccc").returns() == (-1.0, 1.0)
    assert _state(game, (AA, KA, QA), "rccrc").returns() == (7.0, -7.0)
    # Equal hands split the pot.
    assert _state(game, (KA, KB, AA), "rcrc").returns() == (0.0, 0.0)
    assert _state(game, (AA, AB, QA), "cccc").returns() == (0.0, 0.0)


def test_high_card_only() -> None:
    game = leduc(pair_counts=False)
    assert _state(game, (QA, AA, QB), "cccc").returns() == (-1.0, 1.0)
    assert _state(game, (AA, QA, QB), "cccc").returns() == (1.0, -1.0)
    tree = compile(game)
    assert (tree.n_histories, tree.n_infosets) == (9_457, 288)
    standard = compile(leduc())
    assert not np.array_equal(tree.terminal_payoffs, standard.terminal_payoffs)


def test_infoset_keys() -> None:
    game = leduc()
    assert game.rank_names == ("Q", "K", "A")
    state = _state(game, (AA, KB))
    assert state.infoset_key() == "A|"
    assert state.child(R).infoset_key() == "K|r"
    state = _state(game, (AA, KB, QB), "rcr")
    assert state.player == 1
    assert state.infoset_key() == "K|Q|rc|r"
    assert state.infoset_key(0) == "A|Q|rc|r"
    # Suits never appear: the other suit gives the same key.
    assert _state(game, (AB, KA, QA), "rcr").infoset_key() == "K|Q|rc|r"
    assert state.private_cards(0) == "A"
    assert state.board_cards() == "Q"
    assert str(state) == "leduc[Aa Kb | Qb | rc/r]"


@pytest.mark.parametrize("stack", [2, 3, 4])
def test_short_stack_first_raise(stack: int) -> None:
    game = leduc(stack=stack)
    state = _state(game, (AA, KA), "r")
    assert state.committed == (min(3, stack), 1)
    if stack <= 3:
        assert state.legal_actions() == (F, C)  # facing an all-in: fold or call only
    else:
        assert state.legal_actions() == (F, C, R)


def test_stack_four_all_in() -> None:
    game = leduc(stack=4)
    state = _state(game, (AA, KA), "r")
    assert state.stacks() == (1.0, 3.0)
    state = state.child(R)  # a raise of 2 with 3 left: all-in for what is left
    assert state.committed == (3, 4)
    assert state.stacks() == (1.0, 0.0)
    assert state.action_name(R) == "raise"
    assert state.legal_actions() == (F, C)
    with pytest.raises(IllegalActionError, match="legal: fold"):
        state.child(R)
    folded = state.child(F)
    assert folded.returns() == (-3.0, 3.0)
    called = state.child(C)
    assert called.committed == (4, 4)
    assert called.player == CHANCE  # the board is still dealt
    end = called.child(QA)
    assert end.player == TERMINAL  # nobody can bet: straight to showdown
    assert end.returns() == (4.0, -4.0)
    assert _state(game, (KA, AA, KB), "rrc").returns() == (4.0, -4.0)  # Q pairs
    # Everything is over after the all-in: size of the whole game.
    assert compile(game).n_histories == game.count_histories()


def test_stack_six_all_in_in_round_two() -> None:
    game = leduc(stack=6)
    state = _state(game, (AA, KA, QA), "rrc")
    assert state.committed == (5, 5)
    assert state.player == 0
    assert state.legal_actions() == (C, R)
    state = state.child(R)  # a bet of 4 with 1 left: all-in for 1
    assert state.committed == (6, 5)
    assert state.legal_actions() == (F, C)
    assert state.child(C).returns() == (6.0, -6.0)
    assert state.child(F).returns() == (5.0, -5.0)
    # Check, then a bet all-in: the opponent may only fold or call.
    state = _state(game, (AA, KA, QA), "rrcc").child(R)
    assert state.player == 0
    assert state.committed == (5, 6)
    assert state.legal_actions() == (F, C)
    assert state.child(C).returns() == (6.0, -6.0)
    # Below the cap, the stack still stops raising.
    state = _state(leduc(stack=6, raise_cap=None), (AA, KA), "rr")
    assert state.committed == (3, 5)
    assert state.legal_actions() == (F, C, R)
    state = state.child(R)
    assert state.committed == (6, 5)
    assert state.legal_actions() == (F, C)
    assert state.child(C).child(QA).is_terminal


def test_fifty_chip_rules() -> None:
    game = leduc(stack=50, raise_cap=None)
    assert game.count_histories() == 256_477
    state = _state(game, (AA, KA), "rrrrrrrrrrrr")  # 12 raises of 2: 25 each... and more
    assert state.committed[0] != state.committed[1]
    stakes = max(state.committed)
    assert stakes == 1 + 2 * 12
    while stakes < 50:
        state = state.child(R)
        stakes = max(state.committed)
    assert stakes == 50
    assert state.legal_actions() == (F, C)
    assert state.child(C).child(QA).is_terminal
    assert state.child(C).child(QA).returns() == (50.0, -50.0)


@pytest.mark.slow
def test_fifty_chip_sizes() -> None:
    tree = compile(leduc(stack=50, raise_cap=None))
    assert tree.n_histories == 256_477
    assert tree.n_infosets == 6_888
    assert tree.n_sequences[0] == tree.n_sequences[1]


def test_three_players() -> None:
    game = leduc(players=3)
    assert game.ranks == 4
    assert game.n_cards == 8
    assert game.count_histories() == 1_831_601
    state = game.initial_state().child(7).child(5).child(3)  # A, K, Q (ranks J Q K A)
    assert state.player == 0
    state = state.child(R).child(F)  # P1 bets, P2 folds
    assert state.player == 2
    assert state.legal_actions() == (F, C, R)
    state = state.child(C)  # P3 calls: round 1 is over
    assert state.player == CHANCE
    state = state.child(0)
    assert state.player == 0  # P1 first again; P2 has folded
    state = state.child(C).child(R)  # P1 checks, P3 bets 4
    assert state.player == 0
    state = state.child(C)
    assert state.is_terminal
    # P1's A beats P3's Q: P1 wins 7 from P3 and the 1 P2 lost.
    assert state.returns() == (8.0, -1.0, -7.0)
    assert state.infoset_key(2) == "Q|J|rfc|crc"
    assert state.infoset_key(1) == "K|J|rfc|crc"


def test_three_players_split() -> None:
    game = leduc(players=3)
    # Two players hold equal hands and split: 3 chips each into a pot of 3.
    state = _state(game, (6, 7, 0, 2), "cccccc")
    assert state.is_terminal
    assert state.returns() == (0.5, 0.5, -1.0)


def test_load_and_describe() -> None:
    game = load("leduc(stack=50, raise_cap=None)")
    assert isinstance(game, LeducGame)
    assert game.stack == 50
    assert game.raise_cap is None
    assert "no raise cap" in game.describe()
    assert "stacks of 50" in game.describe()
    assert repr(game) == "<LeducGame leduc(stack=50, raise_cap=None)>"
