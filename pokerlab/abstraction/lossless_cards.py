"""The lossless card abstraction of small games: the bucket is the cards themselves.

For games small enough to need no clustering (Leduc, short decks), a player's bucket at a
street is an exact index of what they see: their hole cards and each street's board cards
so far, each group sorted (order within a group never matters) and mapped through a card
class (the rank in Leduc, where suits never matter; the card itself otherwise). The index
is a mixed-radix number over the classes, so it is the same for a live hand at play time
as for a sampled deal in training, and two holdings share a bucket exactly when they are
the same up to the card classes. It implements
:class:`~pokerlab.abstraction.card_abstraction.CardAbstraction`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pokerlab._numba import njit
from pokerlab.errors import SpecError
from pokerlab.games.base import Game

MAX_BUCKETS = 50_000_000
"""The most buckets a street may have (the lossless abstraction is for small games)."""


@njit(cache=True)
def _codes(hole, board, classes, base, board_cards, out):  # type: ignore[no-untyped-def]
    """``out[deal, player, street]``: the mixed-radix index of each group's sorted classes.

    The hole cards' classes first, then each street's new board cards', each group in
    ascending order; one compiled pass (the trainer deals thousands of hands a batch).
    """
    hole_size = hole.shape[2]
    widest = max(hole_size, board_cards.max())
    group = np.empty(widest, dtype=np.int64)
    for d in range(hole.shape[0]):
        for p in range(hole.shape[1]):
            for k in range(hole_size):  # insertion sort: a handful of cards
                c = classes[hole[d, p, k]]
                j = k
                while j > 0 and group[j - 1] > c:
                    group[j] = group[j - 1]
                    j -= 1
                group[j] = c
            code = 0
            for k in range(hole_size):
                code = code * base + group[k]
            start = 0
            for street in range(board_cards.shape[0]):
                size = board_cards[street]
                for k in range(size):
                    c = classes[board[d, start + k]]
                    j = k
                    while j > 0 and group[j - 1] > c:
                        group[j] = group[j - 1]
                        j -= 1
                    group[j] = c
                for k in range(size):
                    code = code * base + group[k]
                start += size
                out[d, p, street] = code


@dataclass(frozen=True)
class LosslessCards:
    """Buckets = exact (hole, board by street) card classes; see the module docstring.

    Attributes:
        card_class: the class of each card id (``rank`` in Leduc; ``range(deck)`` keeps
            every card apart).
        hole_size: hole cards per player.
        board_cards: board cards dealt before each street's betting (Leduc ``(0, 1)``).
    """

    card_class: tuple[int, ...]
    hole_size: int
    board_cards: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.card_class or min(self.card_class) < 0:
            raise SpecError("card_class must give a class >= 0 to every card of the deck")
        if self.hole_size < 1 or not self.board_cards or min(self.board_cards) < 0:
            raise SpecError(
                f"need hole_size >= 1 and board cards >= 0 per street; got {self.hole_size}, "
                f"{self.board_cards!r}"
            )
        if self.bucket_counts[-1] > MAX_BUCKETS:
            raise SpecError(
                f"the lossless abstraction would have {self.bucket_counts[-1]} buckets on the "
                f"last street (at most {MAX_BUCKETS}); use a clustered card abstraction"
            )

    @property
    def n_classes(self) -> int:
        """Distinct card classes."""
        return max(self.card_class) + 1

    @property
    def name(self) -> str:
        """A short description."""
        return f"lossless {self.n_classes} card classes"

    @property
    def board_visible(self) -> tuple[int, ...]:
        """Board cards visible at each street."""
        return tuple(int(x) for x in np.cumsum(self.board_cards))

    @property
    def bucket_counts(self) -> tuple[int, ...]:
        """``n_classes ** (hole_size + visible board)`` at each street."""
        return tuple(self.n_classes ** (self.hole_size + v) for v in self.board_visible)

    def buckets(self, hole: NDArray[np.int64], board: NDArray[np.int64]) -> NDArray[np.int32]:
        """Every player's bucket at every street: ``[deals, players, streets]`` int32.

        Raises:
            SpecError: if the arrays' shapes do not fit the abstraction or a card id is
                outside the deck.
        """
        hole = np.asarray(hole, dtype=np.int64)
        board = np.asarray(board, dtype=np.int64)
        if hole.ndim != 3 or hole.shape[2] != self.hole_size:
            raise SpecError(
                f"hole must be [deals, players, {self.hole_size}] card ids; got {hole.shape}"
            )
        if board.ndim != 2 or board.shape[0] != hole.shape[0] or (
            board.shape[1] < self.board_visible[-1]
        ):
            raise SpecError(
                f"board must be [deals, >= {self.board_visible[-1]}] card ids for "
                f"{hole.shape[0]} deals; got {board.shape}"
            )
        classes = np.asarray(self.card_class, dtype=np.int64)
        deck = classes.size
        for name, cards in (("hole", hole), ("board", board[:, : self.board_visible[-1]])):
            if cards.size and (cards.min() < 0 or cards.max() >= deck):
                raise SpecError(f"{name} card ids must be in 0..{deck - 1}")
        out = np.empty((hole.shape[0], hole.shape[1], len(self.board_cards)), dtype=np.int32)
        _codes(hole, board, classes, self.n_classes, np.array(self.board_cards, dtype=np.int64),
               out)
        return out


def lossless_for(game: Game) -> LosslessCards:
    """The lossless abstraction of a Leduc game (card class = rank: suits never matter).

    Raises:
        SpecError: for a game it does not know.
    """
    from pokerlab.games.leduc import SUITS, LeducGame

    if isinstance(game, LeducGame):
        return LosslessCards(
            card_class=tuple(c // SUITS for c in range(game.n_cards)),
            hole_size=1,
            board_cards=(0, 1),
        )
    raise SpecError(f"lossless_for knows Leduc games; got {game.spec}")


__all__ = ["MAX_BUCKETS", "LosslessCards", "lossless_for"]
