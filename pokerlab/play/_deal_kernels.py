"""The ChaCha20 block function over many deals at once (numba, cached on disk).

Imported on first use only (by :mod:`pokerlab.play.deals`), so ``import pokerlab.play``
does not pay for numba. The block function is RFC 8439's, section 2.3: a 4 x 4 state of
32-bit words (4 constants, the 256-bit key, a block counter and a 96-bit nonce), 20 rounds
of quarter rounds, then the input added back. Words are held in 64-bit integers masked to
32 bits (numba types the sums of 32-bit integers as 64-bit ones).

Here the nonce is ``(0, deal mod 2**32, deal div 2**32)`` and the counter the block's
index in the deal's stream; each block gives 8 uniforms (two words, little end first, make a
64-bit integer whose top 53 bits are the uniform's mantissa).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from pokerlab._numba import numba

_M32 = np.uint64(0xFFFFFFFF)
_SIGMA = (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)  # "expand 32-byte k"
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@numba.njit(cache=True, nogil=True, inline="always")
def _quarter(
    a: np.uint64, b: np.uint64, c: np.uint64, d: np.uint64
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    a = (a + b) & _M32
    d ^= a
    d = ((d << np.uint64(16)) | (d >> np.uint64(16))) & _M32
    c = (c + d) & _M32
    b ^= c
    b = ((b << np.uint64(12)) | (b >> np.uint64(20))) & _M32
    a = (a + b) & _M32
    d ^= a
    d = ((d << np.uint64(8)) | (d >> np.uint64(24))) & _M32
    c = (c + d) & _M32
    b ^= c
    b = ((b << np.uint64(7)) | (b >> np.uint64(25))) & _M32
    return a, b, c, d


@numba.njit(cache=True, nogil=True)
def chacha20_block(key: NDArray[np.uint64], counter: int, nonce: NDArray[np.uint64],
                   out: NDArray[np.uint64]) -> None:
    """Write the 16 words of ChaCha20 block ``counter`` under ``key`` (8 words), ``nonce`` (3)."""
    s0, s1, s2, s3 = np.uint64(_SIGMA[0]), np.uint64(_SIGMA[1]), np.uint64(_SIGMA[2]), \
        np.uint64(_SIGMA[3])
    s12 = np.uint64(counter) & _M32
    x0, x1, x2, x3 = s0, s1, s2, s3
    x4, x5, x6, x7 = key[0], key[1], key[2], key[3]
    x8, x9, x10, x11 = key[4], key[5], key[6], key[7]
    x12, x13, x14, x15 = s12, nonce[0], nonce[1], nonce[2]
    for _ in range(10):  # 20 rounds: a column round and a diagonal round each time
        x0, x4, x8, x12 = _quarter(x0, x4, x8, x12)
        x1, x5, x9, x13 = _quarter(x1, x5, x9, x13)
        x2, x6, x10, x14 = _quarter(x2, x6, x10, x14)
        x3, x7, x11, x15 = _quarter(x3, x7, x11, x15)
        x0, x5, x10, x15 = _quarter(x0, x5, x10, x15)
        x1, x6, x11, x12 = _quarter(x1, x6, x11, x12)
        x2, x7, x8, x13 = _quarter(x2, x7, x8, x13)
        x3, x4, x9, x14 = _quarter(x3, x4, x9, x14)
    out[0] = (x0 + s0) & _M32
    out[1] = (x1 + s1) & _M32
    out[2] = (x2 + s2) & _M32
    out[3] = (x3 + s3) & _M32
    out[4] = (x4 + key[0]) & _M32
    out[5] = (x5 + key[1]) & _M32
    out[6] = (x6 + key[2]) & _M32
    out[7] = (x7 + key[3]) & _M32
    out[8] = (x8 + key[4]) & _M32
    out[9] = (x9 + key[5]) & _M32
    out[10] = (x10 + key[6]) & _M32
    out[11] = (x11 + key[7]) & _M32
    out[12] = (x12 + s12) & _M32
    out[13] = (x13 + nonce[0]) & _M32
    out[14] = (x14 + nonce[1]) & _M32
    out[15] = (x15 + nonce[2]) & _M32


@numba.njit(cache=True, nogil=True)
def deal_uniforms(
    key: NDArray[np.uint64], deals: NDArray[np.int64], first: int, count: int
) -> NDArray[np.float64]:
    """``[len(deals), count]``: uniforms ``first .. first+count-1`` of each deal's stream."""
    n = deals.shape[0]
    out = np.empty((n, count), dtype=np.float64)
    words = np.empty(16, dtype=np.uint64)
    nonce = np.zeros(3, dtype=np.uint64)
    for row in range(n):
        deal = np.uint64(deals[row])
        nonce[1] = deal & _M32
        nonce[2] = deal >> np.uint64(32)
        block = -1
        for column in range(count):
            index = first + column
            if index // 8 != block:
                block = index // 8
                chacha20_block(key, block, nonce, words)
            slot = index % 8
            word = words[2 * slot] | (words[2 * slot + 1] << np.uint64(32))
            out[row, column] = np.float64(word >> np.uint64(11)) * _TO_UNIT
    return out


@numba.njit(cache=True, nogil=True)
def deal_block(key: NDArray[np.uint64], deal: int, block: int) -> tuple[float, ...]:
    """Uniforms ``8 * block .. 8 * block + 7`` of deal ``deal``'s stream (one deal's path)."""
    words = np.empty(16, dtype=np.uint64)
    nonce = np.zeros(3, dtype=np.uint64)
    d = np.uint64(deal)
    nonce[1] = d & _M32
    nonce[2] = d >> np.uint64(32)
    chacha20_block(key, block, nonce, words)
    u = np.empty(8, dtype=np.float64)
    for slot in range(8):
        word = words[2 * slot] | (words[2 * slot + 1] << np.uint64(32))
        u[slot] = np.float64(word >> np.uint64(11)) * _TO_UNIT
    return (u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7])
