"""The public betting tree of a Hold'em-like game, enumerated once into flat arrays.

The betting of Leduc and Hold'em does not depend on the cards: who acts, what is legal and
how many chips each player has in are functions of the actions alone. The blueprint trainer
therefore enumerates this tree once (here, in Python: it is small) and its compiled kernels
walk it with integers only: a node index, a child index per action, the chips each player
has in, and at a terminal whether it is a fold or a showdown and who is still in.

:class:`BettingRules` describes the betting: players, board cards per street, antes and
blinds, stacks, and either limit bet sizes with a cap on bets per street, or no-limit with
a bet menu. The menu is the format of :mod:`pokerlab.abstraction.bet_menu` (per street pot
percentages, raise multiples ``"2.5x"`` and all-in ``"a"``, e.g.
``"2.5x,a/33%,75%,a/75%,a/a"``), its amounts worked out by that module's
:func:`~pokerlab.abstraction.bet_menu.street_raises`, the same definition the engine-side
menu and LBR use. Blueprints written before per-street menus recorded ``pot_fractions``
instead (the same fractions on every street, all-in always offered, sizes below the
minimum raise left out): such rules still build the tree they were trained on. Adapters
build the rules from pokerlab's Leduc (:func:`rules_from_leduc`) and limit Hold'em
(:func:`rules_from_holdem`) games.

Semantics follow pokerlab's engines: a round ends when every player still in has called
(checked) since the last bet, or checked when nothing was bet; a limit bet beyond a
player's stack is an all-in for what is left; a player facing an all-in may only fold or
call; after a round in which everyone still in is all-in, the hand goes to showdown.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pokerlab.abstraction.bet_menu import BetMenu, parse_bet_menu, street_raises
from pokerlab.errors import GameTooLargeError, SpecError
from pokerlab.games.base import Game

FOLD, CALL, RAISE = 0, 1, 2
"""Action kinds: fold, check or call, bet or raise (to the amount in ``raise_to``)."""
DECISION, FOLDED_OUT, SHOWDOWN = 0, 1, 2
"""Node kinds: a player acts; everyone but one folded; a showdown among those still in."""
MAX_NODES = 2_000_000
"""The most nodes :func:`build_tree` enumerates before it refuses the rules."""


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
        bet_menu: no-limit: the bet menu of each street in the
            :mod:`~pokerlab.abstraction.bet_menu` format (e.g.
            ``"2.5x,a/33%,75%,a/75%,a/a"``); None: the old ``pot_fractions`` menu.
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
            if self.bet_menu is not None:
                if self.pot_fractions:
                    raise SpecError(
                        "no-limit rules take a bet_menu or (old files) pot_fractions, not "
                        f"both; got {self.bet_menu!r} and {self.pot_fractions!r}"
                    )
                parse_bet_menu(self.bet_menu, n_streets=self.n_streets)
            if self.max_raises < 1:
                raise SpecError(f"max_raises must be >= 1; got {self.max_raises}")

    @property
    def limit(self) -> bool:
        """True for limit betting (fixed bet sizes), False for no-limit with a bet menu."""
        return bool(self.bet_sizes)

    @property
    def n_streets(self) -> int:
        """Betting rounds."""
        return len(self.board_cards)

    def menu(self) -> BetMenu | None:
        """The parsed ``bet_menu`` (None for limit rules and old ``pot_fractions`` ones)."""
        if self.bet_menu is None:
            return None
        return parse_bet_menu(self.bet_menu, n_streets=self.n_streets)


@dataclass(frozen=True)
class BettingTree:
    """The enumerated betting tree; node 0 is the root, children follow their parent.

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
        contributions: ``[nodes, players]`` chips each player has put in, antes included.
        active: ``[nodes, players]`` True for players who have not folded.
        decision_index: ``[nodes]`` 0.. over decision nodes (rows of regret tables), -1
            at terminals.
        parent: ``[nodes]`` the parent node, -1 at the root.
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


@dataclass
class _Node:
    street: int
    contributions: list[int]
    folded: list[bool]
    stakes: int  # the contribution every player still in must match
    base: int  # the stakes when this street began: street bets are measured from it
    n_raises: int
    acted: list[bool]  # acted since the last bet or raise of this street
    last_increment: int
    to_act: int


def _total_stacks(rules: BettingRules) -> list[int] | None:
    return None if rules.stacks is None else list(rules.stacks)


def _legal(rules: BettingRules, menu: BetMenu | None, node: _Node) -> list[tuple[int, int]]:
    """(kind, raise_to) of each legal action at ``node`` (``menu``: ``rules.menu()``)."""
    p = node.to_act
    mine = node.contributions[p]
    stacks = _total_stacks(rules)
    actions: list[tuple[int, int]] = []
    if node.stakes > mine:
        actions.append((FOLD, 0))
    actions.append((CALL, 0))
    street = node.street
    if rules.limit:
        cap = rules.raise_caps[street]
        if cap is not None and node.n_raises >= cap:
            return actions
        if stacks is not None and node.stakes >= stacks[p]:
            return actions
        target = node.stakes + rules.bet_sizes[street]
        if stacks is not None:
            target = min(target, stacks[p])
        actions.append((RAISE, target))
        return actions
    assert stacks is not None
    others_can_act = any(
        not node.folded[q] and node.contributions[q] < stacks[q]
        for q in range(rules.n_players) if q != p
    )
    if node.n_raises >= rules.max_raises or node.stakes >= stacks[p] or not others_can_act:
        return actions
    pot = sum(node.contributions)
    to_call = node.stakes - mine
    minimum = node.stakes + max(node.last_increment, max(rules.blinds), 1)
    if menu is not None:
        base = node.base  # the menu counts this street's chips, as the engine's bets
        amounts = street_raises(
            menu.streets[street], max_bet=node.stakes - base, pot=pot,
            to_call=to_call, all_in=stacks[p] - base, low=minimum - base,
            all_in_threshold=menu.all_in_threshold,
        )  # fmt: skip
        actions.extend((RAISE, base + amount) for amount in amounts)
        return actions
    targets: set[int] = set()
    for fraction in rules.pot_fractions:
        target = node.stakes + round(fraction * (pot + to_call))
        if target >= stacks[p]:
            targets.add(stacks[p])
        elif target >= minimum:
            targets.add(target)
    targets.add(stacks[p])
    actions.extend((RAISE, t) for t in sorted(targets))
    return actions


def _next_active(rules: BettingRules, node: _Node, start: int) -> int:
    """The first player still in with chips behind at or after seat ``start``."""
    stacks = _total_stacks(rules)
    n = rules.n_players
    for i in range(n):
        q = (start + i) % n
        if not node.folded[q] and (stacks is None or node.contributions[q] < stacks[q]):
            return q
    return -1


def _apply(rules: BettingRules, node: _Node, kind: int, raise_to: int) -> tuple[int, _Node]:
    """The node kind after the action, and the new betting state."""
    n = rules.n_players
    p = node.to_act
    child = _Node(
        node.street, list(node.contributions), list(node.folded), node.stakes, node.base,
        node.n_raises, list(node.acted), node.last_increment, -1,
    )
    stacks = _total_stacks(rules)
    if kind == FOLD:
        child.folded[p] = True
    elif kind == CALL:
        owed = child.stakes if stacks is None else min(child.stakes, stacks[p])
        child.contributions[p] = max(child.contributions[p], owed)
    else:
        child.last_increment = max(child.last_increment, raise_to - child.stakes)
        child.stakes = raise_to
        child.contributions[p] = raise_to
        child.n_raises += 1
        child.acted = [False] * n
    child.acted[p] = True
    remaining = n - child.folded.count(True)
    if remaining == 1:
        return FOLDED_OUT, child
    round_over = all(
        child.acted[q] and child.contributions[q] == child.stakes
        for q in range(n)
        if not child.folded[q] and (stacks is None or child.contributions[q] < stacks[q])
    )
    if not round_over:
        nxt = _next_active(rules, child, p + 1)
        if nxt >= 0:
            child.to_act = nxt
            return DECISION, child
    if child.street + 1 == rules.n_streets:
        return SHOWDOWN, child
    can_act = [
        q for q in range(n)
        if not child.folded[q] and (stacks is None or child.contributions[q] < stacks[q])
    ]
    if len(can_act) <= 1 and (
        not can_act or stacks is None or child.contributions[can_act[0]] >= child.stakes
    ):
        return SHOWDOWN, child  # nobody can bet any more: the board runs out
    child.street += 1
    child.n_raises, child.acted, child.last_increment = 0, [False] * n, 0
    child.base = child.stakes
    child.to_act = _next_active(rules, child, rules.first_actor[child.street])
    return DECISION, child


def build_tree(rules: BettingRules, *, max_nodes: int = MAX_NODES) -> BettingTree:
    """Enumerate the betting tree of ``rules`` into arrays (depth first, root = 0).

    Raises:
        GameTooLargeError: if the tree has more than ``max_nodes`` nodes.
    """
    n = rules.n_players
    contributions = [a + b for a, b in zip(rules.antes, rules.blinds, strict=True)]
    blinds = list(rules.blinds)
    root = _Node(0, contributions, [False] * n, 0, max(rules.antes), 0, [False] * n,
                 max(blinds), -1)
    root.stakes = max(a + b for a, b in zip(rules.antes, blinds, strict=True))
    root.to_act = _next_active(rules, root, rules.first_actor[0])
    kinds: list[int] = []
    players: list[int] = []
    streets: list[int] = []
    contrib: list[list[int]] = []
    active: list[list[bool]] = []
    parents: list[int] = []
    edges: list[list[tuple[int, int, int]]] = []  # (kind, raise_to, child)

    def add(kind: int, node: _Node, parent: int) -> int:
        if len(kinds) >= max_nodes:
            raise GameTooLargeError(
                f"the betting tree has more than {max_nodes} nodes; use fewer bet sizes "
                "or a lower max_raises", found=len(kinds) + 1, limit=max_nodes,
            )
        kinds.append(kind)
        players.append(node.to_act if kind == DECISION else -1)
        streets.append(node.street)
        contrib.append(list(node.contributions))
        active.append([not f for f in node.folded])
        parents.append(parent)
        edges.append([])
        return len(kinds) - 1

    menu = rules.menu()
    stack: list[tuple[int, _Node]] = [(add(DECISION, root, -1), root)]
    while stack:
        index, node = stack.pop()
        for kind, raise_to in _legal(rules, menu, node):
            child_kind, child = _apply(rules, node, kind, raise_to)
            child_index = add(child_kind, child, index)
            edges[index].append((kind, raise_to, child_index))
            if child_kind == DECISION:
                stack.append((child_index, child))
    count = len(kinds)
    width = max(len(e) for e in edges)
    children = np.full((count, width), -1, dtype=np.int32)
    action_kind = np.full((count, width), -1, dtype=np.int8)
    raise_to_arr = np.zeros((count, width), dtype=np.int64)
    for i, row in enumerate(edges):
        for j, (kind, raise_to, child_index) in enumerate(row):
            children[i, j] = child_index
            action_kind[i, j] = kind
            raise_to_arr[i, j] = raise_to
    kind_arr = np.array(kinds, dtype=np.int8)
    decision_index = np.full(count, -1, dtype=np.int32)
    decisions = np.flatnonzero(kind_arr == DECISION)
    decision_index[decisions] = np.arange(decisions.size, dtype=np.int32)
    return BettingTree(
        rules=rules,
        kind=kind_arr,
        player=np.array(players, dtype=np.int8),
        street=np.array(streets, dtype=np.int8),
        n_actions=np.array([len(e) for e in edges], dtype=np.int8),
        children=children,
        action_kind=action_kind,
        raise_to=raise_to_arr,
        contributions=np.array(contrib, dtype=np.int64),
        active=np.array(active, dtype=np.bool_),
        decision_index=decision_index,
        parent=np.array(parents, dtype=np.int32),
    )


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
    "MAX_NODES",
    "RAISE",
    "SHOWDOWN",
    "BettingRules",
    "BettingTree",
    "build_tree",
    "rules_from_holdem",
    "rules_from_leduc",
]
