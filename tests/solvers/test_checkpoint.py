"""Checkpoints: resuming is exact, and a checkpoint is refused where it does not belong."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pokerlab.errors import FileFormatError, SolverError, StrategyMismatchError
from pokerlab.games import kuhn, leduc
from pokerlab.solvers import CFR, SOLVERS, CFRPlus, DiscountedCFR, LinearCFR, Solver
from pokerlab.solvers.base import register_solver
from pokerlab.solvers.cfr import _FullWidthCFR
from pokerlab.strategy import Strategy
from pokerlab.strategy.io import read_npz, write_npz_atomic

VARIANTS: list[tuple[type[_FullWidthCFR], dict[str, Any]]] = [
    (CFR, {}),
    (CFR, {"alternating": False}),
    (CFRPlus, {}),
    (CFRPlus, {"alternating": False}),
    (LinearCFR, {}),
    (LinearCFR, {"alternating": False}),
    (DiscountedCFR, {}),
    (DiscountedCFR, {"alpha": 1.0, "beta": -0.5, "gamma": 3.0, "alternating": False}),
]


@pytest.mark.parametrize(("cls", "kwargs"), VARIANTS)
def test_resume_equals_an_uninterrupted_run(
    cls: type[_FullWidthCFR], kwargs: dict[str, Any], tmp_path: Path
) -> None:
    game = leduc()
    straight = cls(game, **kwargs).run(iterations=37, check_every=10)
    first = cls(game, **kwargs).run(iterations=20, check_every=10)
    path = first.save_checkpoint(tmp_path / "run.ckpt.npz")
    resumed = Solver.load_checkpoint(path)
    assert type(resumed) is cls
    assert resumed.hyperparameters() == first.hyperparameters()
    assert resumed.iterations == 20
    assert resumed.seconds == first.seconds
    assert resumed.history == first.history
    resumed.run(iterations=17, check_every=10)
    assert resumed.iterations == straight.iterations == 37
    assert isinstance(resumed, _FullWidthCFR)
    np.testing.assert_array_equal(resumed._regrets, straight._regrets)
    np.testing.assert_array_equal(resumed._strategy_sum, straight._strategy_sum)
    np.testing.assert_array_equal(
        resumed.average_strategy().probs, straight.average_strategy().probs
    )
    np.testing.assert_array_equal(
        resumed.current_strategy().probs, straight.current_strategy().probs
    )
    assert [(r.iteration, r.exploitability) for r in resumed.history] == [
        (r.iteration, r.exploitability) for r in straight.history
    ]


def test_load_through_the_class_and_with_a_game(tmp_path: Path) -> None:
    game = kuhn()
    path = CFRPlus(game).run(iterations=3).save_checkpoint(tmp_path / "a.npz")
    solver = CFRPlus.load_checkpoint(path, game=game)
    assert isinstance(solver, CFRPlus)
    assert solver.game is game
    assert isinstance(Solver.load_checkpoint(path), CFRPlus)


def test_another_game_is_refused(tmp_path: Path) -> None:
    path = CFR(kuhn()).run(iterations=2).save_checkpoint(tmp_path / "kuhn.npz")
    with pytest.raises(StrategyMismatchError, match="kuhn"):
        Solver.load_checkpoint(path, game=leduc())
    with pytest.raises(StrategyMismatchError):
        Solver.load_checkpoint(path, game=kuhn(players=3))


def test_another_solver_class_is_refused(tmp_path: Path) -> None:
    path = CFRPlus(kuhn()).run(iterations=2).save_checkpoint(tmp_path / "plus.npz")
    with pytest.raises(SolverError, match="CFRPlus"):
        CFR.load_checkpoint(path)
    with pytest.raises(SolverError, match="not DiscountedCFR"):
        DiscountedCFR.load_checkpoint(path)


def test_a_strategy_file_is_not_a_checkpoint(tmp_path: Path) -> None:
    path = Strategy.uniform(kuhn()).save(tmp_path / "s.npz")
    with pytest.raises(FileFormatError, match="checkpoint"):
        Solver.load_checkpoint(path)
    with pytest.raises(FileFormatError):
        Solver.load_checkpoint(tmp_path / "missing.npz")
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"PK\x03\x04 not a zip")
    with pytest.raises(FileFormatError):
        Solver.load_checkpoint(broken)


def _rewrite(path: Path, **changes: Any) -> Path:
    header, arrays = read_npz(path, "pokerlab-checkpoint")
    header.update(changes)
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    write_npz_atomic(path, arrays)
    return path


def test_unknown_solver_and_bad_state(tmp_path: Path) -> None:
    path = CFR(kuhn()).run(iterations=2).save_checkpoint(tmp_path / "c.npz")
    with pytest.raises(SolverError, match="unknown"):
        Solver.load_checkpoint(_rewrite(path, solver="NoSuchSolver", algorithm="simplex"))
    path = CFR(kuhn()).run(iterations=2).save_checkpoint(tmp_path / "d.npz")
    with pytest.raises(SolverError):
        Solver.load_checkpoint(_rewrite(path, hyperparameters={"alternating": "sometimes"}))
    path = CFR(kuhn()).run(iterations=2).save_checkpoint(tmp_path / "u.npz")
    with pytest.raises(FileFormatError, match="hyper-parameters"):
        Solver.load_checkpoint(_rewrite(path, hyperparameters={"speed": "fast"}))
    path = CFR(kuhn()).run(iterations=2).save_checkpoint(tmp_path / "v.npz")
    with pytest.raises(FileFormatError, match="version"):
        Solver.load_checkpoint(_rewrite(path, format_version=99))
    path = CFR(kuhn()).run(iterations=2).save_checkpoint(tmp_path / "f.npz")
    with pytest.raises(StrategyMismatchError, match="infosets differ"):
        Solver.load_checkpoint(_rewrite(path, keys_fingerprint="0123456789abcdef"))
    path = CFR(kuhn()).run(iterations=2).save_checkpoint(tmp_path / "e.npz")
    header, arrays = read_npz(path, "pokerlab-checkpoint")
    arrays["state.regrets"] = arrays["state.regrets"][:3]
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
    write_npz_atomic(path, arrays)
    with pytest.raises(SolverError, match="regrets"):
        Solver.load_checkpoint(path)


def test_a_version_1_file_still_loads(tmp_path: Path) -> None:
    # Version 1 named the class under "solver" and had no "compiled" hyper-parameter.
    game = kuhn()
    straight = CFRPlus(game).run(iterations=6, check_every=3)
    path = CFRPlus(game).run(iterations=3, check_every=3).save_checkpoint(tmp_path / "v1.npz")
    _rewrite(path, format_version=1, solver="CFRPlus")
    resumed = Solver.load_checkpoint(path).run(iterations=3, check_every=3)
    assert isinstance(resumed, CFRPlus)
    np.testing.assert_array_equal(
        resumed.average_strategy().probs, straight.average_strategy().probs
    )


def test_one_registry_by_algorithm_name() -> None:
    assert list(SOLVERS) == [
        "cfr", "cfr+", "lcfr", "dcfr", "lp", "cs-mccfr", "es-mccfr", "os-mccfr",
        "regret-matching", "deep-cfr", "q-learning",
    ]
    for name, cls in SOLVERS.items():
        assert cls.algorithm == name
    impostor = type("CFR", (_FullWidthCFR,), {})  # inherits the name "cfr"
    with pytest.raises(SolverError, match="named 'cfr'"):
        register_solver(impostor)
    assert SOLVERS["cfr"] is CFR


def test_an_unregistered_solver_cannot_save(tmp_path: Path) -> None:
    class Unregistered(_FullWidthCFR):
        algorithm = "unregistered"

    with pytest.raises(SolverError, match="register_solver"):
        Unregistered(kuhn()).save_checkpoint(tmp_path / "u.npz")


def test_the_run_loop_alone_loads_no_solver_numba_or_scipy() -> None:
    """The range solver and the trainers import the run loop; the CFR kernels, the LP and
    numba's first load stay out until a solver is asked for (SOLVERS loads them)."""
    probe = ("import sys, pokerlab.solvers.run_loop as r\n"
             "print(sorted(m for m in sys.modules if m.startswith('pokerlab.solvers.')), "
             "'scipy' in sys.modules, 'numba' in sys.modules)\n"
             "from pokerlab.solvers import SOLVERS\n"
             "print(len(SOLVERS), 'pokerlab.solvers.cfr' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, timeout=120, cwd=Path(__file__).resolve().parents[2])
    first, second = done.stdout.splitlines()
    assert first == ("['pokerlab.solvers.base', 'pokerlab.solvers.checkpoint', "
                     "'pokerlab.solvers.run_loop'] False False")
    assert second == "11 True"
