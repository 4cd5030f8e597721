"""The betting tree as arrays walks in lockstep with pokerlab's Leduc and Hold'em engines."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.blueprint.betting_tree import (
    DECISION,
    FOLDED_OUT,
    SHOWDOWN,
    BettingRules,
    BettingTree,
    build_tree,
    rules_from_holdem,
    rules_from_leduc,
)
from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.errors import GameTooLargeError, SpecError
from pokerlab.games import load
from pokerlab.games.base import State
from pokerlab.games.holdem import holdem
from pokerlab.games.leduc import leduc


def _deal(state: State) -> State:
    """Deal the lowest undealt card at every chance node until a player acts or the end."""
    while state.player == CHANCE:
        state = state.child(state.legal_actions()[0])
    return state


def _check_node(tree: BettingTree, node: int, state: State, *, returns_uncalled: bool) -> None:
    chips = tree.contributions[node].astype(float)
    if returns_uncalled and state.player == TERMINAL:
        # Hold'em gives an uncalled bet back at the end: the top contribution is cut to the
        # second largest (what a fold or a showdown pays out is the same either way).
        top = int(np.argmax(chips))
        chips[top] = np.sort(chips)[-2]
    assert tuple(chips.tolist()) == state.contributions()
    if state.player == TERMINAL:
        assert tree.kind[node] in (FOLDED_OUT, SHOWDOWN)
        n_in = int(tree.active[node].sum())
        assert (tree.kind[node] == FOLDED_OUT) == (n_in == 1)
        return
    assert tree.kind[node] == DECISION
    assert tree.player[node] == state.player
    k = int(tree.n_actions[node])
    assert tuple(int(a) for a in tree.action_kind[node, :k]) == state.legal_actions()


def _walk_all(tree: BettingTree, node: int, state: State) -> int:
    _check_node(tree, node, state, returns_uncalled=False)
    if state.player == TERMINAL:
        return 1
    count = 1
    for j, action in enumerate(state.legal_actions()):
        count += _walk_all(tree, int(tree.children[node, j]), _deal(state.child(action)))
    return count


@pytest.mark.parametrize(
    "game",
    [leduc(), leduc(players=3), leduc(ranks=4, raise_cap=3), leduc(stack=12, raise_cap=None)],
    ids=str,
)
def test_leduc_tree_matches_the_state_api_node_for_node(game: object) -> None:
    tree = build_tree(rules_from_leduc(game))  # type: ignore[arg-type]
    visited = _walk_all(tree, 0, _deal(game.initial_state()))  # type: ignore[attr-defined]
    assert visited == tree.n_nodes
    assert tree.n_decisions == int(np.count_nonzero(tree.decision_index >= 0))


def test_standard_leduc_has_the_known_number_of_betting_sequences() -> None:
    tree = build_tree(rules_from_leduc(leduc()))
    # OpenSpiel's 936 infosets = 6 cards x 6 round-1 sequences + 6 x 5 cards x 30 round-2
    # sequences: per deal, 6 decision nodes in round 1 and 5 x 6 in round 2.
    assert int(np.count_nonzero((tree.kind == DECISION) & (tree.street == 0))) == 6
    assert tree.n_decisions == 36


@pytest.mark.parametrize(("players", "cap"), [(2, 4), (3, 2)])
def test_limit_holdem_random_walks_match_the_engine(players: int, cap: int) -> None:
    game = holdem(players=players, betting="limit", stack=1000, cap=cap)
    tree = build_tree(rules_from_holdem(game))
    rng = np.random.default_rng(players)
    for _ in range(200):
        state = game.initial_state()
        node = 0
        while True:
            while state.player == CHANCE:
                outcomes = state.legal_actions()
                state = state.child(outcomes[int(rng.integers(len(outcomes)))])
            _check_node(tree, node, state, returns_uncalled=True)
            if state.player == TERMINAL:
                break
            j = int(rng.integers(int(tree.n_actions[node])))
            state = state.child(state.legal_actions()[j])
            node = int(tree.children[node, j])


def test_adapters_refuse_what_they_do_not_model() -> None:
    with pytest.raises(SpecError, match="limit betting"):
        rules_from_holdem(holdem(betting="nolimit"))
    with pytest.raises(SpecError, match="stacks above"):
        rules_from_holdem(holdem(betting="limit", stack=20))
    with pytest.raises(SpecError, match="leduc game"):
        rules_from_leduc(holdem())
    with pytest.raises(SpecError, match="at least 2 players"):
        BettingRules(1, (0,), (1,), (0,), None, (0,), (2,), (2,))


def test_no_limit_menu_has_pot_fractions_and_all_in() -> None:
    rules = BettingRules(
        n_players=2, board_cards=(0, 3, 1, 1), antes=(0, 0), blinds=(2, 1),
        stacks=(200, 200), first_actor=(1, 0, 0, 0), pot_fractions=(0.5, 1.0), max_raises=2,
    )
    tree = build_tree(rules)
    k = int(tree.n_actions[0])
    assert tree.player[0] == 1
    # fold, call, raise to 2 + 0.5*(3+1)=4, to 2 + 1*(4)=6, all-in 200
    assert tree.raise_to[0, :k].tolist() == [0, 0, 4, 6, 200]
    allin = int(tree.children[0, 4])
    assert tree.contributions[allin].tolist() == [2, 200]
    call = int(tree.children[allin, 1])
    assert tree.kind[call] == SHOWDOWN
    assert tree.contributions[call].tolist() == [200, 200]


def test_tables_past_the_memory_limit_are_refused_before_the_tree_is_built() -> None:
    game = leduc()
    with pytest.raises(GameTooLargeError, match=r"tables need .* by street \[6, 30\]") as caught:
        BlueprintTrainer(game, memory_limit=1000)
    assert caught.value.found > 1000
    assert BlueprintTrainer(game).tree.n_decisions == 36  # the default limit fits


def test_three_handed_lossless_tables_are_refused_before_the_tree_is_built() -> None:
    # The tree (1.9 GB) fits the default limit; its tables times lossless buckets do not:
    # refused from the count alone, before the tree is built.
    game = load('holdem(players=3, betting="limit", ranks=6, suits=2)')
    with pytest.raises(GameTooLargeError, match=r"by street \[90, 4412, 205962, 9501342\]"):
        BlueprintTrainer(game)
