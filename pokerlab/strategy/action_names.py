"""The names play gives the legal actions of each infoset, read from a state of it.

A game names an action id once for all contexts
(:meth:`~pokerlab.games.base.Game.action_name`: Leduc's ``1`` is ``"call"``, Kuhn's ``0``
is ``"pass"``); a state names it where it is taken
(:meth:`~pokerlab.games.base.State.action_name`: ``"check"`` when no bet is faced,
``"call"`` when one is). Players, the dealer and the web see the state's names, so
strategy tables use them too: :func:`infoset_action_names` reads them at one history of
each infoset (its first, :attr:`CompiledTree.infoset_history`). Every history of an
infoset names its actions the same way, since the betting a name depends on is part of
the infoset.

States are rebuilt by one walk over the ancestors of the histories asked for (a child from
its parent, never a replay from the root per infoset): 0.08 s for the 6,888 infosets of
``leduc(stack=50, raise_cap=None)``, against 0.9 s replaying each (load 0.7, 2 cores).
Names are kept per tree, so a second call for the same rows is free.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterable

import numpy as np

from pokerlab.games.base import State
from pokerlab.tree import CompiledTree

_NAMES: weakref.WeakKeyDictionary[CompiledTree, dict[int, tuple[str, ...]]] = (
    weakref.WeakKeyDictionary()
)
"""Names found so far, per tree and infoset id; a tree's entry goes with the tree."""
_LOCK = threading.Lock()


def infoset_action_names(
    tree: CompiledTree, infosets: Iterable[int] | None = None
) -> list[tuple[str, ...]]:
    """The play names of the legal actions of ``infosets`` (default: every infoset), in order.

    Each entry holds one name per legal action, in the tree's slot order
    (``tree.infoset_actions[i, :n]``): ``("check", "bet")`` at Leduc's ``"A|"``,
    ``("fold", "call", "raise")`` at ``"A|r"``.

    Args:
        tree: the compiled game.
        infosets: infoset ids; any order, repeats allowed.
    """
    wanted = list(range(tree.n_infosets)) if infosets is None else [int(i) for i in infosets]
    with _LOCK:
        known = _NAMES.setdefault(tree, {})
        missing = sorted({i for i in wanted if i not in known})
    if missing:
        found = _names_at(tree, missing)
        with _LOCK:
            known.update(found)
    return [known[i] for i in wanted]


def _names_at(tree: CompiledTree, infosets: list[int]) -> dict[int, tuple[str, ...]]:
    """Name the actions of ``infosets`` from states built along their histories' ancestors."""
    targets = tree.infoset_history[np.asarray(infosets, dtype=np.int64)]
    needed = np.zeros(tree.n_histories, dtype=bool)
    frontier = targets
    while frontier.size:  # one step up per depth: mark every ancestor once
        frontier = frontier[~needed[frontier]]
        needed[frontier] = True
        frontier = tree.parent[frontier]
        frontier = frontier[frontier >= 0]
    states: dict[int, State] = {}
    parents = tree.parent
    actions = tree.action
    for node in np.flatnonzero(needed).tolist():  # breadth-first ids: parents come first
        parent = int(parents[node])
        states[node] = (tree.game.initial_state() if parent < 0
                        else states[parent]._apply(int(actions[node])))
    names: dict[int, tuple[str, ...]] = {}
    for infoset, node in zip(infosets, targets.tolist(), strict=True):
        state = states[node]
        n = int(tree.infoset_n_actions[infoset])
        names[infoset] = tuple(
            state.action_name(int(a)) for a in tree.infoset_actions[infoset, :n]
        )
    return names


__all__ = ["infoset_action_names"]
