"""The fast paths of the Hold'em engine give what the plain rules give.

States share betting nodes (kept in a tree with a budget), the returns are settled once
per node and order of the hands, and showdown hands are valued by pure-Python look-ups:
each is checked here against the straightforward computation it replaces.
"""

from __future__ import annotations

import copy
import itertools
import pickle
import random

import numpy as np
import pytest

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.cards import evaluate_batch
from pokerlab.games import load
from pokerlab.games.holdem import HoldemGame, HoldemState, holdem
from pokerlab.games.holdem_betting import BettingNodeCache
from pokerlab.games.holdem_pots import hand_values, showdown_tables
from pokerlab.games.holdem_state import _new_state

SPECS = [
    'holdem(betting="limit", stack=1000)',
    "holdem(stack=40)",
    "holdem(players=3, stack=(20, 35, 50))",
    'holdem(players=5, betting="limit", stack=(30, 200, 5, 90, 400), ante=1)',
    "holdem(players=6, stack=(3, 12, 40, 7, 60, 25), ante=1)",
    'holdem(betting="limit", hole=1, board="1,1", stack=1000)',  # 3-card hands
    'holdem(betting="limit", ranks=6, suits=3, stack=1000, raises="2,2,4,4")',
    "holdem(players=9, stack=(5, 10, 15, 20, 25, 30, 35, 40, 45))",
]


def random_hand(game: HoldemGame, rng: random.Random) -> list[HoldemState]:
    """Every state of one random hand, the initial state first."""
    states = [game.initial_state()]
    while not states[-1].is_terminal:
        states.append(states[-1].child(rng.choice(states[-1].legal_actions())))
    return states


@pytest.mark.parametrize("spec", SPECS)
def test_returns_are_the_settlements(spec: str) -> None:
    game = load(spec)
    assert isinstance(game, HoldemGame)
    rng = random.Random(spec)
    showdowns = 0
    for _ in range(300):
        final = random_hand(game, rng)[-1]
        settlement = final.settle()
        assert final.returns() == tuple(float(r) for r in settlement.returns)
        showdowns += bool(settlement.showdown)
    assert showdowns > 10


def test_showdown_tables_value_hands_as_the_batch_evaluator() -> None:
    tables = showdown_tables()
    rng = random.Random(7)
    hands = [rng.sample(range(52), size) for size in (5, 6, 7) for _ in range(3000)]
    for _ in range(3000):  # flushes: five to seven cards of one suit, the rest of others
        suit, size = rng.randrange(4), rng.choice((5, 6, 7))
        suited = rng.sample(range(suit, 52, 4), rng.randint(5, size))
        others = [c for c in range(52) if c % 4 != suit]
        hands.append(suited + rng.sample(others, size - len(suited)))
    for size in (5, 6, 7):
        rows = [h for h in hands if len(h) == size]
        expected = evaluate_batch(np.array(rows, dtype=np.uint8)).tolist()
        assert [tables.value(h) for h in rows] == expected


def test_states_of_one_history_are_equal_and_share_their_node() -> None:
    game = holdem(betting="limit", stack=1000)
    again = holdem(betting="limit", stack=1000)  # a second load shares the tree
    rng = random.Random(3)
    for _ in range(50):
        states = random_hand(game, rng)
        replayed = again.initial_state().apply_sequence(states[-1].history)
        assert isinstance(replayed, HoldemState)
        assert replayed == states[-1]
        assert hash(replayed) == hash(states[-1])
        assert replayed._node is states[-1]._node
    first = game.initial_state()
    assert first != first.child(0)


def test_a_tree_past_its_budget_plays_the_same_hands() -> None:
    game = holdem(players=3, stack=(20, 35, 50))
    small = holdem(players=3, stack=(20, 35, 50))
    small.nodes = BettingNodeCache(small.rules, budget=10)  # its own cache, 10 nodes kept
    small._initial = _new_state(small, (), (), small.nodes.root, None)
    rng = random.Random(5)
    for _ in range(100):
        states = random_hand(game, rng)
        other = small.initial_state()
        for before, after in itertools.pairwise(states):
            assert other.legal_actions() == before.legal_actions()
            assert other.raise_range() == before.raise_range()
            assert other.infoset_key() == before.infoset_key()
            action = after.history[-1]
            other = other.child(action)
            assert other == after  # equal nodes, though built apart
        assert other.returns() == states[-1].returns()
    assert small.nodes.kept == 10


def test_keyword_construction_pickling_and_copies() -> None:
    game = holdem(stack=100)
    state = game.initial_state().apply_sequence([51, 50, 47, 46, 2 + 6, 1])
    assert isinstance(state, HoldemState)
    assert state.player == CHANCE
    built = HoldemState(
        holdem=game, hole=state.hole, board=state.board, street=state.street,
        betting=state.betting, behind=state.behind, bets=state.bets,
        committed=state.committed, folded=state.folded, to_act=state.to_act,
        runout=state.runout,
    )  # fmt: skip
    assert built == state
    assert built.legal_actions() == state.legal_actions()
    for clone in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), copy.copy(state)):
        assert clone == state
        assert clone.history == state.history
        assert clone.child(0).infoset_key(0) == state.child(0).infoset_key(0)
    assert pickle.loads(pickle.dumps(game)) == game
    assert "HoldemState(holdem=" in repr(state)
    assert "street=1" in repr(state)


def test_fields_are_read_only() -> None:
    state = holdem().initial_state()
    for name in ("hole", "board", "bets", "behind", "player", "to_act", "runout"):
        with pytest.raises(AttributeError):
            setattr(state, name, 0)


@pytest.mark.parametrize("bad", [52, -1, 2.5, "3", None, [1]])
def test_bad_cards_are_refused_with_the_legal_ones(bad: object) -> None:
    state = holdem().initial_state().child(0)
    with pytest.raises(ValueError, match="legal: the undealt cards"):
        state.child(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="legal: the undealt cards"):
        state.child(0)  # already dealt


def test_fewer_than_five_cards_are_valued_by_their_groups() -> None:
    # Rhode Island: one hole card and two board cards; the short path keeps hand_values.
    game = holdem(betting="limit", hole=1, board="1,1", stack=1000)
    rng = random.Random(11)
    seen = 0
    for _ in range(200):
        final = random_hand(game, rng)[-1]
        if final.settle().showdown:
            cards = np.array([(*final.hole_cards(p), *final.board) for p in range(2)],
                             dtype=np.uint8)  # fmt: skip
            assert list(final.settle().hand_values) == hand_values(cards)
            seen += 1
    assert seen > 10
    assert final.player == TERMINAL


@pytest.mark.parametrize("bad", [2 + 5.5, 2 + 6.0 + 1e-9, "8", None])
def test_nolimit_raises_are_whole_chips(bad: object) -> None:
    state = holdem(stack=100).initial_state().apply_sequence([51, 50, 47, 46])
    assert isinstance(state, HoldemState)
    assert state.raise_range() == (4, 100)
    assert not state.is_legal(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"is not legal here; legal: fold \(0\), call \(1\)"):
        state.child(bad)  # type: ignore[arg-type]
    assert state.child(np.int64(2 + 6)).bets == state.child(2 + 6).bets == (2, 6)  # type: ignore[arg-type]


def test_cards_are_dealt_as_the_decks_ints() -> None:
    state = holdem().initial_state()
    assert not state.is_legal([1])  # type: ignore[arg-type]
    dealt = state.child(np.int64(5)).child(9.0)  # type: ignore[arg-type]  # numpy ints, floats
    assert dealt.hole == (5, 9)
    assert all(type(card) is int for card in dealt.history)
