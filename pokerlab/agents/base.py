"""The Agent protocol: anything with ``act(observation) -> action`` can play.

A challenge entry is a plain Python file defining a class named ``Agent`` with that
method; ``reset()`` (called before each hand) and ``observe(result)`` (called after each
hand with what the seat may see) are optional hooks.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from pokerlab._types import Action
from pokerlab.games.observation import HandResult, Observation


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


__all__ = ["Agent", "HandResult", "call_observe", "call_reset"]


def call_observe(agent: object, result: HandResult) -> None:
    """Call the agent's optional ``observe(result)`` hook."""
    hook = getattr(agent, "observe", None)
    if callable(hook):
        hook(result)
