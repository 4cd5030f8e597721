"""Regret matching: the one NumPy implementation, against the rule written out row by row."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.errors import SolverError
from pokerlab.solvers import regret_matching_strategy as exported
from pokerlab.strategy.regrets import regret_matching_strategy


def _rule(row: list[float], legal: list[bool]) -> list[float]:
    positive = [max(r, 0.0) if ok else 0.0 for r, ok in zip(row, legal, strict=True)]
    total = sum(positive)
    if total > 0.0:
        return [p / total for p in positive]
    n_legal = sum(legal)
    return [1.0 / n_legal if ok else 0.0 for ok in legal]


def test_rows_follow_the_rule_with_and_without_a_mask() -> None:
    rng = np.random.default_rng(3)
    for n in (1, 2, 3, 7, 8, 13):
        regrets = rng.normal(size=(200, n))
        regrets[::5] = -np.abs(regrets[::5])  # rows without a positive regret
        legal = rng.random((200, n)) < 0.6
        legal[:, -1] = True
        plain = regret_matching_strategy(regrets)
        masked = regret_matching_strategy(regrets, legal)
        for k in range(200):
            assert plain[k] == pytest.approx(_rule(regrets[k].tolist(), [True] * n))
            assert masked[k] == pytest.approx(_rule(regrets[k].tolist(), legal[k].tolist()))
            assert np.array_equal(regret_matching_strategy(regrets[k]), plain[k])
        assert np.array_equal(regret_matching_strategy(regrets, check=False), plain)
        assert np.array_equal(regret_matching_strategy(regrets, legal, check=False), masked)


def test_solvers_export_the_same_function() -> None:
    assert exported is regret_matching_strategy


def test_bad_masks_are_refused() -> None:
    with pytest.raises(SolverError, match="shape"):
        regret_matching_strategy([[1.0, 2.0]], legal=[[True, True, True]])
    with pytest.raises(SolverError, match="without a legal action"):
        regret_matching_strategy([[1.0, 2.0], [0.0, 1.0]], legal=[[True, False], [False, False]])
    with pytest.raises(SolverError, match="finite"):
        regret_matching_strategy([1.0, np.nan])
