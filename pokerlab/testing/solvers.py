"""check_solver: the promises every run loop keeps, one small check each.

In the spirit of scikit-learn's ``check_estimator``: :func:`solver_checks` yields named
checks, each of which builds fresh solvers from a factory, exercises one promise of the
run loop (:class:`~pokerlab.solvers.run_loop.RunLoop`) and fails with an
:class:`AssertionError` that says which promise broke; :func:`check_solver` runs them
all. The promises:

- ``progress_is_monotone``: the callback's reports (and the history) advance: iterations
  grow, solving seconds never fall, the last one is where the budget ends;
- ``split_runs_equal_one_run``: ``run(n)`` twice ends where ``run(2n)`` ends;
- ``resume_equals_uninterrupted``: a checkpoint saved after ``n`` iterations, loaded and
  run ``n`` more, ends where ``2n`` uninterrupted iterations end (bit for bit where the
  solver is deterministic for its seed);
- ``interrupt_leaves_a_checkpoint``: an interrupt stops the run between slices (flagged
  ``interrupted``), and its checkpoint resumes to the uninterrupted run's end;
- ``seconds_budget_holds``: ``run(seconds=s)`` counts ``s`` of wall-clock time, off by
  at most one slice and one check (timed in that run: a loaded machine widens the leeway,
  a loop that ignores the budget still fails; the 10% figure on an idle machine is a
  benchmark, ``benchmarks/bench_run_loop.py``), and ``wall_seconds`` grows by the time
  the call took (once warm: compiled kernels and tables built by a first run);
- ``target_stops_the_run``: a target exploitability stops the run at the first check
  that reaches it (and is refused where the exploitability cannot be measured).

Solvers that solve in one step (the LP) keep only the checkpoint round trip.

Example:
    >>> from pokerlab.games import kuhn
    >>> from pokerlab.solvers import CFRPlus
    >>> checks = solver_checks(lambda: CFRPlus(kuhn()), seconds=0.3)
    >>> resume = next(c for c in checks if c.name == "resume_equals_uninterrupted")
    >>> resume()  # raises AssertionError where the promise breaks

    (``check_solver`` runs them all.)
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.errors import PokerlabError
from pokerlab.solvers.run_loop import Progress, RunLoop

Factory = Callable[[], RunLoop]
"""Builds a fresh solver (the same seed every time)."""
Save = Callable[[RunLoop, Path], object]
"""Writes a solver's checkpoint to a path."""
Load = Callable[[Path], RunLoop]
"""Rebuilds a solver from a checkpoint."""
Snapshot = Callable[[RunLoop], list[np.ndarray]]
"""The arrays that two equal runs share (default: :func:`default_snapshot`)."""


@dataclass(frozen=True)
class SolverCheck:
    """One promise, ready to run.

    Attributes:
        name: the promise's short name (``resume_equals_uninterrupted``).
        check: runs it; raises AssertionError naming the broken promise.
    """

    name: str
    check: Callable[[], None]

    def __call__(self) -> None:
        """Run the check."""
        self.check()


def default_snapshot(loop: RunLoop) -> list[np.ndarray]:
    """What two equal runs share: the learned tables, or the average strategy.

    The range solver's strategy sums (through :meth:`average_arrays`), a blueprint's
    regret and strategy tables, else the average strategy's probabilities.
    """
    average_arrays = getattr(loop, "average_arrays", None)
    if callable(average_arrays):
        return [np.asarray(a) for a in average_arrays()]
    trainer = getattr(loop, "trainer", loop)
    if hasattr(trainer, "regrets") and hasattr(trainer, "strategy_sum"):
        return [np.asarray(trainer.regrets), np.asarray(trainer.strategy_sum)]
    strategy = loop.average_strategy()  # type: ignore[attr-defined]
    return [np.asarray(strategy.probs)]


def _default_save(loop: RunLoop, path: Path) -> object:
    save = getattr(loop, "save_checkpoint", None)
    if save is None:
        raise AssertionError(f"{type(loop).__name__} has no save_checkpoint; pass save=")
    return save(path)


def _default_load(kind: type) -> Load:
    def load(path: Path) -> RunLoop:
        loader = getattr(kind, "load_checkpoint", None)
        if loader is None:
            raise AssertionError(f"{kind.__name__} has no load_checkpoint; pass load=")
        loaded: RunLoop = loader(path)
        return loaded

    return load


class _Polls:
    """An interrupt that says stop at its ``after``-th poll."""

    def __init__(self, after: int) -> None:
        self.after = after
        self.polls = 0

    def __call__(self) -> bool:
        self.polls += 1
        return self.polls > self.after


def solver_checks(
    factory: Factory,
    *,
    iterations: int = 20,
    check_every: int | None = None,
    seconds: float = 1.0,
    deterministic: bool = True,
    save: Save | None = None,
    load: Load | None = None,
    snapshot: Snapshot = default_snapshot,
) -> Iterator[SolverCheck]:
    """Yield the checks of the solver ``factory`` builds (see the module docstring).

    Args:
        factory: builds a fresh solver, seeded the same way every time.
        iterations: ``n``, the iterations of a short run (resumes run ``2n`` in all).
        check_every: iterations between checks (default ``n // 4``).
        seconds: the budget of the time check, in seconds.
        deterministic: whether two equal runs give equal arrays bit for bit (False for
            multi-threaded kernels: their runs are compared by iterations only).
        save: writes a checkpoint (default: the solver's ``save_checkpoint``).
        load: rebuilds a solver from one (default: its class's ``load_checkpoint``).
        snapshot: the arrays compared between runs.
    """
    every = check_every or max(1, iterations // 4)
    probe = factory()
    saver = save or _default_save
    loader = load or _default_load(type(probe))
    name = type(probe).__name__

    def same(a: RunLoop, b: RunLoop, promise: str) -> None:
        if a.iterations != b.iterations:
            raise AssertionError(f"{name}: {promise}: {a.iterations} iterations, not "
                                 f"{b.iterations}")
        if not deterministic:
            return
        for left, right in zip(snapshot(a), snapshot(b), strict=True):
            if left.shape != right.shape or not np.array_equal(left, right):
                raise AssertionError(f"{name}: {promise}: the arrays differ")

    def round_trip(loop: RunLoop, folder: str) -> RunLoop:
        path = Path(folder) / "checkpoint.npz"
        saver(loop, path)
        return loader(path)

    if not getattr(probe, "iterative", True):

        def one_step_checkpoint() -> None:
            solved = factory().run()
            with tempfile.TemporaryDirectory() as folder:
                same(round_trip(solved, folder), solved, "a checkpoint of the solution")

        yield SolverCheck("checkpoint_round_trip", one_step_checkpoint)
        return

    def progress_is_monotone() -> None:
        reports: list[Progress] = []
        loop = factory().run(iterations, check_every=every, callback=reports.append)
        steps = [r.iteration for r in reports]
        if not reports or steps != sorted(set(steps)) or steps[-1] != iterations:
            raise AssertionError(f"{name}: progress is not monotone up to {iterations}: "
                                 f"iterations {steps}")
        clocks = [r.seconds for r in reports]
        if clocks != sorted(clocks):
            raise AssertionError(f"{name}: the solving seconds fell: {clocks}")
        if [row.iteration for row in loop.history] != steps:
            raise AssertionError(f"{name}: the history does not match the reports")
        if any(r.target_iterations != iterations for r in reports):
            raise AssertionError(f"{name}: a report does not say where the run ends")

    def split_runs_equal_one_run() -> None:
        whole = factory().run(2 * iterations, check_every=every)
        split = factory().run(iterations, check_every=every).run(iterations, check_every=every)
        same(split, whole, "two runs of n do not end where one run of 2n ends")

    def resume_equals_uninterrupted() -> None:
        whole = factory().run(2 * iterations, check_every=every)
        part = factory().run(iterations, check_every=every)
        with tempfile.TemporaryDirectory() as folder:
            resumed = round_trip(part, folder)
        if resumed.iterations != iterations:
            raise AssertionError(f"{name}: a checkpoint after {iterations} iterations "
                                 f"resumed at {resumed.iterations}")
        resumed.run(iterations, check_every=every)
        same(resumed, whole, "a resumed run does not end where the uninterrupted one ends")

    def interrupt_leaves_a_checkpoint() -> None:
        whole = factory().run(2 * iterations, check_every=every)
        loop = factory()
        loop.run(2 * iterations, check_every=every, interrupt=_Polls(1))
        if not loop.interrupted or loop.iterations >= 2 * iterations:
            raise AssertionError(f"{name}: an interrupt did not stop the run "
                                 f"({loop.iterations} iterations of {2 * iterations})")
        with tempfile.TemporaryDirectory() as folder:
            resumed = round_trip(loop, folder)
        resumed.run(2 * iterations - resumed.iterations, check_every=every)
        same(resumed, whole, "the interrupted run's checkpoint does not resume to the "
             "uninterrupted run's end")

    def seconds_budget_holds() -> None:
        loop = factory().run(iterations, check_every=every)  # warm: kernels, tables
        slowest = _slowest_calls(loop, "_advance", "_check")
        before = loop.wall_seconds
        began = time.perf_counter()
        loop.run(seconds=seconds, check_every=every)
        took = time.perf_counter() - began
        counted = loop.wall_seconds - before
        # The loop stops at the first slice boundary its clock puts past the budget (or
        # half a slice short of it): off by at most one slice and one check, however slow
        # this machine is right now. A stall between slices would show as a miss.
        leeway = 0.1 * seconds + slowest["_advance"] + slowest["_check"]
        if abs(counted - seconds) > leeway:
            raise AssertionError(f"{name}: run(seconds={seconds}) counted {counted:.3f} s "
                                 f"of wall time, more than one slice "
                                 f"({slowest['_advance']:.3f} s) and one check "
                                 f"({slowest['_check']:.3f} s) off the budget")
        if abs(counted - took) > 0.1 * seconds + loop.compile_seconds:
            raise AssertionError(f"{name}: wall_seconds grew by {counted:.3f} s in a run of "
                                 f"{took:.3f} s")

    def target_stops_the_run() -> None:
        loop = factory()
        if not loop.can_measure:
            try:
                loop.run(iterations, target_exploitability=1.0)
            except PokerlabError:
                return
            raise AssertionError(f"{name}: a target was accepted where the exploitability "
                                 "cannot be measured")
        measured = factory().run(2 * iterations, check_every=every, measure=True)
        values = [(row.iteration, row.exploitability) for row in measured.history]
        target = values[len(values) // 2][1]
        assert target is not None
        stopped = factory().run(2 * iterations, target_exploitability=target,
                                check_every=every)
        last = stopped.history[-1].exploitability
        if last is None or last > target:
            raise AssertionError(f"{name}: a run with target {target} ended at "
                                 f"{last} after {stopped.iterations} iterations")
        if deterministic:
            first = next(i for i, value in values if value is not None and value <= target)
            if stopped.iterations != first:
                raise AssertionError(f"{name}: a target of {target} stopped the run at "
                                     f"{stopped.iterations} iterations, not at the first "
                                     f"check that reached it ({first})")

    yield SolverCheck("progress_is_monotone", progress_is_monotone)
    yield SolverCheck("split_runs_equal_one_run", split_runs_equal_one_run)
    yield SolverCheck("resume_equals_uninterrupted", resume_equals_uninterrupted)
    yield SolverCheck("interrupt_leaves_a_checkpoint", interrupt_leaves_a_checkpoint)
    yield SolverCheck("seconds_budget_holds", seconds_budget_holds)
    yield SolverCheck("target_stops_the_run", target_stops_the_run)


def check_solver(factory: Factory, **options: Any) -> list[str]:
    """Run every check of :func:`solver_checks`; return the names of those that passed.

    Args:
        factory: builds a fresh solver, seeded the same way every time.
        **options: :func:`solver_checks`' options.

    Raises:
        AssertionError: listing every promise that broke.
    """
    passed: list[str] = []
    broken: list[str] = []
    for check in solver_checks(factory, **options):
        try:
            check()
        except AssertionError as error:
            broken.append(f"{check.name}: {error}")
        else:
            passed.append(check.name)
    if broken:
        raise AssertionError("broken promises:\n" + "\n".join(broken))
    return passed


__all__ = [
    "Factory",
    "Load",
    "Save",
    "Snapshot",
    "SolverCheck",
    "check_solver",
    "default_snapshot",
    "solver_checks",
]


def _slowest_calls(loop: RunLoop, *methods: str) -> dict[str, float]:
    """Time each call of ``loop``'s ``methods`` from now on; the dict keeps the slowest.

    The seconds-budget check measures its leeway (one slice, one check) on the run it
    checks, so that a loaded machine does not fail a loop that keeps its promise.
    """
    slowest = dict.fromkeys(methods, 0.0)
    for method in methods:
        bound = getattr(loop, method)

        def timed(*args: Any, _bound: Any = bound, _name: str = method, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return _bound(*args, **kwargs)
            finally:
                slowest[_name] = max(slowest[_name], time.perf_counter() - began)

        setattr(loop, method, timed)
    return slowest
