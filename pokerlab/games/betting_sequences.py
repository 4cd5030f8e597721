"""The betting sequences a menu allows, enumerated once on the engine's own rules.

A no-limit tree offers a few sizes (a :class:`~pokerlab.games.bet_sizes.BetMenu`) where
the rules allow any amount; a limit tree offers what the rules allow. Either way the
rules are the engine's: every node here is a
:class:`~pokerlab.games.holdem_betting.BettingNode`, the node
:class:`~pokerlab.games.holdem_state.HoldemState` plays on, so who
acts, the raise bounds, short all-ins, caps, the end of a round and the uncalled chips are
worked out by the one implementation of Hold'em's betting. This module only chooses
which raises to follow (:meth:`BetMenu.amounts` of the node's numbers) and records the
result.

Every walk here takes the same step at a decision: the tree's actions there (a menu's
choice: :func:`node_actions` from a bet menu, or any menu's answer checked against the
engine and put in tree order by :func:`offered_actions`), then :func:`decision_steps`,
what each action leads to: the engine's node after it and its kind
(:func:`situation_kind`). Two walks take that step:

- :func:`enumerate_betting` merges equal situations: the betting of the rest of a hand
  depends on the chips and the round's counters, not on how they came about, so its
  :class:`BettingGraph` has one *situation* per distinct future (three-handed limit
  Hold'em: 7,000 situations for a tree of 24 million nodes). Its consumers unfold it into
  their own trees: the blueprint's arrays (:mod:`pokerlab.blueprint.betting_tree`) and
  the spot's public tree, card by card (:mod:`pokerlab.subgame.spot`);
- the searcher's subgame (:mod:`pokerlab.subgame.holdem_subgame`) walks path by path,
  merging nothing: its menu depends on the path (the blueprint's node the events reach
  sizes the bets, and the action the hand really took is added), so two paths to one
  situation may offer different actions. It takes the same step at each of its
  decisions, the cards dealt between streets being its own.

Situation kinds: ``DECISION`` (a player acts), ``FOLDED_OUT`` (one player left),
``SHOWDOWN`` (the last street's betting is over), ``DEAL`` (a street's betting is over and
the next one's will follow its cards; in a graph, one child: where that betting starts)
and ``RUNOUT`` (the betting is over for good, at most one player still in has chips: the
remaining cards are dealt, then a showdown). At the last four, a graph's ``committed``
counts the chips as the last action left them: a bet nobody called is still in (the
engine returns it when it settles; a consumer that pays from these chips cuts it, as the
blueprint's kernel does). A step's node holds the chips as the engine leaves them, that
bet returned.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Protocol

from pokerlab._types import CHANCE, TERMINAL, Action
from pokerlab.errors import GameTooLargeError, SpecError
from pokerlab.games.bet_sizes import BetContext, BetMenu, SizeTable
from pokerlab.games.holdem_betting import BettingNode
from pokerlab.games.holdem_rules import CALL, FOLD, RAISE
from pokerlab.games.holdem_state import HoldemState

DECISION, FOLDED_OUT, SHOWDOWN, DEAL, RUNOUT = 0, 1, 2, 3, 4
"""Situation kinds (see the module docstring)."""


class Sizing(Protocol):
    """What chooses a no-limit node's raises: a :class:`BetMenu`, or an old file's rule."""

    @property
    def donks(self) -> SizeTable | None:
        """Donk-bet sizes; None when donk bets are sized as other bets."""

    def amounts(self, context: BetContext) -> tuple[int, ...]:
        """The raise-to amounts offered at ``context``, ascending."""


@dataclass(frozen=True)
class BettingGraph:
    """The distinct betting situations of a tree, and the actions between them.

    Tuples indexed by situation (``root`` first); chips are the engine's (antes and
    blinds included in ``committed``; ``bets`` this street's).

    Attributes:
        kind: DECISION, FOLDED_OUT, SHOWDOWN, DEAL or RUNOUT.
        player: the player to act (-1 elsewhere).
        street: a decision's street; elsewhere the street of the action that led there.
        committed: chips each player has in (see the module docstring at terminals).
        folded: whether each player has folded.
        bets: a decision's bets this street (zeros elsewhere).
        behind: chips each player has left.
        actions: a decision's actions, engine ids (``RAISE + X`` raises to ``X``).
        children: the situation after each action; a DEAL's one child is where the
            next street's betting starts.
        donk: True at a decision where a donk bet leads (see
            :mod:`pokerlab.games.bet_sizes`).
    """

    kind: tuple[int, ...]
    player: tuple[int, ...]
    street: tuple[int, ...]
    committed: tuple[tuple[int, ...], ...]
    folded: tuple[tuple[bool, ...], ...]
    bets: tuple[tuple[int, ...], ...]
    behind: tuple[tuple[int, ...], ...]
    actions: tuple[tuple[Action, ...], ...]
    children: tuple[tuple[int, ...], ...]
    donk: tuple[bool, ...]

    root: int = 0

    @property
    def n_situations(self) -> int:
        """Situations in the graph."""
        return len(self.kind)

    def order(self) -> list[int]:
        """The situations in topological order: every parent before its children."""
        seen = [False] * self.n_situations
        post: list[int] = []
        stack: list[tuple[int, int]] = [(self.root, 0)]
        seen[self.root] = True
        while stack:
            node, next_child = stack[-1]
            kids = self.children[node]
            if next_child < len(kids):
                stack[-1] = (node, next_child + 1)
                kid = kids[next_child]
                if not seen[kid]:
                    seen[kid] = True
                    stack.append((kid, 0))
            else:
                stack.pop()
                post.append(node)
        return post[::-1]


Step = tuple[Action, int, BettingNode]
"""One action at a decision, ``(action, kind, node)``: the engine action (``RAISE + X``
raises to ``X``), the kind of what follows it (DECISION, FOLDED_OUT, SHOWDOWN, DEAL or
RUNOUT) and the engine's node there, its chips as the engine leaves them (a bet nobody
called already given back)."""


def situation_kind(node: BettingNode) -> int:
    """What an engine node is to a tree: DECISION, FOLDED_OUT, SHOWDOWN, DEAL or RUNOUT."""
    if node.to_act >= 0:
        return DECISION
    if node.to_act == TERMINAL:
        return FOLDED_OUT if node.folded.count(False) == 1 else SHOWDOWN
    assert node.to_act == CHANCE
    return RUNOUT if node.runout else DEAL


def offered_actions(node: BettingNode, offered: Iterable[Action], *,
                    taken: Action | None = None, where: object = "this decision"
                    ) -> tuple[Action, ...]:
    """The actions a tree holds at the decision ``node``: a menu's, checked, in tree order.

    The menu's ``offered`` and ``taken`` (an action the tree holds whatever the menu says:
    the hand's own), each once, in the order of every tree: the engine's in limit, by id
    in no-limit (fold, call, then the raises by amount), as :func:`node_actions` gives
    them.

    Args:
        node: a decision node.
        offered: the menu's actions there.
        taken: an action to hold besides, or None.
        where: names the node in an error (a subgame gives its events).

    Raises:
        SpecError: an action that is not legal at ``node``, or none at all.
    """
    listed = [int(action) for action in offered]
    for action in listed:
        if not node.is_legal(action):
            raise SpecError(f"the menu offers {action}, not legal at {where}")
    actions = set(listed)
    if taken is not None:
        if not node.is_legal(taken):
            raise SpecError(f"the action taken, {taken}, is not legal at {where}")
        actions.add(int(taken))
    if not actions:
        raise SpecError(f"the menu offers no action at {where}")
    if node.cache.no_limit:
        return tuple(sorted(actions))
    return tuple(action for action in node.legal_actions() if action in actions)


def decision_steps(node: BettingNode, actions: Iterable[Action]) -> list[Step]:
    """Each of a tree's ``actions`` at the decision ``node``, with what follows it.

    This is the step every walk of this module takes at a decision, merging or not;
    ``actions`` are legal there, in tree order (:func:`node_actions` or
    :func:`offered_actions`).
    """
    steps: list[Step] = []
    for action in actions:
        child = node.child(action)
        steps.append((action, situation_kind(child), child))
    return steps


class _Builder:
    """Interns situations while the enumeration walks the engine's nodes."""

    def __init__(self, sizing: Sizing | None, no_limit: bool,
                 max_situations: int | None = None) -> None:
        self.sizing = sizing
        self.no_limit = no_limit
        self.max_situations = max_situations
        self.with_donks = sizing is not None and sizing.donks is not None
        self.index: dict[Hashable, int] = {}
        self.kind: list[int] = []
        self.player: list[int] = []
        self.street: list[int] = []
        self.committed: list[tuple[int, ...]] = []
        self.folded: list[tuple[bool, ...]] = []
        self.bets: list[tuple[int, ...]] = []
        self.behind: list[tuple[int, ...]] = []
        self.actions: list[tuple[Action, ...]] = []
        self.children: list[tuple[int, ...]] = []
        self.donk: list[bool] = []
        self.pending: list[tuple[int, BettingNode]] = []  # decisions and deals to expand

    def add(self, key: Hashable, kind: int, player: int, street: int, node: BettingNode,
            committed: tuple[int, ...], *, donk: bool = False) -> tuple[int, bool]:
        """The situation of ``key`` (new: appended, True)."""
        found = self.index.get(key)
        if found is not None:
            return found, False
        number = len(self.kind)
        if self.max_situations is not None and number >= self.max_situations:
            raise GameTooLargeError(
                f"the betting tree has more than {self.max_situations:,} betting situations; "
                "use fewer bet and raise sizes, a raise cap, or a smaller stack",
                found=number + 1, limit=self.max_situations)
        self.index[key] = number
        self.kind.append(kind)
        self.player.append(player)
        self.street.append(street)
        self.committed.append(committed)
        self.folded.append(node.folded)
        self.bets.append(node.bets if kind == DECISION else (0,) * len(node.bets))
        self.behind.append(node.behind)
        self.actions.append(())
        self.children.append(())
        self.donk.append(donk)
        return number, True

    def decision(self, node: BettingNode, *, donk: bool) -> int:
        """The situation of a decision node (queued for expansion when new)."""
        key = (DECISION, node.street, node.behind, node.bets, node.committed, node.folded,
               node.to_act, node.actors, node.raise_amount, node.raise_count, node.acted,
               node.short_all_ins, donk)  # fmt: skip
        number, new = self.add(key, DECISION, node.to_act, node.street, node, node.committed,
                               donk=donk)
        if new:
            self.pending.append((number, node))
        return number

    def after(self, parent: BettingNode, action: Action, kind: int, node: BettingNode) -> int:
        """The situation after ``action`` at the decision ``parent`` (a step's)."""
        if kind == DECISION:
            return self.decision(node, donk=False)
        committed = _before_returns(parent, action, self.no_limit)
        street = parent.street
        if kind != DEAL:  # FOLDED_OUT, SHOWDOWN or RUNOUT: the betting is over
            return self.add((kind, street, committed, node.folded), kind, -1, street, node,
                            committed)[0]
        called = action == CALL and max(parent.bets) > parent.bets[parent.to_act]
        # a call of a bet closed the street: its caller may lead the next one (a donk bet)
        closer = parent.to_act if called and self.with_donks else -1
        number, new = self.add((DEAL, street, committed, node.folded, node.behind, closer),
                               DEAL, -1, street, node, committed)
        if new:
            self.children[number] = (self._next_street(node, closer, street),)
        return number

    def _next_street(self, chance: BettingNode, closer: int, street: int) -> int:
        node = chance.after_deal()
        kind = situation_kind(node)
        while kind == DEAL:  # a street nobody can bet on: deal on
            node = node.after_deal()
            kind = situation_kind(node)
        if kind == DECISION:
            return self.decision(node, donk=self.with_donks and node.to_act == closer)
        # SHOWDOWN or RUNOUT (nobody folds during a deal)
        return self.add((kind, street, node.committed, node.folded), kind, -1, street, node,
                        node.committed)[0]

    def expand(self, number: int, node: BettingNode) -> None:
        actions = node_actions(node, self.sizing, donk=self.donk[number])
        self.actions[number] = actions
        self.children[number] = tuple([self.after(node, action, kind, child)
                                       for action, kind, child in decision_steps(node, actions)])

    def graph(self) -> BettingGraph:
        return BettingGraph(
            tuple(self.kind), tuple(self.player), tuple(self.street), tuple(self.committed),
            tuple(self.folded), tuple(self.bets), tuple(self.behind), tuple(self.actions),
            tuple(self.children), tuple(self.donk),
        )  # fmt: skip


def _before_returns(parent: BettingNode, action: Action, no_limit: bool) -> tuple[int, ...]:
    """Chips in after ``action`` at ``parent``, before any uncalled bet is given back."""
    player = parent.to_act
    committed = list(parent.committed)
    if action == CALL:
        committed[player] += min(parent.behind[player], max(parent.bets) - parent.bets[player])
    elif action >= RAISE:
        bounds = parent.raise_bounds()
        assert bounds is not None
        to = action - RAISE if no_limit else bounds[0]
        committed[player] += to - parent.bets[player]
    return tuple(committed)


def node_context(node: BettingNode, *, donk: bool = False) -> BetContext | None:
    """The numbers a menu sizes at a decision node (None: no raise is legal)."""
    bounds = node.raise_bounds()
    if bounds is None:
        return None
    player = node.to_act
    faced = max(node.bets)
    return BetContext(node.street, player, faced, sum(node.committed),
                      min(node.behind[player], faced - node.bets[player]), bounds[0],
                      bounds[1], node.raise_count, donk)


def node_actions(node: BettingNode, sizing: Sizing | None, *, donk: bool = False
                 ) -> tuple[Action, ...]:
    """The actions a tree offers at a decision node: fold (when owed), call, its raises.

    Limit nodes offer their legal actions; no-limit ones the raises ``sizing`` chooses.

    Raises:
        SpecError: a no-limit node without a sizing.
    """
    if not node.cache.no_limit:
        return node.legal_actions()
    if sizing is None:
        raise SpecError("a no-limit betting tree needs bet sizes (a bet menu)")
    owed = max(node.bets) > node.bets[node.to_act]
    base: tuple[Action, ...] = (FOLD, CALL) if owed else (CALL,)
    context = node_context(node, donk=donk)
    if context is None:
        return base
    return base + tuple(RAISE + amount for amount in sizing.amounts(context))


def enumerate_betting(start: BettingNode, sizing: Sizing | None, *,
                      max_situations: int | None = None) -> BettingGraph:
    """Every betting sequence ``sizing`` allows from ``start`` (a decision), merged.

    Args:
        start: the first decision of the tree (a hand's first, or a street's).
        sizing: the bet menu of a no-limit game (None for limit).
        max_situations: refuse a tree of more situations than this (None: no bound), as
            soon as the walk passes it (a menu of many sizes and deep stacks can have
            billions).

    Raises:
        SpecError: ``start`` is not a decision, or a no-limit game without sizes.
        GameTooLargeError: more than ``max_situations`` situations.
    """
    if start.to_act < 0:
        raise SpecError("a betting tree starts at a decision (a player to act)")
    if start.cache.no_limit and sizing is None:
        raise SpecError("a no-limit betting tree needs bet sizes (a bet menu)")
    builder = _Builder(sizing, start.cache.no_limit, max_situations)
    builder.decision(start, donk=False)
    while builder.pending:
        number, node = builder.pending.pop()
        builder.expand(number, node)
    return builder.graph()


def state_context(state: HoldemState) -> BetContext | None:
    """The numbers a menu sizes at a no-limit state's decision (None: no raise is legal).

    Raises:
        SpecError: not a no-limit decision.
    """
    if not state.game.no_limit or state.to_act < 0:
        raise SpecError("menu raises need a no-limit Hold'em state with a player to act")
    bounds = state.raise_range()
    if bounds is None:
        return None
    player = state.to_act
    return BetContext(state.street, player, max(state.bets), state.pot,
                      state.to_call(player), bounds[0], bounds[1], state.raise_count)


def menu_raises(menu: BetMenu, state: HoldemState) -> tuple[int, ...]:
    """The menu's raise-to amounts at a no-limit state (what a tree would offer there).

    Raises:
        SpecError: not a no-limit decision, or a menu with donk sizes (whether a state is
            a donk bet depends on who called before: trees work it out, a lone state
            does not).
    """
    if menu.donks is not None:
        raise SpecError("donk sizes are for betting trees (spots, blueprints); give this "
                        "menu without them")
    context = state_context(state)
    return () if context is None else menu.amounts(context)


__all__ = [
    "DEAL",
    "DECISION",
    "FOLDED_OUT",
    "RUNOUT",
    "SHOWDOWN",
    "BettingGraph",
    "Sizing",
    "Step",
    "decision_steps",
    "enumerate_betting",
    "menu_raises",
    "node_actions",
    "node_context",
    "offered_actions",
    "situation_kind",
    "state_context",
]
