"""Card bucketings: contiguous groups of ordered cards (Kuhn cards, Leduc ranks).

In Kuhn and Leduc the cards are totally ordered by strength, so every sensible bucketing
of them is a partition into contiguous runs; a :class:`Bucketing` holds the first item of
each run (``starts``). Items are card indices (Kuhn: ``0..N-1``) or ranks (Leduc:
``0..ranks-1``, suits never matter).

Bucketings by name (the text a spec records, :func:`parse_bucketing`):

- ``identity``: one bucket per item (no abstraction);
- ``uniform:B``: equal width, ``bucket = item * B // N`` (the tutorial's "cards 1-10, 11-20...");
- ``percentile:B``: equal probability: the item's mid-point in the cumulative distribution
  of the items' probabilities decides its bucket, ``floor(B * (F(item - 1) + p(item) / 2))``.
  Every Kuhn card and every Leduc rank is equally likely, so this differs from ``uniform``
  only in where the remainder falls when ``B`` does not divide ``N`` (uniform puts the larger
  buckets at the bottom, percentile in the middle: with 100 cards and 3 buckets uniform
  gives 34/33/33 cards, percentile 33/34/33);
- ``boundaries:0,5,17``: the first item of each bucket, strictly increasing from 0
  (``boundaries:5,17`` is refused rather than silently given a third bucket);
- ``optimized:B``: found by :func:`pokerlab.abstraction.optimize_buckets`, which searches
  boundaries to minimise the full-game exploitability of the lifted strategy; it is always
  recorded as the ``boundaries:...`` it found.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from pokerlab._types import FloatArray, IntArray
from pokerlab.errors import SpecError

BUCKETING_NAMES = ("identity", "uniform:B", "percentile:B", "boundaries:S0,S1,...", "optimized:B")
"""The bucketing texts accepted (``optimized`` only where a game can be solved)."""


@dataclass(frozen=True)
class Bucketing:
    """A partition of ``n_items`` ordered items into contiguous buckets.

    Attributes:
        n_items: the number of items (cards, or ranks).
        starts: the first item of each bucket, ``starts[0] == 0``, strictly increasing.
        method: how it was made (``"uniform"``, ``"percentile"``, ``"boundaries"``...), for
            reports; two bucketings with the same starts are equal whatever the method.
    """

    n_items: int
    starts: tuple[int, ...]
    method: str = "boundaries"

    def __post_init__(self) -> None:
        _check_starts(self.n_items, self.starts)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Bucketing):
            return NotImplemented
        return self.n_items == other.n_items and self.starts == other.starts

    def __hash__(self) -> int:
        return hash((self.n_items, self.starts))

    @property
    def n_buckets(self) -> int:
        """The number of buckets."""
        return len(self.starts)

    @property
    def is_identity(self) -> bool:
        """True when every item has a bucket of its own."""
        return self.n_buckets == self.n_items

    @cached_property
    def assignment(self) -> IntArray:
        """``[n_items]`` the bucket of each item."""
        out = np.zeros(self.n_items, dtype=np.int64)
        for b, start in enumerate(self.starts[1:], start=1):
            out[start:] = b
        out.setflags(write=False)
        return out

    def bucket_of(self, item: int) -> int:
        """The bucket of ``item``."""
        return int(self.assignment[item])

    def members(self, bucket: int) -> range:
        """The items of ``bucket``, in order."""
        end = self.starts[bucket + 1] if bucket + 1 < self.n_buckets else self.n_items
        return range(self.starts[bucket], end)

    def sizes(self) -> list[int]:
        """The number of items in each bucket."""
        return [len(self.members(b)) for b in range(self.n_buckets)]

    def to_text(self) -> str:
        """The text that rebuilds it: ``identity`` or ``boundaries:0,5,17``."""
        if self.is_identity:
            return "identity"
        return "boundaries:" + ",".join(str(s) for s in self.starts)

    def describe(self, names: Sequence[str] | None = None) -> str:
        """The buckets as readable ranges: ``1-10 | 11-20 | ...``."""
        names = names or [str(i) for i in range(self.n_items)]
        parts = []
        for b in range(self.n_buckets):
            m = self.members(b)
            parts.append(names[m[0]] if len(m) == 1 else f"{names[m[0]]}-{names[m[-1]]}")
        return " | ".join(parts)


def _check_starts(n_items: int, starts: Sequence[int]) -> None:
    if n_items < 1:
        raise SpecError(f"a bucketing needs at least one item; got n_items={n_items}")
    if any(s < 0 or s > n_items - 1 for s in starts):
        raise SpecError(
            f"bucket boundaries must lie in 0..{n_items - 1} (the items); got {list(starts)}"
        )
    if not starts or starts[0] != 0:
        raise SpecError(f"bucket boundaries must start at 0; got {list(starts)}")
    for previous, current in itertools.pairwise(starts):
        if current <= previous:
            raise SpecError(
                f"bucket boundaries must be strictly increasing; got {list(starts)} "
                f"({current} follows {previous})"
            )


def _check_count(n_items: int, n_buckets: int, name: str) -> None:
    if isinstance(n_buckets, bool) or not isinstance(n_buckets, int | np.integer):
        raise SpecError(f"{name}: the number of buckets must be an integer; got {n_buckets!r}")
    if not 1 <= n_buckets <= n_items:
        raise SpecError(
            f"{name}: the number of buckets must be between 1 and the number of cards "
            f"({n_items}); got {n_buckets}"
        )


def identity_buckets(n_items: int) -> Bucketing:
    """One bucket per item: no abstraction."""
    return Bucketing(n_items, tuple(range(n_items)), "identity")


def uniform_buckets(n_items: int, n_buckets: int) -> Bucketing:
    """Equal-width buckets, ``bucket = item * n_buckets // n_items`` (the tutorial's).

    Raises:
        SpecError: unless ``1 <= n_buckets <= n_items``.

    Example:
        >>> uniform_buckets(100, 10).describe([str(c + 1) for c in range(100)])[:17]
        '1-10 | 11-20 | 21'
    """
    _check_count(n_items, n_buckets, "uniform")
    assignment = np.arange(n_items) * n_buckets // n_items
    return _from_assignment(assignment, "uniform")


def percentile_buckets(weights: Sequence[float] | FloatArray, n_buckets: int) -> Bucketing:
    """Equal-probability buckets: the mid-point of each item's probability mass decides.

    Args:
        weights: ``[n_items]`` the probability (or any positive weight) of each item.
        n_buckets: how many buckets.

    Returns:
        At most ``n_buckets`` buckets (fewer only when one item carries more than a bucket's
        share of the mass); with equal weights exactly ``n_buckets``.

    Raises:
        SpecError: unless ``1 <= n_buckets <= n_items`` and the weights are positive.
    """
    w = np.asarray(weights, dtype=np.float64)
    _check_count(int(w.shape[0]), n_buckets, "percentile")
    if w.ndim != 1 or not np.all(np.isfinite(w)) or np.any(w <= 0):
        raise SpecError("percentile buckets need a positive finite weight for every item")
    w = w / w.sum()
    before = np.concatenate([[0.0], np.cumsum(w)[:-1]])
    assignment = np.minimum(np.floor(n_buckets * (before + w / 2) + 1e-12), n_buckets - 1)
    return _from_assignment(assignment.astype(np.int64), "percentile")


def boundary_buckets(n_items: int, starts: Sequence[int]) -> Bucketing:
    """Buckets starting at the given items (the first must be 0).

    Raises:
        SpecError: if the boundaries do not start at 0, are not strictly increasing, or are
            not in ``0..n_items-1``.
    """
    return Bucketing(n_items, tuple(int(s) for s in starts), "boundaries")


def _from_assignment(assignment: IntArray, method: str) -> Bucketing:
    changes = np.flatnonzero(np.diff(assignment) != 0) + 1
    return Bucketing(int(assignment.shape[0]), (0, *(int(c) for c in changes)), method)


def parse_bucketing(
    text: str, n_items: int, *, weights: Sequence[float] | FloatArray | None = None
) -> Bucketing:
    """Build the bucketing named by ``text`` for ``n_items`` items.

    Args:
        text: ``identity``, ``uniform:B``, ``percentile:B`` or ``boundaries:S0,S1,...``.
        n_items: the number of cards (Kuhn) or ranks (Leduc).
        weights: the items' probabilities, for ``percentile`` (default: equal).

    Raises:
        SpecError: an unknown name, a bad number, ``B`` outside ``1..n_items``, boundaries out
            of order or out of range; ``optimized:B`` (which needs a game to solve: use
            :func:`pokerlab.abstraction.optimize_buckets`). The message lists what is allowed.

    Example:
        >>> parse_bucketing("boundaries:0,5,17", 20).sizes()
        [5, 12, 3]
    """
    allowed = ", ".join(BUCKETING_NAMES)
    if not isinstance(text, str):
        raise SpecError(f"a bucketing is a text; got {text!r}; allowed: {allowed}")
    name, _, argument = text.strip().partition(":")
    name = name.strip().lower()
    if name == "identity" and not argument:
        return identity_buckets(n_items)
    if name in ("uniform", "percentile", "optimized"):
        try:
            count = int(argument)
        except ValueError:
            raise SpecError(
                f"bucketing {text!r}: {name} needs a number of buckets, e.g. '{name}:10'"
            ) from None
        if name == "uniform":
            return uniform_buckets(n_items, count)
        if name == "percentile":
            _check_count(n_items, count, "percentile")
            return percentile_buckets(
                np.ones(n_items) if weights is None else weights, count
            )
        _check_count(n_items, count, "optimized")
        raise SpecError(
            f"bucketing {text!r} has to be found by solving the game: use "
            "pokerlab.abstraction.optimize_buckets (or `pokerlab abstract --cards optimized:B`), "
            "which records the result as boundaries:..."
        )
    if name == "boundaries":
        try:
            starts = [int(part) for part in argument.split(",") if part.strip()]
        except ValueError:
            raise SpecError(
                f"bucketing {text!r}: boundaries are comma-separated integers, e.g. "
                "'boundaries:0,5,17'"
            ) from None
        if not starts:
            raise SpecError(f"bucketing {text!r} lists no boundaries; e.g. 'boundaries:0,5,17'")
        return boundary_buckets(n_items, starts)
    raise SpecError(f"unknown bucketing {text!r}; allowed: {allowed}")


__all__ = [
    "BUCKETING_NAMES",
    "Bucketing",
    "boundary_buckets",
    "identity_buckets",
    "parse_bucketing",
    "percentile_buckets",
    "uniform_buckets",
]
