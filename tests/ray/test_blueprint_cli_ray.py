"""`pokerlab blueprint train --backend ray`: .bp checkpoints move between Ray and this machine."""

from __future__ import annotations

import json
import os
import shutil
import signal

import numpy as np
import pytest

from pokerlab.blueprint.ray_backend import BlueprintFactory, RoundTrainer, train_blueprint
from pokerlab.blueprint.store import load_blueprint, read_header
from pokerlab.cli import main
from pokerlab.games import leduc, load

pytestmark = pytest.mark.timeout(300)  # bounded even when a cluster misbehaves

SMALL_HOLDEM = (
    'holdem(betting="limit", ranks=3, suits=2, hole=1, board="1", seat_blinds=(1, 1), '
    'raises="2,4", caps="2,2", first="0,0", stack=100)'
)
"""Leduc written as a Hold'em game (the blueprint tests' small Hold'em)."""
THREE_PLAYERS = (
    'holdem(betting="limit", players=3, ranks=4, suits=1, hole=1, board="1", '
    'seat_blinds=(1, 1, 1), raises="1,2", caps="1,1", first="0,0", stack=50)'
)


def test_backend_options_of_the_train_command_are_checked(tmp_path, capsys) -> None:
    out = tmp_path / "a.bp"
    rc = main(["blueprint", "train", "leduc", "--out", str(out), "--iterations", "10",
               "--workers", "2"])
    assert rc == 1
    assert "--address and --workers go with --backend ray" in capsys.readouterr().err
    rc = main(["blueprint", "train", "leduc", "--out", str(out), "--iterations", "10",
               "--backend", "spark"])
    assert rc == 1
    assert "--backend must be local or ray; got 'spark'" in capsys.readouterr().err
    rc = main(["blueprint", "train", "leduc", "--out", str(out), "--iterations", "10",
               "--backend", "ray", "--threads", "2"])
    assert rc == 1
    assert "--threads goes with --backend local" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.slow
def test_a_ray_blueprint_resumes_with_the_local_command(ray_cluster, tmp_path, capsys) -> None:
    out = tmp_path / "ray.bp"
    rc = main(["blueprint", "train", "leduc", "--out", str(out), "--iterations", "2000",
               "--backend", "ray", "--workers", "2", "--batch", "500", "--seed", "3",
               "--json"])
    assert rc == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["iterations"], summary["clock"], summary["workers"]) == (2000, 1000, 2)
    header = read_header(out)
    assert header["rounds"] == {"iterations": 2000, "clock": 1000, "rounds": 2}
    assert (header["iterations"], header["seed"]) == (1000, 3)
    emulated = train_blueprint(leduc(), iterations=2000, workers=2, batch=500, seed=3,
                               backend="local")
    on_ray, _ = load_blueprint(out)
    np.testing.assert_array_equal(on_ray.regrets, emulated.trainer.regrets)
    np.testing.assert_array_equal(on_ray.strategy_sum, emulated.trainer.strategy_sum)

    before = tmp_path / "before.bp"
    shutil.copy(out, before)
    rc = main(["blueprint", "train", "leduc", "--out", str(out), "--resume", "--iterations",
               "1600", "--json"])
    assert rc == 0
    assert json.loads(capsys.readouterr().out)["iterations"] == 1600
    expected, _ = load_blueprint(before)  # the same file loaded and run on here: what --resume is
    expected.run(600)
    resumed, header = load_blueprint(out)
    assert header["iterations"] == 1600
    assert "rounds" not in header
    assert not np.array_equal(resumed.regrets, on_ray.regrets)  # it trained on
    np.testing.assert_array_equal(resumed.regrets, expected.regrets)
    np.testing.assert_array_equal(resumed.strategy_sum, expected.strategy_sum)


@pytest.mark.slow
def test_a_local_blueprint_resumes_on_ray(ray_cluster, tmp_path, capsys) -> None:
    out = tmp_path / "local.bp"
    assert main(["blueprint", "train", "leduc", "--out", str(out), "--iterations", "1000",
                 "--seed", "5", "--json"]) == 0
    capsys.readouterr()
    copy = tmp_path / "copy.bp"
    shutil.copy(out, copy)
    rc = main(["blueprint", "train", "leduc", "--out", str(out), "--resume", "--iterations",
               "3000", "--backend", "ray", "--workers", "2", "--batch", "500", "--json"])
    assert rc == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["iterations"], summary["clock"]) == (3000, 1000 + 1000)
    emulated = train_blueprint(leduc(), iterations=3000, workers=2, batch=500, seed=5,
                               backend="local", checkpoint=copy, resume=True)
    assert emulated.rounds == 2
    on_ray, header = load_blueprint(out)
    assert header["rounds"] == {"iterations": 3000, "clock": 2000, "rounds": 2}
    np.testing.assert_array_equal(on_ray.regrets, emulated.trainer.regrets)
    np.testing.assert_array_equal(on_ray.strategy_sum, emulated.trainer.strategy_sum)


@pytest.mark.slow
@pytest.mark.parametrize("spec", [SMALL_HOLDEM, THREE_PLAYERS])
def test_small_holdem_on_two_ray_workers_equals_the_local_emulation(ray_cluster, spec) -> None:
    game = load(spec)
    factory = BlueprintFactory({"kind": "lossless"})
    options = {"iterations": 4000, "workers": 2, "batch": 500, "seed": 2,
               "trainer_factory": factory}
    on_ray = train_blueprint(game, **options)
    local = train_blueprint(game, **options, backend="local")
    assert on_ray.workers == 2
    assert on_ray.clock == 2000
    assert np.any(on_ray.trainer.strategy_sum != 0.0)
    np.testing.assert_array_equal(on_ray.trainer.regrets, local.trainer.regrets)
    np.testing.assert_array_equal(on_ray.trainer.strategy_sum, local.trainer.strategy_sum)


def test_a_seconds_budget_stops_after_the_round_that_reaches_it(tmp_path) -> None:
    path = tmp_path / "s.bp"
    result = train_blueprint(leduc(), iterations=10**9, workers=2, batch=200, seconds=0.3,
                             backend="local", checkpoint=path)
    assert 0 < result.iterations < 10**9
    assert result.iterations % 400 == 0  # whole rounds of 2 x 200
    assert result.seconds >= 0.3  # the budget is the rounds' wall-clock time (the run loop)
    header = read_header(path)
    assert header["rounds"]["iterations"] == result.iterations
    again = train_blueprint(leduc(), iterations=10**9, workers=2, batch=200, seconds=0.3,
                            backend="local", checkpoint=path, resume=True)
    assert again.iterations == result.iterations  # the budget was already spent


@pytest.mark.slow
def test_ctrl_c_on_ray_saves_a_bp_that_resumes_exactly(
    ray_cluster, tmp_path, capsys, monkeypatch
) -> None:
    out = tmp_path / "stop.bp"
    # Ctrl-C once training has begun: after the third round (a fixed delay fell before
    # the workers were up on a loaded machine, and the run then had nothing to save).
    advance = RoundTrainer._advance
    rounds = []

    def advance_then_interrupt(self: RoundTrainer, count: int) -> None:
        advance(self, count)
        rounds.append(count)
        if len(rounds) == 3:
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(RoundTrainer, "_advance", advance_then_interrupt)
    rc = main(["blueprint", "train", "leduc", "--out", str(out), "--iterations",
               str(10**9), "--backend", "ray", "--workers", "2", "--batch", "500",
               "--seed", "8"])
    monkeypatch.undo()
    assert rc == 130
    assert "resume with: pokerlab blueprint train 'leduc'" in capsys.readouterr().err
    saved = read_header(out)["rounds"]
    assert saved["iterations"] > 0
    total = saved["iterations"] + 2000
    rc = main(["blueprint", "train", "leduc", "--out", str(out), "--resume", "--iterations",
               str(total), "--backend", "ray", "--workers", "2", "--batch", "500"])
    assert rc == 0
    whole = train_blueprint(leduc(), iterations=total, workers=2, batch=500, seed=8,
                            backend="local")
    resumed, header = load_blueprint(out)
    assert header["rounds"]["rounds"] == whole.rounds
    np.testing.assert_array_equal(resumed.regrets, whole.trainer.regrets)
    np.testing.assert_array_equal(resumed.strategy_sum, whole.trainer.strategy_sum)
