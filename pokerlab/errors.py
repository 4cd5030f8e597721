"""Errors raised by pokerlab.

Every error derives from :class:`PokerlabError` and from the builtin it refines, so
``except ValueError`` still catches a bad parameter. Messages say what was wrong, what is
allowed, and how to fix it; the CLI prints them as one line and exits with status 1.
"""

from __future__ import annotations


class PokerlabError(Exception):
    """Base class of every error pokerlab raises on purpose."""


class SpecError(PokerlabError, ValueError):
    """A game name, parameter or spec string that pokerlab cannot accept."""


class CardError(PokerlabError, ValueError):
    """A card, hand, board or range text that cannot be parsed, or cards that collide."""


class IllegalActionError(PokerlabError, ValueError):
    """An action that is not legal in the state it was applied to."""


class GameTooLargeError(PokerlabError, MemoryError):
    """A game whose compiled tree (or LP) would exceed the memory limit.

    Attributes:
        found: the estimated size in bytes (or the count named in the message).
        limit: the limit it was compared with, in the same unit.
    """

    def __init__(self, message: str, *, found: int, limit: int) -> None:
        super().__init__(message)
        self.found = found
        self.limit = limit


class StrategyError(PokerlabError, ValueError):
    """A strategy whose contents are invalid (rows not summing to one, wrong shape...)."""


class PolicyError(StrategyError):
    """A policy's answer that is not a distribution over the legal actions.

    Probabilities that are negative, not finite, on an illegal action, or that do not sum
    to 1 (within 1e-6). The dealer records it as a fault and plays the default action.
    """


class StrategyMismatchError(StrategyError):
    """A strategy (or checkpoint) used with a game it was not made for."""


class FileFormatError(PokerlabError, ValueError):
    """A file that is truncated, corrupted, or not in the expected format."""


class SolverError(PokerlabError, ValueError):
    """A solver asked to do something it cannot (bad hyper-parameter, unsupported game)."""


class ProtocolError(PokerlabError, ValueError):
    """A protocol message (such as an ACPC match state) is malformed or inconsistent."""


class MissingExtraError(PokerlabError, ImportError):
    """An optional dependency is not installed; the message names the extra to install.

    Deep CFR needs ``pokerlab[deep]`` (torch), the environments ``pokerlab[envs]``
    (PettingZoo, Gymnasium), the OpenSpiel bridge ``pokerlab[openspiel]``.
    """


__all__ = [
    "CardError",
    "FileFormatError",
    "GameTooLargeError",
    "IllegalActionError",
    "MissingExtraError",
    "PokerlabError",
    "PolicyError",
    "ProtocolError",
    "SolverError",
    "SpecError",
    "StrategyError",
    "StrategyMismatchError",
]
