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


def test_the_cache_file_is_named_by_the_source_it_was_built_by(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("POKERLAB_CACHE", str(tmp_path))
    path = evaluator._tables_path()
    assert path.parent == tmp_path / "evaluator"
    import hashlib
    digest = hashlib.sha256(Path(evaluator.__file__).read_bytes()).hexdigest()[:16]
    assert path.name == f"tables-{digest}.npz"


@pytest.mark.parametrize("damage", ["garbage", "truncated", "wrong-dtype", "wrong-shape",
                                    "out-of-range", "missing-field", "pickled"])
def test_a_damaged_cache_file_is_not_read(built: evaluator._Tables, tmp_path: Path,
                                          damage: str) -> None:
    path = tmp_path / "tables.npz"
    arrays = {f: getattr(built, f) for f in FIELDS}
    if damage == "garbage":
        path.write_bytes(os.urandom(4096))
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
