"""Weighted Hold'em starting-hand ranges in the usual notation: ``"QQ+, AKs:0.5, AsKs:0.25"``.

Grammar (comma separated, spaces ignored, rank letters in any case):

- ``QQ`` a pair (6 combos); ``AKs`` suited (4); ``AKo`` offsuit (12); ``AK`` both (16);
- ``QQ+`` the pair and every higher pair; ``A2s+`` / ``KTo+`` / ``KT+`` the kicker rising up
  to just below the top card (``A2s+`` is ``A2s`` .. ``AKs``);
- ``22-55`` pairs from 22 to 55; ``A5s-A2s`` a fixed top card with kickers between;
  ``98s-65s`` both cards stepping down together (``98s 87s 76s 65s``);
- ``AsKs`` one specific combo; ``random`` (or ``any``, ``*``) every one of the 1,326 combos;
- ``ITEM:W`` gives every combo of the item the weight ``W``, a number from 0 to 1 (``KQo:0.5``,
  ``AsKs:0.25``, ``1e-3`` forms too); an item without a weight has weight 1.

A weight is the probability that the player holds that combo when dealt it, so ``KQo:0.5``
holds each KQo combo half as often as ``AKo``. A combo named twice takes the weight of its
later mention (``"AK, AKs:0.5"`` holds AKo at 1 and AKs at 0.5; ``"AKs:0.5, AK"`` holds all
16 at 1), as range tools and postflop solvers read it; weight 0 removes the combo
(``"AK, AKs:0"`` is AKo).

A :class:`HandRange` keeps its combos in one canonical order (higher card id first in a
combo; combos by descending ``(high, low)``, so ``AsAh`` leads), whatever order the text
named them in: two ranges holding the same combos at the same weights are equal, and
:meth:`HandRange.to_text` writes a compact notation that parses back to an equal range.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from pokerlab.cards.card import RANKS, Card, CardsLike, cards_str, parse_card, to_cards
from pokerlab.errors import CardError

Combo = tuple[Card, Card]
"""Two hole cards, the higher card id first."""

N_COMBOS = 1326
"""Number of two-card combos in a 52-card deck."""

_RANK = r"[2-9TJQKA]"
_CLASS = rf"({_RANK})({_RANK})([so]?)"
_SINGLE = re.compile(rf"{_CLASS}", re.IGNORECASE | re.ASCII)
_PLUS = re.compile(rf"{_CLASS}\+", re.IGNORECASE | re.ASCII)
_DASH = re.compile(rf"{_CLASS}-{_CLASS}", re.IGNORECASE | re.ASCII)
_COMBO = re.compile(rf"({_RANK}[cdhs])({_RANK}[cdhs])", re.IGNORECASE | re.ASCII)
_NUMBER = re.compile(r"[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?")
_WHITESPACE = re.compile(r"\s+")
_RANDOM = frozenset({"random", "any", "*"})
_ALLOWED = (
    "allowed: pairs 'QQ', 'QQ+', '22-55'; 'AKs', 'AKo', 'AK', 'A2s+', 'KTo+', 'A5s-A2s', "
    "'98s-65s'; combos 'AsKs'; 'random'; each optionally weighted 'AKs:0.5' (0 to 1); "
    "comma separated"
)


def combo_index(combo: Combo) -> int:
    """Return the index 0..1325 of `combo` (``high * (high - 1) / 2 + low``, 2d2c is 0).

    Example:
        >>> combo_index((1, 0)), combo_index((51, 50))
        (0, 1325)
    """
    high, low = max(combo), min(combo)
    return high * (high - 1) // 2 + low


def hand_class(combo: Combo) -> str:
    """Return the hand class of `combo`: ``"QQ"``, ``"AKs"`` or ``"AKo"``.

    Example:
        >>> hand_class((51, 47)), hand_class((51, 46)), hand_class((43, 41))
        ('AKs', 'AKo', 'QQ')
    """
    high, low = max(combo), min(combo)
    rank_high, rank_low = high >> 2, low >> 2
    if rank_high == rank_low:
        return RANKS[rank_high] * 2
    kind = "s" if (high & 3) == (low & 3) else "o"
    return RANKS[rank_high] + RANKS[rank_low] + kind


def _grid_labels() -> tuple[tuple[str, ...], ...]:
    rows = []
    for row in range(13):
        labels = []
        for column in range(13):
            rank_row, rank_column = 12 - row, 12 - column
            if row == column:
                labels.append(RANKS[rank_row] * 2)
            elif row < column:
                labels.append(RANKS[rank_row] + RANKS[rank_column] + "s")
            else:
                labels.append(RANKS[rank_column] + RANKS[rank_row] + "o")
        rows.append(tuple(labels))
    return tuple(rows)


GRID_LABELS: tuple[tuple[str, ...], ...] = _grid_labels()
"""The 13x13 grid of hand classes: row and column A, K, ..., 2; pairs on the diagonal,
suited above it (row = high card), offsuit below it (column = high card)."""


def _grid_cell(combo: Combo) -> tuple[int, int]:
    high, low = combo
    row, column = 12 - (high >> 2), 12 - (low >> 2)
    if (high & 3) != (low & 3) and row != column:
        return column, row  # offsuit: below the diagonal
    return row, column


@dataclass(frozen=True)
class HandRange:
    """A weighted set of two-card combos, usually parsed from notation by :func:`parse_range`.

    Built directly, the combos may come in any order and either card first: they are stored
    in the canonical order (module docstring) with their weights realigned. Equality
    compares combos and weights, not the text.

    Example:
        >>> r = HandRange(combos=((47, 51), (43, 42)), weights=(0.5, 1.0))
        >>> r.combos, r.weights, r.to_text()
        (((51, 47), (43, 42)), (0.5, 1.0), 'AsKs:0.5, QsQh')
    """

    combos: tuple[Combo, ...]
    """The distinct combos, each with its higher card id first, in canonical order."""
    weights: tuple[float, ...] = ()
    """The weight of each combo, in (0, 1], aligned with `combos`; all 1.0 when not given."""
    text: str = field(default="", compare=False)
    """The notation it was parsed from ('' when built from combos; ``str()`` then writes one)."""

    def __post_init__(self) -> None:
        n_combos = len(self.combos)
        if not n_combos:
            raise CardError("a range needs at least one combo, such as ((51, 47),) for AsKs")
        weights = self.weights or (1.0,) * n_combos
        if len(weights) != n_combos:
            raise CardError(
                f"a range needs one weight per combo; got {len(weights)} weights for "
                f"{n_combos} combos"
            )
        cards = _combo_array(self.combos)
        high, low = cards.max(axis=1), cards.min(axis=1)
        indices = high * (high - 1) // 2 + low
        order = np.argsort(-indices, kind="stable")
        repeated = np.flatnonzero(np.diff(indices[order]) == 0)
        if len(repeated):
            first = order[repeated[0]]
            raise CardError(
                f"combo {cards_str((int(high[first]), int(low[first])))} appears twice in a "
                f"range; each combo once"
            )
        values = np.array(weights, dtype=np.float64)
        bad = np.flatnonzero(~((values > 0.0) & (values <= 1.0)))
        if len(bad):
            where = int(bad[0])
            raise CardError(
                f"combo {cards_str((int(high[where]), int(low[where])))} has weight "
                f"{float(values[where])!r}; allowed: a weight in (0, 1] (leave a combo out "
                f"rather than weighting it 0)"
            )
        object.__setattr__(
            self, "combos", tuple(zip(high[order].tolist(), low[order].tolist(), strict=True))
        )
        object.__setattr__(self, "weights", tuple(values[order].tolist()))

    def __len__(self) -> int:
        return len(self.combos)

    def __str__(self) -> str:
        return self.text or self.to_text()

    @property
    def total_weight(self) -> float:
        """Sum of the weights: the number of combos held, counting weighted ones in part."""
        return math.fsum(self.weights)

    def as_array(self) -> NDArray[np.int64]:
        """Return the combos as an int array ``[n_combos, 2]`` (higher card first)."""
        return np.array(self.combos, dtype=np.int64).reshape(-1, 2)

    def weight_array(self) -> NDArray[np.float64]:
        """Return the weights as a float array ``[n_combos]``, aligned with :meth:`as_array`."""
        return np.array(self.weights, dtype=np.float64)

    def masks(self) -> NDArray[np.int64]:
        """Return each combo as a 52-bit card mask (bit ``c`` set for card ``c``) ``[n_combos]``.

        Two combos share a card exactly when their masks share a bit (card removal).
        """
        combos = self.as_array()
        one = np.int64(1)
        return (one << combos[:, 0]) | (one << combos[:, 1])

    def combo_indices(self) -> NDArray[np.int64]:
        """Return the :func:`combo_index` 0..1325 of each combo ``[n_combos]``."""
        combos = self.as_array()
        return combos[:, 0] * (combos[:, 0] - 1) // 2 + combos[:, 1]

    def weight_of(self, combo: Combo) -> float:
        """Return the weight of `combo` in this range (0.0 when it is not held)."""
        key = (max(combo), min(combo))
        index = _bisect_descending(self.combos, key)
        if index < len(self.combos) and self.combos[index] == key:
            return self.weights[index]
        return 0.0

    def without(self, cards: CardsLike) -> HandRange:
        """Return the range without the combos that use one of `cards` (card removal).

        The weights of the combos kept are unchanged.

        Raises:
            CardError: if no combo is left (every combo uses one of `cards`).

        Example:
            >>> len(parse_range("KK+").without("As"))
            9
        """
        removed = to_cards(cards, what="the cards to remove")
        removed_mask = sum(1 << card for card in removed)
        kept = np.flatnonzero((self.masks() & removed_mask) == 0).tolist()
        if not kept:
            raise CardError(
                f"range {str(self)!r} has no combo left once {cards_str(sorted(removed))} "
                f"are removed; give a range with combos that avoid these cards"
            )
        if len(kept) == len(self.combos):
            return self
        return HandRange(
            combos=tuple(self.combos[i] for i in kept), weights=tuple(self.weights[i] for i in kept)
        )

    def can_meet(self, other: HandRange) -> bool:
        """Whether a hand of this range and one of `other` can be dealt together.

        False when every pair shares a card (``AA`` against ``AA`` on a board holding
        two aces): no deal of the two ranges exists, so nothing can be played or solved.

        Example:
            >>> parse_range("AA").without("AcAd").can_meet(parse_range("AA").without("AcAd"))
            False
            >>> parse_range("AA").can_meet(parse_range("AA"))
            True
        """
        mine, theirs = self.masks(), other.masks()
        return any(
            bool(np.any((mine[start : start + 256, None] & theirs[None, :]) == 0))
            for start in range(0, len(mine), 256)
        )

    def grid(self) -> NDArray[np.float64]:
        """Return the 13x13 grid of hand classes (:data:`GRID_LABELS`): the share held of each.

        A cell is the total weight of the class's combos in the range divided by the number
        of combos of the class (6 for a pair, 4 suited, 12 offsuit): 1.0 when every combo is
        held at weight 1, 0.5 for ``KQo:0.5`` or for 6 of the 12 KQo combos.

        Example:
            >>> grid = parse_range("AA, AKs:0.5, AsKd").grid()
            >>> float(grid[0, 0]), float(grid[0, 1]), round(float(grid[1, 0]), 4)
            (1.0, 0.5, 0.0833)
        """
        totals = np.zeros((13, 13))
        for combo, weight in zip(self.combos, self.weights, strict=True):
            totals[_grid_cell(combo)] += weight
        sizes = np.full((13, 13), 12.0)
        sizes[np.triu_indices(13, 1)] = 4.0
        np.fill_diagonal(sizes, 6.0)
        shares: NDArray[np.float64] = totals / sizes
        return shares

    def grid_text(self) -> str:
        """Return the grid as 13 lines of text, each class with its share held in percent.

        A class not held shows ``.``; a held class ``AKs 50`` (percent, rounded).
        """
        grid = self.grid()
        lines = []
        for row in range(13):
            cells = []
            for column in range(13):
                label = GRID_LABELS[row][column]
                share = grid[row, column]
                cells.append(f"{label:<3} {round(100 * share):>3}" if share > 0 else f"{'.':<7}")
            lines.append("  ".join(cells).rstrip())
        return "\n".join(lines)

    def to_text(self) -> str:
        """Return the range in compact notation, which :func:`parse_range` reads back equal.

        Whole classes at one weight become class items, runs of them ``+`` or ``-`` items
        (``TT+``, ``A2s+``, ``K9o-K6o``), an item held suited and offsuit at one weight drops
        the suffix (``AK``); what is left is written combo by combo. Weights other than 1 are
        written after a colon, exactly (shortest repr of the float).

        Example:
            >>> parse_range("AA, KK, QQ, AKs, AKo, KQs:0.5, 7s6s").to_text()
            'QQ+, AK, KQs:0.5, 7s6s'
        """
        weights = dict(zip(self.combos, self.weights, strict=True))
        if len(weights) == N_COMBOS and len(set(self.weights)) == 1:
            return "random" + _weight_suffix(self.weights[0])
        items: list[str] = []
        pairs: dict[float, list[int]] = {}
        others: dict[tuple[int, str, float], list[int]] = {}
        loose: list[Combo] = []
        for high in range(12, -1, -1):
            weight = _class_weight(weights, _class_combos(high, high, ""))
            if weight is not None:
                pairs.setdefault(weight, []).append(high)
            elif any(combo in weights for combo in _class_combos(high, high, "")):
                loose.extend(c for c in _class_combos(high, high, "") if c in weights)
        for high in range(12, 0, -1):
            for low in range(high - 1, -1, -1):
                suited = _class_weight(weights, _class_combos(high, low, "s"))
                offsuit = _class_weight(weights, _class_combos(high, low, "o"))
                if suited is not None and suited == offsuit:
                    others.setdefault((high, "", suited), []).append(low)
                    continue
                for kind, weight in (("s", suited), ("o", offsuit)):
                    if weight is not None:
                        others.setdefault((high, kind, weight), []).append(low)
                    else:
                        loose.extend(c for c in _class_combos(high, low, kind) if c in weights)
        for weight, ranks in pairs.items():
            for top, bottom in _runs(ranks):
                items.append(_pair_item(top, bottom) + _weight_suffix(weight))
        for (high, kind, weight), kickers in others.items():
            for top, bottom in _runs(kickers):
                items.append(_kicker_item(high, top, bottom, kind) + _weight_suffix(weight))
        loose.sort(reverse=True)
        items.extend(cards_str(combo) + _weight_suffix(weights[combo]) for combo in loose)
        return ", ".join(items)


def _combo_array(combos: object) -> NDArray[np.int64]:
    """`combos` as an int array ``[n, 2]`` of card ids, each row two distinct cards."""
    try:
        array = np.array(combos)
    except ValueError:
        array = np.zeros(0)
    if (
        array.ndim != 2
        or array.shape[1] != 2
        or array.dtype == np.bool_
        or not np.issubdtype(array.dtype, np.integer)
    ):
        raise CardError(
            "a range's combos must be pairs of card ids 0..51, such as ((51, 47), (43, 42))"
        )
    array = array.astype(np.int64)
    outside = np.flatnonzero(np.any((array < 0) | (array > 51), axis=1))
    if len(outside):
        raise CardError(
            f"a range's combo {array[outside[0]].tolist()} holds a card id outside 0..51"
        )
    doubled = np.flatnonzero(array[:, 0] == array[:, 1])
    if len(doubled):
        card = int(array[doubled[0], 0])
        raise CardError(f"a range's combo uses card {cards_str((card,))} twice; allowed: 2 cards")
    return array


def _bisect_descending(combos: tuple[Combo, ...], key: Combo) -> int:
    low, high = 0, len(combos)
    while low < high:
        middle = (low + high) // 2
        if combos[middle] > key:
            low = middle + 1
        else:
            high = middle
    return low


def _weight_suffix(weight: float) -> str:
    return "" if weight == 1.0 else f":{weight!r}"


def _class_weight(weights: dict[Combo, float], combos: tuple[Combo, ...]) -> float | None:
    """The common weight of `combos` if every one is held at one weight, else None."""
    found = {weights.get(combo) for combo in combos}
    if len(found) != 1:
        return None
    (weight,) = found
    return weight


def _runs(values: list[int]) -> list[tuple[int, int]]:
    """Maximal runs of consecutive ranks in `values` (descending), as (top, bottom)."""
    runs: list[tuple[int, int]] = []
    for value in values:
        if runs and runs[-1][1] == value + 1:
            runs[-1] = (runs[-1][0], value)
        else:
            runs.append((value, value))
    return runs


def _pair_item(top: int, bottom: int) -> str:
    if top == bottom:
        return RANKS[top] * 2
    if top == 12:
        return RANKS[bottom] * 2 + "+"
    return f"{RANKS[top] * 2}-{RANKS[bottom] * 2}"


def _kicker_item(high: int, top: int, bottom: int, kind: str) -> str:
    name = RANKS[high]
    if top == bottom:
        return f"{name}{RANKS[top]}{kind}"
    if top == high - 1:
        return f"{name}{RANKS[bottom]}{kind}+"
    return f"{name}{RANKS[top]}{kind}-{name}{RANKS[bottom]}{kind}"


@functools.cache
def _class_combos(high: int, low: int, kind: str) -> tuple[Combo, ...]:
    """All combos of ranks `high` >= `low`; kind 's' suited, 'o' offsuit, '' both."""
    combos: list[Combo] = []
    for suit_high in range(4):
        for suit_low in range(4):
            card_high = high * 4 + suit_high
            card_low = low * 4 + suit_low
            if high == low and card_high <= card_low:
                continue
            if kind == "s" and suit_high != suit_low:
                continue
            if kind == "o" and suit_high == suit_low:
                continue
            combos.append((max(card_high, card_low), min(card_high, card_low)))
    return tuple(combos)


def _read_class(first: str, second: str, kind: str, token: str) -> tuple[int, int, str]:
    high = RANKS.index(first.upper())
    low = RANKS.index(second.upper())
    if high < low:
        high, low = low, high
    kind = kind.lower()
    if high == low and kind:
        raise CardError(f"range item {token!r}: a pair cannot be suited or offsuit; {_ALLOWED}")
    return high, low, kind


def _expand(token: str) -> list[Combo]:
    """The combos of one comma-separated item (its weight already split off)."""
    if token.lower() in _RANDOM:
        return [(a, b) for a in range(52) for b in range(a)]
    if match := _COMBO.fullmatch(token):
        first, second = parse_card(match.group(1)), parse_card(match.group(2))
        if first == second:
            raise CardError(f"range item {token!r} uses card {match.group(1)} twice; {_ALLOWED}")
        return [(max(first, second), min(first, second))]
    if match := _SINGLE.fullmatch(token):
        high, low, kind = _read_class(match[1], match[2], match[3], token)
        return list(_class_combos(high, low, kind))
    if match := _PLUS.fullmatch(token):
        high, low, kind = _read_class(match[1], match[2], match[3], token)
        if high == low:
            return [combo for rank in range(low, 13) for combo in _class_combos(rank, rank, "")]
        return [combo for kicker in range(low, high) for combo in _class_combos(high, kicker, kind)]
    if match := _DASH.fullmatch(token):
        return _expand_dash(match, token)
    raise CardError(f"cannot read range item {token!r}; {_ALLOWED}")


def _expand_dash(match: re.Match[str], token: str) -> list[Combo]:
    high_a, low_a, kind_a = _read_class(match[1], match[2], match[3], token)
    high_b, low_b, kind_b = _read_class(match[4], match[5], match[6], token)
    if kind_a != kind_b:
        raise CardError(
            f"range item {token!r}: both ends must be alike (both 's', both 'o' or neither); "
            f"{_ALLOWED}"
        )
    if high_a == low_a and high_b == low_b:
        bottom, top = sorted((high_a, high_b))
        return [combo for rank in range(bottom, top + 1) for combo in _class_combos(rank, rank, "")]
    if high_a != low_a and high_b != low_b:
        if high_a == high_b:
            bottom, top = sorted((low_a, low_b))
            return [
                combo
                for kicker in range(bottom, top + 1)
                for combo in _class_combos(high_a, kicker, kind_a)
            ]
        if high_a - low_a == high_b - low_b:
            gap = high_a - low_a
            bottom, top = sorted((high_a, high_b))
            return [
                combo
                for rank in range(bottom, top + 1)
                for combo in _class_combos(rank, rank - gap, kind_a)
            ]
    raise CardError(
        f"range item {token!r}: the two ends must both be pairs, share their top card "
        f"('A5s-A2s') or keep the same gap ('98s-65s'); {_ALLOWED}"
    )


def _read_weight(text: str, token: str) -> float:
    if not _NUMBER.fullmatch(text):
        raise CardError(
            f"range item {token!r}: cannot read the weight {text!r} as a number; "
            f"allowed: a weight from 0 to 1 after a colon, such as 'AKs:0.5'"
        )
    weight = float(text)
    if not 0.0 <= weight <= 1.0:
        raise CardError(
            f"range item {token!r}: weight {text} is outside [0, 1]; allowed: a weight from "
            f"0 (left out) to 1 (always held), such as 'AKs:0.5'"
        )
    return weight


def parse_range(text: str) -> HandRange:
    """Return the weighted combos of `text` in range notation (see the module docstring).

    Items are read left to right; a combo named again takes the later item's weight, and
    weight 0 removes it.

    Raises:
        CardError: naming the item that cannot be read (bad class, weight outside [0, 1],
            malformed number) and the notation allowed, or a range left empty.

    Example:
        >>> len(parse_range("QQ+")), len(parse_range("AKs, AKo")), len(parse_range("22+"))
        (18, 16, 78)
        >>> r = parse_range("QQ+, AKs:0.5, AsKs:0.25")
        >>> len(r), r.total_weight, r.weight_of(parse_range("AsKs").combos[0])
        (22, 19.75, 0.25)
    """
    tokens = [_WHITESPACE.sub("", token) for token in text.split(",")]
    tokens = [token for token in tokens if token]
    if not tokens:
        raise CardError(f"range {text!r} is empty; {_ALLOWED}")
    weights: dict[Combo, float] = {}
    for token in tokens:
        body, colon, weight_text = token.partition(":")
        weight = _read_weight(weight_text, token) if colon else 1.0
        for combo in _expand(body):
            if weight > 0.0:
                weights[combo] = weight
            else:
                weights.pop(combo, None)
    if not weights:
        raise CardError(
            f"range {text!r} holds no combo (every item has weight 0); give at least one "
            f"item a weight above 0"
        )
    return HandRange(combos=tuple(weights), weights=tuple(weights.values()), text=text)


def check_ranges_meet(first: str, second: str, board: CardsLike = ()) -> None:
    """Refuse two ranges (texts) of which no two hands can be dealt together on `board`.

    Raises:
        CardError: a range that does not parse, one left empty by the board, or two ranges
            whose every pair of hands shares a card (nothing can be dealt, played or solved).

    Example:
        >>> check_ranges_meet("AA", "KK", "AcAd2h")  # AhAs against any KK: fine
        >>> check_ranges_meet("AA", "AA", "AcAd2h")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        pokerlab.errors.CardError: no hand of 'AA' can be dealt with one of 'AA' on ...
    """
    ranges = [parse_range(text).without(board) for text in (first, second)]
    if not ranges[0].can_meet(ranges[1]):
        shown = cards_str(to_cards(board, what="the board"))
        raise CardError(
            f"no hand of {first!r} can be dealt with one of {second!r}"
            + (f" on {shown}" if shown else "")
            + ": every pair shares a card; widen a range"
        )


def combo_str(combo: Combo) -> str:
    """Return a combo as text, such as ``"AsKs"``."""
    return cards_str(combo)


__all__ = [
    "GRID_LABELS",
    "N_COMBOS",
    "Combo",
    "HandRange",
    "check_ranges_meet",
    "combo_index",
    "combo_str",
    "hand_class",
    "parse_range",
]
