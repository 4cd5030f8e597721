"""check_solver on Ray: blueprint rounds on real workers keep the run loop's promises."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from pokerlab.blueprint.ray_backend import round_training
from pokerlab.games import leduc
from pokerlab.solvers.run_loop import RunLoop
from pokerlab.testing import solver_checks

pytestmark = pytest.mark.timeout(300)

PROMISES = ("progress_is_monotone", "split_runs_equal_one_run", "resume_equals_uninterrupted",
            "interrupt_leaves_a_checkpoint", "seconds_budget_holds", "target_stops_the_run")


@pytest.fixture
def workers(ray_cluster: ModuleType) -> Iterator[contextlib.ExitStack]:
    """Holds the live round trainer's workers; each new one stops the previous one's."""
    stack = contextlib.ExitStack()
    yield stack
    stack.close()


@pytest.mark.slow
@pytest.mark.parametrize("promise", PROMISES)
def test_rounds_on_ray_keep_the_promises(workers: contextlib.ExitStack, promise: str) -> None:
    def rounds(path: Path | None = None) -> RunLoop:
        workers.close()  # two workers on a cluster of two CPUs: one trainer's at a time
        return workers.enter_context(
            round_training(leduc(), workers=2, batch=25, seed=5, backend="ray",
                           checkpoint=path, resume=path is not None))

    checks = {check.name: check for check in solver_checks(
        rounds, iterations=200, check_every=100, seconds=2.0, load=rounds,
        save=lambda loop, path: loop.save_checkpoint(path))}  # type: ignore[attr-defined]
    checks[promise]()
