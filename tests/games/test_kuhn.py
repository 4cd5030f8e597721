"""Kuhn poker: the tutorial's rules, sequences, infoset keys and sizes, and N-card Kuhn."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.errors import IllegalActionError, PokerlabError
from pokerlab.games import KuhnGame, KuhnState, kuhn, load
from pokerlab.tree import compile

Q, K, A = 0, 1, 2
P, B = 0, 1

# The tutorial's five betting sequences: letters -> (pot at the end, showdown?, chips the
# winner wins).
SEQUENCES = {
    "pp": (2, True, 1),
    "pbb": (4, True, 2),
    "pbp": (3, False, 1),  # P1 folds: P2 wins P1's ante
    "bb": (4, True, 2),
    "bp": (3, False, 1),  # P2 folds: P1 wins P2's ante
}


def _deal(p1: int, p2: int) -> KuhnState:
    return kuhn().initial_state().child(p1).child(p2)


def _play(state: KuhnState, letters: str) -> KuhnState:
    for letter in letters:
        state = state.child("pb".index(letter))
    return state


def test_game_basics() -> None:
    game = kuhn()
    assert isinstance(game, KuhnGame)
    assert game.n_players == 2
    assert game.cards == 3
    assert game.card_names == ("Q", "K", "A")
    assert game.max_actions == 2
    assert game.action_name(0) == "pass"
    assert game.action_name(1) == "bet"
    assert game.is_zero_sum
    assert kuhn(cards=4).card_names == ("J", "Q", "K", "A")
    assert kuhn(cards=10).card_names == tuple(str(i) for i in range(1, 11))


def test_deal() -> None:
    root = kuhn().initial_state()
    assert root.player == CHANCE
    assert root.is_chance
    assert root.chance_outcomes() == ((0, 1 / 3), (1, 1 / 3), (2, 1 / 3))
    second = root.child(A)
    assert second.player == CHANCE
    assert second.chance_outcomes() == ((0, 0.5), (1, 0.5))
    assert second.legal_actions() == (Q, K)
    with pytest.raises(IllegalActionError, match="legal"):
        second.child(A)  # the A is already dealt
    state = second.child(K)
    assert state.player == 0
    assert state.legal_actions() == (P, B)
    assert state.chance_outcomes() == ()
    assert state.history == (A, K)


@pytest.mark.parametrize(("p1", "p2"), list(itertools.permutations(range(3), 2)))
@pytest.mark.parametrize("letters", list(SEQUENCES))
def test_tutorial_sequences(p1: int, p2: int, letters: str) -> None:
    pot, showdown, won = SEQUENCES[letters]
    state = _deal(p1, p2)
    for i, letter in enumerate(letters):
        assert state.player == i % 2  # P1 acts first, then they alternate
        assert not state.is_terminal
        state = state.child("pb".index(letter))
    assert state.is_terminal
    assert state.player == TERMINAL
    assert state.legal_actions() == ()
    assert sum(state.contributions()) == pot
    returns = state.returns()
    assert sum(returns) == 0
    folder = 0 if letters == "pbp" else 1
    winner = (0 if p1 > p2 else 1) if showdown else 1 - folder
    assert returns[winner] == won
    assert returns[1 - winner] == -won


def test_every_other_sequence_is_not_terminal() -> None:
    state = _deal(A, K)
    assert not _play(state, "").is_terminal
    assert not _play(state, "p").is_terminal
    assert not _play(state, "b").is_terminal
    assert not _play(state, "pb").is_terminal
    with pytest.raises(IllegalActionError, match="hand is over"):
        _play(state, "pp").child(P)
    with pytest.raises(PokerlabError, match="not terminal"):
        _play(state, "pb").returns()


def test_contextual_action_names() -> None:
    state = _deal(A, K)
    assert (state.action_name(P), state.action_name(B)) == ("check", "bet")
    facing = _play(state, "b")
    assert (facing.action_name(P), facing.action_name(B)) == ("fold", "call")
    assert kuhn().initial_state().action_name(2) == "deal A"


def test_tutorial_infoset_keys() -> None:
    # P1 holds K and faces a bet after checking: "K|pb"; P2 holds A facing a bet: "A|b".
    assert _deal(K, Q).infoset_key() == "K|"
    assert _play(_deal(K, Q), "pb").infoset_key() == "K|pb"
    assert _play(_deal(K, A), "b").infoset_key() == "A|b"
    assert _play(_deal(A, Q), "p").infoset_key() == "Q|p"
    # Each player sees only their own card.
    state = _play(_deal(K, A), "p")
    assert state.infoset_key(0) == "K|p"
    assert state.infoset_key(1) == "A|p"
    assert kuhn().initial_state().child(K).infoset_key(1) == "?|"
    assert state.private_cards(0) == "K"
    assert state.private_cards(1) == "A"


def test_three_card_infosets() -> None:
    tree = compile(kuhn())
    assert (tree.n_histories, tree.n_terminals, tree.n_infosets) == (58, 30, 12)
    p1 = sorted(tree.infoset_keys[i] for i in tree.infosets_of(0))
    p2 = sorted(tree.infoset_keys[i] for i in tree.infosets_of(1))
    assert p1 == sorted(f"{c}|{h}" for c in "QKA" for h in ("", "pb"))
    assert p2 == sorted(f"{c}|{h}" for c in "QKA" for h in ("p", "b"))
    assert tree.n_sequences == (13, 13)


@pytest.mark.parametrize("cards", [3, 4, 10, 100])
def test_n_card_kuhn_has_2n_infosets_per_player(cards: int) -> None:
    game = kuhn(cards=cards)
    tree = compile(game)
    assert len(tree.infosets_of(0)) == 2 * cards
    assert len(tree.infosets_of(1)) == 2 * cards
    assert tree.n_histories == game.count_histories()
    deals = cards * (cards - 1)
    assert tree.n_terminals == 5 * deals
    assert tree.n_histories == 1 + cards + deals * 9  # root, first cards, 9 nodes per deal


def test_hundred_card_kuhn_infoset_sizes() -> None:
    # The challenge: 100-card Kuhn has 400 infosets in total, each with 99 game states.
    tree = compile(kuhn(cards=100))
    assert tree.n_infosets == 400
    sizes = Counter(int(i) for i in tree.infoset[tree.infoset >= 0])
    assert len(sizes) == 400
    assert set(sizes.values()) == {99}
    root_keys = [f"{c}|" for c in range(1, 101)]
    for key in root_keys:
        assert sizes[tree.infoset_id(key)] == 99
        assert tree.infoset_player[tree.infoset_id(key)] == 0


def test_thousand_card_kuhn_counts_without_compiling() -> None:
    game = kuhn(cards=1000)
    assert game.count_histories() == 8_992_001
    assert game.count_histories() == 1 + 1000 + 1000 * 999 * 9
    state = game.initial_state().child(999).child(0)
    assert state.infoset_key() == "1000|"
    assert _play(state, "bp").returns() == (1.0, -1.0)
    assert _play(state, "bb").returns() == (2.0, -2.0)


def test_three_players() -> None:
    game = kuhn(players=3)
    assert game.cards == 4
    assert game.n_players == 3
    root = game.initial_state()
    state = root.child(3).child(0).child(1)  # A, J, Q
    assert state.player == 0
    # Everyone checks: showdown of the antes.
    assert _play(state, "ppp").returns() == (2.0, -1.0, -1.0)
    # P1 bets, P2 folds, P3 calls: P1 (A) beats P3 and wins 2 + 1.
    end = _play(state, "bpb")
    assert end.is_terminal
    assert end.returns() == (3.0, -1.0, -2.0)
    # P1 checks, P2 bets, P3 folds, P1 folds: P2 wins the antes.
    end = _play(state, "pbpp")
    assert end.is_terminal
    assert end.returns() == (-1.0, 2.0, -1.0)
    # After a bet every other player acts exactly once.
    assert not _play(state, "pbp").is_terminal
    assert _play(state, "pbp").player == 0
    assert _play(state, "pbp").infoset_key() == "A|pbp"
    tree = compile(game)
    assert tree.n_histories == game.count_histories() == 617
    assert tree.n_infosets == 48
    for p in range(3):
        assert len(tree.infosets_of(p)) == 16


@pytest.mark.parametrize("players", [2, 3, 4])
def test_returns_zero_sum_and_winner_is_highest_remaining_card(players: int) -> None:
    tree = compile(kuhn(players=players))
    np.testing.assert_allclose(tree.terminal_payoffs.sum(axis=1), 0.0, atol=1e-12)
    assert set(np.unique(tree.terminal_payoffs[tree.terminal_payoffs > 0])) <= {
        float(k) for k in range(1, 2 * players)
    }


def test_load_and_repr() -> None:
    game = load("kuhn(cards=100)")
    assert repr(game) == "<KuhnGame kuhn(cards=100)>"
    assert "100 cards" in game.describe()
    assert str(_play(_deal(A, K), "pb")) == "kuhn[A K|pb]"
