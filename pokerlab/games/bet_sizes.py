"""Bet sizes: one grammar, one rounding rule, one meaning per option.

Every no-limit tree pokerlab builds (spots, blueprints, LBR's raises, the environments'
actions, the web table's presets) reads its sizes here, in the notation of the postflop
solvers (the Rust postflop-solver's ``BetSizeOptions``, PioSOLVER's tree builder):

- ``50%``: a bet of half the pot; a raise *by* half the pot after calling, so a raise to
  ``faced + round(pot_after_call * 0.5)``;
- ``2.5x``: a raise to 2.5 times the bet faced (the largest bet this street; preflop the
  big blind counts as one). Raises only: a first bet faces nothing to multiply;
- ``a`` (or ``allin``, ``all-in``): all-in.

A list is comma separated (``"33%, 75%, a"``; an empty item or a repeated size is an
error; the order given is kept: an environment's actions follow it). Sizes may differ by
street and by player: groups are separated by ``;`` and a group may start with
``WHERE=``, a street (``preflop``, ``flop``, ``turn``, ``river``: the game's streets), a
heads-up player (``oop``, player 0, first to act after the flop; ``ip``, player 1) or both
joined by ``-`` (``river-ip``); later groups override earlier ones and a group without
WHERE applies everywhere: ``"50%, 100%; river=75%, a; turn-ip=33%"``.
``"2.5x,a/33%,75%,a/75%,a/a"`` is short for one list per street in order (``preflop=2.5x,a;
flop=33%,75%,a; turn=75%,a; river=a``), the form blueprint files record.

A :class:`BetMenu` holds the sizes of a tree: ``bets`` (the first bet of a street),
``raises`` (facing a bet; when no raise sizes are given, the bet list serves both, its
``x`` sizes for raises only), ``donks`` (see below) and four options, each with the meaning
the Rust postflop-solver's ``TreeConfig`` documents:

- ``add_all_in_threshold`` ``t``: "add all-in action if the ratio of maximum bet size to the
  pot is below or equal to this value": all-in is offered beside the sizes when it is at
  most ``faced + round(t * pot_after_call)`` (0: never);
- ``force_all_in_threshold`` ``t``: "force all-in action if the SPR (stack/pot) after the
  opponent's call is below or equal to this value": a size ``X`` becomes all-in when the
  chips left behind after a call, ``all_in - X``, are at most ``round(t * pot)``, the pot
  once one opponent has called ``X`` (0: only a size reaching the stack is all-in);
- ``merging_threshold`` ``t``: "merge bet actions if there are bet actions with close
  values. Algorithm: the same as PioSOLVER. That is, select the highest bet size (= X% of
  the pot) and remove all bet actions with a value (= Y% of the pot) satisfying the
  following inequality: (100 + X) / (100 + Y) < 1.0 + threshold. Continue this process
  with the next highest bet size" (0: no merging). X and Y count beyond the bet faced, in
  the pot after calling, all-in included;
- donk bets: "donk size options for the turn (set None to use default sizes)": the first
  bet of a street by the player who closed the previous street by calling a bet (out of
  position, leading into the previous aggressor) uses the ``donks`` sizes when they are
  given, its bet sizes otherwise;
- ``raise_cap``: bets and raises allowed per street (None: until the stacks are in).

Amounts. All counts are this street's chips: a bet or raise is *to* an amount. Each size
gives an amount by the rules above, rounded to whole chips by :func:`round_chips`, **the
one rounding rule: halves away from zero** (12.5 -> 13), as the Rust solver's ``round``.
Then, in that order: all-in is added (add threshold); each amount is clamped between the
smallest legal raise (below: the minimum raise) and all-in (above: all-in); an amount the
force threshold reaches becomes all-in; equal amounts count once; close amounts merge.
:meth:`BetMenu.amounts` is that one definition; every tree, translation and view calls it.

Where the two former parsers disagreed, this module chose (tests/games/test_bet_sizes.py
checks each): halves round away from zero (the blueprint menus rounded them to even: a
2.5x re-raise of an open to 5 is now 13, not 12; blueprint files written before keep their
old tree, see :mod:`pokerlab.blueprint.betting_tree`); a repeated size is an error (spots
dropped it); ``all_in_threshold`` (a size putting in at least that fraction of a player's
chips became all-in) is gone: the force threshold above is the one way to turn a size into
all-in, the add threshold the one way to offer all-in beside the sizes.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from pokerlab.errors import SpecError
from pokerlab.games.holdem_rules import STREET_NAMES

POT = "pot"
"""A size relative to the pot (``50%``)."""
TIMES = "times"
"""A raise size relative to the bet faced (``2.5x``)."""
ALL_IN = "all_in"
"""All the chips behind (``a``)."""
PLAYER_NAMES = ("oop", "ip")
"""The heads-up players a group may name: ``oop`` is player 0, ``ip`` player 1."""
MERGE_TOLERANCE = 1e-12
"""Relative slack of the merging comparison, so float noise never keeps a size."""

_SIZE = re.compile(r"^(?:(?P<number>\d+(?:\.\d*)?|\.\d+)(?P<unit>%|x)|(?P<allin>a|allin|all-in))$",
                   re.IGNORECASE)
_ALLOWED = ("sizes like '50%' (of the pot), '2.5x' (times the bet faced, raises only) or 'a' "
            "(all-in), comma separated; groups like 'river=75%,a' or 'turn-ip=33%' separated "
            "by ';', or one list per street separated by '/'")


@dataclass(frozen=True)
class BetSize:
    """One bet size.

    Attributes:
        kind: :data:`POT`, :data:`TIMES` or :data:`ALL_IN`.
        value: the fraction of the pot (``0.5`` for ``50%``) or the multiple of the bet
            faced (``2.5``); 0 for all-in.
    """

    kind: str
    value: float = 0.0

    def __str__(self) -> str:
        if self.kind == POT:
            return f"{100 * self.value:g}%"
        if self.kind == TIMES:
            return f"{self.value:g}x"
        return "a"


def round_chips(value: float) -> int:
    """Round a non-negative amount to whole chips, halves away from zero (12.5 -> 13).

    The one rounding rule of bet sizes (the Rust postflop-solver's ``f64::round``).

    Example:
        >>> round_chips(12.5), round_chips(12.49), round_chips(0.5)
        (13, 12, 1)
    """
    whole = math.floor(value)
    return int(whole) + (1 if value - whole >= 0.5 else 0)


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
    return BetSize(TIMES, value)


def _parse_list(text: str, *, raise_: bool, where: str) -> tuple[BetSize, ...]:
    if not text.strip():
        return ()
    items = text.split(",")
    if any(not item.strip() for item in items):
        raise SpecError(f"empty bet size in {text.strip()!r}{where}; {_ALLOWED}")
    sizes = [parse_size(item, raise_=raise_) for item in items]
    if len(set(sizes)) != len(sizes):
        raise SpecError(f"bet sizes repeat in {text.strip()!r}{where}; write each once")
    return tuple(sizes)


@dataclass(frozen=True)
class SizeTable:
    """Sizes by street and heads-up player: ``by_street[street][0 for OOP, 1 for IP]``.

    Streets are the engine's (0 preflop .. 3 river); ``names`` are the streets a text may
    name (a spot's: flop, turn, river), ``first`` the engine index of ``names[0]``.
    """

    by_street: tuple[tuple[tuple[BetSize, ...], tuple[BetSize, ...]], ...]
    names: tuple[str, ...]
    first: int = 0

    def sizes(self, street: int, player: int) -> tuple[BetSize, ...]:
        """The sizes of ``player`` on engine street ``street`` (none outside the table)."""
        if not 0 <= street < len(self.by_street):
            return ()
        return self.by_street[street][0 if player == 0 else 1]

    @property
    def split_by_player(self) -> bool:
        """True when some street gives OOP and IP different sizes."""
        return any(oop != ip for oop, ip in self.by_street)

    def __str__(self) -> str:
        """The canonical text: one list per named street (``"2.5x,a/50%,a"``), or groups."""
        streets = self.by_street[self.first:]
        if not self.split_by_player:
            return "/".join(",".join(str(s) for s in oop) for oop, _ in streets)
        return "; ".join(
            f"{name}-{who}={','.join(str(s) for s in sizes)}"
            for name, pair in zip(self.names, streets, strict=True)
            for who, sizes in zip(PLAYER_NAMES, pair, strict=True)
        )


def parse_sizes(
    text: str,
    *,
    raise_: bool,
    names: tuple[str, ...] = STREET_NAMES,
    first: int = 0,
    players: int = 2,
) -> SizeTable:
    """Read sizes for every street and player (see the module docstring for the grammar).

    Args:
        text: the sizes; an empty text means none anywhere.
        raise_: True for raise sizes (``x`` allowed).
        names: the streets a group may name, in order.
        first: the engine street of ``names[0]`` (1 for a spot: its streets start on the
            flop).
        players: players at the table; groups naming ``oop`` or ``ip`` need 2.

    Raises:
        SpecError: a size, list or WHERE that cannot be read, naming what is allowed.

    Example:
        >>> table = parse_sizes("50%, 100%; river-ip=a", raise_=False,
        ...                     names=("flop", "turn", "river"), first=1)
        >>> [str(s) for s in table.sizes(3, 1)], [str(s) for s in table.sizes(1, 0)]
        (['a'], ['50%', '100%'])
    """
    if not isinstance(text, str):
        raise SpecError(f"bet sizes are a string like '33%,75%,a'; got {text!r}")
    count = first + len(names)
    empty: tuple[BetSize, ...] = ()
    table = [[empty, empty] for _ in range(count)]
    if "/" in text:
        parts = text.split("/")
        if len(parts) == 1 or "=" in text or ";" in text:
            raise SpecError(f"cannot read {text!r}: one list per street is separated by '/' "
                            f"and has no groups; {_ALLOWED}")
        if len(parts) != len(names):
            raise SpecError(f"{text!r} gives {len(parts)} lists separated by '/'; the game "
                            f"has {len(names)} streets ({'/'.join(names)}): give one list per "
                            "street, or one list for all")
        for offset, (part, name) in enumerate(zip(parts, names, strict=True)):
            sizes = _parse_list(part, raise_=raise_, where=f" on the {name}")
            table[first + offset] = [sizes, sizes]
    else:
        for group in text.split(";"):
            if not group.strip():
                continue
            where, sep, body = group.partition("=")
            if not sep:
                where, body = "", group
            streets, seats = _where(where.strip().lower(), group.strip(), names, first, players)
            label = f" in group {group.strip()!r}" if sep else ""
            sizes = _parse_list(body, raise_=raise_, where=label)
            for street in streets:
                for seat in seats:
                    table[street][seat] = sizes
    return SizeTable(tuple((oop, ip) for oop, ip in table), names, first)


def _where(where: str, group: str, names: tuple[str, ...], first: int,
           players: int) -> tuple[list[int], list[int]]:
    streets, seats = list(range(first, first + len(names))), [0, 1]
    if not where:
        return streets, seats
    for part in where.split("-"):
        if part in names:
            streets = [first + names.index(part)]
        elif part in PLAYER_NAMES:
            if players != 2:
                raise SpecError(f"bet group {group!r}: 'oop' and 'ip' name heads-up players; "
                                f"this game has {players}")
            seats = [PLAYER_NAMES.index(part)]
        else:
            raise SpecError(f"bet group {group!r}: {part!r} is not a street "
                            f"({', '.join(names)}) or a player (oop, ip); {_ALLOWED}")
    return streets, seats


@dataclass(frozen=True, slots=True)
class BetContext:
    """The numbers of one no-limit decision that a menu sizes (chips of this street).

    Attributes:
        street: the engine street (0 preflop .. 3 river).
        player: the player to act.
        faced: the largest bet this street (0: nothing to call, a first bet).
        pot: every chip in the middle, this street's bets included.
        to_call: what the player owes.
        low: the smallest legal raise-to.
        high: the largest, all-in.
        raise_count: bets and raises made this street.
        donk: True where a donk bet would lead (see the module docstring).
    """

    street: int
    player: int
    faced: int
    pot: int
    to_call: int
    low: int
    high: int
    raise_count: int = 0
    donk: bool = False

    @property
    def pot_after_call(self) -> int:
        """The pot once the player has called: what pot-relative sizes refer to."""
        return self.pot + self.to_call


def size_amount(size: BetSize, context: BetContext) -> int | None:
    """The raise-to amount of one size, before clamping (None: ``x`` with no bet faced).

    Example:
        >>> size_amount(BetSize(TIMES, 2.5), BetContext(0, 1, faced=2, pot=3, to_call=1,
        ...                                             low=4, high=200))
        5
    """
    if size.kind == ALL_IN:
        return context.high
    if size.kind == TIMES:
        return None if context.faced == 0 else round_chips(context.faced * size.value)
    return context.faced + round_chips(context.pot_after_call * size.value)


def merge_amounts(amounts: list[int], *, faced: int, pot: int, threshold: float) -> list[int]:
    """Drop amounts close to a larger kept one (PioSOLVER's merging; module docstring).

    ``amounts`` ascending; ``pot`` the pot after calling; sizes count beyond ``faced``.
    """
    kept: list[int] = []
    current = math.inf
    for amount in reversed(amounts):
        ratio = (amount - faced) / pot
        if ratio < (current - threshold) / (1.0 + threshold) * (1.0 - MERGE_TOLERANCE):
            kept.append(amount)
            current = ratio
    return kept[::-1]


@dataclass(frozen=True)
class BetMenu:
    """The sizes a no-limit tree offers, and its options (see the module docstring).

    Attributes:
        bets: the first bet of a street, by street and player.
        raises: raises (a bet faced), by street and player.
        donks: donk bets by street and player; None: donk bets use ``bets``.
        add_all_in_threshold: offer all-in when it is at most this many pots (0: never).
        force_all_in_threshold: a size leaving at most this many pots behind after a call
            becomes all-in (0: never).
        merging_threshold: merge sizes closer than this (0: never).
        raise_cap: bets and raises per street (None: until the stacks are in).
        shared: True when one list was given for bets and raises (its canonical text is
            then that one list).
    """

    bets: SizeTable
    raises: SizeTable
    donks: SizeTable | None = None
    add_all_in_threshold: float = 0.0
    force_all_in_threshold: float = 0.0
    merging_threshold: float = 0.0
    raise_cap: int | None = None
    shared: bool = False

    def __str__(self) -> str:
        """The bet sizes' canonical text (``raises`` too when one list serves both)."""
        return str(self.raises if self.shared else self.bets)

    def sizes(self, context: BetContext) -> tuple[BetSize, ...]:
        """The sizes the player to act chooses from at ``context``."""
        if context.faced > 0:
            return self.raises.sizes(context.street, context.player)
        if context.donk and self.donks is not None:
            return self.donks.sizes(context.street, context.player)
        return self.bets.sizes(context.street, context.player)

    def amounts(self, context: BetContext) -> tuple[int, ...]:
        """The raise-to amounts offered at ``context``, ascending (the one definition).

        Sizes, then the add threshold, clamping, the force threshold, duplicates, merging:
        see the module docstring.
        """
        if self.raise_cap is not None and context.raise_count >= self.raise_cap:
            return ()
        low, high, faced = context.low, context.high, context.faced
        pot = context.pot_after_call
        raw = [a for a in (size_amount(s, context) for s in self.sizes(context)) if a is not None]
        add = self.add_all_in_threshold
        if add > 0 and high <= faced + round_chips(pot * add):
            raw.append(high)
        force = self.force_all_in_threshold
        found: set[int] = set()
        for amount in raw:
            amount = min(max(amount, low), high)
            if force > 0 and high <= amount + round_chips((pot + 2 * (amount - faced)) * force):
                amount = high
            found.add(amount)
        out = sorted(found)
        if self.merging_threshold > 0 and len(out) > 1:
            out = merge_amounts(out, faced=faced, pot=pot, threshold=self.merging_threshold)
        return tuple(out)

    def to_options(self) -> dict[str, float | int | None]:
        """The options (thresholds and cap) by name, as :func:`parse_bet_menu` takes them."""
        return {
            "add_all_in_threshold": self.add_all_in_threshold,
            "force_all_in_threshold": self.force_all_in_threshold,
            "merging_threshold": self.merging_threshold,
            "raise_cap": self.raise_cap,
        }


def parse_bet_menu(
    bets: str,
    raises: str | None = None,
    *,
    donks: str | None = None,
    names: tuple[str, ...] = STREET_NAMES,
    first: int = 0,
    players: int = 2,
    add_all_in_threshold: float = 0.0,
    force_all_in_threshold: float = 0.0,
    merging_threshold: float = 0.0,
    raise_cap: int | None = None,
) -> BetMenu:
    """Read a bet menu (see the module docstring for the grammar and each option).

    Args:
        bets: the bet sizes; with ``raises`` None, the raise sizes too (its ``x`` sizes
            then apply to raises only).
        raises: the raise sizes, or None.
        donks: the donk-bet sizes, or None (donk bets use the bet sizes).
        names: the streets a group may name, in order (:func:`parse_sizes`).
        first: the engine street of ``names[0]``.
        players: players at the table.
        add_all_in_threshold: see the module docstring (pots, >= 0).
        force_all_in_threshold: see the module docstring (pots, >= 0).
        merging_threshold: see the module docstring (>= 0).
        raise_cap: bets and raises per street, >= 1, or None.

    Raises:
        SpecError: an unreadable size or group, a street of multiples only when one list
            serves bets and raises (its first bet could never be made), or an option
            out of range.

    Example:
        >>> str(parse_bet_menu("2.5x,a/33%,75%,a/75%,a/a"))
        '2.5x,a/33%,75%,a/75%,a/a'
    """
    thresholds = {
        "add_all_in_threshold": add_all_in_threshold,
        "force_all_in_threshold": force_all_in_threshold,
        "merging_threshold": merging_threshold,
    }
    for name, value in thresholds.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or not (
            math.isfinite(value) and value >= 0
        ):
            raise SpecError(f"{name} must be a number >= 0 (0: off); got {value!r}")
    if raise_cap is not None and (isinstance(raise_cap, bool) or not isinstance(raise_cap, int)
                                  or raise_cap < 1):
        raise SpecError(f"raise_cap must be an integer >= 1 or None; got {raise_cap!r}")
    def table(text: str, raise_: bool) -> SizeTable:
        return parse_sizes(text, raise_=raise_, names=names, first=first, players=players)

    shared = raises is None
    if shared:
        raise_table = table(bets, True)
        bet_table = _without_multiples(raise_table)
        for street in range(max(first, 1), len(raise_table.by_street)):
            for player in (0, 1):
                if raise_table.sizes(street, player) and not bet_table.sizes(street, player):
                    name = names[street - first]
                    sizes = ",".join(str(s) for s in raise_table.sizes(street, player))
                    raise SpecError(
                        f"the {name} sizes {sizes!r} could never bet: a multiple raises the "
                        f"bet faced, and the {name}'s first bet faces none; add a pot size "
                        "like '75%' or 'a'"
                    )
    else:
        bet_table = table(bets, False)
        raise_table = table(raises or "", True)
    donk_table = None if donks is None else table(donks, False)
    return BetMenu(bet_table, raise_table, donk_table, float(add_all_in_threshold),
                   float(force_all_in_threshold), float(merging_threshold), raise_cap, shared)


def _without_multiples(table: SizeTable) -> SizeTable:
    streets = tuple(
        tuple(tuple(s for s in sizes if s.kind != TIMES) for sizes in pair)
        for pair in table.by_street
    )
    return SizeTable(streets, table.names, table.first)  # type: ignore[arg-type]


__all__ = [
    "ALL_IN",
    "MERGE_TOLERANCE",
    "PLAYER_NAMES",
    "POT",
    "TIMES",
    "BetContext",
    "BetMenu",
    "BetSize",
    "SizeTable",
    "merge_amounts",
    "parse_bet_menu",
    "parse_size",
    "parse_sizes",
    "round_chips",
    "size_amount",
]
