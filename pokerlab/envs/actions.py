"""The discrete actions of an environment, and how they map to the game's actions.

An environment's action space is ``Discrete(n)`` with a mask of the legal indices, which is
what reinforcement-learning libraries expect (masked policies, masked argmax).

- Kuhn: ``0`` pass (check or fold), ``1`` bet (bet or call): the game's action ids.
- Leduc and limit Hold'em: ``0`` fold, ``1`` check or call, ``2`` bet or raise: the game's
  ids. Fold is masked when nothing is owed (a free check is never folded).
- No-limit Hold'em: ``0`` fold, ``1`` check or call, then one index per size of a bet menu
  in pokerlab's bet-size grammar (:mod:`pokerlab.games.bet_sizes`: ``"50%"`` a fraction of
  the pot, ``"2.5x"`` a multiple of the bet faced, ``"a"`` all-in; one list for every
  street or one per street separated by ``/``, serving bets and raises). The default,
  ``"50%,100%,a"``, is RLCard's five actions (fold, check/call, half pot, pot, all-in). A
  size's raise-to amount is the menu's (:func:`~pokerlab.games.bet_sizes.size_amount`,
  halves rounded away from zero), moved into the legal range (below the minimum raise: the
  minimum; above all-in: all-in), all-in where the menu's force threshold says so. An
  index is masked when raising is not legal, when its street has fewer sizes, when its
  size means nothing here (``"2.5x"`` facing no bet), when a later index raises to the same
  amount (so an all-in written last keeps all-in, and each legal index is a different
  move), or when the menu's merging threshold merges its amount into a larger one.
"""

from __future__ import annotations

import operator
from abc import ABC, abstractmethod

import numpy as np
from numpy.typing import NDArray

from pokerlab._types import Action
from pokerlab.errors import IllegalActionError, SpecError
from pokerlab.games import Game, HoldemGame, State
from pokerlab.games.bet_sizes import (
    BetMenu,
    merge_amounts,
    parse_bet_menu,
    round_chips,
    size_amount,
)
from pokerlab.games.betting_sequences import state_context
from pokerlab.games.holdem_rules import CALL, FOLD, RAISE, STREET_NAMES
from pokerlab.games.holdem_state import HoldemState

SLOTS_KEPT = 100_000
"""Betting histories whose no-limit slots a map keeps (then it starts over)."""
DEFAULT_BET_SIZES = "50%,100%,a"
"""The no-limit menu when none is given: half pot, pot, all-in (RLCard's)."""


class ActionMap(ABC):
    """The discrete actions of one game: names, the legal mask, and the game action of each.

    Attributes:
        n_actions: the size of the ``Discrete`` action space.
        names: what each index does.
    """

    n_actions: int
    names: tuple[str, ...]

    @abstractmethod
    def slots(self, state: State) -> tuple[Action | None, ...]:
        """The game action of each index at ``state`` (a decision), None where masked."""

    def mask(self, state: State) -> NDArray[np.int8]:
        """1 for each legal index at ``state``, else 0 (all 0 where no one decides)."""
        out = np.zeros(self.n_actions, dtype=np.int8)
        if state.player >= 0:
            for index, action in enumerate(self.slots(state)):
                if action is not None:
                    out[index] = 1
        return out

    def game_action(self, state: State, index: object) -> Action:
        """The game action of ``index`` at ``state``.

        Raises:
            IllegalActionError: if ``index`` is not an integer, out of range, or masked
                (the message lists the legal indices and what they do).
        """
        slots = self.slots(state)
        try:  # ints and numpy ints; not True, 1.0 or "1"
            position = -1 if isinstance(index, bool) else operator.index(index)  # type: ignore[arg-type]
        except TypeError:
            position = -1
        if 0 <= position < self.n_actions:
            action = slots[position]
            if action is not None:
                return action
        legal = ", ".join(
            f"{i} ({state.action_name(a)})" for i, a in enumerate(slots) if a is not None
        )
        raise IllegalActionError(f"action {index!r} is not legal here; legal: {legal}")


class FixedActions(ActionMap):
    """Games with fixed bet sizes (Kuhn, Leduc, limit Hold'em): an index is the game action."""

    def __init__(self, game: Game) -> None:
        self.n_actions = game.max_actions
        self.names = tuple(game.action_name(a) for a in range(self.n_actions))
        self._empty: tuple[Action | None, ...] = (None,) * self.n_actions
        self._by_legal: dict[tuple[Action, ...], tuple[Action | None, ...]] = {}

    def slots(self, state: State) -> tuple[Action | None, ...]:
        """The legal game actions in their own positions, None elsewhere."""
        legal = state.legal_actions()
        slots = self._by_legal.get(legal)
        if slots is None:
            filled = list(self._empty)
            for action in legal:
                filled[action] = action
            slots = self._by_legal[legal] = tuple(filled)
        return slots


class MenuActions(ActionMap):
    """No-limit Hold'em: fold, check/call, and one index per size of a bet menu.

    Args:
        game: a no-limit Hold'em game.
        menu: the bet menu (text in pokerlab's grammar, or parsed).
    """

    def __init__(self, game: HoldemGame, menu: BetMenu) -> None:
        if not menu.shared or menu.raises.split_by_player or menu.donks is not None or (
            menu.add_all_in_threshold > 0
        ):
            raise SpecError(
                "an environment's action space takes one list of sizes per street for every "
                "player (bets and raises alike), without donk sizes or an add-all-in "
                f"threshold (write 'a' among the sizes); got {menu!s} with "
                f"{menu.to_options()}"
            )
        self.menu = menu
        streets = [oop for oop, _ in menu.raises.by_street]
        width = max(len(sizes) for sizes in streets)
        if width == 0:
            raise SpecError(f"the bet menu {str(menu)!r} has no size on any street")
        self.n_actions = 2 + width
        names = ["fold", "check/call"]
        for j in range(width):
            texts = [str(sizes[j]) if j < len(sizes) else "-" for sizes in streets]
            names.append(texts[0] if len(set(texts)) == 1 else "/".join(texts))
        self.names = tuple(names)
        self._by_betting: dict[tuple[tuple[Action, ...], ...], tuple[Action | None, ...]] = {}

    def slots(self, state: State) -> tuple[Action | None, ...]:
        """Fold (when owed), call, then each size's raise (see the module docstring).

        The slots depend on the betting only (the chips, the bounds): they are worked out
        once per betting history and kept (up to :data:`SLOTS_KEPT` histories).
        """
        assert isinstance(state, HoldemState)
        betting = state.betting
        slots = self._by_betting.get(betting)
        if slots is None:
            slots = self._work_out(state)
            kept = self._by_betting
            if len(kept) >= SLOTS_KEPT:
                kept.clear()
            kept[betting] = slots
        return slots

    def _work_out(self, state: HoldemState) -> tuple[Action | None, ...]:
        player = state.to_act
        out: list[Action | None] = [FOLD if state.to_call(player) > 0 else None, CALL]
        menu = self.menu
        sizes = menu.raises.sizes(state.street, player)
        amounts: list[int | None] = [None] * (self.n_actions - 2)
        context = state_context(state)
        if context is not None and (menu.raise_cap is None
                                    or context.raise_count < menu.raise_cap):
            low, high, faced = context.low, context.high, context.faced
            pot = context.pot_after_call
            force = menu.force_all_in_threshold
            seen: set[int] = set()
            for j in range(len(sizes) - 1, -1, -1):  # the last index keeps a repeated amount
                amount = size_amount(sizes[j], context)
                if amount is None:
                    continue
                amount = min(max(amount, low), high)
                left = round_chips((pot + 2 * (amount - faced)) * force)
                if force > 0 and high <= amount + left:
                    amount = high
                if amount not in seen:
                    seen.add(amount)
                    amounts[j] = amount
            if menu.merging_threshold > 0 and len(seen) > 1:
                kept = set(merge_amounts(sorted(seen), faced=faced, pot=pot,
                                         threshold=menu.merging_threshold))
                amounts = [a if a in kept else None for a in amounts]
        out.extend(None if a is None else RAISE + a for a in amounts)
        return tuple(out)


def action_map(
    game: Game,
    *,
    bet_sizes: str | BetMenu | None = None,
    force_all_in_threshold: float | None = None,
) -> ActionMap:
    """The discrete actions of ``game`` (see the module docstring).

    Args:
        game: a Kuhn, Leduc or Hold'em game.
        bet_sizes: no-limit only: the bet menu (default :data:`DEFAULT_BET_SIZES`).
        force_all_in_threshold: no-limit only: a size leaving at most this many pots
            behind after a call becomes all-in (:mod:`pokerlab.games.bet_sizes`).

    Raises:
        SpecError: a bet menu for a game without no-limit betting, or one that cannot be read.

    Example:
        >>> from pokerlab.games import load
        >>> action_map(load("holdem")).names
        ('fold', 'check/call', '50%', '100%', 'a')
    """
    no_limit = isinstance(game, HoldemGame) and game.no_limit
    if not no_limit:
        if bet_sizes is not None or force_all_in_threshold is not None:
            raise SpecError(
                f"bet sizes are for no-limit Hold'em; {game.spec} has fixed bet sizes"
            )
        return FixedActions(game)
    assert isinstance(game, HoldemGame)
    n_streets = game.rules.n_streets
    if isinstance(bet_sizes, BetMenu):
        if force_all_in_threshold is not None:
            raise SpecError("give force_all_in_threshold in the parsed BetMenu, not beside it")
        menu = bet_sizes
        if len(menu.raises.by_street) != n_streets:
            raise SpecError(
                f"the bet menu has {len(menu.raises.by_street)} streets; {game.spec} has "
                f"{n_streets}"
            )
    else:
        menu = parse_bet_menu(
            DEFAULT_BET_SIZES if bet_sizes is None else bet_sizes,
            names=STREET_NAMES[:n_streets], players=game.n_players,
            force_all_in_threshold=force_all_in_threshold or 0.0,
        )  # fmt: skip
    return MenuActions(game, menu)


__all__ = [
    "DEFAULT_BET_SIZES",
    "SLOTS_KEPT",
    "ActionMap",
    "FixedActions",
    "MenuActions",
    "action_map",
]
