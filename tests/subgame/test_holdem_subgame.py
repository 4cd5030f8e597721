"""Hold'em subgames at a real table state play by the engine's rules.

Every checked node of a subgame built by :func:`build_subgame` is replayed on the engine
(:class:`~pokerlab.games.holdem_state.HoldemState`) from the same table state: who acts,
the actions offered (legal, the hand's own action included), the chips each player has
in, the cards dealt, and what folds and showdowns pay.
"""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.errors import SpecError
from pokerlab.games import betting_sequences as sequences
from pokerlab.games import load
from pokerlab.games.bet_sizes import parse_bet_menu
from pokerlab.games.betting_sequences import enumerate_betting, node_actions
from pokerlab.games.holdem_betting import BettingNode
from pokerlab.games.holdem_rules import CALL, FOLD, RAISE
from pokerlab.games.holdem_state import HoldemState
from pokerlab.subgame.holdem_subgame import (
    Event,
    build_subgame,
    combo_index,
    hole_combos,
    sample_runouts,
)
from pokerlab.subgame.public_tree import CHANCE_NODE, DECISION, FOLD_NODE, SHOWDOWN


def _menu(node: BettingNode, events: tuple[Event, ...]) -> list[int]:
    """Fold, call, a pot-sized raise and all-in (no-limit); every legal action in limit."""
    legal = node.legal_actions()
    if not node.cache.no_limit:
        return list(legal)
    out = [a for a in (FOLD, CALL) if a in legal]
    bounds = node.raise_bounds()
    if bounds is not None:
        pot = sum(node.committed)
        to_call = max(node.bets) - node.bets[node.to_act]
        pot_raise = max(node.bets) + pot + to_call
        out += sorted({RAISE + min(max(pot_raise, bounds[0]), bounds[1]), RAISE + bounds[1]})
    return out


def _table_state(game_text: str, seed: int, street: int) -> tuple[HoldemState, list[int]]:
    """A hand dealt at random and played (calls, some bets) to the start of ``street``."""
    game = load(game_text)
    rng = np.random.default_rng(seed)
    state = game.initial_state()
    history: list[int] = []
    while True:
        assert isinstance(state, HoldemState)
        if state.to_act == CHANCE:
            if state.n_dealt >= 2 * game.rules.hole_size and state.street >= street:  # type: ignore[attr-defined]
                break
            outcomes = state.chance_outcomes()
            action = outcomes[int(rng.integers(len(outcomes)))][0]
        elif state.street >= street and state.to_act >= 0 and state.bets == (0, 0):
            break
        else:
            legal = [a for a in state.legal_actions() if a != FOLD]
            bounds = state.raise_range()
            if bounds is not None and rng.random() < 0.3 and state.street < street:
                amount = int(rng.integers(bounds[0], (bounds[0] + bounds[1]) // 2 + 1))
                action = state.action_for_raise_to(amount)
            else:
                action = CALL if CALL in legal else legal[0]
        history.append(action)
        state = state.child(action)
    while state.to_act == CHANCE:  # deal the street's cards
        outcomes = state.chance_outcomes()
        action = outcomes[int(rng.integers(len(outcomes)))][0]
        history.append(action)
        state = state.child(action)
    assert isinstance(state, HoldemState)
    assert state.to_act >= 0
    return state, history


def _with_hands(game_text: str, history: list[int], hands: tuple[tuple[int, ...], ...],
                events: tuple[Event, ...]) -> HoldemState:
    """The hand replayed with ``hands`` as hole cards (player 0's, player 1's)."""
    game = load(game_text)
    state = game.initial_state()
    holes = game.rules.hole_size  # type: ignore[attr-defined]
    dealt = [hands[k % 2][k // 2] for k in range(2 * holes)]
    for action in [*dealt, *history[2 * holes:], *(v for _, v in events)]:
        state = state.child(action)
    assert isinstance(state, HoldemState)
    return state


def _two_hands(combos: np.ndarray, free: list[int], rng: np.random.Generator
               ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Two hole-card combos among ``free`` that share no card."""
    while True:
        a, b = rng.choice(free, size=2, replace=False).tolist()
        if not set(combos[a].tolist()) & set(combos[b].tolist()):
            return tuple(combos[a].tolist()), tuple(combos[b].tolist())


def _check_against_engine(game_text: str, root: HoldemState, history: list[int],
                          path: tuple[Event, ...], depth: str, seed: int) -> int:
    rules = root.game.rules
    board = tuple(int(c) for c in root.board)
    n_combos = len(hole_combos(rules))
    weights = (np.ones(n_combos), np.ones(n_combos))
    runouts = sample_runouts(rules, board, 6, np.random.default_rng(seed)) \
        if depth == "street" else ()
    sub = build_subgame(rules, root.betting_node, board, weights, _menu, path=path,
                        depth=depth, runouts=runouts)
    tree = sub.public.tree
    assert sub.node_of(path) is not None  # the hand's own (off-menu) actions are in the tree
    rng = np.random.default_rng(seed)
    nodes = rng.choice(tree.n_nodes, size=min(tree.n_nodes, 400), replace=False)
    combos = hole_combos(rules)
    checked = 0
    leaves = set(sub.leaves)
    for n in nodes.tolist():
        events = sub.events[n]
        above = [p for p in tree.path(n)[:-1] if p in leaves]
        if above:  # a sampled runout below a leaf: the pot as it stood, checked down
            assert tree.chips(n) == tree.chips(above[0])
            assert sub.board_of(n)[: len(sub.board_of(above[0]))] == sub.board_of(above[0])
            assert any(r[: len(sub.board_of(n))] == sub.board_of(n) for r in runouts)
            continue
        node_board = set(sub.board_of(n))
        free = [i for i in range(len(combos)) if not set(combos[i].tolist()) & node_board]
        hands = _two_hands(combos, free, rng)
        state = _with_hands(game_text, history, hands, events)
        kind = tree.kind(n)
        assert sub.board_of(n) == tuple(int(c) for c in state.board)
        if n in sub.leaves:  # the rest of the hand valued over sampled runouts
            assert state.to_act == CHANCE
            assert tree.chips(n) == state.contributions()
            continue
        if kind == DECISION:
            assert tree.player(n) == state.to_act
            assert tree.chips(n) == state.contributions()
            legal = state.legal_actions()
            offered = sub.actions[n]
            assert set(offered) <= set(legal)
            assert len(set(offered)) == len(offered)
            if not rules.no_limit:
                assert offered == legal
            assert [sub.events[c][-1] for c in tree.children(n)] == [("a", a) for a in offered]
        elif kind == CHANCE_NODE:
            assert state.to_act == CHANCE
            dealt = {sub.events[c][-1][1] for c in tree.children(n)}
            undealt = {a for a, _ in state.chance_outcomes()} | set(hands[0]) | set(hands[1])
            assert dealt == undealt - set(board)  # every card the board leaves
        elif kind in (FOLD_NODE, SHOWDOWN):
            assert state.to_act == TERMINAL
            real = state.returns()
            chips = tree.chips(n)
            if kind == FOLD_NODE:
                folder = tree.player(n)
                assert real[folder] == -chips[folder]
            else:
                stake = min(chips)
                assert abs(real[0]) in (0.0, stake)
                assert real[0] == -real[1]
        checked += 1
    return checked


@pytest.mark.parametrize(
    ("game_text", "street", "depth"),
    [
        ("holdem(stack=200)", 3, "end"),  # a river spot
        ("holdem(stack=200)", 2, "end"),  # a turn spot to the end of the hand
        ("holdem(stack=200)", 1, "street"),  # a flop spot, depth-limited
        ('holdem(betting="limit")', 3, "end"),
        ('holdem(betting="limit", ranks=4, suits=2, hole=1, board="1,1", seat_blinds=(1, 1), '
         'raises="2,4,4", caps="2,2,2", first="0,0,0", stack=100)', 1, "end"),
    ],
)
@pytest.mark.parametrize("seed", [0, 1])
def test_subgame_nodes_match_the_engine(game_text: str, street: int, depth: str,
                                        seed: int) -> None:
    root, history = _table_state(game_text, seed, street)
    path: tuple[Event, ...] = ()
    bounds = root.raise_range()
    if bounds is not None and root.game.no_limit and bounds[1] > bounds[0] + 3:
        odd = bounds[0] + 3  # a bet no menu offers, as the hand made it
        path = (("a", RAISE + odd),)
    checked = _check_against_engine(game_text, root, history, path, depth, seed)
    assert checked >= 10


PUBLIC_KIND = {
    sequences.DECISION: DECISION,
    sequences.FOLDED_OUT: FOLD_NODE,
    sequences.SHOWDOWN: SHOWDOWN,
    sequences.DEAL: CHANCE_NODE,
    sequences.RUNOUT: CHANCE_NODE,
}
"""The public node each kind of the enumerator's situations is laid out as."""


@pytest.mark.parametrize(
    ("game_text", "street", "depth", "sizes"),
    [
        ("holdem(stack=200)", 3, "end", ("50%,100%,a",)),  # a river
        ("holdem(stack=40)", 2, "end", ("75%", "2.5x")),  # a turn, its all-ins run out
        ("holdem(stack=200)", 1, "street", ("50%,100%,a",)),  # a flop to its leaves
        ('holdem(betting="limit")', 2, "end", None),
    ],
)
def test_the_subgames_betting_is_the_enumerators(monkeypatch: pytest.MonkeyPatch,
                                                 game_text: str, street: int, depth: str,
                                                 sizes: tuple[str, ...] | None) -> None:
    """Every decision of a subgame, and of the merged graph, is the enumerator's one step;
    with a menu that ignores the path, the subgame's betting is the graph's under every
    card dealt."""
    root, _ = _table_state(game_text, 0, street)
    rules = root.game.rules
    board = tuple(int(c) for c in root.board)
    sizing = parse_bet_menu(*sizes) if sizes is not None else None
    steps: dict[tuple[Event, ...], list[sequences.Step]] = {}  # the subgame's, by events
    merged_steps: list[list[sequences.Step]] = []  # the graph's
    step = sequences.decision_steps
    offer = sequences.offered_actions
    where: list[tuple[Event, ...]] = []

    def offered_spy(node: BettingNode, offered: list[int], **options: object
                    ) -> tuple[int, ...]:
        where.append(options["where"])  # type: ignore[arg-type]
        return offer(node, offered, **options)  # type: ignore[arg-type]

    def step_spy(node: BettingNode, actions: tuple[int, ...]) -> list[sequences.Step]:
        found = step(node, actions)
        if where:  # the subgame offered these actions at the events it named
            steps[where.pop()] = found
        else:
            merged_steps.append(found)
        return found

    monkeypatch.setattr(sequences, "offered_actions", offered_spy)
    monkeypatch.setattr(sequences, "decision_steps", step_spy)
    ones = np.ones(len(hole_combos(rules)))
    runouts = sample_runouts(rules, board, 3, np.random.default_rng(0)) \
        if depth == "street" else ()
    sub = build_subgame(rules, root.betting_node, board, (ones, ones),
                        lambda node, events: node_actions(node, sizing), depth=depth,
                        runouts=runouts)
    tree = sub.public.tree
    decisions = [n for n in range(tree.n_nodes) if tree.kind(n) == DECISION]
    assert set(steps) == {sub.events[n] for n in decisions}  # one step per decision
    for n in decisions:
        taken = steps[sub.events[n]]
        assert sub.actions[n] == tuple(action for action, _, _ in taken)
        for child, (_, kind, node) in zip(tree.children(n), taken, strict=True):
            assert tree.kind(child) == PUBLIC_KIND[kind]
            if kind == sequences.DECISION:
                assert sub.betting[child] is node

    graph = enumerate_betting(root.betting_node, sizing)
    assert len(merged_steps) == graph.kind.count(sequences.DECISION)
    leaves = set(sub.leaves)
    walked = 0

    def next_decisions(chance: int) -> list[int]:
        out: list[int] = []
        for child in tree.children(chance):
            out += next_decisions(child) if tree.kind(child) == CHANCE_NODE else [child]
        return out

    def walk(n: int, situation: int) -> None:
        nonlocal walked
        walked += 1
        assert graph.kind[situation] == sequences.DECISION
        assert tree.player(n) == graph.player[situation]
        assert tree.chips(n) == tuple(float(c) for c in graph.committed[situation])
        assert sub.actions[n] == graph.actions[situation]
        for child, after in zip(tree.children(n), graph.children[situation], strict=True):
            kind = graph.kind[after]
            assert tree.kind(child) == PUBLIC_KIND[kind]
            if kind == sequences.DECISION:
                walk(child, after)
            elif kind == sequences.DEAL and child not in leaves:
                for below in next_decisions(child):  # the next street, under every card
                    walk(below, graph.children[after][0])

    walk(0, graph.root)
    assert walked == len(decisions)


def test_ranges_leave_out_hands_touching_the_board_or_of_no_weight() -> None:
    root, _ = _table_state("holdem(stack=200)", 3, 3)
    rules = root.game.rules
    board = tuple(int(c) for c in root.board)
    index = combo_index(rules)
    weights = np.ones(len(hole_combos(rules)))
    zero = next(i for pair, i in index.items() if not set(pair) & set(board))
    weights[zero] = 0.0
    sub = build_subgame(rules, root.betting_node, board, (weights, np.ones_like(weights)), _menu)
    assert sub.public.n_hands == (1326 - 1 - 47 * 5 - 10, 1326 - 47 * 5 - 10)
    assert zero not in sub.hand_ids[0].tolist()
    assert zero in sub.hand_ids[1].tolist()
    full = sub.full_vector(0, np.arange(sub.public.n_hands[0], dtype=float), fill=-1.0)
    assert full[zero] == -1.0
    assert full[sub.hand_ids[0][5]] == 5.0


def test_bad_subgames_are_refused_with_what_is_wrong() -> None:
    root, _ = _table_state("holdem(stack=200)", 0, 2)
    rules = root.game.rules
    board = tuple(int(c) for c in root.board)
    ones = np.ones(len(hole_combos(rules)))
    with pytest.raises(SpecError, match="depth must be one of street, end"):
        build_subgame(rules, root.betting_node, board, (ones, ones), _menu, depth="deep")
    with pytest.raises(SpecError, match="needs sampled runouts"):
        build_subgame(rules, root.betting_node, board, (ones, ones), _menu, depth="street")
    with pytest.raises(SpecError, match="must have 1326 weights"):
        build_subgame(rules, root.betting_node, board, (ones[:5], ones), _menu)
    with pytest.raises(SpecError, match="does not follow the betting"):
        build_subgame(rules, root.betting_node, board, (ones, ones), _menu,
                      path=(("a", RAISE + 10**6),))
