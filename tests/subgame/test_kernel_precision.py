"""float32 storage computes in float32: the strategy kernels never widen to float64.

One float64 literal (``max(r, 0.0)``) or float64 weight in a loop over float32 arrays
makes numba widen every element to double and narrow it back, at half the vector width
(regret matching with the reach below it: 2.4 ms against 0.71 ms). The kernels take their
constants from the arrays' dtype; this reads the LLVM IR numba generates for float32
arrays and refuses any conversion to double or double arithmetic in it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from pokerlab._numba import numba
from pokerlab.subgame import _kernels as kernels

DOUBLE_ARITHMETIC = re.compile(r"\bf(?:add|sub|mul|div)(?: [a-z]+)* double\b")
FLOAT_ARITHMETIC = re.compile(r"\bf(?:add|sub|mul|div)(?: [a-z]+)* (?:<\d+ x )?float\b")


def _regret_match(kernel: Callable[..., Any], dtype: type) -> np.ndarray:
    regrets = np.array([[1.0, -2.0, 0.0, 3.0], [2.0, -1.0, 0.0, 0.5],
                        [-1.0, -1.0, 0.0, 1.5]], dtype=dtype)
    out = np.zeros((4, 4), dtype=dtype)
    kernel(regrets, 0, 3, 4, out)
    return out[:3]


def _average_rows(kernel: Callable[..., Any], dtype: type) -> np.ndarray:
    sums = np.array([[1.0, 0.0, 2.0], [3.0, 0.0, 2.0]], dtype=dtype)
    out = np.zeros((2, 3), dtype=dtype)
    kernel(sums, 0, 2, 3, out, 0)
    return out


@pytest.mark.parametrize(("name", "call"), [("regret_match", _regret_match),
                                            ("average_rows", _average_rows)])
def test_float32_strategy_kernels_compute_in_float32(
    name: str, call: Callable[[Callable[..., Any], type], np.ndarray],
) -> None:
    kernel = getattr(kernels, name)
    fresh = numba.njit(nogil=True)(kernel.py_func)  # uncached: its IR can be read
    single = call(fresh, np.float32)
    (ir,) = fresh.inspect_llvm().values()
    assert "fpext" not in ir, f"{name} widens float32 to double"
    assert not DOUBLE_ARITHMETIC.search(ir), f"{name} computes in double"
    assert FLOAT_ARITHMETIC.search(ir), f"{name} compiled no float32 arithmetic at all"
    assert single.dtype == np.float32
    # the same strategy as float64 storage gives, within float32's rounding
    np.testing.assert_allclose(single, call(kernel, np.float64), rtol=0, atol=1e-7)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_regrets_summing_under_the_smallest_normal_number_play_uniformly(dtype: type) -> None:
    # Found by review: in float32, 1 / 1e-39 is inf and inf * 0 is NaN, which then
    # spreads through the opponent's reach into every hand's values.
    tiny = np.finfo(dtype).tiny
    regrets = np.array([[tiny / 100, 1.0], [0.0, 0.0], [0.0, 3.0]], dtype=dtype)
    out = np.zeros((4, 2), dtype=dtype)
    kernels.regret_match(regrets, 0, 3, 2, out)
    np.testing.assert_allclose(out[:3, 0], 1 / 3, rtol=1e-6)  # as if every regret were 0
    np.testing.assert_allclose(out[:3, 1], [0.25, 0.0, 0.75], rtol=1e-6)
