"""16-bit compressed storage in the range solver: regrets and strategy sums as integers
scaled per node. It converges like float32, gives the same numbers on any thread count,
resumes bit for bit, finishes in place, and the command offers it as --compress."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from pokerlab.cli import main
from pokerlab.errors import GameTooLargeError, SolverError
from pokerlab.subgame import RangeSolver
from pokerlab.subgame import _kernels as kernels
from pokerlab.subgame.checkpoint import load_range_checkpoint, save_range_checkpoint
from pokerlab.subgame.spot import Spot

RIVER = Spot(board="Td9d6hQc2s", oop="AA, JJ, T9s, 87s, K8s, QJs", ip="KK, QQ, A9s, J8s, A2s",
             pot=100, stack=300, bets="50%, 100%", raises="2.5x")
TURN = Spot(board="Td9d6hQc", oop="AA, T9s, 87s", ip="KK, 87s, AJs", pot=60, stack=120,
            bets="100%", raises="a")


@pytest.mark.parametrize(("top", "dtype", "salt"), [(kernels.INT16_TOP, np.int16, -1),
                                                (kernels.UINT16_TOP, np.uint16, -1),
                                                (kernels.UINT16_TOP, np.uint16, 12)])
def test_a_node_is_stored_to_within_a_step_of_its_largest_value(top: float, dtype: type,
                                                                salt: int) -> None:
    # to nearest (salt -1): within half a step; stochastically (the sums): within one,
    # and unbiased on average
    rng = np.random.default_rng(7)
    errors: list[float] = []
    stored = np.zeros((5, 40), dtype=dtype)
    scales = np.zeros(5, dtype=np.float32)
    for trial in range(50):
        values = rng.normal(0.0, 10.0 ** rng.uniform(-6, 6), (3, 40))
        if dtype == np.uint16:
            values = np.abs(values)
        values[:, rng.integers(0, 40, 5)] = 0.0
        kernels.encode_node(values, 3, 40, stored, 1, scales, top,
                            salt if salt < 0 else salt + trial)
        decoded = stored[1:4].astype(np.float64) * float(scales[1])
        largest = np.abs(values).max()
        assert np.abs(stored[1:4]).max() >= top - 1  # the largest uses every bit
        step = largest / top
        assert np.abs(decoded - values).max() <= step * (0.5 if salt < 0 else 1.0 + 1e-6)
        errors.append((decoded - values).mean() / step)
        assert (decoded[values == 0.0] == 0.0).all()
    assert abs(np.mean(errors)) < 0.05  # no drift either way
    kernels.encode_node(np.zeros((3, 40)), 3, 40, stored, 1, scales, top, salt)
    assert scales[1] == 0.0
    assert not stored[1:4].any()


@pytest.mark.parametrize("spot", [RIVER, TURN], ids=["river", "turn"])
def test_compressed_storage_converges_like_float32(spot: Spot) -> None:
    public = spot.build().public
    narrow = RangeSolver(public, precision="float32").run(iterations=300, check_every=100)
    small = RangeSolver(public, precision="compressed").run(iterations=300, check_every=100)
    assert small._regrets[0].dtype == np.int16
    assert small._sums[0].dtype == np.uint16
    assert small._work.cfreach.dtype == np.float32
    assert all(probs.dtype == np.float32 for probs in small.average_arrays())
    assert small.hyperparameters()["precision"] == "compressed"
    first, last = small.history[0].exploitability, small.history[-1].exploitability
    assert first is not None
    assert last is not None
    assert last < first
    # Measured: 0.019% (river) and 0.009% (turn) of the pot where float32 reaches 0.018%
    # and 0.006%.
    assert last < 1e-3 * spot.pot
    low32, high32 = narrow.evaluate().value_bounds
    low16, high16 = small.evaluate().value_bounds
    assert max(low32, low16) <= min(high32, high16) + 1e-9


@pytest.mark.parametrize("variant", ["dcfr", "cfr+", "cfr"])
def test_compressed_sums_keep_converging_with_every_variant(variant: str) -> None:
    # Rounded to nearest, a hand whose reach-weighted additions stay under half a step
    # of its node's largest sum never moves: CFR+ then drifted from 0.043% to 0.074% of
    # the pot over 3,000 iterations. Rounded stochastically the sums follow float32.
    public = RIVER.build().public
    small = RangeSolver(public, variant=variant, precision="compressed").run(
        iterations=2000, check_every=500)
    narrow = RangeSolver(public, variant=variant, precision="float32").run(
        iterations=2000, check_every=500)
    first, last = small.history[0].exploitability, small.history[-1].exploitability
    assert first is not None
    assert last is not None
    assert last < 0.6 * first
    assert last < 2.0 * narrow.last_exploitability


def test_compressed_numbers_are_the_same_on_every_thread_count() -> None:
    public = Spot(board="Td9d6hQc", oop="22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+", ip="random",
                  pot=60, stack=200, bets="75%", raises="a").build().public
    runs = [RangeSolver(public, precision="compressed", threads=t).run(iterations=40,
                                                                        check_every=20)
            for t in (1, 2)]
    assert len(runs[1]._groups) == 2  # the turn's river cards run on both threads
    for a, b in zip(runs[0]._stored.named().values(), runs[1]._stored.named().values(),
                    strict=True):
        assert np.array_equal(a, b)
    assert runs[0].history[-1].exploitability == runs[1].history[-1].exploitability


def test_compressed_checkpoints_resume_bit_for_bit(tmp_path: Path) -> None:
    public = TURN.build().public
    straight = RangeSolver(public, precision="compressed").run(iterations=30, check_every=10)
    first = RangeSolver(public, precision="compressed").run(iterations=20, check_every=10)
    path = save_range_checkpoint(first, tmp_path / "turn16.npz")
    resumed = load_range_checkpoint(path)
    assert resumed.precision == "compressed"
    assert resumed._stored.regret_scales[0].any()  # the scales came back with the integers
    resumed.run(iterations=10, check_every=10)
    for a, b in zip(resumed.average_arrays(), straight.average_arrays(), strict=True):
        assert np.array_equal(a, b)
    assert resumed.history[-1].exploitability == straight.history[-1].exploitability


def test_finishing_writes_the_averages_over_the_integers() -> None:
    public = TURN.build().public
    solver = RangeSolver(public, precision="compressed",
                         locks=["x:x=1"]).run(iterations=50, check_every=50)
    expected = solver.average_arrays()
    measured = solver.history[-1].exploitability
    finished = solver.finish()
    for p in (0, 1):
        assert finished[p].dtype == np.float32
        assert np.shares_memory(finished[p], solver._stored.buffers[p])  # no new array
        assert np.array_equal(finished[p], expected[p])
    assert solver.exploitability() == measured
    row = public.tree.row(public.tree.keys.index("x"))
    assert (finished[1][row] == 1.0).all()  # the lock (IP checks behind) holds


def test_the_averages_after_finishing_are_the_finished_ones() -> None:
    solver = RangeSolver(TURN.build().public, precision="compressed").run(iterations=20)
    before = solver.average_arrays()
    finished = solver.finish()
    after = solver.average_arrays()  # the sums are gone: copies of what finish wrote
    for p in (0, 1):
        assert np.array_equal(after[p], before[p])
        assert not np.shares_memory(after[p], finished[p])


def test_a_node_too_small_for_a_float32_scale_is_stored_as_zeros() -> None:
    stored = np.ones((2, 3), dtype=np.int16)
    scales = np.ones(2, dtype=np.float32)
    kernels.encode_node(np.full((1, 3), 1e-41), 1, 3, stored, 1, scales, kernels.INT16_TOP,
                        -1)
    assert scales[1] == 0.0
    assert not stored[1].any()
    solver = RangeSolver(RIVER.build().public, precision="compressed",
                         locks=["x:x=1,b50=1e-40"]).run(iterations=20)
    assert np.isfinite(solver.last_exploitability)


def test_a_checkpoint_restores_only_into_its_own_storage(tmp_path: Path) -> None:
    public = TURN.build().public
    state = RangeSolver(public, precision="compressed").run(iterations=5).state()
    with pytest.raises(SolverError, match=re.escape("must be float64 (this solver stores "
                                                    "float64); got int16")):
        RangeSolver(public, precision="float64").restore(state, iterations=5, seconds=0.0,
                                                         history=[])
    wide = RangeSolver(public, precision="float64").run(iterations=5)
    path = save_range_checkpoint(wide, tmp_path / "wide.npz")
    # a float64 file under a limit only compressed fits: refused, not switched
    with pytest.raises(GameTooLargeError, match="float64"):
        RangeSolver.load_checkpoint(path, game=public, memory_limit=public.memory_bytes(2))


def test_the_command_solves_compressed_and_resumes_only_as_stored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spot = ["spot", "solve", "--board", RIVER.board, "--oop", RIVER.oop, "--ip", RIVER.ip,
            "--pot", "100", "--stack", "300"]
    assert main([*spot, "--iterations", "60", "--compress", "--json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["precision"] == "compressed"
    assert "storage: 16-bit integers scaled per node (compressed)" in captured.err
    assert data["percent_of_pot"] < 1.0
    checkpoint = tmp_path / "c.npz"
    as_the_command = Spot(board=RIVER.board, oop=RIVER.oop, ip=RIVER.ip, pot=100, stack=300,
                          bets="50%,100%", raises="2.5x")  # its defaults
    solver = RangeSolver(as_the_command.build().public, precision="float64").run(iterations=5)
    solver.save_checkpoint(checkpoint)
    assert main([*spot, "--iterations", "10", "--checkpoint", str(checkpoint), "--resume",
                 "--compress"]) == 1
    assert "--compress: the checkpoint" in capsys.readouterr().err
