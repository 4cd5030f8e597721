"""Three-card hand ranking (Rhode Island Hold'em, three-card poker): one int per hand.

With three cards the odds differ from five-card poker, and so does the order of the
hands: a straight is rarer than a flush, and three of a kind rarer than a straight. Of
the C(52, 3) = 22,100 hands, best first (Gilpin and Sandholm's table for Rhode Island
Hold'em, the casino game Three Card Poker's):

============== ====== =======================================================
category       hands  tie-break
============== ====== =======================================================
straight flush     48 top card (A-2-3 is Three-high, the lowest)
three of a kind    52 the rank
straight          720 top card (A-2-3 is Three-high, the lowest)
flush           1,096 ranks, highest first
pair            3,744 the pair, then the odd card
high card      16,440 ranks, highest first
============== ====== =======================================================

Every hand maps to its class's value, an int in 1..741 (the 741 classes in increasing
strength: 1 is 5-3-2 offsuit, 741 is A-K-Q suited); equal values split the pot. The
values come from one table indexed by the three card ids (built on first use, about
0.2 s), so :func:`three_card_values` ranks millions of hands a second with numpy.

References:
    J. Shi and M. Littman, "Abstraction methods for game theoretic poker", CG 2000.
    A. Gilpin and T. Sandholm, "Lossless abstraction of imperfect information games",
    JACM 2007 (and the rules page of their GS Interactive player).
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from pokerlab.cards.card import RANK_NAMES, CardsLike, to_cards
from pokerlab.errors import CardError

N_THREE_CARD_VALUES = 741
"""Number of distinct three-card hand values (equivalence classes)."""


class ThreeCardCategory(enum.IntEnum):
    """The six three-card categories, weakest first."""

    HIGH_CARD = 0
    PAIR = 1
    FLUSH = 2
    STRAIGHT = 3
    THREE_OF_A_KIND = 4
    STRAIGHT_FLUSH = 5


THREE_CARD_CATEGORY_NAMES: tuple[str, ...] = (
    "High card",
    "Pair",
    "Flush",
    "Straight",
    "Three of a kind",
    "Straight flush",
)
"""Readable names of the three-card categories, indexed by category 0..5."""

_ACE = 12
_PLURALS = tuple("Sixes" if name == "Six" else name + "s" for name in RANK_NAMES)


def _classify(ranks: Sequence[int], *, suited: bool) -> tuple[int, tuple[int, ...]]:
    """Category and tie-break ranks (most important first) of three ranks."""
    high, middle, low = sorted(ranks, reverse=True)
    if high == middle == low:
        return ThreeCardCategory.THREE_OF_A_KIND, (high,)
    if high == middle or middle == low:
        pair, odd = (high, low) if high == middle else (low, high)
        return ThreeCardCategory.PAIR, (pair, odd)
    top: int | None = None
    if high - low == 2:
        top = high
    elif (high, middle, low) == (_ACE, 1, 0):
        top = 1  # A-2-3: the ace plays low, Three-high
    if top is not None:
        category = ThreeCardCategory.STRAIGHT_FLUSH if suited else ThreeCardCategory.STRAIGHT
        return category, (top,)
    return (ThreeCardCategory.FLUSH if suited else ThreeCardCategory.HIGH_CARD), (high, middle, low)


def _code(category: int, kickers: Sequence[int]) -> int:
    """One int ordering (category, kickers...) lexicographically."""
    code = category
    for position in range(3):
        code = code * 13 + (kickers[position] if position < len(kickers) else 0)
    return code


@functools.cache
def _table() -> tuple[NDArray[np.int16], NDArray[np.int8], NDArray[np.int8]]:
    """``(values [52**3], category [742], kickers [742, 3])``, built once (about 0.2 s).

    ``values[a * 2704 + b * 52 + c]`` is the value of the cards ``a, b, c`` (0 where two
    are the same card).
    """
    codes: dict[int, tuple[int, tuple[int, ...]]] = {}
    hand_codes: dict[tuple[int, ...], int] = {}
    for hand in itertools.combinations(range(52), 3):
        ranks = [card >> 2 for card in hand]
        suited = len({card & 3 for card in hand}) == 1
        hand_class = _classify(ranks, suited=suited)
        code = _code(*hand_class)
        codes[code] = hand_class
        hand_codes[hand] = code
    ordered = sorted(codes)
    value_of = {code: index + 1 for index, code in enumerate(ordered)}
    values = np.zeros(52**3, dtype=np.int16)
    for cards, code in hand_codes.items():
        for a, b, c in itertools.permutations(cards):
            values[a * 2704 + b * 52 + c] = value_of[code]
    categories = np.full(len(ordered) + 1, -1, dtype=np.int8)
    kicker_ranks = np.full((len(ordered) + 1, 3), -1, dtype=np.int8)
    for code in ordered:
        category, kickers = codes[code]
        categories[value_of[code]] = category
        kicker_ranks[value_of[code], : len(kickers)] = kickers
    values.setflags(write=False)
    categories.setflags(write=False)
    kicker_ranks.setflags(write=False)
    return values, categories, kicker_ranks


def three_card_value(cards: CardsLike) -> int:
    """Return the value 1..741 of three cards (higher is better; equal values tie).

    Raises:
        CardError: unless exactly three distinct cards are given.

    Example:
        >>> three_card_value("2c3dAh") > three_card_value("AcAdKh")   # a straight beats a pair
        True
        >>> three_card_value("AcAdAh") < three_card_value("3s2sAs")   # a straight flush, trips
        True
    """
    hand = to_cards(cards)
    if len(hand) != 3 or len(set(hand)) != 3:
        raise CardError(f"a three-card hand needs 3 distinct cards; got {len(hand)} "
                        f"({len(set(hand))} distinct)")
    values, _, _ = _table()
    return int(values[hand[0] * 2704 + hand[1] * 52 + hand[2]])


def three_card_values(hands: NDArray[np.integer]) -> NDArray[np.int64]:
    """Values of many hands at once: ``hands`` is ``[N, 3]`` card ids; returns ``[N]``.

    Rows holding a card twice get 0 (no hand).

    Raises:
        CardError: if ``hands`` is not ``[N, 3]`` or holds an id outside 0..51.
    """
    array = np.asarray(hands)
    if array.ndim != 2 or array.shape[1] != 3:
        raise CardError(f"three_card_values needs an [N, 3] array of card ids; got shape "
                        f"{array.shape}")
    if array.size and (array.min() < 0 or array.max() > 51):
        raise CardError("card ids must be 0..51")
    values, _, _ = _table()
    index = array[:, 0].astype(np.int64) * 2704 + array[:, 1] * 52 + array[:, 2]
    out: NDArray[np.int64] = values[index].astype(np.int64)
    return out


def three_card_category(value: int) -> ThreeCardCategory:
    """The category of a three-card value.

    Raises:
        CardError: if ``value`` is not in 1..741.
    """
    if not 1 <= value <= N_THREE_CARD_VALUES:
        raise CardError(f"a three-card value is 1..{N_THREE_CARD_VALUES}; got {value}")
    _, category, _ = _table()
    return ThreeCardCategory(int(category[value]))


def describe_three_card(cards: CardsLike) -> str:
    """The hand in words: ``"Straight, Three-high"``, ``"Pair of Kings (Seven kicker)"``.

    Example:
        >>> describe_three_card("As2d3c")
        'Straight, Three-high'
    """
    value = three_card_value(cards)
    _, categories, kickers = _table()
    category = ThreeCardCategory(int(categories[value]))
    ranks = [int(r) for r in kickers[value] if r >= 0]
    name = THREE_CARD_CATEGORY_NAMES[category]
    if category == ThreeCardCategory.THREE_OF_A_KIND:
        return f"{name}, {_PLURALS[ranks[0]]}"
    if category == ThreeCardCategory.PAIR:
        return f"Pair of {_PLURALS[ranks[0]]} ({RANK_NAMES[ranks[1]]} kicker)"
    if category in (ThreeCardCategory.STRAIGHT, ThreeCardCategory.STRAIGHT_FLUSH):
        return f"{name}, {RANK_NAMES[ranks[0]]}-high"
    return f"{name}, " + "-".join(RANK_NAMES[r] for r in ranks)


__all__ = [
    "N_THREE_CARD_VALUES",
    "THREE_CARD_CATEGORY_NAMES",
    "ThreeCardCategory",
    "describe_three_card",
    "three_card_category",
    "three_card_value",
    "three_card_values",
]
