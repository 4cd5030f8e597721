"""A heads-up Hold'em subgame at a real table state, as a public game for the range solver.

The searching Hard AI (:mod:`pokerlab.agents.search_policy`) re-solves the part of the hand it is
in. This module builds that part: from an engine state (a
:class:`~pokerlab.games.holdem_state.HoldemState` of any two-player Hold'em game: any deck,
hole and board sizes, limit or no-limit, any stacks) it lays out the betting that the one
enumerator of betting sequences gives (:mod:`pokerlab.games.betting_sequences`, on the
engine's own betting nodes, so who acts, the raise bounds, the all-ins and the returned
chips are the engine's), with the cards dealt between streets, as a
:class:`~pokerlab.subgame.public_tree.PublicGame`:

1. the hands are every hole-card combination of the game's deck that does not touch the
   root's board (Texas Hold'em: up to 1,326), each player's weighted by its range; hands
   of weight 0 are left out of that player's hand list (:attr:`HoldemSubgame.hand_ids`
   maps them back);
2. at each decision the tree offers the actions a *menu* chooses (a callable: limit
   games offer every legal action, no-limit ones a few raises), plus the action the hand
   really took there (``path``): a bet off the menu is in the tree as it was made. The
   enumerator takes its step there: it checks them against the engine and orders them
   (:func:`~pokerlab.games.betting_sequences.offered_actions`) and says what each leads
   to (:func:`~pokerlab.games.betting_sequences.decision_steps`: a decision, a fold, a
   showdown, the next street's deal, an all-in runout). The menu reads the path (the
   blueprint's node the events reach sizes the bets), so the subgame takes that step
   path by path and merges nothing, unlike the spot's and the blueprint's trees, which
   unfold the merged :func:`~pokerlab.games.betting_sequences.enumerate_betting`;
3. where the betting of a street ends, the next cards are dealt (one chance node per card,
   every card the board leaves) and the betting goes on (``depth="end"``), or the tree
   stops (``depth="street"``, a depth-limited subgame): the rest of the hand is then
   valued at a *leaf* by a showdown of the pot as it stands over a fixed sample of the
   remaining cards (``runouts`` boards; the same sample at every leaf), the value of both
   players checking the hand down (no continuation strategies yet: such leaves are
   not the blueprint's values, so a search through them is not safe);
4. folds and showdowns pay what the engine pays: the folder loses what it put in, a
   showdown is played for equal stakes (uncalled chips were given back).

Node ids map back to the hand: :meth:`HoldemSubgame.node_of` takes the events (actions
and cards) since the root; every decision node records its engine betting node and the
engine action of each child.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from pokerlab._types import Action, FloatArray, IntArray
from pokerlab.cards import cards_str
from pokerlab.errors import GameTooLargeError, SpecError
from pokerlab.games import betting_sequences as sequences
from pokerlab.games.holdem_betting import BettingNode
from pokerlab.games.holdem_pots import hand_value_array
from pokerlab.games.holdem_rules import CALL, FOLD, RAISE, HoldemRules
from pokerlab.subgame.public_tree import (
    CHANCE_NODE,
    DECISION,
    FOLD_NODE,
    SHOWDOWN,
    HandSpace,
    NodeSpec,
    PublicGame,
    build_public_tree,
    make_public_game,
)

DEPTHS = ("street", "end")
"""How deep a subgame goes: to the end of the current street (leaves), or of the hand."""

MAX_SUBGAME_NODES = 200_000
"""The most public nodes a subgame may have (a menu that would build more is refused)."""

Event = tuple[str, int]
"""One step of a hand below the root: ``("a", action)`` or ``("c", card)``."""

Menu = Callable[[BettingNode, tuple[Event, ...]], Sequence[Action]]
"""Chooses the actions a decision offers: ``(betting node, events since the root)``."""


def hole_combos(rules: HoldemRules) -> IntArray:
    """Every hole-card combination of the deck, ``[N, hole size]``, each ascending.

    The order is :func:`itertools.combinations` of the sorted deck: Texas Hold'em's 1,326
    pairs always come in the same order, so a range is one vector over them. Read-only,
    and made once per deck and hole size.
    """
    return _combos(tuple(rules.deck), rules.hole_size)[0]


@functools.lru_cache(maxsize=16)
def _combos(deck: tuple[int, ...], hole_size: int) -> tuple[IntArray, tuple[str, ...]]:
    """:func:`hole_combos` and each combination's name (highest card first)."""
    combos = np.array(list(combinations(sorted(deck), hole_size)), dtype=np.int64)
    combos = combos.reshape(-1, hole_size)
    combos.setflags(write=False)
    names = tuple(cards_str(tuple(int(c) for c in row[::-1])) for row in combos)
    return combos, names


def combo_index(rules: HoldemRules) -> dict[tuple[int, ...], int]:
    """``{ascending hole cards: index in hole_combos}``."""
    return {tuple(int(c) for c in row): i for i, row in enumerate(hole_combos(rules))}


@dataclass(frozen=True, eq=False)
class HoldemSubgame:
    """A subgame built by :func:`build_subgame`.

    Attributes:
        public: the public game (hands per player: the combos of weight > 0).
        rules: the game's rules.
        root_board: the board at the root.
        hand_ids: per player, ``[H_p]`` the index in :func:`hole_combos` of each hand.
        betting: per public node, its engine betting node (None at chance and leaf nodes).
        actions: per public node, the engine action of each child (decision nodes; empty
            elsewhere).
        events: per public node, the events from the root to it.
        boards: the board of each board index the nodes name.
        leaves: the public nodes that stand for the rest of the hand (depth-limited).
        depth: ``"street"`` or ``"end"``.
    """

    public: PublicGame
    rules: HoldemRules
    root_board: tuple[int, ...]
    hand_ids: tuple[IntArray, IntArray]
    betting: tuple[BettingNode | None, ...]
    actions: tuple[tuple[Action, ...], ...]
    events: tuple[tuple[Event, ...], ...]
    boards: tuple[tuple[int, ...], ...]
    leaves: tuple[int, ...]
    depth: str
    _index: dict[tuple[Event, ...], int] = field(default_factory=dict, repr=False)

    def node_of(self, events: Sequence[Event]) -> int | None:
        """The public node the events since the root lead to (None: not in the tree)."""
        if not self._index:
            self._index.update({e: n for n, e in enumerate(self.events)})
        return self._index.get(tuple(events))

    def board_of(self, node: int) -> tuple[int, ...]:
        """The board at ``node``."""
        return self.boards[int(self.public.tree.nodes[node, 4])]

    def full_vector(self, player: int, values: FloatArray, fill: float = 0.0) -> FloatArray:
        """``values`` over ``player``'s hands spread over all combos (``fill`` elsewhere)."""
        n = len(hole_combos(self.rules))
        out = np.full(n, fill, dtype=np.float64)
        out[self.hand_ids[player]] = values
        return out


@dataclass
class _Build:
    """What the walk collects."""

    rules: HoldemRules
    menu: Menu
    path: tuple[Event, ...]
    depth: str
    runouts: tuple[tuple[int, ...], ...]  # sampled completions of the root board (leaves)
    max_nodes: int = MAX_SUBGAME_NODES
    deadline: float | None = None  # time.perf_counter() past which the build gives up
    boards: dict[tuple[int, ...], int] = field(default_factory=dict)
    specs: list[NodeSpec] = field(default_factory=list)
    betting: dict[int, BettingNode] = field(default_factory=dict)
    actions: dict[int, tuple[Action, ...]] = field(default_factory=dict)
    events: dict[int, tuple[Event, ...]] = field(default_factory=dict)
    leaves: list[int] = field(default_factory=list)  # id(spec) of leaf nodes
    count: int = 0

    def board_index(self, board: tuple[int, ...]) -> int:
        return self.boards.setdefault(board, len(self.boards))

    def new(self, spec: NodeSpec, events: tuple[Event, ...]) -> NodeSpec:
        self.count += 1
        if self.count > self.max_nodes:
            raise GameTooLargeError(
                f"the subgame has more than {self.max_nodes:,} public nodes; offer fewer "
                "bet sizes or limit its depth (depth='street')",
                found=self.count, limit=self.max_nodes,
            )  # fmt: skip
        if self.deadline is not None and self.count % 512 == 0 \
                and time.perf_counter() > self.deadline:
            raise GameTooLargeError(
                f"the subgame was not built in time ({self.count:,} public nodes so far)",
                found=self.count, limit=self.count,
            )  # fmt: skip
        self.events[id(spec)] = events
        self.specs.append(spec)
        return spec


def _chips(node: BettingNode) -> tuple[float, float]:
    return float(node.committed[0]), float(node.committed[1])


def _label(node: BettingNode, action: Action, no_limit: bool) -> str:
    if action == FOLD:
        return "fold"
    if action == CALL:
        return "call" if max(node.bets) > node.bets[node.to_act] else "check"
    if no_limit:
        return f"raise to {action - RAISE}" if max(node.bets) else f"bet {action - RAISE}"
    return "raise" if max(node.bets) else "bet"


def _joined(parent: str, token: str) -> str:
    """A node's key: its parent's (the tokens of the events since the root) and its own."""
    return f"{parent}-{token}" if parent else token


def _token(action: Action, no_limit: bool) -> str:
    # holdem_betting.betting_letters of one action, inlined: a key is built for every node
    if action == FOLD:
        return "f"
    if action == CALL:
        return "c"
    return f"r{action - RAISE}" if no_limit else "r"


def _taken(build: _Build, node: BettingNode, events: tuple[Event, ...]) -> Action | None:
    """The action the hand really took at ``events`` (None: its path does not pass here).

    Raises:
        SpecError: the path does not follow the betting there.
    """
    n = len(events)
    if n >= len(build.path) or build.path[:n] != events:
        return None
    kind, action = build.path[n]
    if kind != "a" or not node.is_legal(action):
        raise SpecError(f"the hand's path {build.path} does not follow the betting "
                        f"at {events}: {build.path[n]}")
    return action


def _decision(build: _Build, node: BettingNode, board: tuple[int, ...],
              events: tuple[Event, ...], label: str, card: int, factor: float,
              path_key: str) -> NodeSpec:
    """A decision and its subtree: the enumerator's step with this path's menu.

    ``path_key`` (here and below) is the node's key: the events' tokens joined by ``-``.
    """
    no_limit = node.cache.no_limit
    spec = build.new(NodeSpec(DECISION, player=node.to_act, chips=_chips(node),
                              board=build.board_index(board), label=label, card=card,
                              chance_factor=factor, key=path_key), events)
    build.betting[id(spec)] = node
    offered = build.menu(node, events)
    actions = sequences.offered_actions(node, offered, taken=_taken(build, node, events),
                                        where=events)
    build.actions[id(spec)] = actions
    for action, kind, child in sequences.decision_steps(node, actions):
        label = _label(node, action, no_limit)
        spec.children.append(_after(build, kind, child, board, (*events, ("a", action)),
                                    label, _joined(path_key, _token(action, no_limit))))
    return spec


def _after(build: _Build, kind: int, node: BettingNode, board: tuple[int, ...],
           events: tuple[Event, ...], label: str, key: str) -> NodeSpec:
    """The node a step leads to: a decision, a fold, or the end of the street's betting."""
    if kind == sequences.DECISION:
        return _decision(build, node, board, events, label, -1, 1.0, key)
    if kind == sequences.FOLDED_OUT:
        folder = int(node.folded.index(True))
        return build.new(NodeSpec(FOLD_NODE, player=folder, chips=_chips(node),
                                  board=build.board_index(board), label=label, key=key),
                         events)
    return _deal(build, kind, node, board, events, label, key, -1, 1.0, key)


def _deal(build: _Build, kind: int, node: BettingNode, board: tuple[int, ...],
          events: tuple[Event, ...], label: str, key: str, card: int,
          factor: float, path_key: str) -> NodeSpec:
    """After a street's betting (or within a deal): a showdown, the next cards, or a leaf.

    ``node`` is the engine's node where the betting stopped, of ``kind`` SHOWDOWN, DEAL
    or RUNOUT (:func:`~pokerlab.games.betting_sequences.situation_kind`). A street of
    several cards deals them one public node at a time in ascending order, so each set
    comes once: the edge of the ``i``-th card of a ``k``-card set carries
    ``(k - i) / unseen`` (the product over the set is its probability
    ``1 / C(unseen, k)``), ``unseen`` the cards neither the board nor the two hands hold.
    """
    rules = build.rules
    final = rules.board_sizes[-1]
    index = build.board_index(board)
    if kind == sequences.SHOWDOWN or len(board) == final:
        return build.new(NodeSpec(SHOWDOWN, chips=_chips(node), board=index, label=label,
                                  card=card, chance_factor=factor, key=key), events)
    start = rules.board_sizes[node.street - 1] if node.street > 0 else 0
    if build.depth == "street" and len(board) == start:
        return _leaf(build, node, board, events, label, key, card, factor)
    target = rules.board_sizes[node.street]
    spec = build.new(NodeSpec(CHANCE_NODE, chips=_chips(node), board=index, label=label,
                              card=card, chance_factor=factor, key=key), events)
    unseen = rules.deck_size - len(board) - 2 * rules.hole_size
    remaining = target - len(board)
    above = board[-1] if len(board) > start else -1  # ascending within one street's deal
    free = [c for c in rules.deck if c not in board and c > above]
    if remaining == 1:  # the last card: then the next street's betting, or more cards
        nxt = node.after_deal()
        nxt_kind = sequences.situation_kind(nxt)
    for position, dealt in enumerate(free):
        if len(free) - position - 1 < remaining - 1:
            break  # too few cards above it to complete the set in ascending order
        child_board = (*board, dealt)
        child_events = (*events, ("c", dealt))
        name = cards_str((dealt,))
        edge = remaining / unseen
        child_key = f"{key}/{name}/"
        child_path = _joined(path_key, name)
        if remaining > 1:
            child = _deal(build, kind, node, child_board, child_events, name, child_key,
                          dealt, edge, child_path)
        elif nxt_kind == sequences.DECISION:
            child = _decision(build, nxt, child_board, child_events, name, dealt, edge,
                              child_path)
        else:
            child = _deal(build, nxt_kind, nxt, child_board, child_events, name, child_key,
                          dealt, edge, child_path)
        spec.children.append(child)
    return spec


def _leaf(build: _Build, node: BettingNode, board: tuple[int, ...],
          events: tuple[Event, ...], label: str, key: str, card: int,
          factor: float) -> NodeSpec:
    """The rest of the hand checked down over the sampled runouts: a chance node per card.

    Each sampled completion of the board is a path of chance nodes ending in a showdown of
    the pot as it stands. The chance factor of an edge is ``1 / k`` (``k`` the sampled
    cards at that step) times ``m / (m - 2 h)`` (``m`` the cards left, ``h`` the hole
    size): a hand pair misses the sampled cards it holds, and that factor makes its
    expected weight 1.
    """
    leaf = build.new(NodeSpec(CHANCE_NODE, chips=_chips(node), board=build.board_index(board),
                              label=label, card=card, chance_factor=factor, key=key), events)
    build.leaves.append(id(leaf))
    _runout(build, leaf, node, board, [r[len(board):] for r in build.runouts
                                       if r[: len(board)] == board], key, events)
    if not leaf.children:
        raise SpecError(f"no sampled runout completes the board {cards_str(board)}")
    return leaf


def _runout(build: _Build, parent: NodeSpec, node: BettingNode, board: tuple[int, ...],
            rests: list[tuple[int, ...]], key: str, events: tuple[Event, ...]) -> None:
    rules = build.rules
    firsts = sorted({rest[0] for rest in rests})
    left = rules.deck_size - len(board)
    correction = left / (left - 2 * rules.hole_size)
    for first in firsts:
        child_board = (*board, first)
        name = cards_str((first,))
        edge = correction / len(firsts)
        child_events = (*events, ("c", first))
        if len(child_board) == rules.board_sizes[-1]:
            child = build.new(NodeSpec(SHOWDOWN, chips=_chips(node),
                                       board=build.board_index(child_board), label=name,
                                       card=first, chance_factor=edge,
                                       key=f"{key}/{name}/"), child_events)
        else:
            child = build.new(NodeSpec(CHANCE_NODE, chips=_chips(node),
                                       board=build.board_index(child_board), label=name,
                                       card=first, chance_factor=edge,
                                       key=f"{key}/{name}/"), child_events)
            _runout(build, child, node, child_board,
                    [rest[1:] for rest in rests if rest[0] == first], f"{key}/{name}/",
                    child_events)
        parent.children.append(child)


def sample_runouts(rules: HoldemRules, board: tuple[int, ...], count: int,
                   rng: np.random.Generator) -> tuple[tuple[int, ...], ...]:
    """``count`` completions of ``board`` to the final board (all of them if fewer exist).

    A completion adds the cards still to come, in ascending order within each street's
    deal; the sample draws without replacement among the completions.
    """
    final = rules.board_sizes[-1]
    missing = final - len(board)
    if missing <= 0:
        return (board,)
    left = [c for c in rules.deck if c not in board]
    if math.comb(len(left), missing) <= max(count, 1) * 20:
        everything = list(combinations(left, missing))
        if len(everything) <= count:
            chosen = everything
        else:
            picks = rng.choice(len(everything), size=count, replace=False)
            chosen = [everything[int(i)] for i in sorted(picks.tolist())]
    else:
        found: set[tuple[int, ...]] = set()
        while len(found) < count:
            draw = rng.choice(len(left), size=missing, replace=False)
            found.add(tuple(sorted(left[int(i)] for i in draw)))
        chosen = sorted(found)
    return tuple((*board, *rest) for rest in chosen)


def build_subgame(
    rules: HoldemRules,
    root: BettingNode,
    board: tuple[int, ...],
    weights: tuple[FloatArray, FloatArray],
    menu: Menu,
    *,
    path: Sequence[Event] = (),
    depth: str = "end",
    runouts: Sequence[tuple[int, ...]] = (),
    description: str = "",
    max_nodes: int = MAX_SUBGAME_NODES,
    deadline: float | None = None,
) -> HoldemSubgame:
    """Build the subgame below ``root`` (a decision) with ``board`` out.

    Args:
        rules: the game's rules (heads-up).
        root: the engine betting node at the root, a decision.
        board: the cards on the board at the root.
        weights: each player's range over :func:`hole_combos` (combos touching the board
            are dropped whatever their weight).
        menu: chooses each decision's actions (see :data:`Menu`).
        path: the events the hand really took below the root: every action on it is in
            the tree, on or off the menu.
        depth: ``"end"`` (the whole rest of the hand) or ``"street"`` (leaves where the
            root's street ends; ``runouts`` value them).
        runouts: ``depth="street"``: sampled completions of ``board`` to the final board
            (:func:`sample_runouts`).
        description: one line naming the subgame.
        max_nodes: the most public nodes (at most :data:`MAX_SUBGAME_NODES`): the build
            stops as soon as it would make more.
        deadline: a :func:`time.perf_counter` time past which the build gives up (a
            searcher's budget).

    Raises:
        SpecError: not heads-up, a root that is not a decision, a depth not in
            :data:`DEPTHS`, a menu offering illegal actions, a path the betting cannot take.
        GameTooLargeError: a tree over ``max_nodes`` nodes, or not built by ``deadline``.
    """
    if rules.n_players != 2:
        raise SpecError(f"subgames are heads-up; the game has {rules.n_players} players")
    if root.to_act < 0:
        raise SpecError("a subgame starts at a decision (a player to act)")
    if depth not in DEPTHS:
        raise SpecError(f"depth must be one of {', '.join(DEPTHS)}; got {depth!r}")
    if depth == "street" and not runouts and len(board) < rules.board_sizes[-1]:
        raise SpecError("a depth-limited subgame needs sampled runouts for its leaves")
    combos, combo_names = _combos(tuple(rules.deck), rules.hole_size)
    touches = np.isin(combos, np.array(board, dtype=np.int64)).any(axis=1)
    hands: list[HandSpace] = []
    hand_ids: list[IntArray] = []
    for p in (0, 1):
        w = np.asarray(weights[p], dtype=np.float64)
        if w.shape != (combos.shape[0],):
            raise SpecError(f"player {p}'s range must have {combos.shape[0]} weights (one per "
                            f"hole-card combination); got shape {w.shape}")
        keep = np.flatnonzero((w > 0) & ~touches)
        if keep.size == 0:
            raise SpecError(f"player {p}'s range has no hand left on {cards_str(board)}")
        cards = np.full((keep.size, 2), -1, dtype=np.int64)
        cards[:, : rules.hole_size] = combos[keep][:, ::-1][:, :2]
        names = tuple(combo_names[i] for i in keep.tolist())
        hands.append(HandSpace(cards, w[keep].copy(), names))
        hand_ids.append(keep)
    if not 0 < max_nodes <= MAX_SUBGAME_NODES:
        raise SpecError(f"max_nodes must be in 1..{MAX_SUBGAME_NODES:,}; got {max_nodes}")
    build = _Build(rules, menu, tuple(path), depth, tuple(tuple(r) for r in runouts),
                   max_nodes, deadline)
    root_spec = _decision(build, root, tuple(board), (), "", -1, 1.0, "")
    ids: dict[int, int] = {}
    tree = build_public_tree(root_spec, ids)
    n_nodes = tree.n_nodes
    betting: list[BettingNode | None] = [None] * n_nodes
    actions: list[tuple[Action, ...]] = [()] * n_nodes
    events: list[tuple[Event, ...]] = [()] * n_nodes
    for spec in build.specs:
        n = ids[id(spec)]
        betting[n] = build.betting.get(id(spec))
        actions[n] = build.actions.get(id(spec), ())
        events[n] = build.events[id(spec)]
    board_list = sorted(build.boards, key=build.boards.__getitem__)
    strengths = _strengths(rules, combos, (hand_ids[0], hand_ids[1]), board_list)
    pot = float(sum(root.committed))
    public = make_public_game(
        tree, (hands[0], hands[1]), 52, (strengths[0], strengths[1]), None, pot=pot,
        description=description or f"subgame at {cards_str(board) or 'preflop'}",
        source={"kind": "holdem-subgame"},
    )
    return HoldemSubgame(
        public=public, rules=rules, root_board=tuple(board),
        hand_ids=(hand_ids[0], hand_ids[1]), betting=tuple(betting), actions=tuple(actions),
        events=tuple(events), boards=tuple(board_list),
        leaves=tuple(sorted(ids[i] for i in build.leaves)), depth=depth,
    )  # fmt: skip


def _strengths(rules: HoldemRules, combos: IntArray, hand_ids: tuple[IntArray, IntArray],
               boards: list[tuple[int, ...]]) -> tuple[IntArray, IntArray]:
    """Each player's ``[B, H]`` showdown values on every final board (-1 elsewhere).

    -1 also where a hand holds a board card. Every hand of either range that misses a
    final board is valued once, in one evaluator call over all the boards; each player's
    table reads its hands from it.
    """
    final = rules.board_sizes[-1]
    used = np.union1d(hand_ids[0], hand_ids[1])
    hole = combos[used][:, ::-1][:, : rules.hole_size]  # as the hand spaces hold them
    values = np.full((len(boards), combos.shape[0]), -1, dtype=np.int64)
    finals = [b for b, board in enumerate(boards) if len(board) == final]
    if finals:
        cards = np.array([boards[b] for b in finals], dtype=np.int64)  # [F, final]
        clash = (hole[None, :, :, None] == cards[:, None, None, :]).any(axis=(2, 3))  # [F, combos]
        where, held = np.nonzero(~clash)
        rows = np.concatenate([hole[held], cards[where]], axis=1)
        values[np.array(finals)[where], used[held]] = hand_value_array(rows.astype(np.uint8))
    return values[:, hand_ids[0]], values[:, hand_ids[1]]


__all__ = [
    "DEPTHS",
    "MAX_SUBGAME_NODES",
    "Event",
    "HoldemSubgame",
    "Menu",
    "build_subgame",
    "combo_index",
    "hole_combos",
    "sample_runouts",
]
