"""Betting abstraction and action translation.

A betting abstraction solves a game with fewer betting options than the real one; to play
the real game, an opponent's action that the abstraction lacks is *translated* to one it has.

Bet sizes (no-limit style), as fractions of the pot:

- ``nearest``: the abstract size closest to the real one (ties go to the smaller);
- ``pseudo_harmonic`` (Ganzfried and Sandholm 2013): a bet ``x`` between abstract sizes
  ``A < B`` maps to ``A`` with probability ``f(x) = (B - x)(1 + A) / ((B - A)(1 + x))``
  and to ``B`` otherwise; ``f(A) = 1``, ``f(B) = 0``, and the mapping is robust to an
  opponent who picks sizes to exploit it.

Raise counts (limit Leduc, :func:`translate_leduc_key`): the 50-chip Leduc variant has no
raise cap, and its abstraction ``leduc(stack=50, raise_cap=K)`` allows ``K`` bets and
raises per round. In heads-up Leduc a round's betting is ``[c] r^m [c|f]`` (an optional
opening check, ``m`` bets/raises, then the call or fold that closes it), and ``m``'s parity
says who acts. A real history with ``m > K`` raises in a round is mapped to the abstract
history with ``m' = K`` raises if ``m - K`` is even, else ``K - 1``: the last abstract
state in which the *same player* faces a raise (pairs of raises beyond the cap are
treated as if they had not happened; the pot is smaller in the abstraction, which is the
translation's error). A finished round (the round-1 betting in a round-2 key) keeps
``min(m, K)`` raises and its closing call: the round ended, whoever raised last. The
abstract strategy never raises beyond the cap itself (its row
has no raise there, so the lifted strategy raises with probability 0), so only the
opponent's actions are ever translated along its own play.

References:
    S. Ganzfried, T. Sandholm, "Action translation in extensive-form games with large
    action spaces: axioms, paradoxes, and the pseudo-harmonic mapping", IJCAI 2013.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from pokerlab.errors import SpecError

TRANSLATION_METHODS = ("nearest", "pseudo_harmonic")
"""The names :func:`translate` accepts."""


def _check_size(value: float, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.floating | np.integer):
        raise SpecError(f"{name} must be a number (a fraction of the pot); got {value!r}")
    number = float(value)
    if not math.isfinite(number) or number < 0:
        raise SpecError(f"{name} must be a finite fraction of the pot >= 0; got {value!r}")
    return number


def pseudo_harmonic(x: float, a: float, b: float) -> float:
    """Return the probability of mapping a bet ``x`` to the smaller abstract size ``a``.

    ``f(x) = (b - x)(1 + a) / ((b - a)(1 + x))``, sizes as fractions of the pot; bets at or
    below ``a`` map to ``a`` (1), at or above ``b`` to ``b`` (0).

    Raises:
        SpecError: if a size is negative or not finite, or ``a >= b``.

    Example:
        >>> round(pseudo_harmonic(0.75, 0.5, 1.0), 6)   # between half pot and pot
        0.428571
    """
    x = _check_size(x, "the bet x")
    a = _check_size(a, "the smaller size a")
    b = _check_size(b, "the larger size b")
    if not a < b:
        raise SpecError(f"pseudo_harmonic needs a < b; got a={a}, b={b}")
    if x <= a:
        return 1.0
    if x >= b:
        return 0.0
    return (b - x) * (1.0 + a) / ((b - a) * (1.0 + x))


def translation_probabilities(
    x: float, sizes: Sequence[float], method: str = "nearest"
) -> dict[float, float]:
    """Return the probability of translating a bet ``x`` to each abstract size.

    Args:
        x: the real bet, as a fraction of the pot.
        sizes: the abstract sizes (fractions of the pot), any order, no duplicates.
        method: ``"nearest"`` or ``"pseudo_harmonic"``.

    Returns:
        ``{size: probability}`` over the sizes with positive probability (one or two).

    Raises:
        SpecError: an unknown method, no sizes, duplicate or negative sizes.
    """
    if method not in TRANSLATION_METHODS:
        raise SpecError(
            f"unknown translation method {method!r}; allowed: {', '.join(TRANSLATION_METHODS)}"
        )
    x = _check_size(x, "the bet x")
    values = sorted(_check_size(s, "an abstract size") for s in sizes)
    if not values:
        raise SpecError("translation needs at least one abstract size")
    if len(set(values)) != len(values):
        raise SpecError(f"abstract sizes must be distinct; got {list(sizes)}")
    if x <= values[0]:
        return {values[0]: 1.0}
    if x >= values[-1]:
        return {values[-1]: 1.0}
    upper = next(i for i, s in enumerate(values) if s >= x)
    b = values[upper]
    if b == x:
        return {b: 1.0}
    a = values[upper - 1]
    if method == "nearest":
        return {a: 1.0} if x - a <= b - x else {b: 1.0}
    p = pseudo_harmonic(x, a, b)
    return {a: p, b: 1.0 - p}


def translate(
    x: float,
    sizes: Sequence[float],
    method: str = "nearest",
    rng: np.random.Generator | int | None = None,
) -> float:
    """Translate a real bet ``x`` to one abstract size (randomly for pseudo-harmonic).

    Args:
        x: the real bet, as a fraction of the pot.
        sizes: the abstract sizes.
        method: ``"nearest"`` (deterministic) or ``"pseudo_harmonic"`` (random between the
            two sizes around ``x``).
        rng: the randomness of ``pseudo_harmonic`` (a Generator, a seed, or None).

    Raises:
        SpecError: as :func:`translation_probabilities`.

    Example:
        >>> translate(0.8, [0.5, 1.0, 2.0])
        1.0
        >>> translate(1.0, [0.5, 1.0, 2.0], "pseudo_harmonic", rng=0)
        1.0
    """
    probabilities = translation_probabilities(x, sizes, method)
    if len(probabilities) == 1:
        return next(iter(probabilities))
    generator = np.random.default_rng(rng)
    (a, pa), (b, _) = sorted(probabilities.items())
    return a if generator.random() < pa else b


def _split_round(text: str) -> tuple[str, int, str]:
    """Split one round's betting letters into (opening check, raises, closing action)."""
    opening = "c" if text.startswith("c") else ""
    rest = text[len(opening):]
    raises = len(rest) - len(rest.lstrip("r"))
    closing = rest[raises:]
    if closing not in ("", "c", "f") or set(text) - set("cfr"):
        raise SpecError(f"cannot read the betting {text!r} of a heads-up Leduc round")
    return opening, raises, closing


def cap_raises(text: str, raise_cap: int) -> str:
    """Map one round's betting letters to a game with at most ``raise_cap`` raises per round.

    In a round still being played, ``m`` raises beyond the cap become ``raise_cap`` (same
    parity) or ``raise_cap - 1``, so the same player is to act; a finished round (closed
    by a call) keeps ``raise_cap`` raises (see the module docstring).

    Raises:
        SpecError: if ``raise_cap < 1`` or the letters are not a heads-up Leduc round.

    Example:
        >>> cap_raises("rrrr", 2), cap_raises("crrr", 2), cap_raises("rrrrrc", 2)
        ('rr', 'cr', 'rrc')
    """
    if isinstance(raise_cap, bool) or not isinstance(raise_cap, int) or raise_cap < 1:
        raise SpecError(f"translating raises needs raise_cap >= 1; got {raise_cap!r}")
    opening, raises, closing = _split_round(text)
    if raises > raise_cap and closing:
        raises = raise_cap
    elif raises > raise_cap:
        raises = raise_cap if (raises - raise_cap) % 2 == 0 else raise_cap - 1
    return opening + "r" * raises + closing


def translate_leduc_key(key: str, raise_cap: int) -> str:
    """Map a Leduc infoset key to the game with ``raise_cap`` raises per round.

    ``"K|rrrr"`` -> ``"K|rr"`` with a cap of 2; round-2 keys ``"K|Q|rrrc|rrr"`` map both
    rounds. Cards are left as they are.

    Raises:
        SpecError: if the key is not a heads-up Leduc key.
    """
    fields = key.split("|")
    if len(fields) == 2:
        return f"{fields[0]}|{cap_raises(fields[1], raise_cap)}"
    if len(fields) == 4:
        first = cap_raises(fields[2], raise_cap)
        second = cap_raises(fields[3], raise_cap)
        return f"{fields[0]}|{fields[1]}|{first}|{second}"
    raise SpecError(f"{key!r} is not a Leduc infoset key (card|betting or card|board|r1|r2)")


__all__ = [
    "TRANSLATION_METHODS",
    "cap_raises",
    "pseudo_harmonic",
    "translate",
    "translate_leduc_key",
    "translation_probabilities",
]
