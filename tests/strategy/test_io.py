"""Strategy files: round trips, mismatched games, damaged files, atomic writes."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from pokerlab.errors import FileFormatError, StrategyMismatchError
from pokerlab.games import kuhn, leduc
from pokerlab.strategy import Strategy, load_strategy, save_strategy
from pokerlab.strategy import io as strategy_io
from tests.differential.lockstep import random_strategy


@pytest.fixture
def saved(tmp_path: Path) -> tuple[Strategy, Path]:
    strategy = random_strategy(leduc(), np.random.default_rng(1)).with_metadata(
        algorithm="test", iterations=10, exploitability=0.25, nested={"a": [1, 2]}
    )
    path = tmp_path / "leduc.npz"
    assert strategy.save(path) == path
    return strategy, path


def test_round_trip(saved: tuple[Strategy, Path]) -> None:
    strategy, path = saved
    again = Strategy.load(path)
    assert again.game == strategy.game
    np.testing.assert_array_equal(again.probs, strategy.probs)
    assert dict(again.metadata) == dict(strategy.metadata)
    assert Strategy.load(path, game=leduc()).game == leduc()
    assert load_strategy(str(path)).game == leduc()


@pytest.mark.parametrize(
    "spec", ["kuhn", "kuhn(cards=10)", "kuhn(players=3)", "leduc(stack=4)", "rps"]
)
def test_round_trip_games(tmp_path: Path, spec: str) -> None:
    from pokerlab.games import load

    game = load(spec)
    strategy = random_strategy(game, np.random.default_rng(7))
    path = save_strategy(strategy, tmp_path / "s")  # no suffix: written as given
    assert path.exists()
    again = load_strategy(path, game=game)
    np.testing.assert_array_equal(again.probs, strategy.probs)
    assert again.game == game


def test_header(saved: tuple[Strategy, Path]) -> None:
    _, path = saved
    with np.load(path) as data:
        header = json.loads(data["header"].tobytes().decode())
    assert header["format"] == "pokerlab-strategy"
    assert header["game"] == leduc().spec.to_dict()
    assert header["game_string"] == "leduc"
    assert header["n_infosets"] == 288
    assert header["metadata"]["iterations"] == 10


def test_numpy_metadata_is_written_as_json(tmp_path: Path) -> None:
    strategy = Strategy.uniform(kuhn()).with_metadata(value=np.float64(0.5), count=np.int64(3))
    again = Strategy.load(strategy.save(tmp_path / "k.npz"))
    assert again.metadata["value"] == 0.5
    assert again.metadata["count"] == 3


def test_other_game(saved: tuple[Strategy, Path]) -> None:
    _, path = saved
    with pytest.raises(StrategyMismatchError, match=r"holds a strategy for leduc, not for kuhn"):
        Strategy.load(path, game=kuhn())
    with pytest.raises(StrategyMismatchError, match=r"not for leduc\(stack=50, raise_cap=None\)"):
        Strategy.load(path, game=leduc(stack=50, raise_cap=None))


def _rewrite(
    path: Path, header_changes: dict[str, object], probs: np.ndarray | None = None
) -> None:
    with np.load(path) as data:
        header = json.loads(data["header"].tobytes().decode())
        arrays = {name: data[name] for name in data.files}
    header.update(header_changes)
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    if probs is not None:
        arrays["probs"] = probs
    np.savez_compressed(path, **arrays)


def test_fingerprint_mismatch(saved: tuple[Strategy, Path]) -> None:
    _, path = saved
    _rewrite(path, {"keys_fingerprint": "0" * 16})
    with pytest.raises(StrategyMismatchError, match="infosets differ"):
        Strategy.load(path)


def test_bad_headers(saved: tuple[Strategy, Path]) -> None:
    _, path = saved
    _rewrite(path, {"format": "pokerlab-checkpoint"})
    with pytest.raises(
        FileFormatError, match="is a pokerlab-checkpoint file, not a pokerlab-strategy"
    ):
        Strategy.load(path)
    _rewrite(path, {"format": "pokerlab-strategy", "game": {"name": "poker", "params": {}}})
    with pytest.raises(FileFormatError, match="names no valid game"):
        Strategy.load(path)
    _rewrite(path, {"game": ["leduc"]})
    with pytest.raises(FileFormatError, match="names no valid game"):
        Strategy.load(path)


def test_missing_probs(tmp_path: Path) -> None:
    path = Strategy.uniform(kuhn()).save(tmp_path / "k.npz")
    with np.load(path) as data:
        header = data["header"]
    np.savez_compressed(path, header=header)
    with pytest.raises(FileFormatError, match="no 'probs'"):
        Strategy.load(path)
    np.savez_compressed(path, probs=np.zeros(3))
    with pytest.raises(FileFormatError, match="no pokerlab header"):
        Strategy.load(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(FileFormatError, match="does not exist"):
        Strategy.load(tmp_path / "nothing.npz")


@pytest.mark.parametrize("keep", [0, 1, 10, 100, 0.5, 0.9, -1])
def test_truncated(saved: tuple[Strategy, Path], keep: float) -> None:
    _, path = saved
    data = path.read_bytes()
    cut = int(len(data) * keep) if isinstance(keep, float) else keep
    path.write_bytes(data[:cut])
    with pytest.raises(FileFormatError, match="truncated or corrupted"):
        Strategy.load(path)


def test_corrupted_bytes(saved: tuple[Strategy, Path]) -> None:
    strategy, path = saved
    original = path.read_bytes()
    rng = np.random.default_rng(0)
    refused = 0
    for _ in range(200):
        damaged = bytearray(original)
        for position in rng.integers(0, len(damaged), size=rng.integers(1, 4)):
            damaged[position] ^= int(rng.integers(1, 256))
        path.write_bytes(bytes(damaged))
        # Either a FileFormatError, or (a flip in a field nothing reads) the same strategy.
        try:
            loaded = Strategy.load(path)
        except FileFormatError:
            refused += 1
        else:
            np.testing.assert_array_equal(loaded.probs, strategy.probs)
    assert refused > 150


def test_random_bytes_and_other_files(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    path = tmp_path / "random.npz"
    path.write_bytes(rng.integers(0, 256, size=1000, dtype=np.uint8).tobytes())
    with pytest.raises(FileFormatError):
        Strategy.load(path)
    text = tmp_path / "text.npz"
    text.write_text("not a strategy", encoding="utf-8")
    with pytest.raises(FileFormatError):
        Strategy.load(text)
    npy = tmp_path / "array.npz"
    with npy.open("wb") as handle:
        np.save(handle, np.zeros(3))
    with pytest.raises(FileFormatError, match=r"single \.npy array"):
        Strategy.load(npy)
    zipped = tmp_path / "other.npz"
    with zipfile.ZipFile(zipped, "w") as archive:
        archive.writestr("readme.txt", "hello")
    with pytest.raises(FileFormatError):
        Strategy.load(zipped)
    empty = tmp_path / "empty.npz"
    empty.write_bytes(b"")
    with pytest.raises(FileFormatError):
        Strategy.load(empty)
    with pytest.raises(FileFormatError):
        Strategy.load(tmp_path)  # a folder


def test_atomic_write(saved: tuple[Strategy, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    strategy, path = saved
    before = path.read_bytes()

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(strategy_io.np, "savez_compressed", broken)
    with pytest.raises(OSError, match="disk full"):
        Strategy.uniform(leduc()).save(path)
    assert path.read_bytes() == before  # the old file is untouched
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]  # no temporary left
    fresh = path.parent / "fresh.npz"
    with pytest.raises(OSError, match="disk full"):
        strategy.save(fresh)
    assert not fresh.exists()
    monkeypatch.undo()
    np.testing.assert_array_equal(Strategy.load(path).probs, strategy.probs)


def test_save_creates_folders(tmp_path: Path) -> None:
    path = Strategy.uniform(kuhn()).save(tmp_path / "a" / "b" / "k.npz")
    assert Strategy.load(path).game == kuhn()


def _pickled_objects(path: Path) -> None:
    np.savez(path, header=np.array([{"format": "x"}], dtype=object))


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda p: p.mkdir(), "is a folder"),
        (lambda p: p.write_bytes(bytes(range(256)) * 4), "a binary file of unknown format"),
        (lambda p: p.write_text('{"format": "pokerlab-strategy"}'), "is a JSON file"),
        (lambda p: p.write_bytes(b"SQLite format 3\x00" + bytes(100)), "an SQLite database"),
        (lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(50)), "a PNG image"),
        (lambda p: p.write_text("hello\n"), "a text file"),
        (_pickled_objects, "holds Python objects"),
    ],
    ids=["folder", "binary", "json", "sqlite", "png", "text", "pickled"],
)
def test_files_that_are_not_strategies_say_what_they_are(
    tmp_path: Path, make: Callable[[Path], object], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from pokerlab.cli import main

    path = tmp_path / "thing.npz"
    make(path)
    with pytest.raises(FileFormatError, match=says) as error:
        Strategy.load(path)
    assert "allow_pickle" not in str(error.value)
    assert main(["show", str(path)]) == 1
    err = capsys.readouterr().err
    assert says in err
    assert len(err.strip().splitlines()) == 1
    assert "allow_pickle" not in err
