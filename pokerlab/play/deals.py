"""Secret deals: every card and every seed an agent gets comes from a keyed function of a secret.

A *seed* is any integer. A run that is a contest (an arena run, an ACPC dealer, a web
table) draws a fresh one from the operating system (:func:`fresh_seed`: 128 bits from
:mod:`secrets`), stores it with the run so the run can be replayed and audited after it
ends, and never gives it, nor anything computed from it without a key, to an entrant or a
client. What the agents do get is computed from the seed by keyed functions:

1. Two 256-bit keys are derived from the seed by BLAKE2b, each with its own
   personalization (``b"pokerlab.deals"`` and ``b"pokerlab.derive"``): knowing one key, or
   anything computed from it, tells nothing of the seed or of the other key.
2. Chance: uniform ``k`` of deal ``d`` comes from ChaCha20 (RFC 8439) under the deal key,
   with ``d`` as the nonce and ``k // 8`` as the block counter (8 uniforms of 53 bits per
   64-byte block). Any uniform of any deal is computed directly, so :class:`DealStream`
   (one deal, in the dealer) and :func:`chance_uniforms` (thousands of deals at once, in
   the vectorized fast path) see the same cards; the rotations of a duplicate deal too.
3. Everything else (the value each agent's ``seed()`` hook receives, a match's seed in a
   tournament, the generator of a fast path's decisions, a web table's bots) is
   :func:`derive_seed`: keyed BLAKE2b over a purpose and integers, a stream independent
   of the cards.

A *known* seed (``--seed 42``: reproducible research) makes every card predictable to
whoever knows it, entrants included; only a secret seed makes a fair contest.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import secrets
import struct

import numpy as np
from numpy.typing import NDArray

from pokerlab._types import CHANCE, Action, FloatArray, IntArray
from pokerlab.errors import PokerlabError
from pokerlab.games.base import State
from pokerlab.games.holdem_state import HoldemState

SEED_BITS = 128
"""Bits of entropy of a fresh seed."""

_DEAL_BLOCK = 8  # uniforms per ChaCha20 block
_MASK64 = (1 << 64) - 1


def fresh_seed() -> int:
    """A new secret seed: :data:`SEED_BITS` random bits from the operating system.

    Example:
        >>> fresh_seed() != fresh_seed()
        True
    """
    return secrets.randbits(SEED_BITS)


def seed_commitment(seed: int) -> str:
    """A public commitment to a secret deal seed: SHA-256 of its bytes, as hex.

    A table shows it before the first deal and reveals the seed when its session ends, so
    a player can check afterwards that the deals were fixed in advance (the hash matches)
    and replay them (hand ``k`` is deal ``k`` of the seed). A fresh seed's 128 secret bits
    keep the commitment from being inverted; a small seed (tests, research) does not.

    Example:
        >>> seed_commitment(5) == seed_commitment(5) != seed_commitment(6)
        True
    """
    width = max(17, (int(seed).bit_length() + 8) // 8)  # room for a sign bit
    data = int(seed).to_bytes(width, "big", signed=True)
    return hashlib.sha256(b"pokerlab deal seed:" + data).hexdigest()


def check_seed(seed: object) -> int:
    """``seed`` as an ``int``; refuse what is not an integer.

    Raises:
        PokerlabError: for a bool, a float, a string or anything not an integer.
    """
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise PokerlabError(f"a seed must be an integer; got {seed!r} ({type(seed).__name__})")
    return int(seed)


def _seed_bytes(seed: int) -> bytes:
    """An injective encoding of any integer (two's complement, little end first)."""
    return seed.to_bytes(seed.bit_length() // 8 + 1, "little", signed=True)


@functools.lru_cache(maxsize=256)
def _key(seed: int, purpose: bytes) -> bytes:
    """The 256-bit key of ``purpose`` derived from ``seed`` (BLAKE2b, personalized)."""
    person = b"pokerlab." + purpose
    return hashlib.blake2b(_seed_bytes(seed), digest_size=32, person=person).digest()


@functools.lru_cache(maxsize=256)
def _deal_key_words(seed: int) -> NDArray[np.uint64]:
    """The deal key as 8 little-endian 32-bit words (held in uint64, as the kernel wants)."""
    words = np.frombuffer(_key(seed, b"deals"), dtype="<u4").astype(np.uint64)
    words.flags.writeable = False
    return words


def derive_seed(seed: int, purpose: str, *words: int, bits: int = 128) -> int:
    """A seed for ``purpose`` (and the integers ``words``), derived from ``seed`` with a key.

    Keyed BLAKE2b: without the seed, the result tells nothing of the seed, of the cards, or
    of another purpose's seeds; with the seed, anyone recomputes it (replays, audits).

    Args:
        seed: the secret (or known) seed.
        purpose: what the value is for (``"hook"``, ``"match"``...): distinct purposes give
            independent values.
        *words: integers that select the value (a hand, an agent, a match index), each
            within 64-bit signed range.
        bits: the size of the result, a multiple of 8 from 8 to 512.

    Raises:
        PokerlabError: a seed or word that is not an integer, or a word out of range.

    Example:
        >>> one = derive_seed(7, "hook", 3, 1)
        >>> one == derive_seed(7, "hook", 3, 1) != derive_seed(7, "hook", 3, 0)
        True
    """
    key = _key(check_seed(seed), b"derive")
    try:
        packed = struct.pack(f"<{len(words)}q", *(check_seed(w) for w in words))
    except struct.error:
        raise PokerlabError(f"derive_seed words must be 64-bit integers; got {words!r}") from None
    digest = hashlib.blake2b(
        purpose.encode() + b"\x00" + packed, key=key, digest_size=bits // 8
    ).digest()
    return int.from_bytes(digest, "little")


def _kernel_uniforms(seed: int, deals: IntArray, first: int, count: int) -> FloatArray:
    from pokerlab.play._deal_kernels import deal_uniforms

    out: FloatArray = deal_uniforms(_deal_key_words(seed), deals, first, count)
    return out


def chance_uniforms(seed: int, deals: IntArray, count: int) -> FloatArray:
    """``[len(deals), count]`` the first ``count`` uniforms of each deal's chance stream.

    ChaCha20 under the seed's deal key, the deal as the nonce (see the module docstring):
    the dealer (one deal at a time) and the sampled fast path (thousands at once) see the
    same cards, and without the seed no one can compute them.
    """
    d = np.ascontiguousarray(np.asarray(deals, dtype=np.int64).reshape(-1))
    return _kernel_uniforms(check_seed(seed), d, 0, int(count))


class DealStream:
    """The chance stream of one deal: call it for the next uniform in ``[0, 1)``.

    The uniforms are :func:`chance_uniforms`'s, computed 8 at a time as they are asked for.

    Example:
        >>> stream = DealStream(seed=7, deal=3)
        >>> first = stream()
        >>> first == float(chance_uniforms(7, np.array([3]), 1)[0, 0])
        True
    """

    __slots__ = ("_block", "_key", "_next", "_uniforms", "deal", "seed")

    def __init__(self, seed: int, deal: int) -> None:
        self.seed = check_seed(seed)
        self.deal = int(deal)
        self._key = _deal_key_words(self.seed)
        self._uniforms: tuple[float, ...] = ()
        self._block = -1
        self._next = 0

    def __call__(self) -> float:
        """The next uniform of the stream."""
        block, slot = divmod(self._next, _DEAL_BLOCK)
        if block != self._block:
            from pokerlab.play._deal_kernels import deal_block

            self._uniforms = deal_block(self._key, self.deal & _MASK64, block)
            self._block = block
        self._next += 1
        return self._uniforms[slot]

    def __repr__(self) -> str:  # never the seed: a stream may be shown in a traceback
        return f"DealStream(deal={self.deal})"


@functools.cache
def _uniform_sums(n: int) -> tuple[float, ...]:
    """The running sums :func:`sample_chance`'s loop adds up over ``n`` outcomes of ``1/n``."""
    sums: list[float] = []
    total, prob = 0.0, 1.0 / n
    for _ in range(n):
        total += prob
        sums.append(total)
    return tuple(sums)


def sample_chance(state: State, u: float) -> Action:
    """The outcome of chance node ``state`` drawn by inverse CDF from the uniform ``u``."""
    if type(state) is HoldemState and state.player == CHANCE:
        # Hold'em deals each undealt card with probability 1/n (its chance_outcomes): the
        # first running sum above u, found by bisection over the very sums the loop below
        # adds (the same float additions), is the same card, without building the pairs.
        cards = state.legal_actions()
        at = bisect.bisect_right(_uniform_sums(len(cards)), u)
        return cards[at] if at < len(cards) else cards[-1]
    outcomes = state.chance_outcomes()
    total = 0.0
    for outcome, prob in outcomes:
        total += prob
        if u < total:
            return outcome
    return outcomes[-1][0]


__all__ = [
    "SEED_BITS",
    "DealStream",
    "chance_uniforms",
    "check_seed",
    "derive_seed",
    "fresh_seed",
    "sample_chance",
    "seed_commitment",
]
