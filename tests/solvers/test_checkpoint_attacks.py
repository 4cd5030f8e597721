"""Hostile checkpoints: a state array declaring more than the memory limit is never inflated.

A checkpoint of the one family (``solver``, ``range``, ``blueprint``) is read through the
checked archive (:func:`pokerlab.strategy.io.read_npz`): the zip directory and each
``.npy`` header are read first, and arrays declaring together more than the memory limit
(``POKERLAB_MEMORY_LIMIT``, 4 GiB by default; lowered here so the test stays small) are
refused in one line before a byte of them is inflated.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from pokerlab.errors import FileFormatError
from pokerlab.games import kuhn
from pokerlab.solvers import CFRPlus, Solver
from pokerlab.strategy import io as strategy_io
from pokerlab.strategy.archive import NpzArchive
from tests.strategy.zip_bombs import array, npy_header, write_zip, zeros

DECLARED = 1024**3
"""What the hostile state array declares (1 GiB of zeros, a few MB on disk)."""


def test_a_solver_checkpoint_declaring_over_the_limit_is_refused_before_inflating(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    honest = CFRPlus(kuhn()).run(iterations=5).save_checkpoint(tmp_path / "honest.npz")
    with NpzArchive(honest, where="honest") as archive:
        header = archive.read("header")
        names = [name for name in archive.arrays if name.startswith("state.")]
    assert names, "a solver checkpoint holds state arrays"
    bomb = zeros(f"{names[0]}.npy", npy_header((DECLARED // 8,)), DECLARED)
    path = write_zip(tmp_path / "bomb.npz", [array("header.npy", np.asarray(header)), bomb])
    assert path.stat().st_size < 4 * 1024**2
    monkeypatch.setattr(strategy_io, "DEFAULT_MEMORY_LIMIT", 64 * 1024**2)
    tracemalloc.start()
    try:
        with pytest.raises(FileFormatError, match=r"over the limit of 64\.0 MB") as error:
            Solver.load_checkpoint(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "\n" not in str(error.value)
    assert peak < 32 * 1024**2
    assert Solver.load_checkpoint(honest).iterations == 5  # the honest file still loads
