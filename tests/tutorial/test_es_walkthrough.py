"""The CFR chapter's "external sampling CFR detailed code and walk through" on Kuhn."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.errors import PokerlabError
from pokerlab.games import kuhn
from pokerlab.solvers import CFR
from pokerlab.studies.es_walkthrough import first_iteration_regrets, walkthrough
from pokerlab.tree import compile


def test_first_update_follows_the_rule() -> None:
    result = walkthrough(1, seed=3, record_iterations=1, checkpoints=[1])
    assert result.updates, "the first iteration visits the traverser's infosets"
    for update in result.updates:
        # regret-matching from zero regrets is uniform; regrets grow by v(a) - v.
        assert update.strategy == pytest.approx((0.5, 0.5))
        assert update.value == pytest.approx(float(np.dot(update.strategy, update.action_values)))
    first = result.updates[0]
    if first.infoset in {u.infoset for u in result.updates[1:]}:
        pytest.fail("an infoset is visited once per traversal in Kuhn")
    assert first.regrets == pytest.approx(
        tuple(v - first.value for v in first.action_values)
    )


def test_sampled_regrets_are_unbiased() -> None:
    # E[ES regret after one traversal] = CFR's counterfactual regret at the uniform profile.
    game = kuhn()
    means = first_iteration_regrets(game, range(4000), traverser=0)
    solver = CFR(game)  # alternating: P1's regrets after iteration 1 are at the uniform profile
    solver.run(iterations=1)
    tree = compile(game)
    exact = solver._regrets  # the compiled kernels' regrets, an independent implementation
    p1_keys = [k for k in tree.infoset_keys if k.endswith(("|", "|pb"))]
    assert len(p1_keys) == 6
    for key in p1_keys:
        np.testing.assert_allclose(means[key], exact[tree.infoset_id(key), :2], atol=0.03)
    assert max(abs(exact[tree.infoset_id(k), 0]) for k in p1_keys) > 0.1  # not a trivial match


def test_average_converges_and_trace_is_recorded() -> None:
    result = walkthrough(1500, seed=0, checkpoints=[10, 1500])
    assert result.exploitability[1] < 0.05
    assert result.exploitability[1] < result.exploitability[0] / 4
    for key, series in result.trace.items():
        assert series.shape == (1500, 2), key
    # P2 with the K facing a bet: folding is better than calling against P1's average play.
    assert result.trace["K|b"][-1, 0] > result.trace["K|b"][-1, 1]
    assert result.action_names["K|b"] == ("pass", "bet")


def test_seed_replays_the_run() -> None:
    a = walkthrough(50, seed=7, checkpoints=[50])
    b = walkthrough(50, seed=7, checkpoints=[50])
    c = walkthrough(50, seed=8, checkpoints=[50])
    np.testing.assert_array_equal(a.trace["Q|"], b.trace["Q|"])
    assert not np.array_equal(a.trace["Q|"], c.trace["Q|"])


def test_bad_input_is_refused() -> None:
    with pytest.raises(PokerlabError, match="unknown infoset"):
        walkthrough(5, traced=["J|"])
    with pytest.raises(PokerlabError, match=r"checkpoints must lie in 1\.\.5"):
        walkthrough(5, checkpoints=[6])
    with pytest.raises(PokerlabError, match="iterations must be at least 1"):
        walkthrough(0)


@pytest.mark.slow
def test_docs_figures_reproduce() -> None:
    # docs/tutorial.md quotes the seed-0 run of `pokerlab study es-walkthrough --iterations 2000`.
    result = walkthrough(2000, seed=0)
    quoted = {1: 0.4583, 159: 0.0770, 860: 0.0177, 2000: 0.0205}
    measured = dict(zip(result.checkpoints.tolist(), result.exploitability.tolist(), strict=True))
    for iteration, value in quoted.items():
        assert measured[iteration] == pytest.approx(value, abs=5e-5)
