"""Statistics for match results: means, confidence intervals, control variates, tests.

Every interval here is a Student-t interval on independent units (hands, or pairs of
duplicate hands): ``mean +- t(1 - (1 - confidence) / 2, n - 1) * std_error``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

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
    """The two-sided Student-t multiplier for ``n`` samples (normal when ``n`` is huge).

    Computed here (no scipy: importing ``scipy.stats`` costs about a second a command):
    the quantile of ``n - 1`` degrees of freedom by bisection on the t distribution's CDF,
    agreeing with ``scipy.stats.t.ppf`` to 1e-9 relative (a differential test checks it).
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1); got {confidence}")
    q = 1 - (1 - confidence) / 2
    if n < 2:
        return math.inf
    return _t_ppf(q, n - 1)


def normal_quantile(q: float) -> float:
    """The standard normal distribution's ``q`` quantile (``scipy.stats.norm.ppf``)."""
    return NormalDist().inv_cdf(q)


_LARGE_DF = 10_000
"""Above these degrees of freedom the t quantile is the normal's corrected by its
Cornish-Fisher expansion to the fourth term (Abramowitz and Stegun 26.7.5; the next term
is below 1e-15 there), where the incomplete beta function would lose digits to rounding."""


def _t_ppf(q: float, df: int) -> float:
    """The ``q`` quantile (``q`` in (0.5, 1)) of Student's t with ``df`` degrees of freedom."""
    z = normal_quantile(q)
    if df > _LARGE_DF:
        terms = ((z**3 + z) / 4, (5 * z**5 + 16 * z**3 + 3 * z) / 96,
                 (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
                 (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160)
        return z + math.fsum(term / float(df) ** (k + 1) for k, term in enumerate(terms))
    low, high = 0.0, max(1.0, z)
    while _t_cdf(high, df) < q:
        low, high = high, 2 * high
    for _ in range(200):  # bisection: the CDF is increasing; stop at float resolution
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if _t_cdf(middle, df) < q:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _t_cdf(t: float, df: int) -> float:
    """P(T <= t) for ``t >= 0``: 1 - I_x(df/2, 1/2) / 2 with x = df / (df + t^2)."""
    x = df / (df + t * t)
    return 1 - 0.5 * _beta_regularized(df / 2, 0.5, x)


def _beta_regularized(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    if x > (a + 1) / (a + b + 2):  # the fraction converges fast on the other side
        return 1 - math.exp(log_front) * _beta_fraction(b, a, 1 - x) / b
    return math.exp(log_front) * _beta_fraction(a, b, x) / a


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 100_000):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1) < 1e-16:
            break
    return result


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
    "normal_quantile",
    "t_quantile",
    "welch_p_value",
]
