"""The one enumerator: spot and blueprint trees walked node by node against the engine.

Every node of a no-limit spot tree and of a blueprint tree is replayed on a
:class:`HoldemState`: who acts, each action's legality, the chips, all-in labels and the
menu's raises. Spot amounts are also checked against ``rust_actions``, this file's own
transcription of the Rust postflop-solver's tree rules (``action_tree.rs``'s documented
behaviour: sizes, add- and force-all-in thresholds, donk bets, PioSOLVER merging), on
many random spots and options.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

import numpy as np
import pytest

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.blueprint.betting_tree import (
    DECISION as TREE_DECISION,
)
from pokerlab.blueprint.betting_tree import (
    FOLDED_OUT,
    BettingRules,
    BettingTree,
    build_tree,
    tree_size,
)
from pokerlab.blueprint.betting_tree import (
    RAISE as TREE_RAISE,
)
from pokerlab.blueprint.nolimit import rules_for
from pokerlab.cards import parse_cards
from pokerlab.errors import GameTooLargeError, SpecError
from pokerlab.games import HoldemState, holdem, load
from pokerlab.games.bet_sizes import parse_bet_menu
from pokerlab.games.betting_sequences import enumerate_betting, menu_raises
from pokerlab.games.holdem_betting import BettingNodeCache
from pokerlab.games.holdem_rules import CALL, FOLD, RAISE
from pokerlab.subgame.public_tree import CHANCE_NODE, COL_CARD, DECISION, FOLD_NODE, SHOWDOWN
from pokerlab.subgame.spot import Spot

# -- an independent transcription of the Rust solver's rules (heads-up, equal stacks) ------


def rust_round(x: float) -> int:
    return math.floor(x + 0.5)


@dataclass(frozen=True)
class RustNode:
    """The tree builder's state: chips matched before the street, each player's street
    chips, who acts, and its flags (the Rust ``BuildTreeInfo``)."""

    matched: int
    put: tuple[int, int]
    player: int
    first: bool  # the street's first action
    bets: int  # bets and raises this street
    all_in: bool  # the last bet was all-in
    oop_called: bool  # OOP's call closed the street before


def _sizes(text: str | None, street: int, player: int) -> list[str] | None:
    """The sizes of one street and player in a ``;``-grouped text (None: no text)."""
    if text is None:
        return None
    out: list[str] = []
    for group in text.split(";"):
        where, _, body = group.rpartition("=")
        parts = where.strip().split("-") if where.strip() else []
        names = {"flop": 1, "turn": 2, "river": 3}
        if any(names.get(p, street) != street for p in parts if p in names):
            continue
        if any(p in ("oop", "ip") and ("oop", "ip").index(p) != player for p in parts):
            continue
        out = [s.strip() for s in body.split(",") if s.strip()]
    return out


def rust_actions(spot: Spot, street: int, node: RustNode) -> list[tuple[str, int]]:
    """``(kind, amount)`` of each action, sorted as the enumerator orders them."""
    p, o = node.player, 1 - node.player
    stack = spot.stack - node.matched  # each player's chips at the street's start
    prev = node.put[o]
    to_call = node.put[o] - node.put[p]
    pot = spot.pot + 2 * (node.matched + node.put[o])  # the pot after a call
    max_amount = stack
    min_amount = min(max(prev + to_call, 1), max_amount)
    capped = spot.raise_cap is not None and node.bets >= spot.raise_cap
    amounts: list[int] = []
    facing = node.put[o] > node.put[p]
    out: list[tuple[str, int]] = [("fold", 0), ("call", 0)] if facing else [("check", 0)]
    if (facing and node.all_in) or capped:
        return out
    if facing:
        sizes = _sizes(spot.raises, street, p) or []
    else:
        donk = node.first and p == 0 and node.oop_called and spot.donks is not None
        sizes = (_sizes(spot.donks, street, p) if donk else _sizes(spot.bets, street, p)) or []
    for size in sizes:
        if size == "a":
            amounts.append(max_amount)
        elif size.endswith("x"):
            amounts.append(rust_round(prev * float(size[:-1])))
        else:
            amounts.append(prev + rust_round(pot * float(size[:-1]) / 100))
    if max_amount <= prev + rust_round(pot * spot.add_all_in_threshold):
        amounts.append(max_amount)
    final = set()
    for amount in amounts:
        amount = min(max(amount, min_amount), max_amount)
        new_pot = pot + 2 * (amount - prev)
        if max_amount <= amount + rust_round(new_pot * spot.force_all_in_threshold):
            amount = max_amount
        final.add(amount)
    kept = sorted(final)
    if spot.merging_threshold > 0:
        t = spot.merging_threshold
        merged: list[int] = []
        current = math.inf
        for amount in reversed(kept):
            ratio = (amount - prev) / pot
            if ratio < (current - t) / (1 + t) * (1 - 1e-12):
                merged.append(amount)
                current = ratio
        kept = sorted(merged)
    word = "raise" if facing else "bet"
    return out + [("all-in" if a == max_amount else word, a) for a in kept]


def rust_child(node: RustNode, kind: str, amount: int) -> RustNode | None:
    """The builder's state after an action within the street (None: the street ended)."""
    p, o = node.player, 1 - node.player
    if kind == "check":
        return None if p == 1 else replace(node, player=1, first=False)
    if kind in ("call", "fold"):
        return None
    put = (amount, node.put[1]) if p == 0 else (node.put[0], amount)
    return RustNode(node.matched, put, o, False, node.bets + 1, kind == "all-in",
                    node.oop_called)


# -- the spot tree, node by node ---------------------------------------------------------------


def _spot_state(spot: Spot, holes: tuple[int, ...]) -> HoldemState:
    """The engine's state at the spot's start: a 1-chip minimum bet, pot // 2 each in."""
    half = spot.pot // 2
    game = holdem(stack=half + spot.stack, blinds=(1, 1))
    board = parse_cards(spot.board)
    street = len(board) - 2
    return HoldemState(
        holdem=game, hole=holes, board=board, street=street,
        betting=((),) * (street + 1), behind=(spot.stack, spot.stack), bets=(0, 0),
        committed=(half, half), folded=(False, False), to_act=0, actors=(0, 1),
    )  # fmt: skip


def _with_holes(state: HoldemState, avoid: int) -> HoldemState:
    """The same betting with hole cards clear of ``avoid`` (a card a chance node deals)."""
    holes = tuple(c for c in range(52) if c not in state.board and c != avoid)[:4]
    return HoldemState(
        holdem=state.game, hole=holes, board=state.board, street=state.street,
        betting=state.betting, behind=state.behind, bets=state.bets,
        committed=state.committed, folded=state.folded, to_act=state.to_act,
        actors=state.actors, raise_amount=state.raise_amount, raise_count=state.raise_count,
        acted=state.acted, short_all_ins=state.short_all_ins, runout=state.runout,
    )  # fmt: skip


def _token(key: str) -> str:
    return key.rstrip("/").replace("/", "-").rsplit("-", 1)[-1]


def _move(token: str, label: str, bounds: tuple[int, int] | None) -> tuple[int, tuple[str, int]]:
    """The engine action of a spot edge, and the move as ``rust_actions`` names it."""
    if token in ("x", "c"):
        return CALL, ("check" if token == "x" else "call", 0)
    if token == "f":
        return FOLD, ("fold", 0)
    amount = int(token[1:])
    assert bounds is not None
    assert bounds[0] <= amount <= bounds[1]
    assert label.startswith("all-in") == (amount == bounds[1])
    kind = "all-in" if amount == bounds[1] else "bet" if token[0] == "b" else "raise"
    return RAISE + amount, (kind, amount)


def _after(rust: RustNode, move: tuple[str, int]) -> RustNode:
    """The Rust builder's state after ``move``; a fresh street's when the street ended."""
    nxt = rust_child(rust, *move)
    if nxt is not None:
        return nxt
    if move[0] == "call":
        return RustNode(rust.matched + rust.put[1 - rust.player], (0, 0), 0, True, 0, False,
                        rust.player == 0)
    return RustNode(rust.matched, (0, 0), 0, True, 0, False, False)


def walk_spot(spot: Spot) -> int:
    """Walk every node of the spot's tree beside the engine and the Rust rules; the count."""
    tree = spot.build().public.tree
    board = parse_cards(spot.board)
    offset = spot.pot / 2 - spot.pot // 2  # the spot's chips are pot / 2 each, not pot // 2
    holes = tuple(c for c in range(52) if c not in board)[:4]
    stack: list[tuple[int, HoldemState, RustNode, int]] = [
        (0, _spot_state(spot, holes), RustNode(0, (0, 0), 0, True, 0, False, False),
         len(board) - 2)]
    visited = 0
    while stack:
        node, state, rust, street = stack.pop()
        visited += 1
        kind = tree.kind(node)
        if kind == FOLD_NODE:  # the chips before the fold (the engine gives the bet back)
            assert tree.chips(node) == tree.chips(tree.parent(node))
            assert state.to_act == TERMINAL
            assert True in state.folded
            continue
        assert tree.chips(node) == tuple(c + offset for c in state.committed)
        if kind == SHOWDOWN:
            assert state.to_act in (TERMINAL, CHANCE)
            assert True not in state.folded
            assert len(state.board) == 5
            assert (state.to_act == TERMINAL or state.runout)
        elif kind == CHANCE_NODE:
            assert state.to_act == CHANCE
            for child in tree.children(node):
                card = int(tree.nodes[child, COL_CARD])
                dealt = _with_holes(state, card).child(card)
                stack.append((child, dealt, rust, street + 1))
        else:
            assert kind == DECISION
            assert tree.player(node) == state.to_act
            bounds = state.raise_range()
            found = []
            for child in tree.children(node):
                action, move = _move(_token(tree.keys[child]), tree.labels[child], bounds)
                assert state.is_legal(action), tree.keys[child]
                found.append(move)
                stack.append((child, state.child(action), _after(rust, move), street))
            assert (found[0] == ("fold", 0)) == (FOLD in state.legal_actions())
            assert found == rust_actions(spot, street, rust), (tree.keys[node], found)
    assert visited == tree.n_nodes  # isomorphic cards share subtrees: not children
    return visited


SMALL_SPOTS = [
    dict(board="Td9d6hQc2s", pot=100, stack=100, bets="50%, 100%", raises="2.5x"),
    dict(board="Td9d6hQc2s", pot=60, stack=250, bets="33%, 75%, a", raises="2x, 60%"),
    dict(board="AsKd7s2d", pot=60, stack=60, bets="100%", raises="a", isomorphism=False),
    dict(board="Td9d6hQc", pot=100, stack=300, bets="50%; river=75%,a", raises="3x",
         donks="25%", add_all_in_threshold=1.5, force_all_in_threshold=0.2,
         merging_threshold=0.1, isomorphism=False),
]


@pytest.mark.parametrize("fields", SMALL_SPOTS, ids=lambda f: f"{f['board']}-{f['bets']}")
def test_every_spot_node_is_the_engine_s_and_the_rust_rules(fields: dict[str, object]) -> None:
    spot = Spot(oop="AA, T9s, 87s", ip="KK, 65s, AQs", **fields)  # type: ignore[arg-type]
    assert walk_spot(spot) > 5


def test_random_spots_and_options_match_the_rust_rules() -> None:
    rng = random.Random(7)
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    sizes = ["50%", "33%, 75%", "100%, a", "25%, 150%", "10%, 20%, 30%", ""]
    raises = ["2.5x", "a", "60%", "2x, 4x", "", "50%, 3x"]
    for _ in range(40):
        spot = Spot(
            board="".join(rng.sample(deck, rng.choice([4, 5]))), oop="AA, T9s", ip="KK, 65s",
            pot=rng.choice([10, 60, 100, 37]), stack=rng.choice([7, 40, 100, 250]),
            bets=rng.choice(sizes), raises=rng.choice(raises),
            donks=rng.choice([None, None, "", "25%", "75%, a"]),
            add_all_in_threshold=rng.choice([0.0, 0.0, 0.5, 1.5]),
            force_all_in_threshold=rng.choice([0.0, 0.0, 0.1, 0.3]),
            merging_threshold=rng.choice([0.0, 0.0, 0.1, 0.3]),
            raise_cap=rng.choice([None, None, 1, 2]), isomorphism=rng.random() < 0.5,
        )  # fmt: skip
        walk_spot(spot)


def test_donk_sizes_lead_after_calling_a_bet() -> None:
    spot = Spot(board="Td9d6hQc", oop="AA, T9s", ip="KK, 65s", pot=100, stack=1000,
                bets="100%", raises="", donks="25%", isomorphism=False)
    built = spot.build()
    keys = built.node_of_key
    tree = built.public.tree

    def tokens(key: str) -> list[str]:
        return [_token(tree.keys[c]) for c in tree.children(keys[key])]

    assert tokens("") == ["x", "b100"]  # no donk on the spot's first street
    assert tokens("x-b100-c/2c/") == ["x", "b75"]  # OOP called: it leads 25% of 300
    assert tokens("b100-c/2c/") == ["x", "b300"]  # OOP bet, IP called: a bet, 100%
    assert tokens("x-x/2c/") == ["x", "b100"]  # checked through: a bet
    no_donk = Spot(**{**spot.to_dict(), "donks": ""}).build()
    node = no_donk.node_of_key["x-b100-c/2c/"]
    assert [_token(no_donk.public.tree.keys[c]) for c in no_donk.public.tree.children(node)] == [
        "x"]


def test_saved_spots_with_the_former_threshold_name_still_load() -> None:
    old = {"board": "Td9d6hQc2s", "oop": "AA", "ip": "KK", "pot": 100, "stack": 100,
           "bets": "50%", "raises": "", "allin_threshold": 1.5, "raise_cap": None,
           "isomorphism": True}
    spot = Spot.from_dict(old)
    assert spot.add_all_in_threshold == 1.5
    assert spot.to_dict()["add_all_in_threshold"] == 1.5
    assert "allin_threshold" not in spot.to_dict()
    game = load("spot(board='Td9d6hQc2s', oop='AA', ip='KK', pot=100, stack=100, bets='50%', "
                "raises='', allin_threshold=1.5)")  # a spot game's spec in an older file
    assert game.spot == Spot.from_dict({**old, "isomorphism": False})  # type: ignore[attr-defined]


# -- the blueprint tree, node by node ---------------------------------------------------------


def _deal(state: object) -> HoldemState:
    while state.player == CHANCE:  # type: ignore[attr-defined]
        state = state.child(state.legal_actions()[0])  # type: ignore[attr-defined]
    assert isinstance(state, HoldemState)
    return state


def walk_blueprint(tree: BettingTree, game_text: str, menu: str) -> int:
    """Walk every node of a no-limit blueprint tree beside the engine; the count."""
    game = load(game_text)
    parsed = parse_bet_menu(menu, names=("preflop", "flop", "turn", "river")[
        : game.rules.n_streets], raise_cap=tree.rules.max_raises)  # type: ignore[attr-defined]
    stack = [(0, _deal(game.initial_state()))]
    visited = 0
    while stack:
        node, state = stack.pop()
        visited += 1
        if state.to_act == TERMINAL:
            assert tree.kind[node] != TREE_DECISION
            assert (tree.kind[node] == FOLDED_OUT) == (state.folded.count(False) == 1)
            # the tree keeps an uncalled bet in (the kernel cuts it); the engine gave it back
            extra = tree.contributions[node] - np.array(state.committed)
            assert (extra >= 0).all()
            assert np.count_nonzero(extra) <= 1
            if extra.any():
                assert int(np.argmax(extra)) == int(np.argmax(tree.contributions[node]))
            continue
        assert tree.kind[node] == TREE_DECISION
        assert tree.player[node] == state.to_act
        assert tree.contributions[node].tolist() == list(state.committed)
        p = state.to_act
        before = state.committed[p] - state.bets[p]
        n = int(tree.n_actions[node])
        raises = []
        for j in range(n):
            kind = int(tree.action_kind[node, j])
            action = kind if kind != TREE_RAISE else RAISE + int(tree.raise_to[node, j]) - before
            assert state.is_legal(action)
            if kind == TREE_RAISE:
                raises.append(action - RAISE)
            stack.append((int(tree.children[node, j]), _deal(state.child(action))))
        assert tuple(raises) == menu_raises(parsed, state)
        assert (FOLD in state.legal_actions()) == (int(tree.action_kind[node, 0]) == FOLD)
    assert visited == tree.n_nodes
    return visited


@pytest.mark.parametrize(
    ("game_text", "menu"),
    [("holdem(stack=30)", "50%,100%,a"), ("holdem(stack=(20, 35))", "3x,a/33%,2x,a/75%,a/a"),
     ('holdem(players=3, stack=(20, 35, 50), board="3")', "50%,a"),
     ("holdem(players=4, stack=(30, 60, 90, 120))", "a"),
     ('holdem(players=6, stack=100, board="3")', "a")],
)
def test_every_blueprint_node_is_the_engine_s(game_text: str, menu: str) -> None:
    tree = build_tree(rules_for(load(game_text), menu))
    assert walk_blueprint(tree, game_text, menu) > 100


def test_both_trees_come_from_the_one_enumerator() -> None:
    # The spot's situations are the enumerator's on a spot's engine rules; the blueprint's
    # on the game's: the same function, the same sizing object type.
    spot = Spot(board="Td9d6hQc2s", oop="AA", ip="KK", pot=100, stack=100, bets="100%",
                raises="a")
    cache = BettingNodeCache(spot.engine_rules(), budget=0)
    again = enumerate_betting(cache.street_start(3, (50, 50), (100, 100)), spot.menu)
    assert again == spot.graph
    with pytest.raises(SpecError, match="needs bet sizes"):
        enumerate_betting(cache.street_start(3, (50, 50), (100, 100)), None)


# -- size: any tree the memory allows -----------------------------------------------------------


def test_three_handed_limit_tree_is_counted_and_allowed() -> None:
    rules = rules_for(load('holdem(players=3, betting="limit", ranks=6, suits=2)'))
    size = tree_size(rules)
    assert (size.n_nodes, size.n_decisions, size.max_actions) == (23_937_308, 9_711_806, 3)
    assert size.decisions_by_street == (90, 4_412, 205_962, 9_501_342)
    assert sum(size.decisions_by_street) == size.n_decisions
    assert size.bytes < 4 * 1024**3  # under the default limit: built (formerly refused)
    with pytest.raises(GameTooLargeError, match=r"23,937,308 nodes .* over the memory limit"):
        build_tree(rules, memory_limit=10**9)


def test_a_tree_is_refused_only_past_the_memory_limit() -> None:
    rules = rules_for(load("holdem(stack=200)"), "50%,100%,a")
    size = tree_size(rules)
    assert build_tree(rules, memory_limit=size.bytes).n_nodes == size.n_nodes
    with pytest.raises(GameTooLargeError, match="POKERLAB_MEMORY_LIMIT") as caught:
        build_tree(rules, memory_limit=size.bytes - 1)
    assert caught.value.found == size.bytes


def test_rules_must_be_readable() -> None:
    rules = rules_for(load("holdem(stack=200)"), "50%,a")
    fields = {k: getattr(rules, k) for k in BettingRules.__dataclass_fields__}
    with pytest.raises(SpecError, match="cannot read bet size"):
        BettingRules(**{**fields, "bet_menu": "50%,half"})
