"""The analytical equilibria of 3-card Kuhn poker (section 3.2 of the AI Poker Tutorial).

Every Nash equilibrium of 2-player 3-card Kuhn poker (cards Q < K < A) belongs to a
one-parameter family (Kuhn 1950). With ``y`` the probability that P1 bets the A:

- P1 opens: bets the A with ``y``, bluffs the Q with ``x = y / 3``, never bets the K;
- P1 after check-bet: calls with the A, calls with the K with ``z = (y + 1) / 3``, folds the Q;
- P2 facing a bet: calls with the A, calls with the K with ``a = 1 / 3``, folds the Q;
- P2 after a check: bets the A, bluffs the Q with ``b = 1 / 3``, checks the K.

P1's value is ``-1/18`` chips per hand whatever ``y`` (the tutorial's ``17/18 - 1``).
"""

from __future__ import annotations

import math

from pokerlab.errors import SpecError
from pokerlab.games.kuhn import kuhn
from pokerlab.strategy.strategy import Strategy

KUHN_VALUE = -1.0 / 18.0
"""P1's equilibrium value of 3-card Kuhn poker, in chips per hand."""


def kuhn_equilibrium(y: float = 1.0 / 3.0) -> Strategy:
    """Return the equilibrium of 3-card Kuhn poker in which P1 bets the A with probability ``y``.

    Rows are ``[pass, bet]`` at each infoset (pass is check or fold, bet is bet or call);
    see the module docstring for the whole family.

    Args:
        y: P1's probability of betting the A, in ``[0, 1]``.

    Raises:
        SpecError: if ``y`` is not a number in ``[0, 1]``.

    Example:
        >>> strategy = kuhn_equilibrium(0.6)
        >>> round(strategy.probabilities("Q|")[1], 9), round(strategy.probabilities("K|pb")[1], 9)
        (0.2, 0.533333333)
    """
    if isinstance(y, bool) or not isinstance(y, int | float) or not math.isfinite(y):
        raise SpecError(
            f"y (P1's probability of betting the A) must be a number in [0, 1]; got {y!r}"
        )
    if not 0.0 <= y <= 1.0:
        raise SpecError(f"y (P1's probability of betting the A) must be in [0, 1]; got {y!r}")
    y = float(y)
    x = y / 3.0  # P1 bluffs the Q
    z = (y + 1.0) / 3.0  # P1 calls with the K after check-bet
    a = 1.0 / 3.0  # P2 calls with the K facing a bet
    b = 1.0 / 3.0  # P2 bluffs the Q after a check
    rows = {
        # P1 opening
        "A|": [1.0 - y, y],
        "K|": [1.0, 0.0],
        "Q|": [1.0 - x, x],
        # P1 after check-bet
        "A|pb": [0.0, 1.0],
        "K|pb": [1.0 - z, z],
        "Q|pb": [1.0, 0.0],
        # P2 facing a bet
        "A|b": [0.0, 1.0],
        "K|b": [1.0 - a, a],
        "Q|b": [1.0, 0.0],
        # P2 after a check
        "A|p": [0.0, 1.0],
        "K|p": [1.0, 0.0],
        "Q|p": [1.0 - b, b],
    }
    strategy = Strategy.from_dict(kuhn(), rows, default="error")
    return strategy.with_metadata(algorithm="analytical", y=y, value=KUHN_VALUE)
