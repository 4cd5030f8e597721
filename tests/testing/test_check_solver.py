"""check_solver over every solver and trainer: the promises of the one run loop.

Each (solver, promise) pair is its own test, so a broken promise names both.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.blueprint.ray_backend import round_training
from pokerlab.blueprint.store import load_blueprint, save_blueprint
from pokerlab.games import kuhn, leduc, load
from pokerlab.solvers import (
    ExternalSamplingMCCFR,
    QLearning,
    RegretMatching,
    SequenceFormLP,
    make_solver,
)
from pokerlab.solvers.run_loop import RunLoop
from pokerlab.subgame import RangeSolver
from pokerlab.subgame.checkpoint import load_range_checkpoint
from pokerlab.subgame.classic import kuhn_public_game
from pokerlab.subgame.public_cfr import PublicTreeCFR
from pokerlab.testing import check_solver, solver_checks

SMALL = (
    'holdem(betting="limit", ranks=3, suits=2, hole=1, board="1", seat_blinds=(1, 1), '
    'raises="2,4", caps="2,2", first="0,0", stack=100)'
)
CHECKS = ("progress_is_monotone", "split_runs_equal_one_run", "resume_equals_uninterrupted",
          "interrupt_leaves_a_checkpoint", "seconds_budget_holds", "target_stops_the_run")


def _deep_cfr() -> RunLoop:
    pytest.importorskip("torch")
    from pokerlab.solvers import DeepCFR

    return DeepCFR(kuhn(), traversals=20, advantage_layers=(8,), policy_layers=(8,),
                   advantage_steps=5, policy_steps=20, memory_capacity=4000, seed=0)


def _blueprint_save(loop: RunLoop, path: Path) -> object:
    assert isinstance(loop, BlueprintTrainer)
    return save_blueprint(loop, path, cards={"kind": "lossless"})


def _rounds(path: Path | None = None) -> RunLoop:
    # local workers need no closing: the context's trainer outlives it
    with round_training(leduc(), workers=2, batch=25, seed=5, backend="local",
                        checkpoint=path, resume=path is not None) as rounds:
        return rounds


def _rounds_save(loop: RunLoop, path: Path) -> object:
    return loop.save_checkpoint(path)  # type: ignore[attr-defined]


CASES: dict[str, tuple[Callable[[], RunLoop], dict[str, Any]]] = {
    "cfr": (lambda: make_solver("cfr", kuhn()), {}),
    "cfr+": (lambda: make_solver("cfr+", kuhn()), {}),
    "lcfr": (lambda: make_solver("lcfr", kuhn()), {}),
    "dcfr": (lambda: make_solver("dcfr", leduc()), {}),
    "cs-mccfr": (lambda: make_solver("cs-mccfr", kuhn(), seed=3), {"iterations": 200}),
    "es-mccfr": (lambda: make_solver("es-mccfr", leduc(), seed=3), {"iterations": 200}),
    "os-mccfr": (lambda: make_solver("os-mccfr", kuhn(), seed=3), {"iterations": 200}),
    "es-mccfr walking states": (
        lambda: ExternalSamplingMCCFR(kuhn(), seed=3, compiled=False), {"iterations": 100}),
    "regret-matching": (lambda: RegretMatching(load("rps"), sampled=True, seed=1),
                        {"iterations": 100}),
    "q-learning": (lambda: QLearning(kuhn(), seed=0), {"iterations": 400}),
    "deep-cfr": (_deep_cfr, {"iterations": 4, "check_every": 2}),
    "range-solver": (lambda: RangeSolver(kuhn_public_game(kuhn())),
                     {"load": load_range_checkpoint}),
    "public-tree": (lambda: PublicTreeCFR(leduc()), {}),
    "blueprint": (lambda: BlueprintTrainer(load(SMALL), seed=0, batch=50),
                  {"iterations": 200, "check_every": 100, "save": _blueprint_save,
                   "load": lambda path: load_blueprint(path)[0]}),
    "blueprint rounds (local)": (_rounds, {"iterations": 200, "check_every": 100,
                                           "save": _rounds_save, "load": _rounds}),
}
PAIRS = [(case, check) for case in CASES for check in CHECKS]


@pytest.mark.parametrize(("case", "promise"), PAIRS, ids=[f"{c}-{p}" for c, p in PAIRS])
def test_every_solver_keeps_the_run_loops_promises(case: str, promise: str) -> None:
    factory, options = CASES[case]
    checks = {check.name: check for check in solver_checks(factory, **options)}
    checks[promise]()


def test_a_one_step_solver_keeps_its_checkpoint_promise() -> None:
    names = check_solver(lambda: SequenceFormLP(kuhn()))
    assert names == ["checkpoint_round_trip"]


def test_a_broken_promise_is_named() -> None:
    class Forgetful(RegretMatching):
        """Forgets its random stream at every checkpoint: a resumed run samples anew."""

        def _restore(self, state: dict[str, Any]) -> None:
            super()._restore(state)
            self._generator = np.random.default_rng(99)

    from pokerlab.solvers import base

    base.SOLVERS["forgetful-rm"] = Forgetful
    Forgetful.algorithm = "forgetful-rm"
    try:
        with pytest.raises(AssertionError, match="resume_equals_uninterrupted: Forgetful"):
            check_solver(lambda: Forgetful(load("rps"), sampled=True, seed=1), iterations=50,
                         seconds=0.2)
    finally:
        del base.SOLVERS["forgetful-rm"]


def test_a_loop_that_overruns_its_seconds_budget_is_caught() -> None:
    class Overrunning(RegretMatching):
        """Runs five slices past a seconds budget: its clock says so, the check must too."""

        def run(self, *args: Any, seconds: float | None = None, **kwargs: Any) -> RunLoop:
            if seconds is None:
                return super().run(*args, **kwargs)
            super().run(seconds=seconds, **kwargs)
            return super().run(seconds=0.5, **kwargs)

    checks = {check.name: check for check in solver_checks(
        lambda: Overrunning(load("rps"), sampled=True, seed=1), iterations=50, seconds=0.3)}
    with pytest.raises(AssertionError, match=r"counted .* off the budget"):
        checks["seconds_budget_holds"]()
