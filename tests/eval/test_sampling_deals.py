"""Per-deal units: the one-pass grouping of sorted deals agrees with np.unique's."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.eval.sampling import deal_units


@pytest.mark.parametrize(
    "deals",
    [
        np.repeat(np.arange(500), 2),  # duplicate heads-up: each deal twice, in order
        np.repeat(np.arange(300), 6),  # 3 seats rotated
        np.random.default_rng(1).integers(0, 40, 700),  # unsorted
        np.sort(np.random.default_rng(2).integers(0, 40, 700)),  # sorted, uneven groups
        np.array([5]),
    ],
    ids=["pairs", "sixes", "unsorted", "uneven", "one"],
)
def test_deal_units_are_means_over_each_deal(deals: np.ndarray) -> None:
    values = np.random.default_rng(3).normal(size=(deals.size, 3))
    distinct = np.unique(deals)
    expected = np.array([values[deals == d].mean(axis=0) for d in distinct])
    assert np.allclose(deal_units(values, deals), expected)
    assert np.allclose(deal_units(values[:, 1], deals), expected[:, 1])
