"""The arena's SQLite store: runs, agents, matches, one row per hand, fault events.

Standard-library ``sqlite3`` in WAL mode. Hands are written one transaction per batch,
and ``UNIQUE(match_id, hand_index)`` makes a duplicated hand an error rather than a
silent double count, so after a crash (even SIGKILL) the database holds every committed
batch of every match exactly once: a resumed run continues after the last committed hand.

Schema::

    run(id, game, hands, seed, batch_size, time_limit, created, finished, config)
    agent(id, run_id, position, name, source, error)        -- error: why it could not load
    match(id, run_id, match_index, agent_a, agent_b, seed, hands, finished)
    hand(match_id, hand_index, deal, seat_a, return_a, returns, history)
    event(id, match_id, hand_index, seat, agent, kind, detail, action)
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pokerlab.errors import PokerlabError
from pokerlab.eval.matches import FaultEvent, HandRecord

SCHEMA = """
CREATE TABLE IF NOT EXISTS run (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    hands INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    batch_size INTEGER NOT NULL,
    time_limit REAL,
    created REAL NOT NULL,
    finished REAL,
    config TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS agent (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES run(id),
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    source TEXT NOT NULL,
    error TEXT,
    UNIQUE (run_id, name)
);
CREATE TABLE IF NOT EXISTS match (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES run(id),
    match_index INTEGER NOT NULL,
    agent_a INTEGER NOT NULL REFERENCES agent(id),
    agent_b INTEGER NOT NULL REFERENCES agent(id),
    seed INTEGER NOT NULL,
    hands INTEGER NOT NULL,
    finished REAL,
    UNIQUE (run_id, match_index)
);
CREATE TABLE IF NOT EXISTS hand (
    match_id INTEGER NOT NULL REFERENCES match(id),
    hand_index INTEGER NOT NULL,
    deal INTEGER NOT NULL,
    seat_a INTEGER NOT NULL,
    return_a REAL NOT NULL,
    returns TEXT NOT NULL,
    history TEXT NOT NULL,
    UNIQUE (match_id, hand_index)
);
CREATE TABLE IF NOT EXISTS event (
    id INTEGER PRIMARY KEY,
    match_id INTEGER REFERENCES match(id),
    hand_index INTEGER,
    seat INTEGER,
    agent INTEGER,
    kind TEXT NOT NULL,
    detail TEXT NOT NULL,
    action INTEGER
);
CREATE INDEX IF NOT EXISTS event_match ON event (match_id, hand_index);
"""


@dataclass(frozen=True)
class RunRow:
    """A tournament run as stored."""

    id: int
    game: str
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
    """A match of a run: agents ``a`` and ``b`` (agent ids), its seed and size."""

    id: int
    match_index: int
    agent_a: int
    agent_b: int
    seed: int
    hands: int
    finished: float | None


class ArenaStore:
    """A connection to an arena database (created on first use).

    Args:
        path: the database file.
    """

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        if self.path.is_dir():
            raise PokerlabError(f"arena database {str(self.path)!r} is a folder; give a file name")
        if not create and not self.path.is_file():
            raise PokerlabError(f"arena database {str(self.path)!r} does not exist")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise PokerlabError(
                f"{str(self.path)!r} is not a pokerlab arena database ({exc})"
            ) from None

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
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # -- runs, agents, matches -------------------------------------------------------------
    def create_run(
        self,
        *,
        game: str,
        hands: int,
        seed: int,
        batch_size: int,
        time_limit: float | None,
        config: dict[str, Any],
        agents: Sequence[tuple[str, str, str | None]],
        matches: Sequence[tuple[int, int, int, int]],
    ) -> int:
        """Record a run with its agents ``(name, source, error)`` and matches, atomically.

        ``matches`` are ``(position_a, position_b, seed, hands)`` in play order.
        """
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT INTO run (game, hands, seed, batch_size, time_limit, created, config) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game, hands, seed, batch_size, time_limit, time.time(), json.dumps(config)),
            )
            run_id = int(cursor.lastrowid or 0)
            ids = []
            for position, (name, source, error) in enumerate(agents):
                cursor = db.execute(
                    "INSERT INTO agent (run_id, position, name, source, error) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (run_id, position, name, source, error),
                )
                ids.append(int(cursor.lastrowid or 0))
            for index, (a, b, match_seed, match_hands) in enumerate(matches):
                db.execute(
                    "INSERT INTO match (run_id, match_index, agent_a, agent_b, seed, hands) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (run_id, index, ids[a], ids[b], match_seed, match_hands),
                )
        return run_id

    def runs(self) -> list[RunRow]:
        """Every run, oldest first."""
        rows = self._db.execute(
            "SELECT id, game, hands, seed, batch_size, time_limit, finished, config FROM run "
            "ORDER BY id"
        ).fetchall()
        return [RunRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], json.loads(r[7])) for r in rows]

    def run(self, run_id: int | None = None) -> RunRow:
        """The run ``run_id``, or the latest.

        Raises:
            PokerlabError: if the database has no such run.
        """
        runs = self.runs()
        if not runs:
            raise PokerlabError(f"{self.path} holds no arena run; start one with `arena run`")
        if run_id is None:
            return runs[-1]
        for row in runs:
            if row.id == run_id:
                return row
        raise PokerlabError(f"{self.path} has no run {run_id}; runs: {[r.id for r in runs]}")

    def finish_run(self, run_id: int) -> None:
        """Mark a run finished."""
        self._db.execute("UPDATE run SET finished = ? WHERE id = ?", (time.time(), run_id))

    def agents(self, run_id: int) -> list[AgentRow]:
        """The run's entrants, in entry order."""
        rows = self._db.execute(
            "SELECT id, position, name, source, error FROM agent WHERE run_id = ? "
            "ORDER BY position",
            (run_id,),
        ).fetchall()
        return [AgentRow(*r) for r in rows]

    def matches(self, run_id: int) -> list[MatchRow]:
        """The run's matches, in play order."""
        rows = self._db.execute(
            "SELECT id, match_index, agent_a, agent_b, seed, hands, finished FROM match "
            "WHERE run_id = ? ORDER BY match_index",
            (run_id,),
        ).fetchall()
        return [MatchRow(*r) for r in rows]

    def finish_match(self, match_id: int) -> None:
        """Mark a match finished."""
        self._db.execute("UPDATE match SET finished = ? WHERE id = ?", (time.time(), match_id))

    # -- hands and events --------------------------------------------------------------------
    def hands_done(self, match_id: int) -> int:
        """Number of hands of the match stored so far."""
        row = self._db.execute("SELECT COUNT(*) FROM hand WHERE match_id = ?", (match_id,))
        return int(row.fetchone()[0])

    def write_hands(self, match_id: int, records: Sequence[HandRecord]) -> None:
        """Store a batch of hands and their events in one transaction."""
        with self.transaction() as db:
            db.executemany(
                "INSERT INTO hand (match_id, hand_index, deal, seat_a, return_a, returns, history)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        match_id,
                        r.hand,
                        r.deal,
                        r.seats.index(0),
                        r.agent_returns()[0],
                        json.dumps(r.returns),
                        json.dumps(r.history),
                    )
                    for r in records
                ],
            )
            db.executemany(
                "INSERT INTO event (match_id, hand_index, seat, agent, kind, detail, action) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (match_id, e.hand, e.seat, e.agent, e.kind, e.detail, e.action)
                    for r in records
                    for e in r.events
                ],
            )

    def hands(self, match_id: int) -> list[HandRecord]:
        """The stored hands of a match, in order, as records (with their events)."""
        events: dict[int, list[FaultEvent]] = {}
        for e in self.events(match_id):
            events.setdefault(e.hand, []).append(e)
        rows = self._db.execute(
            "SELECT hand_index, deal, seat_a, returns, history FROM hand WHERE match_id = ? "
            "ORDER BY hand_index",
            (match_id,),
        ).fetchall()
        return [
            HandRecord(
                hand=r[0],
                deal=r[1],
                seats=(0, 1) if r[2] == 0 else (1, 0),
                returns=tuple(json.loads(r[3])),
                history=tuple(json.loads(r[4])),
                events=tuple(events.get(r[0], ())),
            )
            for r in rows
        ]

    def hand_table(self, run_id: int) -> list[tuple[Any, ...]]:
        """Every hand of a run as ``(match_index, hand_index, deal, seat_a, returns, history)``."""
        return self._db.execute(
            "SELECT m.match_index, h.hand_index, h.deal, h.seat_a, h.returns, h.history "
            "FROM hand h JOIN match m ON h.match_id = m.id WHERE m.run_id = ? "
            "ORDER BY m.match_index, h.hand_index",
            (run_id,),
        ).fetchall()

    def agent_returns(self, match_id: int) -> list[tuple[int, float]]:
        """``(deal, chips won by agent a)`` for every hand of the match, in order."""
        return self._db.execute(
            "SELECT deal, return_a FROM hand WHERE match_id = ? ORDER BY hand_index",
            (match_id,),
        ).fetchall()

    def events(self, match_id: int | None = None, *, run_id: int | None = None) -> list[FaultEvent]:
        """Fault events of one match, or of every match of a run."""
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


__all__ = ["SCHEMA", "AgentRow", "ArenaStore", "MatchRow", "RunRow"]
