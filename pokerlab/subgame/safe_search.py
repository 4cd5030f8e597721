"""Safe search: re-solve one player's strategy in a subgame, never more exploitable.

A searching agent at a decision holds a subgame (a public game whose hands carry both
players' ranges at its root), a *reference* strategy there (what it would play without
search: its blueprint, or what an earlier search decided) and a time budget. For the
searching player ``q`` against the opponent ``o``:

1. the opponent's *alternative* values: ``v_o(h)``, the counterfactual value of each of
   its hands when it best-responds to ``q``'s reference strategy in the subgame (or a
   caller's values, e.g. the best in-tree alternative when ``o`` bet off the tree);
2. the re-solving gadget (Burch, Johanson and Bowling 2014): above the subgame's root,
   ``o`` chooses for each hand to *terminate*, taking ``v_o(h)``, or to *follow* into the
   subgame. ``o``'s hands are weighted by its estimated range (the caller floors it so that
   every hand it may hold keeps a say); ``q``'s by its reach;
3. the range solver runs on the gadget game within the budget; ``q``'s average strategy
   is the answer. At the gadget's equilibrium no hand of ``o`` does better in the subgame
   than ``v_o(h)``: against the new strategy the opponent's best response gains no more
   anywhere than against the reference, so search never raises the exploitability beyond
   what the solve's own inexactness allows (:attr:`SearchResult.max_gain` measures it).

Without safety (``safety="none"``) the subgame is solved as a game of its own from both
ranges: often stronger, never guaranteed (:mod:`pokerlab.subgame.rps`). ``safety="range"``
solves it so too; its caller plays it only where the opponent's whole range gains nothing
against it over the alternatives (:attr:`SearchResult.gain` <= 0), single hands may. The
gadget's equilibria leave ``q`` indifferent among strategies that hold every opponent hand
to its alternative, and the one CFR finds can lose to the reference's own opponent: on
the default no-limit blueprint's river spots it lost 4.0% of the pot a spot to the
blueprint, where the plain solve won 1.5% (docs/hard_search.md).

References:
    N. Burch, M. Johanson, M. Bowling, "Solving imperfect information games using
    decomposition", AAAI 2014. N. Brown, T. Sandholm, "Safe and nested subgame solving for
    imperfect-information games", NeurIPS 2017 (the alternative value of an off-tree
    action: the best in-tree one).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import time
from dataclasses import dataclass

import numpy as np

from pokerlab._types import FloatArray
from pokerlab.errors import GameTooLargeError, SolverError
from pokerlab.subgame.public_tree import (
    COL_BOARD,
    COL_COUNT,
    COL_FIRST,
    COL_KIND,
    COL_PARENT,
    COL_PLAYER,
    COL_ROW,
    DECISION,
    N_INT_COLUMNS,
    VALUE,
    PublicGame,
    PublicTree,
    compatible_weight,
)
from pokerlab.subgame.range_solver import RangeSolver, root_values
from pokerlab.subgame.units import WorkArrays, resolve_threads, tree_units, work_arrays

SAFETIES = ("gadget", "range", "none")
"""How a search protects itself: the re-solving gadget, the plain solve checked over the
opponent's whole range by its caller, or nothing (unsafe)."""


@dataclass(frozen=True, eq=False)
class SearchResult:
    """What one search found.

    Attributes:
        strategy: ``q``'s re-solved rows over the subgame, ``[rows_q, hands_q]``.
        opponent_root: ``[hands_o]`` the opponent's best-response counterfactual values at
            the subgame's root against ``strategy`` (a nested search of a later node
            takes its alternatives from :func:`opponent_values` against the same
            strategy).
        alternative: ``[hands_o]`` the values ``v_o`` the gadget offered (``"range"`` and
            ``"none"``: the opponent's best-response values against the reference).
        iterations: range-solver iterations run.
        seconds: wall time of the whole search (gadget, solve, values).
        exploitability: of the last solve measured (chips per hand of the gadget game).
        max_gain: the most any opponent hand gains against ``strategy`` over its
            alternative, in chips per unit of ``q``'s reach (<= 0 up to the solve's
            inexactness when safe).
        safety: ``"gadget"``, ``"range"`` or ``"none"``.
        gain: what the opponent's whole range gains against ``strategy`` over its
            alternatives, in chips per hand of the subgame (its best response's value
            against ``strategy`` less against the reference, where the alternatives are
            the default). Above 0, ``strategy`` is more exploitable here than the
            reference: a search cut short by its budget can be.
    """

    strategy: FloatArray
    opponent_root: FloatArray
    alternative: FloatArray
    iterations: int
    seconds: float
    exploitability: float
    max_gain: float
    safety: str
    gain: float = 0.0


def gadget_game(game: PublicGame, opponent: int,
                values: FloatArray) -> tuple[PublicGame, list[int]]:
    """``game`` with the re-solving gadget above its root.

    The opponent chooses per hand to terminate (a value node paying ``values[h]`` in the
    solver's counterfactual units: spread over the compatible hands of the other player's
    range) or to follow into ``game``. The hand tables are reused.

    Returns:
        ``(gadget game, node map)``: the map gives the gadget game's id of each node of
        ``game``.
    """
    tree = game.tree
    if np.any(tree.nodes[:, COL_KIND] == VALUE):
        raise SolverError("the re-solving gadget goes above a game without value nodes "
                          "(a gadget game cannot take another gadget)")
    mass = _compatible_mass(game, opponent)
    per_pair = np.where(mass > 0, values / np.where(mass > 0, mass, 1.0), 0.0)
    new_tree = _gadget_tree(tree, opponent)
    node_map = list(range(2, tree.n_nodes + 2))
    rows = [np.zeros((0, game.n_hands[0])), np.zeros((0, game.n_hands[1]))]
    rows[opponent] = per_pair.reshape(1, -1)
    tables = list(game.tables)
    for p in (0, 1):
        values_p = np.ascontiguousarray(rows[p], dtype=np.float64)
        values_p.setflags(write=False)
        tables[p] = dataclasses.replace(tables[p], values=values_p)
    public = dataclasses.replace(
        game, tree=new_tree, tables=(tables[0], tables[1]),
        description=f"gadget over {game.description}",
    )  # fmt: skip
    return public, node_map


def _gadget_tree(tree: PublicTree, opponent: int) -> PublicTree:
    """``tree`` below a decision of ``opponent``: terminate (node 1) or follow (node 2).

    The tree :func:`build_public_tree` would flatten from the gadget's specs, made with
    array operations: node ``n`` of ``tree`` becomes ``n + 2`` (its depth-first order is
    kept whole under "follow"), and ``opponent``'s rows move down by the gadget's two.
    """
    n = tree.n_nodes
    nodes = np.empty((n + 2, N_INT_COLUMNS), dtype=np.int64)
    nodes[2:] = tree.nodes
    for column in (COL_FIRST, COL_PARENT):
        shifted = nodes[2:, column]
        shifted[shifted >= 0] += 2
    nodes[2, COL_PARENT] = 0
    mine = (nodes[2:, COL_KIND] == DECISION) & (nodes[2:, COL_PLAYER] == opponent)
    nodes[2:, COL_ROW][mine] += 2
    board = int(tree.nodes[0, COL_BOARD])
    top = np.full(N_INT_COLUMNS, -1, dtype=np.int64)
    top[[COL_KIND, COL_PLAYER, COL_FIRST, COL_COUNT, COL_BOARD, COL_ROW]] = (
        DECISION, opponent, 1, 2, board, 0)
    stop = np.full(N_INT_COLUMNS, -1, dtype=np.int64)
    stop[[COL_KIND, COL_PLAYER, COL_COUNT, COL_BOARD, COL_ROW, COL_PARENT]] = (
        VALUE, opponent, 0, board, 0, 0)
    nodes[0], nodes[1] = top, stop
    amounts = np.empty((n + 2, 3), dtype=np.float64)
    amounts[2:] = tree.amounts
    amounts[:2] = (*tree.chips(0), 1.0)
    isomorphic = tree.isomorphic.copy()
    if isomorphic.size:
        isomorphic[:, 0] += 2
    for array in (nodes, amounts, isomorphic):
        array.setflags(write=False)
    rows = list(tree.n_rows)
    rows[opponent] += 2
    return PublicTree(
        nodes=nodes, amounts=amounts, isomorphic=isomorphic,
        labels=("", "terminate", "follow", *tree.labels[1:]),
        keys=("gadget", "terminate", *tree.keys),
        n_rows=(rows[0], rows[1]),
    )  # fmt: skip


def _compatible_mass(game: PublicGame, player: int) -> FloatArray:
    """For each hand of ``player``, the other player's root weight sharing no card with it."""
    mine, theirs = game.hands[player], game.hands[1 - player]
    n_cards = game.n_cards
    card_sums = np.zeros(n_cards + 1)
    for column in (0, 1):
        np.add.at(card_sums, theirs.cards[:, column], theirs.weights)
    total = float(theirs.weights.sum())
    mass = total - card_sums[mine.cards[:, 0]] - np.where(
        mine.cards[:, 1] >= 0, card_sums[mine.cards[:, 1]], 0.0)
    same = game.tables[player].same
    mass = mass + np.where(same >= 0, theirs.weights[np.maximum(same, 0)], 0.0)
    return np.asarray(mass, dtype=np.float64)


def opponent_values(game: PublicGame, strategies: tuple[FloatArray, FloatArray],
                    opponent: int, *, threads: int | None = 1,
                    work: WorkArrays | None = None) -> FloatArray:
    """``[nodes, hands_o]``: the opponent's best-response counterfactual values at each node.

    Against the other player's rows of ``strategies`` (the opponent's own rows are not
    read), weighted by that player's root weights; on ``threads`` threads (None: every
    core), the same numbers whatever the count. ``work``: the game's work arrays to
    fill (default: new ones).
    """
    work = work_arrays(game) if work is None else work
    if work.areas is not None:
        raise SolverError("opponent values are read at every node: pass work arrays in the "
                          "full layout (work_arrays(game)), not a solver's compact ones")
    cfv = _opponent_pass(game, strategies, opponent, threads, work)
    return np.array(cfv[:, : game.n_hands[opponent]], dtype=np.float64)


def _opponent_pass(game: PublicGame, strategies: tuple[FloatArray, FloatArray], opponent: int,
                   threads: int | None, work: WorkArrays) -> FloatArray:
    """The opponent's best-response pass; its values (in ``work``, either layout)."""
    probs = (np.ascontiguousarray(strategies[0], dtype=np.float64),
             np.ascontiguousarray(strategies[1], dtype=np.float64))
    root_values(game, opponent, probs, True, work, threads=threads)
    return work.cfv


def _opponent_root(game: PublicGame, strategies: tuple[FloatArray, FloatArray],
                   opponent: int, threads: int | None) -> FloatArray:
    """The opponent's best-response values at the root, ``[hands_o]``.

    In the compact layout (rows for the top nodes only, a scratch area per thread): on a
    no-limit turn subgame of 12,000 nodes the full layout allocates and zeroes about 200
    MB, most of a search's time after its solve.
    """
    count = resolve_threads(threads)
    # a scratch area per list of units that will run at once (at most one per thread)
    areas = len(tree_units(game.tree).groups(count, max(*game.n_hands, 1)))
    cfv = _opponent_pass(game, strategies, opponent, count, work_arrays(game, areas=areas))
    return np.array(cfv[0, : game.n_hands[opponent]], dtype=np.float64)


def search(
    game: PublicGame,
    searcher: int,
    reference: tuple[FloatArray, FloatArray],
    *,
    safety: str = "gadget",
    alternative: FloatArray | None = None,
    iterations: int | None = None,
    seconds: float | None = None,
    variant: str = "dcfr",
    started: float | None = None,
    threads: int | None = None,
    target: float | None = None,
    precision: str = "auto",
    pace: Pace | None = None,
) -> SearchResult:
    """Re-solve ``searcher``'s strategy in ``game`` (see the module docstring).

    Args:
        game: the subgame; its hand weights are the searcher's reach and the opponent's
            range (floored: every hand the opponent may hold should weigh > 0).
        searcher: the player ``q`` whose strategy is re-solved.
        reference: ``(probs0, probs1)`` ``[rows, hands]``: what ``q`` plays without
            search (only ``q``'s rows are read).
        safety: ``"gadget"`` (default), ``"range"`` (solved as ``"none"``: the caller
            checks :attr:`SearchResult.gain`) or ``"none"``.
        alternative: the opponent's alternative values ``v_o`` per hand (default: its
            best-response values against ``reference`` at the root).
        iterations: the most solver iterations.
        seconds: the wall-time budget of the whole search, counted from ``started``
            (default: now).
        variant: the range solver's variant.
        started: ``time.perf_counter()`` when the caller's budget began.
        threads: the solver's threads (None: every core; any count gives the same
            strategy).
        target: stop once the gadget game's exploitability is at most this (chips per
            hand; measured after each batch of iterations), within the other budgets.
        precision: the solver's storage (:class:`RangeSolver`'s; ``"float32"`` runs
            an iteration faster than float64, to the same exploitability within what a
            search asks for).
        pace: the caller's :class:`Pace` (with ``seconds``: refuse a search the time left
            cannot afford, and keep this one's pace); None: no such check.

    Raises:
        SolverError: an unknown safety, no budget, or arrays of the wrong shape.
        GameTooLargeError: with ``pace``, ``seconds`` left too short for a few
            iterations of this subgame at that pace.
    """
    start = time.perf_counter() if started is None else started
    if safety not in SAFETIES:
        raise SolverError(f"safety must be one of {', '.join(SAFETIES)}; got {safety!r}")
    if iterations is None and seconds is None:
        raise SolverError("a search needs a budget: iterations, seconds or both")
    if target is not None and not target > 0:
        raise SolverError(f"target must be an exploitability > 0; got {target!r}")
    tree = game.tree
    for p in (0, 1):
        if reference[p].shape != (tree.n_rows[p], game.n_hands[p]):
            raise SolverError(f"reference rows of player {p} must have shape "
                              f"{(tree.n_rows[p], game.n_hands[p])}; got {reference[p].shape}")
    q, o = searcher, 1 - searcher
    units = tree.n_nodes * sum(game.n_hands)
    left = None if seconds is None else seconds - (time.perf_counter() - start)
    if pace is not None and left is not None:
        need = pace.needed(units)
        if pace.refuse(units, left):
            raise GameTooLargeError(
                f"a search of {tree.n_nodes:,} nodes x {sum(game.n_hands):,} hands needs "
                f"about {need:.2f} s at the last search's pace; {max(left, 0.0):.2f} s are "
                "left", found=round(need * 1000), limit=round(max(left, 0.0) * 1000))
    if alternative is None:
        alternative = _opponent_root(game, reference, o, threads)
    alternative = np.asarray(alternative, dtype=np.float64)
    if safety == "gadget":
        solved, node_map = gadget_game(game, o, alternative)
    else:
        solved, node_map = game, list(range(tree.n_nodes))
    solver = RangeSolver(solved, variant=variant, threads=threads, precision=precision)
    _run(solver, iterations, seconds, start, target, pace, units)
    average = solver.average_arrays()
    # the gadget moves the opponent's rows only: q's rows are the subgame's, in order
    decisions = tree.decision_nodes(q)
    assert solved.tree.n_rows[q] == tree.n_rows[q]
    assert np.array_equal(solved.tree.nodes[np.asarray(node_map)[decisions], COL_ROW],
                          tree.nodes[decisions, COL_ROW])
    strategy = np.array(average[q], dtype=np.float64)
    exploitability = solver.last_exploitability if solver.history else float("nan")
    iterations_run = solver.iterations
    del average, solver  # the solver's arrays go before the last pass allocates its own
    profile = [reference[0], reference[1]]
    profile[q] = strategy
    values = _opponent_root(game, (profile[0], profile[1]), o, threads)
    mass = _compatible_mass(game, o)
    with np.errstate(invalid="ignore", divide="ignore"):
        gains = np.where(mass > 0, (values - alternative) / np.where(mass > 0, mass, 1), 0.0)
    return SearchResult(
        strategy=strategy, opponent_root=values, alternative=alternative,
        iterations=iterations_run, seconds=time.perf_counter() - start,
        exploitability=exploitability, max_gain=float(gains.max()) if gains.size else 0.0,
        safety=safety,
        gain=float(game.hands[o].weights @ (values - alternative)) / game.normalizer,
    )  # fmt: skip


class Pace:
    """Seconds an iteration took per public node and hand in its owner's last search.

    A caller searching alike subgames again and again (a searcher on one street of one
    game) keeps one and passes it to :func:`search`: a time-budgeted search that cannot
    afford about five iterations' work (the alternatives' pass, a first iteration, the
    measurement after it, the last pass) is then not started, since a first batch cannot
    stop once started (a first batch of two iterations on a limit turn overran a 1 s
    budget by 40-60%: 1.4-1.6 s). Before its first search it assumes :data:`FIRST_PACE`
    (kept until a search runs: a subgame that pace refuses is not tried); each refusal
    relaxes a measured pace by a fifth, so a slow spell of the machine does not refuse
    every later search, but never below :data:`RELAX_FLOOR` of the last measured one
    (unbounded, a street refused a few dozen times could let any search start: the likely
    cause of two no-limit turn searches of 1.6 and 2.0 s at a 1 s budget in a 20,000-hand
    match).
    """

    def __init__(self) -> None:
        self.seconds_per_unit: float | None = None
        self.measured: float | None = None  # the last search's own pace, unrelaxed

    def needed(self, units: int) -> float:
        """Seconds five iterations of ``units`` node-hands take at this pace."""
        pace = FIRST_PACE if self.seconds_per_unit is None else self.seconds_per_unit
        return 5 * pace * units

    def refuse(self, units: int, left: float) -> bool:
        """Whether ``left`` seconds are too few for ``units`` node-hands (then relax)."""
        if self.needed(units) <= left:
            return False
        if self.seconds_per_unit is not None:
            floor = 0.0 if self.measured is None else RELAX_FLOOR * self.measured
            self.seconds_per_unit = max(self.seconds_per_unit * 0.8, floor)
        return True

    def record(self, solver: RangeSolver, units: int) -> None:
        """Keep the pace of ``solver``'s iterations so far (measurements excluded)."""
        if solver.iterations > 0 and solver.seconds > 0 and units > 0:
            self.seconds_per_unit = self.measured = solver.seconds / solver.iterations / units


RELAX_FLOOR = 0.5
"""The least share of its last measured pace a :class:`Pace` relaxes to (the 2-core
machine's pace was seen to swing by about a third within minutes: half leaves room)."""

FIRST_PACE = 1e-8
"""Seconds per iteration, public node and hand a :class:`Pace` assumes before its first
search (measured on 2 cores, float32: about 3e-9 on a no-limit turn, 1e-8 on a limit
turn)."""


def _run(solver: RangeSolver, iterations: int | None, seconds: float | None,
         start: float, target: float | None = None, pace: Pace | None = None,
         units: int = 0) -> None:
    """Iterate within the budget: small batches first, then batches sized to the time left.

    Each batch ends with one exploitability measurement (the solver's run loop measures at
    its last iteration), about the cost of one iteration and a half; a ``target`` reached
    stops it. Under a time budget, once even an exploitability falling as ``1 / t`` from
    the last measurement would not reach the target in the time left (most no-limit turns
    at a second), the rest of the time runs as one last batch: the measurements between
    could not stop it.
    With ``pace`` and ``seconds``, each batch's pace per ``units`` node-hands is kept.
    """
    batch = 2
    while True:
        done = solver.iterations
        if iterations is not None and done >= iterations:
            return
        if target is not None and solver.history and solver.last_exploitability <= target:
            return
        count, last = batch, False
        cap = None if iterations is None else iterations - done
        if seconds is not None:
            left = seconds - (time.perf_counter() - start)
            if left <= 0:
                return
            if done:
                per = solver.seconds / done if solver.seconds > 0 else 0.0
                # the batch's measurement and the search's last pass (the opponent's
                # values against the result, and the averages) cost about an iteration
                # each: keep them and 10% of the time spare
                if per > 0:
                    affordable = max(int(0.9 * left / per) - 2, 0)
                    last = affordable > 0 and _out_of_reach(solver, target, affordable)
                    count = min(count, affordable)
                if count <= 0:
                    return
        if last:  # on the clock (the machine's pace changes), measured once, at its end:
            # its measurement and the search's last pass take about three iterations' time
            solver.run(iterations=cap, seconds=max(left - 3 * per, per), check_every=2**40)
        else:
            if cap is not None:
                count = min(count, cap)
            # checks fall on multiples of check_every: done + count puts the batch's one
            # check at its end (check_every=count would check mid-batch as well)
            solver.run(iterations=count, check_every=done + count)
        if pace is not None and seconds is not None:
            pace.record(solver, units)
        if last:
            return
        batch = min(2 * batch, 64)


def _out_of_reach(solver: RangeSolver, target: float | None, more: int) -> bool:
    """Whether ``more`` iterations cannot bring the solver to ``target``.

    Even if its exploitability fell as ``1 / t`` from its last measurement (with no
    target: always, nothing stops the search before its time).
    """
    if target is None:
        return True
    if not solver.history or not math.isfinite(solver.last_exploitability):
        return False
    done = solver.iterations
    return solver.last_exploitability * done / (done + more) > target


def root_alternatives_after(game: PublicGame, values: FloatArray, node: int) -> FloatArray:
    """The opponent's alternative values at an off-tree action below ``node``.

    ``node`` is the opponent's decision where it took an action the subgame does not
    hold; ``values`` its best-response values at every node (:func:`opponent_values`
    against the search's strategy). Its alternative for each hand is its best in-tree
    action there:
    nested subgame solving keeps the off-tree action worth no more than that.
    """
    children = list(game.tree.children(node))
    if not children:
        raise SolverError(f"node {node} has no children")
    return np.asarray(values[children].max(axis=0), dtype=np.float64)


def reach_of(game: PublicGame, strategies: tuple[FloatArray, FloatArray], node: int,
             player: int) -> FloatArray:
    """``player``'s reach of ``node`` per hand: its root weight times its strategy on the path.

    Chance is left out (a nested subgame's root follows the root board's hands).
    """
    tree = game.tree
    reach = np.array(game.hands[player].weights, dtype=np.float64)
    path = tree.path(node)
    for parent, child in itertools.pairwise(path):
        if tree.kind(parent) == DECISION and tree.player(parent) == player:
            k = child - tree.children(parent)[0]
            reach = reach * strategies[player][tree.row(parent) + k]
    return reach


def compatible_total(game: PublicGame) -> float:
    """The weight of the compatible hand pairs (the game's normalizer)."""
    return compatible_weight(game.hands[0], game.hands[1], game.n_cards)


__all__ = [
    "FIRST_PACE",
    "SAFETIES",
    "Pace",
    "SearchResult",
    "compatible_total",
    "gadget_game",
    "opponent_values",
    "reach_of",
    "root_alternatives_after",
    "search",
]
