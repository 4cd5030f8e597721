"""Texas Hold'em, limit and no-limit, 2 to 9 players, one hand per game.

``holdem(players=6, betting="limit")`` or ``load("holdem", ...)`` builds a game. Every
public name of Hold'em is importable from here; the engine is split by job:

- :mod:`.holdem_rules`: seats, chips, action ids, the betting rules, the deck and the
  streets (:class:`~pokerlab.games.holdem_rules.HoldemRules`, checked from a spec);
- :mod:`.holdem_state`: :class:`HoldemGame` and :class:`HoldemState` (who acts, what is
  legal, the transitions, chance, infoset keys);
- :mod:`.holdem_pots`: pots and settlement (:class:`Pot`, :class:`Settlement`);
- :mod:`.holdem_public`: an observation replayed into the state its seat may know;
- :mod:`.holdem_size`: the number of histories, game states and infosets;
- :mod:`.holdem_session`: hand after hand at one table, the button moving round.
"""

from __future__ import annotations

from collections.abc import Sequence

from pokerlab.games.holdem_pots import Pot, Settlement
from pokerlab.games.holdem_rules import (
    BOARD_SIZES,
    CALL,
    FOLD,
    RAISE,
    STREET_NAMES,
    HoldemRules,
)
from pokerlab.games.holdem_size import HoldemSize
from pokerlab.games.holdem_state import HoldemGame, HoldemState
from pokerlab.games.registry import load


def holdem(
    *,
    players: int = 2,
    betting: str = "nolimit",
    blinds: tuple[int, int] = (1, 2),
    ante: int = 0,
    stack: int | Sequence[int] = 200,
    cap: int = 4,
    ranks: int = 13,
    suits: int = 4,
    hole: int = 2,
    board: str = "3,1,1",
    raises: str = "",
    caps: str = "",
    first: str = "",
    seat_blinds: Sequence[int] | None = None,
) -> HoldemGame:
    """Return a Hold'em game; ``holdem(players=6, betting="limit")`` is 6-max limit Texas.

    The defaults are Texas Hold'em; ``ranks``, ``suits``, ``hole``, ``board``, ``raises``,
    ``caps``, ``first`` and ``seat_blinds`` (the ACPC game definition's fields) make other
    Hold'em games: see :mod:`pokerlab.games.holdem_rules` and :func:`rhode_island_acpc`.

    Example:
        >>> game = holdem(stack=100)
        >>> state = game.initial_state().apply_sequence([51, 50, 47, 46])  # P0: As Ks, P1: Ah Kh
        >>> state.player, state.raise_range(), state.infoset_key()
        (1, (4, 100), 'AhKh|')
    """
    stack_value: object = stack if isinstance(stack, int) else tuple(stack)
    game = load(
        "holdem",
        players=players,
        betting=betting,
        blinds=tuple(blinds),
        ante=ante,
        stack=stack_value,
        cap=cap,
        ranks=ranks,
        suits=suits,
        hole=hole,
        board=board,
        raises=raises,
        caps=caps,
        first=first,
        seat_blinds=None if seat_blinds is None else tuple(seat_blinds),
    )
    assert isinstance(game, HoldemGame)
    return game


RHODE_ISLAND_ACPC = (
    'holdem(betting="limit", hole=1, board="1,1", blinds=(5, 10), stack=1000)'
)
"""A three-card Hold'em in the ACPC's terms: one hole card, one flop card, one turn card,
limit betting (raises of 10, 20, 20), blinds 5/10 and the ACPC's hand ranking. It is *not*
Rhode Island Hold'em as Gilpin and Sandholm define it (antes, three-card ranking): that
game is :func:`pokerlab.games.rhode_island`. This one is what OpenSpiel's universal_poker
plays with the same definition (the lockstep tests check it)."""


def rhode_island_acpc(*, players: int = 2, stack: int = 1000) -> HoldemGame:
    """The three-card Hold'em of :data:`RHODE_ISLAND_ACPC` (blinds, ACPC ranking).

    Rhode Island Hold'em itself (antes, three-card ranking) is
    :func:`pokerlab.games.rhode_island`.
    """
    return holdem(
        players=players, betting="limit", hole=1, board="1,1", blinds=(5, 10), stack=stack
    )


__all__ = [
    "BOARD_SIZES",
    "CALL",
    "FOLD",
    "RAISE",
    "RHODE_ISLAND_ACPC",
    "STREET_NAMES",
    "HoldemGame",
    "HoldemRules",
    "HoldemSize",
    "HoldemState",
    "Pot",
    "Settlement",
    "holdem",
    "rhode_island_acpc",
]
