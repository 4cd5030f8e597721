"""The Kuhn CFR repository's last-iteration-regret variant beside cumulative regret matching."""

from __future__ import annotations

import json

import pytest

from pokerlab.cli import main
from pokerlab.errors import PokerlabError
from pokerlab.eval import exploitability
from pokerlab.games import kuhn
from pokerlab.solvers import CFR
from pokerlab.studies.last_regret import run_variant

KUHN = kuhn()


def test_cumulative_variant_is_pokerlab_cfr_with_simultaneous_updates() -> None:
    run = run_variant(KUHN, "cumulative", (10, 100))
    solver = CFR(KUHN, alternating=False)
    for at, measured in zip((10, 100), run.exploitability, strict=True):
        solver.run(iterations=at - solver.iterations)
        assert measured == pytest.approx(exploitability(KUHN, solver.average_strategy()), abs=1e-12)


def test_last_iteration_regrets_stall_where_cumulative_converges() -> None:
    # The repository calls kuhn.py "almost accurate": measured 0.292 chips a hand after
    # 1000 iterations, against 0.0073 for cumulative regret matching (CFR).
    cumulative = run_variant(KUHN, "cumulative", (1000,))
    last = run_variant(KUHN, "last-iteration", (100, 1000))
    assert cumulative.exploitability[-1] < 0.01
    assert last.exploitability[-1] > 0.2
    assert last.exploitability[-1] > 20 * cumulative.exploitability[-1]
    # docs/tutorial.md pins them to the printed digits: 0.292 and 0.0073
    assert last.exploitability[-1] == pytest.approx(0.292, abs=5e-4)
    assert cumulative.exploitability[-1] == pytest.approx(0.0073, abs=5e-5)


def test_last_regret_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "last-regret", "--iterations", "100", "--json"]) == 0
    final = json.loads(capsys.readouterr().out)["exploitability"]
    assert final["last-iteration"] == run_variant(KUHN, "last-iteration", (100,)).exploitability[-1]
    assert final["cumulative"] == run_variant(KUHN, "cumulative", (100,)).exploitability[-1]


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(PokerlabError, match="unknown variant"):
        run_variant(KUHN, "average", (10,))
    with pytest.raises(PokerlabError, match="checkpoints"):
        run_variant(KUHN, "cumulative", (10, 5))
