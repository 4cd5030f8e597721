"""Blueprint training on a Ray cluster: workers sample, the driver learns (bounded staleness).

Ray is optional (``pip install 'pokerlab[ray]'``) and imported only inside the functions
that use it (:mod:`pokerlab.blueprint.ray_session`, re-exported here), so importing this
module costs nothing. The rounds run on the one run loop (:class:`RoundTrainer`, a
:class:`~pokerlab.solvers.run_loop.RunLoop`): budgets, progress reports, interrupts
between rounds, checkpoints.

The design (docs/scaling.md gives the reasons and the measurements), in rounds:

1. The driver holds the trainer: its regrets and strategy sums, ``[rows, max_actions]``,
   and ``t``, the iterations of the trainer's own clock (the linear weights).
2. Each round it puts one snapshot of the regrets in Ray's object store, and each of ``W``
   workers runs the same ``B`` iterations ``t+1 .. t+B`` (the same weights) with a seed of
   its own, on a private copy of the snapshot that its own updates change as it goes.
3. Each worker returns its regret and strategy-sum deltas, sparse (the rows its samples
   touched); the driver adds their mean, in worker order, and ``t += B``: each round is
   ``B`` iterations whose every update is the mean of ``W`` independent samples, and
   costs ``W*B`` sampled iterations (the budget counts those).

Summing the deltas instead (each worker a different stretch of iterations, the
asynchronous-SGD analogue) was measured too: on Leduc it left the same budget 3 to 9
times more exploitable (docs/scaling.md), because every worker reacts to the same
regrets of the snapshot and their reactions add up; the mean does not overshoot.

What is exact: with ``W = 1`` a round is ``B`` ordinary iterations of the trainer (up to
the rounding of one subtraction); the result depends only on the seed, ``W`` and ``B``,
never on timing (the deltas are applied in worker order), so a Ray run equals its
in-process emulation (:func:`train_blueprint` with ``backend="local"``) bit for bit, a
worker that dies is replaced and its share rerun with the same seed, and a checkpoint
resumes on either backend. Checkpoints are ordinary blueprint files (``.bp``,
:mod:`pokerlab.blueprint.store`): ``pokerlab blueprint train --resume`` continues one on
this machine, and a ``.bp`` trained here resumes on Ray; the header's ``rounds`` field
carries what rounds add (sampled iterations, clock, rounds done).
What is approximate with ``W > 1``: a worker's strategy inside a round follows its own
samples only (staleness of one round, ``B`` iterations).

:func:`trainer_handle` is the one function that touches a trainer's attributes; the rest
sees a trainer only through the :class:`TrainerHandle` it returns (and the driver's
``average_strategy()``).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.blueprint.ray_session import (
    check_workers,
    cluster_workers,
    ray_session,
    require_ray,
)
from pokerlab.blueprint.store import (
    CardsSpec,
    check_game,
    load_blueprint,
    read_header,
    save_blueprint,
)
from pokerlab.errors import FileFormatError, PokerlabError
from pokerlab.games.base import Game
from pokerlab.solvers.run_console import Budget
from pokerlab.solvers.run_loop import Callback, Interrupt, RunLoop

TrainerFactory = Callable[[Game, int], Any]
"""Builds a trainer for a game and a seed (default: :class:`BlueprintTrainer`)."""


# -- the one adapter to a trainer --------------------------------------------------------------


@dataclass(frozen=True)
class TrainerHandle:
    """What this module uses of a trainer: its two tables, in place, and its sampler.

    Attributes:
        regrets: the trainer's cumulative regrets, ``[rows, max_actions]``, its own array.
        strategy_sum: the trainer's weighted strategy sums, same shape, its own array.
        sample: ``sample(first_iteration, seed, iterations)`` runs that many sampled
            iterations in place on the two tables, iteration ``first_iteration + i + 1``
            weighted as such, every draw from ``seed``.
        set_iterations: records the iterations done (what ``average_strategy`` reports).
        set_seconds: ``set_seconds(seconds, wall_seconds)`` records the run's solving and
            wall-clock time (the wall time is what a ``--seconds`` budget counts).
        seconds: ``(seconds, wall_seconds)`` so far.
        save: ``save(path, rounds)`` writes the trainer as a ``.bp`` blueprint file whose
            header also holds ``rounds`` (a dict, or None for a plain file).
        load: ``load(path)`` reads a ``.bp`` file's tables and clock into the trainer;
            returns the file's header.
    """

    regrets: NDArray[np.float64]
    strategy_sum: NDArray[np.float64]
    sample: Callable[[int, int, int], None]
    set_iterations: Callable[[int], None]
    set_seconds: Callable[[float, float], None]
    seconds: Callable[[], tuple[float, float]]
    save: Callable[[Path, dict[str, int] | None], None]
    load: Callable[[Path], dict[str, Any]]


def trainer_handle(trainer: Any, cards: CardsSpec | None = None,
                   bet_menu: str | None = None) -> TrainerHandle:
    """The one adapter: how :class:`BlueprintTrainer`'s public arrays and run are used.

    Re-point this function (and :func:`default_trainer`) when another trainer is to train
    on Ray; nothing else here reads a trainer's attributes. The trainer's clock is set to
    the round's first iteration, so its linear weights and its pruning (which starts after
    ``prune_after`` iterations of that clock) follow the driver's rounds. A trainer built
    with ``threads > 1`` samples nondeterministically: rounds then still work, but a rerun
    share (a dead worker's) and a Ray run no longer equal the local emulation bit for bit.
    ``cards`` and ``bet_menu`` are what the ``.bp`` header records to rebuild the trainer
    (default: lossless cards, the game's own betting).
    """
    cards_spec: CardsSpec = {"kind": "lossless"} if cards is None else cards

    def sample(first_iteration: int, seed: int, iterations: int) -> None:
        trainer.iterations = first_iteration
        trainer.rng = np.random.default_rng(seed)
        trainer._advance(iterations)  # its iterations alone, outside any run loop

    def set_iterations(iterations: int) -> None:
        trainer.iterations = iterations

    def set_seconds(seconds: float, wall_seconds: float) -> None:
        trainer._seconds = seconds
        trainer._wall_seconds = wall_seconds

    def seconds() -> tuple[float, float]:
        return float(trainer.seconds), float(trainer.wall_seconds)

    def save(path: Path, rounds: dict[str, int] | None) -> None:
        save_blueprint(trainer, path, cards=cards_spec, bet_menu=bet_menu, rounds=rounds)

    def load(path: Path) -> dict[str, Any]:
        stored, header = load_blueprint(path, game=trainer.game, cards=trainer.cards)
        for name in ("regrets", "strategy_sum"):
            mine, theirs = getattr(trainer, name), getattr(stored, name)
            if mine.shape != theirs.shape or mine.dtype != theirs.dtype:
                raise FileFormatError(
                    f"{str(path)!r}: its {name} are {theirs.dtype} {theirs.shape}, the "
                    f"trainer's {mine.dtype} {mine.shape}: a blueprint of another "
                    "abstraction, bet menu or storage"
                )
            np.copyto(mine, theirs)
        trainer.restore_clock(stored.clock_header(), repr(str(path)))
        return header

    return TrainerHandle(trainer.regrets, trainer.strategy_sum, sample, set_iterations,
                         set_seconds, seconds, save, load)


def default_trainer(game: Game, seed: int) -> Any:
    """The trainer the driver and the workers build when none is given (one thread)."""
    return BlueprintTrainer(game, seed=seed)


@dataclass(frozen=True)
class BlueprintFactory:
    """Builds the trainer ``pokerlab blueprint train`` builds, on the driver and each worker.

    A plain picklable value (Ray ships it to the workers): each process rebuilds the card
    abstraction from ``cards`` (clustered tables come from the on-disk cache when present)
    and the betting rules from ``bet_menu``; one kernel thread, so rounds are
    deterministic.

    Attributes:
        cards: the card abstraction's spec (:func:`pokerlab.blueprint.cards.cards_from_spec`).
        bet_menu: the no-limit bet menu (None: the game's own betting).
        prune_after: iterations before negative-regret pruning starts.
        prune_threshold: the pruning threshold (0: off).
    """

    cards: CardsSpec
    bet_menu: str | None = None
    prune_after: int = 0
    prune_threshold: float = 0.0

    def __call__(self, game: Game, seed: int) -> BlueprintTrainer:
        """A fresh single-threaded trainer of ``game`` seeded ``seed``."""
        from pokerlab.blueprint.cards import cards_from_spec
        from pokerlab.blueprint.nolimit import rules_for

        return BlueprintTrainer(game, cards_from_spec(game, self.cards),
                                rules_for(game, self.bet_menu), seed=seed,
                                prune_after=self.prune_after,
                                prune_threshold=self.prune_threshold, threads=1)


# -- rounds ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class WorkerDelta:
    """A worker's answer for one round: its changes to the touched rows of both tables.

    Attributes:
        rows: the rows its samples touched (int64, ascending).
        regrets: the regret changes of those rows, ``[len(rows), max_actions]``.
        strategy_sum: the strategy-sum changes of those rows.
        iterations: iterations it ran.
        seconds: how long they took on the worker.
    """

    rows: NDArray[np.int64]
    regrets: NDArray[np.float64]
    strategy_sum: NDArray[np.float64]
    iterations: int
    seconds: float

    @property
    def nbytes(self) -> int:
        """Bytes of the arrays it carries (what crosses the network)."""
        return int(self.rows.nbytes + self.regrets.nbytes + self.strategy_sum.nbytes)


class SampleWorker:
    """Runs a worker's share of a round on a private copy of the snapshot (local or on Ray)."""

    def __init__(self, game: Game, trainer_factory: TrainerFactory | None = None) -> None:
        self.handle = trainer_handle((trainer_factory or default_trainer)(game, 0))

    def pid(self) -> int:
        """The worker's process id (what a test kills)."""
        return os.getpid()

    def sample(
        self, snapshot: NDArray[np.float64], first_iteration: int, seed: int, iterations: int
    ) -> WorkerDelta:
        """Run ``iterations`` iterations from ``snapshot``; return what they changed."""
        began = time.perf_counter()
        handle = self.handle
        np.copyto(handle.regrets, snapshot)
        handle.strategy_sum.fill(0.0)
        handle.sample(first_iteration, seed, iterations)
        np.subtract(handle.regrets, snapshot, out=handle.regrets)
        touched = np.flatnonzero(
            np.any(handle.regrets != 0.0, axis=1) | np.any(handle.strategy_sum != 0.0, axis=1)
        ).astype(np.int64)
        return WorkerDelta(touched, handle.regrets[touched], handle.strategy_sum[touched],
                           iterations, time.perf_counter() - began)


def round_seed(seed: int, round_index: int, worker: int) -> int:
    """The seed of worker ``worker``'s share of round ``round_index`` of a run seeded ``seed``."""
    words = np.random.SeedSequence([seed, round_index, worker, 0xB1E]).generate_state(1)
    return int(words[0])


def round_shares(done: int, total: int, workers: int, batch: int) -> tuple[int, int]:
    """``(workers, iterations each)`` of the round that starts after ``done`` sampled iterations.

    Every round but the last is ``workers * batch``; the last is cut so that the sampled
    iterations reach ``total`` exactly (fewer workers when fewer than ``workers`` remain).
    """
    remaining = total - done
    if remaining <= 0:
        return 0, 0
    if remaining >= workers:
        return workers, min(batch, remaining // workers)
    return remaining, 1


# -- the run ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrainingResult:
    """A finished (or resumed and finished) training run.

    Attributes:
        trainer: the driver's trainer, holding the learned tables (``average_strategy()``).
        iterations: sampled iterations done in all (resumed ones included).
        clock: the trainer's iterations (linear weights): ``batch`` per round.
        rounds: rounds done in all.
        workers: workers of this call.
        batch: iterations per worker per round.
        seconds: wall time of this call.
        iterations_per_second: iterations of this call per wall second.
        worker_seconds: time the workers spent sampling in this call (summed).
        message_bytes: mean bytes of a worker's answer (sparse deltas).
        snapshot_bytes: bytes of the regret snapshot sent each round.
        workers_replaced: Ray workers that died and were replaced (their shares redone).
    """

    trainer: Any
    iterations: int
    clock: int
    rounds: int
    workers: int
    batch: int
    seconds: float
    iterations_per_second: float
    worker_seconds: float
    message_bytes: float
    snapshot_bytes: int
    workers_replaced: int


class _LocalPool:
    """The in-process emulation of ``W`` workers: one worker object runs each share in turn."""

    def __init__(self, game: Game, trainer_factory: TrainerFactory | None) -> None:
        self.worker = SampleWorker(game, trainer_factory)
        self.replaced = 0
        self.pids: tuple[int, ...] = ()

    def run_round(self, snapshot: NDArray[np.float64], jobs: Sequence[tuple[int, int, int]]
                  ) -> list[WorkerDelta]:
        return [self.worker.sample(snapshot, first, seed, count) for first, seed, count in jobs]

    def close(self) -> None:
        return None


class _RayPool:
    """``W`` Ray actors, one CPU each; a dead one is replaced and its share run again."""

    def __init__(self, ray: ModuleType, game: Game, workers: int,
                 trainer_factory: TrainerFactory | None) -> None:
        self.ray = ray
        self.game = game
        self.trainer_factory = trainer_factory
        self.remote_class = ray.remote(num_cpus=1, max_restarts=0)(SampleWorker)
        self.actors = [self._start() for _ in range(workers)]
        self.pids = tuple(int(p) for p in ray.get([a.pid.remote() for a in self.actors]))
        self.replaced = 0

    def _start(self) -> Any:
        return self.remote_class.remote(self.game, self.trainer_factory)

    def run_round(self, snapshot: NDArray[np.float64], jobs: Sequence[tuple[int, int, int]]
                  ) -> list[WorkerDelta]:
        ray = self.ray
        shared = ray.put(snapshot)  # once per round, read by every worker
        answers: list[WorkerDelta | None] = [None] * len(jobs)
        failures = 0
        pending = {self.actors[k].sample.remote(shared, *jobs[k]): k
                   for k in range(len(jobs))}
        while pending:
            [ready], _ = ray.wait(list(pending), num_returns=1)
            k = pending.pop(ready)
            try:
                answers[k] = ray.get(ready)
            except ray.exceptions.RayTaskError as exc:
                cause = getattr(exc, "cause", None)
                raise (cause if isinstance(cause, Exception) else PokerlabError(
                    f"a Ray worker failed while sampling: {exc}")) from None
            except (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError,
                    ray.exceptions.ObjectLostError) as exc:
                failures += 1
                if failures > len(jobs) + 2:
                    raise PokerlabError(
                        f"Ray workers keep dying ({type(exc).__name__}); the checkpoint holds "
                        "every finished round: resume from it"
                    ) from None
                self.actors[k] = self._start()
                self.pids = tuple(int(p) for p in ray.get([a.pid.remote()
                                                           for a in self.actors]))
                self.replaced += 1
                pending[self.actors[k].sample.remote(shared, *jobs[k])] = k
        return [a for a in answers if a is not None]

    def close(self) -> None:
        for actor in self.actors:
            self.ray.kill(actor)


@dataclass
class RoundCounters:
    """Where a run stands: saved in checkpoints, resumed on either backend.

    Attributes:
        iterations: sampled iterations done in all (the budget's unit).
        clock: the trainer's iterations (the linear weights): ``batch`` per round.
        rounds: rounds done (the seeds of the next round depend on it).
    """

    iterations: int = 0
    clock: int = 0
    rounds: int = 0


class RoundTrainer(RunLoop):
    """Blueprint training by rounds of sampled iterations, on the one run loop.

    Its :attr:`iterations` are sampled iterations (``W * B`` a round: the budget's unit);
    its ``run`` (:class:`~pokerlab.solvers.run_loop.RunLoop`) takes the usual budgets,
    callback (a :class:`~pokerlab.solvers.run_loop.Progress` with the workers' process
    ids) and interrupt, polled between rounds. Rounds are never cut but at the end of a
    run's ``iterations`` budget (:func:`round_shares`), so an interrupted run, resumed
    from its checkpoint, makes the rounds an uninterrupted one makes. Built by
    :func:`round_training`, which owns the workers. A ``seconds`` budget stops after the
    round that reaches it, so a run stopped by time, resumed with the same budget, does
    nothing more.
    """

    measures_by_default = False
    finishes_past_seconds = True

    def __init__(self, handle: TrainerHandle, trainer: Any, pool: _LocalPool | _RayPool,
                 counters: RoundCounters, *, seed: int, workers: int, batch: int,
                 checkpoint: str | Path | None) -> None:
        super().__init__()
        self.game = trainer.game
        self.handle = handle
        self.trainer = trainer
        self.pool = pool
        self.counters = counters
        self.seed = seed
        self.workers = workers
        self.batch = batch
        self.checkpoint = checkpoint
        self.iterations = counters.iterations
        self._seconds, self._wall_seconds = handle.seconds()
        self._run_total = counters.iterations
        self._consistent = True  # False while a round's deltas are being added
        self.worker_seconds = 0.0
        self.message_bytes = 0
        self.messages = 0

    # -- the run loop -------------------------------------------------------------------
    def run(self, iterations: int | None = None, **options: Any) -> RoundTrainer:
        """The run loop's ``run`` (every option of it), rounds sized by ``iterations``."""
        self._run_total = 2**62 if iterations is None else self.iterations + iterations
        super().run(iterations, **options)
        return self

    def _quantum(self) -> int:
        return self.workers * self.batch

    def _default_check_every(self, iterations: int | None) -> int | None:
        return self.workers * self.batch  # a check (cheap: no measurement) every round

    def _advance(self, count: int) -> None:
        """Run whole rounds until ``count`` more sampled iterations (or the run's end)."""
        counters, handle = self.counters, self.handle
        target = self.iterations + count
        while counters.iterations < target:
            n, each = round_shares(counters.iterations, self._run_total, self.workers,
                                   self.batch)
            if n == 0:
                break
            jobs = [(counters.clock, round_seed(self.seed, counters.rounds, k), each)
                    for k in range(n)]
            deltas = self.pool.run_round(handle.regrets.copy(), jobs)
            self._consistent = False
            for delta in deltas:  # in worker order: the result never depends on timing
                handle.regrets[delta.rows] += delta.regrets / n
                handle.strategy_sum[delta.rows] += delta.strategy_sum / n
                self.worker_seconds += delta.seconds
                self.message_bytes += delta.nbytes
                self.messages += 1
            counters.iterations += n * each
            counters.clock += each
            counters.rounds += 1
            handle.set_iterations(counters.clock)
            self.iterations = counters.iterations
            self._consistent = True

    @property
    def can_measure(self) -> bool:
        """Whether the driver's trainer can measure its exploitability."""
        return bool(getattr(self.trainer, "can_measure", False))

    def _measure(self) -> float | None:
        return self.trainer._measure() if self.can_measure else None

    def infosets_touched(self) -> int | None:
        """Rows of the driver's tables."""
        return int(self.handle.regrets.shape[0])

    def memory_bytes(self) -> int | None:
        """Bytes of the driver's two tables."""
        return int(self.handle.regrets.nbytes + self.handle.strategy_sum.nbytes)

    def _progress_fields(self) -> dict[str, Any]:
        return {"worker_pids": tuple(self.pool.pids)}

    # -- files and results --------------------------------------------------------------
    def save_checkpoint(self, path: str | Path | None = None) -> Path | None:
        """Write the driver's trainer and the round counters (to ``path`` or the run's file).

        Does nothing (returns None) while a round's deltas are half added (a signal
        raised mid-round), or when no file is named.
        """
        target = path if path is not None else self.checkpoint
        if target is None or not self._consistent:
            return None
        self.handle.set_seconds(self._seconds, self._wall_seconds)
        return save_checkpoint(target, self.handle, self.counters)

    def result(self, *, began: float, first_done: int) -> TrainingResult:
        """The :class:`TrainingResult` of the run begun at ``began`` from ``first_done``."""
        seconds = time.perf_counter() - began
        done = self.counters.iterations - first_done
        return TrainingResult(
            trainer=self.trainer, iterations=self.counters.iterations,
            clock=self.counters.clock, rounds=self.counters.rounds, workers=self.workers,
            batch=self.batch, seconds=seconds,
            iterations_per_second=done / seconds if seconds > 0 else 0.0,
            worker_seconds=self.worker_seconds,
            message_bytes=self.message_bytes / self.messages if self.messages else 0.0,
            snapshot_bytes=int(self.handle.regrets.nbytes), workers_replaced=self.pool.replaced,
        )


@contextlib.contextmanager
def round_training(
    game: Game,
    *,
    workers: int | None = None,
    batch: int = 500,
    seed: int = 0,
    backend: str = "ray",
    address: str | None = None,
    checkpoint: str | Path | None = None,
    resume: bool = False,
    trainer_factory: TrainerFactory | None = None,
    cards: CardsSpec | None = None,
    bet_menu: str | None = None,
) -> Iterator[RoundTrainer]:
    """A :class:`RoundTrainer` with its workers (started here, stopped on exit).

    The arguments are :func:`train_blueprint`'s (which runs one to a budget); the CLI
    runs one with the console runner (:func:`pokerlab.solvers.run_console.run_to_budget`).

    Raises:
        PokerlabError: bad parameters, Ray missing or unreachable, a checkpoint of another
            game or seed.
    """
    if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
        raise PokerlabError(f"batch must be an integer >= 1; got {batch!r}")
    if backend not in ("ray", "local"):
        raise PokerlabError(f"backend must be 'ray' or 'local'; got {backend!r}")
    if backend == "local" and address is not None:
        raise PokerlabError("an address goes with backend='ray'; drop it to train here")
    if resume and checkpoint is None:
        raise PokerlabError("resume needs the checkpoint file to resume from")
    trainer = (trainer_factory or default_trainer)(game, seed)
    handle = trainer_handle(trainer, cards, bet_menu)
    counters = RoundCounters()
    if resume and checkpoint is not None and Path(checkpoint).exists():
        counters = load_checkpoint(checkpoint, game, handle, seed=seed)
    with contextlib.ExitStack() as stack:
        pool: _LocalPool | _RayPool
        if backend == "ray":
            ray = stack.enter_context(ray_session(address))
            count = cluster_workers(ray, workers)
            pool = _RayPool(ray, game, count, trainer_factory)
        else:
            count = 1 if workers is None else check_workers(workers)
            pool = _LocalPool(game, trainer_factory)
        stack.callback(pool.close)
        yield RoundTrainer(handle, trainer, pool, counters, seed=seed, workers=count,
                           batch=batch, checkpoint=checkpoint)


def train_blueprint(
    game: Game,
    *,
    iterations: int,
    workers: int | None = None,
    batch: int = 500,
    seed: int = 0,
    backend: str = "ray",
    address: str | None = None,
    checkpoint: str | Path | None = None,
    resume: bool = False,
    checkpoint_seconds: float = 60.0,
    trainer_factory: TrainerFactory | None = None,
    progress: Callback | None = None,
    seconds: float | None = None,
    cards: CardsSpec | None = None,
    bet_menu: str | None = None,
    interrupt: Interrupt | None = None,
) -> TrainingResult:
    """Train a blueprint by rounds of sampled iterations on ``workers`` workers.

    Each round every worker runs the same ``batch`` iterations against one snapshot of
    the regrets, with a seed of its own, and the driver adds the mean of their deltas in
    worker order (module docstring): deterministic for a given ``seed``, ``workers`` and
    ``batch``, whichever backend runs it and whichever worker dies on the way (its share
    is rerun, same seed). A :class:`RoundTrainer` run to the budget.

    Args:
        game: the game (the trainer's: Leduc for the default trainer).
        iterations: sampled iterations to reach in all (resumed ones count): the budget
            that 1 and ``W`` workers spend alike.
        workers: workers (Ray actors, or shares run one after the other for
            ``backend="local"``); default: the cluster's CPUs on Ray, 1 locally.
        batch: iterations per worker per round (how stale a round can be).
        seed: the run's seed.
        backend: ``"ray"`` (Ray workers) or ``"local"`` (this process, the same rounds).
        address: with ``"ray"``: None (Ray on this machine), ``"auto"`` or ``"HOST:PORT"``.
        checkpoint: the ``.bp`` blueprint file written every ``checkpoint_seconds``, at the
            end and on an interrupt; it resumes on either backend and with ``pokerlab
            blueprint train --resume``.
        resume: start from ``checkpoint`` when it exists (same game and seed; with the
            same ``workers`` and ``batch`` the result equals an uninterrupted run).
        checkpoint_seconds: seconds between checkpoints.
        trainer_factory: builds the trainer (default :func:`default_trainer`; the CLI
            passes a :class:`BlueprintFactory`).
        progress: called with a :class:`~pokerlab.solvers.run_loop.Progress` after each
            round; an exception it raises (KeyboardInterrupt) stops the run after a
            checkpoint.
        seconds: also stop once the run's wall-clock time (the ``.bp`` file's
            ``wall_seconds``, resumed time included) reaches this.
        cards: the card abstraction's spec the checkpoint records (default lossless).
        bet_menu: the bet menu the checkpoint records (None: the game's own betting).
        interrupt: polled between rounds; True stops the run there (after a checkpoint).

    Raises:
        PokerlabError: bad parameters, Ray missing or unreachable, a checkpoint of another
            game or seed, or workers that keep dying.

    Example:
        Two workers emulated in this process (``backend="ray"`` gives the same arrays):

        >>> from pokerlab.games import leduc
        >>> result = train_blueprint(leduc(), iterations=1000, workers=2, batch=250,
        ...                          backend="local")
        >>> result.iterations, result.rounds, result.clock   # 2 rounds of 2 x 250
        (1000, 2, 500)
    """
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 0:
        raise PokerlabError(f"iterations must be an integer >= 0; got {iterations!r}")
    if seconds is not None and (isinstance(seconds, bool) or seconds < 0):
        raise PokerlabError(f"seconds must be a number >= 0; got {seconds!r}")
    with round_training(game, workers=workers, batch=batch, seed=seed, backend=backend,
                        address=address, checkpoint=checkpoint, resume=resume,
                        trainer_factory=trainer_factory, cards=cards,
                        bet_menu=bet_menu) as rounds:
        began, first_done = time.perf_counter(), rounds.iterations
        last_saved = began

        def poll() -> bool:
            nonlocal last_saved
            if checkpoint is not None and time.perf_counter() - last_saved >= (
                checkpoint_seconds
            ):
                rounds.save_checkpoint()
                last_saved = time.perf_counter()
            return interrupt is not None and interrupt()

        try:
            if iterations > 0 and (seconds is None or seconds > 0):
                budget = Budget(iterations=iterations, seconds=seconds)
                left, seconds_left = budget.left(rounds)
                if not budget.spent(rounds) and left is not None and left > 0:
                    rounds.run(left, seconds=seconds_left, callback=progress, interrupt=poll)
        except KeyboardInterrupt:
            rounds.save_checkpoint()
            raise
        rounds.save_checkpoint()
        return rounds.result(began=began, first_done=first_done)


# -- checkpoints -----------------------------------------------------------------------------


def save_checkpoint(path: str | Path, handle: TrainerHandle, counters: RoundCounters) -> Path:
    """Write the driver's trainer to ``path`` as a ``.bp`` blueprint file, atomically.

    The header's ``iterations`` is the trainer's clock (what a local ``--resume`` goes on
    from); ``rounds`` adds the sampled iterations and the rounds done (what a resumed Ray
    run goes on from).
    """
    target = Path(path)
    handle.save(target, {"iterations": counters.iterations, "clock": counters.clock,
                         "rounds": counters.rounds})
    return target


def load_checkpoint(
    path: str | Path, game: Game, handle: TrainerHandle, *, seed: int
) -> RoundCounters:
    """Load a ``.bp`` blueprint file into the trainer's tables; return where the run stood.

    A file written by rounds resumes exactly where it stopped; a file trained on one
    machine (no ``rounds`` in its header) resumes with its iterations as both the budget
    spent and the clock, at round 0.

    Raises:
        FileFormatError: not a blueprint file, or tables of another shape.
        SpecError: a blueprint of another game.
        PokerlabError: a blueprint of another seed.
    """
    header = read_header(path)
    check_game(header, game, Path(path))
    if header.get("seed") != seed:
        raise PokerlabError(f"{str(path)!r} is a checkpoint of seed {header.get('seed')}, "
                            f"not {seed}; resume with that seed")
    header = handle.load(Path(path))
    done = int(header["iterations"])
    rounds = header.get("rounds") or {"iterations": done, "clock": done, "rounds": 0}
    try:
        counters = RoundCounters(int(rounds["iterations"]), int(rounds["clock"]),
                                 int(rounds["rounds"]))
    except (KeyError, TypeError, ValueError):
        raise FileFormatError(f"{str(path)!r}: its 'rounds' header field is damaged "
                              f"({rounds!r})") from None
    handle.set_iterations(counters.clock)
    return counters


__all__ = [
    "BlueprintFactory",
    "RoundCounters",
    "RoundTrainer",
    "TrainerHandle",
    "TrainingResult",
    "WorkerDelta",
    "check_workers",
    "cluster_workers",
    "load_checkpoint",
    "ray_session",
    "require_ray",
    "round_seed",
    "round_shares",
    "round_training",
    "save_checkpoint",
    "train_blueprint",
    "trainer_handle",
]
