"""The Agent protocol: anything with ``act(observation) -> action`` can play.

The protocol is defined with the dealer (:mod:`pokerlab.play.dealer`), which calls it; it
is re-exported here, where agents are written. A challenge entry is a plain Python file
defining a class named ``Agent`` with that method; ``reset()``, ``seed(value)`` and
``observe(update)`` are optional hooks (see :class:`Agent`).
"""

from __future__ import annotations

from pokerlab.games.observation import HandResult, Observation
from pokerlab.play.dealer import Agent

__all__ = ["Agent", "HandResult", "Observation"]
