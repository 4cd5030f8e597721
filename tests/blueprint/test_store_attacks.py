"""Hostile blueprint files: malformed headers and inflating tables end in one clear line.

A ``.bp`` file is two text lines (magic, JSON header) then an ``.npz`` archive. Every field
of the header is mutated (removed, or given each kind of wrong value), the header itself
is broken (not JSON, nested, huge integers, invalid UTF-8, too long, cut short), and the
tables declare gigabytes; each load gives a pokerlab error of one line, or (for a field
nothing reads) loads, never a traceback, and never inflates what it refuses.
"""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.blueprint.store import MAGIC, VERSION, load_blueprint, read_header, save_blueprint
from pokerlab.errors import FileFormatError, PokerlabError
from pokerlab.games import load
from tests.strategy.zip_bombs import Member, npy_header, write_zip, zeros

SMALL = (
    'holdem(betting="limit", ranks=3, suits=2, hole=1, board="1", seat_blinds=(1, 1), '
    'raises="2,4", caps="2,2", first="0,0", stack=100)'
)
BAD_VALUES: list[Any] = [None, "x", -1, 2**70, 1.5, True, [], {}, [1, [2]], {"k": {"k": 1}}]


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, dict[str, Any], bytes]:
    trainer = BlueprintTrainer(load(SMALL), seed=0)
    trainer.run(50)
    path = save_blueprint(trainer, tmp_path_factory.mktemp("bp") / "honest.bp",
                          cards={"kind": "lossless"})
    first, second, tables = path.read_bytes().split(b"\n", 2)
    return first + b"\n", json.loads(second), tables


def _write(path: Path, first: bytes, header: object, tables: bytes) -> Path:
    text = json.dumps(header).encode() if not isinstance(header, bytes) else header
    path.write_bytes(first + text + b"\n" + tables)
    return path


def _loads_or_one_line(path: Path) -> str | None:
    """Load ``path``; return None if it loads, else the error's text (a pokerlab error)."""
    try:
        load_blueprint(path)
    except PokerlabError as exc:
        text = str(exc)
        assert "\n" not in text, text
        return text
    return None


def _mutations(header: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    found: list[tuple[str, dict[str, Any]]] = []
    for name in header:
        removed = dict(header)
        del removed[name]
        found.append((f"no {name}", removed))
        for value in BAD_VALUES:
            found.append((f"{name}={value!r}", {**header, name: value}))
    for parent in ("rules", "spec_dict", "rng", "cards"):
        for name in header[parent]:
            for value in BAD_VALUES[:6]:
                found.append((f"{parent}.{name}={value!r}",
                              {**header, parent: {**header[parent], name: value}}))
    return found


def test_every_header_field_mutated_gives_one_line_or_loads(
    honest: tuple[bytes, dict[str, Any], bytes], tmp_path: Path
) -> None:
    first, header, tables = honest
    refused: dict[str, str] = {}
    for label, mutated in _mutations(header):
        text = _loads_or_one_line(_write(tmp_path / "m.bp", first, mutated, tables))
        if text is not None:
            refused[label] = text
    # Fields a loader reads are refused when wrong; each refusal names the field.
    for name in ("spec", "spec_dict", "cards", "bucket_counts", "rules", "iterations", "seed",
                 "rng", "prune_after", "prune_threshold"):
        assert f"'{name}'" in refused[f"no {name}"], refused[f"no {name}"]
        assert name in refused[f"{name}='x'"] or "blueprint for" in refused[f"{name}='x'"]
    assert "'rng'" in refused["rng.state='x'"]
    assert "'iterations'" in refused["iterations=-1"]
    assert "'rows'" in refused["rows=1180591620717411303424"]


BROKEN_HEADERS: dict[str, bytes] = {
    "not json": b"{'spec': 1}",
    "a list": b"[1, 2, 3]",
    "nested": b"[" * 100_000 + b"]" * 100_000,
    "nested object": b'{"a":' * 3000 + b"1" + b"}" * 3000,
    "huge integer": b'{"iterations": ' + b"9" * 5000 + b"}",
    "invalid utf-8": b'{"spec": "\xff\xfe"}',
    "nan": b'{"iterations": NaN}',
    "empty": b"",
}


@pytest.mark.parametrize("raw", list(BROKEN_HEADERS.values()), ids=list(BROKEN_HEADERS))
def test_broken_header_lines_are_one_line_errors(
    honest: tuple[bytes, dict[str, Any], bytes], tmp_path: Path, raw: bytes,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from pokerlab.cli import main

    first, _, tables = honest
    path = _write(tmp_path / "b.bp", first, raw, tables)
    with pytest.raises(FileFormatError) as error:
        read_header(path)
    assert "\n" not in str(error.value)
    assert main(["blueprint", "info", str(path)]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_a_header_line_without_end_is_read_no_further_than_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "long.bp"
    with path.open("wb") as handle:
        handle.write(f"{MAGIC} {VERSION}\n".encode() + b'{"a": "')
        handle.write(b"x" * (40 * 1024**2))
    tracemalloc.start()
    try:
        with pytest.raises(FileFormatError, match="cut short or over"):
            read_header(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * 1024**2


@pytest.mark.parametrize("first", [b"pokerlab-blueprint 99\n", b"pokerlab-blueprint\n",
                                   b"\xff\xfe\n", b"pokerlab-blueprint 1 2\n"])
def test_bad_magic_lines(honest: tuple[bytes, dict[str, Any], bytes], tmp_path: Path,
                         first: bytes) -> None:
    _, header, tables = honest
    with pytest.raises(FileFormatError):
        read_header(_write(tmp_path / "m.bp", first, header, tables))


def test_tables_declaring_gigabytes_are_refused_before_inflating(
    honest: tuple[bytes, dict[str, Any], bytes], tmp_path: Path
) -> None:
    first, header, _ = honest
    prefix = first + json.dumps(header).encode() + b"\n"
    size = 3 * 1024**3
    members = [zeros("regrets.npy", npy_header((size // 24, 3)), size),
               zeros("strategy_sum.npy", npy_header((size // 24, 3)), size)]
    path = write_zip(tmp_path / "bomb.bp", members, prefix=prefix)
    assert path.stat().st_size < 8 * 1024**2
    tracemalloc.start()
    try:
        with pytest.raises(FileFormatError, match=r"tables of shape \(134217728, 3\)"):
            load_blueprint(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024**2
    lying = zeros("regrets.npy", npy_header((288, 3)), 288 * 24)
    lying = Member(lying.name, lying.data, size)
    path = write_zip(tmp_path / "lying.bp", [lying, members[1]], prefix=prefix)
    with pytest.raises(FileFormatError, match="tables are refused"):
        load_blueprint(path)


def test_honest_tables_still_load(honest: tuple[bytes, dict[str, Any], bytes],
                                  tmp_path: Path) -> None:
    first, header, tables = honest
    trainer, read = load_blueprint(_write(tmp_path / "ok.bp", first, header, tables))
    assert read["iterations"] == 50
    assert trainer.regrets.shape == (288, 3)
    assert np.abs(trainer.regrets).sum() > 0


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=8),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.text(max_size=6), children, max_size=3),
    max_leaves=8,
)


@pytest.mark.slow
@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_header_mutations_fuzz(
    honest: tuple[bytes, dict[str, Any], bytes], tmp_path: Path, data: st.DataObject
) -> None:
    first, header, tables = honest
    mutated = json.loads(json.dumps(header))
    for _ in range(data.draw(st.integers(1, 3))):
        target = mutated
        parent = data.draw(st.sampled_from(sorted(target)))
        if isinstance(target[parent], dict) and target[parent] and data.draw(st.booleans()):
            target, parent = target[parent], data.draw(st.sampled_from(sorted(target[parent])))
        if data.draw(st.booleans()):
            del target[parent]
        else:
            target[parent] = data.draw(JSON_VALUES)
    _loads_or_one_line(_write(tmp_path / "f.bp", first, mutated, tables))
