"""Solvers: normal-form game theory, regret matching, the sequence-form LP, CFR and MCCFR.

Every equilibrium solver is a :class:`Solver` (``run`` / ``average_strategy`` /
``current_strategy`` / ``iterations`` / ``history`` / checkpoints), registered by
algorithm name in :data:`SOLVERS` (what ``pokerlab solve --algorithm`` takes):

- ``regret-matching``: :class:`RegretMatching` on matrix games (self-play or against a
  fixed opponent);
- ``lp``: :class:`SequenceFormLP`, the exact equilibrium of a two-player zero-sum game;
- ``cfr``, ``cfr+``, ``lcfr``, ``dcfr``: the full-width CFR family on the compiled tree;
- ``cs-mccfr``, ``es-mccfr``, ``os-mccfr``: Monte Carlo CFR, on the compiled tree where
  the game fits, by walking the game's states where it does not (Hold'em);
- ``deep-cfr``: :class:`DeepCFR`, Deep CFR with PyTorch (the extra ``pokerlab[deep]``,
  imported only when a Deep CFR object is built).

The normal-form helpers (dominance, pure and 2x2 equilibria, zero-sum matrix LPs, the
normal form of Kuhn) and the sequence-form matrices are here too.

Each name loads its module on first use (``pokerlab.solvers.CFR`` imports the CFR kernels
then), and :data:`SOLVERS` loads every solver module at its first read: the range solver
and the commands that need only the run loop pay for no CFR kernel and no scipy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from pokerlab.solvers.base import SOLVERS, Solver, make_solver, register_solver

if TYPE_CHECKING:  # what type checkers see; at run time each name loads on first use
    from pokerlab.solvers.cfr import CFR, CFRPlus, DiscountedCFR, LinearCFR
    from pokerlab.solvers.deep_cfr import DeepCFR
    from pokerlab.solvers.deep_policy import DeepPolicy, load_deep_policy
    from pokerlab.solvers.lp import LPSolution, SequenceFormLP, solve_sequence_form
    from pokerlab.solvers.mccfr import (
        ChanceSamplingMCCFR,
        ExternalSamplingMCCFR,
        OutcomeSamplingMCCFR,
    )
    from pokerlab.solvers.normal_form import (
        BestResponseActions,
        EliminationResult,
        EliminationStep,
        MixedEquilibrium,
        ZeroSumSolution,
        best_response_to,
        eliminate_dominated,
        expected_payoffs,
        matrix_strategy,
        mixed_equilibrium_2x2,
        pure_nash_equilibria,
        solve_zero_sum,
        strategy_vectors,
    )
    from pokerlab.solvers.normal_form_kuhn import NormalForm, induced_normal_form, kuhn_normal_form
    from pokerlab.solvers.q_learning import QLearning
    from pokerlab.solvers.regret_matching import (
        RegretMatching,
        RegretMatchingHistory,
        action_regrets,
        regret_matching_strategy,
    )
    from pokerlab.solvers.sequence_form import (
        SequenceForm,
        SequenceFormMatrices,
        build_sequence_form,
        tutorial_matrices,
    )

_LAZY = {
    "BestResponseActions": "normal_form",
    "CFR": "cfr",
    "CFRPlus": "cfr",
    "ChanceSamplingMCCFR": "mccfr",
    "DeepCFR": "deep_cfr",
    "DeepPolicy": "deep_policy",
    "DiscountedCFR": "cfr",
    "EliminationResult": "normal_form",
    "EliminationStep": "normal_form",
    "ExternalSamplingMCCFR": "mccfr",
    "LPSolution": "lp",
    "LinearCFR": "cfr",
    "MixedEquilibrium": "normal_form",
    "NormalForm": "normal_form_kuhn",
    "OutcomeSamplingMCCFR": "mccfr",
    "QLearning": "q_learning",
    "RegretMatching": "regret_matching",
    "RegretMatchingHistory": "regret_matching",
    "SequenceForm": "sequence_form",
    "SequenceFormLP": "lp",
    "SequenceFormMatrices": "sequence_form",
    "ZeroSumSolution": "normal_form",
    "action_regrets": "regret_matching",
    "best_response_to": "normal_form",
    "build_sequence_form": "sequence_form",
    "eliminate_dominated": "normal_form",
    "expected_payoffs": "normal_form",
    "induced_normal_form": "normal_form_kuhn",
    "kuhn_normal_form": "normal_form_kuhn",
    "load_deep_policy": "deep_policy",
    "matrix_strategy": "normal_form",
    "mixed_equilibrium_2x2": "normal_form",
    "pure_nash_equilibria": "normal_form",
    "regret_matching_strategy": "regret_matching",
    "solve_sequence_form": "lp",
    "solve_zero_sum": "normal_form",
    "strategy_vectors": "normal_form",
    "tutorial_matrices": "sequence_form",
}
"""Each public name not in base, and the module that defines it (imported on first use)."""


def __getattr__(name: str) -> Any:
    """Load a solver module on first use, so that the run loop alone costs no kernel."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'pokerlab.solvers' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"pokerlab.solvers.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "CFR",
    "SOLVERS",
    "BestResponseActions",
    "CFRPlus",
    "ChanceSamplingMCCFR",
    "DeepCFR",
    "DeepPolicy",
    "DiscountedCFR",
    "EliminationResult",
    "EliminationStep",
    "ExternalSamplingMCCFR",
    "LPSolution",
    "LinearCFR",
    "MixedEquilibrium",
    "NormalForm",
    "OutcomeSamplingMCCFR",
    "QLearning",
    "RegretMatching",
    "RegretMatchingHistory",
    "SequenceForm",
    "SequenceFormLP",
    "SequenceFormMatrices",
    "Solver",
    "ZeroSumSolution",
    "action_regrets",
    "best_response_to",
    "build_sequence_form",
    "eliminate_dominated",
    "expected_payoffs",
    "induced_normal_form",
    "kuhn_normal_form",
    "load_deep_policy",
    "make_solver",
    "matrix_strategy",
    "mixed_equilibrium_2x2",
    "pure_nash_equilibria",
    "register_solver",
    "regret_matching_strategy",
    "solve_sequence_form",
    "solve_zero_sum",
    "strategy_vectors",
    "tutorial_matrices",
]
