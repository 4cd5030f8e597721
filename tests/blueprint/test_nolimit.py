"""No-limit blueprints: per-street bet menus in the betting tree, translation, old files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.agents.hard import HardAI
from pokerlab.blueprint.betting_tree import (
    CALL,
    DECISION,
    FOLD,
    RAISE,
    BettingRules,
    BettingTree,
    build_tree,
)
from pokerlab.blueprint.nolimit import (
    abstract_node,
    menu_text,
    raise_fraction,
    raise_translation,
    rules_for,
)
from pokerlab.errors import SpecError
from pokerlab.games import Game, load
from pokerlab.games.bet_sizes import parse_bet_menu
from pokerlab.games.betting_sequences import menu_raises
from pokerlab.games.holdem_state import HoldemState

OLD_FILE = Path(__file__).parent / "data" / "old_pot_fractions.bp"
FULL_MENU = "2.5x,a/33%,75%,a/75%,a/a"
"""The issue's example: preflop 2.5x or all-in; flop 33%, 75%, all-in; turn 75%, all-in;
river all-in."""


def formula(x: float, a: float, b: float) -> float:
    """Pseudo-harmonic: the probability of the smaller size ``a`` (Ganzfried-Sandholm)."""
    return (b - x) * (1 + a) / ((b - a) * (1 + x))


def walk(tree: BettingTree, path: list[str | int]) -> int:
    """The node after ``path``: "f", "c", or a raise to that many chips in (total)."""
    node = 0
    for step in path:
        n = int(tree.n_actions[node])
        row = [(int(tree.action_kind[node, j]), int(tree.raise_to[node, j])) for j in range(n)]
        wanted = (FOLD, 0) if step == "f" else (CALL, 0) if step == "c" else (RAISE, step)
        assert wanted in row, (path, step, row)
        node = int(tree.children[node, row.index(wanted)])
    return node


def raises(tree: BettingTree, node: int) -> list[int]:
    """The raise-to totals offered at ``node``."""
    n = int(tree.n_actions[node])
    return [int(tree.raise_to[node, j]) for j in range(n) if tree.action_kind[node, j] == RAISE]


@pytest.fixture(scope="module")
def full_tree() -> BettingTree:
    return build_tree(rules_for(load("holdem(stack=200)"), FULL_MENU))


# -- the tree's raise amounts, hand-computed (blinds 1/2: the big blind is player 0) --------


def test_preflop_multiples_of_the_bet_faced(full_tree: BettingTree) -> None:
    tree = full_tree
    assert int(tree.player[0]) == 1  # the small blind opens
    assert raises(tree, 0) == [5, 200]  # 2.5 x the big blind 2 = 5; all-in
    assert raises(tree, walk(tree, [5])) == [13, 200]  # 2.5 x 5 = 12.5, halves up: 13
    assert raises(tree, walk(tree, [5, 13])) == [33, 200]  # 2.5 x 13 = 32.5: 33
    assert raises(tree, walk(tree, [5, 13, 33])) == []  # max_raises 3 a street
    assert raises(tree, walk(tree, [200])) == []  # facing all-in: fold or call


def test_flop_and_turn_pot_fractions(full_tree: BettingTree) -> None:
    tree = full_tree
    flop = walk(tree, ["c", "c"])  # limped pot of 4; the big blind acts first
    assert int(tree.street[flop]) == 1
    assert int(tree.player[flop]) == 0
    # 33% of 4 = 1.32, below the minimum bet of 2: the minimum (4 in); 75% = 3 (5 in); all-in
    assert raises(tree, flop) == [4, 5, 200]
    # facing a bet of 2 (pot 6, 2 to call): 33% raises to 2 + 0.33 * 8 = 4.64 -> 5 (7 in),
    # 75% to 2 + 6 = 8 (10 in)
    assert raises(tree, walk(tree, ["c", "c", 4])) == [7, 10, 200]
    turn = walk(tree, ["c", "c", 4, "c"])  # pot 8
    assert int(tree.street[turn]) == 2
    assert raises(tree, turn) == [10, 200]  # 75% of 8 = 6 (4 + 6 in)
    # facing 6 (pot 14, 6 to call): 6 + 0.75 * 20 = 21 (4 + 21 in)
    assert raises(tree, walk(tree, ["c", "c", 4, "c", 10])) == [25, 200]
    river = walk(tree, ["c", "c", 4, "c", "c", "c"])
    assert int(tree.street[river]) == 3
    assert raises(tree, river) == [200]  # the river menu is all-in only


def test_multiples_postflop_dedupe_and_no_all_in_unless_asked() -> None:
    tree = build_tree(rules_for(load("holdem(stack=200)"), "3x/3x,50%/a/a"))
    assert raises(tree, 0) == [6]  # no "a" preflop: no all-in
    assert raises(tree, walk(tree, [6])) == [18]
    assert raises(tree, walk(tree, [6, 18])) == [54]
    flop = walk(tree, ["c", "c"])
    assert raises(tree, flop) == [4]  # 3x faces no bet: nothing; 50% of 4 = 2 (4 in)
    # facing 2: 3x = 6 and 50% = 2 + 0.5 * (6 + 2) = 6: one raise, to 6 (8 in)
    assert raises(tree, walk(tree, ["c", "c", 4])) == [8]
    # facing a raise to 6 (2 in, pot 12, 4 to call): 3x = 18 (20 in); 50% = 6 + 8 = 14 (16 in)
    assert raises(tree, walk(tree, ["c", "c", 4, 8])) == [16, 20]


def test_sizes_beyond_the_stack_become_all_in() -> None:
    tree = build_tree(rules_for(load("holdem(stack=20)"), "3x/a/a/a"))
    assert raises(tree, walk(tree, [6])) == [18]
    assert raises(tree, walk(tree, [6, 18])) == [20]  # 3 x 18 = 54 > 20 chips: all-in


@pytest.mark.parametrize(
    ("game_text", "menu"),
    [
        ("holdem(stack=200)", "50%,100%,a"),
        ("holdem(stack=200)", FULL_MENU),
        ("holdem(stack=(20, 35))", "3x,a/33%,2x,a/75%,a/a"),
    ],
)
def test_tree_raises_are_the_engine_menu_raises(game_text: str, menu: str) -> None:
    # One definition of a menu's amounts: at every node the tree may raise, its raises are
    # menu_raises of the engine state reached, and every tree action is legal.
    game = load(game_text)
    tree = build_tree(rules_for(game, menu))
    parsed = parse_bet_menu(menu, raise_cap=3)
    rng = np.random.default_rng(0)
    compared = 0
    for _ in range(200):
        state = game.initial_state()
        node = 0
        while True:
            while state.player == CHANCE:
                state = state.child(int(rng.choice(state.legal_actions())))
            if state.player == TERMINAL:
                assert tree.kind[node] != DECISION
                break
            assert isinstance(state, HoldemState)
            assert tree.kind[node] == DECISION
            assert state.player == int(tree.player[node])
            p = int(tree.player[node])
            before = state.contributions()[p] - state.bets[p]
            n = int(tree.n_actions[node])
            actions = []
            for j in range(n):
                kind = int(tree.action_kind[node, j])
                if kind == RAISE:
                    actions.append(state.action_for_raise_to(int(tree.raise_to[node, j] - before)))
                else:
                    actions.append(kind)
                assert actions[-1] in state.legal_actions()
            tree_raises = [r - before for r in raises(tree, node)]
            if tree_raises:
                assert tuple(tree_raises) == menu_raises(parsed, state)
                compared += 1
            j = int(rng.integers(n))
            state = state.child(actions[j])
            node = int(tree.children[node, j])
            if state.player >= 0:
                assert tuple(tree.contributions[node].tolist()) == state.contributions()
    assert compared > 300


def test_uncalled_chips_do_not_count_in_the_payoffs() -> None:
    from pokerlab.blueprint.mccfr import BlueprintTrainer

    game = load('holdem(stack=(20, 35), ranks=4, suits=2, board="1")')
    trainer = BlueprintTrainer(game, rules=rules_for(game, "100%,a"))
    tree = trainer.tree
    terminal = tree.kind != DECISION
    settled = trainer._contributions[terminal]
    assert (tree.contributions[terminal].max(axis=1) == 35).any()  # an all-in over 20
    assert settled.max() == 20


# -- translation of real bets -----------------------------------------------------------------


def test_a_real_open_between_the_multiple_and_all_in(full_tree: BettingTree) -> None:
    tree = full_tree
    # the tree's opens: to 5 = (5 - 2) / (3 + 1) = 0.75 pot; all-in = 198 / 4 = 49.5 pot
    assert raise_fraction([2, 1], 1, 5) == 0.75
    real = raise_fraction([2, 1], 1, 7)  # a real open to 7: 1.25 pot
    assert real == 1.25
    probabilities = raise_translation(tree, 0, real)
    p = formula(1.25, 0.75, 49.5)
    assert probabilities == pytest.approx({walk(tree, [5]): p, walk(tree, [200]): 1 - p})
    assert probabilities[walk(tree, [5])] > 0.5  # 7 is far nearer 5 than all-in
    assert raise_translation(tree, 0, 0.75) == {walk(tree, [5]): 1.0}  # on the menu
    assert raise_translation(tree, 0, 0.5) == {walk(tree, [5]): 1.0}  # below: the smallest
    assert raise_translation(tree, 0, 60.0) == {walk(tree, [200]): 1.0}  # above: all-in


def test_a_real_reraise_between_pot_fractions_and_a_multiple(full_tree: BettingTree) -> None:
    tree = full_tree
    node = walk(tree, ["c", "c", 4])  # flop: the big blind bet 2 (4 in), pot 6, 2 to call
    # abstract raises to 5, 8, 198 on the street: (5 - 2) / 8 = 0.375, 0.75, 24.5
    real = raise_fraction([4, 2], 1, 8)  # a real raise to 6 on the street (8 in): 0.5 pot
    assert real == 0.5
    p = formula(0.5, 0.375, 0.75)
    assert raise_translation(tree, node, real) == pytest.approx(
        {walk(tree, ["c", "c", 4, 7]): p, walk(tree, ["c", "c", 4, 10]): 1 - p}
    )
    node = walk(tree, [5])  # the big blind faces an open to 5: 2.5x offers 13 = 0.8 pot
    real = raise_fraction([2, 5], 0, 15)  # a real 3-bet to 15: 10 / 10 = 1 pot
    p = formula(1.0, 0.8, 19.5)
    assert raise_translation(tree, node, real) == pytest.approx(
        {walk(tree, [5, 13]): p, walk(tree, [5, 200]): 1 - p}
    )
    with pytest.raises(SpecError, match="offers no raise"):
        raise_translation(tree, walk(tree, [5, 13, 33]), 1.0)


def test_real_histories_walk_the_tree(full_tree: BettingTree) -> None:
    tree = full_tree
    game = load("holdem(stack=200)")
    state = game.initial_state()
    for card in (51, 50, 3, 7):
        state = state.child(card)
    assert isinstance(state, HoldemState)
    opened = state.child(state.action_for_raise_to(7))  # off the menu: 5 or all-in
    reached: dict[int, int] = {}
    for seed in range(300):
        node, real = abstract_node(tree, game, opened.history, np.random.default_rng(seed))
        assert real.history == opened.history
        reached[node] = reached.get(node, 0) + 1
    assert set(reached) == {walk(tree, [5]), walk(tree, [200])}
    share = reached[walk(tree, [5])] / 300
    assert share == pytest.approx(formula(1.25, 0.75, 49.5), abs=0.08)
    # the big blind 3-bets to 30, the small blind 4-bets to 90, the big blind 5-bets to 150:
    # each raise maps to the menu's raise or all-in; the tree allows 3 raises a street
    # (max_raises), so the 5-bet maps to a call; after an abstract all-in, to its call
    history = opened
    for amount in (30, 90, 150):
        assert isinstance(history, HoldemState)
        history = history.child(history.action_for_raise_to(amount))
    paths: list[list[str | int]] = [[5, 13, 33, "c"], [5, 13, 200, "c"], [5, 200, "c"], [200, "c"]]
    expected = {walk(tree, path) for path in paths}
    nodes = {
        abstract_node(tree, game, history.history, np.random.default_rng(seed))[0]
        for seed in range(100)
    }
    assert nodes <= expected
    assert walk(tree, [5, 13, 33, "c"]) in nodes
    assert int(tree.street[walk(tree, [5, 13, 33, "c"])]) == 1  # the flop, 33 each in


# -- old files and bad menus ------------------------------------------------------------------


def play_hands(game: Game, agent: HardAI, hands: int, rng: np.random.Generator) -> int:
    """Deal ``hands`` hands with ``agent`` in seat 0 and random actions in seat 1; its moves."""
    moves = 0
    for _ in range(hands):
        state = game.initial_state()
        while state.player != TERMINAL:
            legal = state.legal_actions()
            if state.player == 0:
                action = agent.act(state.observation())
                assert action in legal
                moves += 1
            else:
                action = legal[int(rng.integers(len(legal)))]
            state = state.child(action)
        assert sum(state.returns()) == pytest.approx(0.0)
    return moves


def test_an_old_pot_fraction_blueprint_still_loads_and_plays(tmp_path: Path) -> None:
    from pokerlab.blueprint.store import load_blueprint, read_header

    header = read_header(OLD_FILE)
    assert "bet_menu" not in header["rules"]  # written before per-street menus
    trainer, _ = load_blueprint(OLD_FILE)
    assert trainer.rules.bet_menu is None
    assert trainer.rules.pot_fractions == (0.5, 1.0)
    assert menu_text(trainer.rules) == "50%,100%,a on every street"
    # the old tree: 50% and pot raises, all-in always (stacks 12): 2 + 0.5 * 4, 2 + 4, 12
    assert raises(trainer.tree, 0) == [4, 6, 12]
    assert trainer.iterations == 2000
    assert np.abs(trainer.regrets).sum() > 0
    copy = tmp_path / "old.bp"
    shutil.copy(OLD_FILE, copy)
    hard = HardAI(trainer.game, blueprint=copy, seed=0, cache_dir=tmp_path)
    assert play_hands(trainer.game, hard, 40, np.random.default_rng(0)) > 40
    trainer.run(200)  # and training goes on from it
    assert trainer.iterations == 2200


def test_old_rules_keep_their_tree_new_menus_clip_to_the_minimum() -> None:
    game = load("holdem(stack=200)")
    new = rules_for(game, "10%,a")
    fields = {k: getattr(new, k) for k in BettingRules.__dataclass_fields__}
    old = BettingRules(**{**fields, "bet_menu": None, "pot_fractions": (0.1,)})
    # 10% of the pot after calling (4) is 0.4 chip: the old tree dropped it (below the
    # minimum raise to 4); the menu's one definition makes it the minimum raise
    assert raises(build_tree(old), 0) == [200]
    assert raises(build_tree(new), 0) == [4, 200]


@pytest.mark.parametrize(
    ("game_text", "menu", "needle"),
    [
        ("holdem(stack=200)", "33", "cannot read bet size '33'; allowed: sizes like '50%'"),
        ("holdem(stack=200)", "2.5x,a/50%", r"gives 2 lists separated by '/'; the game has 4"),
        ("holdem(stack=200)", "a/1x/a/a", "'1x' must be more than 1x"),
        ("holdem(stack=200)", "50%,50%", "repeat"),
        ('holdem(stack=40, board="1")', "a/a/a/a", r"the game has 2 streets \(preflop/flop\)"),
        ("holdem(stack=200)", "a/2x/a/a", "the flop sizes '2x' could never bet"),
        ('holdem(betting="limit")', "50%,a", "for no-limit games"),
    ],
)
def test_bad_menus_are_refused(game_text: str, menu: str, needle: str) -> None:
    with pytest.raises(SpecError, match=needle):
        rules_for(load(game_text), menu)


def test_rules_take_a_menu_or_old_fractions_not_both() -> None:
    rules = rules_for(load("holdem(stack=200)"), "50%,a")
    assert rules.bet_menu == "50%,a/50%,a/50%,a/50%,a"  # canonical: one list per street
    fields = {k: getattr(rules, k) for k in BettingRules.__dataclass_fields__}
    with pytest.raises(SpecError, match="not both"):
        BettingRules(**{**fields, "pot_fractions": (0.5,)})
    with pytest.raises(SpecError, match="cannot read bet size"):
        BettingRules(**{**fields, "bet_menu": "half"})
    limit = rules_for(load('holdem(betting="limit")'))
    with pytest.raises(SpecError, match="a bet menu is for no-limit"):
        BettingRules(**{**{k: getattr(limit, k) for k in fields}, "bet_menu": "a"})


def test_menu_text_reads_street_by_street() -> None:
    rules = rules_for(load("holdem(stack=200)"), FULL_MENU)
    assert menu_text(rules) == "preflop 2.5x,a; flop 33%,75%,a; turn 75%,a; river a"
    text = menu_text(rules_for(load("holdem(stack=200)"), "a/a//a"))
    assert text is not None
    assert text.split("; ")[2] == "turn (no raise)"
    assert menu_text(rules_for(load('holdem(betting="limit")'))) is None
    assert json.loads(json.dumps(rules.bet_menu)) == FULL_MENU


def test_files_from_before_the_one_rounding_rule_keep_their_tree() -> None:
    # A header without "rounding" was written when menus rounded halves to even: its
    # tree (the 2.5x re-raise of an open to 5 was to 12) is rebuilt as it was trained.
    from pokerlab.blueprint.store import rules_from_header

    rules = rules_for(load("holdem(stack=200)"), FULL_MENU)
    fields = {k: getattr(rules, k) for k in BettingRules.__dataclass_fields__}
    old = rules_from_header({"rules": {k: v for k, v in fields.items() if k != "rounding"}})
    assert old.rounding == "half_even"
    assert raises(build_tree(old), walk(build_tree(old), [5])) == [12, 200]
    assert raises(build_tree(rules), walk(build_tree(rules), [5])) == [13, 200]
    assert rules_from_header({"rules": fields}).rounding == "half_up"
    with pytest.raises(SpecError, match="rounding must be one of"):
        BettingRules(**{**fields, "rounding": "down"})
