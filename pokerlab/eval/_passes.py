"""Exact values and best responses as two passes over a compiled tree's sequences.

Everything here works on the *sequence form* of the compiled tree rather than on its
histories. Under perfect recall, the probability that a profile reaches a terminal is
chance's probability times each player's *sequence reach* (the product of that player's
own action probabilities along the path), and each player's sequences form a small tree
(Leduc: 337 sequences per player against 9,457 histories). The passes:

1. Forward, over infosets in id order (a parent infoset always has a smaller id): the
   reach of every sequence, ``reach[seq(I, a)] = reach[parent_seq(I)] * probs[I, a]``.
2. Over the terminals: the profile's reach (chance times every player's sequence reach)
   weights the payoffs into the profile's values; for each player, the reach of chance
   and of the *other* players weights the player's payoff into ``leaf[s]``, summed per
   sequence ``s`` of the player that leads to the terminal (counterfactual payoffs).
3. Backward, over infosets in decreasing id order (children before parents): an
   infoset's counterfactual action values are ``q[I, a] = leaf[seq(I, a)] +
   follow[seq(I, a)]``, where ``follow[s]`` sums the best values of the infosets that come
   right after sequence ``s``; the best response takes the largest ``q``. A player's
   best-response value is ``leaf[empty] + follow[empty]``.

Every player's best response comes out of one pass. Abbreviations, in this module only:
``seq`` sequence, ``gseq`` a sequence id made global over players (player p's ids start at
``base[p]``), ``cf`` counterfactual. The loops are compiled with numba, imported and
compiled (or loaded from numba's on-disk cache) on first use, so importing
:mod:`pokerlab.eval` does not pay for numba. The per-tree index arrays are built once and
cached per tree object.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerlab._types import FloatArray, IntArray
from pokerlab.errors import PokerlabError, StrategyError
from pokerlab.tree import CompiledTree

_PLANS: weakref.WeakKeyDictionary[CompiledTree, EvalPlan] = weakref.WeakKeyDictionary()


@dataclass(frozen=True, eq=False)
class EvalPlan:
    """Index arrays of one compiled tree for the passes (C-contiguous, owned, writable).

    Writable on purpose: numba compiles one version per array flag combination, and the
    kernel should be compiled once. No reference back to the tree, so that the per-tree
    cache (weak keys) lets a tree and its plan be collected together.
    """

    n_players: int
    n_infosets: int
    max_actions: int
    n_gseq: int  # all players' sequences
    base: IntArray  # [n_players] global id of each player's empty sequence
    seq_matrix: IntArray  # [I, A] global sequence id of each legal slot (-1 elsewhere)
    n_actions: IntArray  # [I]
    parent_gseq: IntArray  # [I] global id of each infoset's parent sequence
    terminal_gseq: IntArray  # [T, n_players] each player's global sequence at each terminal
    terminal_chance: FloatArray  # [T] chance's probability of reaching each terminal
    terminal_payoffs: FloatArray  # [T, n_players] chips


@dataclass(frozen=True, eq=False)
class PassResult:
    """What one pass computes (arrays owned by the caller).

    Attributes:
        values: ``[n_players]`` expected chips per hand of the profile.
        best_response_values: ``[n_players]`` each player's best-response value (chips
            per hand) against the other players' rows; empty unless asked for.
        action_values: ``[I, A]`` counterfactual value of each action at each infoset for
            its owner, who best-responds afterwards: chips weighted by the probability that
            chance and the other players reach the infoset; NaN on illegal slots; empty
            unless asked for.
        best_slots: ``[I]`` the slot of a best action at each infoset (the first maximum);
            empty unless asked for.
    """

    values: FloatArray
    best_response_values: FloatArray
    action_values: FloatArray
    best_slots: IntArray


def plan_for(tree: CompiledTree) -> EvalPlan:
    """Return the cached evaluation plan of ``tree``, building it on first use.

    Raises:
        PokerlabError: if the game lacks perfect recall (two histories of one infoset
            reached by different sequences of its player's own actions).
    """
    plan = _PLANS.get(tree)
    if plan is None:
        plan = _build_plan(tree)
        _PLANS[tree] = plan
    return plan


def check_probs(tree: CompiledTree, probs: FloatArray) -> FloatArray:
    """Return ``probs`` flattened into a fresh C-contiguous float64 array after a shape check.

    Raises:
        StrategyError: if the shape is not ``[n_infosets, max_actions]``.
    """
    array = np.array(probs, dtype=np.float64, order="C")
    expected = (tree.n_infosets, tree.max_actions)
    if array.shape != expected:
        raise StrategyError(
            f"probabilities for {tree.game.spec} need shape {expected} (infosets x action "
            f"slots); got {array.shape}"
        )
    return array.reshape(-1)


def run_pass(tree: CompiledTree, probs: FloatArray, *, best_response: bool) -> PassResult:
    """Return the profile's values and, if ``best_response``, every player's best response.

    Raises:
        StrategyError: if ``probs`` is not ``[n_infosets, max_actions]``.
        PokerlabError: if the game lacks perfect recall.
    """
    flat = check_probs(tree, probs)
    plan = plan_for(tree)
    values, br_values, action_values, best_slots = _kernel()(
        flat,
        plan.max_actions,
        plan.seq_matrix,
        plan.n_actions,
        plan.parent_gseq,
        plan.base,
        plan.n_gseq,
        plan.terminal_gseq,
        plan.terminal_chance,
        plan.terminal_payoffs,
        best_response,
    )
    return PassResult(values, br_values, action_values, best_slots)


def _check_perfect_recall(tree: CompiledTree) -> None:
    """Raise unless all histories of each infoset follow one sequence of its owner."""
    offsets = tree.level_offsets
    owner_seq = np.zeros((tree.n_histories, tree.n_players), dtype=np.int64)
    for d in range(1, offsets.shape[0] - 1):
        lo, hi = int(offsets[d]), int(offsets[d + 1])
        parent = tree.parent[lo:hi]
        owner_seq[lo:hi] = owner_seq[parent]
        owner = tree.player[parent]
        decided = owner >= 0
        rows = np.flatnonzero(decided) + lo
        owner_seq[rows, owner[decided]] = (
            tree.seq_offset[tree.infoset[parent[decided]]] + tree.slot[rows]
        )
    decision = tree.decision_ids
    infosets = tree.infoset[decision]
    bad = owner_seq[decision, tree.player[decision]] != tree.infoset_parent_seq[infosets]
    if bad.any():
        key = tree.infoset_keys[int(infosets[np.flatnonzero(bad)[0]])]
        raise PokerlabError(
            f"{tree.game.spec}: infoset {key!r} is reached by different sequences of its "
            "player's own actions, so the game lacks perfect recall; exact best response, "
            "exploitability and expected values here need perfect recall"
        )


def _build_plan(tree: CompiledTree) -> EvalPlan:
    _check_perfect_recall(tree)
    counts = np.asarray(tree.n_sequences, dtype=np.int64)
    base = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    n_gseq = int(counts.sum())
    owner_base = base[tree.infoset_player]
    legal = tree.legal_mask
    slots = np.arange(tree.max_actions, dtype=np.int64)
    seq_matrix = np.where(legal, (owner_base + tree.seq_offset)[:, None] + slots[None, :], -1)
    parent_gseq = owner_base + tree.infoset_parent_seq

    # The passes visit infosets in id order: check that a parent infoset comes first
    # (compile numbers infosets breadth first, so under perfect recall it always does).
    seq_infoset = np.full(n_gseq, -1, dtype=np.int64)
    rows, _ = np.nonzero(legal)
    seq_infoset[seq_matrix[legal]] = rows
    before = seq_infoset[parent_gseq]
    if np.any(before >= np.arange(tree.n_infosets)):  # pragma: no cover - see above
        raise PokerlabError(f"{tree.game.spec}: an infoset's id is below its parent's")

    def own(array: np.ndarray, dtype: type) -> Any:
        return np.array(array, dtype=dtype, order="C")

    return EvalPlan(
        n_players=tree.n_players,
        n_infosets=tree.n_infosets,
        max_actions=tree.max_actions,
        n_gseq=n_gseq,
        base=own(base, np.int64),
        seq_matrix=own(seq_matrix, np.int64),
        n_actions=own(tree.infoset_n_actions, np.int64),
        parent_gseq=own(parent_gseq, np.int64),
        terminal_gseq=own(tree.terminal_seqs + base[None, :], np.int64),
        terminal_chance=own(tree.reach_chance[tree.terminal_ids], np.float64),
        terminal_payoffs=own(tree.terminal_payoffs, np.float64),
    )


def _profile_pass(
    flat_probs: FloatArray,
    max_actions: int,
    seq_matrix: IntArray,
    n_actions: IntArray,
    parent_gseq: IntArray,
    base: IntArray,
    n_gseq: int,
    terminal_gseq: IntArray,
    terminal_chance: FloatArray,
    terminal_payoffs: FloatArray,
    best_response: bool,
) -> tuple[FloatArray, FloatArray, FloatArray, IntArray]:
    """Run the passes of the module docstring (compiled by numba; plain Python works too)."""
    n_infosets = seq_matrix.shape[0]
    n_players = base.shape[0]
    n_terminals = terminal_gseq.shape[0]
    # 1. forward: sequence reach
    reach = np.zeros(n_gseq)
    for p in range(n_players):
        reach[base[p]] = 1.0
    for i in range(n_infosets):
        before = reach[parent_gseq[i]]
        row = i * max_actions
        for k in range(n_actions[i]):
            reach[seq_matrix[i, k]] = before * flat_probs[row + k]
    # 2. terminals
    values = np.zeros(n_players)
    leaf = np.zeros(n_gseq)
    own = np.empty(n_players)
    for t in range(n_terminals):
        total = terminal_chance[t]
        for p in range(n_players):
            own[p] = reach[terminal_gseq[t, p]]
            total *= own[p]
        for p in range(n_players):
            values[p] += total * terminal_payoffs[t, p]
        if best_response:
            for p in range(n_players):
                others = terminal_chance[t]
                for q in range(n_players):
                    if q != p:
                        others *= own[q]
                leaf[terminal_gseq[t, p]] += others * terminal_payoffs[t, p]
    if not best_response:
        return values, np.empty(0), np.empty((0, max_actions)), np.empty(0, dtype=np.int64)
    # 3. backward: best responses, children before parents
    follow = np.zeros(n_gseq)
    action_values = np.full((n_infosets, max_actions), np.nan)
    best_slots = np.zeros(n_infosets, dtype=np.int64)
    for i in range(n_infosets - 1, -1, -1):
        best = -np.inf
        best_slot = 0
        for k in range(n_actions[i]):
            seq = seq_matrix[i, k]
            value = leaf[seq] + follow[seq]
            action_values[i, k] = value
            if value > best:
                best = value
                best_slot = k
        best_slots[i] = best_slot
        follow[parent_gseq[i]] += best
    br_values = np.empty(n_players)
    for p in range(n_players):
        br_values[p] = leaf[base[p]] + follow[base[p]]
    return values, br_values, action_values, best_slots


@functools.cache
def _kernel() -> Callable[..., tuple[FloatArray, FloatArray, FloatArray, IntArray]]:
    """Return :func:`_profile_pass` compiled by numba (imported here, on first use)."""
    from pokerlab._numba import numba

    compiled: Callable[..., tuple[FloatArray, FloatArray, FloatArray, IntArray]]
    compiled = numba.njit(cache=True, nogil=True)(_profile_pass)
    return compiled
