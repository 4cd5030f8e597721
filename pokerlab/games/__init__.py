"""Games: specs, the State API, and the rules of matrix games, Kuhn, Leduc, Rhode Island, Hold'em.

``load(name_or_spec, **params)`` builds any registered game; ``kuhn()``, ``leduc()`` and
``rps()`` are shortcuts. Importing the package registers the built-in games.
"""

from __future__ import annotations

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.games import _builtin
from pokerlab.games.base import Game, State
from pokerlab.games.holdem import HoldemGame, HoldemState, holdem
from pokerlab.games.kuhn import KuhnGame, KuhnState, kuhn
from pokerlab.games.leduc import LeducGame, LeducState, leduc
from pokerlab.games.matrix import MatrixGame, bimatrix, matrix_from_file, rps
from pokerlab.games.observation import HandResult, Observation
from pokerlab.games.registry import GameEntry, Parameter, load, load_dict, registered
from pokerlab.games.rhode_island import RhodeIslandGame, RhodeIslandState, rhode_island
from pokerlab.games.spec import GameSpec

_builtin.register_all()

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "GameEntry",
    "GameSpec",
    "HandResult",
    "HoldemGame",
    "HoldemState",
    "KuhnGame",
    "KuhnState",
    "LeducGame",
    "LeducState",
    "MatrixGame",
    "Observation",
    "Parameter",
    "RhodeIslandGame",
    "RhodeIslandState",
    "State",
    "bimatrix",
    "holdem",
    "kuhn",
    "leduc",
    "load",
    "load_dict",
    "matrix_from_file",
    "registered",
    "rhode_island",
    "rps",
]
