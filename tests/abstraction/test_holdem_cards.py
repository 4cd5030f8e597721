"""The Hold'em card abstraction: counts as asked, determinism, the contract, files, resume.

The builds here compute a few canonical boards per street (``boards=3``), never the full
tables (minutes); docs/benchmarks.md records the full build.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numba
import numpy as np
import pytest

from pokerlab.abstraction.card_abstraction import CardAbstraction
from pokerlab.abstraction.holdem_cards import (
    HoldemCardAbstraction,
    build_holdem_abstraction,
    cache_path,
    check_bucket_counts,
    load,
)
from pokerlab.abstraction.holdem_features import board_weights
from pokerlab.errors import CardError, FileFormatError, SpecError

COUNTS = (5, 8, 8, 8)
SMALL = {"n_bins": 8, "boards": 3, "sample": 5000}


@pytest.fixture(scope="module")
def small() -> HoldemCardAbstraction:
    return build_holdem_abstraction(COUNTS, seed=1, **SMALL)  # type: ignore[arg-type]


def test_bucket_counts_as_asked(small: HoldemCardAbstraction) -> None:
    assert small.bucket_counts == COUNTS
    for table, count in zip(small.tables, COUNTS, strict=True):
        assert np.array_equal(np.unique(table), np.arange(count))
    assert small.name == "emd 5/8/8/8 seed 1"
    assert isinstance(small, CardAbstraction)
    assert small.board_visible == (0, 3, 4, 5)
    assert small.report is not None
    assert set(small.report.emd) == {"preflop", "flop", "turn", "river"}


@pytest.mark.slow
def test_same_seed_same_tables_on_one_core_too(small: HoldemCardAbstraction) -> None:
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        again = build_holdem_abstraction(COUNTS, seed=1, **SMALL)  # type: ignore[arg-type]
    finally:
        numba.set_num_threads(threads)
    for first, second in zip(small.tables, again.tables, strict=True):
        assert np.array_equal(first, second)


def deals_on_known_flops(n: int, players: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Deals whose flop is one of the canonical flops the small build computed."""
    rng = np.random.default_rng(seed)
    reps, _ = board_weights(3)
    hole = np.empty((n, players, 2), dtype=np.int64)
    board = np.empty((n, 5), dtype=np.int64)
    for d in range(n):
        flop = reps[rng.integers(3)]
        rest = rng.permutation([c for c in range(52) if c not in flop])
        board[d] = [*rng.permutation(flop), *rest[:2]]
        hole[d] = rest[2 : 2 + 2 * players].reshape(players, 2)
    return hole, board


def test_buckets_agree_with_one_hand_and_ignore_suit_names(small: HoldemCardAbstraction) -> None:
    hole, board = deals_on_known_flops(200, 3, seed=2)
    out = small.buckets(hole, board)
    assert out.shape == (200, 3, 4)
    assert out.dtype == np.int32
    for d, p in itertools.product(range(0, 200, 17), range(3)):
        for street, visible in enumerate((0, 3, 4, 5)):
            assert out[d, p, street] == small.bucket(hole[d, p], board[d, :visible])
    # renaming the suits and reordering the flop and the hole cards changes nothing
    perm = np.array([2, 0, 3, 1])
    renamed_hole = (hole >> 2) * 4 + perm[hole & 3]
    renamed_board = (board >> 2) * 4 + perm[board & 3]
    renamed_board[:, :3] = renamed_board[:, 2::-1]
    assert np.array_equal(small.buckets(renamed_hole[:, :, ::-1], renamed_board), out)
    # the flop buckets of these hands were computed: more than one is used
    assert len(np.unique(out[:, :, 1])) > 1


def test_large_batches_on_both_cores_agree_with_small_ones(small: HoldemCardAbstraction) -> None:
    hole, board = deals_on_known_flops(5000, 2, seed=4)
    whole = small.buckets(hole, board)  # both cores
    parts = [small.buckets(hole[i : i + 1000], board[i : i + 1000]) for i in range(0, 5000, 1000)]
    assert np.array_equal(whole, np.concatenate(parts))
    board[4321, 0] = hole[4321, 0, 1]
    with pytest.raises(CardError, match="deal 4321 deals a card twice"):
        small.buckets(hole, board)


def test_save_and_load(small: HoldemCardAbstraction, tmp_path: Path) -> None:
    path = small.save(tmp_path / "cards.npz")
    loaded = load(path)
    assert loaded.bucket_counts == COUNTS
    assert loaded.seed == 1
    for first, second in zip(small.tables, loaded.tables, strict=True):
        assert np.array_equal(first, second)
    (tmp_path / "bad.npz").write_bytes(b"not a file")
    with pytest.raises(FileFormatError, match="cannot read"):
        load(tmp_path / "bad.npz")
    np.savez(tmp_path / "other.npz", header=np.frombuffer(b'{"format": "x"}', dtype=np.uint8))
    with pytest.raises(FileFormatError, match="not a Hold'em card abstraction"):
        load(tmp_path / "other.npz")


@pytest.mark.slow
def test_interrupted_build_resumes(small: HoldemCardAbstraction, tmp_path: Path) -> None:
    partial = tmp_path / "partial"

    def stop_at_turn(phase: str, done: int, total: int) -> None:
        if phase == "turn features":
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_holdem_abstraction(
            COUNTS,
            seed=1,
            progress=stop_at_turn,
            partial_dir=partial,
            **SMALL,  # type: ignore[arg-type]
        )
    assert sorted(p.name for p in partial.glob("street*.npy")) == ["street0.npy", "street1.npy"]
    resumed = build_holdem_abstraction(COUNTS, seed=1, partial_dir=partial, **SMALL)  # type: ignore[arg-type]
    assert resumed.report is not None
    assert resumed.report.resumed == ("preflop", "flop")
    assert "flop features" not in resumed.report.seconds
    for first, second in zip(small.tables, resumed.tables, strict=True):
        assert np.array_equal(first, second)


def test_cache_folder_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POKERLAB_CACHE", str(tmp_path))
    path = cache_path((169, 50, 50, 50), 3)
    assert path.parent == tmp_path / "abstraction"
    assert "169-50-50-50" in path.name
    assert "seed3" in path.name
    assert cache_path((169, 50, 50, 50), 3, cache_dir=tmp_path / "x").parent == \
        tmp_path / "x" / "abstraction"  # cache_dir is the root, as everywhere


def test_bad_input_is_named(small: HoldemCardAbstraction) -> None:
    with pytest.raises(SpecError, match=r"preflop buckets must be 1\.\.169"):
        check_bucket_counts((170, 50, 50, 50))
    with pytest.raises(SpecError, match="give 4 bucket counts"):
        check_bucket_counts((50, 50, 50))
    with pytest.raises(SpecError, match="river buckets"):
        check_bucket_counts((169, 50, 50, 0))
    hole, board = deals_on_known_flops(4, 2, seed=3)
    board[2, 4] = hole[2, 1, 0]
    with pytest.raises(CardError, match="deal 2 deals a card twice"):
        small.buckets(hole, board)
    with pytest.raises(CardError, match=r"\[deals, 5\]"):
        small.buckets(hole, board[:, :4])
    with pytest.raises(CardError, match=r"outside 0\.\.51"):
        small.buckets(hole + 52, board)
    with pytest.raises(SpecError, match="4 street tables"):
        HoldemCardAbstraction(small.tables[:3])
