"""Sets of flops for reports over many flops: all 1,755, a weighted subset, or a list.

A flop report (:mod:`pokerlab.studies.flop_report`) solves one spot shape on many flops.
Flops that differ only by a renaming of suits play alike, so the 22,100 flops fall into
1,755 strategically different ones; each is solved once and counts by its *weight*, the
number of flops it stands for. Three ways to name a set (:func:`flop_set`):

- ``all``: the 1,755 canonical flops, weighted (weights sum to 22,100);
- a count ``N`` (``"25"``, ``"184"``): a standard subset of ``N`` of them, chosen to keep
  the frequencies of the textures: the canonical flops are ordered by texture (suits,
  pairing, ranks) and cut into ``N`` stretches of equal weight; each stretch is stood for
  by its middle flop, which takes the stretch's weight. The same ``N`` always gives the
  same flops;
- a list (``"AsKd2c, Td9d6h"``) or a file of flops, one a line with an optional weight
  (``"Td9d6h 12"``; ``#`` starts a comment): solved as written, weight 1 unless given.

Each flop's *texture* (:func:`texture`) names what reports group by: its suits
(monotone, two-tone, rainbow), its pairing (unpaired, paired, trips), its highest rank,
and its connectedness (whether one straight can use all three of its ranks).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from pokerlab.abstraction.holdem_iso import board_indexer
from pokerlab.cards.card import RANKS, cards_str, parse_cards
from pokerlab.errors import CardError, FileFormatError, SpecError

ALL_FLOPS = 1755
"""Strategically different flops (suit isomorphism)."""

RAW_FLOPS = 22100
"""Flops as dealt: C(52, 3)."""

MAX_FILE_BYTES = 1_000_000
"""A flop file longer than this is refused (no flop set needs more)."""

SUITS_ORDER = ("rainbow", "two-tone", "monotone")
PAIRING_ORDER = ("unpaired", "paired", "trips")
CONNECTED_ORDER = ("connected", "disconnected")


@dataclass(frozen=True)
class Flop:
    """One flop of a set and how many dealt flops it stands for.

    Attributes:
        cards: the three cards, highest rank first (``"AsKd2c"`` order).
        weight: the dealt flops it stands for (its share of a weighted average).
    """

    cards: tuple[int, int, int]
    weight: float

    @property
    def text(self) -> str:
        """``"AsKd2c"``."""
        return cards_str(self.cards)


@dataclass(frozen=True)
class Texture:
    """What reports group flops by.

    Attributes:
        suits: ``"monotone"``, ``"two-tone"`` or ``"rainbow"``.
        pairing: ``"unpaired"``, ``"paired"`` or ``"trips"``.
        high: the highest rank's letter, ``"A"`` to ``"4"``.
        connected: ``"connected"`` when one straight uses all three ranks (three
            distinct ranks within five, the ace also low), else ``"disconnected"``.
    """

    suits: str
    pairing: str
    high: str
    connected: str


def texture(cards: tuple[int, ...]) -> Texture:
    """The texture of a flop (three card ids)."""
    ranks = sorted((card >> 2 for card in cards), reverse=True)
    n_suits = len({card & 3 for card in cards})
    n_ranks = len(set(ranks))
    distinct = set(ranks)
    lows = {-1 if r == 12 else r for r in distinct}  # the ace plays low in A-2-3-4-5
    connected = n_ranks == 3 and (max(distinct) - min(distinct) <= 4
                                  or max(lows) - min(lows) <= 4)
    return Texture(
        suits={1: "monotone", 2: "two-tone", 3: "rainbow"}[n_suits],
        pairing={3: "unpaired", 2: "paired", 1: "trips"}[n_ranks],
        high=RANKS[ranks[0]],
        connected="connected" if connected else "disconnected",
    )


def _ordered(cards: tuple[int, ...]) -> tuple[int, int, int]:
    """The cards highest rank first (suits break ties), as reports print them."""
    first, second, third = sorted(cards, reverse=True)
    return first, second, third


@cache
def canonical_flops() -> tuple[Flop, ...]:
    """The 1,755 strategically different flops, each weighted by the flops it stands for.

    Ordered by texture (rainbow, two-tone, monotone; unpaired, paired, trips; then the
    ranks from the highest), so that stretches of the order are alike; weights sum to
    22,100.
    """
    indexer = board_indexer(3)
    every = np.array(list(itertools.combinations(range(52), 3)), dtype=np.int64)
    counts = np.bincount(indexer.index(every), minlength=indexer.size)
    flops = [Flop(_ordered(tuple(int(c) for c in row)), float(counts[i]))
             for i, row in enumerate(indexer.unindex(np.arange(indexer.size)))]
    return tuple(sorted(flops, key=_texture_order))


def _texture_order(flop: Flop) -> tuple[int, int, tuple[int, ...]]:
    """Sort key: suits, pairing, then ranks from the highest down."""
    shape = texture(flop.cards)
    ranks = tuple(-(card >> 2) for card in flop.cards)
    return SUITS_ORDER.index(shape.suits), PAIRING_ORDER.index(shape.pairing), ranks


def flop_subset(count: int) -> tuple[Flop, ...]:
    """A standard subset of ``count`` flops that keeps the textures' frequencies.

    The 1,755 canonical flops in texture order are cut into ``count`` stretches of
    (nearly) equal length; each stretch is stood for by the flop at its middle, which
    takes the weight of the whole stretch (stratified sampling: the weights still sum to
    22,100 and a texture's share moves by at most one stretch). Deterministic; 1,755
    gives every flop.

    Raises:
        SpecError: if ``count`` is not between 1 and 1,755.
    """
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= ALL_FLOPS:
        raise SpecError(f"a flop subset has 1 to {ALL_FLOPS:,} flops; got {count!r}")
    flops = canonical_flops()
    bounds = [k * ALL_FLOPS // count for k in range(count + 1)]
    subset = []
    for start, end in itertools.pairwise(bounds):
        middle = flops[(start + end - 1) // 2]
        subset.append(Flop(middle.cards, sum(flop.weight for flop in flops[start:end])))
    return tuple(subset)


def parse_flops(text: str, *, where: str = "--flops") -> tuple[Flop, ...]:
    """Flops written out: ``"AsKd2c, Td9d6h 12"`` or one a line (``#`` comments).

    Each flop is three cards, optionally followed by its weight (a positive number).

    Raises:
        SpecError: an empty list, a flop listed twice, or a weight that is not positive.
        CardError: a flop that is not three distinct cards.
    """
    flops: list[Flop] = []
    seen: set[tuple[int, ...]] = set()
    entries = [part.strip() for line in text.splitlines()
               for part in line.split("#", 1)[0].split(",")]
    for entry in filter(None, entries):
        words = entry.split()
        weight = 1.0
        if len(words) > 1 and _is_number(words[-1]):
            weight = float(words.pop())
            if not 0 < weight < float("inf"):
                raise SpecError(f"{where}: {entry!r} is a flop and a positive weight "
                                "('Td9d6h 12'); the weight is not a positive number")
        try:
            cards = parse_cards("".join(words))
        except CardError as error:
            raise CardError(f"{where}: {entry!r} is not a flop: {error}") from None
        if len(cards) != 3:
            raise CardError(f"{where}: a flop is three cards; {entry!r} has {len(cards)}")
        key = tuple(sorted(cards))
        if key in seen:
            raise SpecError(f"{where}: the flop {entry!r} is listed twice")
        seen.add(key)
        flops.append(Flop(_ordered(cards), weight))
    if not flops:
        raise SpecError(f"{where}: no flop is listed")
    return tuple(flops)


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True


def flop_set(text: str) -> tuple[Flop, ...]:
    """The flops ``--flops`` names: ``all``, a count, a file, or flops written out.

    Raises:
        SpecError: a count out of range, an empty set, or text that is none of these.
        FileFormatError: a file that cannot be read or is too long.
        CardError: a listed flop that is not three distinct cards.
    """
    body = text.strip()
    if body.lower() == "all":
        return canonical_flops()
    if body.isdigit():
        return flop_subset(int(body))
    path = Path(body)
    if path.is_file():
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                raise FileFormatError(f"--flops {path}: longer than {MAX_FILE_BYTES:,} bytes; "
                                      "a flop file lists at most a few thousand flops")
            content = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise FileFormatError(f"--flops {path}: cannot be read ({exc})") from None
        return parse_flops(content, where=f"--flops {path}")
    if path.exists():
        raise FileFormatError(f"--flops {path} is a folder; give a file of flops")
    try:
        return parse_flops(body)
    except (CardError, SpecError) as error:
        raise SpecError(f"{error}. --flops is 'all', a count of flops ('25'), a file of "
                        "flops, or flops written out ('AsKd2c, Td9d6h')") from None
