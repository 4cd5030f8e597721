"""Hostile blueprint files: malformed headers and inflating tables end in one clear line.

A ``.bp`` file is a checkpoint of kind ``"blueprint"`` (an ``.npz`` archive whose
``header`` array is the JSON header, the tables ``state.regrets`` and
``state.strategy_sum``) or, in the former container still read, two text lines (magic,
JSON header) then an ``.npz`` archive of the tables. In both, every field of the header is
mutated (removed, or given each kind of wrong value), the header itself is broken (not
JSON, nested, huge integers, invalid UTF-8, too long, cut short), and the tables declare
gigabytes; each load gives a pokerlab error of one line, or (for a field nothing reads)
loads, never a traceback, and never inflates what it refuses.
"""

from __future__ import annotations

import io
import json
import tracemalloc
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.blueprint.store import (
    MAGIC,
    VERSION,
    header_of,
    load_blueprint,
    read_header,
    save_blueprint,
)
from pokerlab.errors import FileFormatError, PokerlabError
from pokerlab.games import load
from tests.strategy.zip_bombs import Member, array, npy_header, write_zip, zeros

SMALL = (
    'holdem(betting="limit", ranks=3, suits=2, hole=1, board="1", seat_blinds=(1, 1), '
    'raises="2,4", caps="2,2", first="0,0", stack=100)'
)
BAD_VALUES: list[Any] = [None, "x", -1, 2**70, 1.5, True, [], {}, [1, [2]], {"k": {"k": 1}}]


@dataclass(frozen=True)
class Honest:
    """An honest blueprint's parts, and how its container writes a (mutated) header."""

    container: str  # "checkpoint" (what save_blueprint writes) or "legacy"
    header: dict[str, Any]
    tables: dict[str, np.ndarray]

    @property
    def prefix(self) -> str:
        return "state." if self.container == "checkpoint" else ""

    def write(self, path: Path, header: object, *, first: bytes | None = None) -> Path:
        """``path`` with ``header`` (an object, or raw bytes) and the honest tables."""
        text = header if isinstance(header, bytes) else json.dumps(header).encode()
        named = {self.prefix + name: table for name, table in self.tables.items()}
        if self.container == "checkpoint":
            header_array = np.frombuffer(text, dtype=np.uint8)
            with path.open("wb") as handle:
                np.savez(handle, header=header_array, **named)  # type: ignore[arg-type]
            return path
        body = io.BytesIO()
        np.savez(body, **named)  # type: ignore[arg-type]
        line = f"{MAGIC} {VERSION}\n".encode() if first is None else first
        path.write_bytes(line + text + b"\n" + body.getvalue())
        return path

    def write_members(self, path: Path, members: list[Member]) -> Path:
        """``path`` with the honest header and ``members`` as its tables (hostile sizes)."""
        text = json.dumps(self.header).encode()
        if self.container == "checkpoint":
            header = array("header.npy", np.frombuffer(text, dtype=np.uint8))
            return write_zip(path, [header, *members])
        return write_zip(path, members, prefix=f"{MAGIC} {VERSION}\n".encode() + text + b"\n")


@pytest.fixture(scope="module", params=["checkpoint", "legacy"])
def honest(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Honest:
    trainer = BlueprintTrainer(load(SMALL), seed=0)
    trainer.run(50)
    tables = {"regrets": trainer.regrets.copy(), "strategy_sum": trainer.strategy_sum.copy()}
    if request.param == "legacy":  # what save_blueprint wrote before the checkpoint family
        header = header_of(trainer, {"kind": "lossless"}, None)
        header = {"format": MAGIC, "version": VERSION, **header}
        return Honest("legacy", json.loads(json.dumps(header)), tables)
    path = save_blueprint(trainer, tmp_path_factory.mktemp("bp") / "honest.bp",
                          cards={"kind": "lossless"})
    assert path.read_bytes()[:2] == b"PK"
    return Honest("checkpoint", read_header(path), tables)


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
    honest: Honest, tmp_path: Path
) -> None:
    refused: dict[str, str] = {}
    for label, mutated in _mutations(honest.header):
        text = _loads_or_one_line(honest.write(tmp_path / "m.bp", mutated))
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
    if honest.container == "checkpoint":
        assert "'batch'" in refused["batch=1180591620717411303424"]
        assert "'batch'" in refused["batch=-1"]
        assert "checkpoint format" in refused["format_version=-1"]
        assert "not a pokerlab blueprint file" in refused["kind='x'"]


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
    honest: Honest, tmp_path: Path, raw: bytes, capsys: pytest.CaptureFixture[str],
) -> None:
    from pokerlab.cli import main

    path = honest.write(tmp_path / "b.bp", raw)
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
def test_bad_magic_lines(honest: Honest, tmp_path: Path, first: bytes) -> None:
    path = honest.write(tmp_path / "m.bp", honest.header, first=first)
    if honest.container == "checkpoint":  # no magic line: an archive cut short instead
        path.write_bytes(path.read_bytes()[: 40 * len(first)])
    with pytest.raises(FileFormatError) as error:
        read_header(path)
    assert "\n" not in str(error.value)


def test_tables_declaring_gigabytes_are_refused_before_inflating(
    honest: Honest, tmp_path: Path
) -> None:
    size = 3 * 1024**3
    regrets, strategy_sum = (f"{honest.prefix}{name}.npy" for name in honest.tables)
    members = [zeros(regrets, npy_header((size // 24, 3)), size),
               zeros(strategy_sum, npy_header((size // 24, 3)), size)]
    path = honest.write_members(tmp_path / "bomb.bp", members)
    assert path.stat().st_size < 8 * 1024**2
    tracemalloc.start()
    try:
        with pytest.raises(FileFormatError, match=r"tables of shape \(134217728, 3\)"):
            load_blueprint(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024**2
    lying = zeros(regrets, npy_header((288, 3)), 288 * 24)
    lying = Member(lying.name, lying.data, size)
    path = honest.write_members(tmp_path / "lying.bp", [lying, members[1]])
    # (a checkpoint's directory is checked when its header is read: the same refusal)
    with pytest.raises(FileFormatError,
                       match=r"(tables are refused|not an array file pokerlab reads).*3221225472"):
        load_blueprint(path)


def test_honest_tables_still_load(honest: Honest, tmp_path: Path) -> None:
    trainer, read = load_blueprint(honest.write(tmp_path / "ok.bp", honest.header))
    assert read["iterations"] == 50
    assert trainer.regrets.shape == (288, 3)
    assert np.abs(trainer.regrets).sum() > 0
    assert np.array_equal(trainer.regrets, honest.tables["regrets"])


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
    honest: Honest, tmp_path: Path, data: st.DataObject
) -> None:
    mutated = json.loads(json.dumps(honest.header))
    for _ in range(data.draw(st.integers(1, 3))):
        target = mutated
        parent = data.draw(st.sampled_from(sorted(target)))
        if isinstance(target[parent], dict) and target[parent] and data.draw(st.booleans()):
            target, parent = target[parent], data.draw(st.sampled_from(sorted(target[parent])))
        if data.draw(st.booleans()):
            del target[parent]
        else:
            target[parent] = data.draw(JSON_VALUES)
    _loads_or_one_line(honest.write(tmp_path / "f.bp", mutated))
