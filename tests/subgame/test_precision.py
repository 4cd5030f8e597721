"""float32 storage in the range solver: it agrees with float64, "auto" picks it only when
float64 does not fit, spots that fit only in float32 build, and its checkpoints resume."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pokerlab.errors import GameTooLargeError, SolverError
from pokerlab.subgame import RangeSolver
from pokerlab.subgame.checkpoint import load_range_checkpoint, save_range_checkpoint
from pokerlab.subgame.range_solver import evaluate_profile, uniform_arrays
from pokerlab.subgame.spot import Spot
from pokerlab.subgame.units import work_arrays

RIVER = Spot(board="Td9d6hQc2s", oop="AA, JJ, T9s, 87s, K8s, QJs", ip="KK, QQ, A9s, J8s, A2s",
             pot=100, stack=300, bets="50%, 100%", raises="2.5x")
TURN = Spot(board="Td9d6hQc", oop="AA, T9s, 87s", ip="KK, 87s, AJs", pot=60, stack=120,
            bets="100%", raises="a")


@pytest.mark.parametrize("spot", [RIVER, TURN], ids=["river", "turn"])
def test_float32_storage_converges_like_float64(spot: Spot) -> None:
    # The runs do not follow each other exactly: regret matching is discontinuous where a
    # regret is 0, and float32 rounding tips such regrets either way. Both converge, to
    # brackets of the same game value.
    public = spot.build().public
    wide = RangeSolver(public, precision="float64").run(iterations=200, check_every=100)
    narrow = RangeSolver(public, precision="float32").run(iterations=200, check_every=100)
    assert wide.dtype == np.float64
    assert narrow.dtype == np.float32
    assert narrow._regrets[0].dtype == np.float32
    assert narrow._work.cfreach.dtype == np.float32
    # Strategies come in the storage dtype (on a flop they are as large as the regrets).
    assert all(probs.dtype == np.float32 for probs in narrow.average_arrays())
    assert all(probs.dtype == np.float64 for probs in wide.average_arrays())
    first, last = narrow.history[0].exploitability, narrow.history[-1].exploitability
    assert first is not None
    assert last is not None
    assert last < first
    assert last <= 2.0 * wide.last_exploitability + 1e-4 * spot.pot
    assert last < 2e-3 * spot.pot
    low64, high64 = wide.evaluate().value_bounds
    low32, high32 = narrow.evaluate().value_bounds
    assert max(low64, low32) <= min(high64, high32) + 1e-9


def test_a_float32_pass_evaluates_a_fixed_profile_like_float64() -> None:
    public = TURN.build().public
    profile = uniform_arrays(public)
    wide = evaluate_profile(public, profile, work=work_arrays(public, np.float64))
    narrow = evaluate_profile(public, profile, work=work_arrays(public, np.float32))
    scale = 1e-6 * TURN.pot
    assert narrow.values == pytest.approx(wide.values, abs=scale)
    assert narrow.best_response_values == pytest.approx(wide.best_response_values, abs=scale)
    assert narrow.exploitability > 0.0


def test_auto_precision_falls_back_to_float32_then_compressed_only_where_needed() -> None:
    public = RIVER.build().public
    need64, need32 = public.memory_bytes(8), public.memory_bytes(4)
    assert need32 * 2 == need64
    assert RangeSolver(public).dtype == np.float64
    assert "precision" not in RangeSolver(public).hyperparameters()
    squeezed = RangeSolver(public, memory_limit=need64 - 1)
    assert squeezed.dtype == np.float32
    assert squeezed.hyperparameters()["precision"] == "float32"
    with pytest.raises(GameTooLargeError, match="float64"):
        RangeSolver(public, precision="float64", memory_limit=need64 - 1)
    with pytest.raises(GameTooLargeError, match="float32"):
        RangeSolver(public, precision="float32", memory_limit=need32 - 1)
    need16 = public.memory_bytes(2)
    assert need16 < need32
    smallest = RangeSolver(public, memory_limit=need32 - 1)
    assert smallest.precision == "compressed"
    assert smallest.hyperparameters()["precision"] == "compressed"
    with pytest.raises(GameTooLargeError, match="compressed"):
        RangeSolver(public, memory_limit=need16 - 1)
    with pytest.raises(SolverError, match="unknown precision 'half'; allowed: auto"):
        RangeSolver(public, precision="half")


def test_a_spot_that_fits_only_in_float32_builds_and_says_so() -> None:
    size = RIVER.size()
    assert size.bytes_in(4) < size.bytes == size.bytes_in(8)
    assert size.precision(size.bytes) == "float64"
    assert size.precision(size.bytes - 1) == "float32"
    assert size.precision(size.bytes_in(4) - 1) == "compressed"
    assert size.precision(size.bytes_in(2) - 1) is None
    assert "with float32 storage" in size.describe()
    built = RIVER.build(memory_limit=size.bytes - 1)
    assert built.public.tree.n_nodes == size.n_nodes
    assert built.precision == "float32"
    assert RIVER.build().precision == "float64"
    solver = RangeSolver(built.public, precision=built.precision).run(iterations=5)
    assert solver.dtype == np.float32
    assert RIVER.build(memory_limit=size.bytes_in(4) - 1).precision == "compressed"
    with pytest.raises(GameTooLargeError, match="over the limit"):
        RIVER.build(memory_limit=size.bytes_in(2) - 1)


def test_float32_checkpoints_resume_bit_for_bit(tmp_path: Path) -> None:
    public = TURN.build().public
    straight = RangeSolver(public, precision="float32").run(iterations=30, check_every=10)
    first = RangeSolver(public, precision="float32").run(iterations=20, check_every=10)
    path = save_range_checkpoint(first, tmp_path / "turn32.npz")
    resumed = load_range_checkpoint(path)
    assert resumed.dtype == np.float32
    resumed.run(iterations=10, check_every=10)
    for a, b in zip(resumed.average_arrays(), straight.average_arrays(), strict=True):
        assert np.array_equal(a, b)
    assert resumed.history[-1].exploitability == straight.history[-1].exploitability


def test_a_flop_spot_with_isomorphic_turns_and_rivers_equals_the_one_without() -> None:
    # Td9d6h holds no club and no spade: the spade turns and rivers reuse the club
    # subtrees at both chance levels, which must not change any value.
    common: dict[str, Any] = {"board": "Td9d6h", "oop": "AA, T9s, 87s", "ip": "KK, QJs, 66",
                              "pot": 100, "stack": 100, "bets": "100%", "raises": ""}
    shared = Spot(**common).build().public
    plain = Spot(**common, isomorphism=False).build().public
    assert shared.tree.n_nodes < plain.tree.n_nodes
    assert shared.tree.isomorphic.shape[0] > 0
    fixed = [evaluate_profile(public, uniform_arrays(public)) for public in (shared, plain)]
    assert fixed[0].values[0] == pytest.approx(fixed[1].values[0], abs=1e-9)
    for p in (0, 1):
        assert fixed[0].best_response_values[p] == pytest.approx(
            fixed[1].best_response_values[p], abs=1e-9)
    # A few iterations follow each other to rounding. (Later the two runs part: the chance
    # nodes sum in different orders, and regret matching jumps where a regret is 0.)
    early = [RangeSolver(public, precision="float64").run(iterations=3, check_every=3)
             .evaluate() for public in (shared, plain)]
    assert early[0].values[0] == pytest.approx(early[1].values[0], abs=1e-9)
    assert early[0].exploitability == pytest.approx(early[1].exploitability, abs=1e-9)
    assert early[0].exploitability > 0.0
    later = [RangeSolver(public, precision=precision).run(iterations=20, check_every=20)
             .evaluate() for public, precision in ((shared, "float64"), (plain, "float64"),
                                                   (shared, "float32"))]
    for result in later[1:]:
        assert result.values[0] == pytest.approx(later[0].values[0], abs=1e-3 * 100)
