"""The blueprint seen from a subgame: its menu, its strategy over every hand, its ranges.

The searching Hard AI (:mod:`pokerlab.agents.search_policy`) re-solves subgames built by
:func:`pokerlab.subgame.holdem_subgame.build_subgame`; this module is what the blueprint
(a :class:`~pokerlab.blueprint.policy.BlueprintPolicy`) tells it there:

- :meth:`BlueprintView.menu`: at each decision of the subgame, the actions the blueprint's
  betting tree offers there, as real actions
  (:func:`~pokerlab.blueprint.policy.menu_targets`: a raise putting in the same total as
  the abstract one). The subgame's tree is thus the blueprint's own, plus the off-menu
  actions the hand really took;
- :meth:`BlueprintView.reference`: the blueprint's strategy at every decision of one
  player in the subgame, for every hand (its bucket on that node's board, the average
  strategy of that row), spread over the subgame's actions: the strategy search refines
  and the safety gadget protects;
- :meth:`BlueprintView.action_likelihood`: the blueprint's probability of a real action
  for every hole-card combination (Bayes' factor of the range update); an off-menu raise
  gets the probabilities of the menu raises around it, weighted as pseudo-harmonic
  translation weighs them.

The abstract node of each subgame node follows the real events: along the hand's real
history it is the blueprint policy's own
(:meth:`~pokerlab.blueprint.policy.BlueprintPolicy.abstract_state`, translation
included), below it the abstract child whose real action was taken.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence

import numpy as np

from pokerlab._types import Action, FloatArray, IntArray
from pokerlab.blueprint.betting_tree import DECISION, RAISE
from pokerlab.blueprint.nolimit import raise_fraction, raise_translation
from pokerlab.blueprint.policy import CALL_ACTION, BlueprintPolicy, menu_targets
from pokerlab.errors import GameTooLargeError, SpecError
from pokerlab.games.bet_sizes import BetMenu
from pokerlab.games.betting_sequences import node_actions
from pokerlab.games.holdem_betting import BettingNode
from pokerlab.games.holdem_state import HoldemState
from pokerlab.games.observation import Observation
from pokerlab.subgame.holdem_subgame import Event, HoldemSubgame, Menu, hole_combos


class BlueprintView:
    """A blueprint policy's answers about one subgame's nodes (see the module docstring).

    Args:
        policy: the blueprint policy.
        root: the real state at the subgame's root (any stand-in cards for the others);
            None for :meth:`action_likelihood` alone.
        path: the real events below the root (the hand's history in the subgame).
    """

    def __init__(self, policy: BlueprintPolicy, root: HoldemState | None = None,
                 path: Sequence[Event] = ()) -> None:
        self.policy = policy
        self.trainer = policy.trainer
        self.tree = policy.trainer.tree
        self._root = root
        self.path = tuple(path)
        self.rules = policy.game.rules  # type: ignore[attr-defined]
        self.combos = hole_combos(self.rules)
        self._abstract: dict[tuple[Event, ...], int] = {}
        self._nodes: dict[tuple[Event, ...], BettingNode] = (
            {} if root is None else {(): root.betting_node})
        self._buckets: dict[tuple[int, ...], IntArray] = {}
        self._targets: dict[tuple[int, BettingNode], tuple[Action, ...]] = {}
        self._children: dict[tuple[int, BettingNode, Action], int] = {}

    @property
    def nbytes(self) -> int:
        """Bytes of the bucket tables this view keeps (one per board it read)."""
        return sum(int(table.nbytes) for table in self._buckets.values())

    # -- abstract nodes ---------------------------------------------------------------------
    @property
    def root(self) -> HoldemState:
        """The real state at the subgame's root.

        Raises:
            SpecError: a view made without one.
        """
        if self._root is None:
            raise SpecError("this blueprint view has no subgame root")
        return self._root

    def _state_after(self, events: Sequence[Event]) -> HoldemState:
        state = self.root
        for _, value in events:
            state = state.child(value)
        assert isinstance(state, HoldemState)
        return state

    def abstract_of(self, events: tuple[Event, ...]) -> int:
        """The abstract node standing for the subgame node reached by ``events``.

        Below the real path, the parent decision's betting node must have been met (the
        subgame builder asks :meth:`menu` at every decision, parents first).
        """
        found = self._abstract.get(events)
        if found is not None:
            return found
        if self.path[: len(events)] == events:
            state = self._state_after(events)
            seat = max(state.player, 0)
            found = self.policy.abstract_state(state.observation(seat))[0]
        else:
            kind, value = events[-1]
            parent = self.abstract_of(events[:-1])
            found = parent if kind == "c" else self._child(parent, self._nodes[events[:-1]],
                                                           value)
        self._abstract[events] = found
        return found

    def _child(self, abstract: int, node: BettingNode, action: Action) -> int:
        """The abstract child of ``abstract`` for the real ``action`` at ``node``.

        Kept per (abstract node, betting node, action), as :meth:`targets`.
        """
        key = (abstract, node, action)
        found = self._children.get(key)
        if found is None:
            found = self._children[key] = self._translated(abstract, node, action)
        return found

    def _translated(self, abstract: int, node: BettingNode, action: Action) -> int:
        tree = self.tree
        if tree.kind[abstract] != DECISION or int(tree.player[abstract]) != node.to_act:
            return abstract  # the abstract hand is over: it stays there
        targets = self.targets(abstract, node)
        if action in targets:
            return int(tree.children[abstract, targets.index(action)])
        if action >= RAISE and any(int(k) == RAISE for k in tree.action_kind[abstract]):
            weights = raise_translation(tree, abstract, self._fraction(node, action))
            return max(weights, key=weights.__getitem__)
        kinds = tree.action_kind[abstract, : int(tree.n_actions[abstract])].tolist()
        return int(tree.children[abstract, kinds.index(1)])  # a call

    def _fraction(self, node: BettingNode, action: Action) -> float:
        player = node.to_act
        raise_to = (action - RAISE if self.rules.no_limit
                    else (node.raise_bounds() or (0, 0))[0])
        total = node.committed[player] - node.bets[player] + raise_to
        return raise_fraction([float(c) for c in node.committed], player, float(total))

    def targets(self, abstract: int, node: BettingNode) -> list[Action]:
        """The real action of each of ``abstract``'s actions at the real ``node``.

        Kept per (abstract node, betting node): every card dealt below a subgame's street
        meets the same betting again.
        """
        key = (abstract, node)  # betting nodes compare by their fields
        found = self._targets.get(key)
        if found is not None:
            return list(found)
        player = node.to_act
        bounds = node.raise_bounds() if self.rules.no_limit else None
        targets = menu_targets(self.tree, abstract, node.legal_actions(),
                               committed=float(node.committed[player]),
                               street_bet=float(node.bets[player]), bounds=bounds)
        self._targets[key] = tuple(targets)
        return targets

    # -- the menu ---------------------------------------------------------------------------
    def menu(self, node: BettingNode, events: tuple[Event, ...]) -> list[Action]:
        """The blueprint's actions at a subgame decision (a call where its tree has none)."""
        self._nodes[events] = node
        abstract = self.abstract_of(events)
        tree = self.tree
        if tree.kind[abstract] == DECISION and int(tree.player[abstract]) == node.to_act:
            return sorted(set(self.targets(abstract, node)))
        legal = node.legal_actions()
        return [CALL_ACTION] if CALL_ACTION in legal else [legal[0]]

    def sized_menu(self, sizes: BetMenu) -> Menu:
        """A subgame menu of the search's own sizes (no-limit; limit keeps :meth:`menu`).

        At each decision: fold (when owed), call, and the raises ``sizes`` offers there.
        The blueprint's strategy is projected onto them (:meth:`strategy_at`).
        """
        known: dict[BettingNode, tuple[Action, ...]] = {}  # a street's betting repeats
        # below every card dealt: the sizes there depend on the betting node alone

        def offered(node: BettingNode, events: tuple[Event, ...]) -> list[Action]:
            if not node.cache.no_limit:
                return self.menu(node, events)
            self._nodes[events] = node
            found = known.get(node)
            if found is None:
                found = known[node] = node_actions(node, sizes)
            return list(found)

        return offered

    # -- strategies -------------------------------------------------------------------------
    def _prepare_buckets(self, boards: Iterable[tuple[int, ...]]) -> None:
        """Work out the bucket tables of ``boards`` not kept yet, in one bucket call."""
        wanted = [board for board in dict.fromkeys(boards) if board not in self._buckets]
        if not wanted:
            return
        streets = len(self.rules.board_sizes)
        batches = []
        on_board = np.zeros(int(self.combos.max()) + 1, dtype=bool)
        for board in wanted:
            on_board[list(board)] = True
            batches.append((board, np.flatnonzero(~on_board[self.combos].any(axis=1))))
            on_board[list(board)] = False
        found = self.policy.buckets_on_boards([(board, self.combos[ok]) for board, ok in batches])
        for (board, ok), buckets in zip(batches, found, strict=True):
            table = np.full((len(self.combos), streets), -1, dtype=np.int64)
            table[ok] = buckets
            self._buckets[board] = table

    def _street_buckets(self, board: tuple[int, ...], street: int, ids: IntArray) -> IntArray:
        """Buckets on ``board`` of the combos ``ids`` (-1 for those touching the board)."""
        self._prepare_buckets((board,))
        return np.asarray(self._buckets[board][ids, street], dtype=np.int64)

    def strategy_at(self, abstract: int, node: BettingNode, board: tuple[int, ...],
                    actions: Sequence[Action], ids: IntArray) -> FloatArray:
        """``[len(actions), len(ids)]``: the blueprint's probability of each real action.

        Columns are the combos ``ids``; rows the real ``actions`` of the node. An action
        the blueprint does not take gets 0; where the abstract hand is over the blueprint
        checks or calls. A blueprint action the node does not offer (a search with sizes
        of its own, :meth:`sized_menu`) is projected: a raise onto the offered raise
        nearest in amount (by ratio), anything else onto the call.
        """
        one: FloatArray = self._strategies_at(abstract, node, (board,), actions, ids)[0]
        return one

    def _strategies_at(self, abstract: int, node: BettingNode,
                       boards: Sequence[tuple[int, ...]], actions: Sequence[Action],
                       ids: IntArray) -> FloatArray:
        """:meth:`strategy_at` on each of ``boards`` at once: ``[boards, actions, ids]``.

        The betting below a subgame's chance node repeats on every card it deals, with the
        same abstract node: one blueprint read covers all of them.
        """
        tree = self.tree
        out = np.zeros((len(boards), len(actions), len(ids)))
        if tree.kind[abstract] != DECISION or int(tree.player[abstract]) != node.to_act:
            if CALL_ACTION in actions:
                out[:, list(actions).index(CALL_ACTION)] = 1.0
            else:
                out[:] = 1.0 / len(actions)
            return out
        n = int(tree.n_actions[abstract])
        street = int(tree.street[abstract])
        self._prepare_buckets(boards)
        buckets = np.stack([self._buckets[board][ids, street] for board in boards])
        valid = buckets >= 0
        # The node's strategy per bucket, projected onto the offered actions, then read
        # for every (board, hand): a few dozen buckets stand for thousands of hands.
        count = self.trainer.cards.bucket_counts[street]
        probs = self.trainer.average_rows(self.trainer.row_of(abstract, 0) + np.arange(count), n)
        projected = np.zeros((count, len(actions)))
        offered = list(actions)
        for j, target in enumerate(self.targets(abstract, node)):
            column = _projected(target, offered)
            if column is not None:
                projected[:, column] += probs[:, j]
        out = projected[np.where(valid, buckets, 0)].transpose(0, 2, 1)
        return np.where(valid[:, None, :], out, 1.0 / len(actions))

    def reference(self, sub: HoldemSubgame, player: int, *,
                  deadline: float | None = None) -> FloatArray:
        """``[rows, hands]``: the blueprint at every decision of ``player`` in ``sub``.

        Hands are ``sub``'s hands of ``player``. Decisions that differ only in the cards
        dealt since the root (the same abstract node, betting and actions) are read
        together (:meth:`_strategies_at`).

        Raises:
            GameTooLargeError: not worked out by ``deadline`` (a
                :func:`time.perf_counter` time; a searcher's budget).
        """
        tree = sub.public.tree
        ids = sub.hand_ids[player]
        out = np.zeros((tree.n_rows[player], len(ids)))
        decisions = tree.decision_nodes(player).tolist()
        groups: dict[tuple[int, BettingNode, tuple[Action, ...]],
                     list[tuple[int, tuple[int, ...]]]] = {}
        for n in decisions:
            node = sub.betting[n]
            assert node is not None
            key = (self.abstract_of(sub.events[n]), node, tuple(sub.actions[n]))
            groups.setdefault(key, []).append((tree.row(n), sub.board_of(n)))
        done = 0  # each group works out its boards' buckets in one call (most share them)
        for (abstract, node, actions), members in groups.items():
            if deadline is not None and time.perf_counter() > deadline:
                raise GameTooLargeError(f"the blueprint's strategy over the subgame was not "
                                        f"worked out in time ({done:,} of {len(decisions):,} "
                                        "decisions)", found=len(decisions), limit=done)
            rows = np.array([row for row, _ in members], dtype=np.int64)
            block = self._strategies_at(abstract, node, [board for _, board in members],
                                        actions, ids)
            out[rows[:, None] + np.arange(len(actions))] = block
            done += len(members)
        return out

    def action_likelihood(self, observation: Observation, action: Action) -> FloatArray:
        """``[combos]``: the blueprint's probability of ``action`` at ``observation``, per combo.

        The observation is the acting player's (its own cards are ignored); combos that
        touch the board get 0. An off-menu raise gets the menu raises' probabilities
        weighted by pseudo-harmonic translation.
        """
        from pokerlab.cards import parse_cards

        abstract, state = self.policy.abstract_state(observation)
        assert isinstance(state, HoldemState)
        node = state.betting_node
        board = tuple(int(c) for c in parse_cards(observation.board))
        ids = np.arange(len(self.combos))
        tree = self.tree
        if tree.kind[abstract] != DECISION or int(tree.player[abstract]) != node.to_act:
            legal = node.legal_actions()
            value = 1.0 if (action == CALL_ACTION or CALL_ACTION not in legal) else 0.0
            out = np.full(len(ids), value)
        else:
            n = int(tree.n_actions[abstract])
            buckets = self._street_buckets(board, int(tree.street[abstract]), ids)
            valid = buckets >= 0
            probs = self.trainer.average_rows(
                self.trainer.row_of(abstract, 0) + np.where(valid, buckets, 0), n)
            targets = self.targets(abstract, node)
            out = np.zeros(len(ids))
            if action in targets:
                for j, target in enumerate(targets):
                    if target == action:
                        out += probs[:, j]
            elif action >= RAISE and RAISE in tree.action_kind[abstract, :n].tolist():
                weights = raise_translation(tree, abstract, self._fraction(node, action))
                children = tree.children[abstract, :n].tolist()
                for child, weight in weights.items():
                    out += weight * probs[:, children.index(child)]
            else:  # an action the tree lacks (a call where it only raises): the call's
                kinds = tree.action_kind[abstract, :n].tolist()
                if 1 in kinds:
                    out += probs[:, kinds.index(1)]
        touches = np.isin(self.combos, np.array(board, dtype=np.int64)).any(axis=1)
        out[touches] = 0.0
        return out


def _projected(target: Action, offered: list[Action]) -> int | None:
    """The index in ``offered`` of the action standing for the blueprint's ``target``."""
    if target in offered:
        return offered.index(target)
    raises = [a for a in offered if a >= RAISE]
    if target >= RAISE and raises:
        nearest = min(raises, key=lambda a: abs(math.log(max(a - RAISE, 1) /
                                                          max(target - RAISE, 1))))
        return offered.index(nearest)
    return offered.index(CALL_ACTION) if CALL_ACTION in offered else None


__all__ = ["BlueprintView"]
