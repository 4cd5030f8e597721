"""Regret matching: the strategy of cumulative regrets, the one NumPy implementation.

Regret matching (Hart and Mas-Colell, 2000) plays each action in proportion to its positive
cumulative regret, and uniformly when no regret is positive. Every solver, study and agent
that turns regrets into a strategy with NumPy calls :func:`regret_matching_strategy`
(re-exported by :mod:`pokerlab.solvers`). Compiled kernels match regrets inside their loops
with the same arithmetic (``positive / total``).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from pokerlab._types import BoolArray, FloatArray
from pokerlab.errors import SolverError


def regret_matching_strategy(
    regrets: ArrayLike, legal: ArrayLike | None = None, *, check: bool = True
) -> FloatArray:
    """Return the regret-matching strategy of cumulative regrets.

    The positive parts of the regrets, normalised to sum to 1; uniform where no regret is
    positive. Works on the last axis, so a ``[n_infosets, n_actions]`` array gives one
    strategy per row.

    Args:
        regrets: cumulative regrets ``[..., n_actions]``.
        legal: optional mask of the same shape: actions outside it get probability 0, and
            the uniform strategy is over the legal actions only (rows of a padded table).
        check: validate the arguments (the default). Loops that call it on arrays they
            keep themselves pass False: ``regrets`` must then be a float64 array and
            ``legal`` a boolean one, and the call costs half as much.

    Returns:
        A new array of the same shape whose last axis holds probabilities.

    Raises:
        SolverError: if ``regrets`` is empty, zero-dimensional, or not finite, or if
            ``legal`` has another shape or leaves a row without a legal action.

    Example:
        >>> regret_matching_strategy([0.0, 1.0, 2.0]).round(4).tolist()
        [0.0, 0.3333, 0.6667]
        >>> regret_matching_strategy([-1.0, 0.0, -3.0]).round(4).tolist()
        [0.3333, 0.3333, 0.3333]
        >>> regret_matching_strategy([[-1.0, 5.0, 0.0]], legal=[[True, False, True]]).tolist()
        [[0.5, 0.0, 0.5]]
    """
    if not check:
        return _matched(regrets, legal)  # type: ignore[arg-type]
    array = np.asarray(regrets, dtype=np.float64)
    if array.ndim == 0 or array.shape[-1] == 0:
        raise SolverError(
            f"regrets must be an array [..., n_actions] with at least one action; "
            f"got shape {array.shape}"
        )
    if not np.all(np.isfinite(array)):
        raise SolverError("regrets must be finite numbers; got NaN or infinity")
    if legal is None:
        return _matched(array)
    mask = np.asarray(legal, dtype=bool)
    if mask.shape != array.shape:
        raise SolverError(
            f"legal must have the shape of regrets {array.shape}; got shape {mask.shape}"
        )
    if not np.all(mask.any(axis=-1)):
        raise SolverError("legal leaves a row without a legal action; each needs one")
    return _matched(array, mask)


def _matched(regrets: FloatArray, legal: BoolArray | None = None) -> FloatArray:
    """The positive parts normalised: uniform (over ``legal``) where none is positive."""
    positive: FloatArray = np.maximum(regrets, 0.0)
    if legal is None and positive.ndim == 1:  # the common hot path: one row, no branches
        total = positive.sum()
        if total > 0.0:
            return positive / total  # type: ignore[no-any-return]
        return np.full(positive.size, 1.0 / positive.size)
    if legal is None:
        uniform: FloatArray | float = 1.0 / positive.shape[-1]
    else:
        positive = np.where(legal, positive, 0.0)
        uniform = legal / legal.sum(axis=-1, keepdims=True)
    total = positive.sum(axis=-1, keepdims=True)
    return np.where(total > 0.0, positive / np.where(total > 0.0, total, 1.0), uniform)


__all__ = ["regret_matching_strategy"]
