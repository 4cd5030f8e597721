"""An opponent that bets off the menu: a base policy's bets moved to sizes its menu lacks.

A no-limit blueprint offers a few sizes (the Hard AI's: 50% and 100% of the pot, all-in)
and translates any other bet into them (pseudo-harmonic mapping); an opponent betting
between those sizes is where translation errs, and where the searching Hard AI, which adds
the bet to its subgame as it was made, should do better (issue 24). :class:`OffMenuPolicy`
plays a base policy (the blueprint) with each of its sized bets moved off that menu:

- a first bet of the street, ``f`` of the pot, becomes one of the two off-menu sizes
  around ``f`` (by default 37%, 70% and 140% of the pot), each at half the probability;
  the nearest one where ``f`` lies below or above them all (the blueprint's 50% becomes
  37% or 70%, its 100% 70% or 140%);
- a raise (a bet faced, preflop the big blind) becomes a raise to 3.3 times the bet faced;
- all-ins, calls, checks and folds stay as the base plays them.

A size past the stack is all-in and one under the smallest legal raise is that raise (the
engine's bounds). The result is a :class:`~pokerlab.strategy.Policy`: AIVAT and LBR read
it as they read the blueprint. :class:`OffMenuBettor` plays it (``hard-offmenu``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from pokerlab._types import Action
from pokerlab.errors import SpecError
from pokerlab.games import load
from pokerlab.games.base import Game
from pokerlab.games.bet_sizes import BetContext, round_chips
from pokerlab.games.betting_sequences import state_context
from pokerlab.games.holdem_rules import RAISE
from pokerlab.games.observation import Observation
from pokerlab.play.dealer import reseed
from pokerlab.strategy.policy import Policy, sample_action

OFF_MENU_BETS = (0.37, 0.70, 1.40)
"""The first bets of a street the off-menu bettor makes, as fractions of the pot."""

OFF_MENU_RAISE = 3.3
"""Its raises: to this many times the bet faced."""


def off_menu_amounts(context: BetContext, amount: int, bets: Sequence[float] = OFF_MENU_BETS,
                     raise_to: float = OFF_MENU_RAISE) -> dict[int, float]:
    """Where a raise to ``amount`` goes: ``{raise-to amount: share}`` (shares sum to 1).

    All-in stays all-in; a first bet of the street moves to the sizes of ``bets`` around
    its fraction of the pot (half each), a raise to ``raise_to`` times the bet faced; every
    amount is kept within the legal ``[context.low, context.high]``.

    Example:
        >>> context = BetContext(2, 0, faced=0, pot=100, to_call=0, low=2, high=900)
        >>> off_menu_amounts(context, 50)  # the blueprint's half-pot bet
        {37: 0.5, 70: 0.5}
        >>> off_menu_amounts(BetContext(2, 1, faced=50, pot=150, to_call=50, low=100,
        ...                             high=900), 250)
        {165: 1.0}
    """
    if amount >= context.high:
        return {context.high: 1.0}
    if context.faced > 0:
        targets = [round_chips(raise_to * context.faced)]
    else:
        fraction = (amount - context.faced) / max(context.pot_after_call, 1)
        below = [s for s in bets if s <= fraction]
        above = [s for s in bets if s >= fraction]
        sizes = sorted({max(below, default=min(bets)), min(above, default=max(bets))})
        targets = [context.faced + round_chips(context.pot_after_call * s) for s in sizes]
    shares: dict[int, float] = {}
    for target in targets:
        legal = min(max(target, context.low), context.high)
        shares[legal] = shares.get(legal, 0.0) + 1.0 / len(targets)
    return shares


def _require_no_limit(game: Game) -> None:
    """Refuse a game without bet sizes to move (limit, or not Hold'em)."""
    rules = getattr(game, "rules", None)
    if game.spec.name != "holdem" or rules is None or not rules.no_limit:
        raise SpecError(f"the off-menu bettor (hard-offmenu) moves no-limit bets; {game.spec} "
                        "is not no-limit holdem")


class OffMenuPolicy:
    """A base policy with its sized bets moved off the menu (see the module docstring).

    Args:
        base: the policy played (no-limit Hold'em; the Hard AI's blueprint).
        bets: first bets, as fractions of the pot (each in (0, 100]).
        raise_to: raises, as the multiple of the bet faced (> 1).

    Raises:
        SpecError: a base that plays no no-limit Hold'em game, or sizes out of range.
    """

    def __init__(self, base: Policy, *, bets: Sequence[float] = OFF_MENU_BETS,
                 raise_to: float = OFF_MENU_RAISE) -> None:
        _require_no_limit(base.game)
        if not bets or any(not 0 < b <= 100 for b in bets):
            raise SpecError(f"off-menu bets are fractions of the pot in (0, 100]; got {bets!r}")
        if not raise_to > 1:
            raise SpecError(f"raise_to must be a multiple of the bet faced > 1; got {raise_to!r}")
        self.base = base
        self.bets = tuple(sorted(float(b) for b in bets))
        self.raise_to = float(raise_to)
        self._games: dict[str, Game] = {str(base.game.spec): base.game}

    @property
    def game(self) -> Game:
        """The base's game."""
        return self.base.game

    def action_probabilities(self, observation: Observation) -> dict[Action, float]:
        """The base's probabilities, each sized raise's moved to its off-menu amounts."""
        probabilities = self.base.action_probabilities(observation)
        if not any(a >= RAISE and p > 0 for a, p in probabilities.items()):
            return dict(probabilities)
        context = state_context(self._game(observation).public_state(  # type: ignore[attr-defined]
            observation))
        out: dict[Action, float] = {}
        for action, p in probabilities.items():
            if action < RAISE or context is None or p <= 0:
                out[action] = out.get(action, 0.0) + p
                continue
            for amount, share in off_menu_amounts(context, action - RAISE, self.bets,
                                                  self.raise_to).items():
                moved = RAISE + amount
                out[moved] = out.get(moved, 0.0) + p * share
        return out

    def _game(self, observation: Observation) -> Game:
        game = self._games.get(observation.game)
        if game is None:
            game = self._games[observation.game] = load(observation.game)
        return game


class OffMenuBettor:
    """The Hard AI's blueprint betting off its menu (``hard-offmenu``).

    Args:
        game: a no-limit Hold'em game.
        base: the agent whose policy is moved (default: the Hard AI's default blueprint).
        seed: its randomness; matches reseed it per hand.
        cache_dir: the cache root of the default blueprint.

    Raises:
        SpecError: a limit game (one raise size: nothing to move) or one the Hard AI
            does not play.
    """

    name = "hard-offmenu"

    def __init__(self, game: Game, *, base: object | None = None,
                 seed: np.random.Generator | int | None = None,
                 cache_dir: str | Path | None = None) -> None:
        _require_no_limit(game)  # before the default blueprint is loaded (or trained)
        if base is None:
            from pokerlab.agents.hard import HardAI

            base = HardAI(game, cache_dir=cache_dir)
        self.base = base
        self.policy = OffMenuPolicy(base.policy)  # type: ignore[attr-defined]
        self.rng = np.random.default_rng(seed)

    def seed(self, value: int) -> None:
        """Restart the generator from ``value`` (called by matches before each hand)."""
        self.rng = reseed(self.rng, value)

    def check_game(self, game: Game) -> None:
        """Refuse, before a match, a game the base cannot play (its own check)."""
        check = getattr(self.base, "check_game", None)
        if check is not None:
            check(game)

    def act(self, observation: Observation) -> Action:
        """Sample an action from the moved probabilities."""
        return sample_action(self.policy.action_probabilities(observation), self.rng)


__all__ = ["OFF_MENU_BETS", "OFF_MENU_RAISE", "OffMenuBettor", "OffMenuPolicy",
           "off_menu_amounts"]
