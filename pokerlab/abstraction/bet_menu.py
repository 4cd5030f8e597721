"""Bet menus for no-limit Hold'em: the abstract bet sizes, and translating real bets.

A no-limit player may raise to any amount in a range; a solver trains over a few sizes per
street, a *bet menu*, written the way users of postflop solvers know:

- ``"33%"``, ``"75%"``, ``"150%"``: a fraction of the pot. A bet of ``p`` pot puts in ``p``
  times the pot; a raise of ``p`` pot first calls, then raises by ``p`` times the pot after
  the call: raise to ``max_bet + p * (pot + to_call)`` (the pot counts this street's bets);
- ``"2.5x"``: a raise to 2.5 times the bet faced (the largest bet this street; preflop the
  big blind counts as a bet, so the first raise of the hand, the open, is to 2.5 big
  blinds). The first bet of a postflop street faces no bet: there ``"2.5x"`` offers nothing,
  and the street's pot sizes and all-in are its bets (write ``"75%"`` to open the flop); a
  postflop street of multiples only could never bet, and is refused;
- ``"a"``: all-in.

``parse_bet_menu("33%,75%,a")`` uses one list on every street; ``"2.5x,a/33%,75%,a/75%,a/a"``
(or a list of four strings) gives preflop, flop, turn and river their own. A game with fewer
streets (``holdem(board="1")``: preflop and flop) takes one list or one per street it has
(``n_streets=2``: ``"2.5x,a/50%,a"``).
``all_in_threshold=t`` turns any size that would put in at least ``t`` of the player's
chips (behind plus already bet this street) into all-in, as solvers do to avoid tiny stacks
left behind.

At a state, :func:`menu_actions` lists the menu's concrete actions: fold (when facing a
bet), check/call, and for each size the raise-to amount rounded to whole chips (Python's
``round``: halves to even, 12.5 -> 12) and
*clipped* to the legal ``raise_range()`` (below the minimum raise: the minimum; above all-in:
all-in), duplicates removed, in increasing amount. Limit games have no sizes: their legal
actions are returned as they are.

At play time, :func:`translate_state` maps a real state (any amounts) to the abstract state a
menu-trained policy knows: the real history is replayed in lockstep on a second state whose
raises are menu actions; each real raise, as a pot fraction ``(X - max_bet) / (pot +
to_call)``, is translated with :func:`~pokerlab.abstraction.betting.translation_probabilities`
(pseudo-harmonic by default) to the menu raises around it, measured the same way in the
abstract state. Folds and calls map to themselves; a real raise where the abstract state
cannot raise becomes a call; once the abstract betting is over (an abstract all-in was
called), later real betting is skipped and only the cards follow.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pokerlab._types import CHANCE, TERMINAL, Action
from pokerlab.abstraction.betting import translation_probabilities
from pokerlab.errors import SpecError
from pokerlab.games.holdem import CALL, FOLD, RAISE, STREET_NAMES, HoldemState

SIZE_KINDS = ("pot", "times", "all_in")
"""The kinds of :class:`BetSize`."""

_POT = re.compile(r"^(\d+(?:\.\d+)?)%$")
_TIMES = re.compile(r"^(\d+(?:\.\d+)?)x$")
_HELP = "sizes are pot percentages like '33%', raise multiples like '2.5x', or 'a' (all-in)"


@dataclass(frozen=True, slots=True)
class BetSize:
    """One abstract size: ``kind`` ``"pot"`` (value: fraction), ``"times"`` or ``"all_in"``."""

    kind: str
    value: float = 0.0

    def __str__(self) -> str:
        if self.kind == "pot":
            return f"{self.value * 100:g}%"
        if self.kind == "times":
            return f"{self.value:g}x"
        return "a"


@dataclass(frozen=True, slots=True)
class BetMenu:
    """The abstract bet sizes of each street (preflop, flop, turn, river).

    Attributes:
        streets: one tuple of :class:`BetSize` per street (four for Texas Hold'em).
        all_in_threshold: a size putting in at least this fraction of the player's chips
            becomes all-in; None: no threshold.
    """

    streets: tuple[tuple[BetSize, ...], ...]
    all_in_threshold: float | None = None

    def __str__(self) -> str:
        return "/".join(",".join(str(s) for s in sizes) for sizes in self.streets)


def _parse_size(token: str, street: str) -> BetSize:
    text = token.strip().lower()
    if text in ("a", "allin", "all-in"):
        return BetSize("all_in")
    pot = _POT.match(text)
    if pot:
        value = float(pot.group(1)) / 100.0
        if value <= 0:
            raise SpecError(f"bet size {token!r} on the {street} must be above 0%")
        return BetSize("pot", value)
    times = _TIMES.match(text)
    if times:
        value = float(times.group(1))
        if value <= 1:
            raise SpecError(f"raise size {token!r} on the {street} must be above 1x")
        return BetSize("times", value)
    raise SpecError(f"cannot read bet size {token!r} on the {street}; {_HELP}")


def _parse_street(text: str, street: str) -> tuple[BetSize, ...]:
    if not isinstance(text, str):
        raise SpecError(f"the {street} bet sizes must be a string like '33%,75%,a'; got {text!r}")
    tokens = [t for t in text.split(",")]
    if not text.strip():
        return ()
    if any(not t.strip() for t in tokens):
        raise SpecError(f"empty bet size in {text!r} on the {street}; {_HELP}")
    sizes = tuple(_parse_size(t, street) for t in tokens)
    if len(set(sizes)) != len(sizes):
        raise SpecError(f"bet sizes repeat in {text!r} on the {street}")
    return sizes


def parse_bet_menu(
    spec: str | Sequence[str],
    *,
    all_in_threshold: float | None = None,
    n_streets: int = len(STREET_NAMES),
) -> BetMenu:
    """Read a bet menu: one list for all streets, or one per street separated by ``/``.

    Args:
        spec: the menu text, or one string per street.
        all_in_threshold: see the module docstring.
        n_streets: the game's betting rounds (1 to 4; Texas Hold'em: 4).

    Raises:
        SpecError: an unreadable size, a repeated size, neither 1 nor ``n_streets`` lists,
            a postflop street of multiples only, or a threshold outside (0, 1].

    Example:
        >>> str(parse_bet_menu("2.5x,a/33%,75%,a/75%,a/a"))
        '2.5x,a/33%,75%,a/75%,a/a'
    """
    if isinstance(spec, str):
        parts = spec.split("/")
    elif isinstance(spec, Sequence):
        parts = list(spec)
    else:
        raise SpecError(f"a bet menu is a string like '33%,75%,a' or four of them; got {spec!r}")
    if isinstance(n_streets, bool) or n_streets not in range(1, len(STREET_NAMES) + 1):
        raise SpecError(f"n_streets must be 1 to {len(STREET_NAMES)}; got {n_streets!r}")
    names = STREET_NAMES[:n_streets]
    if len(parts) == 1:
        parts = parts * n_streets
    if len(parts) != n_streets:
        raise SpecError(
            f"a bet menu has 1 list of sizes (all streets) or {n_streets} "
            f"({'/'.join(names)}); got {len(parts)} in {spec!r}"
        )
    streets = tuple(_parse_street(p, name) for p, name in zip(parts, names, strict=True))
    for sizes, name in zip(streets[1:], names[1:], strict=True):
        if sizes and all(size.kind == "times" for size in sizes):
            raise SpecError(
                f"the {name} sizes {','.join(str(s) for s in sizes)!r} could never bet: a "
                f"multiple raises the bet faced, and the {name}'s first bet faces none; add "
                "a pot size like '75%' or 'a'"
            )
    if all_in_threshold is not None:
        if isinstance(all_in_threshold, bool) or not isinstance(all_in_threshold, int | float):
            raise SpecError(
                f"all_in_threshold must be a number in (0, 1]; got {all_in_threshold!r}"
            )
        if not (math.isfinite(all_in_threshold) and 0 < all_in_threshold <= 1):
            raise SpecError(f"all_in_threshold must be in (0, 1]; got {all_in_threshold!r}")
        all_in_threshold = float(all_in_threshold)
    return BetMenu(streets, all_in_threshold)


def size_amount(size: BetSize, *, max_bet: int, pot: int, to_call: int, all_in: int) -> int | None:
    """The raise-to amount of one size, unclipped (None: a ``"Nx"`` with no bet to face).

    Amounts count this street's chips: ``max_bet`` is the largest bet this street (preflop
    the big blind), ``pot`` every chip in the middle (this street's bets included),
    ``to_call`` what the player owes, ``all_in`` the player's bet this street plus its chips
    behind. See the module docstring for each kind.

    Example:
        >>> size_amount(BetSize("times", 2.5), max_bet=2, pot=3, to_call=1, all_in=200)
        5
    """
    if size.kind == "all_in":
        return all_in
    if size.kind == "times":
        if max_bet == 0:
            return None
        return round(size.value * max_bet)
    return round(max_bet + size.value * (pot + to_call))


def street_raises(
    sizes: Sequence[BetSize],
    *,
    max_bet: int,
    pot: int,
    to_call: int,
    all_in: int,
    low: int,
    all_in_threshold: float | None = None,
) -> tuple[int, ...]:
    """The raise-to amounts of a street's sizes, clipped to ``[low, all_in]``, deduplicated.

    The one definition of a menu's amounts: :func:`menu_raises` applies it to an engine
    state, the blueprint's betting tree (:mod:`pokerlab.blueprint.betting_tree`) to its
    nodes. A size below the minimum raise ``low`` becomes the minimum raise, one above
    all-in (or, with ``all_in_threshold``, putting in at least that fraction of
    ``all_in``) becomes all-in. Amounts count this street's chips (see :func:`size_amount`).
    """
    high = all_in
    low = min(low, high)
    amounts: set[int] = set()
    for size in sizes:
        amount = size_amount(size, max_bet=max_bet, pot=pot, to_call=to_call, all_in=all_in)
        if amount is None:
            continue
        if all_in_threshold is not None and amount >= all_in_threshold * all_in:
            amount = high
        amounts.add(min(max(amount, low), high))
    return tuple(sorted(amounts))


def menu_raises(menu: BetMenu, state: HoldemState) -> tuple[int, ...]:
    """The menu's raise-to amounts at ``state``, clipped to the legal range, deduplicated.

    Raises:
        SpecError: if ``state`` is not a no-limit decision.
    """
    if not state.holdem.no_limit or state.to_act < 0:
        raise SpecError("menu raises need a no-limit Hold'em state with a player to act")
    bounds = state.raise_range()
    if bounds is None:
        return ()
    low, high = bounds
    player = state.to_act
    return street_raises(
        menu.streets[state.street], max_bet=max(state.bets), pot=state.pot,
        to_call=state.to_call(player), all_in=high, low=low,
        all_in_threshold=menu.all_in_threshold,
    )  # fmt: skip


def menu_actions(menu: BetMenu, state: HoldemState) -> tuple[Action, ...]:
    """The abstract legal actions at a decision: fold?, call, then the menu's raises.

    Limit states return their legal actions unchanged (no sizes to choose).

    Raises:
        SpecError: if ``state`` is not a player's decision.
    """
    if state.to_act < 0:
        raise SpecError("menu actions need a state with a player to act (not chance or the end)")
    if not state.holdem.no_limit:
        return state.legal_actions()
    base: tuple[Action, ...] = (FOLD, CALL) if state.to_call() > 0 else (CALL,)
    return base + tuple(RAISE + amount for amount in menu_raises(menu, state))


def raise_fraction(state: HoldemState, amount: int) -> float:
    """A raise to ``amount`` as a fraction of the pot after calling: the menu's measure."""
    max_bet = max(state.bets)
    to_call = state.to_call()
    return max(0.0, (amount - max_bet) / (state.pot + to_call))


def translate_raise_probabilities(
    menu: BetMenu, abstract: HoldemState, fraction: float, method: str = "pseudo_harmonic"
) -> dict[Action, float]:
    """The probability of each abstract raise for a real raise of ``fraction`` of the pot.

    Raises:
        SpecError: if ``abstract`` has no menu raise, or an unknown method.
    """
    amounts = menu_raises(menu, abstract)
    if not amounts:
        raise SpecError("the abstract state offers no raise to translate into")
    by_fraction: dict[float, Action] = {}
    for amount in amounts:
        by_fraction.setdefault(raise_fraction(abstract, amount), RAISE + amount)
    probabilities = translation_probabilities(fraction, list(by_fraction), method)
    return {by_fraction[f]: p for f, p in probabilities.items()}


def translate_state(
    menu: BetMenu,
    state: HoldemState,
    method: str = "pseudo_harmonic",
    rng: np.random.Generator | int | None = None,
) -> HoldemState:
    """Map a real no-limit state to the abstract state of a menu-trained policy.

    See the module docstring for the rules. Limit states are returned unchanged.

    Args:
        menu: the menu the policy was trained with.
        state: the real state (any raise amounts).
        method: ``"pseudo_harmonic"`` (random between the two sizes around a real raise) or
            ``"nearest"``.
        rng: the randomness of pseudo-harmonic translation.

    Raises:
        SpecError: an unknown method.
    """
    if not state.holdem.no_limit:
        return state
    generator = np.random.default_rng(rng)
    real = state.holdem.initial_state()
    abstract = real
    for action in state.history:
        if real.to_act == CHANCE:
            if abstract.to_act == CHANCE:
                abstract = abstract.child(action)
            real = real.child(action)
            continue
        if abstract.to_act == CHANCE or abstract.to_act == TERMINAL:
            real = real.child(action)  # the abstract betting is over: skip real betting
            continue
        mapped: Action = action
        if action >= RAISE:
            if abstract.raise_range() is None or not menu_raises(menu, abstract):
                mapped = CALL
            else:
                fraction = raise_fraction(real, action - RAISE)
                probabilities = translate_raise_probabilities(menu, abstract, fraction, method)
                choices = sorted(probabilities)
                if len(choices) == 1:
                    mapped = choices[0]
                else:
                    weights = np.array([probabilities[c] for c in choices])
                    mapped = choices[int(generator.choice(len(choices), p=weights / weights.sum()))]
        elif action == FOLD and abstract.to_call() == 0:
            mapped = CALL  # cannot happen with lockstep betting; kept legal regardless
        abstract = abstract.child(mapped)
        real = real.child(action)
    return abstract


__all__ = [
    "SIZE_KINDS",
    "BetMenu",
    "BetSize",
    "menu_actions",
    "menu_raises",
    "parse_bet_menu",
    "raise_fraction",
    "size_amount",
    "street_raises",
    "translate_raise_probabilities",
    "translate_state",
]
