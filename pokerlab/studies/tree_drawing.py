"""Drawings of game trees (the tutorial's Kuhn tree, a Leduc subtree) as images.

:func:`layout` walks a game's states from a root (the initial state, or the state after
given actions) to a depth limit and places every node: leaves side by side, each parent
centred above its children, depth downwards. :func:`draw_tree` renders a layout with
matplotlib: chance nodes as grey squares, P1's and P2's decisions as coloured circles,
terminals with P1's payoff; edges labelled with the action (and the chance probability);
nodes of one information set joined by a dashed line (the player cannot tell them apart).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from pokerlab.errors import PokerlabError
from pokerlab.games import Game
from pokerlab.games.base import State

MAX_NODES = 400
"""The largest drawing :func:`layout` accepts (beyond it a picture is unreadable)."""

_COLOURS = ("tab:blue", "tab:red", "tab:green", "tab:purple", "tab:orange")


@dataclass(frozen=True)
class Node:
    """One node of a drawing.

    Attributes:
        parent: the parent's index in :attr:`TreeLayout.nodes` (-1 at the root).
        depth: edges from the drawing's root.
        x: horizontal position (leaves at 0, 1, 2, ...).
        edge: the label of the edge from the parent (``"bet"``, ``"deal K 1/3"``).
        kind: ``"chance"``, ``"terminal"``, ``"cut"`` (depth limit) or ``"P1"``, ``"P2"``, ...
        label: text in the node (P1's payoff at a terminal, the infoset key at a decision).
        infoset: the acting player's infoset key (decisions only).
    """

    parent: int
    depth: int
    x: float
    edge: str
    kind: str
    label: str
    infoset: str | None


@dataclass(frozen=True)
class TreeLayout:
    """A drawing's nodes and its information-set links.

    Attributes:
        nodes: in depth-first order, the root first.
        infoset_links: pairs of node indices in the same infoset (each node linked to the
            next of its infoset, left to right).
        title: a caption.
    """

    nodes: tuple[Node, ...]
    infoset_links: tuple[tuple[int, int], ...]
    title: str


def _probability(p: float) -> str:
    fraction = Fraction(p).limit_denominator(100)
    return str(fraction) if abs(float(fraction) - p) < 1e-9 else f"{p:.3f}"


def layout(
    game: Game,
    *,
    actions: Sequence[int] = (),
    max_depth: int | None = None,
    max_nodes: int = MAX_NODES,
) -> TreeLayout:
    """Place the nodes of ``game``'s tree below the state reached by ``actions``.

    Args:
        game: any game.
        actions: action ids from the initial state to the drawing's root (chance included).
        max_depth: edges below the root to draw; deeper nodes become ``"cut"`` leaves.
        max_nodes: refuse drawings larger than this.

    Raises:
        PokerlabError: when the drawing would exceed ``max_nodes`` (say how many it reached
            and suggest ``max_depth`` or a deeper root), or ``max_depth`` is negative.
    """
    if max_depth is not None and max_depth < 0:
        raise PokerlabError(f"max_depth must be at least 0; got {max_depth}")
    root = game.initial_state().apply_sequence(list(actions))
    # (parent, depth, edge, kind, label, infoset) in depth-first order.
    rows: list[tuple[int, int, str, str, str, str | None]] = []
    stack: list[tuple[State, int, int, str]] = [(root, -1, 0, "")]
    children_of: dict[int, list[int]] = {}
    while stack:
        state, parent, depth, edge = stack.pop()
        index = len(rows)
        if index >= max_nodes:
            raise PokerlabError(
                f"the drawing of {game.spec} below {list(actions)} has more than {max_nodes} "
                "nodes; give a smaller max_depth or a deeper root (more actions)"
            )
        children_of.setdefault(parent, []).append(index)
        infoset: str | None = None
        if state.is_terminal:
            kind, label = "terminal", f"{state.returns()[0]:+g}"
        elif max_depth is not None and depth >= max_depth:
            kind, label = "cut", "..."
        elif state.is_chance:
            kind, label = "chance", ""
        else:
            infoset = state.infoset_key()
            kind, label = f"P{state.player + 1}", infoset
        rows.append((parent, depth, edge, kind, label, infoset))
        if kind in ("terminal", "cut"):
            continue
        if kind == "chance":
            outcomes = state.chance_outcomes()
            below = [
                (state.child(a), state.action_name(a).removeprefix("deal ")
                 + (f" {_probability(p)}" if len(outcomes) <= 3 else ""))
                for a, p in outcomes
            ]
        else:
            below = [(state.child(a), state.action_name(a)) for a in state.legal_actions()]
        for child, name in reversed(below):  # so the first child is drawn leftmost
            stack.append((child, index, depth + 1, name))
    # Leaves left to right in depth-first order, then parents centred above their children
    # (children always come after their parent, so a backward pass sees them first).
    xs = [0.0] * len(rows)
    next_leaf = 0.0
    for index in range(len(rows)):
        if not children_of.get(index):
            xs[index] = next_leaf
            next_leaf += 1.0
    for index in range(len(rows) - 1, -1, -1):
        kids = children_of.get(index, [])
        if kids:
            xs[index] = (xs[kids[0]] + xs[kids[-1]]) / 2
    placed = tuple(
        Node(parent=parent, depth=depth, x=xs[i], edge=edge, kind=kind, label=label,
             infoset=infoset)
        for i, (parent, depth, edge, kind, label, infoset) in enumerate(rows)
    )
    by_infoset: dict[str, list[int]] = {}
    for i, node in enumerate(placed):
        if node.infoset is not None:
            by_infoset.setdefault(node.infoset, []).append(i)
    links = tuple(
        (members[k], members[k + 1])
        for members in by_infoset.values()
        for k in range(len(members) - 1)
    )
    where = f" after {list(actions)}" if actions else ""
    return TreeLayout(nodes=placed, infoset_links=links, title=f"{game.spec}{where}")


def draw_tree(tree: TreeLayout, path: str, *, title: str | None = None) -> str:
    """Render ``tree`` (see :func:`layout`) to an image at ``path`` (png, svg or pdf)."""
    from pokerlab.studies._figures import pyplot, save_figure

    plt = pyplot()
    leaves = max(node.x for node in tree.nodes) + 1
    depth = max(node.depth for node in tree.nodes) + 1
    figure, axis = plt.subplots(figsize=(max(6.0, 0.42 * leaves), max(3.0, 1.1 * depth)))
    small = 6 if leaves > 30 else 8
    for link_a, link_b in tree.infoset_links:
        a, b = tree.nodes[link_a], tree.nodes[link_b]
        axis.plot([a.x, b.x], [-a.depth, -b.depth], linestyle="--", color="0.6", linewidth=0.8,
                  zorder=1)
    for node in tree.nodes:
        if node.parent >= 0:
            up = tree.nodes[node.parent]
            axis.plot([up.x, node.x], [-up.depth, -node.depth], color="0.3", linewidth=0.8,
                      zorder=2)
            axis.text((up.x + node.x) / 2, -(up.depth + node.depth) / 2, node.edge,
                      fontsize=small - 1, ha="center", va="center", zorder=4,
                      bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none"})
    for node in tree.nodes:
        if node.kind == "chance":
            axis.scatter([node.x], [-node.depth], marker="s", s=70, color="0.55", zorder=3)
        elif node.kind in ("terminal", "cut"):
            axis.text(node.x, -node.depth - 0.15, node.label, fontsize=small, ha="center",
                      va="top", zorder=3)
            axis.scatter([node.x], [-node.depth], marker="v", s=25, color="black", zorder=3)
        else:
            player = int(node.kind[1:]) - 1
            axis.scatter([node.x], [-node.depth], s=90, color=_COLOURS[player % len(_COLOURS)],
                         zorder=3)
            axis.text(node.x + 0.12, -node.depth + 0.12, node.label, fontsize=small - 1,
                      ha="left", va="bottom", zorder=4)
    players = sorted({n.kind for n in tree.nodes if n.kind.startswith("P")})
    handles = [plt.Line2D([], [], marker="o", linestyle="", color=_COLOURS[int(p[1:]) - 1],
                          label=p) for p in players]
    handles += [plt.Line2D([], [], marker="s", linestyle="", color="0.55", label="chance"),
                plt.Line2D([], [], linestyle="--", color="0.6", label="same infoset")]
    axis.legend(handles=handles, loc="upper right", fontsize=8)
    axis.set_title(title or tree.title)
    axis.set_axis_off()
    figure.tight_layout()
    return str(save_figure(figure, path))


__all__ = ["MAX_NODES", "Node", "TreeLayout", "draw_tree", "layout"]
