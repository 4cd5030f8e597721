"""Tournaments on a Ray cluster: matches play on workers, the driver alone writes the store.

``run_tournament(game, entrants, db=..., runner=ray_runner(address=..., workers=N))`` (or
``pokerlab arena run ... --backend ray``) plays the same matches as the local runner, with
the same seeds, so it stores the same hands; only where they are played changes:

1. The driver starts ``N`` worker actors (one CPU each) and gives each an unfinished
   match: the match, the factories of its agents, the paths no sandboxed entrant may see,
   and the hands of the match already stored (a resumed match is replayed to fresh
   agents first, as locally).
2. A worker plays its match with :class:`~pokerlab.arena.tournament.MatchPlayer` -- an
   isolated entrant runs in a sandboxed process on the worker's machine -- and returns
   one batch per call. The driver asks for the next batch before it stores the one it
   got (one batch in flight per worker), and stores every batch in one transaction.
3. A worker that dies (killed, its machine lost) loses at most the batch it was playing,
   which was never stored: the driver starts a new worker and gives it the match again,
   from the store's first missing hand. A batch is stored once (``UNIQUE(match, hand)``
   would refuse it twice), so nothing is lost or counted twice.

Ray is imported only when a runner runs (see :mod:`pokerlab.blueprint.ray_backend`).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pokerlab.agents.resolve import AgentFactory
from pokerlab.arena.store import MatchRow
from pokerlab.arena.tournament import (
    MatchBatch,
    MatchPlan,
    MatchPlayer,
    MatchRunner,
    private_paths,
    store_batch,
)
from pokerlab.blueprint.ray_backend import (
    check_workers,
    cluster_workers,
    ray_session,
    require_ray,
)
from pokerlab.errors import PokerlabError
from pokerlab.games import Game
from pokerlab.play.records import HandRecord

MAX_WORKER_FAILURES = 3
"""Workers a match may lose before the run stops with an error (a match that kills them)."""


@dataclass(frozen=True)
class MatchJob:
    """Everything a worker needs to play one match from its first missing hand."""

    game: Game
    match: MatchRow
    factories: dict[int, AgentFactory | None]
    hidden: tuple[str, ...]
    batch_size: int
    time_limit: float | None
    stored: tuple[HandRecord, ...]
    drop_caches: bool = False


@dataclass(frozen=True)
class MatchEnd:
    """A worker's last answer for a match: what each isolated entrant printed."""

    logs: dict[int, str]


class MatchWorker:
    """A worker actor's class (``ray.remote`` wraps it when a run starts): one match at once."""

    def __init__(self) -> None:
        self._player: MatchPlayer | None = None
        self._batches: Iterator[MatchBatch] | None = None

    def pid(self) -> int:
        """The worker's process id (what a test kills)."""
        return os.getpid()

    def step(self, job: MatchJob | None = None) -> MatchBatch | MatchEnd:
        """Start ``job`` when given, then return the match's next batch, or its end.

        Raises:
            PokerlabError: when no match was started, or the match cannot be played.
        """
        if job is not None:
            self._close()
            self._player = MatchPlayer(job.game, job.match, job.factories, hidden=job.hidden,
                                       batch_size=job.batch_size, time_limit=job.time_limit,
                                       stored=job.stored, drop_caches=job.drop_caches)
            self._batches = self._player.batches()
        if self._batches is None:
            raise PokerlabError("this worker was asked for a batch before it was given a match")
        try:
            return next(self._batches)
        except StopIteration:
            return MatchEnd(self._close())
        except BaseException:
            self._close()
            raise

    def _close(self) -> dict[int, str]:
        player, self._player, self._batches = self._player, None, None
        return player.close() if player is not None else {}


class RayMatchRunner:
    """A match runner that spreads a tournament's matches over Ray workers.

    Args:
        address: the cluster (see :func:`pokerlab.blueprint.ray_backend.ray_session`):
            ``None`` this machine, ``"auto"``, or ``"HOST:PORT"``.
        workers: worker actors (one CPU each); default the cluster's CPUs, at most one per
            unfinished match.

    Raises:
        PokerlabError: Ray is not installed, or ``workers`` is not an integer >= 1.

    Attributes:
        pids: process ids of the live workers (a test kills one).
        replaced: workers that died and were replaced during the last run.
    """

    def __init__(self, *, address: str | None = None, workers: int | None = None) -> None:
        require_ray()  # before the run is recorded: a missing extra is said at once
        if workers is not None:
            check_workers(workers)
        self.address = address
        self.workers = workers
        self.pids: list[int] = []
        self.replaced = 0

    def __call__(self, plan: MatchPlan) -> int:
        """Play the plan's matches on the workers; store every batch here; return hands played.

        Raises:
            PokerlabError: Ray unreachable, a match that
                cannot be played (its error), or a match that lost too many workers.
        """
        if not plan.matches:
            return 0
        with ray_session(self.address) as ray:
            count = min(cluster_workers(ray, self.workers), len(plan.matches))
            return _Driver(ray, plan, count, self).run()


def ray_runner(*, address: str | None = None, workers: int | None = None) -> MatchRunner:
    """A runner for :func:`~pokerlab.arena.tournament.run_tournament` that plays on Ray."""
    return RayMatchRunner(address=address, workers=workers)


class _Driver:
    """One run of :class:`RayMatchRunner`: hand out matches, store batches, replace the dead."""

    def __init__(self, ray: Any, plan: MatchPlan, count: int, owner: RayMatchRunner) -> None:
        self.ray = ray
        self.plan = plan
        self.owner = owner
        self.remote_class = ray.remote(num_cpus=1, max_restarts=0)(MatchWorker)
        self.hidden = tuple(private_paths(plan.store))
        self.idle: list[Any] = []
        self.pid_of: dict[Any, int] = {}
        self._start_workers(count)
        owner.replaced = 0

    def _start_workers(self, count: int) -> None:
        workers = [self.remote_class.remote() for _ in range(count)]  # they start together
        for worker, pid in zip(workers, self.ray.get([w.pid.remote() for w in workers]),
                               strict=True):
            self.pid_of[worker] = int(pid)
            self.idle.append(worker)
        self.owner.pids = list(self.pid_of.values())

    def _job(self, match: MatchRow) -> MatchJob:
        store = self.plan.store
        stored = tuple(store.hands(match.id)) if store.hands_done(match.id) else ()
        factories = {agent_id: self.plan.factories.get(agent_id) for agent_id in match.agents}
        return MatchJob(self.plan.game, match, factories, self.hidden, self.plan.batch_size,
                        self.plan.time_limit, stored, self.plan.drop_caches)

    def run(self) -> int:
        ray, plan = self.ray, self.plan
        queue: deque[MatchRow] = deque(plan.matches)
        in_flight: dict[Any, tuple[Any, MatchRow]] = {}
        failures: dict[int, int] = {}
        played = 0
        try:
            while queue or in_flight:
                while queue and self.idle:
                    worker, match = self.idle.pop(), queue.popleft()
                    in_flight[worker.step.remote(self._job(match))] = (worker, match)
                [ready], _ = ray.wait(list(in_flight), num_returns=1)
                worker, match = in_flight.pop(ready)
                try:
                    answer = ray.get(ready)
                except ray.exceptions.RayTaskError as exc:
                    cause = getattr(exc, "cause", None)
                    raise (cause if isinstance(cause, Exception) else PokerlabError(
                        f"match {match.match_index} failed on a Ray worker: {exc}")) from None
                except (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError,
                        ray.exceptions.ObjectLostError) as exc:
                    self._lost(worker, match, exc, failures, in_flight, queue)
                    continue
                if isinstance(answer, MatchEnd):
                    for position, log in answer.logs.items():
                        plan.store.write_log(match.id, position, log)
                    plan.store.finish_match(match.id)
                    self.idle.append(worker)
                    continue
                in_flight[worker.step.remote()] = (worker, match)  # the next batch, meanwhile
                played += store_batch(plan, match, answer)
        finally:
            for worker in self.pid_of:
                ray.kill(worker)
        return played

    def _lost(
        self,
        worker: Any,
        match: MatchRow,
        exc: Exception,
        failures: dict[int, int],
        in_flight: dict[Any, tuple[Any, MatchRow]],
        queue: deque[MatchRow],
    ) -> None:
        """A worker died: drop its pending calls, start another, play the match again."""
        for ref in [r for r, (w, _) in in_flight.items() if w is worker]:
            del in_flight[ref]
        self.pid_of.pop(worker, None)
        failures[match.id] = failures.get(match.id, 0) + 1
        if failures[match.id] >= MAX_WORKER_FAILURES:
            raise PokerlabError(
                f"match {match.match_index} lost {failures[match.id]} Ray workers "
                f"({type(exc).__name__}); its stored hands are kept: --resume continues it"
            )
        self.owner.replaced += 1
        self._start_workers(1)
        queue.appendleft(match)  # from the store's first missing hand


__all__ = ["MAX_WORKER_FAILURES", "MatchEnd", "MatchJob", "MatchWorker", "RayMatchRunner",
           "ray_runner"]
