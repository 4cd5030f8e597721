"""An arena database in trouble gives one line naming the problem, never a traceback (issue 23).

A second writer reached through another name (a symbolic link, a hard link) is refused
like one through the same name; a corrupted, immutable or full-disk database, a read-only
folder, and a database of the previous schema each end the command with one line and exit
status 1. Texts an entrant controls (fault details, load errors, what it prints) are stored
bounded.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from pokerlab.arena import ArenaStore, builtin_entrants, run_tournament
from pokerlab.arena.store import database_problem
from pokerlab.arena.tournament import _writer_lock
from pokerlab.cli import main
from pokerlab.errors import PokerlabError
from pokerlab.games import kuhn
from pokerlab.play.records import FAULT_DETAIL_LIMIT, LOG_LIMIT, FaultEvent, HandRecord

ROOT = Path(__file__).resolve().parents[2]


def _entrants() -> list:  # type: ignore[type-arg]
    return [*builtin_entrants("random"), *builtin_entrants("always-call")]


def _run(db: Path, *extra: str) -> list[str]:
    return ["arena", "run", "kuhn", "--builtins", "random,always-call", "--hands", "30",
            "--db", str(db), *extra]


def _one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> str:
    assert main(argv) == 1
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1, err
    assert needle in err, err
    return err


@pytest.fixture
def finished(tmp_path: Path) -> Path:
    db = tmp_path / "arena.db"
    run_tournament(kuhn(), _entrants(), db=db, hands=30)
    return db


# -- the run lock ------------------------------------------------------------------------


def test_a_second_writer_through_a_symbolic_link_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "real" / "arena.db"
    link = tmp_path / "link.db"
    db.parent.mkdir()
    link.symlink_to(db)
    with _writer_lock(db) as lock:
        lock.note(7)
        with pytest.raises(PokerlabError) as caught:
            run_tournament(kuhn(), _entrants(), db=link, hands=5)
    message = str(caught.value)
    assert f"(process {os.getpid()}, run 7)" in message
    assert str(db) in message  # the real file is named beside the link
    assert "\n" not in message
    run_tournament(kuhn(), _entrants(), db=link, hands=5)  # released: the link works
    assert db.is_file()


def test_a_second_writer_through_a_hard_link_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    run_tournament(kuhn(), _entrants(), db=db, hands=5)
    other = tmp_path / "elsewhere" / "same.db"
    other.parent.mkdir()
    os.link(db, other)  # another name, another folder, the same inode
    with _writer_lock(db), pytest.raises(PokerlabError, match="being written by another"):
        run_tournament(kuhn(), _entrants(), db=other, hands=5, resume=True)


_HOLDER = """
import sys
from pathlib import Path
from pokerlab.arena.tournament import _writer_lock
with _writer_lock(Path(sys.argv[1])) as lock:
    lock.note(5)
    print("held", flush=True)
    sys.stdin.read()
"""


def test_a_writer_in_another_process_refuses_a_relative_path_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "runs" / "arena.db"
    db.parent.mkdir()
    (tmp_path / "other").mkdir()
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline() == "held\n"
        monkeypatch.chdir(tmp_path / "other")
        err = _one_line_error(capsys, _run(Path("..") / "other" / ".." / "runs" / "arena.db"),
                              "being written by another tournament")
        assert f"(process {holder.pid}, run 5)" in err
    finally:
        holder.communicate("", timeout=30)
    assert holder.returncode == 0
    assert main(_run(Path("../runs/arena.db"))) == 0  # released with its holder


def test_a_writer_through_a_bind_mount_of_the_file_is_refused(tmp_path: Path) -> None:
    """The file bind-mounted elsewhere (its own name, no ``.lock`` beside it): the inode lock."""
    db = tmp_path / "arena.db"
    run_tournament(kuhn(), _entrants(), db=db, hands=5)
    mounted = tmp_path / "elsewhere" / "mounted.db"
    mounted.parent.mkdir()
    mounted.touch()
    if shutil.which("unshare") is None or os.geteuid() != 0:
        pytest.skip("a bind mount needs root and unshare (the hard-link test checks the inode)")
    command = (f"mount --bind {db} {mounted} && exec {sys.executable} -m pokerlab.cli arena "
               f"run kuhn --builtins random,always-call --hands 5 --resume --db {mounted}")
    with _writer_lock(db):
        done = subprocess.run(["unshare", "-m", "sh", "-c", command], capture_output=True,
                              text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    if "mount:" in done.stderr or "unshare:" in done.stderr:
        pytest.skip(f"cannot bind-mount here: {done.stderr.strip()}")
    assert done.returncode == 1, done.stderr
    err = done.stderr.strip()
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1, err
    assert f"being written by another tournament (process {os.getpid()})" in err
    # The lock beside the name taken was another file: the inode's lock refused the writer.
    assert (mounted.parent / "mounted.db.lock").is_file()


def test_the_lock_is_released_when_its_holder_fails(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    with pytest.raises(RuntimeError), _writer_lock(db):
        raise RuntimeError
    with _writer_lock(db):
        pass


# -- damaged databases -------------------------------------------------------------------


def _damaged(finished: Path, how: str) -> Path:
    damaged = finished.with_name(f"{how}.db")
    shutil.copy(finished, damaged)
    size = damaged.stat().st_size
    if how == "truncated":
        os.truncate(damaged, size // 3)
        return damaged
    with damaged.open("r+b") as handle:
        handle.seek({"first-page": 100, "middle": size // 2}[how])
        handle.write(bytes(range(256)) * 16)
    return damaged


@pytest.mark.parametrize("how", ["first-page", "truncated", "middle"])
def test_a_corrupted_database_is_named_in_one_line(
    finished: Path, how: str, capsys: pytest.CaptureFixture[str]
) -> None:
    damaged = _damaged(finished, how)
    err = _one_line_error(capsys, _run(damaged, "--resume"), "is corrupted")
    assert str(damaged) in err
    _one_line_error(capsys, _run(damaged), "is corrupted")  # nor a new run added to it
    if how != "middle":  # a page the leaderboard never reads stays unseen by readers
        _one_line_error(capsys, ["arena", "leaderboard", "--db", str(damaged)], "is corrupted")


def test_a_database_of_the_previous_schema_is_read_but_never_written(
    finished: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with sqlite3.connect(finished) as conn:
        conn.execute("UPDATE meta SET value = '2' WHERE key = 'version'")
    with ArenaStore(finished, readonly=True) as store:  # the leaderboard reads it
        assert store.version == "2"
        assert store.runs()[0].hands == 30
    _one_line_error(capsys, _run(finished, "--resume"), "schema version 2")
    assert main(["arena", "leaderboard", "--db", str(finished)]) == 0


@contextmanager
def _immutable(path: Path) -> Iterator[None]:
    if os.geteuid() != 0 or shutil.which("chattr") is None:
        pytest.skip("chattr +i needs root and chattr (the monkeypatched test below runs anyway)")
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"this file system has no immutable files: {done.stderr.decode().strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_an_immutable_database_or_folder_is_named_in_one_line(
    finished: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with _immutable(finished):
        err = _one_line_error(capsys, _run(finished, "--resume"), "cannot be written")
        assert "read-only or immutable" in err
        assert main(["arena", "leaderboard", "--db", str(finished)]) == 0  # reading works
    folder = tmp_path / "frozen"
    folder.mkdir()
    with _immutable(folder):
        _one_line_error(capsys, _run(folder / "new.db"), "cannot be written")


class _FailingConnection:
    """An sqlite3 connection whose writes fail with ``message`` after ``after`` of them."""

    def __init__(self, inner: sqlite3.Connection, message: str, after: int) -> None:
        self._inner = inner
        self._message = message
        self._left = after

    def _write(self) -> None:
        self._left -= 1
        if self._left < 0:
            raise sqlite3.OperationalError(self._message)

    def execute(self, sql: str, *args: object) -> sqlite3.Cursor:
        if sql.lstrip().upper().startswith(("INSERT", "UPDATE")):
            self._write()
        return self._inner.execute(sql, *args)

    def executemany(self, sql: str, *args: object) -> sqlite3.Cursor:
        self._write()
        return self._inner.executemany(sql, *args)

    def close(self) -> None:
        self._inner.close()


@pytest.mark.parametrize(
    ("message", "needle"),
    [("database or disk is full", "is full"),
     ("attempt to write a readonly database", "cannot be written"),
     ("disk I/O error", "disk I/O error")],
)
def test_a_write_that_fails_midway_is_one_line_and_the_run_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    message: str, needle: str,
) -> None:
    import pokerlab.arena.store as store_module

    real_connect = sqlite3.connect

    def failing(*args: object, **kwargs: object) -> object:
        return _FailingConnection(real_connect(*args, **kwargs), message, after=10)  # type: ignore[arg-type]

    db = tmp_path / "arena.db"
    monkeypatch.setattr(store_module.sqlite3, "connect", failing)
    err = _one_line_error(capsys, _run(db, "--batch", "10"), needle)
    assert str(db) in err
    monkeypatch.setattr(store_module.sqlite3, "connect", real_connect)
    assert main(_run(db, "--resume", "--batch", "10")) == 0
    with ArenaStore(db, readonly=True) as store:
        assert sum(store.hands_done(m.id) for m in store.matches(1)) == 60


def test_database_problems_read_as_one_line() -> None:
    path = Path("a.db")
    assert "is full" in str(database_problem(path, OSError(28, "No space left on device")))
    assert "cannot be written" in str(database_problem(path, PermissionError(13, "denied")))
    assert "corrupted" in str(database_problem(path, ValueError("Expecting value")))
    assert "locked by another" in str(database_problem(path, sqlite3.OperationalError(
        "database is locked")))
    assert "\n" not in str(database_problem(path, OSError("two\nlines")))


SCRIPT = """
set -e
mount -t tmpfs -o size={size}k tmpfs {folder}
cd {root}
{python} -m pokerlab.cli arena run kuhn --builtins random,always-call,always-raise \\
    --hands 3000 --batch 50 --db {folder}/arena.db --json
"""


@pytest.mark.slow
def test_a_full_disk_is_named_in_one_line(tmp_path: Path) -> None:
    # A real full disk: a 200 KiB tmpfs, mounted in a mount namespace of this test's own.
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("mounting a tmpfs needs root and unshare (the monkeypatched test runs)")
    folder = tmp_path / "small"
    folder.mkdir()
    script = SCRIPT.format(size=200, folder=folder, root=ROOT, python=sys.executable)
    done = subprocess.run(["unshare", "--mount", "sh", "-c", script], capture_output=True,
                          text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          check=False)
    if "mount:" in done.stderr:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    assert done.returncode == 1, done.stderr
    err = done.stderr.strip()
    assert err.startswith("error: the disk holding arena database"), err
    assert "is full" in err
    assert len(err.splitlines()) == 1
    assert "Traceback" not in err


# -- bounded texts -----------------------------------------------------------------------


def test_fault_texts_load_errors_and_logs_are_stored_bounded(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    huge = "y" * 1_000_000
    with ArenaStore(db) as store:
        run = store.create_run(game="kuhn", players=2, hands=20, seed=2**127 + 5, batch_size=2,
                               time_limit=None, config={},
                               agents=[("a", "builtin:random", None), ("b", "b.py", huge)],
                               matches=[((0, 1), 2**100, 40)])
        (match,) = store.matches(run)
        records = [HandRecord(hand=h, deal=h, seats=(0, 1), returns=(1.0, -1.0), history=(0,),
                              events=(FaultEvent(h, 0, 0, "exception", huge, 1),))
                   for h in range(20)]
        store.write_hands(match.id, records)
        store.write_log(match.id, 0, huge)
        store.write_log(match.id, 0, huge)  # a resumed match extends it, bounded still
        assert store.run().seed == 2**127 + 5  # 128-bit seeds round-trip (stored as text)
        assert match.seed == 2**100
        assert all(len(e.detail) <= FAULT_DETAIL_LIMIT for e in store.events(match.id))
        assert len(str(store.agents(run)[1].error)) <= FAULT_DETAIL_LIMIT
        assert len(store.logs(match.id)[0]) <= LOG_LIMIT
        assert "characters cut" in store.logs(match.id)[0]
    # 20 megabytes of text went in; a few kilobytes per fault came out.
    assert db.stat().st_size < 400_000


def test_a_pipe_as_the_database_is_named_not_waited_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An attack review: `arena run --db PIPE` hung until killed (opening a pipe waits for
    # a writer) and `arena leaderboard --db PIPE` said the file did not exist
    pipe = tmp_path / "pipe.db"
    os.mkfifo(pipe)
    _one_line_error(capsys, _run(pipe), "is not a regular file")
    _one_line_error(capsys, ["arena", "leaderboard", "--db", str(pipe)], "is not a regular file")
    link = tmp_path / "link.db"
    link.symlink_to(pipe)
    _one_line_error(capsys, _run(link), "is not a regular file")


def test_a_pipe_put_in_place_after_the_check_is_refused_without_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pipe = tmp_path / "pipe.db"
    os.mkfifo(pipe)
    monkeypatch.setattr(Path, "exists", lambda self: False)  # the check saw nothing there
    with pytest.raises(PokerlabError, match="not a regular file"), _writer_lock(pipe):
        pass
