"""pokerlab: define, solve, evaluate and play poker games.

From Rock-Paper-Scissors through Kuhn and Leduc poker to Texas Hold'em: exact
equilibria by linear programming, the CFR family on a compiled flat-array tree,
exact best response and exploitability, matches and tournaments.

Layers, each importing only from its left (docs/architecture.md)::

    cards -> games -> tree -> strategy -> eval -> solvers -> subgame -> abstraction
          -> blueprint -> agents -> arena -> studies -> protocols / web / cli

``import pokerlab`` loads the rules and the strategy format only; every other layer is
imported on first access (``pokerlab.solvers``), and nothing is imported for its side
effects: abstract games load by name through the game registry's ``PROVIDERS`` table.
"""

from __future__ import annotations

from pokerlab import errors, games, strategy, tree
from pokerlab._version import __version__
from pokerlab.strategy import Strategy

_LAZY = (
    "abstraction", "agents", "arena", "cards", "envs", "eval", "interop", "solvers", "studies",
    "testing",
)
"""Subpackages imported on first access (``pokerlab.solvers``), so ``import pokerlab`` stays
cheap (they load numba kernels and scipy) and imports no layer for its side effects."""


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return importlib.import_module(f"pokerlab.{name}")
    raise AttributeError(f"module 'pokerlab' has no attribute {name!r}")


__all__ = [
    "Strategy",
    "__version__",
    "abstraction",
    "agents",
    "arena",
    "cards",
    "envs",
    "errors",
    "eval",
    "games",
    "interop",
    "solvers",
    "strategy",
    "studies",
    "testing",
    "tree",
]
