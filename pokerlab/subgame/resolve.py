"""Subgame re-solving, safe and unsafe, on public trees.

Given a blueprint (both players' strategies over a public game) and a public node, the
subgame below that node is solved again and the result plugged back into the blueprint.

- **Unsafe** re-solving solves the subgame as if it were a game of its own, each player's
  hands dealt with the blueprint's reach of the node. It assumes the opponent plays to the
  node as the blueprint does; a best-responding opponent need not, so the full-game
  exploitability can rise (:func:`pokerlab.subgame.rps.rock_paper_scissors` shows why on
  the smallest game).
- **Safe** re-solving (the re-solving gadget of Burch, Johanson and Bowling, 2014) re-solves
  one player's strategy, ``q``: the opponent ``o`` first chooses, for each of its hands,
  to *terminate*, taking the counterfactual best-response value ``v_o(h)`` it had against
  the blueprint, or to *follow* into the subgame. At the gadget's equilibrium no hand of
  ``o`` does better in the subgame than ``v_o(h)``, so the opponent's best response to
  ``q``'s new strategy is worth no more anywhere in the full game than against the
  blueprint: re-solving never raises the exploitability.

Subgames are public games themselves (:func:`subgame`), so the same range solver solves
them, and the same vectorized evaluators measure the result exactly.

References:
    N. Burch, M. Johanson, M. Bowling, "Solving imperfect information games using
    decomposition", AAAI 2014. N. Brown, T. Sandholm, "Safe and nested subgame solving for
    imperfect-information games", NIPS 2017.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerlab._types import FloatArray
from pokerlab.errors import PokerlabError
from pokerlab.strategy import Strategy
from pokerlab.subgame.classic import from_strategy, public_game
from pokerlab.subgame.public_tree import (
    CHANCE_NODE,
    COL_BOARD,
    COL_CARD,
    DECISION,
    VALUE,
    HandSpace,
    NodeSpec,
    PublicGame,
    PublicTree,
    build_public_tree,
    make_public_game,
)
from pokerlab.subgame.range_solver import RangeSolver, evaluate_profile, root_values
from pokerlab.subgame.units import work_arrays


@dataclass(frozen=True, eq=False)
class Subgame:
    """A public game made of a subtree of another, and where its nodes came from.

    Attributes:
        game: the subgame as a public game (with the gadget's root when safe).
        nodes: the subgame's node id of each original node of the subtree.
        gadget_player: the opponent who chooses at the gadget's root (-1 without gadget).
    """

    game: PublicGame
    nodes: dict[int, int]
    gadget_player: int


@dataclass(frozen=True, eq=False)
class Resolved:
    """The blueprint with one subgame re-solved.

    Attributes:
        strategies: ``(probs0, probs1)`` over the full game, the subgame's rows replaced.
        node: the subgame's root in the full game.
        safe: whether the re-solving gadget was used.
        iterations: iterations run on each re-solving game.
        subgame_exploitability: the largest exploitability reached by a re-solving game
            (chips per hand of that game); how far from exact its solution is.
        bound: safe re-solving only: the most the full game's exploitability can have
            risen, in its chips per hand, given how exactly the gadgets were solved: the
            sum over the two gadgets of their exploitability times their total hand-pair
            weight over the full game's (0 for an exact solution).
    """

    strategies: tuple[FloatArray, FloatArray]
    node: int
    safe: bool
    iterations: int
    subgame_exploitability: float
    bound: float


def blueprint_reach(game: PublicGame, strategies: tuple[FloatArray, FloatArray],
                    node: int) -> tuple[FloatArray, FloatArray]:
    """Each player's reach of ``node`` under ``strategies``, per hand.

    The reach counts the player's range weights, its own strategy along the path, and the
    chance probability of the public cards (zero for hands that hold one).
    """
    out = []
    for q in (0, 1):
        work = work_arrays(game)
        root_values(game, 1 - q, strategies, False, work)
        out.append(work.cfreach[work.source[node], : game.n_hands[q]].copy())
    return out[0], out[1]


def best_response_values(game: PublicGame, strategies: tuple[FloatArray, FloatArray],
                         node: int, player: int) -> FloatArray:
    """``player``'s counterfactual best-response values at ``node``, per hand.

    Against the other player's rows of ``strategies``; chips weighted by the other
    player's reach (and chance's), as the passes compute them.
    """
    work = work_arrays(game)
    root_values(game, player, strategies, True, work)
    return work.cfv[node, : game.n_hands[player]].copy()


def subgame(game: PublicGame, node: int, weights: tuple[FloatArray, FloatArray], *,
            gadget: tuple[int, FloatArray] | None = None) -> Subgame:
    """The subtree of ``game`` at ``node`` as a public game with ``weights`` as the ranges.

    Args:
        game: the full game.
        node: the subtree's root.
        weights: each player's hands' weights at the root (their reach under a blueprint).
        gadget: ``(o, v)``: put the re-solving gadget above the root, where player ``o``
            chooses per hand to terminate with counterfactual value ``v[h]`` or to follow.

    Raises:
        PokerlabError: if ``node`` is not a decision or chance node.
    """
    tree = game.tree
    if tree.kind(node) not in (DECISION, CHANCE_NODE):
        raise PokerlabError(f"a subgame starts at a decision or chance node; node {node} is "
                            "terminal")
    specs: dict[int, NodeSpec] = {}
    root_spec = _copy(tree, node, specs)
    root_spec.card, root_spec.chance_factor, root_spec.label = -1, 1.0, "follow"
    values: tuple[FloatArray, FloatArray] | None = None
    hands = list(game.hands)
    for p in (0, 1):
        hands[p] = HandSpace(game.hands[p].cards, np.asarray(weights[p], dtype=np.float64),
                             game.hands[p].names)
    owner = -1
    if gadget is not None:
        owner, target = gadget
        q = 1 - owner
        mass = _compatible_mass(hands[owner], hands[q])
        with np.errstate(invalid="ignore", divide="ignore"):
            per_pair = np.where(mass > 0, target / np.where(mass > 0, mass, 1.0), 0.0)
        stop = NodeSpec(VALUE, player=owner, chips=tree.chips(node), label="terminate",
                        key="terminate", value_row=0, board=int(tree.nodes[node, COL_BOARD]))
        top = NodeSpec(DECISION, player=owner, chips=tree.chips(node), key="gadget",
                       board=int(tree.nodes[node, COL_BOARD]), children=[stop, root_spec])
        rows = [np.zeros((0, game.n_hands[0])), np.zeros((0, game.n_hands[1]))]
        rows[owner] = per_pair.reshape(1, -1)
        values = (rows[0], rows[1])
        root = top
    else:
        root = root_spec
    ids: dict[int, int] = {}
    new_tree = build_public_tree(root, ids)
    public = make_public_game(
        new_tree, (hands[0], hands[1]), game.n_cards, game.strength,
        (game.tables[0].swaps, game.tables[1].swaps), values=values, pot=game.pot,
        description=f"subgame at {tree.keys[node]!r} of {game.description}",
        source={"kind": "subgame"},
    )
    return Subgame(public, {old: ids[id(spec)] for old, spec in specs.items()}, owner)


def _copy(tree: PublicTree, node: int, specs: dict[int, NodeSpec]) -> NodeSpec:
    """NodeSpecs of the subtree at ``node`` (isomorphic entries included)."""
    kind = tree.kind(node)
    spec = NodeSpec(kind, player=tree.player(node), chips=tree.chips(node),
                    board=int(tree.nodes[node, COL_BOARD]), label=tree.labels[node],
                    card=int(tree.nodes[node, COL_CARD]),
                    chance_factor=float(tree.amounts[node, 2]), key=tree.keys[node])
    specs[node] = spec
    for child in tree.children(node):
        spec.children.append(_copy(tree, child, specs))
    start, end = int(tree.nodes[node, 7]), int(tree.nodes[node, 8])
    for child, card, swap in tree.isomorphic[max(start, 0):max(end, 0)]:
        spec.isomorphic.append((int(card), int(swap), specs[int(child)]))
    return spec


def _possible(game: PublicGame, node: int, player: int) -> FloatArray:
    """1 for the hands of ``player`` that hold no card dealt on the way to ``node``, else 0."""
    tree = game.tree
    dealt = [int(tree.nodes[n, COL_CARD]) for n in tree.path(node)
             if n > 0 and tree.kind(tree.parent(n)) == CHANCE_NODE]
    cards = game.hands[player].cards
    blocked = np.isin(cards, dealt).any(axis=1) if dealt else np.zeros(cards.shape[0], bool)
    return np.where(blocked, 0.0, 1.0)


def _compatible_mass(mine: HandSpace, theirs: HandSpace) -> FloatArray:
    """For each of ``mine``'s hands, the weight of ``theirs``' hands sharing no card."""
    shared = (mine.cards[:, None, :, None] == theirs.cards[None, :, None, :]) & (
        mine.cards[:, None, :, None] >= 0)
    compatible = ~shared.any(axis=(2, 3))
    mass: FloatArray = compatible.astype(np.float64) @ theirs.weights
    return mass


def resolve(game: PublicGame, blueprint: tuple[FloatArray, FloatArray], node: int, *,
            safe: bool = True, iterations: int = 1000, variant: str = "dcfr") -> Resolved:
    """Re-solve the subgame at ``node`` for both players and plug it into ``blueprint``.

    Safe: one gadget per player ``q`` (the other chooses to terminate or follow), each
    giving ``q``'s new rows. Unsafe: one subgame with both blueprint ranges, giving both.

    Args:
        game: the full public game.
        blueprint: ``(probs0, probs1)`` ``[rows, hands]``.
        node: the subgame's root.
        safe: use the re-solving gadget.
        iterations: iterations of the range solver on each re-solving game.
        variant: the range solver's variant.
    """
    reach = blueprint_reach(game, blueprint, node)
    strategies = (blueprint[0].copy(), blueprint[1].copy())
    worst = 0.0
    bound = 0.0
    if safe:
        for q in (0, 1):
            o = 1 - q
            values = best_response_values(game, blueprint, node, o)
            # Every hand of o that the public cards allow gets a say in the gadget (o's best
            # response may bring any of them), each weighing the same.
            weights = [_possible(game, node, 0), _possible(game, node, 1)]
            weights[q] = reach[q]
            sub = subgame(game, node, (weights[0], weights[1]), gadget=(o, values))
            solver = RangeSolver(sub.game, variant=variant).run(iterations=iterations,
                                                               check_every=iterations)
            gap = solver.last_exploitability
            worst = max(worst, gap)
            # The opponent's best response gains at most 2 * gap * Z_gadget / Z_full over the
            # blueprint's; the exploitability (the mean of two best responses) half of it.
            bound += gap * sub.game.normalizer / game.normalizer
            _plug(game, sub, solver.average_arrays(), strategies, players=(q,))
    else:
        sub = subgame(game, node, reach)
        solver = RangeSolver(sub.game, variant=variant).run(iterations=iterations,
                                                           check_every=iterations)
        worst = solver.last_exploitability
        _plug(game, sub, solver.average_arrays(), strategies, players=(0, 1))
    return Resolved((strategies[0], strategies[1]), node, safe, iterations, worst,
                    bound if safe else float("nan"))


def resolve_all(game: PublicGame, blueprint: tuple[FloatArray, FloatArray],
                nodes: list[int], *, safe: bool = True, iterations: int = 1000,
                variant: str = "dcfr") -> Resolved:
    """Re-solve several disjoint subgames, each from the blueprint, and plug them all in.

    The bounds add up (each subgame's opponent values are the blueprint's).
    """
    strategies = (blueprint[0].copy(), blueprint[1].copy())
    worst, bound = 0.0, 0.0
    for node in nodes:
        result = resolve(game, blueprint, node, safe=safe, iterations=iterations,
                         variant=variant)
        worst = max(worst, result.subgame_exploitability)
        bound += result.bound if safe else 0.0
        for p in (0, 1):
            for sub_node in _subtree(game.tree, node):
                if game.tree.kind(sub_node) == DECISION and game.tree.player(sub_node) == p:
                    row = game.tree.row(sub_node)
                    count = len(game.tree.children(sub_node))
                    strategies[p][row : row + count] = result.strategies[p][row : row + count]
    return Resolved((strategies[0], strategies[1]), -1, safe, iterations, worst,
                    bound if safe else float("nan"))


def _subtree(tree: PublicTree, node: int) -> list[int]:
    out = [node]
    for n in out:
        out.extend(tree.children(n))
    return out


@dataclass(frozen=True)
class ResolvingRow:
    """One line of :func:`leduc_resolving`: exploitabilities, chips per hand.

    Attributes:
        subgame: the round-1 betting that leads to the re-solved round 2 (``"all"``: every
            round-2 subgame re-solved at once).
        blueprint: the blueprint's exploitability.
        safe: after safe re-solving.
        safe_bound: the most safe re-solving can have added (see :class:`Resolved`).
        unsafe: after unsafe re-solving.
    """

    subgame: str
    blueprint: float
    safe: float
    safe_bound: float
    unsafe: float


def leduc_resolving(blueprint: Strategy, *, iterations: int = 2000) -> list[ResolvingRow]:
    """Re-solve Leduc's second round under ``blueprint``, safely and unsafely, and measure.

    Each round-2 subgame (the board's deal and the second round, after one round-1
    betting sequence) is re-solved on its own, then all at once; every exploitability is
    exact (the vectorized evaluators, equal to :func:`pokerlab.eval.exploitability`).

    Args:
        blueprint: a strategy of a two-player Leduc game (a coarse one shows the most).
        iterations: range-solver iterations per re-solving game.

    Example:
        >>> from pokerlab.games import leduc
        >>> from pokerlab.solvers import CFRPlus
        >>> rows = leduc_resolving(CFRPlus(leduc()).run(iterations=30).average_strategy(),
        ...                        iterations=300)
        >>> all(row.safe <= row.blueprint + row.safe_bound for row in rows)
        True
    """
    classic = public_game(blueprint.game)
    game = classic.public
    arrays = from_strategy(classic, blueprint)
    base = evaluate_profile(game, arrays).exploitability
    roots = [n for n in range(game.tree.n_nodes) if game.tree.kind(n) == CHANCE_NODE]
    rows = []
    for label, nodes in [*((game.tree.keys[n], [n]) for n in roots), ("all", roots)]:
        safe = resolve_all(game, arrays, nodes, safe=True, iterations=iterations)
        unsafe = resolve_all(game, arrays, nodes, safe=False, iterations=iterations)
        rows.append(ResolvingRow(
            subgame=label, blueprint=base,
            safe=evaluate_profile(game, safe.strategies).exploitability, safe_bound=safe.bound,
            unsafe=evaluate_profile(game, unsafe.strategies).exploitability,
        ))
    return rows


def _plug(game: PublicGame, sub: Subgame, solved: tuple[FloatArray, FloatArray],
          strategies: tuple[FloatArray, FloatArray], *, players: tuple[int, ...]) -> None:
    """Copy the subgame's rows of ``players`` into the full game's ``strategies``."""
    tree, sub_tree = game.tree, sub.game.tree
    for old, new in sub.nodes.items():
        if tree.kind(old) != DECISION or tree.player(old) not in players:
            continue
        p = tree.player(old)
        count = len(tree.children(old))
        row, sub_row = tree.row(old), sub_tree.row(new)
        strategies[p][row : row + count] = solved[p][sub_row : sub_row + count]


__all__ = [
    "Resolved",
    "ResolvingRow",
    "Subgame",
    "best_response_values",
    "blueprint_reach",
    "leduc_resolving",
    "resolve",
    "resolve_all",
    "subgame",
]
