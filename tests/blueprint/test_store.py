"""Blueprint files: round trip, resume equals an uninterrupted run, clear errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.blueprint.store import load_blueprint, read_header, save_blueprint
from pokerlab.errors import FileFormatError, SpecError
from pokerlab.games import load

SMALL = (
    'holdem(betting="limit", ranks=3, suits=2, hole=1, board="1", seat_blinds=(1, 1), '
    'raises="2,4", caps="2,2", first="0,0", stack=100)'
)
LOSSLESS = {"kind": "lossless"}


def test_saved_then_resumed_equals_uninterrupted(tmp_path: Path) -> None:
    game = load(SMALL)
    whole = BlueprintTrainer(game, seed=4, batch=1000)
    whole.run(6000)
    part = BlueprintTrainer(game, seed=4, batch=1000)
    part.run(3000)
    path = save_blueprint(part, tmp_path / "part.bp", cards=LOSSLESS)
    resumed, header = load_blueprint(path, game=game)
    assert header["iterations"] == 3000
    assert header["seed"] == 4
    assert header["bucket_counts"] == [3, 9]
    assert header["bet_menu"] is None
    assert resumed.batch == 1000
    resumed.run(3000)
    np.testing.assert_array_equal(resumed.regrets, whole.regrets)
    np.testing.assert_array_equal(resumed.strategy_sum, whole.strategy_sum)
    assert resumed.iterations == 6000


def test_a_blueprint_for_another_game_is_refused(tmp_path: Path) -> None:
    trainer = BlueprintTrainer(load(SMALL), seed=0)
    trainer.run(100)
    path = save_blueprint(trainer, tmp_path / "a.bp", cards=LOSSLESS)
    other = load(SMALL.replace("stack=100", "stack=90"))
    with pytest.raises(SpecError, match=r"is a blueprint for holdem.*stack=100.*not for"):
        load_blueprint(path, game=other)


def test_other_files_are_refused(tmp_path: Path) -> None:
    junk = tmp_path / "junk.bp"
    junk.write_bytes(b"PK\x03\x04 not a blueprint")
    with pytest.raises(FileFormatError, match="not a pokerlab blueprint"):
        read_header(junk)
    with pytest.raises(FileFormatError, match="cannot read"):
        read_header(tmp_path / "missing.bp")
    trainer = BlueprintTrainer(load(SMALL), seed=0)
    path = save_blueprint(trainer, tmp_path / "cut.bp", cards=LOSSLESS)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 200])
    with pytest.raises(FileFormatError, match="damaged"):
        load_blueprint(path)


def test_save_leaves_no_temporary_files(tmp_path: Path) -> None:
    trainer = BlueprintTrainer(load(SMALL), seed=0)
    save_blueprint(trainer, tmp_path / "x.bp", cards=LOSSLESS)
    save_blueprint(trainer, tmp_path / "x.bp", cards=LOSSLESS)
    assert [p.name for p in tmp_path.iterdir()] == ["x.bp"]


def test_float32_tables_are_saved_as_float32_and_resume_exactly(tmp_path: Path) -> None:
    game = load(SMALL)
    whole = BlueprintTrainer(game, seed=4, batch=1000, storage="float32")
    whole.run(4000)
    part = BlueprintTrainer(game, seed=4, batch=1000, storage="float32")
    part.run(2000)
    path = save_blueprint(part, tmp_path / "part.bp", cards=LOSSLESS)
    assert read_header(path)["storage"] == "float32"
    resumed, _ = load_blueprint(path, game=game)
    assert resumed.storage == "float32"
    assert resumed.regrets.dtype == np.float32
    resumed.run(2000)
    np.testing.assert_array_equal(resumed.regrets, whole.regrets)
    np.testing.assert_array_equal(resumed.strategy_sum, whole.strategy_sum)


def test_a_header_whose_storage_is_unknown_or_not_the_tables_is_refused(tmp_path: Path) -> None:
    from pokerlab.blueprint.store import header_of
    from pokerlab.solvers.checkpoint import write_checkpoint

    trainer = BlueprintTrainer(load(SMALL), seed=0)
    tables = {"regrets": trainer.regrets, "strategy_sum": trainer.strategy_sum}
    for storage, message in (("float16", r"storage is 'float16'; pokerlab reads float64, "
                                         "float32"),
                             ("float32", r"\(float64\), the abstract game needs .* of float32")):
        header = header_of(trainer, LOSSLESS, None) | {"storage": storage}
        path = write_checkpoint(tmp_path / f"{storage}.bp", header, tables, kind="blueprint",
                                compress=False)
        with pytest.raises(FileFormatError, match=message):
            load_blueprint(path)
