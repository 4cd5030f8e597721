"""Hold'em starting-hand ranges in the usual notation: ``"QQ+, AKs, A2s+, 98s-65s, AsKs"``.

Grammar (comma separated, spaces ignored, rank letters in any case):

- ``QQ`` a pair (6 combos); ``AKs`` suited (4); ``AKo`` offsuit (12); ``AK`` both (16);
- ``QQ+`` the pair and every higher pair; ``A2s+`` / ``KTo+`` / ``KT+`` the kicker rising up
  to just below the top card (``A2s+`` is ``A2s`` .. ``AKs``);
- ``22-55`` pairs from 22 to 55; ``A5s-A2s`` a fixed top card with kickers between;
  ``98s-65s`` both cards stepping down together (``98s 87s 76s 65s``);
- ``AsKs`` one specific combo; ``random`` (or ``any``, ``*``) every one of the 1,326 combos.

Weights (``AKs:0.5``) are not supported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pokerlab.cards.card import RANKS, Card, cards_str, parse_card
from pokerlab.errors import CardError

Combo = tuple[Card, Card]
"""Two hole cards, the higher card id first."""

N_COMBOS = 1326
"""Number of two-card combos in a 52-card deck."""

_RANK = r"[2-9TJQKA]"
_CLASS = rf"({_RANK})({_RANK})([so]?)"
_SINGLE = re.compile(rf"{_CLASS}", re.IGNORECASE)
_PLUS = re.compile(rf"{_CLASS}\+", re.IGNORECASE)
_DASH = re.compile(rf"{_CLASS}-{_CLASS}", re.IGNORECASE)
_COMBO = re.compile(rf"({_RANK}[cdhs])({_RANK}[cdhs])", re.IGNORECASE)
_RANDOM = frozenset({"random", "any", "*"})
_ALLOWED = (
    "allowed: pairs 'QQ', 'QQ+', '22-55'; 'AKs', 'AKo', 'AK', 'A2s+', 'KTo+', 'A5s-A2s', "
    "'98s-65s'; combos 'AsKs'; 'random'; comma separated"
)


@dataclass(frozen=True)
class HandRange:
    """A set of two-card combos, parsed from range notation by :func:`parse_range`."""

    text: str
    """The notation it was parsed from."""
    combos: tuple[Combo, ...]
    """The distinct combos, each with its higher card id first, in notation order."""

    def __len__(self) -> int:
        return len(self.combos)

    def as_array(self) -> NDArray[np.int64]:
        """Return the combos as an int array ``[n_combos, 2]``."""
        return np.array(self.combos, dtype=np.int64).reshape(-1, 2)

    def without(self, cards: set[Card]) -> HandRange:
        """Return the range without the combos that use one of `cards` (card removal)."""
        kept = tuple(
            combo for combo in self.combos if combo[0] not in cards and combo[1] not in cards
        )
        return HandRange(text=self.text, combos=kept)

    def __str__(self) -> str:
        return self.text


def _combos_of_class(high: int, low: int, kind: str) -> list[Combo]:
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
    return combos


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
    """The combos of one comma-separated item."""
    if token.lower() in _RANDOM:
        return [(a, b) for a in range(52) for b in range(a)]
    if match := _COMBO.fullmatch(token):
        first, second = parse_card(match.group(1)), parse_card(match.group(2))
        if first == second:
            raise CardError(f"range item {token!r} uses card {match.group(1)} twice; {_ALLOWED}")
        return [(max(first, second), min(first, second))]
    if match := _SINGLE.fullmatch(token):
        high, low, kind = _read_class(match[1], match[2], match[3], token)
        return _combos_of_class(high, low, kind)
    if match := _PLUS.fullmatch(token):
        high, low, kind = _read_class(match[1], match[2], match[3], token)
        if high == low:
            return [combo for rank in range(low, 13) for combo in _combos_of_class(rank, rank, "")]
        return [
            combo for kicker in range(low, high) for combo in _combos_of_class(high, kicker, kind)
        ]
    if match := _DASH.fullmatch(token):
        high_a, low_a, kind_a = _read_class(match[1], match[2], match[3], token)
        high_b, low_b, kind_b = _read_class(match[4], match[5], match[6], token)
        if kind_a != kind_b:
            raise CardError(
                f"range item {token!r}: both ends must be alike (both 's', both 'o' or neither); "
                f"{_ALLOWED}"
            )
        if high_a == low_a and high_b == low_b:
            bottom, top = sorted((high_a, high_b))
            return [
                combo
                for rank in range(bottom, top + 1)
                for combo in _combos_of_class(rank, rank, "")
            ]
        if high_a != low_a and high_b != low_b:
            if high_a == high_b:
                bottom, top = sorted((low_a, low_b))
                return [
                    combo
                    for kicker in range(bottom, top + 1)
                    for combo in _combos_of_class(high_a, kicker, kind_a)
                ]
            if high_a - low_a == high_b - low_b:
                gap = high_a - low_a
                bottom, top = sorted((high_a, high_b))
                return [
                    combo
                    for rank in range(bottom, top + 1)
                    for combo in _combos_of_class(rank, rank - gap, kind_a)
                ]
        raise CardError(
            f"range item {token!r}: the two ends must both be pairs, share their top card "
            f"('A5s-A2s') or keep the same gap ('98s-65s'); {_ALLOWED}"
        )
    raise CardError(f"cannot read range item {token!r}; {_ALLOWED}")


def parse_range(text: str) -> HandRange:
    """Return the combos of `text` in range notation (see the module docstring).

    Raises:
        CardError: naming the item that cannot be read, and the notation allowed.

    Example:
        >>> len(parse_range("QQ+")), len(parse_range("AKs, AKo")), len(parse_range("22+"))
        (18, 16, 78)
    """
    if ":" in text:
        raise CardError(f"range {text!r} has a weight (':'); weights are not supported. {_ALLOWED}")
    tokens = [token.replace(" ", "") for token in text.split(",")]
    tokens = [token for token in tokens if token]
    if not tokens:
        raise CardError(f"range {text!r} is empty; {_ALLOWED}")
    combos: dict[Combo, None] = {}
    for token in tokens:
        for combo in _expand(token):
            combos[combo] = None
    return HandRange(text=text, combos=tuple(combos))


def combo_str(combo: Combo) -> str:
    """Return a combo as text, such as ``"AsKs"``."""
    return cards_str(combo)


__all__ = ["N_COMBOS", "Combo", "HandRange", "combo_str", "parse_range"]
