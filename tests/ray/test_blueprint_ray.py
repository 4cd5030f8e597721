"""Blueprint rounds on Ray workers: the local emulation's arrays bit for bit, deaths included."""

from __future__ import annotations

import os
import signal

import numpy as np
import pytest

from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.blueprint.ray_backend import (
    round_seed,
    round_shares,
    train_blueprint,
    trainer_handle,
)
from pokerlab.blueprint.store import read_header
from pokerlab.errors import PokerlabError
from pokerlab.eval.exploitability import exploitability
from pokerlab.games import leduc
from pokerlab.strategy import Strategy

pytestmark = pytest.mark.timeout(240)  # bounded even when a cluster misbehaves


def _same_tables(a, b) -> None:
    np.testing.assert_array_equal(a.trainer.regrets, b.trainer.regrets)
    np.testing.assert_array_equal(a.trainer.strategy_sum, b.trainer.strategy_sum)


def test_one_worker_rounds_are_the_trainers_own_iterations() -> None:
    game = leduc()
    result = train_blueprint(game, iterations=1500, workers=1, batch=500, seed=4,
                             backend="local")
    assert (result.iterations, result.clock, result.rounds) == (1500, 1500, 3)
    plain = BlueprintTrainer(game)
    handle = trainer_handle(plain)
    for r in range(3):
        handle.sample(500 * r, round_seed(4, r, 0), 500)
    # the same samples; only the rounding of "snapshot + (copy - snapshot)" differs
    np.testing.assert_allclose(result.trainer.regrets, plain.regrets, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(result.trainer.strategy_sum, plain.strategy_sum, rtol=1e-12,
                               atol=1e-9)
    assert result.trainer.average_strategy().metadata["iterations"] == 1500


def test_rounds_spend_exactly_the_budget() -> None:
    assert round_shares(0, 10_000, 4, 500) == (4, 500)
    assert round_shares(9000, 10_000, 4, 500) == (4, 250)
    assert round_shares(9998, 10_000, 4, 500) == (2, 1)
    assert round_shares(10_000, 10_000, 4, 500) == (0, 0)
    result = train_blueprint(leduc(), iterations=1003, workers=2, batch=300, backend="local")
    assert result.iterations == 1003
    # 2 x 300, then 2 x 201 (403 left), then 1 x 1
    assert (result.rounds, result.clock) == (3, 300 + 201 + 1)


def test_bad_parameters_and_checkpoints_are_clear_errors(tmp_path) -> None:
    game = leduc()
    with pytest.raises(PokerlabError, match="batch must be an integer >= 1"):
        train_blueprint(game, iterations=10, batch=0, backend="local")
    with pytest.raises(PokerlabError, match="backend must be 'ray' or 'local'"):
        train_blueprint(game, iterations=10, backend="spark")
    with pytest.raises(PokerlabError, match="workers must be an integer >= 1"):
        train_blueprint(game, iterations=10, workers=0, backend="local")
    path = tmp_path / "bp.bp"
    train_blueprint(game, iterations=200, batch=100, seed=1, backend="local", checkpoint=path)
    with pytest.raises(PokerlabError, match="checkpoint of seed 1, not 2"):
        train_blueprint(game, iterations=400, seed=2, backend="local", checkpoint=path,
                        resume=True)
    with pytest.raises(PokerlabError, match=r"leduc.*not for leduc\(players=3\)"):
        train_blueprint(leduc(players=3), iterations=400, seed=1, backend="local",
                        checkpoint=path, resume=True)


def test_ctrl_c_between_rounds_leaves_a_checkpoint_that_resumes_exactly(tmp_path) -> None:
    game = leduc()
    path = tmp_path / "bp.bp"

    def stop(progress) -> None:
        if progress.iteration == 2 * 2 * 250:  # after two rounds of 2 workers x 250
            raise KeyboardInterrupt

    options = {"iterations": 3000, "workers": 2, "batch": 250, "seed": 6, "backend": "local"}
    with pytest.raises(KeyboardInterrupt):
        train_blueprint(game, **options, checkpoint=path, checkpoint_seconds=1e9,
                        progress=stop)
    resumed = train_blueprint(game, **options, checkpoint=path, resume=True)
    assert resumed.rounds == 6
    assert resumed.iterations_per_second > 0
    _same_tables(resumed, train_blueprint(game, **options))


@pytest.mark.slow
def test_two_ray_workers_equal_the_local_emulation_and_learn_as_well(ray_cluster) -> None:
    game = leduc()
    budget = 20_000
    on_ray = train_blueprint(game, iterations=budget, workers=2, batch=500, seed=1)
    local = train_blueprint(game, iterations=budget, workers=2, batch=500, seed=1,
                            backend="local")
    _same_tables(on_ray, local)
    assert on_ray.workers == 2
    assert on_ray.clock == budget // 2  # each round: 500 iterations, each update 2 samples
    assert 0 < on_ray.message_bytes <= 3 * on_ray.snapshot_bytes
    single = train_blueprint(game, iterations=budget, workers=1, batch=500, seed=1,
                             backend="local")
    uniform = exploitability(game, Strategy.uniform(game))
    two, one = (exploitability(game, r.trainer.average_strategy()) for r in (on_ray, single))
    assert one < 0.05 * uniform
    assert two < 2.0 * one  # the same budget on 2 workers: comparable


@pytest.mark.slow
def test_more_workers_than_the_clusters_cpus_are_refused(ray_cluster) -> None:
    with pytest.raises(PokerlabError, match="--workers 3 needs 3 CPUs; the Ray cluster has 2"):
        train_blueprint(leduc(), iterations=100, workers=3)


@pytest.mark.slow
def test_a_killed_worker_changes_nothing(ray_cluster) -> None:
    game = leduc()
    killed: list[int] = []

    def kill_one(progress) -> None:
        if not killed:
            killed.append(progress.worker_pids[0])
            os.kill(progress.worker_pids[0], signal.SIGKILL)

    on_ray = train_blueprint(game, iterations=6000, workers=2, batch=500, seed=3,
                             progress=kill_one)
    assert killed
    assert on_ray.workers_replaced == 1
    local = train_blueprint(game, iterations=6000, workers=2, batch=500, seed=3,
                            backend="local")
    _same_tables(on_ray, local)


@pytest.mark.slow
def test_checkpoints_resume_on_the_other_backend(ray_cluster, tmp_path) -> None:
    game = leduc()
    whole = train_blueprint(game, iterations=4000, workers=2, batch=500, seed=9,
                            backend="local")
    for first, second in (("ray", "local"), ("local", "ray")):
        path = tmp_path / f"{first}.bp"
        half = train_blueprint(game, iterations=2000, workers=2, batch=500, seed=9,
                               backend=first, checkpoint=path)
        assert half.iterations == 2000
        resumed = train_blueprint(game, iterations=4000, workers=2, batch=500, seed=9,
                                  backend=second, checkpoint=path, resume=True)
        assert resumed.iterations == 4000
        assert read_header(path)["rounds"] == {"iterations": 4000, "clock": 2000, "rounds": 4}
        assert resumed.rounds == whole.rounds
        _same_tables(resumed, whole)
