"""The arena's SQLite store: runs, agents, matches of 2 to 9 seats, one row per hand, faults.

Standard-library ``sqlite3`` in WAL mode. Hands are written one transaction per batch,
and ``UNIQUE(match_id, hand_index)`` makes a duplicated hand an error rather than a
silent double count, so after a crash (even SIGKILL) the database holds every committed
batch of every match exactly once: a resumed run continues after the last committed hand.

A database is pokerlab's when its ``meta`` table says so (format ``pokerlab-arena``,
version :data:`SCHEMA_VERSION`); any other SQLite file is refused before anything is
written to it. ``ArenaStore(path, readonly=True)`` opens it read-only (the leaderboard).

Whatever goes wrong with the file itself (a corrupted database, a read-only or immutable
file or folder, a full disk, an I/O error) is a one-line :class:`PokerlabError` naming the
database and the problem (:func:`database_problem`), never SQLite's traceback. Texts an
entrant controls are stored bounded: a fault's detail and a load error at most
:data:`~pokerlab.play.records.FAULT_DETAIL_LIMIT` characters, what it printed at most
:data:`~pokerlab.play.records.LOG_LIMIT` per match.

Schema (a match's agents are numbered 0..n-1 by their *position* in the match)::

    meta(key, value)
    run(id, game, players, hands, seed, batch_size, time_limit, created, finished, config)
        -- seed: the run's secret (decimal text: 128 bits do not fit an SQLite integer)
    agent(id, run_id, position, name, source, error)     -- error: why it could not load
    match(id, run_id, match_index, seed, hands, finished)    -- seed: decimal text
    match_agent(match_id, position, agent_id)
    hand(match_id, hand_index, deal, seats, returns, agent_returns, history)
        -- seats: the position of the agent in each seat; returns: chips by seat;
        -- agent_returns: chips by position (JSON lists)
    event(id, match_id, hand_index, seat, agent, kind, detail, action)  -- agent: position
    log(match_id, position, text)   -- what an isolated entrant printed (bounded)
"""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from pokerlab.errors import PokerlabError
from pokerlab.play.records import (
    FAULT_DETAIL_LIMIT,
    LOG_LIMIT,
    FaultEvent,
    HandRecord,
    bounded_text,
)

FORMAT = "pokerlab-arena"
SCHEMA_VERSION = 3
"""Version 3: secret seeds (128 bits, stored as decimal text). Version 2 (64-bit seeds of
the public deal stream) is read (leaderboards) but never written; version 1 is not read."""
READABLE_VERSIONS = ("2", "3")

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE run (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    hands INTEGER NOT NULL,
    seed TEXT NOT NULL,
    batch_size INTEGER NOT NULL,
    time_limit REAL,
    created REAL NOT NULL,
    finished REAL,
    config TEXT NOT NULL
);
CREATE TABLE agent (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES run(id),
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    source TEXT NOT NULL,
    error TEXT,
    UNIQUE (run_id, name)
);
CREATE TABLE match (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES run(id),
    match_index INTEGER NOT NULL,
    seed TEXT NOT NULL,
    hands INTEGER NOT NULL,
    finished REAL,
    UNIQUE (run_id, match_index)
);
CREATE TABLE match_agent (
    match_id INTEGER NOT NULL REFERENCES match(id),
    position INTEGER NOT NULL,
    agent_id INTEGER NOT NULL REFERENCES agent(id),
    PRIMARY KEY (match_id, position)
);
CREATE TABLE hand (
    match_id INTEGER NOT NULL REFERENCES match(id),
    hand_index INTEGER NOT NULL,
    deal INTEGER NOT NULL,
    seats TEXT NOT NULL,
    returns TEXT NOT NULL,
    agent_returns TEXT NOT NULL,
    history TEXT NOT NULL,
    UNIQUE (match_id, hand_index)
);
CREATE TABLE event (
    id INTEGER PRIMARY KEY,
    match_id INTEGER REFERENCES match(id),
    hand_index INTEGER,
    seat INTEGER,
    agent INTEGER,
    kind TEXT NOT NULL,
    detail TEXT NOT NULL,
    action INTEGER
);
CREATE INDEX event_match ON event (match_id, hand_index);
CREATE TABLE log (
    match_id INTEGER NOT NULL REFERENCES match(id),
    position INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (match_id, position)
);
"""


def _readonly_uri(path: Path) -> str:
    """The URI that reads ``path`` without writing anything beside it.

    ``mode=ro`` alone still creates ``-wal`` and ``-shm`` files beside a WAL database
    (and can, where the folder is writable). A database at rest (no ``-wal`` file: every
    writer closed and checkpointed) is opened ``immutable``, which creates nothing; while a
    writer has it open (a ``-wal`` file exists, so its companions already do) it is opened
    ``mode=ro``, which honours the writer's locks.
    """
    uri = f"{path.resolve().as_uri()}?mode=ro"
    if not Path(f"{path}-wal").exists():
        uri += "&immutable=1"
    return uri


def database_problem(path: Path, error: BaseException) -> PokerlabError:
    """The one-line error that names what is wrong with arena database ``path``.

    SQLite and the operating system say it in their words (``database disk image is
    malformed``, ``attempt to write a readonly database``, ``database or disk is full``,
    ``[Errno 28] No space left on device``); this says which database, what it means and
    what to do.
    """
    shown = repr(str(path))
    said = " ".join(str(error).split()) or type(error).__name__
    text = said.lower()
    code = getattr(error, "errno", None)
    if "malformed" in text or "not a database" in text or "corrupt" in text or isinstance(
        error, ValueError
    ):
        return PokerlabError(
            f"arena database {shown} is corrupted ({said}); restore it from a copy, or start "
            "a new database with another --db"
        )
    if "full" in text or code == errno.ENOSPC:
        return PokerlabError(
            f"the disk holding arena database {shown} is full ({said}); free some space, then "
            "run again with --resume (every stored batch is kept)"
        )
    if "readonly" in text or "read-only" in text or code in (errno.EACCES, errno.EPERM,
                                                            errno.EROFS):
        return PokerlabError(
            f"arena database {shown} cannot be written ({said}): the file, its folder or its "
            "file system is read-only or immutable; give a writable --db"
        )
    if "locked" in text or "busy" in text:
        return PokerlabError(
            f"arena database {shown} is locked by another process ({said}); wait for it, "
            "then try again"
        )
    if "unable to open" in text:
        return PokerlabError(
            f"arena database {shown} cannot be opened ({said}); check that its folder exists "
            "and can be written"
        )
    return PokerlabError(f"arena database {shown}: {said}")


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _translated(
    method: Callable[Concatenate[ArenaStore, _P], _R],
) -> Callable[Concatenate[ArenaStore, _P], _R]:
    """Turn SQLite's and the file system's errors inside ``method`` into one-line errors."""

    def wrapper(self: ArenaStore, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return method(self, *args, **kwargs)
        except (PokerlabError, sqlite3.IntegrityError):  # IntegrityError: a bug, not the file
            raise
        except (sqlite3.Error, OSError, ValueError) as error:  # ValueError: a corrupted row
            raise database_problem(self.path, error) from None

    functools.update_wrapper(wrapper, method)  # the method's name and docstring
    return wrapper


@dataclass(frozen=True)
class RunRow:
    """A tournament run as stored (``seed``: its secret; never give it to an entrant)."""

    id: int
    game: str
    players: int
    hands: int
    seed: int
    batch_size: int
    time_limit: float | None
    finished: float | None
    config: dict[str, Any]


@dataclass(frozen=True)
class AgentRow:
    """An entrant of a run; ``error`` says why it could not be loaded (then it plays no match)."""

    id: int
    position: int
    name: str
    source: str
    error: str | None


@dataclass(frozen=True)
class MatchRow:
    """A match of a run: its agents (agent ids, by position in the match), seed and size."""

    id: int
    match_index: int
    agents: tuple[int, ...]
    seed: int
    hands: int
    finished: float | None


def _is_empty(db: sqlite3.Connection) -> bool:
    return int(db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]) == 0


class ArenaStore:
    """A connection to an arena database.

    Args:
        path: the database file.
        create: create the file (and its tables) when missing; else refuse a missing file.
        readonly: open read-only (nothing is ever written; for the leaderboard).

    Raises:
        PokerlabError: a folder, a missing file (unless ``create``), a file that is not an
            SQLite database, or an SQLite database that is not a pokerlab arena (nothing is
            written to it then).
    """

    def __init__(self, path: str | Path, *, create: bool = True, readonly: bool = False) -> None:
        self.path = Path(path)
        shown = str(self.path)
        if self.path.is_dir():
            raise PokerlabError(f"arena database {shown!r} is a folder; give a file name")
        if self.path.exists() and not self.path.is_file():  # SQLite would wait on a pipe
            raise PokerlabError(f"arena database {shown!r} is not a regular file (a pipe, a "
                                "device or a socket); give a database file")
        if (readonly or not create) and not self.path.is_file():
            raise PokerlabError(f"arena database {shown!r} does not exist")
        self.readonly = readonly
        self.version = str(SCHEMA_VERSION)
        try:
            if readonly:
                self._db = sqlite3.connect(_readonly_uri(self.path), uri=True,
                                           isolation_level=None)
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
        except (sqlite3.Error, OSError) as exc:
            raise database_problem(self.path, exc) from None
        try:
            try:
                empty = _is_empty(self._db)
            except sqlite3.DatabaseError as exc:
                if "not a database" not in str(exc):
                    raise
                raise PokerlabError(
                    f"{shown!r} is not a pokerlab arena database: not an SQLite file ({exc})"
                ) from None
            if empty and not readonly:
                self._create()
            else:
                self._check_format(empty)
                if not readonly:
                    self._check_integrity()
            if not readonly:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
        except PokerlabError:
            self._db.close()
            raise
        except (sqlite3.Error, OSError, ValueError) as exc:
            self._db.close()
            raise database_problem(self.path, exc) from None
        except BaseException:
            self._db.close()
            raise

    def _create(self) -> None:
        with self.transaction() as db:
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.executemany(
                "INSERT INTO meta (key, value) VALUES (?, ?)",
                [("format", FORMAT), ("version", str(SCHEMA_VERSION))],
            )

    def _check_format(self, empty: bool) -> None:
        shown = str(self.path)
        if empty:
            raise PokerlabError(f"{shown!r} is an empty database, not a pokerlab arena database")
        tables = [r[0] for r in self._db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        meta: dict[str, str] = {}
        if "meta" in tables:
            try:
                meta = dict(self._db.execute("SELECT key, value FROM meta").fetchall())
            except sqlite3.DatabaseError:
                meta = {}
        if meta.get("format") != FORMAT:
            if {"run", "match", "hand"} <= set(tables) and "meta" not in tables:
                raise PokerlabError(
                    f"{shown!r} is an arena database of an older pokerlab (schema 1, two seats); "
                    "start a new database with another --db"
                )
            raise PokerlabError(
                f"{shown!r} is not a pokerlab arena database (its tables: "
                f"{', '.join(tables[:6]) or 'none'}); nothing was written to it"
            )
        version = meta.get("version")
        if version == str(SCHEMA_VERSION) or (self.readonly and version in READABLE_VERSIONS):
            self.version = str(version)
            return
        if version in READABLE_VERSIONS:
            raise PokerlabError(
                f"{shown!r} is an arena database of schema version {version} (seeds of the "
                f"public deal stream, before secret deals); this pokerlab reads it but writes "
                f"version {SCHEMA_VERSION} only: start a new database with another --db"
            )
        raise PokerlabError(
            f"{shown!r} is an arena database of schema version {version}; this pokerlab "
            f"reads versions {', '.join(READABLE_VERSIONS)}"
        )

    def _check_integrity(self) -> None:
        """Refuse to write a database SQLite finds damaged (``quick_check``: every page read).

        A writer checks once when it opens an existing database, so that a run never adds
        to a corrupted file; readers meet damage as an error of the query that reaches it.
        """
        problems = [str(row[0]) for row in self._db.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            raise PokerlabError(
                f"arena database {str(self.path)!r} is corrupted ({'; '.join(problems)[:300]}); "
                "restore it from a copy, or start a new database with another --db"
            )

    def close(self) -> None:
        """Close the connection."""
        self._db.close()

    def __enter__(self) -> ArenaStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic transaction (committed on success, rolled back on error)."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            # SQLite may have rolled back already (a full disk): the first error is the one.
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # -- runs, agents, matches -------------------------------------------------------------
    @_translated
    def create_run(
        self,
        *,
        game: str,
        players: int,
        hands: int,
        seed: int,
        batch_size: int,
        time_limit: float | None,
        config: dict[str, Any],
        agents: Sequence[tuple[str, str, str | None]],
        matches: Sequence[tuple[tuple[int, ...], int, int]],
    ) -> int:
        """Record a run with its agents ``(name, source, error)`` and matches, atomically.

        ``matches`` are ``(entrant positions of the match's agents, seed, hands)`` in play order.
        """
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT INTO run (game, players, hands, seed, batch_size, time_limit, created, "
                "config) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game, players, hands, str(int(seed)), batch_size, time_limit, time.time(),
                 json.dumps(config)),
            )
            run_id = int(cursor.lastrowid or 0)
            ids = []
            for position, (name, source, error) in enumerate(agents):
                cursor = db.execute(
                    "INSERT INTO agent (run_id, position, name, source, error) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (run_id, position, name, source,
                     None if error is None else bounded_text(error, FAULT_DETAIL_LIMIT)),
                )
                ids.append(int(cursor.lastrowid or 0))
            for index, (members, match_seed, match_hands) in enumerate(matches):
                cursor = db.execute(
                    "INSERT INTO match (run_id, match_index, seed, hands) VALUES (?, ?, ?, ?)",
                    (run_id, index, str(int(match_seed)), match_hands),
                )
                match_id = int(cursor.lastrowid or 0)
                db.executemany(
                    "INSERT INTO match_agent (match_id, position, agent_id) VALUES (?, ?, ?)",
                    [(match_id, k, ids[member]) for k, member in enumerate(members)],
                )
        return run_id

    @_translated
    def runs(self) -> list[RunRow]:
        """Every run, oldest first."""
        rows = self._db.execute(
            "SELECT id, game, players, hands, seed, batch_size, time_limit, finished, config "
            "FROM run ORDER BY id"
        ).fetchall()
        return [
            RunRow(r[0], r[1], r[2], r[3], int(r[4]), r[5], r[6], r[7], json.loads(r[8]))
            for r in rows
        ]

    @_translated
    def run(self, run_id: int | None = None) -> RunRow:
        """The run ``run_id``, or the latest.

        Raises:
            PokerlabError: if the database has no such run.
        """
        runs = self.runs()
        if not runs:
            raise PokerlabError(f"{str(self.path)!r} holds no arena run; start one with "
                                "`pokerlab arena run`")
        if run_id is None:
            return runs[-1]
        for row in runs:
            if row.id == run_id:
                return row
        raise PokerlabError(f"{str(self.path)!r} has no run {run_id}; runs: "
                            f"{[r.id for r in runs]}")

    @_translated
    def entrant_sources(self) -> list[str]:
        """Where every entrant of every run came from (``builtin:NAME`` or a file)."""
        return [str(r[0]) for r in self._db.execute("SELECT DISTINCT source FROM agent")]

    @_translated
    def finish_run(self, run_id: int) -> None:
        """Mark a run finished."""
        self._db.execute("UPDATE run SET finished = ? WHERE id = ?", (time.time(), run_id))

    @_translated
    def agents(self, run_id: int) -> list[AgentRow]:
        """The run's entrants, in entry order."""
        rows = self._db.execute(
            "SELECT id, position, name, source, error FROM agent WHERE run_id = ? "
            "ORDER BY position",
            (run_id,),
        ).fetchall()
        return [AgentRow(*r) for r in rows]

    @_translated
    def matches(self, run_id: int) -> list[MatchRow]:
        """The run's matches, in play order."""
        rows = self._db.execute(
            "SELECT id, match_index, seed, hands, finished FROM match WHERE run_id = ? "
            "ORDER BY match_index",
            (run_id,),
        ).fetchall()
        members: dict[int, list[int]] = {}
        for match_id, agent_id in self._db.execute(
            "SELECT ma.match_id, ma.agent_id FROM match_agent ma JOIN match m "
            "ON ma.match_id = m.id WHERE m.run_id = ? ORDER BY ma.match_id, ma.position",
            (run_id,),
        ):
            members.setdefault(match_id, []).append(agent_id)
        return [MatchRow(r[0], r[1], tuple(members.get(r[0], ())), int(r[2]), r[3], r[4])
                for r in rows]

    @_translated
    def finish_match(self, match_id: int) -> None:
        """Mark a match finished."""
        self._db.execute("UPDATE match SET finished = ? WHERE id = ?", (time.time(), match_id))

    # -- hands and events --------------------------------------------------------------------
    @_translated
    def hands_done(self, match_id: int) -> int:
        """Number of hands of the match stored so far."""
        row = self._db.execute("SELECT COUNT(*) FROM hand WHERE match_id = ?", (match_id,))
        return int(row.fetchone()[0])

    @_translated
    def write_hands(self, match_id: int, records: Sequence[HandRecord]) -> None:
        """Store a batch of hands and their events in one transaction."""
        with self.transaction() as db:
            db.executemany(
                "INSERT INTO hand (match_id, hand_index, deal, seats, returns, agent_returns, "
                "history) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        match_id,
                        r.hand,
                        r.deal,
                        json.dumps(list(r.seats)),
                        json.dumps(list(r.returns)),
                        json.dumps(list(r.agent_returns())),
                        json.dumps(list(r.history)),
                    )
                    for r in records
                ],
            )
            db.executemany(
                "INSERT INTO event (match_id, hand_index, seat, agent, kind, detail, action) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (match_id, e.hand, e.seat, e.agent, e.kind[:40],
                     bounded_text(e.detail, FAULT_DETAIL_LIMIT), e.action)
                    for r in records
                    for e in r.events
                ],
            )

    @_translated
    def write_event(self, match_id: int, hand: int, kind: str, detail: str) -> None:
        """Store an event of the match that belongs to no seat (a replay mismatch)."""
        with self.transaction() as db:
            db.execute(
                "INSERT INTO event (match_id, hand_index, seat, agent, kind, detail, action) "
                "VALUES (?, ?, NULL, NULL, ?, ?, -1)",
                (match_id, hand, kind, bounded_text(detail, FAULT_DETAIL_LIMIT)),
            )

    @_translated
    def write_log(self, match_id: int, position: int, text: str) -> None:
        """Store (or extend, on a resumed match) what an entrant printed during a match.

        At most :data:`~pokerlab.play.records.LOG_LIMIT` characters are kept per entrant
        per match: the head and the tail, with a marker saying how much was cut.
        """
        with self.transaction() as db:
            row = db.execute("SELECT text FROM log WHERE match_id = ? AND position = ?",
                             (match_id, position)).fetchone()
            if row is None:
                db.execute("INSERT INTO log (match_id, position, text) VALUES (?, ?, ?)",
                           (match_id, position, bounded_text(text, LOG_LIMIT)))
            else:
                whole = str(row[0]) + "\n" + bounded_text(text, LOG_LIMIT)
                db.execute("UPDATE log SET text = ? WHERE match_id = ? AND position = ?",
                           (bounded_text(whole, LOG_LIMIT), match_id, position))

    @_translated
    def logs(self, match_id: int) -> dict[int, str]:
        """What each isolated entrant of the match printed, by position."""
        rows = self._db.execute("SELECT position, text FROM log WHERE match_id = ?",
                                (match_id,)).fetchall()
        return {int(position): str(text) for position, text in rows}

    @_translated
    def hands(self, match_id: int) -> list[HandRecord]:
        """The stored hands of a match, in order, as records (with their events)."""
        events: dict[int, list[FaultEvent]] = {}
        for e in self.events(match_id):
            events.setdefault(e.hand, []).append(e)
        rows = self._db.execute(
            "SELECT hand_index, deal, seats, returns, history FROM hand WHERE match_id = ? "
            "ORDER BY hand_index",
            (match_id,),
        ).fetchall()
        return [
            HandRecord(
                hand=r[0],
                deal=r[1],
                seats=tuple(json.loads(r[2])),
                returns=tuple(json.loads(r[3])),
                history=tuple(json.loads(r[4])),
                events=tuple(events.get(r[0], ())),
            )
            for r in rows
        ]

    @_translated
    def hand(self, match_id: int, hand_index: int) -> HandRecord | None:
        """One stored hand of a match with its events, or None (an indexed lookup: replays)."""
        row = self._db.execute(
            "SELECT hand_index, deal, seats, returns, history FROM hand WHERE match_id = ? "
            "AND hand_index = ?",
            (match_id, hand_index),
        ).fetchone()
        if row is None:
            return None
        events = self._db.execute(
            "SELECT hand_index, seat, agent, kind, detail, action FROM event "
            "WHERE match_id = ? AND hand_index = ? ORDER BY id",
            (match_id, hand_index),
        ).fetchall()
        return HandRecord(
            hand=row[0],
            deal=row[1],
            seats=tuple(json.loads(row[2])),
            returns=tuple(json.loads(row[3])),
            history=tuple(json.loads(row[4])),
            events=tuple(FaultEvent(*e) for e in events),
        )

    @_translated
    def hand_table(self, run_id: int) -> list[tuple[Any, ...]]:
        """Every hand of a run as ``(match_index, hand_index, deal, seats, returns, history)``."""
        return self._db.execute(
            "SELECT m.match_index, h.hand_index, h.deal, h.seats, h.returns, h.history "
            "FROM hand h JOIN match m ON h.match_id = m.id WHERE m.run_id = ? "
            "ORDER BY m.match_index, h.hand_index",
            (run_id,),
        ).fetchall()

    @_translated
    def agent_returns(self, match_id: int) -> list[tuple[int, list[float]]]:
        """``(deal, chips won by each agent position)`` for every hand of the match, in order."""
        rows = self._db.execute(
            "SELECT deal, agent_returns FROM hand WHERE match_id = ? ORDER BY hand_index",
            (match_id,),
        ).fetchall()
        return [(int(deal), json.loads(values)) for deal, values in rows]

    @_translated
    def events(self, match_id: int | None = None, *, run_id: int | None = None) -> list[FaultEvent]:
        """Fault events of one match, or of every match of a run (``agent`` is the position)."""
        if match_id is not None:
            rows = self._db.execute(
                "SELECT hand_index, seat, agent, kind, detail, action FROM event "
                "WHERE match_id = ? ORDER BY id",
                (match_id,),
            ).fetchall()
        else:
            rows = self._db.execute(
                "SELECT e.hand_index, e.seat, e.agent, e.kind, e.detail, e.action FROM event e "
                "JOIN match m ON e.match_id = m.id WHERE m.run_id = ? ORDER BY e.id",
                (run_id,),
            ).fetchall()
        return [FaultEvent(*r) for r in rows]


__all__ = [
    "FORMAT",
    "READABLE_VERSIONS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "AgentRow",
    "ArenaStore",
    "MatchRow",
    "RunRow",
    "database_problem",
]
