"""The sequence form of a two-player game: realization-plan constraints and payoff matrix.

A *sequence* of player p is the empty sequence (id 0) or an (infoset of p, action slot)
pair, numbered as the compiled tree numbers them (``seq_offset[infoset] + slot``). A
*realization plan* ``x`` gives every sequence of P1 the product of P1's own probabilities
along it; it is exactly a vector with ``x >= 0`` and ``E x = e``:

1. row 0 of ``E`` says the empty sequence has realization 1 (``x[0] = 1``);
2. the row of infoset ``I`` says the sequences leaving ``I`` share the realization of the
   sequence leading to it: ``-x[parent(I)] + sum_a x[I, a] = 0``.

``F y = f`` is the same for P2. The payoff matrix ``A[seq1, seq2]`` sums, over the
terminals that P1's sequence ``seq1`` and P2's ``seq2`` lead to, the chance probability
of reaching the terminal times P1's payoff there, so the expected value of plans
``x``, ``y`` is ``x^T A y`` (chips per hand). This is section 3.2 of the AI Poker Tutorial
(von Stengel 1996; Koller, Megiddo and von Stengel 1994). The matrices are built from the
compiled tree's arrays with no recursion, as ``scipy.sparse`` CSR matrices.

:func:`tutorial_matrices` reorders the rows and columns of 3-card Kuhn into the tutorial's
tables, so the two can be compared entry by entry.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse

from pokerlab._types import FloatArray, IntArray
from pokerlab.errors import GameTooLargeError, SolverError
from pokerlab.games.base import Game
from pokerlab.tree import DEFAULT_MEMORY_LIMIT, CompiledTree, compile

BYTES_PER_NONZERO = 96
"""Approximate memory per non-zero of A, E, F once scipy and HiGHS hold their copies."""

BYTES_PER_SEQUENCE = 256
"""Approximate memory per sequence (LP column and its bounds, solution, duals, basis)."""

MAX_PRINTED_SEQUENCES = 64
"""Dense matrices (for printing) are refused for games with more sequences per player."""


@dataclass(frozen=True, eq=False)
class SequenceForm:
    """The sequence-form matrices of a two-player game, sparse, in the compiled order.

    Row 0 of ``E`` (``F``) is the empty sequence's; row ``r >= 1`` belongs to infoset
    ``infosets[0][r - 1]`` (``infosets[1][r - 1]``). Columns are sequence ids.

    Attributes:
        E: ``[1 + P1 infosets, P1 sequences]`` P1's realization-plan constraints.
        F: ``[1 + P2 infosets, P2 sequences]`` P2's realization-plan constraints.
        e: ``[1 + P1 infosets]`` right-hand side of ``E x = e`` (1 then zeros).
        f: ``[1 + P2 infosets]`` right-hand side of ``F y = f``.
        A: ``[P1 sequences, P2 sequences]`` P1's chance-weighted payoff, in chips.
        infosets: per player, the infoset ids of the rows 1.. of ``E`` / ``F``.
    """

    E: sparse.csr_array
    F: sparse.csr_array
    e: FloatArray
    f: FloatArray
    A: sparse.csr_array
    infosets: tuple[IntArray, IntArray]

    @property
    def n_sequences(self) -> tuple[int, int]:
        """The number of sequences of each player, the empty one included."""
        return (int(self.E.shape[1]), int(self.F.shape[1]))


@dataclass(frozen=True, eq=False)
class SequenceFormMatrices:
    """Dense sequence-form matrices with labels, for printing and comparing with the tutorial.

    Attributes:
        E: ``[len(e_rows), len(x_labels)]`` P1's constraints.
        F: ``[len(f_rows), len(y_labels)]`` P2's constraints.
        e: right-hand side of ``E x = e``.
        f: right-hand side of ``F y = f``.
        A: ``[len(x_labels), len(y_labels)]`` P1's chance-weighted payoff, in chips.
        x_labels: P1's sequences (columns of ``E``, rows of ``A``), e.g. ``"A_pb"``.
        y_labels: P2's sequences (columns of ``F`` and ``A``), e.g. ``"K_b(ab)"``.
        e_rows: the rows of ``E`` (``"0"`` then P1's infosets).
        f_rows: the rows of ``F`` (``"0"`` then P2's infosets).
        x_ids: the compiled tree's sequence id of each P1 label.
        y_ids: the compiled tree's sequence id of each P2 label.
        e_ids: the row of :class:`SequenceForm` ``E`` (and of the LP's ``p``) of each row here.
        f_ids: the row of :class:`SequenceForm` ``F`` of each row here.
    """

    E: FloatArray
    F: FloatArray
    e: FloatArray
    f: FloatArray
    A: FloatArray
    x_labels: tuple[str, ...]
    y_labels: tuple[str, ...]
    e_rows: tuple[str, ...]
    f_rows: tuple[str, ...]
    x_ids: IntArray
    y_ids: IntArray
    e_ids: IntArray
    f_ids: IntArray


def check_two_player_zero_sum(game: Game, tree: CompiledTree | None = None) -> None:
    """Raise :class:`SolverError` unless ``game`` is a two-player zero-sum game.

    Args:
        game: the game.
        tree: its compiled tree, if already at hand (its payoffs are checked too).
    """
    if game.n_players != 2:
        raise SolverError(
            f"the sequence-form LP solves two-player zero-sum games; {game.spec} has "
            f"{game.n_players} players (use a CFR solver for more players)"
        )
    if not game.is_zero_sum:
        raise SolverError(
            f"the sequence-form LP solves two-player zero-sum games; {game.spec} is general-sum "
            "(payoffs do not sum to zero); use pure_nash_equilibria or a CFR solver"
        )
    if tree is not None:
        sums = np.abs(tree.terminal_payoffs.sum(axis=1))
        if sums.size and float(sums.max()) > 1e-9:
            raise SolverError(
                f"the sequence-form LP solves two-player zero-sum games; {game.spec} has a "
                f"terminal whose payoffs sum to {float(sums.max()):.6g}, not 0"
            )


def estimate_lp_bytes(tree: CompiledTree) -> int:
    """Estimate the memory the sequence-form LP of ``tree`` needs, in bytes.

    Counts the non-zeros of ``A`` (at most one per terminal), ``E`` and ``F`` (one per
    sequence plus one per infoset and the root) and the LP's columns, before anything is
    built.
    """
    n1, n2 = tree.n_sequences[0], tree.n_sequences[1]
    infosets = tree.n_infosets
    nonzeros = tree.n_terminals + (n1 + n2) + (infosets + 2)
    # E^T appears beside A in the LP, F beside zeros: every non-zero is held a few times.
    rows_and_columns = n1 + n2 + infosets + 2
    return nonzeros * BYTES_PER_NONZERO + rows_and_columns * BYTES_PER_SEQUENCE


def check_lp_size(game: Game, tree: CompiledTree, memory_limit: int) -> None:
    """Raise :class:`GameTooLargeError` if the LP of ``game`` would exceed ``memory_limit``."""
    size = estimate_lp_bytes(tree)
    if size > memory_limit:
        raise GameTooLargeError(
            f"the sequence-form LP of {game.spec} ({tree.n_sequences[0]:,} x "
            f"{tree.n_sequences[1]:,} sequences, {tree.n_terminals:,} terminals) needs about "
            f"{size / 1e6:,.1f} MB, over the memory limit of {memory_limit / 1e6:,.1f} MB; pass "
            "a larger memory_limit or use a CFR solver",
            found=size,
            limit=memory_limit,
        )


def build_sequence_form(game: Game, *, memory_limit: int = DEFAULT_MEMORY_LIMIT) -> SequenceForm:
    """Build ``E``, ``F``, ``e``, ``f`` and ``A`` of a two-player zero-sum game (sparse).

    Args:
        game: a two-player zero-sum game (Kuhn, Leduc, a zero-sum matrix game...).
        memory_limit: the largest LP accepted, in bytes (estimated before building).

    Raises:
        SolverError: if the game does not have two players or is not zero-sum.
        GameTooLargeError: if the LP (or the compiled tree) would exceed ``memory_limit``.

    Example:
        >>> from pokerlab.games import kuhn
        >>> form = build_sequence_form(kuhn())
        >>> form.E.shape, form.F.shape, form.A.shape, form.A.nnz
        ((7, 13), (7, 13), (13, 13), 30)
    """
    check_two_player_zero_sum(game)
    tree = compile(game, memory_limit=max(memory_limit, DEFAULT_MEMORY_LIMIT))
    check_two_player_zero_sum(game, tree)
    check_lp_size(game, tree, memory_limit)
    E, e, rows1 = _constraints(tree, 0)
    F, f, rows2 = _constraints(tree, 1)
    weights = tree.reach_chance[tree.terminal_ids] * tree.terminal_payoffs[:, 0]
    A = sparse.coo_array(
        (weights, (tree.terminal_seqs[:, 0], tree.terminal_seqs[:, 1])),
        shape=(tree.n_sequences[0], tree.n_sequences[1]),
    ).tocsr()
    A.sum_duplicates()
    return SequenceForm(E=E, F=F, e=e, f=f, A=A, infosets=(rows1, rows2))


def _constraints(tree: CompiledTree, player: int) -> tuple[sparse.csr_array, FloatArray, IntArray]:
    """``E`` (or ``F``), its right-hand side and the infoset of each row after the first."""
    mine = tree.infosets_of(player)
    n_rows = 1 + mine.shape[0]
    n_actions = tree.infoset_n_actions[mine]
    row_ids = np.arange(1, n_rows, dtype=np.int64)
    # Row 0: x[empty] = 1. Row r: -x[parent] + sum of x over the infoset's sequences = 0.
    child_rows = np.repeat(row_ids, n_actions)
    child_cols = np.repeat(tree.seq_offset[mine], n_actions) + _ranges(n_actions)
    rows = np.concatenate([[0], row_ids, child_rows])
    cols = np.concatenate([[0], tree.infoset_parent_seq[mine], child_cols])
    values = np.concatenate(
        [[1.0], -np.ones(row_ids.shape[0]), np.ones(child_rows.shape[0])]
    )
    matrix = sparse.coo_array(
        (values, (rows, cols)), shape=(n_rows, tree.n_sequences[player])
    ).tocsr()
    rhs = np.zeros(n_rows)
    rhs[0] = 1.0
    return matrix, rhs, mine.astype(np.int64)


def _ranges(counts: IntArray) -> IntArray:
    """``[0..c0-1, 0..c1-1, ...]`` for the given counts."""
    total = int(counts.sum())
    starts = np.repeat(np.cumsum(counts) - counts, counts)
    return np.arange(total, dtype=np.int64) - starts


# --------------------------------------------------------------------------------------
# Realization plans <-> behaviour strategies


ZERO_REALIZATION = 1e-12
"""Below this, a sequence counts as never played: the infosets after it get uniform rows."""


def plan_to_behaviour(tree: CompiledTree, player: int, plan: FloatArray, probs: FloatArray) -> None:
    """Write the behaviour rows of ``player`` from a realization plan into ``probs``.

    Each infoset's row is ``plan[sequence] / plan[parent sequence]``; the rows are rescaled
    to sum to exactly 1 (removing solver round-off), and are uniform where the parent
    sequence is never played (the strategy there does not change any value).

    Args:
        tree: the compiled tree.
        player: 0 or 1.
        plan: ``[n_sequences[player]]`` the realization plan (small negatives are clipped).
        probs: ``[n_infosets, max_actions]`` written in place for ``player``'s infosets.
    """
    mine = tree.infosets_of(player)
    slots = np.arange(tree.max_actions)
    legal = tree.legal_mask[mine]
    ids = np.where(legal, tree.seq_offset[mine][:, None] + slots[None, :], 0)
    rows = np.where(legal, np.clip(plan[ids], 0.0, None), 0.0)
    parent = np.clip(plan[tree.infoset_parent_seq[mine]], 0.0, None)
    sums = rows.sum(axis=1)
    played = (parent > ZERO_REALIZATION) & (sums > 0)
    uniform = legal / legal.sum(axis=1, keepdims=True)
    safe = np.where(played, sums, 1.0)
    probs[mine] = np.where(played[:, None], rows / safe[:, None], uniform)


def behaviour_to_plan(tree: CompiledTree, player: int, probs: FloatArray) -> FloatArray:
    """Return the realization plan of ``player`` under behaviour rows ``probs``.

    Infosets are visited in id order, which is breadth-first, so a parent sequence's
    realization is known before the infosets that follow it.
    """
    plan = np.zeros(tree.n_sequences[player])
    plan[0] = 1.0
    mine = tree.infosets_of(player)
    for i in mine:
        n = int(tree.infoset_n_actions[i])
        start = int(tree.seq_offset[i])
        plan[start : start + n] = plan[tree.infoset_parent_seq[i]] * probs[i, :n]
    return plan


# --------------------------------------------------------------------------------------
# Dense, labelled matrices (printing; the tutorial's tables)


def sequence_labels(tree: CompiledTree, player: int) -> tuple[str, ...]:
    """Readable labels of ``player``'s sequences in id order: ``"0"``, ``"K|pb:bet"``..."""
    labels = ["0"] * tree.n_sequences[player]
    game = tree.game
    for i in tree.infosets_of(player):
        for k in range(int(tree.infoset_n_actions[i])):
            name = game.action_name(int(tree.infoset_actions[i, k]))
            labels[int(tree.seq_offset[i]) + k] = f"{tree.infoset_keys[i]}:{name}"
    return tuple(labels)


def dense_matrices(game: Game) -> SequenceFormMatrices:
    """The sequence form of a small game as dense labelled arrays, in the compiled order.

    Raises:
        SolverError: if a player has more than :data:`MAX_PRINTED_SEQUENCES` sequences, or
            the game is not two-player zero-sum.
    """
    form = build_sequence_form(game)
    n1, n2 = form.n_sequences
    if max(n1, n2) > MAX_PRINTED_SEQUENCES:
        raise SolverError(
            f"{game.spec} has {n1} x {n2} sequences; dense matrices are printed only up to "
            f"{MAX_PRINTED_SEQUENCES} sequences per player"
        )
    tree = compile(game)
    return SequenceFormMatrices(
        E=form.E.toarray(),
        F=form.F.toarray(),
        e=form.e.copy(),
        f=form.f.copy(),
        A=form.A.toarray(),
        x_labels=sequence_labels(tree, 0),
        y_labels=sequence_labels(tree, 1),
        e_rows=("0", *(tree.infoset_keys[i] for i in form.infosets[0])),
        f_rows=("0", *(tree.infoset_keys[i] for i in form.infosets[1])),
        x_ids=np.arange(n1, dtype=np.int64),
        y_ids=np.arange(n2, dtype=np.int64),
        e_ids=np.arange(form.E.shape[0], dtype=np.int64),
        f_ids=np.arange(form.F.shape[0], dtype=np.int64),
    )


# The tutorial's order: cards A, K, Q; within an infoset bet before pass. P1's infosets are
# the opening ("A|") and the call-or-fold after check-bet ("A|pb"); P2's are facing a bet
# ("A|b") and after a check ("A|p").
_TUTORIAL_CARDS = ("A", "K", "Q")
_TUTORIAL_SLOTS = ((1, "b"), (0, "p"))


def tutorial_matrices(game: Game) -> SequenceFormMatrices:
    """Return E, F, e, f, A of 3-card Kuhn in the order of the tutorial's tables.

    P1's sequences: ``0, A_b, A_p, A_pb, A_pp, K_b, ..., Q_pp``; the rows of ``E``:
    ``0, A, Ap, K, Kp, Q, Qp``. P2's: ``0, A_b(ab), A_p(ab), A_b(ap), A_p(ap), K_b(ab), ...``
    (``(ab)``: facing a bet, ``(ap)``: after a check); the rows of ``F``:
    ``0, Ab, Ap, Kb, Kp, Qb, Qp``. ``A`` is in chips per hand: ``6 * A`` holds the
    tutorial's integers (every deal has probability 1/6).

    Raises:
        SolverError: if ``game`` is not 2-player 3-card Kuhn poker.

    Example:
        >>> from pokerlab.games import kuhn
        >>> m = tutorial_matrices(kuhn())
        >>> m.x_labels[:5], (6 * m.A[1]).astype(int).tolist()
        (('0', 'A_b', 'A_p', 'A_pb', 'A_pp'), [0, 0, 0, 0, 0, 2, 1, 0, 0, 2, 1, 0, 0])
    """
    spec = game.spec
    if spec.name != "kuhn" or game.n_players != 2 or spec.get("cards") != 3:
        raise SolverError(
            f"the tutorial's matrices are those of 2-player 3-card Kuhn poker; got {spec}"
        )
    form = build_sequence_form(game)
    tree = compile(game)

    def order(player: int, histories: tuple[str, str]) -> tuple[list[int], list[str], list[int]]:
        seq_ids, labels, infoset_rows = [0], ["0"], []
        rows = {int(i): r + 1 for r, i in enumerate(form.infosets[player])}
        for card in _TUTORIAL_CARDS:
            for history in histories:
                i = tree.infoset_id(f"{card}|{history}")
                infoset_rows.append(rows[i])
                for slot, letter in _TUTORIAL_SLOTS:
                    seq_ids.append(int(tree.seq_offset[i]) + slot)
                    if player == 0:  # "A_b", "A_p"; after check-bet "A_pb", "A_pp"
                        labels.append(f"{card}_{history[:1]}{letter}")
                    else:  # "A_b(ab)" facing a bet, "A_b(ap)" after a check
                        labels.append(f"{card}_{letter}(a{history})")
        return seq_ids, labels, infoset_rows

    x_ids, x_labels, e_rows = order(0, ("", "pb"))
    y_ids, y_labels, f_rows = order(1, ("b", "p"))
    E = form.E.toarray()[np.ix_([0, *e_rows], x_ids)]
    F = form.F.toarray()[np.ix_([0, *f_rows], y_ids)]
    A = form.A.toarray()[np.ix_(x_ids, y_ids)]
    e_names = ("0", *(f"{c}{h}" for c in _TUTORIAL_CARDS for h in ("", "p")))
    f_names = ("0", *(f"{c}{h}" for c in _TUTORIAL_CARDS for h in ("b", "p")))
    return SequenceFormMatrices(
        E=E,
        F=F,
        e=form.e[[0, *e_rows]],
        f=form.f[[0, *f_rows]],
        A=A,
        x_labels=tuple(x_labels),
        y_labels=tuple(y_labels),
        e_rows=e_names,
        f_rows=f_names,
        x_ids=np.asarray(x_ids, dtype=np.int64),
        y_ids=np.asarray(y_ids, dtype=np.int64),
        e_ids=np.asarray([0, *e_rows], dtype=np.int64),
        f_ids=np.asarray([0, *f_rows], dtype=np.int64),
    )
