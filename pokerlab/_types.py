"""Shared type aliases and sentinel player ids."""

from __future__ import annotations

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

__all__ = ["CHANCE", "TERMINAL", "Action", "BoolArray", "FloatArray", "IntArray", "Player"]
