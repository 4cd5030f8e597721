"""SplitMix64, the one implementation of pokerlab's fast (non-cryptographic) random streams.

SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
OOPSLA 2014): one 64-bit word of state, advanced by :data:`GAMMA` before every draw; a
draw is :func:`mix` of the new state. The equity sampler (:mod:`pokerlab.cards._kernels`),
the Monte Carlo CFR kernels and walks, Deep CFR's traversals, the blueprint's pruning draw
and :func:`pokerlab.play.dealer.mix64` all draw or hash through these functions, so their
streams cannot drift apart. Card deals of matches are keyed streams instead
(:mod:`pokerlab.play.deals`): SplitMix64 is predictable from its outputs.

The functions are numba-compiled (cached on disk, inlined into the kernels that call them)
and callable from plain Python with integers in ``[0, 2**64)``. Imported on first use only,
like every numba module, so ``import pokerlab.cards`` does not pay for numba.

Example:
    >>> from pokerlab.cards.splitmix import GAMMA, mix, unit
    >>> hex(mix(int(GAMMA)))  # the first output of the stream seeded with 0
    '0xe220a8397b1dcdaf'
    >>> 0.0 <= unit(int(GAMMA)) < 1.0
    True
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from pokerlab._numba import numba

GAMMA = np.uint64(0x9E3779B97F4A7C15)
"""The increment of the state per draw (the golden ratio's odd 64-bit fraction)."""

# uint64 constants, so that numba keeps the arithmetic modulo 2**64 (a Python int operand
# would turn it into int64 or float64).
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S11 = np.uint64(11)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
_TWO_POW_M53 = 1.0 / 9007199254740992.0


@numba.njit(numba.uint64(numba.uint64), cache=True, nogil=True, inline="always")
def mix(z: np.uint64 | int) -> np.uint64:
    """The 64 output bits of state ``z`` (SplitMix64's finalizer, a bijection of 64 bits).

    Called from Python with an int, it returns an int.
    """
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@numba.njit(numba.float64(numba.uint64), cache=True, nogil=True, inline="always")
def unit(z: np.uint64 | int) -> float:
    """The output of state ``z`` as a float in [0, 1): its top 53 bits over 2**53."""
    return float(mix(z) >> _S11) * _TWO_POW_M53


@numba.njit(cache=True, nogil=True, inline="always")
def uniform(rng: NDArray[np.uint64]) -> float:
    """Advance the stream whose state is ``rng[0]``; the next float in [0, 1)."""
    z = rng[0] + GAMMA
    rng[0] = z
    return unit(z)


__all__ = ["GAMMA", "mix", "uniform", "unit"]
