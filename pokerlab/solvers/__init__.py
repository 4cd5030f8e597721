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
"""

from __future__ import annotations

from pokerlab.solvers.base import SOLVERS, Solver, make_solver, register_solver
from pokerlab.solvers.cfr import CFR, CFRPlus, DiscountedCFR, LinearCFR
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

# isort: split
# Last, so that the registry lists the tabular solvers first (torch is not imported here).
from pokerlab.solvers.deep_cfr import DeepCFR
from pokerlab.solvers.deep_policy import DeepPolicy, load_deep_policy

# isort: split
# Q-learning is no equilibrium solver (the RL baseline the tutorial sets beside CFR): last.
from pokerlab.solvers.q_learning import QLearning

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
