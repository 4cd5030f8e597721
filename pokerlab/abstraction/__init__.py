"""Abstraction: solve a smaller game, play the real one.

- card abstraction (:mod:`.buckets`, :mod:`.abstract_game`): group cards into buckets,
  so a player sees only the bucket of their card;
- betting abstraction (:mod:`.betting`): fewer raises per round, and action translation
  of the real game's actions the abstraction lacks (nearest, pseudo-harmonic);
- lifting (:mod:`.lifting`): the real game's strategy that plays an abstract strategy,
  and its exact exploitability in the real game;
- better buckets (:mod:`.optimize`): boundaries searched to minimise that exploitability.

The challenge study that puts these together is :mod:`pokerlab.studies.challenge`.

``pokerlab.games.load("abstract(game='kuhn(cards=100)', cards='uniform:10')")`` builds an
abstract game: the game registry imports :mod:`.abstract_game` the first time it meets the
name (see ``pokerlab.games.registry.PROVIDERS``). The solving modules are imported on
first use.

Example:
    >>> from pokerlab.abstraction import solve_abstraction
    >>> from pokerlab.games import kuhn
    >>> result = solve_abstraction(kuhn(cards=12), "uniform:4", algorithm="lp")
    >>> result.n_infosets_full, result.n_infosets_abstract
    (48, 16)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pokerlab._lazy import lazy_attributes
from pokerlab.abstraction.abstract_game import (
    AbstractGame,
    AbstractState,
    CardAbstraction,
    CollapsedGame,
    abstract_game,
    collapse,
    item_names,
    item_weights,
)
from pokerlab.abstraction.betting import (
    TRANSLATION_METHODS,
    cap_raises,
    pseudo_harmonic,
    translate,
    translate_leduc_key,
    translation_probabilities,
)
from pokerlab.abstraction.buckets import (
    BUCKETING_NAMES,
    Bucketing,
    boundary_buckets,
    identity_buckets,
    parse_bucketing,
    percentile_buckets,
    uniform_buckets,
)

if TYPE_CHECKING:
    from pokerlab.abstraction.lifting import (
        AbstractionResult,
        LiftingMap,
        lift,
        lifting_map,
        solve_abstraction,
        to_abstract_game,
    )
    from pokerlab.abstraction.optimize import (
        BucketEvaluator,
        OptimizationResult,
        behaviour_buckets,
        optimal_segmentation,
        optimize_buckets,
    )

_LAZY = {
    "AbstractionResult": "lifting",
    "LiftingMap": "lifting",
    "lift": "lifting",
    "lifting_map": "lifting",
    "solve_abstraction": "lifting",
    "to_abstract_game": "lifting",
    "BucketEvaluator": "optimize",
    "OptimizationResult": "optimize",
    "behaviour_buckets": "optimize",
    "optimal_segmentation": "optimize",
    "optimize_buckets": "optimize",
}


__all__ = [
    "BUCKETING_NAMES",
    "TRANSLATION_METHODS",
    "AbstractGame",
    "AbstractState",
    "AbstractionResult",
    "BucketEvaluator",
    "Bucketing",
    "CardAbstraction",
    "CollapsedGame",
    "LiftingMap",
    "OptimizationResult",
    "abstract_game",
    "behaviour_buckets",
    "boundary_buckets",
    "cap_raises",
    "collapse",
    "identity_buckets",
    "item_names",
    "item_weights",
    "lift",
    "lifting_map",
    "optimal_segmentation",
    "optimize_buckets",
    "parse_bucketing",
    "percentile_buckets",
    "pseudo_harmonic",
    "solve_abstraction",
    "to_abstract_game",
    "translate",
    "translate_leduc_key",
    "translation_probabilities",
    "uniform_buckets",
]

__getattr__, __dir__ = lazy_attributes(__name__, _LAZY, __all__)
