"""The analytical equilibria of 3-card Kuhn poker (section 3.2 of the AI Poker Tutorial).

Every Nash equilibrium of 2-player 3-card Kuhn poker (cards Q < K < A, ante 1, bet 1)
belongs to a one-parameter family (Kuhn 1950). With ``y`` the probability that P1 bets
the A:

- P1 opens: bets the A with ``y``, bluffs the Q with ``x = y / 3``, never bets the K;
- P1 after check-bet: calls with the A, calls with the K with ``z = (y + 1) / 3``, folds the Q;
- P2 facing a bet: calls with the A, calls with the K with ``a = 1 / 3``, folds the Q;
- P2 after a check: bets the A, bluffs the Q with ``b = 1 / 3``, checks the K.

P1's value is ``-1/18`` chips per hand whatever ``y`` (the tutorial's ``17/18 - 1``).

Other antes and bets (``kuhn(ante=..., bet=...)``), solved by the same indifference
principle (each mixed choice keeps the opponent's indifferent hand indifferent):

- ``x = y * bet / (2 ante + bet)``, ``z = (2 ante - bet + y * bet) / (2 ante + bet)``;
- ``a = (2 ante - bet) / (2 ante + bet)``, ``b = bet / (2 ante + bet)``;
- against that P2, betting the A instead of checking it gains P1
  ``bet * (ante - bet) / (2 ante + bet)`` chips per hand in which P1 holds the A
  (``bet / 2 * (a - b)``): zero only when ``ante == bet``. So ``y`` is free only when the
  ante equals the bet (the tutorial's $2 pot and $1 bet, or any multiple); P1 always bets
  the A when the bet is smaller than the ante (``y = 1``) and always checks it when the
  bet is larger, up to twice the ante (``y = 0``, and then ``x = 0``): section 3.2's remark
  that "if the pot did not start at $2, P1 should always bet or always check the A".
- when the bet is more than twice the ante, nobody bluffs or calls with the K
  (``x = z = a = b = 0``) and the game is worth 0; betting the A then wins no more than
  checking it (nobody calls), and ``y`` may be anything up to ``1 - 2 ante / bet`` (beyond
  that P1's checks hold so few A's that P2's Q would bluff). At exactly twice the ante the
  formulas above still hold (``x = z = a = 0``, ``b = 1/2``) and the game is worth 0 too.

P1's value (chips per hand): ``-bet^2 / (6 (2 ante + bet))`` for ``bet <= ante``,
``-bet (2 ante - bet) / (6 (2 ante + bet))`` for ``ante <= bet <= 2 ante``, and 0 beyond.
Where the bet is above the ante, P2's call with the K is only bounded (any ``a`` in
``[(2 ante - bet) / (2 ante + bet), bet / (2 ante + bet)]`` works, since P1 never bets);
:func:`kuhn_equilibrium` takes the lower end. The sequence-form LP agrees with these values
(``tests/strategy/test_kuhn_solution.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from pokerlab.errors import SpecError
from pokerlab.games.kuhn import kuhn
from pokerlab.strategy.strategy import Strategy

KUHN_VALUE = -1.0 / 18.0
"""P1's equilibrium value of 3-card Kuhn poker (ante 1, bet 1), in chips per hand."""


@dataclass(frozen=True)
class KuhnEquilibrium:
    """The tutorial's five probabilities of one Kuhn equilibrium, for one ante and bet.

    Attributes:
        ante: chips each player antes.
        bet: the bet size, in chips.
        y: P1 bets the A.
        x: P1 bluffs (bets) the Q.
        z: P1 calls with the K after checking and facing a bet.
        a: P2 calls with the K facing a bet.
        b: P2 bluffs (bets) the Q after a check.
    """

    ante: int
    bet: int
    y: float
    x: float
    z: float
    a: float
    b: float


def _check_chips(ante: object, bet: object) -> tuple[int, int]:
    for name, value in (("ante", ante), ("bet", bet)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise SpecError(f"{name} must be a whole number of chips >= 1; got {value!r}")
    assert isinstance(ante, int)
    assert isinstance(bet, int)
    return ante, bet


def kuhn_value(*, ante: int = 1, bet: int = 1) -> Fraction:
    """Return P1's equilibrium value of 2-player 3-card Kuhn poker, exactly, in chips per hand.

    Raises:
        SpecError: if ``ante`` or ``bet`` is not a whole number of chips >= 1.

    Example:
        >>> kuhn_value(), kuhn_value(ante=2, bet=1), kuhn_value(ante=1, bet=2)
        (Fraction(-1, 18), Fraction(-1, 30), Fraction(0, 1))
    """
    ante, bet = _check_chips(ante, bet)
    if bet <= ante:
        return Fraction(-bet * bet, 6 * (2 * ante + bet))
    if bet <= 2 * ante:
        return Fraction(-bet * (2 * ante - bet), 6 * (2 * ante + bet))
    return Fraction(0)


def y_range(*, ante: int = 1, bet: int = 1) -> tuple[float, float]:
    """The probabilities of betting the A that some equilibrium of P1 uses: ``(low, high)``.

    ``(0, 1)`` when ``ante == bet``; ``(1, 1)`` when the bet is smaller than the ante;
    ``(0, 0)`` when it is larger, up to twice the ante; ``(0, 1 - 2 ante / bet)`` beyond.

    Example:
        >>> y_range(), y_range(ante=2, bet=1), y_range(ante=2, bet=3), y_range(ante=1, bet=4)
        ((0.0, 1.0), (1.0, 1.0), (0.0, 0.0), (0.0, 0.5))
    """
    ante, bet = _check_chips(ante, bet)
    if ante == bet:
        return (0.0, 1.0)
    if bet < ante:
        return (1.0, 1.0)
    if bet <= 2 * ante:
        return (0.0, 0.0)
    return (0.0, 1.0 - 2.0 * ante / bet)


def equilibrium_parameters(
    y: float | None = None, *, ante: int = 1, bet: int = 1
) -> KuhnEquilibrium:
    """Return the tutorial's ``x, y, z, a, b`` of the equilibrium with P1 betting the A with ``y``.

    Args:
        y: P1's probability of betting the A, in :func:`y_range` (None: 1/3 when the
            ante equals the bet, else the lowest value of the range).
        ante: chips each player antes.
        bet: the bet size.

    Raises:
        SpecError: if ``y`` is not a number in ``[0, 1]``, or is outside :func:`y_range`
            for this ante and bet, or ``ante``/``bet`` are not chips >= 1.

    Example:
        >>> p = equilibrium_parameters(ante=2, bet=1)
        >>> p.y, round(p.x, 6), round(p.z, 6), round(p.a, 6), round(p.b, 6)
        (1.0, 0.2, 0.8, 0.6, 0.2)
    """
    ante, bet = _check_chips(ante, bet)
    low, high = y_range(ante=ante, bet=bet)
    if y is None:
        y = 1.0 / 3.0 if ante == bet else low
    if isinstance(y, bool) or not isinstance(y, int | float) or not math.isfinite(y):
        raise SpecError(
            f"y (P1's probability of betting the A) must be a number in [0, 1]; got {y!r}"
        )
    if not 0.0 <= y <= 1.0:
        raise SpecError(f"y (P1's probability of betting the A) must be in [0, 1]; got {y!r}")
    y = float(y)
    if not low <= y <= high:
        which = (
            "always bets" if low == 1.0 else "always checks" if high == 0.0
            else f"bets with probability at most {high:g}"
        )
        raise SpecError(
            f"with ante {ante} and bet {bet}, P1 {which} the A at equilibrium (y in "
            f"[{low:g}, {high:g}]); got y={y!r}; y is free only when the ante equals the bet"
        )
    pot_and_bet = 2 * ante + bet
    if bet > 2 * ante:  # nobody bluffs, nobody calls with the K; the game is worth 0
        return KuhnEquilibrium(ante, bet, y=y, x=0.0, z=0.0, a=0.0, b=0.0)
    return KuhnEquilibrium(
        ante,
        bet,
        y=y,
        x=y * bet / pot_and_bet,
        z=(2 * ante - bet + y * bet) / pot_and_bet,
        a=(2 * ante - bet) / pot_and_bet,
        b=bet / pot_and_bet,
    )


def kuhn_equilibrium(y: float | None = None, *, ante: int = 1, bet: int = 1) -> Strategy:
    """Return the equilibrium of 3-card Kuhn poker in which P1 bets the A with probability ``y``.

    Rows are ``[pass, bet]`` at each infoset (pass is check or fold, bet is bet or call);
    see the module docstring for the whole family and for other antes and bets.

    Args:
        y: P1's probability of betting the A, in :func:`y_range` (None: 1/3 when the ante
            equals the bet, else the lowest value an equilibrium allows).
        ante: chips each player antes (``kuhn(ante=...)``).
        bet: the bet size (``kuhn(bet=...)``).

    Raises:
        SpecError: if ``y`` is not a number in :func:`y_range` for this ante and bet, or
            ``ante`` or ``bet`` is not a whole number >= 1.

    Example:
        >>> strategy = kuhn_equilibrium(0.6)
        >>> round(strategy.probabilities("Q|")[1], 9), round(strategy.probabilities("K|pb")[1], 9)
        (0.2, 0.533333333)
        >>> kuhn_equilibrium(ante=1, bet=2).probabilities("A|")   # a big bet: check the A
        {0: 1.0, 1: 0.0}
    """
    p = equilibrium_parameters(y, ante=ante, bet=bet)
    rows = {
        # P1 opening
        "A|": [1.0 - p.y, p.y],
        "K|": [1.0, 0.0],
        "Q|": [1.0 - p.x, p.x],
        # P1 after check-bet
        "A|pb": [0.0, 1.0],
        "K|pb": [1.0 - p.z, p.z],
        "Q|pb": [1.0, 0.0],
        # P2 facing a bet
        "A|b": [0.0, 1.0],
        "K|b": [1.0 - p.a, p.a],
        "Q|b": [1.0, 0.0],
        # P2 after a check
        "A|p": [0.0, 1.0],
        "K|p": [1.0, 0.0],
        "Q|p": [1.0 - p.b, p.b],
    }
    game = kuhn(ante=ante, bet=bet)
    value = float(kuhn_value(ante=ante, bet=bet))
    strategy = Strategy.from_dict(game, rows, default="error")
    return strategy.with_metadata(algorithm="analytical", y=p.y, value=value)
