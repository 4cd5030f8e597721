"""Observation: what one player sees of a state, the input of every agent.

An observation never holds another player's private cards: it is built from the state's
infoset key, the public history and the chip counts, which every game defines.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerlab._types import Action, Player


@dataclass(frozen=True)
class Observation:
    """What ``seat`` knows when it must act (or when the hand ends).

    Attributes:
        game: the game's spec string (``"leduc(stack=50, raise_cap=None)"``).
        seat: the observing player (0 = P1).
        infoset_key: the readable infoset key (``"K|Q|rc|r"``).
        legal_actions: the legal action ids (empty when the observer is not to act).
        action_names: the contextual name of each legal action (``"check"``, ``"raise"``).
        public_history: the public events so far, in order, as ``(player, name)`` pairs;
            player is -1 for public chance events (a board card), which are named
            (``"board Q"``); other players' private cards never appear.
        private_cards: the observer's own cards, readable (``"K"``, ``"AsKd"``).
        board: the public cards, readable (empty before any is dealt).
        committed: chips each player has put in this hand, ante and blinds included.
        stacks: chips each player has left behind, or None for unlimited stacks.
    """

    game: str
    seat: Player
    infoset_key: str
    legal_actions: tuple[Action, ...]
    action_names: tuple[str, ...]
    public_history: tuple[tuple[Player, str], ...]
    private_cards: str
    board: str
    committed: tuple[float, ...]
    stacks: tuple[float, ...] | None

    @property
    def pot(self) -> float:
        """Chips in the pot."""
        return float(sum(self.committed))

    def action_named(self, name: str) -> Action:
        """The legal action with this contextual or game name.

        Raises:
            ValueError: if no legal action has that name (lists the legal ones).
        """
        for action, action_name in zip(self.legal_actions, self.action_names, strict=True):
            if action_name == name:
                return action
        legal = ", ".join(self.action_names)
        raise ValueError(f"no legal action named {name!r}; legal: {legal}")


@dataclass(frozen=True)
class HandResult:
    """What a seat learns when a hand ends.

    Attributes:
        seat: the receiving seat.
        returns: chips won by each seat in this hand.
        public_history: the hand's public events (see :class:`Observation`).
        showdown: each seat's private cards if they were shown at showdown, else ``""``.
    """

    seat: Player
    returns: tuple[float, ...]
    public_history: tuple[tuple[Player, str], ...]
    showdown: tuple[str, ...]
