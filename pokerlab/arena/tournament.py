"""Round-robin tournaments on 2 to 9 seats, stored hand by hand, resumable after any crash.

``run_tournament(game, entrants, db="arena.db", hands=1000)`` plays every table of
``n = game.n_players`` entrants (every pair heads-up; every 3 of the entrants at a
3-seat table...) in one match with the seats rotated over shared deals (each agent plays
``hands`` hands in each seat: ``n * hands`` hands per match), writing every hand to the
SQLite store, one transaction per batch.

Secrecy, reproducibility and resumption:

1. A run's seed is a fresh secret (:func:`~pokerlab.play.deals.fresh_seed`, 128 bits from
   the operating system) unless the caller gives one (reproducible research: whoever knows
   it can compute every card). It is stored with the run (never given to an entrant), so
   the run can be resumed, replayed and audited. Match ``m`` gets the seed
   ``match_seed(seed, m)``, a keyed derivation; hand ``i`` of a match depends only on that
   seed and ``i`` (chance, and the agents' ``seed()`` hook, from independent keyed
   streams) -- or, for policy-backed agents sampled on the compiled tree, on the seed and
   the batch's first hand, batches always starting at multiples of the run's batch size
   from the start of a leg.
2. A match is played in ``n`` legs, one per rotation of the table: leg ``r`` plays the
   match's deals ``0..hands-1`` with the seats rotated ``r`` times, so every agent meets
   every deal in every seat (duplicate poker), and each leg is played by agents created
   afresh (an entrant's process is restarted), so that no agent remembers the cards of a
   deal it is about to play again from another seat (agents sampled on the compiled tree
   keep no memory: their policies are tabulated once a match).
3. On ``resume=True`` the latest run of the database continues: for each unfinished
   match, fresh agents are fed the stored hands of the current leg
   (:func:`pokerlab.eval.matches.replay_hands`: reset, seed, act on the recorded
   observations, observe the results), then play goes on after the last committed hand.
   Agents whose behaviour depends only on what they observed and on the ``seed()`` hook
   (every built-in, the exploitative bot included) then play exactly the hands of an
   uninterrupted run; an entrant that draws unseeded randomness cannot be reproduced,
   and a replay that disagrees with the record is stored as a ``"replay"`` event.
4. Files that fail to load are stored with their error and left out; the others play.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import itertools
import math
import os
import stat
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

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
from pokerlab.arena.store import ArenaStore, MatchRow, database_problem
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
from pokerlab.play.containment import drop_host_caches, resolve_drop_caches
from pokerlab.play.dealer import AgentConnection, connect
from pokerlab.play.deals import check_seed, derive_seed, fresh_seed
from pokerlab.play.executable import ExecutableAgent
from pokerlab.play.names import printable
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
    # A refused file is reported under its name escaped (a name with a control character
    # is refused: it would reach terminals and the store).
    name, source = printable(Path(path).stem), printable(str(path))
    if not Path(path).is_file():
        return Entrant(name, source, None,
                       f"entrant {str(path)!r} is missing; give a Python file", kind="entrant",
                       sandboxed=True)
    try:
        return resolve_agent(str(path), game, limits=limits)
    except PokerlabError as error:  # a policy file of another game: reported, left out
        return Entrant(name, source, None, str(error),
                       kind=POLICY_SUFFIXES.get(Path(path).suffix, "entrant"))


def file_entrants(
    folder: str | Path, game: Game, *, limits: SandboxLimits | None = None
) -> list[Entrant]:
    """One entrant per ``*.py`` file and policy file of ``folder`` (``_*`` files skipped).

    Each ``.py`` file is checked in a sandbox of its own, several at a time (see
    :func:`file_entrant`); each policy file pokerlab writes (``.npz``, ``.bp``, ``.pt``:
    strategies, tables, checkpoints, blueprints, networks) is read and played by a
    :class:`~pokerlab.agents.PolicyAgent`, checked against ``game``. A link to a file
    outside ``folder`` is left out (reported), never read.

    Raises:
        PokerlabError: if ``folder`` is not a folder.
    """
    path = Path(folder)
    if not path.is_dir():
        raise PokerlabError(f"--agents must be a folder of agent files; {str(path)!r} is not")
    suffixes = {".py", *POLICY_SUFFIXES}
    files = [f for f in sorted(path.iterdir())
             if f.suffix in suffixes and f.is_file() and not f.name.startswith("_")]
    inside = path.resolve()

    def entrant(file: Path) -> Entrant:
        # A link out of the folder would have the arena (often root) read any file it
        # names, as an entrant's source or a policy.
        if file.is_symlink() and not file.resolve().is_relative_to(inside):
            return Entrant(printable(file.stem), printable(str(file)), None,
                           f"entrant {str(file)!r} is a link to a file outside "
                           f"{str(path)!r}; give the file itself",
                           kind=POLICY_SUFFIXES.get(file.suffix, "entrant"))
        return file_entrant(file, game, limits=limits)

    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(entrant, files))


def _unique(entrants: Sequence[Entrant]) -> list[Entrant]:
    """``entrants`` with distinct names: a repeated name gets ``#2``, ``#3``...

    Built-in agents are named first, so that a file called ``random.py`` plays as
    ``random#2`` beside the built-in ``random``, never the other way round.
    """
    taken: set[str] = set()
    names: dict[int, str] = {}
    order = sorted(range(len(entrants)), key=lambda i: entrants[i].kind != "builtin")
    for index in order:
        base = name = entrants[index].name
        count = 1
        while name in taken:  # (a file named "random#2.py" is taken into account)
            count += 1
            name = f"{base}#{count}"
        taken.add(name)
        names[index] = name
    return [dataclasses.replace(e, name=names[i]) for i, e in enumerate(entrants)]


def match_seed(seed: int, match_index: int) -> int:
    """The seed of match ``match_index`` of a run seeded with ``seed`` (128 bits, keyed).

    Knowing a match's seed tells nothing of the run's seed or of another match's.
    """
    return derive_seed(seed, "match", match_index)


# -- the run -------------------------------------------------------------------------------


def run_tournament(
    game: Game,
    entrants: Sequence[Entrant],
    *,
    db: str | Path,
    hands: int = 1000,
    seed: int | None = None,
    resume: bool = False,
    batch_size: int | None = None,
    time_limit: float | None = None,
    progress: Callable[[TournamentProgress], None] | None = None,
    runner: MatchRunner | None = None,
    drop_caches: bool | None = None,
) -> TournamentResult:
    """Play every table of ``n`` entrants with rotated seats and store every hand in ``db``.

    Args:
        game: the game (2 to 9 players); its number of players is the table size.
        entrants: the entrants (see :func:`builtin_entrants`, :func:`file_entrants`).
        db: the SQLite database file (created if missing).
        hands: hands per seat per table (each match plays ``n * hands`` hands).
        seed: the run's seed; None (the default) draws a fresh secret one, stored with the
            run. A seed you give makes the run reproducible, and every card predictable to
            whoever knows it: entrants that know it can compute their opponents' cards.
        resume: continue the latest run of ``db`` instead of starting a new one (the
            game must match; the other settings, the seed included, are the stored run's;
            a ``seed`` given must be the stored one).
        batch_size: hands per transaction, a multiple of the number of players (whole
            deals); default about 100.
        time_limit: seconds allowed per decision.
        progress: called after each stored batch.
        runner: what plays the matches (default :func:`play_locally`, here, one after the
            other; :func:`pokerlab.arena.ray_backend.ray_runner` spreads them over Ray
            workers). Every runner stores the same hands.
        drop_caches: drop the host's page, dentry and inode caches between the legs of
            each match with an isolated entrant
            (:func:`~pokerlab.play.containment.drop_host_caches`; root): closes the caches
            as a channel from one leg's entrant to the next leg's, at the cost of every
            process on the machine reading its files again. None (the default): wherever
            the machine allows it; True: refuse a machine where it cannot; False: never.

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
    if seed is not None:
        seed = check_seed(seed)
    drop_caches = resolve_drop_caches(drop_caches)
    entrants = _unique(entrants)
    playable = [i for i, e in enumerate(entrants) if e.error is None and e.factory is not None]
    failed = tuple((e.name, e.error or "") for e in entrants if e.error is not None)
    with _writer_lock(Path(db)) as lock, ArenaStore(db) as store:
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
            run_seed = fresh_seed() if seed is None else seed
            run_id = store.create_run(
                game=str(game.spec), players=n, hands=hands, seed=run_seed,
                batch_size=batch_size, time_limit=time_limit,
                config={"entrants": [e.name for e in entrants], "legs": True,
                        "secret_seed": seed is None},
                agents=[(e.name, e.source, e.error) for e in entrants],
                matches=[(table, match_seed(run_seed, m), n * hands)
                         for m, table in enumerate(tables)],
            )
            stored = store.agents(run_id)
            names = {row.id: row.name for row in stored}
            factories = {row.id: entrants[row.position].factory for row in stored
                         if row.error is None}
        lock.note(run_id)
        matches = store.matches(run_id)
        plan = MatchPlan(store, game, tuple(m for m in matches if m.finished is None),
                         len(matches), names, factories, batch_size, time_limit, progress,
                         drop_caches)
        played = (runner or play_locally)(plan)
        store.finish_run(run_id)
        return TournamentResult(run_id, Path(db), len(matches), played, failed)


class _RunLock:
    """The lock a run holds on its database; :meth:`note` names the run in it."""

    def __init__(self, handle: TextIO) -> None:
        self._handle = handle

    def note(self, run_id: int) -> None:
        """Write who holds the lock (this process, and its run) for a refused second writer."""
        _write_holder(self._handle, f"{os.getpid()} {run_id}")


def _write_holder(handle: TextIO, text: str) -> None:
    """Replace the lock file's text; a full disk only costs the second writer's message."""
    with contextlib.suppress(OSError):
        handle.seek(0)
        handle.truncate()
        handle.write(text)
        handle.flush()


def _lock_holder(fd: int) -> str | None:
    """The process holding an ``flock`` on the file open as ``fd``, from ``/proc/locks``."""
    info = os.fstat(fd)
    wanted = f"{os.major(info.st_dev):02x}:{os.minor(info.st_dev):02x}:{info.st_ino}"
    try:
        lines = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        fields = line.split()
        if len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == wanted:
            return fields[4]
    return None


@contextlib.contextmanager
def _writer_lock(db: Path) -> Iterator[_RunLock]:
    """Hold the run lock of database ``db`` while a run writes it: a second writer is refused.

    The lock is keyed on the database itself, whatever name reaches it: an ``flock`` on
    ``REAL.lock`` beside its real path (symbolic links resolved), where the holder writes
    its process and run, and an ``flock`` on the database file (its inode: hard links,
    bind mounts). The operating system releases both when the process dies, so a killed
    run never leaves a stale lock behind.

    Raises:
        PokerlabError: if another process is running a tournament on the database, or the
            lock cannot be taken (a read-only folder).
    """
    real = Path(os.path.realpath(db))
    same = "" if real == db.absolute() else f" (the file {str(real)!r})"
    if real.is_dir():
        raise PokerlabError(f"arena database {str(db)!r}{same} is a folder; give a file name")
    if real.exists() and not real.is_file():  # opening a pipe would wait for a writer
        raise PokerlabError(f"arena database {str(db)!r}{same} is not a regular file (a pipe, "
                            "a device or a socket); give a database file")

    def refused(holder: str | None) -> PokerlabError:
        pid, _, run = (holder or "").partition(" ")
        who = f"process {pid}" if pid else "another process"
        who += f", run {run}" if run else ""
        return PokerlabError(
            f"arena database {str(db)!r}{same} is being written by another tournament "
            f"({who}); wait for it to finish (or stop it), then --resume"
        )

    try:
        real.parent.mkdir(parents=True, exist_ok=True)
        handle = open(real.with_name(real.name + ".lock"), "a+")  # noqa: SIM115 - held below
    except OSError as error:
        raise database_problem(db, error) from None
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            raise refused(handle.read(200).strip() or None) from None
        try:
            # Created empty when missing: SQLite takes an empty file for a new database.
            # (never waiting: a pipe put there since the check is refused below)
            fd = os.open(real, os.O_RDONLY | os.O_CREAT | os.O_NONBLOCK, 0o644)
        except OSError as error:
            raise database_problem(db, error) from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise PokerlabError(f"arena database {str(db)!r}{same} is not a regular file")
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise refused(_lock_holder(fd)) from None
            _write_holder(handle, str(os.getpid()))
            yield _RunLock(handle)
        finally:
            # Closed after the store: closing a descriptor of the database drops every
            # POSIX lock this process holds on it (SQLite's included).
            os.close(fd)


def _resumed(
    store: ArenaStore, game: Game, hands: int, seed: int | None, entrants: Sequence[Entrant]
) -> tuple[int, int, float | None, dict[int, AgentFactory | None], dict[int, str]]:
    """The stored run to continue: its id, batch size, time limit, factories and names."""
    if not store.runs():
        raise PokerlabError(f"{str(store.path)!r} holds no run to resume; drop --resume to "
                            "start one")
    run = store.run()
    if run.game != str(game.spec):
        raise PokerlabError(f"{str(store.path)!r}: the latest run is of {run.game}, not "
                            f"{game.spec}; drop --resume to start a new run")
    changed = [f"hands {run.hands} (asked {hands})"] if run.hands != hands else []
    if seed is not None and seed != run.seed:  # never print the stored (secret) seed
        changed.append(f"another seed (asked {seed})")

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
    game: Game,
    strategies: Sequence[Strategy],
    *,
    start: int,
    stop: int,
    seed: int,
    leg: int | None = None,
) -> list[HandRecord]:
    """Sample hands ``start..stop-1`` of a rotated match of policy-backed agents.

    The arena's fast path: the result depends only on ``(seed, start, stop)``, so a batch
    replayed after a crash is the same batch. ``leg``: hands per leg (the arena's schedule,
    see :func:`~pokerlab.eval.matches.hand_schedule`); without it the seats rotate deal by
    deal, and ``start`` and ``stop`` must be whole deals.

    Raises:
        PokerlabError: if the batch would split a deal (without ``leg``).
    """
    n = game.n_players
    if leg is None and (start % n or stop % n):
        raise PokerlabError(f"a batch must hold whole deals ({n} hands each); got {start}..{stop}")
    if stop <= start:
        return []
    index = np.arange(start, stop, dtype=np.int64)
    deals, seatings = schedule_arrays(index, n, "rotate", True, leg=leg)
    rng = np.random.default_rng(derive_seed(seed, "decisions", start))
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
        drop_caches: drop the host's caches before each leg that follows one with an
            isolated entrant.
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
    drop_caches: bool = False


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

    The match is played in legs, one per rotation of the table (see the module docstring):
    each leg gets fresh agents (an isolated entrant gets a sandboxed process of its own,
    hidden from ``hidden``), so no agent carries the memory of a deal into the leg that
    deals it again. On a resumed match the agents of the current leg are first fed its
    ``stored`` hands. Used by the local runner and by remote workers alike, so both play
    the same hands.

    Args:
        game: the game.
        match: the match (``hands``: a multiple of the number of players).
        factories: what builds each agent of the match (by agent id).
        hidden: paths no sandboxed entrant may see (the database, the entrants' files).
        batch_size: hands per batch (a batch never spans two legs).
        time_limit: seconds allowed per decision.
        stored: the hands of the match already stored, in order.
        drop_caches: drop the host's caches before each leg but the first that follows a
            leg with an isolated entrant (on a resumed match, before its first leg here).

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
        drop_caches: bool = False,
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
        self.hidden = tuple(hidden)
        self.drop_caches = drop_caches
        self.leg = max(1, match.hands // game.n_players)
        """Hands per leg (the hands each agent plays in each seat)."""
        self._builders = [build for build in builders if build is not None]
        self.agents: list[object] = []
        """The agents of the leg being played (none between legs)."""
        self._logs: dict[int, list[str]] = {}
        self._spent: dict[int, float] = {}
        """Seconds each entrant spent answering in the legs played (its budget is the match's)."""
        self._faults: dict[int, int] = {}
        """Faults that ended each entrant's process in the legs played (the limit is the
        match's: a disqualified entrant stays out of the later legs)."""
        self._strategies: tuple[list[Strategy] | None] | None = None
        """The first leg's agents' policies tabulated on the game (None inside: not all
        policy-backed), read once a match: a tabulated policy has no memory to reset."""

    def _start_leg(self) -> list[object]:
        self.agents = [build(self.game) for build in self._builders]
        for position, agent in enumerate(self.agents):
            if isinstance(agent, SandboxedAgent | ProcessEntrant):  # the store, entrants' files
                agent.hidden = tuple(dict.fromkeys((*agent.hidden, *self.hidden)))
            if isinstance(agent, SandboxedAgent | ExecutableAgent):
                # The time budget is the match's, not the leg's: earlier legs' time counts.
                spent = self._spent.get(position, 0.0)
                agent.seconds_used = min(spent, agent.limits.match_budget)
                agent.faults = min(self._faults.get(position, 0), agent.limits.max_faults)
                if spent >= agent.limits.match_budget or agent.faults >= agent.limits.max_faults:
                    agent.disqualified = True  # its budget or last fault was in an earlier leg
        return self.agents

    def _end_leg(self) -> None:
        for position, agent in enumerate(self.agents):
            close = getattr(agent, "close", None)
            if isinstance(agent, SandboxedAgent | ExecutableAgent):
                self._spent[position] = agent.seconds_used
                self._faults[position] = (agent.limits.max_faults if agent.disqualified
                                          else agent.faults)
            if isinstance(agent, SandboxedAgent | ProcessEntrant):
                agent.close()
                if agent.log:
                    self._logs.setdefault(position, []).append(agent.log)
            elif callable(close) and isinstance(agent, AgentConnection):
                with contextlib.suppress(Exception):
                    close()
        self.agents = []

    def batches(self) -> Iterator[MatchBatch]:
        """Play the missing hands; yield them a batch at a time (and a replay's verdict)."""
        done, leg = len(self.stored), self.leg
        for record in self.stored[:done - done % leg]:  # a resumed match's earlier legs
            for index, seconds in enumerate(record.seconds):
                self._spent[index] = self._spent.get(index, 0.0) + seconds
            for event in record.events:  # their times are not stored: their budget faults are
                if event.kind == "budget":
                    self._spent[event.agent] = math.inf
                elif event.kind == "disqualified":  # (its faults before are not counted)
                    self._faults[event.agent] = 1 << 30
        isolated: bool | None = None  # whether the last leg had one (None: not played here)
        for first in range(done - done % leg, self.match.hands, leg):
            if first > 0 and self.drop_caches and isolated is not False:
                drop_host_caches()  # the last leg's processes are gone: nothing it chose stays
            agents = self._start_leg()
            isolated = any(isinstance(a, SandboxedAgent | ProcessEntrant) for a in agents)
            try:
                yield from self._leg(agents, first, min(first + leg, self.match.hands), done)
            finally:
                self._end_leg()

    def _leg(
        self, agents: list[object], first: int, stop: int, done: int
    ) -> Iterator[MatchBatch]:
        """The batches of the leg of hands ``first..stop-1``, from hand ``max(first, done)``."""
        game, match, batch_size = self.game, self.match, self.batch_size
        check_agents(game, agents)
        start = max(first, done)
        if self._strategies is None:  # tabulating a 3-player Leduc policy takes seconds
            self._strategies = (_policies(game, agents),)
        strategies = self._strategies[0]
        if strategies is not None:
            for begin in range(start, stop, batch_size):
                end = min(begin + batch_size, stop)
                batch = sample_batch(game, strategies, start=begin, stop=end, seed=match.seed,
                                     leg=self.leg)
                yield MatchBatch(tuple(batch), end)
            return
        connections = [connect(agent, time_limit=self.time_limit) for agent in agents]
        if start > first:
            mismatches = replay_hands(game, connections, self.stored[first:start],
                                      seed=match.seed)
            if mismatches:
                yield MatchBatch((), start, mismatches)
        # Transports that follow the hand themselves (ACPC executables) listen to the dealer.
        listeners = [attach(index) for index, agent in enumerate(agents)
                     if callable(attach := getattr(agent, "dealer_listener", None))]
        records: list[HandRecord] = []
        for record in iter_hands(game, connections, hands=stop, seed=match.seed,
                                 time_limit=self.time_limit, start=start, listeners=listeners,
                                 leg=self.leg):
            records.append(record)
            if len(records) == batch_size:
                yield MatchBatch(tuple(records), record.hand + 1)
                records = []
        if records:
            yield MatchBatch(tuple(records), stop)

    def close(self) -> dict[int, str]:
        """Stop the agents; return what each isolated entrant printed (every leg), by position."""
        self._end_leg()
        return {position: "\n".join(parts) for position, parts in self._logs.items()}


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
                             stored=stored, drop_caches=plan.drop_caches)
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
