"""The public tree: what every player sees, with one vector over private hands per node.

A two-player game with private cards factors into a *public tree* (the betting and the
public cards, which both players see) times the players' private hands. The range solver
keeps, at every public node, a vector over each player's hands: the opponent's reach going
down, the updating player's counterfactual values coming up, and regrets and strategies
``[actions, hands]`` at decision nodes. That is how DeepStack-style and commercial postflop
solvers work, and it is what makes Hold'em spots solvable at all.

This module holds the data, game by game the same shape:

- :class:`PublicTree`: flat arrays over public nodes in parent-first order (children
  contiguous, parents before children): the kind of node (decision, chance, fold,
  showdown), who acts or folded, each player's chips in, the board at the node, the card a
  chance edge deals, and for chance nodes the isomorphic cards that reuse a representative
  child (suit isomorphism);
- :class:`HandSpace`: one player's private hands: their cards (for card removal), their
  initial weights, their names;
- :class:`PublicGame`: a tree, both players' hands, each hand's showdown strength on each
  board, and the tables derived from them (:class:`HandTables`: hands sorted by strength,
  grouped by card, and cut positions) that settle a fold or a showdown in ``O(hands)``
  with card removal.

Game-specific code (Kuhn, Leduc, Hold'em spots) only builds a :class:`PublicGame`, through
:class:`NodeSpec` and :func:`build_public_tree`; the solver sees nothing else.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise
from typing import Any, overload

import numpy as np
from numpy.typing import NDArray

from pokerlab._types import FloatArray, IntArray
from pokerlab.errors import PokerlabError, SpecError
from pokerlab.subgame._showdown_kernels import showdown_tables

DECISION = 0
"""A node where a player acts."""
CHANCE_NODE = 1
"""A node where a public card is dealt."""
FOLD_NODE = 2
"""A terminal node: a player folded."""
SHOWDOWN = 3
"""A terminal node: the hands are compared."""
VALUE = 4
"""A terminal node whose payoff is a given value per hand of its owner (``player``): the
owner's hand ``h`` wins ``values[row, h]`` from every compatible hand of the other player
(the re-solving gadget's "terminate" action)."""

KIND_NAMES = ("decision", "chance", "fold", "showdown", "value")

UIntArray = NDArray[np.uint64]

# Columns of PublicTree.nodes
COL_KIND, COL_PLAYER, COL_FIRST, COL_COUNT, COL_BOARD, COL_CARD, COL_ROW = range(7)
COL_ISO_START, COL_ISO_END, COL_PARENT = 7, 8, 9
N_INT_COLUMNS = 10
# Columns of PublicTree.amounts
COL_CHIPS_0, COL_CHIPS_1, COL_FACTOR = 0, 1, 2

class NodeKeys(Sequence[str]):
    """The nodes' keys packed in one buffer: their UTF-8 bytes end to end and the offsets.

    A tuple of a million short strings takes about 90 MB on a flop spot, and the strings,
    made among the node objects while the tree is built, keep the interpreter's memory
    pools from going back to the system once those objects are gone; packed, they take
    a third of that and leave no pool behind. Read like a tuple: ``keys[n]``,
    ``len(keys)``, iteration.
    """

    __slots__ = ("_blob", "_offsets")

    def __init__(self, keys: Iterable[str]) -> None:
        encoded = [key.encode() for key in keys]
        lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
        self._offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
        np.cumsum(lengths, out=self._offsets[1:])
        self._blob = b"".join(encoded)

    def __len__(self) -> int:
        return int(self._offsets.shape[0]) - 1

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...
    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        size = len(self)
        i = int(index) + size if index < 0 else int(index)
        if not 0 <= i < size:
            raise IndexError(f"node key {index} out of range for {size} nodes")
        return self._blob[self._offsets[i] : self._offsets[i + 1]].decode()

    def __iter__(self) -> Iterator[str]:
        blob, offsets = self._blob, self._offsets.tolist()
        for start, stop in pairwise(offsets):
            yield blob[start:stop].decode()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, NodeKeys):
            return self._blob == other._blob and np.array_equal(self._offsets, other._offsets)
        if isinstance(other, str | bytes) or not isinstance(other, Sequence):
            return False  # a string is a sequence too, but not of keys
        return tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]  # equal to tuples: no hash to agree with

    def __repr__(self) -> str:
        return f"NodeKeys({len(self):,} keys)"


MIN_PAIR_WEIGHT = 1e-250
"""The least total weight of the compatible hand pairs a public game accepts (values are
divided by it; below this, products of tiny weights underflow)."""


@dataclass(eq=False)
class NodeSpec:
    """A public node while a tree is being built (games build these, then flatten them).

    Attributes:
        kind: DECISION, CHANCE_NODE, FOLD_NODE or SHOWDOWN.
        player: the player to act (DECISION) or who folded (FOLD_NODE); -1 otherwise.
        chips: chips each player has put in, in total (what a fold loses, what a showdown
            is played for).
        board: index of the board (the public cards out) in the game's showdown tables.
        label: the name of the edge into this node (``"check"``, ``"bet 100"``, ``"7c"``).
        card: the card dealt on the edge into this node by a chance parent, else -1.
        chance_factor: the probability of that card given both players' hands (1 for
            player edges).
        children: the child nodes, in action order.
        isomorphic: at a chance node, ``(card, swap, child)`` for each card left out of
            ``children`` because the suit transposition ``swap`` maps it onto ``child``'s card.
        key: a readable name of the public history (used in infoset keys and files).
        value_row: at a VALUE node, its row in the owner's ``HandTables.values``.
    """

    kind: int
    player: int = -1
    chips: tuple[float, float] = (0.0, 0.0)
    board: int = 0
    label: str = ""
    card: int = -1
    chance_factor: float = 1.0
    children: list[NodeSpec] = field(default_factory=list)
    isomorphic: list[tuple[int, int, NodeSpec]] = field(default_factory=list)
    key: str = ""
    value_row: int = -1


@dataclass(frozen=True, eq=False)
class PublicTree:
    """A public tree as flat arrays: node 0 is the root, parents come before children.

    Siblings are contiguous; a subtree's nodes lie close together (see
    :func:`build_public_tree`).

    Attributes:
        nodes: ``[N, 10]`` int columns: kind, player (acting or folding, else -1), first
            child, number of children, board index, card dealt on the edge in (-1), first
            row of the node's actions in its player's regret arrays (-1), isomorphic
            entries start and end (chance nodes), parent (-1 at the root).
        amounts: ``[N, 3]`` float columns: chips in by player 0, by player 1, and the
            chance probability of the edge in (1 for player edges).
        isomorphic: ``[K, 3]`` int: representative child, card, suit transposition id.
        labels: ``[N]`` the name of the edge into each node.
        keys: ``[N]`` a readable name of each node's public history (a tuple, or the same
            packed: :class:`NodeKeys`).
        n_rows: rows (node-action pairs) of each player's regret arrays.
    """

    nodes: IntArray
    amounts: FloatArray
    isomorphic: IntArray
    labels: tuple[str, ...]
    keys: Sequence[str]
    n_rows: tuple[int, int]

    @property
    def n_nodes(self) -> int:
        """Number of public nodes."""
        return int(self.nodes.shape[0])

    @cached_property
    def chance_units(self) -> tuple[IntArray, int]:
        """Each node's *unit* (-1 above every chance node) and the number of units.

        A unit is the subtree below one card of a chance node that has no chance node
        above it: the first chance nodes split the tree into units that share nothing
        (:mod:`pokerlab.subgame.units` runs them on threads, in scratch rows).
        """
        parent = self.nodes[:, COL_PARENT].tolist()
        kind = self.nodes[:, COL_KIND].tolist()
        unit = [-1] * len(parent)
        count = 0
        for node in range(1, len(parent)):
            above = unit[parent[node]]
            if above >= 0:
                unit[node] = above
            elif kind[parent[node]] == CHANCE_NODE:
                unit[node] = count
                count += 1
        array = np.array(unit, dtype=np.int64)
        array.setflags(write=False)
        return array, count

    def work_rows(self, areas: int = 1) -> int:
        """Rows of the solver's reach and value arrays on ``areas`` threads.

        One per node above the units and per unit root, and per thread the largest unit
        less its root (:mod:`pokerlab.subgame.units`, "layout").
        """
        unit, count = self.chance_units
        sizes = np.bincount(unit[unit >= 0], minlength=count)
        top = int(np.count_nonzero(unit < 0))
        span = max(0, int(sizes.max(initial=1)) - 1)
        return top + count + max(1, areas) * span

    def kind(self, node: int) -> int:
        """The kind of ``node`` (DECISION, CHANCE_NODE, FOLD_NODE, SHOWDOWN)."""
        return int(self.nodes[node, COL_KIND])

    def player(self, node: int) -> int:
        """The player acting at (or who folded into) ``node``; -1 otherwise."""
        return int(self.nodes[node, COL_PLAYER])

    def children(self, node: int) -> range:
        """The ids of ``node``'s children (contiguous)."""
        first = int(self.nodes[node, COL_FIRST])
        return range(first, first + int(self.nodes[node, COL_COUNT]))

    def parent(self, node: int) -> int:
        """The parent of ``node`` (-1 at the root)."""
        return int(self.nodes[node, COL_PARENT])

    def row(self, node: int) -> int:
        """The first row of ``node``'s actions in its player's arrays (-1 off decisions)."""
        return int(self.nodes[node, COL_ROW])

    def chips(self, node: int) -> tuple[float, float]:
        """Chips each player has put in at ``node``."""
        return float(self.amounts[node, COL_CHIPS_0]), float(self.amounts[node, COL_CHIPS_1])

    def decision_nodes(self, player: int) -> IntArray:
        """The decision nodes of ``player``, in id order."""
        mask = (self.nodes[:, COL_KIND] == DECISION) & (self.nodes[:, COL_PLAYER] == player)
        return np.flatnonzero(mask)

    def path(self, node: int) -> list[int]:
        """The nodes from the root to ``node``, both included."""
        out = [node]
        while out[-1] > 0:
            out.append(self.parent(out[-1]))
        return out[::-1]

    @property
    def max_depth(self) -> int:
        """The largest depth of a node (the root has depth 0)."""
        depth = np.zeros(self.n_nodes, dtype=np.int64)
        parents = self.nodes[:, COL_PARENT]
        for n in range(1, self.n_nodes):  # parents come first
            depth[n] = depth[parents[n]] + 1
        return int(depth.max()) if self.n_nodes else 0

    @property
    def max_actions(self) -> int:
        """The largest number of children of a decision node."""
        decisions = self.nodes[:, COL_KIND] == DECISION
        return int(self.nodes[decisions, COL_COUNT].max()) if decisions.any() else 1


BYTES_PER_ENTRY = 8
"""float64 storage of regrets, strategy sums and work vectors (4 with float32 storage)."""


@dataclass(frozen=True, eq=False)
class HandSpace:
    """One player's private hands.

    Attributes:
        cards: ``[H, 2]`` the cards of each hand (for card removal); -1 pads one-card hands.
        weights: ``[H]`` each hand's initial weight (a range weight; 1 for a dealt card).
        names: ``[H]`` each hand's name (``"K"``, ``"AsKs"``).
    """

    cards: IntArray
    weights: FloatArray
    names: tuple[str, ...]

    @property
    def n_hands(self) -> int:
        """Number of hands."""
        return int(self.cards.shape[0])


@dataclass(frozen=True, eq=False)
class HandTables:
    """One player's arrays for the compiled passes (see :mod:`pokerlab.subgame._kernels`).

    Attributes:
        cards: ``[H, 2]`` the hands' cards (-1 pads one-card hands).
        weights: ``[H]`` initial weights.
        same: ``[H]`` the identical hand of the other player, or -1.
        fold_cards: ``[H, 2]`` the cards with -1 mapped to the spare slot ``n_cards``.
        fold_entries: ``[2H]`` hand indices grouped by card.
        fold_offsets: ``[n_cards + 1]`` where each card's hands start in ``fold_entries``.
        order: ``[B, H]`` per board, the hands off the board, weakest first.
        n_valid: ``[B]`` per board, how many hands are off it.
        entries: ``[B, 2H]`` per board, the hands off the board grouped by card, weakest
            first within a card.
        offsets: ``[B, n_cards + 1]`` per board, where each card's hands start.
        cuts: ``[B, H, 8]`` per board and sorted hand, against the other player's sorted
            hands: the prefix cut below (strictly weaker) and above (weaker or tied), then
            the per-card prefix indices of its two cards at the lower cut, at the upper
            cut, and at the end.
        swaps: ``[S, H]`` each hand's image under each suit transposition.
        values: ``[K, H]`` the payoffs of the player's hands at the value nodes it owns.

    Index arrays read in the hot loops are unsigned (numba then skips the negative-index
    check on every read) and padded with 0 past their counts (never read).
    """

    cards: IntArray
    weights: FloatArray
    same: IntArray
    fold_cards: UIntArray
    fold_entries: UIntArray
    fold_offsets: IntArray
    order: UIntArray
    n_valid: IntArray
    entries: UIntArray
    offsets: IntArray
    cuts: UIntArray
    swaps: IntArray
    values: FloatArray

    def as_tuple(self) -> tuple[Any, ...]:
        """The arrays in the order the kernels index them (built once)."""
        return self._tuple

    @cached_property
    def _tuple(self) -> tuple[Any, ...]:
        return (self.cards, self.weights, self.same, self.fold_cards, self.fold_entries,
                self.fold_offsets, self.order, self.n_valid, self.entries, self.offsets,
                self.cuts, self.swaps, self.values)

    @property
    def nbytes(self) -> int:
        """Bytes of the arrays."""
        return sum(int(a.nbytes) for a in self.as_tuple())


@dataclass(frozen=True, eq=False)
class PublicGame:
    """A two-player zero-sum game with private hands, ready for the range solver.

    Payoffs are chips: at a fold the folder loses what they put in and the other wins it;
    at a showdown (both have put in the same) the better hand wins the other's chips, a
    tie wins nothing. Values are normalized by :attr:`normalizer`, the total weight of the
    compatible hand pairs, so they are chips per hand.

    Attributes:
        tree: the public tree.
        hands: each player's hands.
        n_cards: the size of the card universe (card ids are ``0..n_cards-1``).
        strength: ``[B, H_p]`` for each player, each hand's showdown strength on each board
            (higher wins; -1 where the hand uses a board card or the board is not final).
        tables: each player's arrays for the compiled passes.
        normalizer: the weight of all compatible hand pairs at the root.
        pot: the chips in the pot at the root (for "% of the pot" figures).
        description: one line naming the game.
        source: a JSON-ready dict from which the game can be built again (checkpoints).
    """

    tree: PublicTree
    hands: tuple[HandSpace, HandSpace]
    n_cards: int
    strength: tuple[IntArray, IntArray]
    tables: tuple[HandTables, HandTables]
    normalizer: float
    pot: float
    description: str
    source: Mapping[str, Any]

    @cached_property
    def n_hands(self) -> tuple[int, int]:
        """Number of hands of each player."""
        return self.hands[0].n_hands, self.hands[1].n_hands

    def memory_bytes(self, itemsize: int = BYTES_PER_ENTRY, areas: int = 1) -> int:
        """Bytes the solver will allocate for this game (regrets, sums, work vectors).

        ``itemsize`` is the bytes of one stored number: 8 for float64 (the default), 4
        for float32 storage; ``areas`` the threads (each has its own scratch rows: see
        :mod:`pokerlab.subgame.units`).
        """
        return estimate_solver_bytes(self.tree.work_rows(areas), self.tree.n_rows,
                                     self.n_hands, itemsize=itemsize)


def make_public_game(
    tree: PublicTree,
    hands: tuple[HandSpace, HandSpace],
    n_cards: int,
    strength: tuple[IntArray, IntArray],
    swaps: tuple[IntArray, IntArray] | None,
    *,
    values: tuple[FloatArray, FloatArray] | None = None,
    pot: float,
    description: str,
    source: Mapping[str, Any],
) -> PublicGame:
    """Assemble a :class:`PublicGame`: the kernels' tables are derived here.

    Args:
        tree: the public tree.
        hands: each player's hands.
        n_cards: the card universe's size.
        strength: ``[B, H_p]`` per player, the showdown strength of each hand on each board
            the tree's nodes name (-1 where a hand holds a board card, or no showdown).
        swaps: ``[S, H_p]`` per player, the hand under each suit transposition the tree's
            isomorphic cards use (None: the tree has none).
        values: ``[K, H_p]`` per player, the payoffs at the value nodes it owns (None:
            the tree has none).
        pot: the pot at the root, chips.
        description: one line naming the game.
        source: how to build it again, JSON-ready.
    """
    normalizer = compatible_weight(hands[0], hands[1], n_cards)
    if not MIN_PAIR_WEIGHT <= normalizer < math.inf:
        raise SpecError(f"the two ranges' compatible hand pairs weigh {normalizer:.3g} in all; "
                        f"they must weigh at least {MIN_PAIR_WEIGHT:g} (weights so small "
                        "underflow: a weight is a probability from 0 to 1)")
    same = same_hand_index(hands[0], hands[1])
    tables = []
    for q in (0, 1):
        table_swaps = (np.zeros((0, hands[q].n_hands), dtype=np.int64) if swaps is None
                       else np.ascontiguousarray(swaps[q], dtype=np.int64))
        table_values = (np.zeros((0, hands[q].n_hands)) if values is None
                        else np.ascontiguousarray(values[q], dtype=np.float64))
        tables.append(_hand_tables(hands[q], hands[1 - q], strength[q], strength[1 - q],
                                   same[q], n_cards, table_swaps, table_values))
    return PublicGame(
        tree=tree, hands=hands, n_cards=n_cards,
        strength=(np.ascontiguousarray(strength[0], dtype=np.int64),
                  np.ascontiguousarray(strength[1], dtype=np.int64)),
        tables=(tables[0], tables[1]), normalizer=normalizer,
        pot=pot, description=description, source=source,
    )


def _grouped_by_card(cards: IntArray, positions: IntArray, n_cards: int, width: int,
                     labels: IntArray | None = None) -> tuple[UIntArray, IntArray]:
    """Hands grouped by card, by increasing ``positions`` within a card.

    Returns:
        ``(entries [width], offsets [n_cards + 1])``: entries hold ``labels`` (default:
        the positions), -1 padded.
    """
    labels = positions if labels is None else labels
    pairs_card = np.concatenate([cards[:, 0], cards[:, 1]])
    pairs_position = np.concatenate([positions, positions])
    pairs_label = np.concatenate([labels, labels])
    keep = pairs_card >= 0
    pairs_card, pairs_position, pairs_label = (pairs_card[keep], pairs_position[keep],
                                               pairs_label[keep])
    order = np.lexsort((pairs_position, pairs_card))
    # Unsigned indices spare numba the negative-index check on every read; padding is 0
    # (never read: ``offsets`` bound every card's entries).
    entries = np.zeros(width, dtype=np.uint64)
    entries[: order.shape[0]] = pairs_label[order]
    counts = np.bincount(pairs_card, minlength=n_cards)
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    return entries, offsets


def _hand_tables(mine: HandSpace, theirs: HandSpace, strength: IntArray,
                 other_strength: IntArray, same: IntArray, n_cards: int,
                 swaps: IntArray, values: FloatArray) -> HandTables:
    n_hands = mine.n_hands
    n_boards = int(strength.shape[0])
    # the compiled tables below index without bounds checks: shapes and cards first
    for who, space, table in (("mine", mine, strength), ("theirs", theirs, other_strength)):
        if space.cards.ndim != 2 or space.cards.shape[1] != 2:
            raise SpecError(f"{who}: hand cards must be [hands, 2]; got {space.cards.shape}")
        if table.shape != (n_boards, space.n_hands):
            raise SpecError(f"{who}: strengths must be [boards, hands] = "
                            f"{(n_boards, space.n_hands)}; got {table.shape}")
        if space.cards.size and int(space.cards.max()) >= n_cards:
            raise SpecError(f"a hand holds card {int(space.cards.max())}; the game has "
                            f"{n_cards} cards (0 to n_cards - 1)")
    fold_cards = np.where(mine.cards >= 0, mine.cards, n_cards).astype(np.uint64)
    fold_entries, fold_offsets = _grouped_by_card(mine.cards, np.arange(n_hands), n_cards,
                                                  2 * n_hands)
    if 3 * n_hands + n_cards + 2 > np.iinfo(np.uint16).max:
        raise SpecError(f"{n_hands} hands over {n_cards} cards: the showdown tables index "
                        "in 16 bits (at most about 21,800 hands)")
    order = np.zeros((n_boards, n_hands), dtype=np.uint16)
    n_valid = np.zeros(n_boards, dtype=np.int64)
    entries = np.zeros((n_boards, 2 * n_hands), dtype=np.uint16)
    offsets = np.zeros((n_boards, n_cards + 1), dtype=np.int64)
    cuts = np.zeros((n_boards, n_hands, 8), dtype=np.uint16)
    showdown_tables(np.ascontiguousarray(mine.cards, dtype=np.int64),
                    np.ascontiguousarray(theirs.cards, dtype=np.int64),
                    np.ascontiguousarray(strength, dtype=np.int64),
                    np.ascontiguousarray(other_strength, dtype=np.int64), n_cards, order,
                    n_valid, entries, offsets, cuts)

    def owned(array: np.ndarray, dtype: type) -> Any:
        # Read-only, owned and C-ordered: numba compiles one version for one layout.
        copy: np.ndarray = np.array(array, dtype=dtype, order="C")
        copy.setflags(write=False)
        return copy

    return HandTables(
        cards=owned(mine.cards, np.int64), weights=owned(mine.weights, np.float64),
        same=owned(same, np.int64), fold_cards=owned(fold_cards, np.uint64),
        fold_entries=owned(fold_entries, np.uint64), fold_offsets=owned(fold_offsets, np.int64),
        order=owned(order, np.uint16), n_valid=owned(n_valid, np.int64),
        entries=owned(entries, np.uint16), offsets=owned(offsets, np.int64),
        cuts=owned(cuts, np.uint16), swaps=owned(swaps, np.int64),
        values=owned(values, np.float64),
    )


def estimate_solver_bytes(work_rows: int, n_rows: tuple[int, int], n_hands: tuple[int, int],
                          *, itemsize: int = BYTES_PER_ENTRY) -> int:
    """Bytes of the solver's arrays, ``itemsize`` bytes per stored number.

    Two ``[rows, hands]`` arrays per player (regrets and strategy sums: the checks read
    the average straight from the sums, and a finished solve writes it over the regrets)
    and two work arrays ``[work_rows, hands]`` (reach and values; ``work_rows`` is
    :meth:`PublicTree.work_rows`, at most the number of nodes). ``itemsize`` 2 is
    compressed storage (:mod:`pokerlab.subgame.storage`): the work arrays in float32,
    and a float32 scale per row for the regrets and one for the sums.
    """
    tables = sum(2 * rows * hands for rows, hands in zip(n_rows, n_hands, strict=True))
    work = 2 * work_rows * max(n_hands)
    if itemsize == 2:
        return 2 * tables + 4 * work + 8 * sum(n_rows)
    return itemsize * (tables + work)


def build_public_tree(root: NodeSpec, ids: dict[int, int] | None = None) -> PublicTree:
    """Flatten a tree of :class:`NodeSpec` into a :class:`PublicTree`.

    Args:
        root: the root spec.
        ids: if given, filled with ``id(spec) -> node id`` for every spec.

    Raises:
        PokerlabError: if a terminal has children, a decision node has none, or a
            showdown is played for unequal chips.
    """
    # Depth first by blocks of siblings: a node's children get consecutive ids when the
    # node is reached, then each child's subtree follows. Parents come before children and
    # siblings are contiguous (what the passes need), and a subtree's rows lie close
    # together, so the bottom-up pass finds its children's values still in cache.
    order: list[NodeSpec] = [root]
    parents: list[int] = [-1]
    stack: list[int] = [0]
    while stack:
        node = stack.pop()
        spec = order[node]
        first = len(order)
        for child in spec.children:
            order.append(child)
            parents.append(node)
        stack.extend(range(first + len(spec.children) - 1, first - 1, -1))
    index = {id(spec): i for i, spec in enumerate(order)}
    if ids is not None:
        ids.update(index)
    n = len(order)
    nodes = np.full((n, N_INT_COLUMNS), -1, dtype=np.int64)
    amounts = np.zeros((n, 3), dtype=np.float64)
    iso_rows: list[tuple[int, int, int]] = []
    rows = [0, 0]
    for i, spec in enumerate(order):
        if spec.kind in (FOLD_NODE, SHOWDOWN, VALUE) and spec.children:
            raise PokerlabError(f"public node {spec.key!r}: a terminal node has children")
        if spec.kind in (DECISION, CHANCE_NODE) and not spec.children:
            raise PokerlabError(f"public node {spec.key!r}: a {KIND_NAMES[spec.kind]} node "
                                "has no children")
        if spec.kind == SHOWDOWN and spec.chips[0] != spec.chips[1]:
            raise PokerlabError(f"public node {spec.key!r}: a showdown for unequal chips "
                                f"{spec.chips}")
        nodes[i, COL_KIND] = spec.kind
        nodes[i, COL_PLAYER] = spec.player
        nodes[i, COL_FIRST] = index[id(spec.children[0])] if spec.children else -1
        nodes[i, COL_COUNT] = len(spec.children)
        nodes[i, COL_BOARD] = spec.board
        nodes[i, COL_CARD] = spec.card
        nodes[i, COL_PARENT] = parents[i]
        amounts[i, COL_CHIPS_0], amounts[i, COL_CHIPS_1] = spec.chips
        amounts[i, COL_FACTOR] = spec.chance_factor
        if spec.kind == DECISION:
            nodes[i, COL_ROW] = rows[spec.player]
            rows[spec.player] += len(spec.children)
        if spec.kind == VALUE:
            parent = order[parents[i]]
            if parent.kind != DECISION or parent.player != spec.player:
                raise PokerlabError(f"public node {spec.key!r}: a value node must follow a "
                                    "decision of its owner")
            nodes[i, COL_ROW] = spec.value_row
        if spec.kind == CHANCE_NODE:
            nodes[i, COL_ISO_START] = len(iso_rows)
            for card, swap, child in spec.isomorphic:
                iso_rows.append((index[id(child)], card, swap))
            nodes[i, COL_ISO_END] = len(iso_rows)
    isomorphic = np.asarray(iso_rows, dtype=np.int64).reshape(len(iso_rows), 3)
    for array in (nodes, amounts, isomorphic):
        array.setflags(write=False)
    return PublicTree(
        nodes=nodes,
        amounts=amounts,
        isomorphic=isomorphic,
        labels=tuple(sys.intern(spec.label) for spec in order),  # a few dozen distinct
        keys=NodeKeys(spec.key for spec in order),
        n_rows=(rows[0], rows[1]),
    )


def same_hand_index(first: HandSpace, second: HandSpace) -> tuple[IntArray, IntArray]:
    """For each player's two-card hands, the index of the identical hand of the other (-1).

    One-card hands need none: removing the hands that hold the card removes the identical one.
    """
    def index(mine: HandSpace, theirs: HandSpace) -> IntArray:
        out = np.full(mine.n_hands, -1, dtype=np.int64)
        if mine.n_hands == 0 or (mine.cards[:, 1] < 0).all():
            return out
        # Each ordered two-card hand as one number (cards shifted by one: -1 is a value
        # too); the same cards in the same order first, else in the other order (the
        # last such hand where theirs repeats one).
        two = np.flatnonzero(theirs.cards[:, 1] >= 0)
        if two.size == 0:
            return out
        width = int(max(mine.cards.max(), theirs.cards.max())) + 2
        keys = (theirs.cards[two, 0] + 1) * width + theirs.cards[two, 1] + 1
        order = np.argsort(keys, kind="stable")
        sorted_keys = keys[order]

        def lookup(first: IntArray, second: IntArray) -> IntArray:
            wanted = (first + 1) * width + second + 1
            at = np.maximum(np.searchsorted(sorted_keys, wanted, side="right") - 1, 0)
            return np.where(sorted_keys[at] == wanted, two[order[at]], -1)

        has = np.flatnonzero(mine.cards[:, 1] >= 0)
        a, b = mine.cards[has, 0], mine.cards[has, 1]
        same = lookup(a, b)
        out[has] = np.where(same >= 0, same, lookup(b, a))
        return out

    return index(first, second), index(second, first)


def compatible_weight(first: HandSpace, second: HandSpace, n_cards: int) -> float:
    """The total weight of the hand pairs that share no card: ``sum w0_i w1_j``."""
    card_sums = np.zeros(n_cards + 1)
    for column in (0, 1):
        np.add.at(card_sums, second.cards[:, column], second.weights)  # -1 lands on the pad
    total = float(second.weights.sum())
    same, _ = same_hand_index(first, second)
    compatible = total - card_sums[first.cards[:, 0]]
    has_second = first.cards[:, 1] >= 0
    compatible = compatible - np.where(has_second, card_sums[first.cards[:, 1]], 0.0)
    compatible = compatible + np.where(same >= 0, second.weights[np.maximum(same, 0)], 0.0)
    return float(first.weights @ compatible)


__all__ = [
    "CHANCE_NODE",
    "DECISION",
    "FOLD_NODE",
    "KIND_NAMES",
    "SHOWDOWN",
    "VALUE",
    "HandSpace",
    "HandTables",
    "NodeSpec",
    "PublicGame",
    "PublicTree",
    "build_public_tree",
    "compatible_weight",
    "estimate_solver_bytes",
    "make_public_game",
    "same_hand_index",
]
