"""The intervals and tests behind every leaderboard and match figure, against scipy's."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from pokerlab.eval.statistics import (
    Estimate,
    mean_estimate,
    normal_quantile,
    t_quantile,
    welch_p_value,
)


@pytest.mark.parametrize("gap", [0.0, 0.3, 1.0, 1.96, 3.0, 6.0, 9.0])
def test_welch_p_value_is_the_normal_two_tailed_probability(gap: float) -> None:
    a = Estimate(mean=gap, std_error=0.6, low=0.0, high=0.0, n=100)
    b = Estimate(mean=0.0, std_error=0.8, low=0.0, high=0.0, n=100)
    expected = 2 * stats.norm.sf(gap / np.hypot(0.6, 0.8))
    assert welch_p_value(a, b) == pytest.approx(expected, rel=1e-12, abs=1e-300)


def test_equal_means_without_error_are_equal_and_different_ones_are_not() -> None:
    same = Estimate(mean=1.0, std_error=0.0, low=1.0, high=1.0, n=5)
    other = Estimate(mean=2.0, std_error=0.0, low=2.0, high=2.0, n=5)
    assert welch_p_value(same, same) == 1.0
    assert welch_p_value(same, other) == 0.0


def test_the_interval_uses_students_t() -> None:
    values = np.random.default_rng(3).normal(size=12)
    estimate = mean_estimate(values)
    half = estimate.high - estimate.mean
    se = values.std(ddof=1) / np.sqrt(len(values))
    assert half == pytest.approx(stats.t.ppf(0.975, 11) * se, rel=1e-12)
    assert t_quantile(0.95, 12) == pytest.approx(stats.t.ppf(0.975, 11), rel=1e-12)


def test_the_t_and_normal_quantiles_agree_with_scipy_on_many_cases() -> None:
    """pokerlab computes them itself (no scipy.stats import); scipy is the reference."""
    rng = np.random.default_rng(11)
    levels = [0.5, 0.68, 0.9, 0.95, 0.99, 0.999, 0.999999, *rng.uniform(0.01, 0.9999, 60)]
    sizes = [2, 3, 4, 5, 7, 12, 30, 100, 9_999, 10_001, 10_002, 10**5, 10**7, 10**9,
             *rng.integers(2, 10**6, 40)]
    for confidence in levels:
        q = 1 - (1 - confidence) / 2
        assert normal_quantile(q) == pytest.approx(stats.norm.ppf(q), rel=1e-12)
        for n in sizes:
            expected = stats.t.ppf(q, int(n) - 1)
            assert t_quantile(float(confidence), int(n)) == pytest.approx(expected, rel=1e-9), (
                confidence, n)
    assert t_quantile(0.95, 1) == float("inf")
    with pytest.raises(ValueError, match="confidence must be in"):
        t_quantile(1.0, 10)
