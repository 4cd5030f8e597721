"""Solvers: normal-form game theory, regret matching (and, later, LP and the CFR family)."""

from __future__ import annotations

from pokerlab.solvers.base import Solver
from pokerlab.solvers.normal_form import (
    BestResponseActions,
    EliminationResult,
    EliminationStep,
    MixedEquilibrium,
    ZeroSumSolution,
    best_response_to,
    eliminate_dominated,
    expected_payoffs,
    mixed_equilibrium_2x2,
    pure_nash_equilibria,
    solve_zero_sum,
)
from pokerlab.solvers.regret_matching import (
    RegretMatching,
    RegretMatchingHistory,
    action_regrets,
    regret_matching_strategy,
)

__all__ = [
    "BestResponseActions",
    "EliminationResult",
    "EliminationStep",
    "MixedEquilibrium",
    "RegretMatching",
    "RegretMatchingHistory",
    "Solver",
    "ZeroSumSolution",
    "action_regrets",
    "best_response_to",
    "eliminate_dominated",
    "expected_payoffs",
    "mixed_equilibrium_2x2",
    "pure_nash_equilibria",
    "regret_matching_strategy",
    "solve_zero_sum",
]
