"""The contract between a Hold'em card abstraction and whoever uses it (blueprint, agents).

A card abstraction maps what one player sees at a street (their hole cards and the board
cards dealt so far) to a small integer, its *bucket*, so that a strategy is stored per
bucket instead of per card combination. The blueprint trainer samples whole deals, asks for
every player's bucket at every street once per deal (vectorized over a batch of deals), and
its compiled kernels then walk the betting with those integers only: no card logic in the
hot loop. The same object maps a live hand to its bucket at play time.

Implementations: a lossless one (the bucket is the card combination itself, up to suit
isomorphism) for small games, and clustered ones (expected hand strength, equity
distributions) for Texas Hold'em; both live in this package.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray


@runtime_checkable
class CardAbstraction(Protocol):
    """Buckets of (hole cards, visible board) per street, for batches of deals.

    Attributes:
        name: a short description users read (``"ehs 169/50/50/50 seed 0"``).
        board_visible: board cards visible at each street, e.g. ``(0, 3, 4, 5)`` for Texas
            Hold'em; its length is the number of streets.
        bucket_counts: the number of buckets at each street (same length).
    """

    @property
    def name(self) -> str:
        """A short description of the abstraction."""
        ...

    @property
    def board_visible(self) -> tuple[int, ...]:
        """Board cards visible at each street."""
        ...

    @property
    def bucket_counts(self) -> tuple[int, ...]:
        """Buckets at each street."""
        ...

    def buckets(self, hole: NDArray[np.int64], board: NDArray[np.int64]) -> NDArray[np.int32]:
        """Every player's bucket at every street of a batch of deals.

        Args:
            hole: ``[deals, players, hole_size]`` card ids (``pokerlab.cards``).
            board: ``[deals, board_size]`` card ids, in dealing order; street ``s`` sees the
                first ``board_visible[s]`` of them.

        Returns:
            ``[deals, players, streets]`` int32, each in ``range(bucket_counts[street])``.
        """
        ...
