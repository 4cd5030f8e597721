"""Statistics for match results: means, confidence intervals, control variates, tests.

Every interval here is a Student-t interval on independent units (hands, or pairs of
duplicate hands): ``mean +- t(1 - (1 - confidence) / 2, n - 1) * std_error``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pokerlab._types import FloatArray


@dataclass(frozen=True)
class Estimate:
    """A sample mean with its standard error and confidence interval.

    Attributes:
        mean: the sample mean (in the unit of the samples, e.g. chips per hand).
        std_error: the standard error of the mean (same unit); 0 with fewer than 2 samples.
        low: the lower end of the confidence interval.
        high: the upper end of the confidence interval.
        n: the number of independent samples.
        confidence: the confidence level of ``[low, high]`` (0.95 for a 95% interval).
    """

    mean: float
    std_error: float
    low: float
    high: float
    n: int
    confidence: float = 0.95

    def contains(self, value: float) -> bool:
        """True when ``value`` lies in the confidence interval."""
        return self.low <= value <= self.high

    def scaled(self, factor: float) -> Estimate:
        """The same estimate in another unit (``factor`` times every figure; e.g. 100)."""
        low, high = sorted((self.low * factor, self.high * factor))
        return Estimate(
            self.mean * factor, self.std_error * abs(factor), low, high, self.n, self.confidence
        )

    def __str__(self) -> str:
        return f"{self.mean:+.4f} ± {self.high - self.mean:.4f}"


def t_quantile(confidence: float, n: int) -> float:
    """The two-sided Student-t multiplier for ``n`` samples (normal when ``n`` is huge)."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1); got {confidence}")
    q = 1 - (1 - confidence) / 2
    if n < 2:
        return math.inf
    from scipy import stats  # here: importing scipy.stats costs about a second

    return float(stats.t.ppf(q, n - 1))


def mean_estimate(values: Sequence[float] | FloatArray, *, confidence: float = 0.95) -> Estimate:
    """Return the mean of independent samples with its confidence interval.

    Args:
        values: independent samples (one per hand, or one per duplicate pair).
        confidence: the interval's level.

    Raises:
        ValueError: if ``values`` is empty.

    Example:
        >>> e = mean_estimate([1.0, -1.0, 1.0, -1.0])
        >>> e.mean, round(e.std_error, 4)
        (0.0, 0.5774)
    """
    x = np.asarray(values, dtype=np.float64)
    n = int(x.shape[0])
    if n == 0:
        raise ValueError("mean_estimate needs at least one sample")
    mean = float(x.mean())
    if n < 2:
        return Estimate(mean, 0.0, -math.inf, math.inf, n, confidence)
    se = float(x.std(ddof=1) / math.sqrt(n))
    half = t_quantile(confidence, n) * se
    return Estimate(mean, se, mean - half, mean + half, n, confidence)


@dataclass(frozen=True)
class ControlVariateEstimate:
    """A mean corrected by a zero-mean control variate: ``x - coefficient * c``.

    Attributes:
        estimate: the corrected mean and its interval (unit of ``x``).
        coefficient: the coefficient used (``Cov(x, c) / Var(c)`` when estimated).
        variance_reduction: ``Var(x) / Var(x - coefficient * c)``; above 1 means the
            control variate helped (that many times fewer samples for the same interval).
    """

    estimate: Estimate
    coefficient: float
    variance_reduction: float


def control_variate_estimate(
    values: Sequence[float] | FloatArray,
    control: Sequence[float] | FloatArray,
    *,
    coefficient: float | None = None,
    confidence: float = 0.95,
) -> ControlVariateEstimate:
    """Correct a mean with a control variate whose expectation is known to be zero.

    With ``coefficient=None`` the optimal coefficient ``Cov(x, c) / Var(c)`` is estimated
    from the same data (a small bias of order 1/n, negligible at match sizes).

    Args:
        values: the samples ``x``.
        control: the control ``c`` for each sample, with ``E[c] = 0`` exactly.
        coefficient: a fixed coefficient (1.0 is the plain AIVAT-style correction).
        confidence: the interval's level.

    Raises:
        ValueError: if the arrays differ in length or are empty.
    """
    x = np.asarray(values, dtype=np.float64)
    c = np.asarray(control, dtype=np.float64)
    if x.shape != c.shape or x.size == 0:
        raise ValueError(f"values and control must be non-empty and equal in length; "
                         f"got {x.shape} and {c.shape}")
    if coefficient is None:
        var_c = float(c.var(ddof=1)) if c.size > 1 else 0.0
        coefficient = float(np.cov(x, c, ddof=1)[0, 1] / var_c) if var_c > 0 else 0.0
    adjusted = x - coefficient * c
    var_x = float(x.var(ddof=1)) if x.size > 1 else 0.0
    var_adj = float(adjusted.var(ddof=1)) if x.size > 1 else 0.0
    reduction = var_x / var_adj if var_adj > 0 else (1.0 if var_x == 0 else math.inf)
    return ControlVariateEstimate(
        mean_estimate(adjusted, confidence=confidence), float(coefficient), reduction
    )


def welch_p_value(a: Estimate, b: Estimate) -> float:
    """Two-sided p-value that two independent means are equal (normal approximation).

    Used by the leaderboard to decide whether two agents share a place.
    """
    se = math.hypot(a.std_error, b.std_error)
    if se == 0:
        return 1.0 if a.mean == b.mean else 0.0
    z = abs(a.mean - b.mean) / se
    return math.erfc(z / math.sqrt(2))  # 2 * (1 - Phi(z)), the normal's two tails


__all__ = [
    "ControlVariateEstimate",
    "Estimate",
    "control_variate_estimate",
    "mean_estimate",
    "t_quantile",
    "welch_p_value",
]
