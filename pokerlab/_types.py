"""Shared type aliases and sentinel player ids."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

import numpy as np
from numpy.typing import NDArray

Action: TypeAlias = int
Player: TypeAlias = int

CHANCE: Player = -1
"""`state.player` when chance (the dealer) moves next."""

TERMINAL: Player = -2
"""`state.player` when the hand is over."""

FloatArray: TypeAlias = NDArray[np.float64]
IntArray: TypeAlias = NDArray[np.int64]
BoolArray: TypeAlias = NDArray[np.bool_]

StepCallback: TypeAlias = Callable[[int, int], None]
"""A long computation's progress callback: ``(done, total)``, between chunks of work."""

StageCallback: TypeAlias = Callable[[str, int, int], None]
"""A computation of named stages reports ``(stage, done, total)``: a build's phases, a
study's cells. (The run loop's report, :class:`pokerlab.solvers.run_loop.Progress`, is
the solvers' own.)"""

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "BoolArray",
    "FloatArray",
    "IntArray",
    "Player",
    "StageCallback",
    "StepCallback",
]
