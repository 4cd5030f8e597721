"""The tutorial's CFR chapter on RPS: the average converges, the current cycles; RM+, CFR+ help."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pokerlab.cli import main
from pokerlab.errors import PokerlabError
from pokerlab.studies.rps_dynamics import VARIANTS, run_dynamics


@pytest.mark.parametrize("variant", VARIANTS)
def test_average_strategy_converges_to_uniform_from_a_non_uniform_start(variant: str) -> None:
    run = run_dynamics(variant, 1000)
    np.testing.assert_allclose(run.current[0], [[0.6, 0.3, 0.1], [0.2, 0.2, 0.6]])
    np.testing.assert_allclose(run.average[-1], np.full((2, 3), 1 / 3), atol=0.03)
    assert run.exploitability[-1] < run.exploitability[9] / 5


def test_regret_matching_current_strategy_keeps_cycling() -> None:
    run = run_dynamics("rm", 1000)
    assert np.abs(run.current[-1] - 1 / 3).max() > 0.3  # far from the equilibrium
    assert np.abs(run.average[-1] - 1 / 3).max() < 0.03


def test_rm_plus_and_cfr_plus_converge_faster_than_regret_matching() -> None:
    final = {v: run_dynamics(v, 1000).exploitability[-1] for v in VARIANTS}
    assert final["cfr+"] < final["rm+"] < final["rm"]


def test_rps_exploitabilities_after_1000_iterations_are_the_docs_figures() -> None:
    # docs/tutorial.md, sections 7 and 10: 0.030 (RM), 0.0088 (RM+), 0.0013 (CFR+)
    final = {v: run_dynamics(v, 1000).exploitability[-1] for v in VARIANTS}
    assert final["rm"] == pytest.approx(0.030, abs=5e-4)
    assert final["rm+"] == pytest.approx(0.0088, abs=5e-5)
    assert final["cfr+"] == pytest.approx(0.0013, abs=5e-5)


def test_rps_dynamics_command_prints_the_exploitabilities(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["study", "rps-dynamics", "--json"]) == 0
    final = json.loads(capsys.readouterr().out)["exploitability"]
    assert final == {v: run_dynamics(v, 1000).exploitability[-1] for v in VARIANTS}
    assert main(["study", "rps-dynamics"]) == 0
    assert "0.0088" in capsys.readouterr().out


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(PokerlabError, match="unknown variant"):
        run_dynamics("hedge", 10)
    with pytest.raises(PokerlabError, match="at least 1"):
        run_dynamics("rm", 0)
    with pytest.raises(PokerlabError, match="probability vectors"):
        run_dynamics("rm", 10, start=((0.5, 0.5, 0.5), (1.0, 0.0, 0.0)))
