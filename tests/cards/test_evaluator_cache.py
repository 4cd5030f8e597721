"""The hand evaluator's lookup tables, cached on disk: read back equal, rebuilt when bad."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from pokerlab.cards import evaluator

FIELDS = tuple(evaluator._TABLE_SHAPES)


def _equal(a: evaluator._Tables, b: evaluator._Tables) -> bool:
    return all(np.array_equal(getattr(a, f), getattr(b, f))
               and getattr(a, f).dtype == getattr(b, f).dtype for f in FIELDS)


@pytest.fixture(scope="module")
def built() -> evaluator._Tables:
    return evaluator._build_tables()


def test_the_tables_in_use_are_those_the_builder_makes(built: evaluator._Tables) -> None:
    # whether this process read them from the cache or built them
    assert _equal(evaluator._tables(), built)


def test_cached_tables_read_back_equal(built: evaluator._Tables, tmp_path: Path) -> None:
    path = tmp_path / "evaluator" / "tables-x.npz"
    assert evaluator._read_tables(path) is None  # nothing there yet
    evaluator._write_tables(path, built)
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary left
    read = evaluator._read_tables(path)
    assert read is not None
    assert _equal(read, built)


def test_the_builder_makes_the_tables_of_the_known_digest(built: evaluator._Tables) -> None:
    # a change to the builder must update TABLES_SHA256 (and so the cache file's name)
    arrays = {f: getattr(built, f) for f in FIELDS}
    assert evaluator._digest(arrays) == evaluator.TABLES_SHA256


def test_a_process_writes_the_tables_once_and_the_next_reads_them(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = ("from pokerlab.cards import evaluator as e\n"
            "print(e.evaluate_value('AsKsQsJsTs'), e.evaluate_value('7c5d4h3s2d'))")
    env = {**os.environ, "POKERLAB_CACHE": str(tmp_path)}
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env=env, check=True)
        assert done.stdout.split() == ["7462", "1"]
        files = list((tmp_path / "evaluator").iterdir())
        assert [f.name for f in files] == [f"tables-{evaluator.TABLES_SHA256[:16]}.npz"]


@pytest.mark.parametrize("damage", ["garbage", "truncated", "wrong-dtype", "wrong-shape",
                                    "out-of-range", "missing-field", "pickled", "permuted",
                                    "offsets", "plain-npy"])
def test_a_damaged_cache_file_is_not_read(built: evaluator._Tables, tmp_path: Path,
                                          damage: str) -> None:
    path = tmp_path / "tables.npz"
    arrays = {f: getattr(built, f) for f in FIELDS}
    if damage == "garbage":
        path.write_bytes(os.urandom(4096))
    elif damage == "plain-npy":
        np.save(path.open("wb"), arrays["flush"])
    elif damage == "truncated":
        evaluator._write_tables(path, built)
        path.write_bytes(path.read_bytes()[:5000])
    else:
        if damage == "wrong-dtype":
            arrays["nonflush"] = arrays["nonflush"].astype(np.int32)
        elif damage == "wrong-shape":
            arrays["flush"] = arrays["flush"][:-1]
        elif damage == "out-of-range":
            arrays["flush"] = arrays["flush"].copy()
            arrays["flush"][31] = 9999
        elif damage == "missing-field":
            del arrays["kickers"]
        elif damage == "permuted":  # every value in range, the ranks wrong
            arrays["nonflush"] = np.random.default_rng(0).permutation(arrays["nonflush"])
        elif damage == "offsets":
            arrays["offsets"] = arrays["offsets"] - 1
        elif damage == "pickled":
            arrays["kickers"] = np.array([{"a": 1}], dtype=object)  # type: ignore[assignment]
        with path.open("wb") as handle:
            np.savez(handle, **arrays)
    assert evaluator._read_tables(path) is None


def test_a_cache_folder_that_cannot_be_written_costs_only_the_build(
        built: evaluator._Tables, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    evaluator._write_tables(blocker / "evaluator" / "tables.npz", built)  # no error
    assert blocker.read_text() == "not a folder"
