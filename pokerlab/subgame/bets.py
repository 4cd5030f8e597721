"""Bet sizes as postflop solvers write them, per street and per player.

A size is ``50%`` (a bet of half the pot; a raise *by* half the pot after calling),
``2.5x`` (a raise to 2.5 times the bet faced; raises only) or ``a`` (all-in); a list is
comma separated: ``"33%, 75%, a"``. Sizes may differ by street and player: groups are
separated by ``;`` and a group may start with ``WHERE=`` where WHERE is a street
(``flop``, ``turn``, ``river``), a player (``oop``, ``ip``) or both (``river-ip``); later
groups override earlier ones, and a group without WHERE applies everywhere:
``"50%, 100%; river=75%, a; turn-ip=33%"``.

Amounts follow the Rust postflop solver's tree: a bet of ``r`` pot is ``round(pot * r)``
chips; a raise of ``r`` pot raises to the bet faced plus ``round(r * pot after the
call)``; ``Nx`` raises to ``round(N * bet faced)``. Every amount is clamped between the
minimum raise (the bet faced plus the last raise increment; 1 chip for a bet) and the
player's stack, and an amount that reaches the stack becomes all-in. With
``allin_threshold = t > 0``, an all-in is added wherever it is at most ``t`` pots (for a
raise: beyond the bet faced). Duplicate amounts are merged. After an all-in the other
player may only fold or call. The Rust solver's donk sizes, force-all-in threshold and
bet merging are not offered; ``raise_cap`` (bets and raises per street) is, off by default
as there (stacks end the raising).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from pokerlab.errors import SpecError

STREETS = ("flop", "turn", "river")
PLAYERS = ("oop", "ip")

POT = "pot"
"""A size relative to the pot."""
PREVIOUS = "previous"
"""A raise size relative to the bet faced."""
ALL_IN = "all-in"
"""All the chips behind."""

_SIZE = re.compile(r"^(?:(?P<number>\d+(?:\.\d*)?|\.\d+)(?P<unit>%|x)|(?P<allin>a|allin|all-in))$",
                   re.IGNORECASE)
_ALLOWED = ("sizes like '50%' (of the pot), '2.5x' (times the bet faced, raises only) or 'a' "
            "(all-in), comma separated; groups 'river=75%,a' or 'turn-ip=33%' separated by ';'")


@dataclass(frozen=True, order=True)
class BetSize:
    """One bet size.

    Attributes:
        kind: :data:`POT`, :data:`PREVIOUS` or :data:`ALL_IN`.
        value: the fraction of the pot (``0.5`` for ``50%``) or the multiple of the bet
            faced (``2.5``); 0 for all-in.
    """

    kind: str
    value: float = 0.0

    def __str__(self) -> str:
        if self.kind == POT:
            return f"{100 * self.value:g}%"
        if self.kind == PREVIOUS:
            return f"{self.value:g}x"
        return "a"


def parse_size(text: str, *, raise_: bool) -> BetSize:
    """Read one size: ``"50%"``, ``"2.5x"`` (raises only) or ``"a"``.

    Raises:
        SpecError: naming the size that cannot be read and what is allowed.
    """
    token = text.strip()
    match = _SIZE.match(token)
    if match is None:
        raise SpecError(f"cannot read bet size {token!r}; allowed: {_ALLOWED}")
    if match["allin"]:
        return BetSize(ALL_IN)
    value = float(match["number"])
    if match["unit"] == "%":
        if not 0 < value <= 10_000:
            raise SpecError(f"bet size {token!r} must be a percentage of the pot in (0, 10000]")
        return BetSize(POT, value / 100.0)
    if not raise_:
        raise SpecError(f"bet size {token!r}: 'x' (times the bet faced) is for raises only; "
                        "a first bet is a percentage of the pot or 'a'")
    if not 1.0 < value <= 100.0:
        raise SpecError(f"raise size {token!r} must be more than 1x and at most 100x the bet "
                        "faced")
    return BetSize(PREVIOUS, value)


def parse_sizes(text: str, *, raise_: bool) -> dict[tuple[int, int], tuple[BetSize, ...]]:
    """Read a bet (or raise) size specification for every street and player.

    Returns:
        ``{(street, player): sizes}`` for streets 0..2 (flop, turn, river) and players 0
        (OOP) and 1 (IP); an empty text means no sizes (checks and calls only).

    Raises:
        SpecError: a size or a WHERE that cannot be read.

    Example:
        >>> sizes = parse_sizes("50%, 100%; river-ip=a", raise_=False)
        >>> [str(s) for s in sizes[(2, 1)]], [str(s) for s in sizes[(0, 0)]]
        (['a'], ['50%', '100%'])
    """
    out: dict[tuple[int, int], tuple[BetSize, ...]] = {
        (street, player): () for street in range(3) for player in range(2)
    }
    for group in text.split(";"):
        group = group.strip()
        if not group:
            continue
        where, sep, body = group.partition("=")
        if not sep:
            where, body = "", group
        streets, players = _where(where.strip().lower(), group)
        items = [item for item in body.split(",") if item.strip()]
        sizes = tuple(sorted({parse_size(item, raise_=raise_) for item in items}))
        for street in streets:
            for player in players:
                out[(street, player)] = sizes
    return out


def _where(where: str, group: str) -> tuple[list[int], list[int]]:
    streets, players = list(range(3)), list(range(2))
    if not where:
        return streets, players
    for part in where.split("-"):
        if part in STREETS:
            streets = [STREETS.index(part)]
        elif part in PLAYERS:
            players = [PLAYERS.index(part)]
        else:
            raise SpecError(f"bet group {group!r}: {part!r} is not a street (flop, turn, river) "
                            f"or a player (oop, ip); {_ALLOWED}")
    return streets, players


def round_chips(value: float) -> int:
    """Round to the nearest chip, halves away from zero (as the Rust solvers do)."""
    return math.floor(value + 0.5)


def bet_amounts(
    sizes: tuple[BetSize, ...],
    *,
    pot: int,
    faced: int,
    mine: int,
    behind: int,
    allin_threshold: float,
) -> list[tuple[int, bool]]:
    """The street amounts a player may bet or raise *to*, with an all-in flag, increasing.

    Args:
        sizes: the player's sizes here (bets when ``faced == mine``, raises otherwise).
        pot: chips in the pot if the player calls (what pot-relative sizes refer to).
        faced: the opponent's chips in on this street.
        mine: the player's chips in on this street.
        behind: the player's chips behind.
        allin_threshold: add an all-in when it is at most this many pots beyond the bet
            faced (0: never).
    """
    largest = mine + behind
    if largest <= faced:
        return []
    # The minimum raise: the bet faced plus the last increment (heads-up, ``faced - mine``).
    smallest = min(max(2 * faced - mine, 1), largest)
    amounts: list[int] = []
    for size in sizes:
        if size.kind == ALL_IN:
            amounts.append(largest)
        elif size.kind == POT:
            amounts.append(faced + round_chips(pot * size.value))
        else:
            amounts.append(round_chips(faced * size.value))
    if allin_threshold > 0 and largest <= faced + round_chips(pot * allin_threshold):
        amounts.append(largest)
    clamped = sorted({min(max(amount, smallest), largest) for amount in amounts})
    return [(amount, amount == largest) for amount in clamped]


__all__ = [
    "ALL_IN",
    "PLAYERS",
    "POT",
    "PREVIOUS",
    "STREETS",
    "BetSize",
    "bet_amounts",
    "parse_size",
    "parse_sizes",
    "round_chips",
]
