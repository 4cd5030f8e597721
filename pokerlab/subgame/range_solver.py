"""The range solver: Discounted CFR and CFR+ on a public tree, vectorized over hands.

One iteration updates the players one after the other (alternating updates). For the
updating player ``p``, one compiled pass (:func:`~pokerlab.subgame._kernels.cfr_pass`):

1. top-down, the opponent's reach of every public node, as a vector over its hands (its
   range weights times its current strategy along the path, times the chance probability
   of each public card, zero for hands that hold that card); the opponent's
   reach-weighted current strategy is added to its strategy sums;
2. bottom-up, ``p``'s counterfactual values as a vector over ``p``'s hands: folds and
   showdowns in ``O(hands)`` with card removal (sorted hand strength), chance nodes sum
   their cards (isomorphic cards reuse a representative's values through a suit swap),
   decision nodes mix their children by ``p``'s current strategy; at ``p``'s nodes the
   regrets grow by each action's value minus the node's, then are discounted (DCFR) or
   floored (CFR+).

Adding the opponent's strategy during ``p``'s pass averages exactly the strategies ``p``
was updated against, which is what the average-strategy bound of alternating CFR needs.
The average strategy (strategy sums, normalized per node and hand) converges to a Nash
equilibrium. Exploitability is measured the same vectorized way: each player's best
response to the other's average strategy (the largest action value per hand), exactly.

Node locking (:mod:`pokerlab.subgame.node_lock`): at a locked node the locked hands play
their fixed rows every iteration, in the current strategy (so in the strategy sums) and in
the average strategy reported; everything else solves against them. The exploitability of
a locked solve is measured in the locked game: each player's best response must play the
locks where it is locked (it deviates only where it is free), so a fully locked player
gains nothing and the figure is half the other player's best-response gain.

Variants: ``"dcfr"`` Discounted CFR (alpha 1.5, beta 0, gamma 2 by default: after
iteration ``t`` positive regrets are multiplied by ``t^a / (t^a + 1)``, negative ones by
``t^b / (t^b + 1)``, and iteration ``t``'s strategy weighs ``t^g``), ``"cfr+"``
(regrets floored at 0, iteration ``t`` weighs ``t``) and ``"cfr"`` (vanilla).

References:
    N. Brown and T. Sandholm, "Solving imperfect-information games via discounted regret
    minimization", AAAI 2019. O. Tammelin, "Solving large imperfect information games
    using CFR+", 2014. M. Johanson, N. Bard, M. Lanctot, R. Gibson, M. Bowling,
    "Efficient Nash equilibrium approximation through Monte Carlo counterfactual regret
    minimization", AAMAS 2012 (public-tree vector passes).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab._types import FloatArray, IntArray
from pokerlab.errors import FileFormatError, SolverError
from pokerlab.solvers.checkpoint import read_checkpoint, write_checkpoint
from pokerlab.solvers.run_loop import HistoryRow, RunLoop
from pokerlab.subgame import _kernels as kernels
from pokerlab.subgame.node_lock import LockTable, NodeLock, resolve_locks
from pokerlab.subgame.public_tree import PublicGame
from pokerlab.subgame.storage import (
    allocate,
    finish_in_place,
    storage_precision,
    work_dtype,
)
from pokerlab.subgame.units import (
    WorkArrays,
    resolve_threads,
    run_groups,
    scratch_arrays,
    tree_units,
    work_arrays,
)

VARIANTS = ("dcfr", "cfr+", "cfr")
"""The CFR variants the range solver runs."""

DEFAULT_MEMORY_LIMIT = 8 * 1024**3
"""Games whose solver arrays would exceed this (bytes) are refused unless a limit is given."""


@dataclass(frozen=True)
class Evaluation:
    """Exact values of the average (or a given) strategy profile, chips per hand.

    Attributes:
        values: ``(v0, v1)`` each player's expected chips when the profile is played.
        best_response_values: what each player wins by best-responding to the other (in
            a locked game, by the best response that plays the locks where it is locked).
    """

    values: tuple[float, float]
    best_response_values: tuple[float, float]

    @property
    def exploitability(self) -> float:
        """The mean of the two best-response gains (NashConv / 2), chips per hand."""
        return 0.5 * (self.best_response_values[0] + self.best_response_values[1]
                      - self.values[0] - self.values[1])

    @property
    def value_bounds(self) -> tuple[float, float]:
        """``(low, high)``: the game value for player 0 lies between these, exactly."""
        return -self.best_response_values[1], self.best_response_values[0]


class RangeSolver(RunLoop):
    """Discounted CFR / CFR+ over a :class:`PublicGame`, vectorized over hands.

    On the run loop every solver shares (:class:`~pokerlab.solvers.run_loop.RunLoop`):
    ``run(iterations=, target_exploitability=, seconds=, check_every=, callback=,
    interrupt=)``, whose callback receives a :class:`~pokerlab.solvers.run_loop.Progress`
    with the root's ``pot``; checkpoints (:meth:`save_checkpoint`) resume bit for bit.

    Args:
        game: the public game (Kuhn, Leduc, a Hold'em spot...).
        variant: ``"dcfr"`` (default), ``"cfr+"`` or ``"cfr"``.
        alpha: DCFR's exponent of the positive-regret discount (default 1.5).
        beta: DCFR's exponent of the negative-regret discount (default 0: halved).
        gamma: DCFR's exponent of the averaging weight (default 2).
        memory_limit: the largest solver allocation accepted, in bytes.
        precision: how regrets, strategy sums and the work vectors are stored
            (:mod:`pokerlab.subgame.storage`): ``"float64"``, ``"float32"`` (half the
            memory, a little faster; arithmetic stays float64 in registers: a given
            profile evaluates to within about 1e-6 of the pot of float64, and runs
            converge alike, though rounding makes their paths differ), ``"compressed"``
            (16-bit integers scaled per node, a quarter of float64) or ``"auto"``
            (default: the first of them that fits ``memory_limit``).
        locks: node locks (:class:`~pokerlab.subgame.node_lock.NodeLock`, their text, or
            a resolved :class:`~pokerlab.subgame.node_lock.LockTable`): those nodes and
            hands play their fixed strategy; the rest is solved against it.
        threads: the threads a pass runs on (None, the default: every core the process
            may use). Below the first chance node the tree splits into units that share
            nothing (:mod:`pokerlab.subgame.units`), run at once on that many threads;
            the results are identical, bit for bit, whatever the count. A river spot (no
            chance node) and small games run on one.

    Raises:
        SolverError: an unknown variant or precision, a hyper-parameter out of range, or
            threads below 1.
        SpecError: a lock that does not fit the game (its node, actions or hands).
        GameTooLargeError: if the arrays would exceed ``memory_limit`` (nothing is
            allocated before the check; the message gives the estimate).

    Example:
        >>> from pokerlab.games import kuhn
        >>> from pokerlab.subgame import kuhn_public_game
        >>> solver = RangeSolver(kuhn_public_game(kuhn())).run(target_exploitability=1e-3)
        >>> solver.evaluate().exploitability <= 1e-3
        True
    """

    def __init__(
        self,
        game: PublicGame,
        *,
        variant: str = "dcfr",
        alpha: float = 1.5,
        beta: float = 0.0,
        gamma: float = 2.0,
        memory_limit: int = DEFAULT_MEMORY_LIMIT,
        precision: str = "auto",
        locks: Iterable[NodeLock | str] | LockTable = (),
        threads: int | None = None,
    ) -> None:
        if variant not in VARIANTS:
            raise SolverError(f"unknown variant {variant!r}; allowed: {', '.join(VARIANTS)}")
        for name, value, lowest in (("alpha", alpha, 0.0), ("beta", beta, None),
                                    ("gamma", gamma, 0.0)):
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not math.isfinite(value)
                or (lowest is not None and value < lowest)
            ):
                allowed = "a finite number >= 0" if lowest is not None else "a finite number"
                raise SolverError(f"{name} must be {allowed}; got {value!r}")
        threads = resolve_threads(threads)
        groups = tree_units(game.tree).groups(threads, max(*game.n_hands, 1))
        precision = storage_precision(game, memory_limit, precision, areas=len(groups))
        dtype = work_dtype(precision)
        table = locks if isinstance(locks, LockTable) else resolve_locks(game, locks)
        super().__init__()
        self.game = game
        self.precision = precision
        self.dtype = dtype
        self.variant = variant
        self.alpha = float(alpha)
        self.beta = float(beta)
        self.gamma = float(gamma)
        self.memory_limit = memory_limit
        self.locks = table
        tree = game.tree
        n0, n1 = game.n_hands
        self._stored = allocate(((tree.n_rows[0], n0), (tree.n_rows[1], n1)), precision)
        self._regrets: tuple[FloatArray, FloatArray] = self._stored.regrets
        self._sums: tuple[FloatArray, FloatArray] = self._stored.sums
        self.threads = threads
        self._units = tree_units(tree)
        self._groups = groups
        self._work = work_arrays(game, dtype, areas=len(self._groups))
        self._scratch = scratch_arrays(self._work.sigma, self._work.scratch, len(self._groups))
        self._finished: tuple[FloatArray, FloatArray] | None = None

    # -- hyper-parameters and schedule ----------------------------------------------------
    def hyperparameters(self) -> dict[str, Any]:
        """The hyper-parameters as given, JSON-ready (recorded in files).

        float32 and compressed storage are recorded as ``"precision"`` (float64, the
        default where it fits, is not, so files written before float32 read the same).
        """
        out: dict[str, Any] = {"variant": self.variant}
        if self.variant == "dcfr":
            out.update(alpha=self.alpha, beta=self.beta, gamma=self.gamma)
        if self.precision != "float64":
            out["precision"] = self.precision
        return out

    def _schedule(self, t: int) -> tuple[float, float, bool, bool, float, float]:
        """``(regret_weight, average_weight, floor, discount, positive, negative)`` of ``t``."""
        if self.variant == "dcfr":
            up = float(t) ** self.alpha
            down = float(t) ** self.beta
            return 1.0, float(t) ** self.gamma, False, True, up / (up + 1.0), down / (down + 1.0)
        if self.variant == "cfr+":
            return 1.0, float(t), True, False, 1.0, 1.0
        return 1.0, 1.0, False, False, 1.0, 1.0

    # -- passes ---------------------------------------------------------------------------
    def _advance(self, count: int) -> None:
        self._check_running()
        if count <= 0:
            return
        game = self.game
        tree = game.tree
        first = self.iterations + 1
        schedule = np.empty((count, 4))
        floor = discount = False
        for i in range(count):
            regret_weight, average_weight, floor, discount, up, down = self._schedule(first + i)
            schedule[i] = regret_weight, average_weight, up, down
        regret_scales, sum_scales = self._stored.regret_scales, self._stored.sum_scales
        if len(self._groups) < 2:
            kernels.cfr_iterations(
                count, schedule, tree.nodes, tree.amounts, tree.isomorphic,
                game.tables[0].as_tuple(), game.tables[1].as_tuple(), self._regrets[0],
                self._regrets[1], self._sums[0], self._sums[1], regret_scales[0],
                regret_scales[1], sum_scales[0], sum_scales[1], *self._work.arrays(), floor,
                discount, self.locks.lock_at, *self.locks.probs, self._work.slot,
                self._work.base(0), *self._units.as_tuple(), first,
            )
        else:
            for i in range(count):
                for p in (0, 1):
                    self._threaded_pass(p, schedule[i], floor, discount, first + i)
        self.iterations += count

    def _threaded_pass(self, p: int, schedule: FloatArray, floor: bool, discount: bool,
                       iteration: int) -> None:
        """``cfr_pass`` of player ``p`` with the units on this solver's threads."""
        game, units, o = self.game, self._units, 1 - p
        tree = game.tree
        mine, theirs = game.tables[p].as_tuple(), game.tables[o].as_tuple()
        cfreach, source, cfv, sigma, scratch = self._work.arrays()
        slot = self._work.slot
        regret_weight, average_weight, up, down = (float(x) for x in schedule)
        lock_at, locks = self.locks.lock_at, self.locks.probs
        regret_scales, sum_scales = self._stored.regret_scales, self._stored.sum_scales
        kernels.cfr_top_down(p, tree.nodes, tree.amounts, theirs, self._regrets[o],
                             self._sums[o], sum_scales[o], cfreach, source, sigma,
                             average_weight, lock_at, locks[o], slot, units.top, iteration)

        def work(group: IntArray, g: int) -> None:
            sigma_g, scratch_g = self._scratch[g]
            kernels.cfr_units(group, units.nodes, units.offsets, p, tree.nodes, tree.amounts,
                              tree.isomorphic, mine, theirs, self._regrets[p],
                              regret_scales[p], self._regrets[o], self._sums[o],
                              sum_scales[o], cfreach, source, cfv, sigma_g, scratch_g,
                              regret_weight, average_weight, floor, discount, up, down,
                              lock_at, locks[p], locks[o], slot, self._work.base(g),
                              iteration)

        run_groups(work, self._groups)
        kernels.cfr_top_up(p, tree.nodes, tree.amounts, tree.isomorphic, mine, theirs,
                           self._regrets[p], regret_scales[p], cfreach, source, cfv, sigma,
                           scratch, regret_weight, floor, discount, up, down, lock_at,
                           locks[p], slot, units.top)

    def average_arrays(self) -> tuple[FloatArray, FloatArray]:
        """Each player's average strategy, ``[rows, hands]`` (uniform where never reached).

        In the work dtype (float32 and compressed storage give float32 strategies: on a
        flop they are as large as the regrets). Locked nodes and hands hold their locks
        exactly. After :meth:`finish` of a compressed solve (whose sums the averages were
        written over), copies of the finished averages.
        """
        if self._finished is not None and self._stored.compressed:
            return self._finished[0].copy(), self._finished[1].copy()
        out: tuple[FloatArray, FloatArray] = (np.empty(self._sums[0].shape, self.dtype),
                                              np.empty(self._sums[1].shape, self.dtype))
        self._average_into(out)
        return out

    def _average_into(self, out: tuple[FloatArray, FloatArray]) -> None:
        """Write the average strategies into ``out`` (on the solver's threads)."""
        nodes = self.game.tree.nodes
        # one stretch of node ids per thread (a tree without units still has its nodes)
        cuts = np.linspace(0, nodes.shape[0], max(1, len(self._groups)) + 1).astype(np.int64)
        stretches = [cuts[g : g + 2] for g in range(len(cuts) - 1)]
        for p in (0, 1):
            def work(stretch: IntArray, _: int, p: int = p) -> None:
                kernels.normalize_rows(nodes, p, self._sums[p], out[p], int(stretch[0]),
                                       int(stretch[1]))

            run_groups(work, stretches)
            self.locks.apply(p, out[p])

    def finish(self) -> tuple[FloatArray, FloatArray]:
        """The average strategies, written over the regrets: the solve is over.

        What :meth:`average_arrays` returns, without a third pair of strategy-sized arrays
        (on a flop spot each pair is most of the memory): the regrets are no longer
        needed once the caller is done solving. Afterwards the solver cannot run on or
        save a checkpoint (save one first); it still evaluates, and
        :meth:`exploitability` and :meth:`evaluate` default to these strategies.
        """
        if self._finished is None and self._stored.compressed:
            most = int(self.game.tree.nodes[:, 3].max(initial=1))
            averages = tuple(finish_in_place(self._stored, self.game.tree.nodes, p, most)
                             for p in (0, 1))
            for p in (0, 1):
                self.locks.apply(p, averages[p])
            self._finished = (averages[0], averages[1])
        elif self._finished is None:
            self._average_into(self._regrets)
            self._finished = self._regrets
        return self._finished

    def _check_running(self) -> None:
        if self._finished is not None:
            raise SolverError("this solver is finished (its regrets hold the average "
                              "strategies); solve again, or save a checkpoint before "
                              "finishing to resume")

    def current_arrays(self) -> tuple[FloatArray, FloatArray]:
        """Each player's current (regret-matching) strategy, ``[rows, hands]``, locks in it."""
        self._check_running()
        out = []
        for p in (0, 1):
            probs: FloatArray = np.empty(self._regrets[p].shape, self.dtype)
            kernels.current_rows(self.game.tree.nodes, p, self._regrets[p], probs,
                                 self._work.sigma)
            self.locks.apply(p, probs)
            out.append(probs)
        return out[0], out[1]

    def evaluate(
        self, strategies: tuple[FloatArray, FloatArray] | None = None
    ) -> Evaluation:
        """Exact values and best-response values of a profile (default: the average).

        Args:
            strategies: ``(probs0, probs1)``, each ``[rows, hands]`` as
                :meth:`average_arrays` returns them (in a locked solve, played with the
                locks written over them).
        """
        return evaluate_profile(self.game, self._locked(strategies), work=self._work,
                                locks=self.locks, threads=self.threads)

    def exploitability(self, strategies: tuple[FloatArray, FloatArray] | None = None) -> float:
        """The exploitability of a profile (default: the average), chips per hand.

        The mean of the two best-response values: two passes, since the game is zero-sum.
        In a locked solve, of the locked game: best responses play the locks where they
        are locked (see the module docstring).
        """
        return profile_exploitability(self.game, self._locked(strategies), work=self._work,
                                      locks=self.locks, threads=self.threads)

    def _locked(self, strategies: tuple[FloatArray, FloatArray] | None
                ) -> tuple[FloatArray, FloatArray]:
        """The average strategies, or copies of ``strategies`` with the locks written in."""
        if strategies is None:
            return self.average_arrays() if self._finished is None else self._finished
        if not self.locks:
            return strategies
        copies = (strategies[0].copy(), strategies[1].copy())
        for p in (0, 1):
            self.locks.apply(p, copies[p])
        return copies

    # -- the run loop -------------------------------------------------------------------
    def _measure(self) -> float:
        """The run loop's check: the average's exploitability, straight from the sums."""
        return profile_exploitability(self.game, self._sums, work=self._work,
                                      locks=self.locks, threads=self.threads, normalized=True)

    @property
    def can_measure(self) -> bool:
        """Always: the vectorized best response is exact on every public game."""
        return True

    def _progress_fields(self) -> dict[str, Any]:
        return {"pot": float(self.game.pot)}

    def memory_bytes(self) -> int | None:
        """Bytes of the solver's arrays: regrets, strategy sums and work arrays.

        The checks build no average strategy (:func:`profile_exploitability` of the
        sums); the average :meth:`average_arrays` returns belongs to the caller.
        """
        return self._stored.nbytes + self._work.nbytes

    @property
    def last_exploitability(self) -> float:
        """The exploitability measured last (chips per hand).

        Raises:
            SolverError: if nothing was measured yet.
        """
        value = self.history[-1].exploitability if self.history else None
        if value is None:
            raise SolverError("no exploitability measured yet; run the solver first")
        return value

    # -- checkpoints ----------------------------------------------------------------------
    def state(self) -> dict[str, np.ndarray]:
        """The arrays that, restored, make the next iteration identical (copies)."""
        return {name: array.copy() for name, array in self._arrays().items()}

    def _arrays(self) -> dict[str, np.ndarray]:
        """The state's arrays themselves (a checkpoint writes them without copying)."""
        self._check_running()
        return self._stored.named()

    def restore(self, state: dict[str, np.ndarray], *, iterations: int, seconds: float,
                history: list[HistoryRow], wall_seconds: float | None = None) -> None:
        """Put back what :meth:`state` returned (and the counters saved with it).

        Raises:
            SolverError: if an array is missing or has the wrong shape, or the solver is
                finished (its regrets hold the average strategies handed out).
        """
        self._check_running()
        targets = self._stored.named()
        for name, target in targets.items():
            value = state.get(name)
            if not isinstance(value, np.ndarray) or value.shape != target.shape:
                found = getattr(value, "shape", None)
                raise SolverError(f"checkpoint array {name!r} must have shape {target.shape}; "
                                  f"got {found}")
            if value.dtype != target.dtype:
                raise SolverError(f"checkpoint array {name!r} must be {target.dtype} (this "
                                  f"solver stores {self.precision}); got {value.dtype}")
        for name, target in targets.items():
            target[...] = state[name]
        self.iterations = iterations
        self._seconds = seconds
        self._wall_seconds = seconds if wall_seconds is None else wall_seconds
        self.history = list(history)

    def save_checkpoint(self, path: str | Path) -> Path:
        """Write everything needed to resume exactly to ``path``, atomically.

        A checkpoint of kind ``"range"`` (:mod:`pokerlab.solvers.checkpoint`): the public
        game's source (to rebuild it), the hyper-parameters, the run's clock and history,
        and both players' regrets and strategy sums.
        """
        from pokerlab import __version__

        header = {
            "pokerlab_version": __version__,
            "solver": type(self).__name__,
            "algorithm": f"range-{self.variant}",
            "source": dict(self.game.source),
            "description": self.game.description,
            "hyperparameters": self.hyperparameters(),
            "locks": self.locks.texts,
            **self.clock_header(),
            "state_values": {},
        }
        return write_checkpoint(Path(path), header, self._arrays(), kind="range")

    @classmethod
    def load_checkpoint(cls, path: str | Path, *, game: PublicGame,
                        memory_limit: int = DEFAULT_MEMORY_LIMIT,
                        locks: Iterable[NodeLock | str] | None = None,
                        threads: int | None = None) -> RangeSolver:
        """Rebuild the solver saved in ``path`` on ``game``; the next iteration is the same.

        Reads the range solver's former checkpoint format too. To rebuild the game from
        the file's source, use :func:`pokerlab.subgame.checkpoint.load_range_checkpoint`.

        Args:
            path: the checkpoint.
            game: its public game.
            memory_limit: the largest solver allocation accepted, in bytes.
            locks: the locks this run solves with; they must be the checkpoint's (None:
                the checkpoint's own).
            threads: the threads of the resumed run (as the constructor's; not part of
                the checkpoint: any count gives the same numbers).

        Raises:
            FileFormatError: missing, damaged, or not a range checkpoint.
            SolverError: ``game`` is not the checkpoint's game, the arrays do not fit it,
                or ``locks`` are not the checkpoint's.
        """
        header, arrays = read_checkpoint(path, kind="range")
        where = repr(str(path))
        if dict(game.source) != header.get("source"):
            raise SolverError(f"{where} is a checkpoint of {header.get('description')}, not of "
                              f"{game.description}")
        hyperparameters = header.get("hyperparameters", {})
        if not isinstance(hyperparameters, dict):
            raise FileFormatError(f"{where} has corrupted hyper-parameters: {hyperparameters!r}")
        # a file without a precision stores float64 (not "auto": that could pick another)
        hyperparameters = {"precision": "float64", **hyperparameters}
        saved = header.get("locks", [])
        if not isinstance(saved, list) or not all(isinstance(t, str) for t in saved):
            raise FileFormatError(f"{where} has corrupted locks: {saved!r}")
        if locks is not None:
            given = [str(lock) for lock in resolve_locks(game, locks).locks]
            if given != saved:
                raise SolverError(
                    f"{where} was solved with the locks {_listed(saved)}; this run has "
                    f"{_listed(given)}: resume with the same locks (--lock/--locks), or "
                    "start afresh without --resume")
        try:
            solver = cls(game, memory_limit=memory_limit, locks=saved, threads=threads,
                         **hyperparameters)
        except TypeError as exc:
            raise FileFormatError(f"{where} has corrupted hyper-parameters: {exc}") from None
        solver.restore(arrays, iterations=0, seconds=0.0, history=[])
        solver.restore_clock(header, where)
        return solver

    def __repr__(self) -> str:
        return (f"<RangeSolver {self.variant} on {self.game.description} after "
                f"{self.iterations} iterations>")


def _listed(locks: list[str]) -> str:
    return ", ".join(repr(text) for text in locks) if locks else "(none)"


def profile_exploitability(
    game: PublicGame,
    strategies: tuple[FloatArray, FloatArray],
    *,
    work: WorkArrays | None = None,
    locks: LockTable | None = None,
    threads: int | None = 1,
    normalized: bool = False,
) -> float:
    """The exploitability of ``strategies`` (chips per hand): the mean best-response value.

    Public games are zero-sum (a fold or a showdown moves chips from one player to the
    other), so the two players' values cancel and two best-response passes suffice. With
    ``locks``, of the locked game: best responses play the locks where they are locked.
    ``threads`` as :func:`root_values`. With ``normalized``, ``strategies`` are strategy
    sums: the number is that of their average with the locks written in (bit for bit),
    without building it (each node's rows are normalized as the passes reach them, so a
    check needs no strategy-sized array).
    """
    return _evaluate(game, strategies, work=work, with_values=False, locks=locks,
                     threads=threads, normalized=normalized).exploitability


def evaluate_profile(
    game: PublicGame,
    strategies: tuple[FloatArray, FloatArray],
    *,
    work: WorkArrays | None = None,
    locks: LockTable | None = None,
    threads: int | None = 1,
) -> Evaluation:
    """Exact values and best-response values of ``strategies`` in ``game``, chips per hand.

    Four vectorized passes: each player's value under the profile and against the other's
    best response (with ``locks``, the best response that plays the locks where it is
    locked).

    Raises:
        SolverError: if a strategy array does not have the shape ``[rows, hands]``.
    """
    return _evaluate(game, strategies, work=work, with_values=True, locks=locks,
                     threads=threads)


def _evaluate(
    game: PublicGame,
    strategies: tuple[FloatArray, FloatArray],
    *,
    work: WorkArrays | None,
    with_values: bool,
    locks: LockTable | None = None,
    threads: int | None = 1,
    normalized: bool = False,
) -> Evaluation:
    tree = game.tree
    for p in (0, 1):
        expected = (tree.n_rows[p], game.n_hands[p])
        if strategies[p].shape != expected:
            raise SolverError(f"player {p}'s strategy must have shape {expected}; "
                              f"got {strategies[p].shape}")
    if work is None:  # only the root's values are read: the compact layout will do
        groups = tree_units(tree).groups(resolve_threads(threads), max(*game.n_hands, 1))
        work = work_arrays(game, areas=len(groups))
    values = [0.0, 0.0]
    best = [0.0, 0.0]
    probs = (_kernel_floats(strategies[0]), _kernel_floats(strategies[1]))
    for p in (0, 1):
        weights = game.hands[p].weights
        for best_response, out in ((False, values), (True, best)):
            if best_response or with_values:
                root_values(game, p, probs, best_response, work, locks=locks,
                            threads=threads, normalized=normalized)
                out[p] = float(weights @ work.cfv[0, : game.n_hands[p]]) / game.normalizer
    return Evaluation((values[0], values[1]), (best[0], best[1]))


def _kernel_floats(array: FloatArray) -> FloatArray:
    """``array`` C-contiguous in float32 or float64 (no copy when it already is).

    The 16-bit integers of compressed storage pass as they are (only their strategy sums,
    normalized, are ever read as a strategy).
    """
    kept = (np.float32, np.float64, np.int16, np.uint16)
    dtype = array.dtype if array.dtype in kept else np.float64
    return np.ascontiguousarray(array, dtype=dtype)


def root_values(
    game: PublicGame,
    p: int,
    strategies: tuple[FloatArray, FloatArray],
    best_response: bool,
    work: WorkArrays,
    *,
    locks: LockTable | None = None,
    threads: int | None = 1,
    normalized: bool = False,
) -> None:
    """Fill the work arrays with ``p``'s pass over ``strategies``.

    In the full layout (:func:`work_arrays`' default) the opponent's reach of node ``n``
    ends in ``work.cfreach[work.source[n]]`` and ``p``'s counterfactual values in
    ``work.cfv[n]`` (best-response values with ``best_response``; with ``locks``, a best
    response plays ``p``'s locks where it is locked); in the compact layout only the rows
    of their own hold a node's (the root's, row 0, always). With ``threads`` above 1
    (None: every core) the tree's units run on that many threads, at most ``work.areas``
    (:mod:`pokerlab.subgame.units`): the same numbers, sooner. With ``normalized`` the
    opponent's entry of ``strategies`` is its strategy sums, normalized node by node with
    its locks written in (as :meth:`RangeSolver.average_arrays` would give it).
    """
    if normalized and not best_response:
        raise SolverError("normalized strategy sums are read for the opponent only: "
                          "evaluate p's own strategy from average strategies")
    tree = game.tree
    cfreach, source, cfv, sigma, scratch = work.arrays()
    slot = work.slot
    lock_at, locks_p, locks_o = ((_NO_LOCK_AT, _NO_LOCKS, _NO_LOCKS) if locks is None
                                 else (locks.lock_at, locks.probs[p], locks.probs[1 - p]))
    averages = np.float32 if strategies[1 - p].dtype == np.uint16 else strategies[1 - p].dtype
    if normalized and sigma.dtype != averages:
        # the normalized rows round as a stored average of the sums would (compressed
        # sums average to float32)
        sigma = np.zeros(sigma.shape, dtype=averages)
    units = tree_units(tree)
    threads = resolve_threads(threads)
    if work.areas is not None:
        threads = min(threads, work.areas)
    groups = units.groups(threads, max(*game.n_hands, 1))
    mine, theirs = game.tables[p].as_tuple(), game.tables[1 - p].as_tuple()
    strategy_p, strategy_o = strategies[p], strategies[1 - p]
    if len(groups) < 2:
        kernels.evaluate_pass(
            p, tree.nodes, tree.amounts, tree.isomorphic, mine, theirs, strategy_p,
            strategy_o, best_response, cfreach, source, cfv, sigma, scratch, lock_at, locks_p,
            locks_o, slot, work.base(0), normalized, *units.as_tuple(),
        )
        return
    kernels.evaluate_top_down(p, tree.nodes, tree.amounts, theirs, strategy_o, cfreach,
                              source, sigma, lock_at, locks_o, slot, normalized, units.top)
    private = scratch_arrays(sigma, scratch, len(groups))

    def work_on(group: IntArray, g: int) -> None:
        sigma_g, scratch_g = private[g]
        kernels.evaluate_units(group, units.nodes, units.offsets, p, tree.nodes, tree.amounts,
                               tree.isomorphic, mine, theirs, strategy_p, strategy_o,
                               best_response, cfreach, source, cfv, sigma_g, scratch_g,
                               lock_at, locks_p, locks_o, slot, work.base(g), normalized)

    run_groups(work_on, groups)
    kernels.evaluate_top_up(p, tree.nodes, tree.amounts, tree.isomorphic, mine, theirs,
                            strategy_p, best_response, cfreach, source, cfv, scratch, lock_at,
                            locks_p, slot, units.top)


_NO_LOCK_AT = np.zeros(0, dtype=np.int64)
_NO_LOCKS = np.zeros((0, 0))
for _array in (_NO_LOCK_AT, _NO_LOCKS):
    _array.setflags(write=False)  # as a LockTable's: the kernels compile one version


def uniform_arrays(game: PublicGame) -> tuple[FloatArray, FloatArray]:
    """Both players' uniform strategies, ``[rows, hands]``."""
    out = []
    tree = game.tree
    for p in (0, 1):
        probs = np.zeros((tree.n_rows[p], game.n_hands[p]))
        for node in tree.decision_nodes(p):
            count = len(tree.children(int(node)))
            row = tree.row(int(node))
            probs[row : row + count] = 1.0 / count
        out.append(probs)
    return out[0], out[1]


__all__ = [
    "DEFAULT_MEMORY_LIMIT",
    "VARIANTS",
    "Evaluation",
    "RangeSolver",
    "evaluate_profile",
    "profile_exploitability",
    "root_values",
    "uniform_arrays",
]
