"""The arena's CLI: a read-only leaderboard, entrant logs kept with the run, incomplete runs."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import sqlite3
import tempfile
from pathlib import Path

import pytest

from pokerlab.arena import ArenaStore
from pokerlab.cli import main

pytestmark = pytest.mark.slow

TALKER = ("class Agent:\n    def act(self, observation):\n"
          "        print('TALKATIVE-BOT-SAYS-HELLO', flush=True)\n"
          "        return observation.legal_actions[0]\n")


@pytest.fixture(scope="module")
def run_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A finished run with a file entrant that prints: the database and the --json output."""
    folder = tmp_path_factory.mktemp("arena-gaps")
    agents = folder / "agents"
    agents.mkdir()
    (agents / "talker.py").write_text(TALKER)
    db = folder / "arena.db"
    # The bot runs in its own process: catch file descriptor 1 too, not only sys.stdout.
    with tempfile.TemporaryFile() as fd_out, io.StringIO() as text_out:
        saved = os.dup(1)
        os.dup2(fd_out.fileno(), 1)
        try:
            with contextlib.redirect_stdout(text_out):
                rc = main(["arena", "run", "kuhn", "--agents", str(agents), "--builtins",
                           "random", "--hands", "20", "--db", str(db), "--json"])
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        fd_out.seek(0)
        output = text_out.getvalue() + fd_out.read().decode()
    assert rc == 0
    return db, output


def test_a_bots_prints_never_reach_json_output(run_db: tuple[Path, str]) -> None:
    _, output = run_db
    assert "TALKATIVE-BOT-SAYS-HELLO" not in output
    data = json.loads(output)  # the whole output is one JSON document
    assert data["hands_played"] > 0


def test_the_entrants_log_is_stored_with_the_run(run_db: tuple[Path, str]) -> None:
    db, _ = run_db
    with ArenaStore(db, readonly=True) as store:
        matches = store.matches(store.run().id)
        texts = [t for m in matches for t in store.logs(m.id).values()]
    assert any("TALKATIVE-BOT-SAYS-HELLO" in t for t in texts)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_leaderboard_opens_the_database_read_only(
    run_db: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original, _ = run_db
    folder = tmp_path / "locked"
    folder.mkdir()
    db = folder / "arena.db"
    db.write_bytes(original.read_bytes())
    before = _digest(db)
    db.chmod(0o444)
    folder.chmod(0o555)
    try:
        assert main(["arena", "leaderboard", "--db", str(db), "--json"]) == 0
        data = json.loads(capsys.readouterr().out)
        assert {s["name"] for s in data["standings"]} == {"talker", "random"}
        assert main(["arena", "leaderboard", "--db", str(db)]) == 0
        assert "talker" in capsys.readouterr().out
    finally:
        folder.chmod(0o755)
        db.chmod(0o644)
    assert _digest(db) == before
    assert sorted(p.name for p in folder.iterdir()) == ["arena.db"]  # no -wal, no -shm


def test_an_unfinished_run_is_labelled_incomplete(
    run_db: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    original, _ = run_db
    db = tmp_path / "unfinished.db"
    db.write_bytes(original.read_bytes())
    assert main(["arena", "leaderboard", "--db", str(db)]) == 0
    assert "(incomplete)" not in capsys.readouterr().out
    with sqlite3.connect(db) as conn:  # as a run killed mid-match leaves it
        conn.execute("UPDATE match SET finished = NULL WHERE id = (SELECT MAX(id) FROM match)")
        conn.execute("UPDATE run SET finished = NULL")
    conn.close()
    assert main(["arena", "leaderboard", "--db", str(db)]) == 0
    assert "(incomplete)" in capsys.readouterr().out
    assert main(["arena", "leaderboard", "--db", str(db), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["complete"] is False
