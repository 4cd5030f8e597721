"""The Agent protocol: anything with ``act(observation) -> action`` can play.

A challenge entry is a plain Python file defining a class named ``Agent`` with that
method; ``reset()`` (called before each hand) and ``observe(result)`` (called after each
hand with what the seat may see) are optional hooks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from pokerlab._types import Action, Player
from pokerlab.games.observation import Observation


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


@runtime_checkable
class Agent(Protocol):
    """A player: given what it sees, it returns one of the legal action ids."""

    def act(self, observation: Observation) -> Action:
        """Return one of ``observation.legal_actions``."""
        ...


def call_reset(agent: object) -> None:
    """Call the agent's optional ``reset()`` hook."""
    hook = getattr(agent, "reset", None)
    if callable(hook):
        hook()


def call_observe(agent: object, result: HandResult) -> None:
    """Call the agent's optional ``observe(result)`` hook."""
    hook = getattr(agent, "observe", None)
    if callable(hook):
        hook(result)
