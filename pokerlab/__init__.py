"""pokerlab: define, solve, evaluate and play poker games.

From Rock-Paper-Scissors through Kuhn and Leduc poker to Texas Hold'em: exact
equilibria by linear programming, the CFR family on a compiled flat-array tree,
exact best response and exploitability, matches and tournaments.

Layers, each importing only from its left::

    cards -> games -> tree -> solvers -> strategy -> eval -> agents -> arena -> cli
"""

from __future__ import annotations

__version__ = "0.1.0"

from pokerlab import abstraction, errors, games, strategy, tree
from pokerlab.strategy import Strategy

__all__ = ["Strategy", "__version__", "abstraction", "errors", "games", "strategy", "tree"]
