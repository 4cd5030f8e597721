from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pokerlab.agents import solver_strategy
from pokerlab.arena import ArenaStore, builtin_entrants, run_tournament
from pokerlab.games import leduc
from pokerlab.play.containment import containment_available

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["exploitative", "random", "cfr+10", "cfr+100"]
HANDS = 300  # per seat: 600 per match, 6 matches


def _command(db: Path, cache: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "pokerlab.cli", "arena", "run", "leduc", "--builtins",
            ",".join(NAMES), "--hands", str(HANDS), "--db", str(db), "--seed", "7",
            "--batch", "20", "--cache-dir", str(cache), "--json", *extra]


def _hand_count(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM hand").fetchone()[0])
    except sqlite3.Error:
        return 0


def _table(db: Path) -> list[tuple]:
    with ArenaStore(db) as store:
        return store.hand_table(store.run().id)


@pytest.mark.slow
def test_sigkill_and_resume_yields_the_uninterrupted_hands(tmp_path, bot_cache) -> None:
    game = leduc()
    for n in (10, 100):
        solver_strategy(game, n, cache_dir=bot_cache)
    reference = tmp_path / "reference.db"
    entrants = [e for n in NAMES for e in builtin_entrants(n, cache_dir=bot_cache)]
    run_tournament(game, entrants, db=reference, hands=HANDS, seed=7, batch_size=20)

    killed = tmp_path / "killed.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for threshold in (250, 1500):  # inside the first match (exploitative), then later
        extra = ("--resume",) if killed.exists() else ()
        process = subprocess.Popen(_command(killed, bot_cache, *extra), cwd=ROOT, env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 240  # a contained start is slow on a loaded machine
        while _hand_count(killed) < threshold and process.poll() is None:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert process.poll() is None, "the run finished before it could be killed"
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert 0 < _hand_count(killed) < 6 * 2 * HANDS
    resumed = subprocess.run(_command(killed, bot_cache, "--resume"), cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert _table(killed) == _table(reference)
    with ArenaStore(killed) as store:
        assert store.events(run_id=store.run().id) == []  # no replay mismatch either
        assert len(store.runs()) == 1


SEEDED = """
import random

class Agent:
    def seed(self, value):
        self.random = random.Random(value)

    def act(self, observation):
        return self.random.choice(observation.legal_actions)
"""


@pytest.mark.slow
@pytest.mark.skipif(not containment_available(), reason="needs the sandbox's namespaces")
def test_sigkill_and_resume_with_isolated_entrants(tmp_path, bot_cache) -> None:
    from pokerlab.arena import file_entrants

    game = leduc()
    folder = tmp_path / "entrants"
    folder.mkdir()
    (folder / "seeded.py").write_text(SEEDED)
    (folder / "caller.py").write_text(
        "class Agent:\n    def act(self, o):\n        return 1\n"
    )
    names = ["random", "exploitative"]
    reference = tmp_path / "reference.db"
    entrants = file_entrants(folder, game) + [
        e for n in names for e in builtin_entrants(n, cache_dir=bot_cache)
    ]
    run_tournament(game, entrants, db=reference, hands=100, seed=5, batch_size=20)
    killed = tmp_path / "killed.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "pokerlab.cli", "arena", "run", "leduc", "--agents",
               str(folder), "--builtins", ",".join(names), "--hands", "100", "--db",
               str(killed), "--seed", "5", "--batch", "20", "--cache-dir", str(bot_cache),
               "--json"]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while _hand_count(killed) < 300 and process.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert process.poll() is None, "the run finished before it could be killed"
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert 0 < _hand_count(killed) < 6 * 200
    resumed = subprocess.run([*command, "--resume"], cwd=ROOT, env=env, capture_output=True,
                             text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert _table(killed) == _table(reference)
    with ArenaStore(killed) as store:
        assert store.events(run_id=store.run().id) == []
