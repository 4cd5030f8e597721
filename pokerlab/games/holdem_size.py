"""How big a Hold'em game is: this engine's histories, and the literature's counts.

The betting of Hold'em never depends on the cards, so the tree is a *betting tree* whose
every node is repeated once per way the cards dealt so far could have fallen. Counting
walks the betting tree once (states with equal :meth:`betting_key` have equal subtrees,
so each key is expanded once, chance nodes through one representative card) and
multiplies by the card deals. Counts are Python integers, exact.

Two conventions, both reported by :class:`HoldemSize`:

- **this engine's histories**: every node of pokerlab's tree (chance nodes, decisions and
  terminals), the cards dealt one at a time in order (hole cards round robin, the flop
  card by card): what :func:`pokerlab.tree.compile` would have to enumerate;
- **the papers' game states and infosets** (Johanson 2013, "Measuring the size of large
  no-limit poker games", and Bowling et al. 2015, "Heads-up limit hold'em poker is
  solved", who quote 3.16e17 states and 3.19e14 infosets for heads-up limit): the
  *decision points* only (a player to act; no chance or terminal nodes), each player's
  hole cards and the flop counted as unordered sets, no suit isomorphism; an infoset is a
  decision point as the acting player sees it (own hole cards, the board, the betting).
  Heads-up limit has 6,378 betting decision points (8 preflop, 70 on the flop, 630 on the
  turn, 5,670 on the river), hence 316,207,058,696,146,800 (3.162e17) game states and
  319,365,922,522,608 (3.194e14) infosets: the published figures.

No-limit trees (a decision for every raise size) and many-handed limit games are too big
to walk: the counting stops after :data:`WORK_BUDGET` edges, and falls back to a subtree
with fewer raise sizes (the minimum raise and all-in; then all-in only; then checking and
calling down). Every count of a subtree is a lower bound of the whole game's, and
:attr:`HoldemSize.exact` and :attr:`HoldemSize.method` say which was made.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Protocol

from pokerlab._types import CHANCE, TERMINAL, Action, Player
from pokerlab.games.holdem_rules import CALL, FOLD, RAISE, HoldemRules

WORK_BUDGET = 20_000
"""Edges of the betting tree walked at most per attempt (under a second: every edge
builds a state of the engine). Three-handed limit needs about 19,000."""

CALL_DOWN = "lower bound: checking and calling down only"
"""The method of :func:`count_call_down`."""


class BettingState(Protocol):
    """What the counting reads of a Hold'em state (:class:`HoldemState` provides it)."""

    @property
    def player(self) -> Player:
        """The player to act, CHANCE or TERMINAL."""

    @property
    def street(self) -> int:
        """The street being dealt or bet, 0 (preflop) first."""

    @property
    def n_dealt(self) -> int:
        """Cards dealt so far."""

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions."""

    def is_legal(self, action: Action) -> bool:
        """True when ``action`` may be taken."""

    def raise_range(self) -> tuple[int, int] | None:
        """The legal raise-to amounts of the player to act."""

    def betting_key(self) -> Hashable:
        """Equal keys, equal betting subtrees."""

    def _apply(self, action: Action) -> BettingState:
        """The child after a legal ``action``."""


@dataclass(frozen=True)
class HoldemSize:
    """The size of a Hold'em game in both conventions (see the module docstring).

    Attributes:
        histories: nodes of this engine's tree: chance, decision and terminal histories,
            cards dealt one at a time in order.
        engine_infosets: this engine's infoset keys (own hole cards and board in dealt
            order, the betting).
        game_states: the papers' game states: decision points, each player's hole cards
            and each street's new board cards as unordered sets.
        infosets: the papers' infosets: decision points as the acting player sees them.
        betting_decisions: decision points of the betting tree (cards aside) per street.
        exact: False when every figure is a lower bound (counted on a subtree).
        method: how the counts were made: ``"exact"``, or the subtree that was counted.
    """

    histories: int
    engine_infosets: int
    game_states: int
    infosets: int
    betting_decisions: tuple[int, ...]
    exact: bool
    method: str

    @property
    def betting_sequences(self) -> int:
        """Decision points of the betting tree, all streets (6,378 in heads-up limit)."""
        return sum(self.betting_decisions)


class _OverBudgetError(Exception):
    """The walk met more edges than it may."""


Choices = Callable[[BettingState], Sequence[Action]]


def _all_actions(state: BettingState) -> Sequence[Action]:
    return state.legal_actions()


def _min_and_all_in(state: BettingState) -> Sequence[Action]:
    return _no_limit_choices(state, minimum=True)


def _all_in_only(state: BettingState) -> Sequence[Action]:
    return _no_limit_choices(state, minimum=False)


def _fold_or_call(state: BettingState) -> Sequence[Action]:
    return [a for a in (FOLD, CALL) if state.is_legal(a)]


def _call_only(state: BettingState) -> Sequence[Action]:
    return (CALL,)


def _no_limit_choices(state: BettingState, *, minimum: bool) -> Sequence[Action]:
    """Fold, call, and the raise all-in (and to the minimum): a subset of the legal ones."""
    actions = list(_fold_or_call(state))
    bounds = state.raise_range()
    if bounds is not None:
        amounts = {bounds[0], bounds[1]} if minimum else {bounds[1]}
        actions.extend(RAISE + amount for amount in sorted(amounts))
    return actions


def count_holdem(
    root: BettingState, rules: HoldemRules, *, budget: int = WORK_BUDGET
) -> HoldemSize:
    """Count the game rooted at ``root`` exactly if the walk fits ``budget``, else bound it.

    Attempts, in order, until one fits: every action; (no-limit) raises only to the
    minimum or all-in, then only all-in; (limit) no raises; checking and calling down
    (always fits: one betting line).
    """
    attempts: list[tuple[str, Choices]] = [("exact", _all_actions)]
    if rules.no_limit:
        attempts.append(("lower bound: raises only to the minimum or all-in", _min_and_all_in))
        attempts.append(("lower bound: raises only all-in", _all_in_only))
    else:
        attempts.append(("lower bound: no raises", _fold_or_call))
    for k, (method, choices) in enumerate(attempts):
        try:
            counts = _walk(root, rules, choices, budget=budget)
        except _OverBudgetError:
            continue
        return _size(rules, counts, exact=k == 0, method=method)
    return count_call_down(root, rules)


def count_call_down(root: BettingState, rules: HoldemRules) -> HoldemSize:
    """Lower bounds from the one betting line where everyone checks and calls: instant."""
    return _size(rules, _walk(root, rules, _call_only, budget=None), exact=False, method=CALL_DOWN)


def _walk(
    root: BettingState, rules: HoldemRules, choices: Choices, *, budget: int | None
) -> tuple[int, ...]:
    """``(histories, decisions on street 0, ..., on the last street)`` below ``root``.

    Post-order over the betting tree with an explicit stack (no recursion limit); a
    chance node is expanded through its first card and counted once per card left.
    """
    n_streets = rules.n_streets
    deck = rules.deck_size
    memo: dict[Hashable, tuple[int, ...]] = {}
    edges = 0
    # Each frame: (state, its key, its children's keys or None before expansion).
    stack: list[tuple[BettingState, Hashable, list[Hashable] | None]] = [
        (root, root.betting_key(), None)
    ]
    while stack:
        state, key, children = stack.pop()
        if key in memo:
            continue
        player = state.player
        if player == TERMINAL:
            memo[key] = (1,) + (0,) * n_streets
            continue
        if children is None:
            actions = state.legal_actions()[:1] if player == CHANCE else choices(state)
            edges += len(actions)
            if budget is not None and edges > budget:
                raise _OverBudgetError
            kids = [state._apply(a) for a in actions]
            keys = [kid.betting_key() for kid in kids]
            stack.append((state, key, keys))
            stack.extend((kid, kid_key, None) for kid, kid_key in zip(kids, keys, strict=True))
            continue
        below = [memo[k] for k in children]
        if player == CHANCE:
            (child,) = below
            memo[key] = (1 + (deck - state.n_dealt) * child[0], *child[1:])
            continue
        totals = [sum(column) for column in zip(*below, strict=True)]
        totals[0] += 1
        totals[1 + state.street] += 1
        memo[key] = tuple(totals)
    return memo[root.betting_key()]


def _size(rules: HoldemRules, counts: tuple[int, ...], *, exact: bool, method: str) -> HoldemSize:
    deck, hole, n = rules.deck_size, rules.hole_size, rules.n_players
    decisions = counts[1:]
    holes_unordered = math.prod(math.comb(deck - hole * i, hole) for i in range(n))
    game_states = infosets = engine_infosets = 0
    for street, count in enumerate(decisions):
        board = rules.board_sizes[street]
        boards_all = _boards(rules, deck - rules.n_hole_cards, street)
        boards_own = _boards(rules, deck - hole, street)
        game_states += count * holes_unordered * boards_all
        infosets += count * math.comb(deck, hole) * boards_own
        engine_infosets += count * math.perm(deck, hole) * math.perm(deck - hole, board)
    return HoldemSize(
        histories=counts[0],
        engine_infosets=engine_infosets,
        game_states=game_states,
        infosets=infosets,
        betting_decisions=tuple(decisions),
        exact=exact,
        method=method,
    )


def _boards(rules: HoldemRules, left: int, street: int) -> int:
    """Boards of ``street`` from ``left`` cards, each street's new cards as a set."""
    total = 1
    for s in range(1, street + 1):
        new = rules.board_sizes[s] - rules.board_sizes[s - 1]
        total *= math.comb(left, new)
        left -= new
    return total


__all__ = [
    "CALL_DOWN",
    "WORK_BUDGET",
    "BettingState",
    "HoldemSize",
    "count_call_down",
    "count_holdem",
]
