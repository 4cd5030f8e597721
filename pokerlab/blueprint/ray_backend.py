"""Blueprint training on a Ray cluster: workers sample, the driver learns (bounded staleness).

Ray is optional (``pip install 'pokerlab[ray]'``) and imported only inside the functions
that use it, so importing this module costs nothing. :func:`require_ray` and
:func:`ray_session` are the one way pokerlab reaches Ray (the arena's backend uses them
too).

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
import socket
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.blueprint.store import (
    CardsSpec,
    check_game,
    load_blueprint,
    read_header,
    save_blueprint,
)
from pokerlab.errors import FileFormatError, PokerlabError
from pokerlab.games.base import Game

RAY_EXTRA_HINT = "pip install 'pokerlab[ray]'"

TrainerFactory = Callable[[Game, int], Any]
"""Builds a trainer for a game and a seed (default: :class:`BlueprintTrainer`)."""


# -- reaching Ray ----------------------------------------------------------------------------


def require_ray() -> ModuleType:
    """Import Ray, or say in one line which extra installs it.

    Raises:
        PokerlabError: if Ray is not installed.
    """
    try:
        import ray
    except ImportError:
        raise PokerlabError(
            f"--backend ray needs Ray, which is not installed: {RAY_EXTRA_HINT}"
        ) from None
    return ray


@contextlib.contextmanager
def ray_session(address: str | None = None) -> Iterator[ModuleType]:
    """Yield the ``ray`` module connected to a cluster; shut down only what it started.

    Args:
        address: ``None`` starts a Ray instance on this machine (its cores), unless the
            process is already connected (then that connection is used); ``"auto"``
            joins the cluster this machine belongs to (``ray start`` ran here);
            ``"HOST:PORT"`` the cluster whose head listens there (the GCS port, 6379 by
            default).

    Raises:
        PokerlabError: Ray is not installed, or the cluster cannot be reached.
    """
    ray = require_ray()
    if ray.is_initialized():
        yield ray
        return
    if address is not None and address != "auto":
        _check_reachable(address)
    try:
        if address is None:
            ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise PokerlabError(
            f"cannot reach a Ray cluster at --address {address!r} ({first}); start one with "
            "`ray start --head` (docs/scaling.md), or drop --address to use this machine"
        ) from None
    try:
        yield ray
    finally:
        ray.shutdown()


def _check_reachable(address: str) -> None:
    """Refuse at once a ``HOST:PORT`` nothing listens on (Ray itself retries for minutes).

    Raises:
        PokerlabError: if ``address`` is not ``HOST:PORT`` or no connection opens in 5 s.
    """
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise PokerlabError(f"--address must be auto or HOST:PORT; got {address!r}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as exc:
        raise PokerlabError(
            f"cannot reach a Ray cluster at --address {address!r} ({exc.strerror or exc}); "
            "start one with `ray start --head` (docs/scaling.md), or drop --address to use "
            "this machine"
        ) from None


def cluster_workers(ray: ModuleType, workers: int | None) -> int:
    """``workers``, checked against the cluster, or the cluster's CPU count when ``None``.

    Each worker holds one CPU; more workers than the cluster's CPUs would wait for a CPU
    forever (or until an autoscaler adds machines), so they are refused.

    Raises:
        PokerlabError: if ``workers`` is not an integer >= 1, or exceeds the cluster's CPUs.
    """
    cpus = int(ray.cluster_resources().get("CPU", 0))
    if workers is None:
        return max(1, cpus)
    check_workers(workers)
    if workers > cpus:
        raise PokerlabError(
            f"--workers {workers} needs {workers} CPUs; the Ray cluster has {cpus}: ask for "
            f"at most {cpus}, or add machines (`ray start --address=HEAD:PORT` on each)"
        )
    return workers


def check_workers(workers: int) -> int:
    """``workers``, checked.

    Raises:
        PokerlabError: if ``workers`` is not an integer >= 1.
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise PokerlabError(f"--workers must be an integer >= 1; got {workers!r}")
    return workers


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
        add_seconds: adds training time (what a ``--seconds`` budget counts).
        seconds: the training time so far.
        save: ``save(path, rounds)`` writes the trainer as a ``.bp`` blueprint file whose
            header also holds ``rounds`` (a dict, or None for a plain file).
        load: ``load(path)`` reads a ``.bp`` file's tables and clock into the trainer;
            returns the file's header.
    """

    regrets: NDArray[np.float64]
    strategy_sum: NDArray[np.float64]
    sample: Callable[[int, int, int], None]
    set_iterations: Callable[[int], None]
    add_seconds: Callable[[float], None]
    seconds: Callable[[], float]
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
        trainer.run(iterations)

    def set_iterations(iterations: int) -> None:
        trainer.iterations = iterations

    def add_seconds(seconds: float) -> None:
        trainer.seconds += seconds

    def seconds() -> float:
        return float(trainer.seconds)

    def save(path: Path, rounds: dict[str, int] | None) -> None:
        save_blueprint(trainer, path, cards=cards_spec, bet_menu=bet_menu, rounds=rounds)

    def load(path: Path) -> dict[str, Any]:
        stored, header = load_blueprint(path, game=trainer.game, cards=trainer.cards)
        for name in ("regrets", "strategy_sum"):
            mine, theirs = getattr(trainer, name), getattr(stored, name)
            if mine.shape != theirs.shape:
                raise FileFormatError(
                    f"{str(path)!r}: its {name} are {theirs.shape}, the trainer's "
                    f"{mine.shape}: a blueprint of another abstraction or bet menu"
                )
            np.copyto(mine, theirs)
        trainer.iterations = stored.iterations
        trainer.seconds = stored.seconds
        return header

    return TrainerHandle(trainer.regrets, trainer.strategy_sum, sample, set_iterations,
                         add_seconds, seconds, save, load)


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
class TrainingProgress:
    """What a progress callback receives after each round.

    Attributes:
        iterations: sampled iterations done.
        total: sampled iterations asked.
        rounds: rounds done.
        seconds: wall time of this call so far.
        worker_pids: process ids of the live workers (empty for the local backend).
    """

    iterations: int
    total: int
    rounds: int
    seconds: float
    worker_pids: tuple[int, ...]


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
    progress: Callable[[TrainingProgress], None] | None = None,
    seconds: float | None = None,
    cards: CardsSpec | None = None,
    bet_menu: str | None = None,
) -> TrainingResult:
    """Train a blueprint by rounds of sampled iterations on ``workers`` workers.

    What the CLI's ``pokerlab blueprint train --backend ray`` calls. Each round every
    worker runs the same ``batch`` iterations against one snapshot of the regrets, with a
    seed of its own, and the driver adds the mean of their deltas in worker order (module
    docstring): deterministic for a given ``seed``, ``workers`` and ``batch``, whichever
    backend runs it and whichever worker dies on the way (its share is rerun, same seed).

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
            end and on Ctrl-C; it resumes on either backend and with ``pokerlab blueprint
            train --resume``.
        resume: start from ``checkpoint`` when it exists (same game and seed; with the
            same ``workers`` and ``batch`` the result equals an uninterrupted run).
        checkpoint_seconds: seconds between checkpoints.
        trainer_factory: builds the trainer (default :func:`default_trainer`; the CLI
            passes a :class:`BlueprintFactory`).
        progress: called after each round; an exception it raises (KeyboardInterrupt)
            stops the run after a checkpoint.
        seconds: also stop after the round during which the trainer's training time
            (the ``.bp`` file's ``seconds``, resumed time included) reaches this.
        cards: the card abstraction's spec the checkpoint records (default lossless).
        bet_menu: the bet menu the checkpoint records (None: the game's own betting).

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
    for name, value, low in (("iterations", iterations, 0), ("batch", batch, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise PokerlabError(f"{name} must be an integer >= {low}; got {value!r}")
    if backend not in ("ray", "local"):
        raise PokerlabError(f"backend must be 'ray' or 'local'; got {backend!r}")
    if backend == "local" and address is not None:
        raise PokerlabError("an address goes with backend='ray'; drop it to train here")
    if resume and checkpoint is None:
        raise PokerlabError("resume needs the checkpoint file to resume from")
    if seconds is not None and (isinstance(seconds, bool) or seconds < 0):
        raise PokerlabError(f"seconds must be a number >= 0; got {seconds!r}")
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
        return _rounds(handle, trainer, pool, counters, seed=seed, total=iterations,
                       workers=count, batch=batch, checkpoint=checkpoint,
                       checkpoint_seconds=checkpoint_seconds, progress=progress,
                       seconds=seconds)


def _rounds(
    handle: TrainerHandle,
    trainer: Any,
    pool: _LocalPool | _RayPool,
    counters: RoundCounters,
    *,
    seed: int,
    total: int,
    workers: int,
    batch: int,
    checkpoint: str | Path | None,
    checkpoint_seconds: float,
    progress: Callable[[TrainingProgress], None] | None,
    seconds: float | None,
) -> TrainingResult:
    """Run rounds until ``total`` sampled iterations (or ``seconds`` of training time).

    Checkpoints on time, at the end and on Ctrl-C.
    """
    began = time.perf_counter()
    last_saved, first_done = began, counters.iterations
    worker_seconds, message_bytes, messages = 0.0, 0, 0
    consistent = True  # False while a round's deltas are being added
    try:
        while counters.iterations < total:
            if seconds is not None and handle.seconds() >= seconds:
                break
            round_began = time.perf_counter()
            n, each = round_shares(counters.iterations, total, workers, batch)
            jobs = [(counters.clock, round_seed(seed, counters.rounds, k), each)
                    for k in range(n)]
            deltas = pool.run_round(handle.regrets.copy(), jobs)
            consistent = False
            for delta in deltas:  # in worker order: the result never depends on timing
                handle.regrets[delta.rows] += delta.regrets / n
                handle.strategy_sum[delta.rows] += delta.strategy_sum / n
                worker_seconds += delta.seconds
                message_bytes += delta.nbytes
                messages += 1
            counters.iterations += n * each
            counters.clock += each
            counters.rounds += 1
            handle.set_iterations(counters.clock)
            now = time.perf_counter()
            handle.add_seconds(now - round_began)
            consistent = True
            if checkpoint is not None and now - last_saved >= checkpoint_seconds:
                save_checkpoint(checkpoint, handle, counters)
                last_saved = now
            if progress is not None:
                progress(TrainingProgress(counters.iterations, total, counters.rounds,
                                          now - began, pool.pids))
    except KeyboardInterrupt:
        if checkpoint is not None and consistent:
            save_checkpoint(checkpoint, handle, counters)
        raise
    if checkpoint is not None:
        save_checkpoint(checkpoint, handle, counters)
    seconds = time.perf_counter() - began
    done = counters.iterations - first_done
    return TrainingResult(
        trainer=trainer, iterations=counters.iterations, clock=counters.clock,
        rounds=counters.rounds, workers=workers, batch=batch, seconds=seconds,
        iterations_per_second=done / seconds if seconds > 0 else 0.0,
        worker_seconds=worker_seconds,
        message_bytes=message_bytes / messages if messages else 0.0,
        snapshot_bytes=int(handle.regrets.nbytes), workers_replaced=pool.replaced,
    )


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
    "TrainerHandle",
    "TrainingProgress",
    "TrainingResult",
    "WorkerDelta",
    "check_workers",
    "cluster_workers",
    "load_checkpoint",
    "ray_session",
    "require_ray",
    "round_seed",
    "round_shares",
    "save_checkpoint",
    "train_blueprint",
    "trainer_handle",
]
