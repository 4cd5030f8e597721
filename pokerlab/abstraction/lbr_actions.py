"""LBR's action sets: which raises local best response tries on each street.

The LBR papers write an action set per street in letters: ``F`` fold, ``C`` check/call,
``H`` raise half the pot, ``P`` raise the pot, ``A`` all-in; ``"FC/FCPA/FCPA/FCPA"``
only folds or calls preflop and tries pot and all-in after. :func:`lbr_raises` reads that
notation, or a bet menu (``"100%,a"``, one list for every street or one per street), and
returns the raise function :class:`~pokerlab.eval.lbr.LocalBestResponse` takes. Sizes go
through the one bet-size module, so a pot raise is the same amount everywhere.
"""

from __future__ import annotations

import re

from pokerlab._types import Action
from pokerlab.errors import SpecError
from pokerlab.eval.lbr import RaiseMenu, limit_raise
from pokerlab.games.bet_sizes import BetMenu, parse_bet_menu
from pokerlab.games.betting_sequences import menu_raises
from pokerlab.games.holdem import RAISE, STREET_NAMES, HoldemGame, HoldemState

LETTERS = {"H": "50%", "P": "100%", "A": "a"}
"""The raise letters of an action set and the bet-menu size each stands for."""

_ACTION_SET = re.compile(r"^F?C[HPA]*$")


def is_action_set(text: str) -> bool:
    """Whether ``text`` is written in letters (``FC/FCPA/...``) rather than as a bet menu."""
    return all(_ACTION_SET.match(part.strip().upper()) for part in text.split("/"))


def lbr_raises(text: str, game: HoldemGame) -> RaiseMenu:
    """The raises LBR tries, from an action set (``"FC/FCPA/FCPA/FCPA"``) or a bet menu.

    An action set has one group per street of ``game`` (or one for all of them); a street
    without ``H``, ``P`` or ``A`` has no raise. In limit games any raise letter means the
    street's one raise. A bet menu (``"100%,a"``) raises on every street.

    Raises:
        SpecError: an unreadable set or menu, naming what is allowed.
    """
    n_streets = len(game.rules.board_sizes)
    if not is_action_set(text):
        if not game.no_limit:
            return limit_raise
        menu = parse_bet_menu(text, names=STREET_NAMES[:n_streets])
        return lambda state: _menu(menu, state, None)
    groups = [part.strip().upper() for part in text.split("/")]
    if len(groups) == 1:
        groups *= n_streets
    if len(groups) != n_streets:
        raise SpecError(f"an LBR action set needs 1 or {n_streets} groups (one per street) "
                        f"for {game.spec}; got {text!r}")
    raising = tuple(any(c in LETTERS for c in g) for g in groups)
    if not game.no_limit:
        return lambda state: limit_raise(state) if raising[state.street] else ()
    sizes = ["/".join(",".join(LETTERS[c] for c in g if c in LETTERS) or "a" for g in groups)]
    menu = parse_bet_menu(sizes[0], names=STREET_NAMES[:n_streets])
    return lambda state: _menu(menu, state, raising)


def _menu(
    menu: BetMenu, state: HoldemState, raising: tuple[bool, ...] | None
) -> tuple[Action, ...]:
    if raising is not None and not raising[state.street]:
        return ()
    return tuple(RAISE + x for x in menu_raises(menu, state))


__all__ = ["LETTERS", "is_action_set", "lbr_raises"]
