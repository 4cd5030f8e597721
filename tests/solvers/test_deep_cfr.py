"""Deep CFR: it learns Kuhn, its policy is a pokerlab policy that round-trips through a .pt
file, checkpoints resume the same run, and bad input is refused with a clear error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pokerlab.cli import main
from pokerlab.errors import (
    FileFormatError,
    GameTooLargeError,
    SolverError,
    StrategyMismatchError,
)
from pokerlab.eval import exploitability
from pokerlab.games import kuhn, leduc, load
from pokerlab.solvers import SOLVERS, DeepCFR, DeepPolicy, Solver, make_solver
from pokerlab.solvers.deep_cfr import _grouped, _row_bounds
from pokerlab.solvers.deep_networks import (
    EXTRA,
    InfosetEncoder,
    MissingExtraError,
    ReservoirMemory,
)
from pokerlab.strategy import FunctionPolicy, Strategy, tabulate
from pokerlab.tree import compile
from tests.interrupts import InterruptAfter

TINY: dict[str, Any] = {
    "traversals": 40, "advantage_steps": 20, "policy_steps": 40, "batch_size": 64
}
"""A configuration that runs an iteration of Kuhn in a fraction of a second."""


def test_importing_pokerlab_does_not_import_torch() -> None:
    code = (
        "import sys, pokerlab, pokerlab.solvers, pokerlab.cli, pokerlab.solvers.deep_cfr; "
        "print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_missing_torch_is_one_line_naming_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # `import torch` now raises ImportError
    with pytest.raises(MissingExtraError) as info:
        DeepCFR(kuhn())
    message = str(info.value)
    assert EXTRA in message
    assert "\n" not in message
    assert isinstance(info.value, ImportError)


def test_registered_for_the_cli_and_seeded() -> None:
    assert SOLVERS["deep-cfr"] is DeepCFR
    solver = make_solver("deep-cfr", kuhn(), seed=3, **TINY)
    assert isinstance(solver, DeepCFR)
    assert solver.hyperparameters()["seed"] == 3


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("traversals", 0, "traversals must be an integer >= 1"),
        ("advantage_steps", 1.5, "advantage_steps must be an integer >= 1"),
        ("batch_size", True, "batch_size must be an integer >= 1"),
        ("learning_rate", -0.1, "learning_rate must be a number > 0"),
        ("advantage_layers", (64, 0), "advantage_layers must be a sequence"),
        ("policy_layers", "64", "policy_layers must be a sequence"),
        ("reinitialize", "yes", "reinitialize must be True or False"),
        ("full_batch", 1, "full_batch must be True or False"),
        ("seed", -1, "seed must be an integer >= 0"),
    ],
)
def test_bad_hyperparameters_are_refused(field: str, value: object, words: str) -> None:
    with pytest.raises(SolverError, match=words):
        DeepCFR(kuhn(), **{field: value})  # type: ignore[arg-type]


def test_a_game_too_big_to_compile_is_refused() -> None:
    with pytest.raises(GameTooLargeError, match="Deep CFR"):
        DeepCFR(load("holdem"))


def test_row_bounds_of_kuhn() -> None:
    # A traversal for P1 walks both of its first actions and, below pass-bet, both of its
    # second: at most 2 advantage rows; P2 acts once below each of P1's first actions: 2
    # strategy rows. A traversal for P2 meets one of its infosets (1 advantage row), and
    # P1 at the root and, below pass-bet, again: at most 2 strategy rows.
    advantage, strategy = _row_bounds(compile(kuhn()))
    assert advantage.tolist() == [2, 1]
    assert strategy.tolist() == [2, 2]


def test_traversals_write_the_rows_the_bounds_allow() -> None:
    solver = DeepCFR(kuhn(), seed=0, **TINY)
    solver.run(iterations=1)
    sizes = solver.memory_sizes()
    count = TINY["traversals"]
    assert count < sizes["advantage_0"] < 2 * count  # 2 rows when P2 bets after a pass
    assert sizes["advantage_1"] == count
    # P1's traversals give 2 rows each; P2's give 1, or 2 when P1 passes at the root.
    assert 3 * count <= sizes["strategy"] <= 4 * count


def test_reservoir_keeps_a_uniform_sample() -> None:
    rng = np.random.default_rng(1)
    hits = np.zeros(1000)
    for _ in range(200):
        memory = ReservoirMemory(100, 1)
        for start in range(0, 1000, 250):  # offered in four batches
            ids = np.arange(start, start + 250, dtype=np.int32)
            memory.add(ids, 1, np.zeros((250, 1), dtype=np.float32), rng)
        assert memory.size == 100
        assert memory.seen == 1000
        assert len(set(memory.ids.tolist())) == 100
        hits[memory.ids] += 1
    # Each offered row is kept with probability 100/1000: 20 of 200 runs on average.
    quarters = hits.reshape(4, 250).sum(axis=1) / (250 * 200)
    assert np.allclose(quarters, 0.1, atol=0.01)


def test_grouped_memory_is_the_weighted_mean_per_infoset() -> None:
    # Full-batch training fits each infoset's iteration-weighted mean row with the summed
    # weight: check both against a direct sum over the rows.
    rng = np.random.default_rng(2)
    memory = ReservoirMemory(50, 3)
    for t in (1, 2, 5):
        ids = rng.integers(0, 6, 12).astype(np.int32)
        ids[ids == 4] = 3  # infoset 4 never held
        memory.add(ids, t, rng.normal(size=(12, 3)).astype(np.float32), rng)
    held, means, weights = _grouped(memory, 6)
    assert 4 not in held.tolist()
    its = memory.iterations[: memory.size].astype(float)
    totals = []
    for k, infoset in enumerate(held):
        mine = memory.ids[: memory.size] == infoset
        w = its[mine]
        expected = (memory.rows[: memory.size][mine] * w[:, None]).sum(axis=0) / w.sum()
        assert np.allclose(means[k], expected, atol=1e-5)
        totals.append(w.sum())
    assert np.allclose(weights, np.array(totals) / np.mean(totals), atol=1e-6)


def test_played_average_after_one_iteration_is_the_strategy_played() -> None:
    # In iteration 1, P2's traversals play P1's freshly trained network (P2's is not yet
    # trained): P1's played average is that strategy, which is also the current one; P2's
    # is uniform (P1 traversed against an untrained network).
    game = kuhn()
    solver = DeepCFR(game, seed=1, **TINY)
    solver.run(iterations=1)
    tree = compile(game)
    played = solver.played_average_strategy().probs
    current = solver.current_strategy().probs
    first, second = tree.infosets_of(0), tree.infosets_of(1)
    reached = first[solver._played_sums[first].sum(axis=1) > 0]  # P1's own reach > 0
    opening = first[tree.infoset_parent_seq[first] == 0]  # P1's first decisions
    assert len(opening) == 3
    assert set(opening.tolist()) <= set(reached.tolist())
    assert np.allclose(played[reached], current[reached])
    assert np.allclose(played[second], 0.5)
    assert not np.allclose(played[first], 0.5)


def test_encoder_tells_every_infoset_apart_and_round_trips() -> None:
    for game in (kuhn(), leduc()):
        tree = compile(game)
        encoder = InfosetEncoder.from_tree(tree)
        solver_features = DeepCFR(game, seed=0, **TINY)._features
        assert solver_features.shape == (tree.n_infosets, encoder.size)
        assert len({row.tobytes() for row in solver_features}) == tree.n_infosets
        assert InfosetEncoder.from_dict(json.loads(json.dumps(encoder.to_dict()))) == encoder


def test_strategies_are_distributions_over_legal_actions() -> None:
    solver = DeepCFR(leduc(), seed=0, **TINY)
    solver.run(iterations=1)
    legal = compile(leduc()).legal_mask.astype(bool)
    for strategy in (
        solver.average_strategy(),
        solver.current_strategy(),
        solver.memory_average_strategy(),
        solver.played_average_strategy(),
    ):
        assert np.allclose(strategy.probs.sum(axis=1), 1.0)
        assert np.all(strategy.probs[~legal] == 0.0)


@pytest.mark.slow
def test_kuhn_reaches_a_small_exploitability_in_bounded_time() -> None:
    # Measured after 30 iterations (seeds 0, 1, 2), full-batch training: 0.023, 0.020,
    # 0.011 chips, in 28-37 s of solving at a load of 9 on 2 cores (8.5 s in one test
    # run); uniform play: 0.458.
    game = kuhn()
    solver = DeepCFR(game, seed=0, traversals=100, advantage_steps=100, policy_steps=400)
    solver.run(iterations=30, check_every=30)
    value = solver.history[-1].exploitability
    assert value is not None
    assert value == exploitability(game, solver.average_strategy())
    assert value < 0.05
    assert value < exploitability(game, Strategy.uniform(game)) / 8


def test_policy_round_trips_through_a_pt_file(tmp_path: Path) -> None:
    solver = DeepCFR(kuhn(), seed=0, **TINY)
    solver.run(iterations=2)
    policy = solver.policy()
    path = policy.save(tmp_path / "kuhn.pt")
    loaded = DeepPolicy.load(path)
    assert loaded.game == kuhn()
    assert loaded.metadata["iterations"] == 2
    assert np.array_equal(loaded.to_strategy().probs, policy.to_strategy().probs)
    # The policy contract: asked observation by observation (the generic path of
    # tabulate) it gives the batch answer, which is the solver's average strategy.
    by_observation = tabulate(FunctionPolicy(kuhn(), loaded.action_probabilities))
    assert np.allclose(by_observation.probs, solver.average_strategy().probs, atol=1e-6)
    assert np.isclose(
        exploitability(kuhn(), loaded.to_strategy()),
        exploitability(kuhn(), solver.average_strategy()),
    )


def test_policy_file_errors(tmp_path: Path) -> None:
    solver = DeepCFR(kuhn(), seed=0, **TINY)
    solver.run(iterations=1)
    path = solver.policy().save(tmp_path / "kuhn.pt")
    with pytest.raises(StrategyMismatchError, match="not for leduc"):
        DeepPolicy.load(path, game=leduc())
    with pytest.raises(FileFormatError, match="does not exist"):
        DeepPolicy.load(tmp_path / "missing.pt")
    text = tmp_path / "notes.pt"
    text.write_text("not a network")
    with pytest.raises(FileFormatError, match="not a readable Deep CFR policy"):
        DeepPolicy.load(text)
    with pytest.raises(FileFormatError, match="is a folder"):
        solver.policy().save(tmp_path)


@pytest.mark.parametrize("full_batch", [True, False])
def test_checkpoint_resumes_the_same_run(tmp_path: Path, full_batch: bool) -> None:
    # Both trainings: full batch (the default) and minibatches of batch_size rows.
    whole = DeepCFR(kuhn(), seed=5, full_batch=full_batch, **TINY)
    whole.run(iterations=3, check_every=3)
    part = DeepCFR(kuhn(), seed=5, full_batch=full_batch, **TINY)
    part.run(iterations=2, check_every=1)  # measuring (training the policy) changes nothing
    path = part.save_checkpoint(tmp_path / "deep.checkpoint.npz")
    resumed = Solver.load_checkpoint(path)
    assert isinstance(resumed, DeepCFR)
    assert resumed.iterations == 2
    assert resumed.full_batch is full_batch
    resumed.run(iterations=1, check_every=1)
    assert np.array_equal(resumed.current_strategy().probs, whole.current_strategy().probs)
    assert np.array_equal(resumed.average_strategy().probs, whole.average_strategy().probs)
    assert resumed.memory_sizes() == whole.memory_sizes()
    assert np.array_equal(
        resumed.played_average_strategy().probs, whole.played_average_strategy().probs
    )


@pytest.mark.slow
def test_cli_saves_the_network_to_pt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "d.pt"
    code = main(["solve", "kuhn", "--algorithm", "deep-cfr", "--iterations", "2", "--seed", "0",
                 "--out", str(out), "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["algorithm"] == "deep-cfr"
    assert data["iterations"] == 2
    loaded = DeepPolicy.load(out, game=kuhn())
    assert loaded.metadata["exploitability"] == pytest.approx(data["exploitability"])
    assert exploitability(kuhn(), loaded.to_strategy()) == pytest.approx(data["exploitability"])


def test_cli_refuses_pt_for_a_tabular_solver(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["solve", "kuhn", "--algorithm", "cfr+", "--iterations", "2",
                 "--out", str(tmp_path / "x.pt")]) == 1
    err = capsys.readouterr().err
    assert "only deep-cfr" in err
    assert err.count("\n") == 1
    assert not (tmp_path / "x.pt").exists()


@pytest.mark.slow
def test_cli_interrupted_run_resumes_to_the_same_network(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pokerlab.solvers import run_console

    args = ["solve", "kuhn", "--algorithm", "deep-cfr", "--iterations", "2", "--check-every",
            "1", "--seed", "4", "--json"]
    whole = tmp_path / "whole.pt"
    assert main([*args, "--out", str(whole)]) == 0
    part = tmp_path / "part.pt"
    monkeypatch.setattr(run_console, "StopSignals", lambda: InterruptAfter(1))
    assert main([*args, "--out", str(part)]) == 130
    checkpoint = tmp_path / "part.checkpoint.npz"
    assert checkpoint.exists()
    monkeypatch.undo()
    assert main([*args, "--out", str(part), "--resume"]) == 0
    resumed, uninterrupted = DeepPolicy.load(part), DeepPolicy.load(whole)
    assert resumed.metadata["iterations"] == 2
    assert np.array_equal(resumed.to_strategy().probs, uninterrupted.to_strategy().probs)
