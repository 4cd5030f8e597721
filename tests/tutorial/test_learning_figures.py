"""Every figure docs/tutorial.md states for the learning studies (issue 29, item 1).

``pokerlab study bandits`` (section 3), ``study regret-bound`` and ``study q-learning``
(section 7), with their default settings; each figure is recomputed from the same seeds.
The runs take tens of seconds on a loaded machine, so the tests that make them are slow.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from pokerlab.games import kuhn, leduc
from pokerlab.studies.bandits import (
    DEFAULT_MEANS,
    epsilon_greedy_rate,
    lai_robbins_constant,
    rm_bound,
    run_bandit,
    run_rps,
    ucb1_bound,
)
from pokerlab.studies.q_learning_study import pure_profile_floor, run_cfr, run_q_learning
from pokerlab.studies.regret_bound import cfr_constants, cfr_regret, rps_regret

# --- section 3: bandits ----------------------------------------------------------------

# learner: (regret after 5,000 pulls, its 95% half-width, best-arm share of the last 10%)
BANDIT_TABLE = {
    "epsilon-greedy": (112.2, 11.6, 0.916),
    "ucb1": (145.0, 4.3, 0.914),
    "thompson": (32.5, 2.4, 0.991),
    "regret-matching": (172.1, 11.5, 0.892),
    "regret-matching-full": (3.2, 0.6, 1.000),
}

# (learner, opponent): average payoff per game after 2,000 games
RPS_TABLE = {
    ("equilibrium", "fixed"): -0.0010,
    ("regret-matching", "fixed"): 0.0819,
    ("epsilon-greedy", "fixed"): 0.0723,
    ("ucb1", "fixed"): 0.0421,
    ("thompson", "fixed"): 0.0698,
    ("equilibrium", "best-response"): -0.0025,
    ("regret-matching", "best-response"): -0.0136,
    ("epsilon-greedy", "best-response"): -0.8797,
    ("ucb1", "best-response"): -0.9985,
    ("thompson", "best-response"): -0.0348,
    ("ucb1", "fictitious-play"): 0.2122,
}


def test_bandit_bounds() -> None:
    assert round(ucb1_bound(DEFAULT_MEANS, 5000), 1) == 1195.4
    assert round(lai_robbins_constant(DEFAULT_MEANS), 3) == 8.560
    assert round(lai_robbins_constant(DEFAULT_MEANS) * math.log(5000), 1) == 72.9
    assert epsilon_greedy_rate(DEFAULT_MEANS, 0.1) == pytest.approx(0.0175)
    assert round(rm_bound(2000), 4) == 0.0775


@pytest.mark.slow
@pytest.mark.parametrize("learner", list(BANDIT_TABLE))
def test_bandit_table(learner: str) -> None:
    regret, half_width, share = BANDIT_TABLE[learner]
    run = run_bandit(learner, DEFAULT_MEANS, horizon=5000, runs=100, seed=0)
    assert round(float(run.regret[-1]), 1) == regret
    assert round(float(run.regret_ci95[-1]), 1) == half_width
    assert round(run.best_arm_share, 3) == share


@pytest.mark.slow
def test_rps_table() -> None:
    widths = []
    for (learner, opponent), payoff in RPS_TABLE.items():
        run = run_rps(learner, opponent, horizon=2000, runs=100, seed=0)
        assert round(float(run.final_payoffs.mean()), 4) == payoff
        widths.append(run.ci95)
    assert max(widths) <= 0.006  # "95% intervals +-0.006 or narrower"


# --- section 7: regret bounds ------------------------------------------------------------


def test_regret_bound_constants() -> None:
    assert round(cfr_constants(kuhn())[0], 2) == 33.94
    assert round(cfr_constants(leduc())[0], 1) == 6484.8


@pytest.mark.slow
def test_regret_bound_table() -> None:
    fixed = rps_regret("fixed", 100_000)
    assert fixed.average_regret[-1, 0] == pytest.approx(1e-6)
    assert round(float(fixed.bound[-1]), 5) == 0.01095
    assert round(float(fixed.bound[-1] / fixed.average_regret[-1, 0])) == 10_954
    adversary = rps_regret("best-response", 100_000)
    assert round(float(adversary.average_regret[-1, 0]), 6) == 0.002592
    assert round(float(adversary.bound[-1] / adversary.average_regret[-1, 0]), 1) == 4.2
    k = cfr_regret(kuhn(), 10_000)
    assert np.round(k.average_regret[-1], 6).tolist() == [0.002325, 0.002311]
    assert round(float(k.bound[-1]), 4) == 0.3394
    assert round(float(k.bound[-1] / k.average_regret[-1].max())) == 146
    le = cfr_regret(leduc(), 1000)
    assert np.round(le.average_regret[-1], 5).tolist() == [0.04280, 0.03683]
    assert round(float(le.bound[-1]), 2) == 205.07
    assert round(float(le.bound[-1] / le.average_regret[-1].max())) == 4791


# --- section 7: Q-learning beside CFR ------------------------------------------------------


def _cell(values: np.ndarray) -> tuple[float, float, float]:
    final = values[:, -1]
    return (round(float(final.mean()), 4), round(float(final.min()), 4),
            round(float(final.max()), 4))


def test_no_pure_kuhn_profile_is_less_than_a_sixth_exploitable() -> None:
    assert pure_profile_floor(kuhn()) == pytest.approx(1 / 6)


@pytest.mark.slow
def test_q_learning_on_kuhn() -> None:
    q = run_q_learning(kuhn(), 100_000)
    assert _cell(q.greedy) == (0.25, 0.1667, 0.3333)
    assert _cell(q.behaviour) == (0.2449, 0.1787, 0.3054)
    assert _cell(q.average) == (0.1407, 0.1371, 0.1463)
    assert q.hands.shape[0] == 21
    assert float(q.greedy.min()) >= 1 / 6 - 1e-12  # never below the floor, any checkpoint
    late = q.average.mean(axis=0)[q.hands >= 100]
    assert late.min() >= 0.129
    assert late.max() <= 0.164
    assert round(float(q.states[:, -1].mean()), -2) == 533_500
    assert np.all(q.churn[:, -1] > 0)  # greedy actions still flip at the end, every seed
    cfr = run_cfr(kuhn(), 1000)
    assert round(float(cfr.average[-1]), 5) == 0.00094
    below = cfr.iterations[cfr.average <= 0.1407]
    assert int(below[0]) == 6
    assert int(cfr.states[cfr.iterations == 6][0]) == 696
    assert float(cfr.average[cfr.iterations == 3][0]) > 0.1407


@pytest.mark.slow
def test_q_learning_on_leduc() -> None:
    q = run_q_learning(leduc(), 100_000)
    assert _cell(q.greedy) == (1.3944, 1.2167, 1.5167)
    assert _cell(q.behaviour) == (1.3427, 1.1665, 1.4913)
    assert _cell(q.average) == (0.7171, 0.6781, 0.7944)
    assert q.churn[:, -1].tolist() == [29, 48, 44]
    assert round(float(run_cfr(leduc(), 1000).average[-1]), 5) == 0.01182


@pytest.mark.slow
def test_q_learning_with_a_smaller_step() -> None:
    q = run_q_learning(kuhn(), 100_000, learning_rate=0.01)
    assert _cell(q.average) == (0.0839, 0.0757, 0.0946)
    assert _cell(q.greedy) == (0.25, 0.1667, 0.3333)
