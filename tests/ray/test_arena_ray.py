"""Tournaments on Ray workers store exactly the hands of the local run, even when one dies."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from pokerlab.arena import ArenaStore, builtin_entrants, file_entrants, run_tournament
from pokerlab.arena.ray_backend import RayMatchRunner
from pokerlab.games import leduc
from pokerlab.play.sandbox import SandboxLimits

ROOT = Path(__file__).resolve().parents[2]
# exploitative learns from what it saw (a resumed match must replay); the others are
# policies (sampled in batches).
NAMES = ["exploitative", "random", "always-call", "rule-based"]
HANDS = 40  # per seat: 80 hands per match, 6 matches, 4 batches of 20 each
TOTAL = 6 * 2 * HANDS

pytestmark = pytest.mark.timeout(240)  # bounded even when a cluster misbehaves


def _entrants() -> list:
    return [e for name in NAMES for e in builtin_entrants(name)]


def _table(db: Path) -> list[tuple]:
    with ArenaStore(db) as store:
        return store.hand_table(store.run().id)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> list[tuple]:
    db = tmp_path_factory.mktemp("local") / "local.db"
    run_tournament(leduc(), _entrants(), db=db, hands=HANDS, seed=5, batch_size=20)
    table = _table(db)
    assert len(table) == TOTAL
    return table


@pytest.mark.slow
def test_two_workers_store_the_hands_of_the_local_run(ray_cluster, reference, tmp_path) -> None:
    runner = RayMatchRunner(workers=2)
    result = run_tournament(leduc(), _entrants(), db=tmp_path / "ray.db", hands=HANDS, seed=5,
                            batch_size=20, runner=runner)
    assert result.hands_played == TOTAL
    assert len(runner.pids) == 2
    assert os.getpid() not in runner.pids  # the matches were played elsewhere
    assert _table(tmp_path / "ray.db") == reference
    with ArenaStore(tmp_path / "ray.db") as store:
        assert all(m.finished is not None for m in store.matches(result.run_id))
        assert store.run().finished is not None


@pytest.mark.slow
def test_a_killed_worker_loses_nothing_and_counts_nothing_twice(
    ray_cluster, reference, tmp_path
) -> None:
    runner = RayMatchRunner(workers=2)
    killed: list[int] = []

    def kill_one(progress) -> None:
        if not killed:  # both workers are playing: each has a batch in flight
            killed.append(runner.pids[0])
            os.kill(runner.pids[0], signal.SIGKILL)

    db = tmp_path / "killed.db"
    result = run_tournament(leduc(), _entrants(), db=db, hands=HANDS, seed=5, batch_size=20,
                            runner=runner, progress=kill_one)
    assert killed
    assert runner.replaced >= 1
    assert killed[0] not in runner.pids
    assert result.hands_played == TOTAL  # every hand stored once, none twice
    with sqlite3.connect(db) as conn:
        count, distinct = conn.execute(
            "SELECT COUNT(*), COUNT(DISTINCT match_id || ':' || hand_index) FROM hand"
        ).fetchone()
    assert count == distinct == TOTAL
    assert _table(db) == reference


@pytest.mark.slow
def test_runs_interrupted_on_one_backend_resume_on_the_other(
    ray_cluster, reference, tmp_path
) -> None:
    def stop_after(batches: int):
        seen = []

        def progress(_) -> None:
            seen.append(1)
            if len(seen) == batches:
                raise KeyboardInterrupt

        return progress

    for first, second in ((RayMatchRunner(workers=2), None), (None, RayMatchRunner(workers=2))):
        db = tmp_path / f"{'ray' if first else 'local'}-first.db"
        with pytest.raises(KeyboardInterrupt):
            run_tournament(leduc(), _entrants(), db=db, hands=HANDS, seed=5, batch_size=20,
                           runner=first, progress=stop_after(5))
        stored = len(_table(db))
        assert 0 < stored < TOTAL
        result = run_tournament(leduc(), _entrants(), db=db, hands=HANDS, seed=5, resume=True,
                                runner=second)
        assert result.hands_played == TOTAL - stored  # exactly the missing ones
        assert _table(db) == reference


AGENT = """
class Agent:
    def act(self, observation):
        print("acting", flush=True)
        return observation.legal_actions[-1]
"""


@pytest.mark.slow
def test_isolated_entrants_play_sandboxed_on_the_workers(ray_cluster, tmp_path) -> None:
    folder = tmp_path / "agents"
    folder.mkdir()
    (folder / "last.py").write_text(AGENT)
    game = leduc()

    def entrants() -> list:
        limits = SandboxLimits(decision_seconds=5.0)
        return file_entrants(folder, game, limits=limits) + builtin_entrants("always-call")

    run_tournament(game, entrants(), db=tmp_path / "local.db", hands=20, seed=2)
    runner = RayMatchRunner(workers=1)
    run_tournament(game, entrants(), db=tmp_path / "ray.db", hands=20, seed=2, runner=runner)
    assert _table(tmp_path / "ray.db") == _table(tmp_path / "local.db")
    with ArenaStore(tmp_path / "ray.db") as store:
        [match] = store.matches(store.run().id)
        logs = store.logs(match.id)
    assert "acting" in logs[0]  # the entrant's prints came back from the worker's sandbox


@pytest.mark.slow
def test_the_cli_joins_a_running_cluster_by_address(ray_cluster, tmp_path) -> None:
    address = ray_cluster.get_runtime_context().gcs_address
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "pokerlab.cli", "arena", "run", "kuhn", "--builtins",
               "random,always-call", "--hands", "30", "--db", str(tmp_path / "cli.db"),
               "--backend", "ray", "--address", address, "--workers", "1", "--json"]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hands_played"] == 60
    assert ray_cluster.is_initialized()  # joining did not shut the cluster down
