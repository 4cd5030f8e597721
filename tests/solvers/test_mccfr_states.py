"""Monte Carlo CFR through the State API: the same regrets as the compiled path, and Hold'em.

The walkers consume the SplitMix64 stream exactly as the compiled kernels do, so on games
that compile the two paths must agree seed for seed (to float rounding; in practice bit
for bit). On Hold'em, which does not compile, they must run, store only the infosets
they meet, report what they can, and resume exactly from a checkpoint.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pokerlab.errors import GameTooLargeError, SolverError
from pokerlab.games import Game, kuhn, leduc, load
from pokerlab.solvers import Solver
from pokerlab.solvers._mccfr_walk import SplitMix64
from pokerlab.solvers.base import Progress
from pokerlab.solvers.infoset_store import InfosetStore
from pokerlab.solvers.mccfr import (
    ChanceSamplingMCCFR,
    ExternalSamplingMCCFR,
    OutcomeSamplingMCCFR,
    _MonteCarloCFR,
)
from pokerlab.strategy import InfosetTable, Strategy, load_policy
from pokerlab.tree import compile

MCCFR = [ChanceSamplingMCCFR, ExternalSamplingMCCFR, OutcomeSamplingMCCFR]
HOLDEM = 'holdem(betting="limit")'


def _store_as_tree_arrays(solver: _MonteCarloCFR, game: Game) -> tuple[np.ndarray, np.ndarray]:
    """The walker's rows placed at the compiled tree's infoset ids (zeros where never met)."""
    tree = compile(game)
    store = solver._store
    assert store is not None
    regrets = np.zeros((tree.n_infosets, tree.max_actions))
    sums = np.zeros_like(regrets)
    for row, key in enumerate(store.keys):
        lo, hi = store.offsets[row], store.offsets[row + 1]
        i = tree.infoset_id(key)
        assert list(store.actions[lo:hi]) == tree.infoset_actions[i, : hi - lo].tolist()
        regrets[i, : hi - lo] = store.regrets[lo:hi]
        sums[i, : hi - lo] = store.strategy_sum[lo:hi]
    return regrets, sums


# -- the two paths agree, seed for seed ---------------------------------------------------------
@pytest.mark.parametrize("cls", MCCFR)
@pytest.mark.parametrize(("spec", "iterations"), [("kuhn", 400), ("leduc", 150)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_state_walk_equals_compiled_path(
    cls: type[_MonteCarloCFR], spec: str, iterations: int, seed: int
) -> None:
    game = load(spec)
    compiled = cls(game, seed=seed, compiled=True).run(iterations=iterations, check_every=100)
    walked = cls(game, seed=seed, compiled=False).run(iterations=iterations, check_every=100)
    assert compiled.is_compiled
    assert not walked.is_compiled
    regrets, sums = _store_as_tree_arrays(walked, game)
    np.testing.assert_allclose(regrets, compiled._regrets, rtol=0, atol=1e-9)
    np.testing.assert_allclose(sums, compiled._strategy_sum, rtol=0, atol=1e-9)
    average = walked.average_strategy()
    assert isinstance(average, Strategy)  # the game compiles: a Strategy on both paths
    np.testing.assert_allclose(average.probs, compiled.average_probs(), rtol=0, atol=1e-9)
    current = walked.current_strategy()
    assert isinstance(current, Strategy)
    np.testing.assert_allclose(
        current.probs, compiled.current_strategy().probs, rtol=0, atol=1e-9
    )
    for ours, theirs in zip(walked.history, compiled.history, strict=True):
        assert ours.iteration == theirs.iteration
        assert ours.exploitability == pytest.approx(theirs.exploitability, abs=1e-9)


def test_three_players_agree_too() -> None:
    game = kuhn(players=3)
    compiled = ExternalSamplingMCCFR(game, seed=5, compiled=True)
    walked = ExternalSamplingMCCFR(game, seed=5, compiled=False)
    compiled._advance(300)
    walked._advance(300)
    regrets, sums = _store_as_tree_arrays(walked, game)
    np.testing.assert_allclose(regrets, compiled._regrets, rtol=0, atol=1e-9)
    np.testing.assert_allclose(sums, compiled._strategy_sum, rtol=0, atol=1e-9)


def test_splitmix_stream_matches_the_kernel() -> None:
    from pokerlab.cards.splitmix import uniform

    state = np.array([12345], dtype=np.uint64)
    ours = SplitMix64(12345)
    expected = [uniform(state) for _ in range(5)]
    assert [ours.uniform() for _ in range(5)] == expected
    assert all(0.0 <= u < 1.0 for u in expected)


@pytest.mark.parametrize("cls", MCCFR)
def test_batches_do_not_change_the_walk(cls: type[_MonteCarloCFR]) -> None:
    whole = cls(leduc(), seed=3, compiled=False).run(iterations=60, check_every=60)
    split = cls(leduc(), seed=3, compiled=False)
    split.run(iterations=25, check_every=7)
    split.run(iterations=35, check_every=35)
    assert whole._store is not None
    assert split._store is not None
    assert whole._store.keys == split._store.keys
    assert whole._store.regrets == split._store.regrets
    assert whole._store.strategy_sum == split._store.strategy_sum


def test_the_path_is_chosen_and_can_be_forced() -> None:
    assert ExternalSamplingMCCFR(kuhn(), seed=0).is_compiled
    holdem = ExternalSamplingMCCFR(load(HOLDEM), seed=0)
    assert not holdem.is_compiled
    assert "walking states" in repr(holdem)
    assert "compiled" in repr(ExternalSamplingMCCFR(kuhn(), seed=0))
    assert not ExternalSamplingMCCFR(kuhn(), seed=0, compiled=False).is_compiled
    with pytest.raises(GameTooLargeError, match="compiled=True"):
        ExternalSamplingMCCFR(load(HOLDEM), seed=0, compiled=True)
    with pytest.raises(SolverError, match="compiled must be"):
        ExternalSamplingMCCFR(kuhn(), compiled="yes")  # type: ignore[arg-type]


# -- Hold'em ----------------------------------------------------------------------------------
@pytest.mark.parametrize("cls", MCCFR[1:])
def test_holdem_runs_without_compiling(cls: type[_MonteCarloCFR]) -> None:
    game = load(HOLDEM)
    seen: list[Progress] = []
    solver = cls(game, seed=0)
    assert not solver.can_measure
    solver.run(iterations=4, check_every=2, callback=seen.append)
    assert solver.iterations == 4
    assert [row.iteration for row in solver.history] == [2, 4]
    assert all(row.exploitability is None for row in solver.history)
    assert [p.exploitability for p in seen] == [None, None]
    infosets = [p.infosets for p in seen]
    assert infosets[0] is not None
    assert infosets[1] is not None
    assert 0 < infosets[0] <= infosets[1] == solver.infosets_touched()
    memory = seen[-1].memory_bytes
    assert memory is not None
    assert memory > 100 * infosets[1]  # keys, arrays and index
    table = solver.average_strategy()
    assert isinstance(table, InfosetTable)
    assert len(table) == infosets[1]
    _, row = next(iter(table.items()))
    assert sum(row.values()) == pytest.approx(1.0)
    assert table.metadata["algorithm"] == cls.algorithm
    with pytest.raises(SolverError, match="cannot be measured"):
        solver.run(target_exploitability=0.1, iterations=1)
    solver.run(seconds=0.2, check_every=10**6)
    assert solver.iterations > 4
    assert solver.history[-1].iteration == solver.iterations


def test_holdem_checkpoint_resumes_bit_for_bit(tmp_path: Path) -> None:
    game = load(HOLDEM)
    whole = OutcomeSamplingMCCFR(game, seed=7).run(iterations=40, check_every=20)
    first = OutcomeSamplingMCCFR(game, seed=7).run(iterations=20, check_every=20)
    path = first.save_checkpoint(tmp_path / "hu.checkpoint.npz")
    resumed = Solver.load_checkpoint(path)
    assert isinstance(resumed, OutcomeSamplingMCCFR)
    assert not resumed.is_compiled
    assert resumed.iterations == 20
    resumed.run(iterations=20, check_every=20)
    assert resumed._store is not None
    assert whole._store is not None
    assert resumed._store.keys == whole._store.keys
    assert resumed._store.regrets == whole._store.regrets
    assert resumed._store.strategy_sum == whole._store.strategy_sum
    saved = resumed.average_strategy()
    assert isinstance(saved, InfosetTable)
    table = load_policy(saved.save(tmp_path / "hu.npz"))
    assert isinstance(table, InfosetTable)
    assert table.keys == saved.keys
    np.testing.assert_array_equal(table.probs, saved.probs)


def test_compiled_checkpoint_resumes_on_the_state_path(tmp_path: Path) -> None:
    # A forced path is recorded, so resuming takes the same path.
    game = kuhn()
    whole = ExternalSamplingMCCFR(game, seed=2, compiled=False).run(iterations=200)
    first = ExternalSamplingMCCFR(game, seed=2, compiled=False).run(iterations=100)
    resumed = Solver.load_checkpoint(first.save_checkpoint(tmp_path / "k.npz"))
    assert isinstance(resumed, ExternalSamplingMCCFR)
    assert not resumed.is_compiled
    resumed.run(iterations=100)
    np.testing.assert_array_equal(
        resumed.average_strategy().probs,  # type: ignore[union-attr]
        whole.average_strategy().probs,  # type: ignore[union-attr]
    )


def test_store_refuses_a_damaged_state() -> None:
    store = InfosetStore()
    store.add("a", (0, 1))
    store.add("b", (1, 2, 3))
    arrays = store.numpy()
    again = InfosetStore.from_numpy(arrays)
    assert again.keys == ["a", "b"]
    assert list(again.offsets) == [0, 2, 5]
    with pytest.raises(SolverError, match="lacks"):
        InfosetStore.from_numpy({k: v for k, v in arrays.items() if k != "regrets"})
    with pytest.raises(SolverError, match="do not fit"):
        InfosetStore.from_numpy({**arrays, "regrets": np.zeros(4)})
    with pytest.raises(SolverError, match="do not fit"):
        InfosetStore.from_numpy({**arrays, "offsets": np.array([0, 3, 5])[::-1].copy()})


def test_store_memory_grows_with_rows() -> None:
    store = InfosetStore()
    empty = store.nbytes
    for k in range(1000):
        store.add(f"AsKd|{k}", (0, 1, 2))
    assert store.nbytes > empty + 1000 * (3 * 8 * 3)  # three arrays of three entries per row
    table = store.table(kuhn(), "average")
    assert len(table) == 1000
    assert table.probabilities("AsKd|7") == {0: 1 / 3, 1: 1 / 3, 2: 1 / 3}
