"""The probability triple: (fold, call, raise) from effective hand strength (Loki-2, 1999).

Billings, Peña, Schaeffer and Szafron ("Using probabilistic knowledge and simulation to
play poker", AAAI-99) replaced Loki's deterministic betting rules by a function returning a
*probability triple* ``(f, c, r)``, ``f + c + r = 1``: how likely a fold, a check or call,
and a bet or raise are, given the hand's effective hand strength (EHS) and the situation.
Peña's thesis tells how it was built: Loki-1's thresholds translated into pure triples,
then the boundaries between actions smoothed. The same function serves three purposes:
the bot's own betting (it samples the triple), and, in the opponent model, the chance
that an opponent holding each hand would have taken the action he took.

Our mapping (the papers do not print theirs), with ``ramp(x) = clip(x / (2 * SPREAD) +
1/2, 0, 1)``, a line rising from 0 at ``-SPREAD`` to 1 at ``+SPREAD``:

- nothing to call: ``r = ramp(EHS - bet_at)``, ``c = 1 - r``, ``f = 0`` (a free check is
  never a fold);
- facing a bet: ``r = ramp(EHS - raise_at)``; the chance to go on is ``k = max(r,
  ramp(EHS - call_at), ramp(draw - pot odds))``; ``c = k - r``, ``f = 1 - k``. ``draw`` is
  the hand's chance to win the pot it pays for: PPOT on the flop and turn (Loki's pot-odds
  call with a drawing hand), the hand strength on the river and the all-in equity preflop
  (both its EHS there). Pot odds are ``owed / (pot + owed)``.

So for a fixed situation ``f`` never rises and ``r`` never falls as EHS rises. Thresholds
(:func:`default_thresholds`): after the flop Loki-1's 0.5 ("make 1": bet when unopened, call
a bet) and 0.85 ("make 2": raise), preflop ours (Loki played preflop from income-rate
tables we do not reproduce): 0.45 to call, 0.65 to raise or to raise an unraised pot; each
bet beyond the first raises the call and raise thresholds by :data:`BET_STEP`, up to
``1 - SPREAD`` (the nuts always raise).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from pokerlab.errors import SpecError

Floats = NDArray[np.float64]

FOLD_ACTION, CALL_ACTION, RAISE_ACTION = range(3)
"""Columns of a triple: fold, check or call, bet or raise."""
SPREAD = 0.05
"""Half-width of the ramps that smooth each threshold into a probability."""
BET_STEP = 0.05
"""How much each bet beyond the first raises the call and raise thresholds."""
POSTFLOP_BET = 0.5
"""After the flop: bet at or above this EHS when nothing is owed (Loki-1's make 1)."""
POSTFLOP_CALL = 0.5
"""After the flop: call a bet at or above this EHS (make 1)."""
POSTFLOP_RAISE = 0.85
"""After the flop: raise a bet at or above this EHS (make 2)."""
PREFLOP_BET = 0.65
"""Preflop: raise an unraised pot when nothing is owed (the big blind's option)."""
PREFLOP_CALL = 0.45
"""Preflop: call at or above this equity."""
PREFLOP_RAISE = 0.65
"""Preflop: raise at or above this equity."""
STREETS = 4
"""Preflop, flop, turn, river."""
_ROUNDING = 1e-9  # sums of weights may pass 1 by this much


@dataclass(frozen=True)
class Situation:
    """What a betting decision depends on besides the cards.

    Attributes:
        street: 0 preflop, 1 flop, 2 turn, 3 river.
        bets: bets and raises made this round before the decision, the big blind counted
            preflop (Loki's "bets to call" context).
        owed: chips to call.
        pot: chips in the pot before calling.
    """

    street: int
    bets: int
    owed: float
    pot: float

    def __post_init__(self) -> None:
        if not 0 <= self.street < STREETS or self.bets < 0 or self.owed < 0 or self.pot < 0:
            raise SpecError(f"a situation has street 0..3 and bets, owed and pot >= 0; got "
                            f"{self}")

    @property
    def facing(self) -> bool:
        """True when there is something to call."""
        return self.owed > 0

    @property
    def pot_odds(self) -> float:
        """The share of the final pot a call pays: ``owed / (pot + owed)``."""
        return self.owed / (self.pot + self.owed) if self.owed > 0 else 0.0


@dataclass(frozen=True)
class Thresholds:
    """The EHS at which each ramp is half way.

    Attributes:
        bet_at: bet when nothing is owed.
        call_at: go on (call or raise) when facing a bet.
        raise_at: raise when facing a bet.
    """

    bet_at: float
    call_at: float
    raise_at: float


def default_thresholds(situation: Situation) -> Thresholds:
    """The bot's thresholds in ``situation`` (module docstring)."""
    extra = BET_STEP * max(situation.bets - 1, 0)
    top = 1.0 - SPREAD  # the nuts always raise
    if situation.street == 0:
        return Thresholds(PREFLOP_BET, min(PREFLOP_CALL + extra, top),
                          min(PREFLOP_RAISE + extra, top))
    return Thresholds(POSTFLOP_BET, min(POSTFLOP_CALL + extra, top),
                      min(POSTFLOP_RAISE + extra, top))


def _ramp(x: Floats) -> Floats:
    return np.clip(x / (2.0 * SPREAD) + 0.5, 0.0, 1.0)


def drawing_chance(street: int, ehs: ArrayLike, ppot: ArrayLike) -> Floats:
    """The chance weighed against pot odds: PPOT on the flop and turn, else EHS."""
    return np.asarray(ppot if street in (1, 2) else ehs, dtype=np.float64)


def probability_triple(
    ehs: ArrayLike,
    draw: ArrayLike,
    situation: Situation,
    thresholds: Thresholds | None = None,
    *,
    pot_odds: bool = True,
) -> Floats:
    """``(fold, call, raise)`` probabilities for each EHS (module docstring).

    Args:
        ehs: effective hand strengths in [0, 1] (any shape).
        draw: the chance weighed against pot odds (:func:`drawing_chance`), same shape.
        situation: the decision's situation.
        thresholds: the ramps' centres; :func:`default_thresholds` when None.
        pot_odds: whether a drawing chance above the pot odds keeps the hand in.

    Returns:
        ``[..., 3]`` triples, each summing to 1.

    Raises:
        SpecError: for an EHS or drawing chance that is not a number in [0, 1].
    """
    strength = np.asarray(ehs, dtype=np.float64)
    chance = np.broadcast_to(np.asarray(draw, dtype=np.float64), strength.shape)
    for name, values in (("EHS", strength), ("drawing chance", chance)):
        if values.size and not (np.all(values >= -_ROUNDING) and np.all(values <= 1 + _ROUNDING)):
            raise SpecError(f"every {name} must be a number in [0, 1]")
    strength = np.clip(strength, 0.0, 1.0)  # rounding only, as checked above
    chance = np.clip(chance, 0.0, 1.0)
    levels = default_thresholds(situation) if thresholds is None else thresholds
    triple = np.zeros((*strength.shape, 3))
    if not situation.facing:
        raising = _ramp(strength - levels.bet_at)
        triple[..., CALL_ACTION] = 1.0 - raising
        triple[..., RAISE_ACTION] = raising
        return triple
    raising = _ramp(strength - levels.raise_at)
    going_on = np.maximum(raising, _ramp(strength - levels.call_at))
    if pot_odds:
        going_on = np.maximum(going_on, _ramp(chance - situation.pot_odds))
    triple[..., FOLD_ACTION] = 1.0 - going_on
    triple[..., CALL_ACTION] = going_on - raising
    triple[..., RAISE_ACTION] = raising
    return triple


__all__ = [
    "BET_STEP",
    "CALL_ACTION",
    "FOLD_ACTION",
    "POSTFLOP_BET",
    "POSTFLOP_CALL",
    "POSTFLOP_RAISE",
    "PREFLOP_BET",
    "PREFLOP_CALL",
    "PREFLOP_RAISE",
    "RAISE_ACTION",
    "SPREAD",
    "STREETS",
    "Situation",
    "Thresholds",
    "default_thresholds",
    "drawing_chance",
    "probability_triple",
]
