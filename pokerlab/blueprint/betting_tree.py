"""The public betting tree of a Hold'em-like game, unfolded once into flat arrays.

The betting of Leduc and Hold'em does not depend on the cards: who acts, what is legal and
how many chips each player has in are functions of the actions alone. The blueprint trainer
therefore unfolds this tree once and its compiled kernels walk it with integers only: a
node index, a child index per action, the chips each player has in, and at a terminal
whether it is a fold or a showdown and who is still in.

:class:`BettingRules` describes the betting (the blueprint file records it): players,
board cards per street, antes and blinds, stacks, and either limit bet sizes with a cap on
bets per street, or no-limit with a bet menu in the grammar of
:mod:`pokerlab.games.bet_sizes` (``"2.5x,a/33%,75%,a/75%,a/a"``: one list per street,
serving bets and raises) and at most ``max_raises`` bets and raises a street. The rules
become the engine's (:class:`~pokerlab.games.holdem_rules.HoldemRules`) and the one
enumerator of betting sequences, :func:`pokerlab.games.betting_sequences.enumerate_betting`,
walks the engine's own nodes; :func:`build_tree` unfolds the situations it finds into
arrays. So the tree's rules are the engine's: a round ends when every player still in has
called (checked) since the last bet; a bet beyond a stack is an all-in for what is left; a
short all-in does not reopen the betting; a player facing an all-in with nobody else to
act may only fold or call; once at most one player still in has chips, the hand goes to
showdown (the tree has no chance nodes).

Old files. Blueprints written before per-street menus recorded ``pot_fractions`` instead
(the same fractions on every street, all-in always offered, sizes below the minimum raise
left out), and those written before the one rounding rule rounded a menu's halves to even
(``rounding="half_even"``, set by :func:`pokerlab.blueprint.store.rules_from_header` for a
header without the field): such rules still build the tree they were trained on, by the
two small sizings of this module. Every new tree rounds halves away from zero.

Size. The tree's nodes are counted from the situations before anything is allocated, and a
tree whose arrays would pass the memory limit (``POKERLAB_MEMORY_LIMIT``, 4 GiB by
default) is refused with its size; any tree below it is built (three-handed limit Hold'em:
24 million nodes, about 2 GB, a few seconds). Adapters build the rules from pokerlab's
Leduc (:func:`rules_from_leduc`) and limit Hold'em (:func:`rules_from_holdem`) games.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pokerlab._cache import SpecCache
from pokerlab._numba import njit
from pokerlab.errors import GameTooLargeError, SpecError
from pokerlab.games.base import Game
from pokerlab.games.bet_sizes import BetContext, BetMenu, SizeTable, parse_bet_menu
from pokerlab.games.betting_sequences import (
    DEAL,
    DECISION,
    FOLDED_OUT,
    RUNOUT,
    SHOWDOWN,
    Sizing,
    enumerate_betting,
)
from pokerlab.games.holdem_betting import BettingNodeCache
from pokerlab.games.holdem_rules import CALL, FOLD, RAISE, STREET_NAMES, HoldemRules
from pokerlab.tree.compile import DEFAULT_MEMORY_LIMIT

ROUNDINGS = ("half_up", "half_even")
"""``half_up``: the one rule (halves away from zero); ``half_even``: files written before it."""
UNLIMITED_STACK = 1 << 40
"""The engine's stack for rules without stacks (limit with a raise cap: never reached)."""


@dataclass(frozen=True, slots=True)
class BettingRules:
    """The betting of a Hold'em-like game, independent of the cards.

    Attributes:
        n_players: players, 2 or more.
        board_cards: board cards dealt before each street's betting (Leduc ``(0, 1)``,
            Texas Hold'em ``(0, 3, 1, 1)``); its length is the number of streets.
        antes: chips each player antes (kept out of the bets).
        blinds: chips each player posts as a blind (the first street's bet to match).
        stacks: each player's chips before the hand, antes included; None: unlimited.
        first_actor: per street, the seat from which the first player still in acts.
        bet_sizes: limit: the fixed bet of each street; empty for no-limit.
        raise_caps: limit: bets and raises allowed per street (a posted blind does not
            count); None: no cap.
        pot_fractions: no-limit, the format of old blueprint files: the same pot fractions
            (of the pot after calling) on every street, all-in always offered; empty
            when ``bet_menu`` is given.
        max_raises: no-limit: bets and raises allowed per street in the abstract tree.
        bet_menu: no-limit: the bets and raises of each street in the
            :mod:`~pokerlab.games.bet_sizes` grammar (e.g. ``"2.5x,a/33%,75%,a/75%,a/a"``);
            None: the old ``pot_fractions`` menu.
        rounding: how the menu's amounts round halves: ``"half_up"`` (away from zero, the
            one rule) or ``"half_even"`` (menus of files written before it).
    """

    n_players: int
    board_cards: tuple[int, ...]
    antes: tuple[int, ...]
    blinds: tuple[int, ...]
    stacks: tuple[int, ...] | None
    first_actor: tuple[int, ...]
    bet_sizes: tuple[int, ...] = ()
    raise_caps: tuple[int | None, ...] = ()
    pot_fractions: tuple[float, ...] = ()
    max_raises: int = 3
    bet_menu: str | None = None
    rounding: str = "half_up"

    def __post_init__(self) -> None:
        n, streets = self.n_players, len(self.board_cards)
        if n < 2:
            raise SpecError(f"betting rules need at least 2 players; got {n}")
        if streets < 1 or len(self.first_actor) != streets:
            raise SpecError(
                f"betting rules need one first actor per street ({streets}); "
                f"got {self.first_actor!r}"
            )
        for name, values in (("antes", self.antes), ("blinds", self.blinds)):
            if len(values) != n or min(values) < 0:
                raise SpecError(f"{name} must be {n} chip counts >= 0; got {values!r}")
        if self.stacks is not None and (
            len(self.stacks) != n
            or any(s <= a + b for s, a, b in zip(self.stacks, self.antes, self.blinds, strict=True))
        ):
            raise SpecError(
                f"stacks must be {n} chip counts above each player's ante and blind; "
                f"got {self.stacks!r}"
            )
        if self.rounding not in ROUNDINGS:
            raise SpecError(f"rounding must be one of {ROUNDINGS}; got {self.rounding!r}")
        if self.limit:
            if self.bet_menu is not None or self.pot_fractions:
                raise SpecError(
                    "limit betting has fixed bet sizes; a bet menu is for no-limit rules"
                )
            if len(self.bet_sizes) != streets or len(self.raise_caps) != streets:
                raise SpecError(
                    f"limit betting needs a bet size and a raise cap per street ({streets}); "
                    f"got {self.bet_sizes!r}, {self.raise_caps!r}"
                )
            if min(self.bet_sizes) < 1:
                raise SpecError(f"limit bet sizes must be >= 1; got {self.bet_sizes!r}")
            if self.stacks is None and None in self.raise_caps:
                raise SpecError("limit betting with no raise cap needs finite stacks")
        else:
            if self.stacks is None:
                raise SpecError("no-limit betting needs finite stacks")
            if any(f <= 0 for f in self.pot_fractions):
                raise SpecError(f"pot fractions must be > 0; got {self.pot_fractions!r}")
            if self.max_raises < 1:
                raise SpecError(f"max_raises must be >= 1; got {self.max_raises}")
            if self.bet_menu is not None:
                if self.pot_fractions:
                    raise SpecError(
                        "no-limit rules take a bet_menu or (old files) pot_fractions, not "
                        f"both; got {self.bet_menu!r} and {self.pot_fractions!r}"
                    )
                self.menu()

    @property
    def limit(self) -> bool:
        """True for limit betting (fixed bet sizes), False for no-limit with a bet menu."""
        return bool(self.bet_sizes)

    @property
    def n_streets(self) -> int:
        """Betting rounds."""
        return len(self.board_cards)

    def menu(self) -> BetMenu | None:
        """The parsed ``bet_menu`` (None for limit rules and old ``pot_fractions`` ones).

        Raises:
            SpecError: a menu that cannot be read (what was wrong, what is allowed).
        """
        if self.bet_menu is None:
            return None
        return parse_bet_menu(self.bet_menu, names=STREET_NAMES[: self.n_streets],
                              players=self.n_players, raise_cap=self.max_raises)

    def engine_rules(self) -> HoldemRules:
        """The same betting as the engine's numbers (what the enumerator walks)."""
        n, streets = self.n_players, self.n_streets
        board = tuple(int(x) for x in np.cumsum(self.board_cards))
        big = max(max(self.blinds), 1)
        stacks = self.stacks or (UNLIMITED_STACK,) * n
        small = min((b for b in self.blinds if b), default=big)
        return HoldemRules(
            n_players=n, no_limit=not self.limit, small_blind=small, big_blind=big,
            ante=max(self.antes), starting_stacks=stacks,
            cap=0, posts_blind=tuple(b > 0 for b in self.blinds), antes_paid=self.antes,
            blinds_paid=self.blinds,
            street_bets=self.bet_sizes if self.limit else (big,) * streets,
            raise_caps=self.raise_caps if self.limit else (None,) * streets,
            board_sizes=board, openers=self.first_actor,
        )  # fmt: skip

    def sizing(self) -> Sizing | None:
        """What chooses the no-limit raises (None for limit rules)."""
        if self.limit:
            return None
        menu = self.menu()
        if menu is None:
            return _PotFractions(self.pot_fractions, self.max_raises)
        if self.rounding == "half_even":
            return _HalfEvenMenu(menu)
        return menu


class _PotFractions:
    """Old files' sizing: pot fractions on every street (rounded half to even), all-in."""

    donks: SizeTable | None = None

    def __init__(self, fractions: tuple[float, ...], max_raises: int) -> None:
        self.fractions = fractions
        self.max_raises = max_raises

    def amounts(self, context: BetContext) -> tuple[int, ...]:
        if context.raise_count >= self.max_raises:
            return ()
        targets = {context.high}
        for fraction in self.fractions:
            target = context.faced + round(fraction * context.pot_after_call)
            if target >= context.high:
                targets.add(context.high)
            elif target >= context.low:
                targets.add(target)
        return tuple(sorted(targets))


class _HalfEvenMenu:
    """Menus of files written before the one rounding rule: halves rounded to even."""

    donks: SizeTable | None = None

    def __init__(self, menu: BetMenu) -> None:
        self.menu = menu

    def amounts(self, context: BetContext) -> tuple[int, ...]:
        menu = self.menu
        if menu.raise_cap is not None and context.raise_count >= menu.raise_cap:
            return ()
        found: set[int] = set()
        for size in menu.sizes(context):
            if size.kind == "all_in":
                amount = context.high
            elif size.kind == "times":
                if context.faced == 0:
                    continue
                amount = round(size.value * context.faced)
            else:
                amount = round(context.faced + size.value * context.pot_after_call)
            found.add(min(max(amount, context.low), context.high))
        return tuple(sorted(found))


@dataclass(frozen=True)
class BettingTree:
    """The unfolded betting tree; node 0 is the root (see :func:`build_tree` for the order).

    Attributes:
        rules: the rules it was built from.
        kind: ``[nodes]`` DECISION, FOLDED_OUT or SHOWDOWN.
        player: ``[nodes]`` the player to act, -1 at terminals.
        street: ``[nodes]`` the betting round (at a terminal: the last one reached).
        n_actions: ``[nodes]`` legal actions (0 at terminals).
        children: ``[nodes, max_actions]`` child node per action, -1 past ``n_actions``.
        action_kind: ``[nodes, max_actions]`` FOLD, CALL or RAISE, -1 past ``n_actions``.
        raise_to: ``[nodes, max_actions]`` for a raise, the acting player's total
            contribution after it (antes included); 0 otherwise.
        contributions: ``[nodes, players]`` chips each player has put in, antes included
            (at a terminal, an uncalled bet still counted).
        active: ``[nodes, players]`` True for players who have not folded.
        decision_index: ``[nodes]`` 0.. over decision nodes (rows of regret tables), -1
            at terminals.
        parent: ``[nodes]`` the parent node, -1 at the root.
        n_levels: the deepest node's depth plus one.
    """

    rules: BettingRules
    kind: NDArray[np.int8]
    player: NDArray[np.int8]
    street: NDArray[np.int8]
    n_actions: NDArray[np.int8]
    children: NDArray[np.int32]
    action_kind: NDArray[np.int8]
    raise_to: NDArray[np.int64]
    contributions: NDArray[np.int64]
    active: NDArray[np.bool_]
    decision_index: NDArray[np.int32]
    parent: NDArray[np.int32]
    n_levels: int = 1

    @property
    def n_nodes(self) -> int:
        """Nodes, terminals included."""
        return int(self.kind.shape[0])

    @property
    def n_decisions(self) -> int:
        """Decision nodes."""
        return int(np.count_nonzero(self.kind == DECISION))

    @property
    def max_actions(self) -> int:
        """The widest node's number of actions."""
        return int(self.children.shape[1])


@dataclass(frozen=True)
class TreeSize:
    """A betting tree's size, counted from its situations before anything is allocated.

    Attributes:
        n_nodes: nodes, terminals included.
        n_decisions: decision nodes.
        max_actions: the widest node's actions.
        n_players: players (columns of the chip arrays).
        decisions_by_street: decision nodes on each street (what a trainer's tables
            multiply by the street's buckets).
    """

    n_nodes: int
    n_decisions: int
    max_actions: int
    n_players: int
    decisions_by_street: tuple[int, ...] = ()

    @property
    def bytes(self) -> int:
        """The arrays of the tree (bytes; unfolding holds nothing else of its size)."""
        per_node = 4 + 4 + 4 + 13 * self.max_actions + 9 * self.n_players
        return self.n_nodes * per_node

    def describe(self) -> str:
        """One line: nodes, decisions and memory."""
        return (f"{self.n_nodes:,} nodes ({self.n_decisions:,} decisions, at most "
                f"{self.max_actions} actions), about {self.bytes / 1e6:,.0f} MB")


@dataclass(frozen=True)
class _Plan:
    """The situations to unfold, as arrays a compiled walk reads (one row a situation).

    A DEAL situation is replaced by where the next street starts (the tree has no chance
    nodes) and a RUNOUT by a showdown; ``stack`` bounds the walk's stack.
    """

    root: int
    kind: NDArray[np.int8]
    player: NDArray[np.int8]
    street: NDArray[np.int8]
    n_actions: NDArray[np.int8]
    children: NDArray[np.int64]
    action_kind: NDArray[np.int8]
    raise_to: NDArray[np.int64]
    committed: NDArray[np.int64]
    active: NDArray[np.bool_]
    stack: int
    size: TreeSize


_PLANS: SpecCache[_Plan] = SpecCache("blueprint.betting_tree", maxsize=4)
"""Plans by rules: counting a tree and building it enumerate its situations once."""


def _plan(rules: BettingRules) -> _Plan:
    plan = _PLANS.get(rules)
    if plan is None:
        plan = _make_plan(rules)
        _PLANS.put(rules, plan)
    return plan


def _make_plan(rules: BettingRules) -> _Plan:
    engine = rules.engine_rules()
    cache = BettingNodeCache(engine, budget=0)
    graph = enumerate_betting(cache.root.after_deal(), rules.sizing())
    order = graph.order()
    count = graph.n_situations
    resolve = list(range(count))
    descendants, height = [0] * count, [0] * count
    streets = rules.n_streets
    decisions = [(0,) * streets] * count  # decision nodes below, by street
    width = 1
    for s in reversed(order):
        kind = graph.kind[s]
        if kind == DEAL:
            resolve[s] = resolve[graph.children[s][0]]
        elif kind == DECISION:
            kids = [resolve[c] for c in graph.children[s]]
            descendants[s] = sum(1 + descendants[c] for c in kids)
            below = [sum(decisions[c][street] for c in kids) for street in range(streets)]
            below[graph.street[s]] += 1
            decisions[s] = tuple(below)
            height[s] = 1 + max(height[c] for c in kids)
            width = max(width, len(kids))
    n = rules.n_players
    children = np.full((count, width), -1, dtype=np.int64)
    action_kind = np.full((count, width), -1, dtype=np.int8)
    raise_to = np.zeros((count, width), dtype=np.int64)
    for s in range(count):
        if graph.kind[s] == DECISION:
            p = graph.player[s]
            for j, (action, kid) in enumerate(zip(graph.actions[s], graph.children[s],
                                                  strict=True)):
                children[s, j] = resolve[kid]
                action_kind[s, j] = min(action, RAISE)
                if action >= RAISE:
                    raise_to[s, j] = graph.committed[kid][p]
    root = resolve[graph.root]
    return _Plan(
        root=root,
        kind=np.array([SHOWDOWN if k == RUNOUT else k for k in graph.kind], dtype=np.int8),
        player=np.array(graph.player, dtype=np.int8),
        street=np.array(graph.street, dtype=np.int8),
        n_actions=np.array([len(a) for a in graph.actions], dtype=np.int8),
        children=children, action_kind=action_kind, raise_to=raise_to,
        committed=np.array(graph.committed, dtype=np.int64).reshape(count, n),
        active=~np.array(graph.folded, dtype=np.bool_).reshape(count, n),
        stack=1 + height[root] * width,
        size=TreeSize(1 + descendants[root], sum(decisions[root]), width, n, decisions[root]),
    )  # fmt: skip


def tree_size(rules: BettingRules) -> TreeSize:
    """The size of the betting tree of ``rules`` (cheap: counted from its situations)."""
    return _plan(rules).size


def check_tree(size: TreeSize, memory_limit: int = DEFAULT_MEMORY_LIMIT) -> None:
    """Refuse a betting tree whose arrays would pass ``memory_limit`` (or 2**31 nodes).

    From the count alone (:func:`tree_size`), so a command can refuse before it builds
    anything.

    Raises:
        GameTooLargeError: naming the tree's size and what to change.
    """
    if size.bytes > memory_limit or size.n_nodes >= 2**31:
        raise GameTooLargeError(
            f"the betting tree has {size.describe()}, over the memory limit of "
            f"{memory_limit / 1e6:,.0f} MB; use fewer bet sizes or a lower max_raises, or "
            "raise the limit (POKERLAB_MEMORY_LIMIT=16G)", found=size.bytes, limit=memory_limit,
        )  # fmt: skip


def build_tree(rules: BettingRules, *, memory_limit: int = DEFAULT_MEMORY_LIMIT) -> BettingTree:
    """Unfold the betting tree of ``rules`` into arrays.

    Order (what blueprint files index): the root is 0; a node's children are contiguous,
    numbered when their parent is, and the subtree of its last child is numbered before
    the subtree of the one before it (a depth-first walk with a stack).

    Raises:
        GameTooLargeError: if the arrays would pass ``memory_limit`` (bytes; the size and
            what to change are in the message).
    """
    plan = _plan(rules)
    size = plan.size
    check_tree(size, memory_limit)
    count, width, n = size.n_nodes, size.max_actions, rules.n_players
    kind = np.empty(count, dtype=np.int8)
    player = np.empty(count, dtype=np.int8)
    street = np.empty(count, dtype=np.int8)
    n_actions = np.empty(count, dtype=np.int8)
    children = np.full((count, width), -1, dtype=np.int32)
    action_kind = np.full((count, width), -1, dtype=np.int8)
    raise_to = np.zeros((count, width), dtype=np.int64)
    contributions = np.empty((count, n), dtype=np.int64)
    active = np.empty((count, n), dtype=np.bool_)
    parent = np.empty(count, dtype=np.int32)
    levels = _unfold(
        plan.root, plan.stack, plan.kind, plan.player, plan.street, plan.n_actions,
        plan.children, plan.action_kind, plan.raise_to, plan.committed, plan.active, kind,
        player, street, n_actions, children, action_kind, raise_to, contributions, active,
        parent,
    )  # fmt: skip
    decision_index = np.full(count, -1, dtype=np.int32)
    decisions = np.flatnonzero(kind == DECISION)
    decision_index[decisions] = np.arange(decisions.size, dtype=np.int32)
    return BettingTree(
        rules=rules, kind=kind, player=player, street=street, n_actions=n_actions,
        children=children, action_kind=action_kind, raise_to=raise_to,
        contributions=contributions, active=active, decision_index=decision_index,
        parent=parent, n_levels=int(levels),
    )  # fmt: skip


@njit(cache=True)
def _unfold(root, stack_size, s_kind, s_player, s_street, s_actions, s_children,  # type: ignore[no-untyped-def]
            s_action_kind, s_raise_to, s_committed, s_active, kind, player, street, n_actions,
            children, action_kind, raise_to, contributions, active, parent):
    """Number the nodes (see :func:`build_tree`) and copy each one's situation; levels."""
    stack_node = np.empty(stack_size, dtype=np.int64)
    stack_situation = np.empty(stack_size, dtype=np.int64)
    depth = np.empty(stack_size, dtype=np.int64)
    _copy(0, root, -1, s_kind, s_player, s_street, s_actions, s_committed, s_active, kind,
          player, street, n_actions, contributions, active, parent)
    stack_node[0], stack_situation[0], depth[0] = 0, root, 0
    top, free, levels = 1, 1, 1
    while top > 0:
        top -= 1
        node, situation, level = stack_node[top], stack_situation[top], depth[top]
        if level + 2 > levels:
            levels = level + 2
        for j in range(s_actions[situation]):
            kid = s_children[situation, j]
            child = free
            free += 1
            children[node, j] = child
            action_kind[node, j] = s_action_kind[situation, j]
            raise_to[node, j] = s_raise_to[situation, j]
            _copy(child, kid, node, s_kind, s_player, s_street, s_actions, s_committed,
                  s_active, kind, player, street, n_actions, contributions, active, parent)
            if s_kind[kid] == DECISION:
                stack_node[top], stack_situation[top], depth[top] = child, kid, level + 1
                top += 1
    return levels


@njit(cache=True, inline="always")
def _copy(node, situation, up, s_kind, s_player, s_street, s_actions, s_committed, s_active,  # type: ignore[no-untyped-def]
          kind, player, street, n_actions, contributions, active, parent):
    decision = s_kind[situation] == DECISION
    kind[node] = s_kind[situation]
    player[node] = s_player[situation] if decision else -1
    street[node] = s_street[situation]
    n_actions[node] = s_actions[situation] if decision else 0
    contributions[node] = s_committed[situation]
    active[node] = s_active[situation]
    parent[node] = up


def rules_from_leduc(game: Game) -> BettingRules:
    """The betting rules of a pokerlab Leduc game (any ranks, cap, stack, 2 or 3 players).

    Raises:
        SpecError: if ``game`` is not a Leduc game.
    """
    from pokerlab.games.leduc import LeducGame

    if not isinstance(game, LeducGame):
        raise SpecError(f"rules_from_leduc needs a leduc game; got {game.spec}")
    n = game.n_players
    return BettingRules(
        n_players=n,
        board_cards=(0, 1),
        antes=(game.ante,) * n,
        blinds=(0,) * n,
        stacks=None if game.stack is None else (game.stack,) * n,
        first_actor=(0, 0),
        bet_sizes=game.bet_sizes,
        raise_caps=(game.raise_cap, game.raise_cap),
    )


def rules_from_holdem(game: Game) -> BettingRules:
    """The betting rules of a pokerlab limit Hold'em game whose stacks never bind.

    Raises:
        SpecError: if ``game`` is not limit Hold'em, or a stack is too short to bet the
            cap on every street (all-ins in limit are not modelled here), or has antes.
    """
    from pokerlab.games.holdem_state import HoldemGame

    if not isinstance(game, HoldemGame):
        raise SpecError(f"rules_from_holdem needs a holdem game; got {game.spec}")
    rules = game.rules
    if rules.no_limit:
        raise SpecError(
            "rules_from_holdem supports limit betting for now; no-limit needs a bet menu "
            f"(got {game.spec})"
        )
    n = rules.n_players
    most = rules.big_blind + sum(
        size * (cap if cap is not None else 0)
        for size, cap in zip(rules.street_bets, rules.raise_caps, strict=True)
    )
    if rules.ante or min(rules.starting_stacks) <= most:
        raise SpecError(
            f"rules_from_holdem needs no ante and stacks above {most} chips (the most a "
            f"capped limit hand can cost); got {game.spec}"
        )
    board = tuple(
        b - a for a, b in zip((0, *rules.board_sizes[:-1]), rules.board_sizes, strict=True)
    )
    openers = tuple(0 if o is None else o for o in rules.openers[1:])
    return BettingRules(
        n_players=n,
        board_cards=board,
        antes=(0,) * n,
        blinds=rules.blinds_paid,
        stacks=rules.starting_stacks,
        first_actor=(rules.preflop_opener, *openers),
        bet_sizes=rules.street_bets,
        raise_caps=rules.raise_caps,
    )


__all__ = [
    "CALL",
    "DECISION",
    "FOLD",
    "FOLDED_OUT",
    "RAISE",
    "ROUNDINGS",
    "SHOWDOWN",
    "BettingRules",
    "BettingTree",
    "TreeSize",
    "build_tree",
    "check_tree",
    "rules_from_holdem",
    "rules_from_leduc",
    "tree_size",
]
