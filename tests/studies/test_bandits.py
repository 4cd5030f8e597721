"""The bandit study: known bounds and limits hold (issue 29, tutorial section 3's outline)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pokerlab.errors import PokerlabError
from pokerlab.studies.bandits import (
    BANDIT_LEARNERS,
    RPS_OPPONENTS,
    RPS_PAYOFFS,
    epsilon_greedy_rate,
    lai_robbins_constant,
    rm_bound,
    run_bandit,
    run_rps,
    study_figure,
    ucb1_bound,
)

MEANS = (0.2, 0.4, 0.5, 0.6)


def test_the_bounds_exactly() -> None:
    # UCB1 (Auer et al. 2002, Theorem 1): 8 ln n (1/0.4 + 1/0.2 + 1/0.1) + (1 + pi^2/3) 0.7.
    n = 1000
    assert ucb1_bound(MEANS, n) == pytest.approx(
        8 * math.log(n) * (2.5 + 5 + 10) + (1 + math.pi**2 / 3) * 0.7
    )
    kl = [p * math.log(p / 0.6) + (1 - p) * math.log((1 - p) / 0.4) for p in (0.2, 0.4, 0.5)]
    assert lai_robbins_constant(MEANS) == pytest.approx(0.4 / kl[0] + 0.2 / kl[1] + 0.1 / kl[2])
    assert epsilon_greedy_rate(MEANS, 0.1) == pytest.approx(0.1 * 0.7 / 4)
    assert rm_bound(300) == pytest.approx(2 * math.sqrt(3 / 300))


@pytest.mark.parametrize("horizon", [50, 500, 2000])
def test_ucb1_stays_below_its_bound(horizon: int) -> None:
    run = run_bandit("ucb1", MEANS, horizon=horizon, runs=50, seed=1)
    assert run.regret[-1] + run.regret_ci95[-1] < ucb1_bound(MEANS, horizon)
    # A finite-time bound on the mean: every prefix too.
    steps = np.arange(2, horizon + 1)
    bounds = np.array([ucb1_bound(MEANS, int(t)) for t in steps])
    assert np.all(run.regret[1:] < bounds)


@pytest.mark.parametrize("horizon", [10, 100, 1000])
def test_full_information_regret_matching_obeys_its_bound_on_every_run(horizon: int) -> None:
    # max_a sum x_t(a) - sum sigma_t . x_t <= sqrt(K T) for rewards in [0, 1], every run.
    run = run_bandit("regret-matching-full", MEANS, horizon=horizon, runs=100, seed=2)
    assert run.full_information_regret is not None
    assert np.all(run.full_information_regret <= math.sqrt(len(MEANS) * horizon))
    assert run_bandit("ucb1", MEANS, horizon=5, runs=3).full_information_regret is None


def test_epsilon_greedy_regret_grows_linearly_at_its_rate() -> None:
    run = run_bandit("epsilon-greedy", MEANS, horizon=4000, runs=200, seed=3)
    late = (run.regret[-1] - run.regret[1999]) / 2000
    assert late == pytest.approx(epsilon_greedy_rate(MEANS, 0.1), rel=0.15)


def test_learners_share_a_seeded_world_and_repeat_exactly() -> None:
    first = run_bandit("thompson", MEANS, horizon=300, runs=20, seed=5)
    again = run_bandit("thompson", MEANS, horizon=300, runs=20, seed=5)
    np.testing.assert_array_equal(first.final_regrets, again.final_regrets)
    other = run_bandit("thompson", MEANS, horizon=300, runs=20, seed=6)
    assert not np.array_equal(first.final_regrets, other.final_regrets)


@pytest.mark.slow
def test_thompson_and_full_information_beat_the_others() -> None:
    runs = {name: run_bandit(name, MEANS, horizon=2000, runs=60, seed=0)
            for name in BANDIT_LEARNERS}
    final = {name: r.regret[-1] for name, r in runs.items()}
    assert final["regret-matching-full"] < final["thompson"] < min(
        final["ucb1"], final["epsilon-greedy"], final["regret-matching"]
    )


def test_the_equilibrium_earns_zero_against_anything() -> None:
    uniform = np.full(3, 1 / 3)
    assert np.allclose(uniform @ RPS_PAYOFFS, 0.0)
    run = run_rps("equilibrium", "best-response", horizon=500, runs=200, seed=0)
    assert abs(run.final_payoffs.mean()) < 3 * run.ci95 + 1e-12


@pytest.mark.parametrize("opponent", RPS_OPPONENTS)
def test_regret_matching_is_never_exploited_beyond_its_bound(opponent: str) -> None:
    # Its mixed strategy earns at least the best fixed action in hindsight minus 2 sqrt(3/T).
    horizon = 400
    run = run_rps("regret-matching", opponent, horizon=horizon, runs=50, seed=4)
    assert run.mixed_payoffs is not None
    assert run.hindsight_payoffs is not None
    assert np.all(run.mixed_payoffs >= run.hindsight_payoffs - rm_bound(horizon))
    # In RPS the best fixed action earns >= 0 against any sequence: RM loses at most the bound.
    assert np.all(run.mixed_payoffs >= -rm_bound(horizon))


def test_the_best_responder_exploits_deterministic_bandit_learners() -> None:
    ucb = run_rps("ucb1", "best-response", horizon=300, runs=20, seed=0)
    assert ucb.final_payoffs.mean() < -0.95
    greedy = run_rps("epsilon-greedy", "best-response", horizon=2000, runs=50, seed=0)
    # It beats the greedy action; the epsilon share is uniform: -(1 - epsilon) = -0.9.
    assert greedy.final_payoffs.mean() == pytest.approx(-0.9, abs=0.03)


def test_learners_find_paper_against_the_tutorials_opponent() -> None:
    for learner in ("regret-matching", "thompson"):
        run = run_rps(learner, "fixed", horizon=1500, runs=50, seed=0)
        assert run.paper_share > 0.8
        assert run.final_payoffs.mean() > 0.05  # the best response earns 0.1 a game


def test_bad_input_is_named() -> None:
    with pytest.raises(PokerlabError, match="unknown learner"):
        run_bandit("softmax")
    with pytest.raises(PokerlabError, match="means"):
        run_bandit("ucb1", (0.5,))
    with pytest.raises(PokerlabError, match="unknown opponent"):
        run_rps("ucb1", "mirror")
    with pytest.raises(PokerlabError, match="horizon"):
        run_rps("ucb1", "fixed", horizon=0)
    with pytest.raises(PokerlabError, match="fixed"):
        run_rps("ucb1", "fixed", fixed=(0.5, 0.5, 0.5))


@pytest.mark.slow
def test_the_figure_is_written(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bandit = [run_bandit("ucb1", MEANS, horizon=20, runs=3)]
    rps = [run_rps(name, opponent, horizon=20, runs=3)
           for name in ("equilibrium", "ucb1") for opponent in RPS_OPPONENTS]
    path = study_figure(bandit, rps, str(tmp_path / "b.png"))
    assert path.endswith("b.png")
    assert (tmp_path / "b.png").stat().st_size > 1000
