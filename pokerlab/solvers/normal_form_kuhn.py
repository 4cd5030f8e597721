"""The normal form of a small two-player game: one row per pure strategy of P1, one column per P2's.

A pure strategy picks one action at every infoset of its player, so 3-card Kuhn poker, with
6 infosets of 2 actions per player, has ``2^6 = 64`` pure strategies each: the tutorial's
64 x 64 matrix (section 3.2, "Kuhn Poker in Normal Form"). A pure strategy's realization
plan is 0/1, so the expected payoff of a pair is ``x_i^T A y_j`` with the sequence-form
payoff matrix ``A``: every entry is an exact expectation over the deal, no sampling.

The matrix grows exponentially with the number of infosets, which is why the sequence form
(:mod:`pokerlab.solvers.sequence_form`) is the way to solve anything larger.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pokerlab._types import FloatArray
from pokerlab.errors import SolverError
from pokerlab.games.base import Game
from pokerlab.solvers.sequence_form import behaviour_to_plan, build_sequence_form
from pokerlab.tree import CompiledTree, compile

MAX_PURE_STRATEGIES = 4096
"""The largest number of pure strategies per player that :func:`induced_normal_form` enumerates."""


@dataclass(frozen=True, eq=False)
class NormalForm:
    """A two-player game as a matrix over pure strategies.

    Attributes:
        A: ``[P1 pure strategies, P2 pure strategies]`` P1's expected payoff, chips per hand.
        row_labels: P1's pure strategies, e.g. ``"A - bet, Apb - bet, K - pass, ..."``.
        col_labels: P2's pure strategies.
        row_plans: ``[P1 pure strategies, P1 sequences]`` each row's 0/1 realization plan.
        col_plans: ``[P2 pure strategies, P2 sequences]`` each column's realization plan.
    """

    A: FloatArray
    row_labels: tuple[str, ...]
    col_labels: tuple[str, ...]
    row_plans: FloatArray
    col_plans: FloatArray


def induced_normal_form(
    game: Game,
    *,
    infoset_orders: tuple[Sequence[int], Sequence[int]] | None = None,
    slot_order: Sequence[int] | None = None,
    max_pure_strategies: int = MAX_PURE_STRATEGIES,
) -> NormalForm:
    """Enumerate every pure strategy of a two-player zero-sum game and their payoffs.

    Args:
        game: a small two-player zero-sum game.
        infoset_orders: per player, the infoset ids in the order they appear in labels and
            vary in the enumeration (the first varies slowest); default: compiled order.
        slot_order: the order in which each infoset's action slots are enumerated (default:
            the legal order); every infoset needs all its slots listed.
        max_pure_strategies: refuse a game with more pure strategies per player.

    Raises:
        SolverError: if the game is not two-player zero-sum or has too many pure strategies.
    """
    form = build_sequence_form(game)
    tree = compile(game)
    plans: list[FloatArray] = []
    labels: list[tuple[str, ...]] = []
    for player in (0, 1):
        if infoset_orders is None:
            order = [int(i) for i in tree.infosets_of(player)]
        else:
            order = [int(i) for i in infoset_orders[player]]
        plan, label = _pure_strategies(tree, player, order, slot_order, max_pure_strategies)
        plans.append(plan)
        labels.append(label)
    # x_i^T A y_j for all i, j: (X A) Y^T, with A sparse.
    matrix = np.asarray((form.A.T @ plans[0].T).T @ plans[1].T, dtype=np.float64)
    return NormalForm(
        A=matrix,
        row_labels=labels[0],
        col_labels=labels[1],
        row_plans=plans[0],
        col_plans=plans[1],
    )


def _pure_strategies(
    tree: CompiledTree,
    player: int,
    infosets: list[int],
    slot_order: Sequence[int] | None,
    limit: int,
) -> tuple[FloatArray, tuple[str, ...]]:
    sizes = [int(tree.infoset_n_actions[i]) for i in infosets]
    count = 1
    for size in sizes:
        count *= size
        if count > limit:
            raise SolverError(
                f"{tree.game.spec}: player {player + 1} has more than {limit:,} pure strategies "
                f"({len(infosets)} infosets); the normal form is only for tiny games: use the "
                "sequence-form LP"
            )
    choices: list[list[int]] = []
    for size in sizes:
        slots = list(range(size)) if slot_order is None else [s for s in slot_order if s < size]
        if sorted(slots) != list(range(size)):
            raise SolverError(
                f"slot_order must list every action slot; got {list(slot_order or [])}"
            )
        choices.append(slots)
    game = tree.game
    plans = np.zeros((count, tree.n_sequences[player]))
    names: list[str] = []
    probs = np.zeros((tree.n_infosets, tree.max_actions))
    for row, pick in enumerate(itertools.product(*choices)):
        probs[:] = 0.0
        parts = []
        for i, slot in zip(infosets, pick, strict=True):
            probs[i, slot] = 1.0
            action = int(tree.infoset_actions[i, slot])
            parts.append(f"{_short_key(tree.infoset_keys[i])} - {game.action_name(action)}")
        plans[row] = behaviour_to_plan(tree, player, probs)
        names.append(", ".join(parts))
    return plans, tuple(names)


def _short_key(key: str) -> str:
    """``"A|pb"`` -> ``"Apb"``, ``"A|"`` -> ``"A"`` (the tutorial's names)."""
    return key.replace("|", "")


def kuhn_normal_form(game: Game) -> tuple[FloatArray, tuple[str, ...], tuple[str, ...]]:
    """Return the tutorial's 64 x 64 normal form of 3-card Kuhn poker and its labels.

    Pure strategies list the infosets in the tutorial's order (P1: A, Apb, K, Kpb, Q, Qpb;
    P2: Ab, Ap, Kb, Kp, Qb, Qp) with ``bet`` before ``pass``, so strategy 1 bets everywhere,
    as in the tutorial's first example. Entries are P1's exact expected payoffs in chips.

    Raises:
        SolverError: if ``game`` is not 2-player 3-card Kuhn poker.

    Example:
        >>> from pokerlab.games import kuhn
        >>> from pokerlab.solvers.normal_form import solve_zero_sum
        >>> matrix, rows, cols = kuhn_normal_form(kuhn())
        >>> matrix.shape, rows[0]
        ((64, 64), 'A - bet, Apb - bet, K - bet, Kpb - bet, Q - bet, Qpb - bet')
        >>> round(solve_zero_sum(matrix).value * 18, 6)
        -1.0
    """
    spec = game.spec
    if spec.name != "kuhn" or game.n_players != 2 or spec.get("cards") != 3:
        raise SolverError(f"kuhn_normal_form is for 2-player 3-card Kuhn poker; got {spec}")
    tree = compile(game)
    orders: tuple[list[int], list[int]] = (
        [tree.infoset_id(f"{c}|{h}") for c in "AKQ" for h in ("", "pb")],
        [tree.infoset_id(f"{c}|{h}") for c in "AKQ" for h in ("b", "p")],
    )
    result = induced_normal_form(game, infoset_orders=orders, slot_order=(1, 0))
    return result.A, result.row_labels, result.col_labels

