"""Round-robin tournaments on 2 to 9 seats, stored hand by hand, resumable after any crash.

``run_tournament(game, entrants, db="arena.db", hands=1000)`` plays every table of
``n = game.n_players`` entrants (every pair heads-up; every 3 of the entrants at a
3-seat table...) in one match with the seats rotated over shared deals (each agent plays
``hands`` hands in each seat: ``n * hands`` hands per match), writing every hand to the
SQLite store, one transaction per batch.

Reproducibility and resumption:

1. Match ``m`` gets the seed ``match_seed(seed, m)``; hand ``i`` of a match depends only
   on that seed and ``i`` (chance, and the agents' ``seed()`` hook) -- or, for
   policy-backed agents sampled on the compiled tree, on the seed and the batch's first
   hand, batches always starting at multiples of the run's batch size.
2. Agents are created afresh for each match. On ``resume=True`` the latest run of the
   database continues: for each unfinished match, fresh agents are fed the stored hands
   (:func:`pokerlab.eval.matches.replay_hands`: reset, seed, act on the recorded
   observations, observe the results), then play goes on after the last committed hand.
   Agents whose behaviour depends only on what they observed and on the ``seed()`` hook
   (every built-in, the exploitative bot included) then play exactly the hands of an
   uninterrupted run; an entrant that draws unseeded randomness cannot be reproduced,
   and a replay that disagrees with the record is stored as a ``"replay"`` event.
3. Files that fail to load are stored with their error and left out; the others play.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import itertools
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pokerlab.agents.policy_files import POLICY_SUFFIXES
from pokerlab.agents.registry import expand_name
from pokerlab.agents.resolve import (
    AgentFactory,
    Entrant,
    builtin_entrant,
    resolve_agent,
    resolve_agents,
)
from pokerlab.arena.store import ArenaStore, MatchRow
from pokerlab.errors import PokerlabError, SpecError
from pokerlab.eval.matches import (
    HandRecord,
    agent_policy,
    check_agents,
    iter_hands,
    replay_hands,
    schedule_arrays,
)
from pokerlab.eval.sampling import _LazyRecords, _sampler, sample_match
from pokerlab.games import Game
from pokerlab.play.dealer import AgentConnection, connect
from pokerlab.play.sandbox import (
    ProcessEntrant,
    SandboxedAgent,
    SandboxLimits,
)
from pokerlab.strategy import Strategy

DEFAULT_BATCH = 100
"""About this many hands per transaction (rounded down to whole deals)."""


@dataclass(frozen=True)
class TournamentProgress:
    """What a progress callback receives after each batch.

    Attributes:
        match_index: the match being played (0-based).
        n_matches: matches in the run.
        names: the agents of the match, by position.
        hands_done: hands of this match stored so far.
        hands_total: hands of this match.
    """

    match_index: int
    n_matches: int
    names: tuple[str, ...]
    hands_done: int
    hands_total: int


@dataclass(frozen=True)
class TournamentResult:
    """A finished (or resumed and finished) run.

    Attributes:
        run_id: the run's id in the database.
        db: the database file.
        matches: matches in the run.
        hands_played: hands played by this call (0 when resuming a finished run).
        failed: ``(name, error)`` of entrants left out.
    """

    run_id: int
    db: Path
    matches: int
    hands_played: int
    failed: tuple[tuple[str, str], ...]


# -- entrants ------------------------------------------------------------------------------


def builtin_entrants(
    name: str, *, game: Game | None = None, cache_dir: str | Path | None = None
) -> list[Entrant]:
    """The entrant(s) a built-in name stands for (see :mod:`pokerlab.agents.registry`).

    ``solver`` is the strongest solver bot (CFR+ after 10,000 iterations), ``solvers``
    all five (1 to 10,000 iterations), ``cfr+N`` CFR+ after N iterations.

    Raises:
        SpecError: for an unknown name (the message lists the known ones), or, when
            ``game`` is given, an agent that cannot play it.
    """
    if game is not None:
        return resolve_agents(name, game, cache_dir=cache_dir)
    try:
        names = expand_name(name)
    except PokerlabError as error:
        raise SpecError(str(error)) from None
    return [builtin_entrant(single, cache_dir=cache_dir) for single in names]


def file_entrant(
    path: str | Path, game: Game, *, limits: SandboxLimits | None = None
) -> Entrant:
    """The entrant of one agent file, which will play from its own process (a sandbox).

    The file is read once (later changes to it change nothing) and started once in a
    sandbox to check that it imports and builds its ``Agent``; a file that does not
    becomes an entrant with its ``error`` set (reported, and left out of play).
    """
    if not Path(path).is_file():
        return Entrant(Path(path).stem, str(path), None,
                       f"entrant {str(path)!r} is missing; give a Python file", kind="entrant",
                       sandboxed=True)
    try:
        return resolve_agent(str(path), game, limits=limits)
    except PokerlabError as error:  # a policy file of another game: reported, left out
        return Entrant(Path(path).stem, str(path), None, str(error),
                       kind=POLICY_SUFFIXES.get(Path(path).suffix, "entrant"))


def file_entrants(
    folder: str | Path, game: Game, *, limits: SandboxLimits | None = None
) -> list[Entrant]:
    """One entrant per ``*.py`` file and policy file of ``folder`` (``_*`` files skipped).

    Each ``.py`` file is checked in a sandbox of its own, several at a time (see
    :func:`file_entrant`); each policy file pokerlab writes (``.npz``, ``.bp``, ``.pt``:
    strategies, tables, checkpoints, blueprints, networks) is read and played by a
    :class:`~pokerlab.agents.PolicyAgent`, checked against ``game``.

    Raises:
        PokerlabError: if ``folder`` is not a folder.
    """
    path = Path(folder)
    if not path.is_dir():
        raise PokerlabError(f"--agents must be a folder of agent files; {str(path)!r} is not")
    suffixes = {".py", *POLICY_SUFFIXES}
    files = [f for f in sorted(path.iterdir())
             if f.suffix in suffixes and f.is_file() and not f.name.startswith("_")]
    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(lambda f: file_entrant(f, game, limits=limits), files))


def _unique(entrants: Sequence[Entrant]) -> list[Entrant]:
    seen: dict[str, int] = {}
    unique = []
    for entrant in entrants:
        count = seen.get(entrant.name, 0)
        seen[entrant.name] = count + 1
        name = entrant.name if count == 0 else f"{entrant.name}#{count + 1}"
        unique.append(dataclasses.replace(entrant, name=name))
    return unique


def match_seed(seed: int, match_index: int) -> int:
    """The seed of match ``match_index`` of a run seeded with ``seed`` (fits SQLite)."""
    words = np.random.SeedSequence([seed, match_index, 0xA7E4A]).generate_state(2, np.uint32)
    return int((int(words[0]) << 30) ^ int(words[1]))


# -- the run -------------------------------------------------------------------------------


def run_tournament(
    game: Game,
    entrants: Sequence[Entrant],
    *,
    db: str | Path,
    hands: int = 1000,
    seed: int = 0,
    resume: bool = False,
    batch_size: int | None = None,
    time_limit: float | None = None,
    progress: Callable[[TournamentProgress], None] | None = None,
    runner: MatchRunner | None = None,
) -> TournamentResult:
    """Play every table of ``n`` entrants with rotated seats and store every hand in ``db``.

    Args:
        game: the game (2 to 9 players); its number of players is the table size.
        entrants: the entrants (see :func:`builtin_entrants`, :func:`file_entrants`).
        db: the SQLite database file (created if missing).
        hands: hands per seat per table (each match plays ``n * hands`` hands).
        seed: the run's seed.
        resume: continue the latest run of ``db`` instead of starting a new one (the
            game must match; the other settings are the stored run's).
        batch_size: hands per transaction, a multiple of the number of players (whole
            deals); default about 100.
        time_limit: seconds allowed per decision.
        progress: called after each stored batch.
        runner: what plays the matches (default :func:`play_locally`, here, one after the
            other; :func:`pokerlab.arena.ray_backend.ray_runner` spreads them over Ray
            workers). Every runner stores the same hands.

    Raises:
        PokerlabError: bad parameters, fewer loadable entrants than seats, or a resumed
            run of another game.
    """
    n = game.n_players
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
        raise PokerlabError(f"hands must be an integer >= 1 (per seat); got {hands!r}")
    if batch_size is None:
        batch_size = max(n, DEFAULT_BATCH - DEFAULT_BATCH % n)
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < n or (
        batch_size % n
    ):
        raise PokerlabError(
            f"batch_size must be a positive multiple of the {n} players (whole deals); "
            f"got {batch_size!r}"
        )
    entrants = _unique(entrants)
    playable = [i for i, e in enumerate(entrants) if e.error is None and e.factory is not None]
    failed = tuple((e.name, e.error or "") for e in entrants if e.error is not None)
    with _writer_lock(Path(db)), ArenaStore(db) as store:
        if resume:
            run_id, batch_size, time_limit, factories, names = _resumed(
                store, game, hands, seed, entrants
            )
        else:
            if len(playable) < n:
                raise PokerlabError(
                    f"a tournament of {game.spec} needs at least {n} agents that load; got "
                    f"{len(playable)}"
                    + (f" ({len(failed)} failed: {failed[0][0]}: {failed[0][1]})" if failed
                       else "")
                )
            tables = list(itertools.combinations(playable, n))
            run_id = store.create_run(
                game=str(game.spec), players=n, hands=hands, seed=seed, batch_size=batch_size,
                time_limit=time_limit,
                config={"entrants": [e.name for e in entrants]},
                agents=[(e.name, e.source, e.error) for e in entrants],
                matches=[(table, match_seed(seed, m), n * hands)
                         for m, table in enumerate(tables)],
            )
            stored = store.agents(run_id)
            names = {row.id: row.name for row in stored}
            factories = {row.id: entrants[row.position].factory for row in stored
                         if row.error is None}
        matches = store.matches(run_id)
        plan = MatchPlan(store, game, tuple(m for m in matches if m.finished is None),
                         len(matches), names, factories, batch_size, time_limit, progress)
        played = (runner or play_locally)(plan)
        store.finish_run(run_id)
        return TournamentResult(run_id, Path(db), len(matches), played, failed)


@contextlib.contextmanager
def _writer_lock(db: Path) -> Iterator[None]:
    """Hold ``DB.lock`` while a run writes ``db``: a second run or ``--resume`` is refused.

    An ``flock`` lock: the operating system releases it when the process dies, so a killed
    run never leaves a stale lock behind.

    Raises:
        PokerlabError: if another process is running a tournament on ``db``.
    """
    if db.is_dir():
        raise PokerlabError(f"arena database {str(db)!r} is a folder; give a file name")
    db.parent.mkdir(parents=True, exist_ok=True)
    lock = db.with_name(db.name + ".lock")
    with open(lock, "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "?"
            raise PokerlabError(
                f"another tournament (process {holder}) is writing {str(db)!r}; wait for it to "
                "finish (or stop it), then --resume"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _resumed(
    store: ArenaStore, game: Game, hands: int, seed: int, entrants: Sequence[Entrant]
) -> tuple[int, int, float | None, dict[int, AgentFactory | None], dict[int, str]]:
    """The stored run to continue: its id, batch size, time limit, factories and names."""
    if not store.runs():
        raise PokerlabError(f"{str(store.path)!r} holds no run to resume; drop --resume to "
                            "start one")
    run = store.run()
    if run.game != str(game.spec):
        raise PokerlabError(f"{str(store.path)!r}: the latest run is of {run.game}, not "
                            f"{game.spec}; drop --resume to start a new run")
    changed = [
        f"{name} {stored} (asked {asked})"
        for name, stored, asked in (("hands", run.hands, hands), ("seed", run.seed, seed))
        if stored != asked
    ]
    if changed:
        raise PokerlabError(
            f"{str(store.path)!r}: the run to resume was started with {', '.join(changed)}; "
            "resume with the same options, or drop --resume to start a new run"
        )
    by_name = {e.name: e for e in entrants}
    stored = store.agents(run.id)
    missing = [a.name for a in stored if a.error is None and a.name not in by_name]
    if missing:
        raise PokerlabError(f"cannot resume: entrant(s) {missing} of the stored run are not given")
    names = {a.id: a.name for a in stored}
    factories = {a.id: by_name[a.name].factory for a in stored if a.error is None}
    return run.id, run.batch_size, run.time_limit, factories, names


def _policies(game: Game, agents: Sequence[object]) -> list[Strategy] | None:
    policies = [agent_policy(agent, game) for agent in agents]
    if any(p is None for p in policies):
        return None
    return [p for p in policies if p is not None]


def sample_batch(
    game: Game, strategies: Sequence[Strategy], *, start: int, stop: int, seed: int
) -> list[HandRecord]:
    """Sample hands ``start..stop-1`` of a rotated match of policy-backed agents.

    The arena's fast path: the result depends only on ``(seed, start, stop)``, so a batch
    replayed after a crash is the same batch. ``start`` and ``stop`` must be whole deals.

    Raises:
        PokerlabError: if the batch would split a deal.
    """
    n = game.n_players
    if start % n or stop % n:
        raise PokerlabError(f"a batch must hold whole deals ({n} hands each); got {start}..{stop}")
    if stop <= start:
        return []
    index = np.arange(start, stop, dtype=np.int64)
    deals, seatings = schedule_arrays(index, n, "rotate", True)
    rng = np.random.default_rng([seed, start, 0xFA57])
    terminals, returns = sample_match(game, strategies, seatings, deals, seed=seed, rng=rng)
    tree = _sampler(game).tree
    return list(_LazyRecords(tree, terminals, deals, seatings, returns, first_hand=start))


@dataclass(frozen=True)
class MatchPlan:
    """The unfinished matches of a run, and what playing them needs: a match runner's input.

    A runner (the default plays here, one match after the other; see
    :mod:`pokerlab.arena.ray_backend` for Ray workers) plays each match from its first
    missing hand and hands every batch to :func:`store_batch`, in order, then calls
    ``store.finish_match``: the store stays the single writer, whatever plays the hands.

    Attributes:
        store: the run's open store (only the runner's process writes it).
        game: the game.
        matches: the unfinished matches, in play order.
        n_matches: matches in the run (for progress).
        names: agent id -> name.
        factories: agent id -> what builds that agent (None: it failed to load).
        batch_size: hands per transaction (whole deals).
        time_limit: seconds allowed per decision.
        progress: called after each stored batch.
    """

    store: ArenaStore
    game: Game
    matches: tuple[MatchRow, ...]
    n_matches: int
    names: dict[int, str]
    factories: dict[int, AgentFactory | None]
    batch_size: int
    time_limit: float | None
    progress: Callable[[TournamentProgress], None] | None = None


MatchRunner = Callable[[MatchPlan], int]
"""Plays the matches of a plan, stores them through :func:`store_batch`; returns hands played."""


@dataclass(frozen=True)
class MatchBatch:
    """What a match produced since the previous batch, for the store.

    Attributes:
        hands: the hands to store in one transaction (empty for a replay verdict alone).
        stop: hands of the match done once these are stored.
        replay_mismatches: on a resumed match, replayed hands that differed from the record.
    """

    hands: tuple[HandRecord, ...]
    stop: int
    replay_mismatches: int = 0


class MatchPlayer:
    """Plays one match from its first missing hand, batch by batch, wherever it runs.

    Builds fresh agents (an isolated entrant gets its own sandboxed process, hidden from
    ``hidden``); on a resumed match the agents are first fed the ``stored`` hands. Used
    by the local runner and by remote workers alike, so both play the same hands.

    Args:
        game: the game.
        match: the match.
        factories: what builds each agent of the match (by agent id).
        hidden: paths no sandboxed entrant may see (the database, the entrants' files).
        batch_size: hands per batch (whole deals).
        time_limit: seconds allowed per decision.
        stored: the hands of the match already stored, in order.

    Raises:
        PokerlabError: if an agent of the match has no factory.
    """

    def __init__(
        self,
        game: Game,
        match: MatchRow,
        factories: dict[int, AgentFactory | None],
        *,
        hidden: Sequence[str],
        batch_size: int,
        time_limit: float | None,
        stored: Sequence[HandRecord] = (),
    ) -> None:
        builders = [factories.get(agent_id) for agent_id in match.agents]
        if any(build is None for build in builders):
            raise PokerlabError(
                f"match {match.match_index}: an agent of the stored run is missing"
            )
        self.game = game
        self.match = match
        self.batch_size = batch_size
        self.time_limit = time_limit
        self.stored = tuple(stored)
        self.agents = [build(game) for build in builders if build is not None]
        for agent in self.agents:
            if isinstance(agent, SandboxedAgent | ProcessEntrant):  # the store, entrants' files
                agent.hidden = tuple(dict.fromkeys((*agent.hidden, *hidden)))

    def batches(self) -> Iterator[MatchBatch]:
        """Play the missing hands; yield them a batch at a time (and a replay's verdict)."""
        game, match, batch_size = self.game, self.match, self.batch_size
        check_agents(game, self.agents)
        done = len(self.stored)
        strategies = _policies(game, self.agents)
        if strategies is not None:
            for start in range(done, match.hands, batch_size):
                stop = min(start + batch_size, match.hands)
                batch = sample_batch(game, strategies, start=start, stop=stop, seed=match.seed)
                yield MatchBatch(tuple(batch), stop)
            return
        connections = [connect(agent, time_limit=self.time_limit) for agent in self.agents]
        if done:
            mismatches = replay_hands(game, connections, self.stored, seed=match.seed)
            if mismatches:
                yield MatchBatch((), done, mismatches)
        # Transports that follow the hand themselves (ACPC executables) listen to the dealer.
        listeners = [attach(index) for index, agent in enumerate(self.agents)
                     if callable(attach := getattr(agent, "dealer_listener", None))]
        records: list[HandRecord] = []
        for record in iter_hands(game, connections, hands=match.hands, seed=match.seed,
                                 time_limit=self.time_limit, start=done, listeners=listeners):
            records.append(record)
            if len(records) == batch_size:
                yield MatchBatch(tuple(records), record.hand + 1)
                records = []
        if records:
            yield MatchBatch(tuple(records), match.hands)

    def close(self) -> dict[int, str]:
        """Stop the agents; return what each isolated entrant printed, by position."""
        logs = {}
        for position, agent in enumerate(self.agents):
            close = getattr(agent, "close", None)
            if isinstance(agent, SandboxedAgent | ProcessEntrant):
                agent.close()
                if agent.log:
                    logs[position] = agent.log
            elif callable(close) and isinstance(agent, AgentConnection):
                with contextlib.suppress(Exception):
                    close()
        return logs


def store_batch(plan: MatchPlan, match: MatchRow, batch: MatchBatch) -> int:
    """Store one batch of ``match`` in one transaction, report progress; return its hands."""
    store = plan.store
    if batch.replay_mismatches:
        store.write_event(match.id, batch.stop, "replay",
                          f"{batch.replay_mismatches} replayed hand(s) differ from the record: "
                          "an agent is not reproducible")
    if not batch.hands:
        return 0
    store.write_hands(match.id, batch.hands)
    if plan.progress is not None:
        table = tuple(plan.names[agent_id] for agent_id in match.agents)
        plan.progress(TournamentProgress(match.match_index, plan.n_matches, table, batch.stop,
                                         match.hands))
    return len(batch.hands)


def private_paths(store: ArenaStore) -> list[str]:
    """What no entrant may see: the database (and its journal, lock) and the entrants' files."""
    db = store.path.resolve()
    paths = [str(db), f"{db}-wal", f"{db}-shm", f"{db}.lock"]
    for source in store.entrant_sources():
        if not source.startswith("builtin:"):
            paths.append(str(Path(source).resolve()))
    return paths


def play_locally(plan: MatchPlan) -> int:
    """The default runner: play the plan's matches here, one after the other."""
    played = 0
    hidden = private_paths(plan.store)
    for match in plan.matches:
        done = plan.store.hands_done(match.id)
        stored = plan.store.hands(match.id) if done else []
        player = MatchPlayer(plan.game, match, plan.factories, hidden=hidden,
                             batch_size=plan.batch_size, time_limit=plan.time_limit,
                             stored=stored)
        try:
            for batch in player.batches():
                played += store_batch(plan, match, batch)
        finally:
            for position, log in player.close().items():
                plan.store.write_log(match.id, position, log)
        plan.store.finish_match(match.id)
    return played


__all__ = [
    "DEFAULT_BATCH",
    "MatchBatch",
    "MatchPlan",
    "MatchPlayer",
    "MatchRunner",
    "TournamentProgress",
    "TournamentResult",
    "builtin_entrants",
    "file_entrant",
    "file_entrants",
    "match_seed",
    "play_locally",
    "private_paths",
    "run_tournament",
    "sample_batch",
    "store_batch",
]
