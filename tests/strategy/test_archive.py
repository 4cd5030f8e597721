"""Hostile ``.npz`` files: declarations are checked before anything is inflated or unpickled.

Each attack is a file a hostile user could hand to ``pokerlab show``, ``match`` or the web
views. Each must end in one ``FileFormatError`` line that names the problem, having spent
no more than a few megabytes (``tracemalloc`` sees numpy's and zlib's allocations).
"""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from pokerlab.errors import FileFormatError
from pokerlab.games import kuhn, leduc
from pokerlab.strategy import InfosetTable, Strategy, load_policy
from pokerlab.strategy.archive import (
    MAX_INTEGER_DIGITS,
    MAX_JSON_DEPTH,
    NpzArchive,
    parse_json,
    read_npy,
)
from pokerlab.strategy.io import read_npz, read_npz_format
from tests.strategy.zip_bombs import Member, array, npy_header, raw_npy_header, write_zip, zeros

GIB3 = 3 * 1024**3
PEAK_ALLOWED = 64 * 1024**2


def _header(strategy_file: Path) -> np.ndarray:
    with NpzArchive(strategy_file, where="x") as archive:
        return archive.read("header")


def _peak(action: Callable[[], object]) -> tuple[BaseException | None, int]:
    """Run ``action``; return what it raised and the peak of traced allocations."""
    tracemalloc.start()
    try:
        action()
    except Exception as exc:  # the tests look at it
        return exc, tracemalloc.get_traced_memory()[1]
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return None, peak


def _one_line_error(action: Callable[[], object], says: str) -> None:
    error, peak = _peak(action)
    assert isinstance(error, FileFormatError), repr(error)
    text = str(error)
    assert says in text, text
    assert "\n" not in text
    assert peak < PEAK_ALLOWED, f"peak {peak / 1024**2:.0f} MB"


@pytest.fixture
def kuhn_header(tmp_path: Path) -> np.ndarray:
    return _header(Strategy.uniform(kuhn()).save(tmp_path / "honest.npz"))


def test_a_strategy_declaring_3_gb_is_refused_before_inflating(
    tmp_path: Path, kuhn_header: np.ndarray
) -> None:
    bomb = zeros("probs.npy", npy_header((GIB3 // 16, 2)), GIB3)
    path = write_zip(tmp_path / "bomb.npz", [array("header.npy", kuhn_header), bomb])
    assert path.stat().st_size < 4 * 1024**2  # a few MB on disk, 3 GB declared
    _one_line_error(lambda: Strategy.load(path), "declares probs of shape (201326592, 2)")
    _one_line_error(lambda: load_policy(path), "declares probs of shape")


def test_a_table_declaring_more_rows_than_keys_is_refused_before_inflating(
    tmp_path: Path,
) -> None:
    honest = InfosetTable.from_arrays(
        kuhn(), ["1|", "2|"], np.array([0, 2, 4]), np.array([0, 1, 0, 1]), np.full(4, 0.5)
    ).save(tmp_path / "table.npz")
    header = _header(honest)
    keys = np.frombuffer(b"1|\n2|", dtype=np.uint8)
    members = [
        array("header.npy", header),
        array("keys.npy", keys),
        zeros("offsets.npy", npy_header((3,), "<i8"), 24),
        zeros("actions.npy", npy_header((GIB3 // 16,), "<i8"), GIB3 // 2),
        zeros("probs.npy", npy_header((GIB3 // 16,)), GIB3 // 2),
    ]
    path = write_zip(tmp_path / "bomb.npz", members)
    _one_line_error(lambda: InfosetTable.load(path), "declares a table that cannot be")
    _one_line_error(lambda: load_policy(path), "declares a table that cannot be")
    repeated = write_zip(
        tmp_path / "repeated.npz",
        [array("header.npy", header), array("keys.npy", np.frombuffer(b"a\na\na", np.uint8)),
         *members[2:]],
    )
    _one_line_error(lambda: InfosetTable.load(repeated), "keys are not distinct")


def test_the_size_limit_holds_whatever_the_shapes(tmp_path: Path, kuhn_header: np.ndarray) -> None:
    path = write_zip(
        tmp_path / "big.npz",
        [array("header.npy", kuhn_header), zeros("extra.npy", npy_header((2**27,)), 2**30)],
    )
    _one_line_error(lambda: read_npz(path, "pokerlab-strategy", limit=2**29),
                    "declares 1.0 GB of arrays, over the limit of 512.0 MB")


def test_a_member_larger_than_its_header_says_is_refused(
    tmp_path: Path, kuhn_header: np.ndarray
) -> None:
    header = npy_header((3, 2))
    lying = zeros("probs.npy", header, GIB3)
    lying = Member(lying.name, lying.data, len(header) + GIB3)
    path = write_zip(tmp_path / "lying.npz", [array("header.npy", kuhn_header), lying])
    _one_line_error(lambda: Strategy.load(path), "but its .npy header says")
    short = Member("probs.npy", array("p", np.zeros((3, 2))).data, 10**6, deflated=False)
    path = write_zip(tmp_path / "short.npz", [array("header.npy", kuhn_header), short])
    _one_line_error(lambda: Strategy.load(path), "but its .npy header says")


MALFORMED_NPY_HEADERS = {
    "nested shape": "{'descr': '<f8', 'fortran_order': False, 'shape': " + "(" * 300 + ")" * 300
    + ", }",
    "huge integer": "{'descr': '<f8', 'fortran_order': False, 'shape': (" + "9" * 3000 + ",), }",
    "negative axis": "{'descr': '<f8', 'fortran_order': False, 'shape': (-3, 2), }",
    "object dtype": "{'descr': '|O', 'fortran_order': False, 'shape': (3, 2), }",
    "records": "{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (3, 2), }",
    "unknown dtype": "{'descr': '<q9', 'fortran_order': False, 'shape': (3, 2), }",
    "void dtype": "{'descr': '|V8', 'fortran_order': False, 'shape': (3, 2), }",
    "not a dict": "[1, 2, 3]",
    "extra key": "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), 'x': 1, }",
    "call": "{'descr': __import__('os').getcwd(), 'fortran_order': False, 'shape': (3,), }",
    "fortran not bool": "{'descr': '<f8', 'fortran_order': 1, 'shape': (3, 2), }",
    "float shape": "{'descr': '<f8', 'fortran_order': False, 'shape': (3.0, 2), }",
    "latin-1 garbage": "\xff\xfe{'descr'",
    "long header": "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }" + " " * 70000,
}


@pytest.mark.parametrize("text", list(MALFORMED_NPY_HEADERS.values()),
                         ids=list(MALFORMED_NPY_HEADERS))
def test_malformed_npy_headers_are_one_line_errors(
    tmp_path: Path, kuhn_header: np.ndarray, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from pokerlab.cli import main

    version = 2 if len(text) > 60000 else 1
    raw = raw_npy_header(text, version=version) + bytes(48)
    member = Member("probs.npy", raw, len(raw), deflated=False)
    path = write_zip(tmp_path / "bad.npz", [array("header.npy", kuhn_header), member])
    error, _ = _peak(lambda: Strategy.load(path))
    assert isinstance(error, FileFormatError), repr(error)
    assert "'probs'" in str(error)
    assert "\n" not in str(error)
    assert main(["show", str(path)]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_a_bad_npy_magic_version_is_named(tmp_path: Path, kuhn_header: np.ndarray) -> None:
    raw = b"\x93NUMPY\x09\x09" + bytes(64)
    path = write_zip(tmp_path / "v.npz", [array("header.npy", kuhn_header),
                                          Member("probs.npy", raw, len(raw), deflated=False)])
    _one_line_error(lambda: Strategy.load(path), "has .npy format version 9.9")


def test_pickled_object_arrays_are_never_unpickled(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    payload = np.array([_Pickled(str(marker))], dtype=object)
    path = tmp_path / "pickle.npz"
    np.savez(path, header=np.frombuffer(b'{"format": "pokerlab-strategy"}', np.uint8),
             probs=payload)
    with pytest.raises(FileFormatError, match="holds Python objects"):
        Strategy.load(path)
    assert read_npz_format(path) is None  # not listed by the web views either
    assert not marker.exists()
    with np.load(path, allow_pickle=True) as data:  # the payload is real: a trusting
        data["probs"]  # reader runs it
    assert marker.read_text() == "pwned"


class _Pickled:
    """An object whose unpickling would create a file (what a hostile pickle does)."""

    def __init__(self, target: str) -> None:
        self.target = target

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (Path.write_text, (Path(self.target), "pwned"))


JSON_ATTACKS = {
    "nested lists": b"[" * 100_000 + b"]" * 100_000,
    "nested objects": b'{"a":' * 5000 + b"1" + b"}" * 5000,
    "huge integer": b'{"format": "pokerlab-strategy", "n": ' + b"7" * 5000 + b"}",
    "negative huge integer": b'{"format": -' + b"1" * 100 + b"}",
    "invalid utf-8": b'{"format": "\xff\xfe"}',
    "not json": b"{'format': 'pokerlab-strategy'}",
    "nan": b'{"format": NaN, "x": [Infinity]}',
    "array": b'["pokerlab-strategy"]',
}


@pytest.mark.parametrize("raw", list(JSON_ATTACKS.values()), ids=list(JSON_ATTACKS))
def test_json_header_attacks_are_one_line_errors(tmp_path: Path, raw: bytes) -> None:
    path = write_zip(
        tmp_path / "json.npz",
        [array("header.npy", np.frombuffer(raw, np.uint8)), array("probs.npy", np.zeros(2))],
    )
    error, peak = _peak(lambda: Strategy.load(path))
    assert isinstance(error, FileFormatError), repr(error)
    assert "\n" not in str(error)
    assert peak < PEAK_ALLOWED
    assert read_npz_format(path) is None or raw.startswith(b'{"format": NaN')


def test_parse_json_bounds() -> None:
    assert parse_json(b'{"a": [1, 2.5, "x[["], "b": ' + b"9" * MAX_INTEGER_DIGITS + b"}",
                      where="h") == {"a": [1, 2.5, "x[["], "b": int("9" * MAX_INTEGER_DIGITS)}
    deep = b"[" * MAX_JSON_DEPTH + b"]" * MAX_JSON_DEPTH
    assert parse_json(deep, where="h") is not None
    with pytest.raises(FileFormatError, match=f"nested {MAX_JSON_DEPTH + 1} deep"):
        parse_json(b"[" + deep + b"]", where="h")
    with pytest.raises(FileFormatError, match="more than 40 digits"):
        parse_json(b"[" + b"1" * 41 + b"]", where="h")
    with pytest.raises(FileFormatError, match="over"):
        parse_json(b" " * 101, where="h", max_bytes=100)
    assert parse_json(b'["' + b"1" * 1000 + b'", 1.' + b"1" * 1000 + b"]", where="h")


def test_a_header_member_that_is_a_bomb_is_refused(tmp_path: Path) -> None:
    bomb = zeros("header.npy", npy_header((GIB3,), "|u1"), GIB3)
    path = write_zip(tmp_path / "header_bomb.npz", [bomb])
    _one_line_error(lambda: Strategy.load(path), "has a corrupted header")
    assert read_npz_format(path) is None


def test_honest_files_still_read(tmp_path: Path) -> None:
    strategy = Strategy.uniform(leduc())
    path = strategy.save(tmp_path / "leduc.npz")
    np.testing.assert_array_equal(Strategy.load(path).probs, strategy.probs)
    assert read_npz_format(path) == "pokerlab-strategy"
    fortran = tmp_path / "fortran.npz"
    values = np.asfortranarray(np.arange(12.0).reshape(3, 4))
    np.savez_compressed(fortran, header=np.frombuffer(b'{"format": "f"}', np.uint8), a=values)
    _, arrays = read_npz(fortran, "f")
    np.testing.assert_array_equal(arrays["a"], values)


def test_read_npy_checks_the_declared_shape(tmp_path: Path) -> None:
    path = tmp_path / "cache.npy"
    np.save(path, np.arange(6, dtype=np.int64))
    np.testing.assert_array_equal(read_npy(path, shape=(6,), kinds="i"), np.arange(6))
    with pytest.raises(FileFormatError, match=r"declares \(6,\) \(int64\), not \(7,\)"):
        read_npy(path, shape=(7,))
    path.write_bytes(npy_header((10**9,), "<i8") + bytes(8))
    with pytest.raises(FileFormatError, match="declares"):
        read_npy(path, shape=(10**9,))
    path.write_bytes(json.dumps([1]).encode())
    with pytest.raises(FileFormatError, match="no numpy magic"):
        read_npy(path, shape=(1,))


def test_read_into_fills_the_given_array_without_a_second_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pokerlab.strategy.archive as archive_module

    monkeypatch.setattr(archive_module, "_CHUNK", 2**20)  # 1 MB pieces of an 8 MB array
    table = np.arange(2_000_000, dtype=np.float32).reshape(1000, 2000)
    path = tmp_path / "t.npz"
    np.savez(path, table=table, other=np.zeros(3))
    out = np.empty_like(table)
    with NpzArchive(path, where="t") as archive:
        tracemalloc.start()
        archive.read_into("table", out)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        np.testing.assert_array_equal(out, table)
        assert peak < table.nbytes / 2  # pieces, never the whole array again
        for wrong in (np.empty((2000, 1000), np.float32), np.empty((1000, 2000)),
                      np.empty((2000, 1000), np.float32).T):
            with pytest.raises(FileFormatError, match=r"'table' is float32 \(1000, 2000\)"):
                archive.read_into("table", wrong)
        with pytest.raises(FileFormatError, match="has no 'missing' array"):
            archive.read_into("missing", out)
