"""Where the streets of a Hold'em hand begin in its history (the searching Hard AI's).

A :class:`~pokerlab.games.holdem_state.HoldemState`'s history holds the hole cards, then the
actions and board cards in the order they came; the searcher roots a search where the
current street's betting began and finds an earlier street's search by the board cards'
positions.
"""

from __future__ import annotations

from collections.abc import Sequence

from pokerlab._types import Action
from pokerlab.games.base import Game
from pokerlab.games.holdem_state import HoldemState


def street_start(state: HoldemState, hole: int) -> int:
    """The length of the history when the current street's betting began.

    That is just after the last card dealt past the ``hole`` hole cards (the board), or
    after the hole cards preflop.
    """
    start = hole
    walk = state.game.initial_state()
    for k, action in enumerate(state.history):
        if k >= hole and walk.player < 0:
            start = k + 1
        walk = walk.child(action)
    return start


def card_positions(state: HoldemState, hole: int) -> set[int]:
    """Positions in the history of the board cards."""
    positions: set[int] = set()
    walk = state.game.initial_state()
    for k, action in enumerate(state.history):
        if k >= hole and walk.player < 0:
            positions.add(k)
        walk = walk.child(action)
    return positions


def last_card_start(state: HoldemState, hole: int) -> int:
    """The position of the first card of the current street's deal (its board cards)."""
    positions = sorted(card_positions(state, hole))
    if not positions:
        return hole
    start = positions[-1]
    while start - 1 in positions:
        start -= 1
    return start


def replay(game: Game, history: Sequence[Action]) -> HoldemState:
    """The state ``history`` reaches from the start of ``game``."""
    state = game.initial_state()
    for action in history:
        state = state.child(action)
    assert isinstance(state, HoldemState)
    return state


__all__ = ["card_positions", "last_card_start", "replay", "street_start"]
