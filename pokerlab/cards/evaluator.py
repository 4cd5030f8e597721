"""Hand ranking of 5, 6 and 7 cards: one integer per hand, higher is better.

Every hand maps to the value of its best five cards, an int in 1..7462: the 7,462
equivalence classes of five-card poker hands in increasing strength (1 is 7-5-4-3-2
offsuit, 7462 a royal flush). Equal values are equal hands (a split pot); the category
0..8 (high card .. straight flush) is a table lookup, :func:`category_of`.

How a hand is valued, by table lookup (the tables are built from the five-card rules on
first use, in 0.2-0.5 s, and cached in ``<cache root>/evaluator``, checked against their
digest when read: later processes read them in a few milliseconds):

1. If five or more cards share a suit, the 13-bit mask of that suit's ranks indexes the
   flush table (8,192 entries) holding the best straight flush or flush inside the mask.
   With at most 7 cards a flush suit leaves at most 2 other cards, so no full house or
   four of a kind can beat it.
2. Otherwise the multiset of ranks is ranked in the colexicographic order of
   multisets (ranks sorted ``r1 <= ... <= rn``, index ``sum C(r_i + i - 1, i)``), a
   perfect hash into C(12 + n, n) entries per hand size n, whose entry is the best
   five-card value among the multiset's five-card sub-multisets.

:func:`evaluate` does this in Python for one hand; :func:`evaluate_batch` runs the same
lookups in a compiled numba loop (``pokerlab.cards._kernels``) over an array of hands,
tens of millions of hands per second on one core.
"""

from __future__ import annotations

import enum
import functools
import hashlib
import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from pokerlab._cache import cache_folder
from pokerlab._files import replace_atomically
from pokerlab.cards.card import RANK_NAMES, CardsLike, cards_str, to_cards
from pokerlab.errors import CardError

N_HAND_VALUES = 7462
"""Number of distinct hand values (five-card equivalence classes)."""


class HandCategory(enum.IntEnum):
    """The nine hand categories, weakest first."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


CATEGORY_NAMES: tuple[str, ...] = (
    "High card",
    "Pair",
    "Two pair",
    "Three of a kind",
    "Straight",
    "Flush",
    "Full house",
    "Four of a kind",
    "Straight flush",
)
"""Readable names of the categories, indexed by category 0..8."""

_PLURALS = tuple("Sixes" if name == "Six" else name + "s" for name in RANK_NAMES)
_WHEEL_RANKS = frozenset({0, 1, 2, 3, 12})
_MIN_CARDS = 5
_MAX_CARDS = 7


@dataclass(frozen=True, order=True)
class HandRank:
    """The strength of one hand: compare ``value``; the rest describes it.

    Instances order by ``value`` (the other fields follow from it).
    """

    value: int
    """Strength 1..7462, higher is better; equal values split the pot."""
    category: HandCategory
    """High card (0) .. straight flush (8)."""
    category_name: str
    """Readable category, such as ``"Two pair"``."""
    description: str
    """The hand in words, such as ``"Two pair, Aces and Sevens (King kicker)"``."""


@dataclass(frozen=True)
class _Tables:
    """Lookup tables of the evaluator (see the module docstring)."""

    nonflush: NDArray[np.int16]  # [sum_n C(12 + n, n)], value by colex index + offset[n]
    flush: NDArray[np.int16]  # [8192], value of the best flush in a rank mask; 0 if < 5 bits
    binomial: NDArray[np.int64]  # [20, 8], binomial[n, k] = C(n, k)
    colex_step: NDArray[np.int32]  # [13 * 8 * 5], see _colex_steps
    offsets: NDArray[np.int64]  # [8], start of the n-card block in `nonflush` (n = 5, 6, 7)
    category: NDArray[np.int8]  # [7463], category of each value (index 0 unused: -1)
    kickers: NDArray[np.int8]  # [7463, 5], ranks that describe each value, most important first


def _binomial_table() -> NDArray[np.int64]:
    table = np.zeros((20, 8), dtype=np.int64)
    for n in range(20):
        for k in range(8):
            table[n, k] = _comb(n, k)
    return table


def _comb(n: int, k: int) -> int:
    if k < 0 or k > n:
        return 0
    result = 1
    for index in range(k):
        result = result * (n - index) // (index + 1)
    return result


def _colex_steps(binomial: NDArray[np.int64]) -> NDArray[np.int32]:
    """Colex index contributions, flattened ``[rank, position, count]``.

    ``step[r, p, c]`` is what `c` cards of rank `r` add to the colex index when `p` cards of
    lower rank precede them: ``sum_{j=1..c} C(r + p + j - 1, p + j)``. Summing it over the 13
    ranks (with `p` the running count) gives the index without sorting and without branches.
    """
    step = np.zeros((13, 8, 5), dtype=np.int32)
    for rank in range(13):
        for position in range(8):
            for count in range(5):
                if position + count <= _MAX_CARDS:
                    step[rank, position, count] = sum(
                        binomial[rank + position + j - 1, position + j] for j in range(1, count + 1)
                    )
    return step.reshape(-1)


def _colex_index(sorted_ranks: NDArray[np.int64], binomial: NDArray[np.int64]) -> NDArray[np.int64]:
    """Colex index of each row of ascending ranks ``[m, n]`` among n-multisets of 13 ranks."""
    positions = np.arange(sorted_ranks.shape[1])
    return binomial[sorted_ranks + positions, positions + 1].sum(axis=1)  # type: ignore[no-any-return]


def _class_of_distinct(ranks_desc: Sequence[int], *, is_flush: bool) -> tuple[int, tuple[int, ...]]:
    """Category and kickers of five distinct ranks (descending)."""
    rank_set = set(ranks_desc)
    top: int | None = None
    if ranks_desc[0] - ranks_desc[4] == 4:
        top = ranks_desc[0]
    elif rank_set == _WHEEL_RANKS:
        top = 3  # the wheel A-2-3-4-5 is a Five-high straight
    if top is not None:
        return (HandCategory.STRAIGHT_FLUSH if is_flush else HandCategory.STRAIGHT), (top,)
    return (HandCategory.FLUSH if is_flush else HandCategory.HIGH_CARD), tuple(ranks_desc)


_SHAPES = {
    (2, 1, 1, 1): HandCategory.PAIR,
    (2, 2, 1): HandCategory.TWO_PAIR,
    (3, 1, 1): HandCategory.THREE_OF_A_KIND,
    (3, 2): HandCategory.FULL_HOUSE,
    (4, 1): HandCategory.FOUR_OF_A_KIND,
}


def _class_of_multiset(ranks: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """Category and kickers of a five-rank multiset without a flush."""
    groups = sorted(Counter(ranks).items(), key=lambda item: (item[1], item[0]), reverse=True)
    shape = tuple(count for _, count in groups)
    ordered = tuple(rank for rank, _ in groups)
    if len(shape) == _MIN_CARDS:
        return _class_of_distinct(ordered, is_flush=False)
    return _SHAPES[shape], ordered


def _code(category: int, kickers: Sequence[int]) -> int:
    """One int ordering classes like (category, kickers...) in lexicographic order."""
    code = category
    for position in range(_MIN_CARDS):
        code = code * 13 + (kickers[position] if position < len(kickers) else 0)
    return code


def _multisets(n: int) -> NDArray[np.int64]:
    """All ascending n-multisets of the 13 ranks, ``[C(12 + n, n), n]``, in colex order."""
    rows = np.array(list(itertools.combinations_with_replacement(range(13), n)), dtype=np.int64)
    order = np.argsort(_colex_index(rows, _binomial_table()))
    return rows[order]


@functools.cache
def _tables() -> _Tables:
    """The lookup tables: read from the cache folder, else built and cached there.

    Building takes 0.2-0.5 s of Python, which every process that evaluates a hand paid
    (a fresh ``spot solve`` on a river spends about 3 s in all); reading the cached file
    takes a few milliseconds. What is read must hash to :data:`TABLES_SHA256`, the digest
    of the tables the builder makes (a test checks the builder against it), so a damaged,
    stale or foreign file is never used: it is built again. Nothing about the cache can
    stop an evaluation (a cache root that cannot be found or written costs the build).
    """
    try:
        path = cache_folder("evaluator") / f"tables-{TABLES_SHA256[:16]}.npz"
    except Exception:  # no cache root (no home folder in a bare environment): no cache
        return _build_tables()
    tables = _read_tables(path)
    if tables is None:
        tables = _build_tables()
        _write_tables(path, tables)
    return tables


TABLES_SHA256 = "244807d0c40eba01225e4c9efa97be5687cf058b2710f62a019b0e44579e2cd0"
"""The digest (:func:`_digest`) of the tables :func:`_build_tables` makes."""

_TABLE_SHAPES = {  # field: (dtype, shape)
    "nonflush": (np.int16, (6188 + 18564 + 50388,)),
    "flush": (np.int16, (1 << 13,)),
    "binomial": (np.int64, (20, 8)),
    "colex_step": (np.int32, (13 * 8 * 5,)),
    "offsets": (np.int64, (8,)),
    "category": (np.int8, (N_HAND_VALUES + 1,)),
    "kickers": (np.int8, (N_HAND_VALUES + 1, _MIN_CARDS)),
}


def _digest(arrays: dict[str, np.ndarray]) -> str:
    """SHA-256 over each table's name, dtype, shape and bytes, in :data:`_TABLE_SHAPES` order."""
    digest = hashlib.sha256()
    for name in _TABLE_SHAPES:
        array = np.ascontiguousarray(arrays[name])
        digest.update(f"{name}|{array.dtype.str}|{array.shape}|".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


def _read_tables(path: Path) -> _Tables | None:
    """The tables in ``path`` if they are exactly the builder's, else None."""
    try:
        with np.load(path, allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in _TABLE_SHAPES}
        for name, (dtype, shape) in _TABLE_SHAPES.items():
            if arrays[name].dtype != dtype or arrays[name].shape != shape:
                return None
        if _digest(arrays) != TABLES_SHA256:
            return None
    except Exception:  # whatever a damaged or foreign file raises: build instead
        return None
    return _Tables(**arrays)


def _write_tables(path: Path, tables: _Tables) -> None:
    """Cache ``tables`` in ``path``, atomically; a folder that cannot be written is skipped."""
    arrays = {name: getattr(tables, name) for name in _TABLE_SHAPES}
    try:
        replace_atomically(path, lambda handle: np.savez(handle, **arrays))
    except OSError:
        return


def _build_tables() -> _Tables:
    """Build the lookup tables (0.3-0.5 s)."""
    binomial = _binomial_table()
    five = _multisets(_MIN_CARDS)
    valid_five = ~np.any(five[:, :1] == five[:, 4:], axis=1)
    classes: dict[int, tuple[int, tuple[int, ...]]] = {}
    five_codes = np.zeros(len(five), dtype=np.int64)
    for row_index in np.flatnonzero(valid_five):
        category, kickers = _class_of_multiset(five[row_index].tolist())
        code = _code(category, kickers)
        classes[code] = (category, kickers)
        five_codes[row_index] = code
    masks = np.arange(1 << 13, dtype=np.int64)
    bit_counts = np.zeros(len(masks), dtype=np.int64)
    for bit in range(13):
        bit_counts += (masks >> bit) & 1
    flush_codes = np.zeros(len(masks), dtype=np.int64)
    for mask in np.flatnonzero(bit_counts == _MIN_CARDS):
        ranks_desc = [rank for rank in range(12, -1, -1) if (mask >> rank) & 1]
        category, kickers = _class_of_distinct(ranks_desc, is_flush=True)
        code = _code(category, kickers)
        classes[code] = (category, kickers)
        flush_codes[mask] = code
    codes = np.array(sorted(classes), dtype=np.int64)
    assert len(codes) == N_HAND_VALUES
    category_table = np.full(N_HAND_VALUES + 1, -1, dtype=np.int8)
    kickers_table = np.zeros((N_HAND_VALUES + 1, _MIN_CARDS), dtype=np.int8)
    for value, code in enumerate(codes.tolist(), start=1):
        class_category, kickers = classes[code]
        category_table[value] = class_category
        kickers_table[value, : len(kickers)] = kickers

    def to_value(class_codes: NDArray[np.int64]) -> NDArray[np.int64]:
        found = np.searchsorted(codes, class_codes) + 1
        return np.where(class_codes > 0, found, 0)

    # Non-flush: value of each 5-multiset, then 6 and 7 as the best after removing one rank.
    offsets = np.zeros(8, dtype=np.int64)
    blocks: list[NDArray[np.int64]] = []
    previous = to_value(five_codes)
    previous[~valid_five] = 0
    blocks.append(previous)
    for n in (6, 7):
        rows = _multisets(n)
        valid = ~np.any(rows[:, : n - 4] == rows[:, 4:], axis=1)
        best = np.zeros(len(rows), dtype=np.int64)
        for removed in range(n):
            smaller = np.delete(rows, removed, axis=1)
            best = np.maximum(best, previous[_colex_index(smaller, binomial)])
        best[~valid] = 0
        blocks.append(best)
        previous = best
    offsets[5] = 0
    offsets[6] = len(blocks[0])
    offsets[7] = len(blocks[0]) + len(blocks[1])
    nonflush = np.concatenate(blocks).astype(np.int16)

    # Flush: value of each 5-bit rank mask, then larger masks as the best after removing a bit.
    flush = to_value(flush_codes)
    for count in range(_MIN_CARDS + 1, 14):
        level = masks[bit_counts == count]
        best = np.zeros(len(level), dtype=np.int64)
        for bit in range(13):
            has_bit = ((level >> bit) & 1).astype(bool)
            candidate = flush[level ^ (1 << bit)]
            best = np.where(has_bit, np.maximum(best, candidate), best)
        flush[level] = best
    return _Tables(
        nonflush=nonflush,
        flush=flush.astype(np.int16),
        binomial=binomial,
        colex_step=_colex_steps(binomial),
        offsets=offsets,
        category=category_table,
        kickers=kickers_table,
    )


def _value_of(cards: Sequence[int], tables: _Tables) -> int:
    """Value of 5..7 distinct valid cards (pure Python, same lookups as the kernel)."""
    counts = [0] * 13
    suit_masks = [0, 0, 0, 0]
    for card in cards:
        counts[card >> 2] += 1
        suit_masks[card & 3] |= 1 << (card >> 2)
    for mask in suit_masks:
        flush_value = int(tables.flush[mask])
        if flush_value:
            return flush_value
    index = 0
    position = 0
    for rank in range(13):
        index += int(tables.colex_step[(rank * 8 + position) * 5 + counts[rank]])
        position += counts[rank]
    return int(tables.nonflush[tables.offsets[len(cards)] + index])


def _check_hand_size(cards: Sequence[int], text: str) -> None:
    if not _MIN_CARDS <= len(cards) <= _MAX_CARDS:
        raise CardError(f"hand {text!r} has {len(cards)} cards; allowed: 5, 6 or 7 cards")


def evaluate_value(cards: CardsLike) -> int:
    """Return the value 1..7462 of the best five of `cards` (5, 6 or 7 distinct cards).

    Raises:
        CardError: for a bad card, a repeated card or a wrong number of cards.

    Example:
        >>> evaluate_value("AsKsQsJsTs")
        7462
    """
    hand = to_cards(cards, what="the hand")
    _check_hand_size(hand, cards if isinstance(cards, str) else cards_str(hand))
    return _value_of(hand, _tables())


def evaluate(cards: CardsLike) -> HandRank:
    """Return the rank of the best five of `cards` (5, 6 or 7 distinct cards).

    Raises:
        CardError: for a bad card, a repeated card or a wrong number of cards.

    Example:
        >>> evaluate("AhAd7s7c Kh 2d 3c").description
        'Two pair, Aces and Sevens (King kicker)'
        >>> evaluate("As2d3c4h5s") < evaluate("2s3d4c5h6s")
        True
    """
    return hand_rank(evaluate_value(cards))


def hand_rank(value: int) -> HandRank:
    """Return the :class:`HandRank` of a hand value 1..7462.

    Raises:
        CardError: if `value` is out of range.
    """
    category = HandCategory(int(category_of(value)))
    return HandRank(
        value=int(value),
        category=category,
        category_name=CATEGORY_NAMES[category],
        description=describe(value),
    )


def describe(value: int) -> str:
    """Return a hand value in words, such as ``"Full house, Kings full of Sevens"``.

    Raises:
        CardError: if `value` is out of range.

    Example:
        >>> describe(evaluate_value("As2d3c4h5s"))
        'Straight, Five high'
    """
    _check_values(np.asarray([value]))
    tables = _tables()
    category = int(tables.category[value])
    ranks = [int(rank) for rank in tables.kickers[value]]
    names = [RANK_NAMES[rank] for rank in ranks]
    plurals = [_PLURALS[rank] for rank in ranks]
    head = CATEGORY_NAMES[category]
    if category == HandCategory.HIGH_CARD:
        return f"{head}, {names[0]} ({', '.join(names[1:])})"
    if category == HandCategory.PAIR:
        return f"{head}, {plurals[0]} ({', '.join(names[1:4])} kickers)"
    if category == HandCategory.TWO_PAIR:
        return f"{head}, {plurals[0]} and {plurals[1]} ({names[2]} kicker)"
    if category == HandCategory.THREE_OF_A_KIND:
        return f"{head}, {plurals[0]} ({names[1]}, {names[2]} kickers)"
    if category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
        royal = (
            " (royal flush)" if category == HandCategory.STRAIGHT_FLUSH and ranks[0] == 12 else ""
        )
        return f"{head}, {names[0]} high{royal}"
    if category == HandCategory.FLUSH:
        return f"{head}, {names[0]} high ({', '.join(names[1:])})"
    if category == HandCategory.FULL_HOUSE:
        return f"{head}, {plurals[0]} full of {plurals[1]}"
    return f"{head}, {plurals[0]} ({names[1]} kicker)"


def _check_values(values: NDArray[np.integer]) -> None:
    if values.size and (values.min() < 1 or values.max() > N_HAND_VALUES):
        bad = values[(values < 1) | (values > N_HAND_VALUES)].flat[0]
        raise CardError(f"hand value {bad} is out of range; allowed: 1..{N_HAND_VALUES}")


def category_of(
    values: NDArray[np.integer] | Sequence[int] | int,
) -> NDArray[np.int8]:
    """Return the category 0..8 of each hand value (same shape as `values`).

    Raises:
        CardError: if a value is outside 1..7462.

    Example:
        >>> category_of([1, 7462]).tolist()
        [0, 8]
    """
    array = np.asarray(values)
    if not np.issubdtype(array.dtype, np.integer):
        raise CardError(f"hand values must be integers; got dtype {array.dtype}")
    _check_values(array)
    return _tables().category[array]  # type: ignore[no-any-return]


def evaluate_batch(hands: NDArray[np.integer] | Sequence[Sequence[int]]) -> NDArray[np.int32]:
    """Return the value 1..7462 of each hand in `hands`, ``[n, 5 | 6 | 7]`` card ids.

    A compiled loop (numba; compiled once and cached on disk) over the lookup tables:
    tens of millions of 7-card hands per second. Each row must hold distinct cards 0..51.

    Args:
        hands: card ids, one hand per row, ``[n, k]`` with k = 5, 6 or 7.

    Returns:
        ``[n]`` int32 values, higher is better.

    Raises:
        CardError: for a wrong shape, a card outside 0..51, or a card repeated in a row
            (the message names the first bad row).

    Example:
        >>> evaluate_batch([[51, 47, 43, 39, 35], [0, 5, 10, 15, 16]]).tolist()
        [7462, 5855]
    """
    array = np.asarray(hands)
    if array.ndim != 2 or not _MIN_CARDS <= array.shape[1] <= _MAX_CARDS:
        raise CardError(
            f"hands must be a 2-D array [n, k] with k = 5, 6 or 7 cards; got shape {array.shape}"
        )
    if array.size and not np.issubdtype(array.dtype, np.integer):
        raise CardError(f"hands must hold integer card ids 0..51; got dtype {array.dtype}")
    if array.size and (array.min() < 0 or array.max() > 51):
        raise CardError(
            f"hands hold card id {array.min() if array.min() < 0 else array.max()}; allowed: 0..51"
        )
    from pokerlab.cards import _kernels  # numba is imported on first use only

    tables = _tables()
    cards = np.ascontiguousarray(array, dtype=np.uint8)
    values = _kernels.evaluate_rows(
        cards, tables.nonflush, tables.flush, tables.colex_step, tables.offsets
    )
    if values.size and values.min() < 0:
        row = int(np.argmax(values < 0))
        raise CardError(
            f"hand {row} ({cards_str(int(card) for card in cards[row])}) repeats a card; "
            f"each card may appear once per hand"
        )
    return values


def best_five(cards: CardsLike) -> tuple[int, ...]:
    """Return five of `cards` that make their best hand (the first such choice).

    Raises:
        CardError: for a bad card, a repeated card or a wrong number of cards.

    Example:
        >>> from pokerlab.cards.card import cards_str
        >>> cards_str(best_five("AsKsQsJsTs2d3d"))
        'AsKsQsJsTs'
    """
    hand = to_cards(cards, what="the hand")
    _check_hand_size(hand, cards if isinstance(cards, str) else cards_str(hand))
    tables = _tables()
    target = _value_of(hand, tables)
    for five in itertools.combinations(hand, _MIN_CARDS):
        if _value_of(five, tables) == target:
            return five
    raise AssertionError("unreachable: the best five cards always exist")  # pragma: no cover


__all__ = [
    "CATEGORY_NAMES",
    "N_HAND_VALUES",
    "HandCategory",
    "HandRank",
    "best_five",
    "category_of",
    "describe",
    "evaluate",
    "evaluate_batch",
    "evaluate_value",
    "hand_rank",
]
