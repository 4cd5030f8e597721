"""Range-vs-range solving on public trees: Kuhn, Leduc and Hold'em spots, safe re-solving.

The public tree (what both players see) carries, at every node, vectors over the players'
private hands: reach going down, counterfactual values coming up, regrets and strategies
``[actions, hands]``. Showdowns are settled by sorted hand strength with card removal, in
``O(hands)`` per node. One solver (:class:`RangeSolver`: Discounted CFR or CFR+) runs on
every game built in that shape (:class:`PublicGame`): Kuhn and Leduc
(:func:`public_game`, :class:`PublicTreeCFR`) and Hold'em spots (:class:`Spot`,
:class:`SpotSolution`), with node locks (:class:`NodeLock`) where asked. Subgames of a
blueprint are re-solved, safely or not, with :func:`resolve` (:mod:`pokerlab.subgame.rps`
shows why safety matters).
"""

from __future__ import annotations

from pokerlab.subgame.classic import (
    ClassicGame,
    from_strategy,
    kuhn_public_game,
    leduc_public_game,
    public_exploitability,
    public_game,
    to_strategy,
)
from pokerlab.subgame.node_lock import NodeLock, parse_lock, read_locks
from pokerlab.subgame.public_cfr import PublicTreeCFR
from pokerlab.subgame.public_tree import HandSpace, NodeSpec, PublicGame, PublicTree
from pokerlab.subgame.range_solver import (
    VARIANTS,
    Evaluation,
    RangeSolver,
    evaluate_profile,
    uniform_arrays,
)
from pokerlab.subgame.resolve import Resolved, leduc_resolving, resolve, resolve_all, subgame
from pokerlab.subgame.result import NodeReport, SpotPolicy, SpotSolution
from pokerlab.subgame.spot import BuiltSpot, Spot, SpotSize
from pokerlab.subgame.spot_game import SpotGame, spot_game, spot_strategy

__all__ = [
    "VARIANTS",
    "BuiltSpot",
    "ClassicGame",
    "Evaluation",
    "HandSpace",
    "NodeLock",
    "NodeReport",
    "NodeSpec",
    "PublicGame",
    "PublicTree",
    "PublicTreeCFR",
    "RangeSolver",
    "Resolved",
    "Spot",
    "SpotGame",
    "SpotPolicy",
    "SpotSize",
    "SpotSolution",
    "evaluate_profile",
    "from_strategy",
    "kuhn_public_game",
    "leduc_public_game",
    "leduc_resolving",
    "parse_lock",
    "public_exploitability",
    "public_game",
    "read_locks",
    "resolve",
    "resolve_all",
    "spot_game",
    "spot_strategy",
    "subgame",
    "to_strategy",
    "uniform_arrays",
]
