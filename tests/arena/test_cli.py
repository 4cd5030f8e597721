from __future__ import annotations

import json
import os
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pokerlab.cli import main


def test_arena_run_and_leaderboard(tmp_path, bot_cache, capsys) -> None:
    folder = tmp_path / "agents"
    folder.mkdir()
    (folder / "caller.py").write_text(
        "class Agent:\n    def act(self, observation):\n        return 1\n"
    )
    (folder / "broken.py").write_text("raise ImportError('missing dependency')\n")
    db = tmp_path / "arena.db"
    rc = main(["arena", "run", "kuhn", "--agents", str(folder), "--builtins",
               "random,cfr+100", "--hands", "100", "--db", str(db), "--cache-dir",
               str(bot_cache)])
    captured = capsys.readouterr()
    assert rc == 0
    assert "broken.py" in captured.err
    assert "missing dependency" in captured.err
    assert "cfr+100" in captured.out
    assert "head to head" in captured.out
    rc = main(["arena", "leaderboard", "--db", str(db), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert {s["name"] for s in data["standings"]} == {"caller", "random", "cfr+100"}
    assert data["failed"][0]["name"] == "broken"
    assert data["complete"]


def test_arena_errors_are_one_line(tmp_path, capsys) -> None:
    rc = main(["arena", "leaderboard", "--db", str(tmp_path / "empty.db")])
    assert rc == 1
    assert "does not exist" in capsys.readouterr().err
    assert not (tmp_path / "empty.db").exists()
    rc = main(["arena", "run", "kuhn", "--builtins", "nobody", "--db", str(tmp_path / "a.db")])
    assert rc == 1
    assert "unknown built-in agent 'nobody'" in capsys.readouterr().err


@pytest.mark.slow
def test_study_exploitation_json(bot_cache, capsys, monkeypatch) -> None:
    monkeypatch.setenv("POKERLAB_CACHE", str(bot_cache))
    rc = main(["study", "exploitation", "--hands", "400", "--json"])
    rows = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert [(r["game"].split("(")[0], r["opponent"]) for r in rows] == [
        (g, o) for g in ("kuhn", "leduc") for o in ("always-call", "random", "cfr+10")
    ]
    for row in rows:
        assert row["best_response"] >= row["equilibrium"] - 1e-9
        assert row["equilibrium_exploitability"] < 0.01
        assert row["exploitative_exploitability"] > row["equilibrium_exploitability"]


ROOT = Path(__file__).resolve().parents[2]
SLOW_BOT = """
import time

class Agent:
    def act(self, observation):
        time.sleep(0.05)  # slow enough that the run is still going under any load
        return observation.legal_actions[0]
"""


def _arena(db: Path, folder: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "pokerlab.cli", "arena", "run", "kuhn", "--agents",
            str(folder), "--builtins", "random,always-call", "--hands", "60", "--db", str(db),
            "--batch", "10", *extra]


def _wait_for_hands(db: Path, count: int, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as conn:
                if conn.execute("SELECT COUNT(*) FROM hand").fetchone()[0] >= count:
                    return
        except sqlite3.Error:
            pass
        time.sleep(0.05)
    raise AssertionError("the run stored too few hands in time")


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_stopped_run_says_how_to_resume_and_a_second_writer_is_refused(
    tmp_path: Path, stop: signal.Signals
) -> None:
    folder = tmp_path / "agents"
    folder.mkdir()
    (folder / "slow.py").write_text(SLOW_BOT)
    db = tmp_path / "arena.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(_arena(db, folder), cwd=ROOT, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _wait_for_hands(db, 20, process)
        second = subprocess.run(_arena(db, folder, "--resume"), cwd=ROOT, env=env, text=True,
                                capture_output=True, timeout=120)
        assert second.returncode == 1
        assert "another tournament (process" in second.stderr
        assert "is being written by another tournament" in second.stderr
        assert ", run 1)" in second.stderr
        process.send_signal(stop)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    # the bot needed to be slow only until the stop: the resume plays its remaining
    # hands with the same choices (legal_actions[0]) without the sleeps (about 15 s)
    (folder / "slow.py").write_text(SLOW_BOT.replace("time.sleep(0.05)", "pass"))
    assert "interrupted: every finished batch is stored in" in err
    resume = next(line for line in err.splitlines() if line.startswith("resume with: "))
    command = shlex.split(resume.removeprefix("resume with: "))
    assert command[-1] == "--resume"
    finished = subprocess.run([sys.executable, "-m", "pokerlab.cli", *command[1:]], cwd=ROOT,
                              env=env, text=True, capture_output=True, timeout=300)
    assert finished.returncode == 0, finished.stderr
    # not a terminal: a line per finished match instead of a progress bar
    assert "match 3/3 random vs always-call: 120 hands stored" in finished.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM hand").fetchone()[0] == 3 * 120


def test_check_agent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.py"
    good.write_text("class Agent:\n    def act(self, o):\n        print('thinking')\n"
                    "        return o.legal_actions[0]\n")
    assert main(["arena", "check-agent", str(good), "--game", "kuhn", "--hands", "20"]) == 0
    out = capsys.readouterr().out
    assert "ok on kuhn" in out
    assert "thinking" in out
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nclass Agent:\n    def act(self, o):\n        os._exit(3)\n")
    assert main(["arena", "check-agent", str(bad), "--game", "kuhn", "--hands", "10",
                 "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert not report["ok"]
    assert any("ended its process" in p for p in report["problems"])
