"""Ray backend: blueprint iterations/s on 1 and 2 Ray workers, and what 64 would reach.

Side by side in one run, on a loopback Ray head of this machine's cores: the blueprint
trainer (ES-MCCFR, Leduc, lossless cards) in rounds of ``W`` workers x ``B`` iterations
(:func:`pokerlab.blueprint.ray_backend.train_blueprint`), against the same rounds emulated
in this process (no Ray: the 1-core baseline). The scaling efficiency is the 2-worker rate
over twice the 1-worker rate. The same budget's exploitability on 1 and 2 workers (means
over seeds) shows what the staleness of a round costs.

The 64-worker row is a paper estimate, not a measurement: from the measured cost of one
iteration on a worker (``c``), the bytes of a worker's answer (``m``) and of the snapshot
(``s``), and a round's fixed cost here (``o``: Ray calls, the driver's sums), a round of
``W`` workers takes ``B*c + o + W*(m/bandwidth + a)`` with ``a`` the driver's time to add
one answer, so ``W*B`` iterations per round; 1 GB/s between machines is assumed.
"""

from __future__ import annotations

import os
import time

import numpy as np

from benchmarks._harness import Row
from pokerlab.blueprint.ray_backend import TrainingResult, train_blueprint
from pokerlab.eval.exploitability import exploitability
from pokerlab.games import leduc

BANDWIDTH = 1e9
"""Bytes/s assumed between the driver and workers on other machines (10 GbE ~ 1.2e9)."""


def _exploitability(game, iterations: int, workers: int, batch: int, seeds: range) -> float:
    values = []
    for seed in seeds:
        result = train_blueprint(game, iterations=iterations, workers=workers, batch=batch,
                                 seed=seed, backend="local")
        values.append(exploitability(game, result.trainer.average_strategy()))
    return float(np.mean(values))


def run(quick: bool) -> list[Row]:
    import ray

    game = leduc()
    batch = 20_000
    budget = 200_000 if quick else 800_000
    train_blueprint(game, iterations=2_000, backend="local")  # compile the kernels
    local = train_blueprint(game, iterations=budget, workers=1, batch=batch, backend="local")
    ray.init(address="local", include_dashboard=False, num_cpus=2, log_to_driver=False,
             configure_logging=False, object_store_memory=100 * 2**20,
             _node_ip_address="127.0.0.1")
    try:
        train_blueprint(game, iterations=4_000, workers=2, batch=1_000)  # workers compile
        one = train_blueprint(game, iterations=budget, workers=1, batch=batch)
        two = train_blueprint(game, iterations=budget, workers=2, batch=batch)
        small = train_blueprint(game, iterations=budget // 4, workers=2, batch=500)
        arena_local, arena_ray, arena_hands = _tournaments(game, 150 if quick else 500)
        holdem_rows = holdem(quick)
    finally:
        ray.shutdown()
    load = os.getloadavg()[0]
    efficiency = two.iterations_per_second / (2 * one.iterations_per_second)
    seeds = range(3 if quick else 5)
    same_budget = 40_000
    exp_one = _exploitability(game, same_budget, 1, 500, seeds)
    exp_two = _exploitability(game, same_budget, 2, 500, seeds)

    # the paper estimate for 64 workers
    per_iteration = two.worker_seconds / budget  # c
    rounds = two.rounds
    compute = batch * per_iteration
    overhead = max(0.0, two.seconds / rounds - compute)  # o: what a round costs beyond sampling
    add = _add_seconds(two.message_bytes)  # a
    estimates = {}
    for workers in (2, 64):
        round_seconds = compute + overhead + workers * (two.message_bytes / BANDWIDTH + add)
        estimates[workers] = workers * batch / round_seconds
    note_load = f"load {load:.1f} on 2 cores"
    return [
        Row("blueprint ES-MCCFR Leduc, 1 Ray worker", "it/s", one.iterations_per_second,
            "the same rounds in-process (no Ray)", local.iterations_per_second,
            higher_is_better=True,
            note=f"{budget:,} it., B={batch:,}; {note_load}"),
        Row("blueprint ES-MCCFR Leduc, 2 Ray workers", "it/s", two.iterations_per_second,
            "1 Ray worker", one.iterations_per_second, higher_is_better=True,
            target="2x (efficiency 1)",
            note=f"scaling efficiency {efficiency:.2f}; {note_load}"),
        Row("blueprint, 2 Ray workers, B=500", "it/s", small.iterations_per_second,
            "2 Ray workers, B=20,000", two.iterations_per_second, higher_is_better=True,
            note=f"round overhead dominates small rounds; {note_load}"),
        Row(f"exploitability after {same_budget:,} it., 2 workers (B=500)", "chips",
            exp_two, "1 worker", exp_one,
            note=f"mean of {len(seeds)} seeds; ratio < 1: 2 workers are worse"),
        Row("message: one worker's answer (sparse deltas)", "bytes", two.message_bytes,
            "the regret snapshot, sent once per round", float(two.snapshot_bytes),
            note="Leduc lossless: 288 rows x 3 actions, every row touched"),
        Row("tournament, 4 built-ins (6 matches), 2 Ray workers", "hands/s",
            arena_hands / arena_ray, "the local runner", arena_hands / arena_local,
            higher_is_better=True,
            note=f"{arena_hands:,} Leduc hands, workers' start-up included; {note_load}"),
        Row("paper estimate: 64 workers, B=20,000", "it/s", estimates[64],
            "the same model for 2 workers", estimates[2], higher_is_better=True,
            note=f"c={per_iteration * 1e6:.1f} us/it, o={overhead * 1e3:.1f} ms/round, "
                 f"a={add * 1e6:.0f} us/answer, {BANDWIDTH / 1e9:g} GB/s; "
                 f"efficiency {estimates[64] / (32 * estimates[2]):.2f}"),
        *holdem_rows,
    ]


HOLDEM_CARDS = {"kind": "holdem", "bucket_counts": [10, 4, 4, 2], "seed": 0, "n_bins": 4,
                "sample": 500, "boards": 1}
"""A small clustered bucket build for limit Texas Hold'em (cached after the first build)."""


def holdem(quick: bool) -> list[Row]:
    """Limit Texas Hold'em blueprint it/s on 1 and 2 Ray workers (Ray already initialised).

    The trainer is what ``pokerlab blueprint train 'holdem(betting="limit")' --buckets
    10,4,4,2 --backend ray`` builds (:class:`BlueprintFactory`); the cards are built (or read
    from the cache) once before the clock starts, and the workers warm up on a short run.
    """
    from pokerlab.blueprint.ray_backend import BlueprintFactory
    from pokerlab.games import load as load_game

    game = load_game('holdem(betting="limit")')
    factory = BlueprintFactory(HOLDEM_CARDS)
    factory(game, 0)  # build or read the bucket tables once
    batch = 1_000
    budget = 4_000 if quick else 16_000
    def train(iterations: int, workers: int) -> TrainingResult:
        return train_blueprint(game, iterations=iterations, workers=workers, batch=batch,
                               trainer_factory=factory, cards=HOLDEM_CARDS)

    train(2 * batch, 2)  # the workers warm up
    one = train(budget, 1)
    two = train(budget, 2)
    load_average = os.getloadavg()[0]
    efficiency = two.iterations_per_second / (2 * one.iterations_per_second)
    return [
        Row("blueprint ES-MCCFR limit Hold'em 10/4/4/2 buckets, 2 Ray workers", "it/s",
            two.iterations_per_second, "1 Ray worker", one.iterations_per_second,
            higher_is_better=True, target="2x (efficiency 1)",
            note=f"{budget:,} it., B={batch:,}, {one.trainer.n_rows:,} rows; scaling "
                 f"efficiency {efficiency:.2f}; answer {two.message_bytes / 1e3:.0f} KB; "
                 f"load {load_average:.1f} on 2 cores"),
    ]


def _tournaments(game, hands: int) -> tuple[float, float, int]:
    """Wall seconds of one tournament locally and on 2 Ray workers, and its hands."""
    import tempfile
    from pathlib import Path

    from pokerlab.arena import builtin_entrants, run_tournament
    from pokerlab.arena.ray_backend import ray_runner

    names = ["exploitative", "random", "always-call", "rule-based"]
    seconds = []
    with tempfile.TemporaryDirectory() as folder:
        for label, runner in (("local", None), ("ray", ray_runner(workers=2))):
            entrants = [e for name in names for e in builtin_entrants(name)]
            began = time.perf_counter()
            result = run_tournament(game, entrants, db=Path(folder) / f"{label}.db",
                                    hands=hands, seed=1, runner=runner)
            seconds.append(time.perf_counter() - began)
    return seconds[0], seconds[1], result.hands_played


def _add_seconds(message_bytes: float) -> float:
    """The driver's time to add one answer of this size (fancy-indexed adds, best of 20)."""
    rows = max(1, int(message_bytes // (8 + 2 * 3 * 8)))
    table = np.zeros((rows, 3))
    other = np.zeros((rows, 3))
    index = np.arange(rows)
    delta = np.ones((rows, 3))
    best = float("inf")
    for _ in range(20):
        began = time.perf_counter()
        table[index] += delta / 2
        other[index] += delta / 2
        best = min(best, time.perf_counter() - began)
    return best
