"""Solvers: normal-form game theory, regret matching (and, later, LP and the CFR family)."""

from __future__ import annotations

from pokerlab.solvers.base import Solver
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
    mixed_equilibrium_2x2,
    pure_nash_equilibria,
    solve_zero_sum,
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

SOLVERS: dict[str, type[Solver]] = {
    "cfr": CFR,
    "cfr+": CFRPlus,
    "lcfr": LinearCFR,
    "dcfr": DiscountedCFR,
    "lp": SequenceFormLP,
    "cs-mccfr": ChanceSamplingMCCFR,
    "es-mccfr": ExternalSamplingMCCFR,
    "os-mccfr": OutcomeSamplingMCCFR,
}
"""Solver classes by algorithm name (``pokerlab solve --algorithm NAME``); each is built as
``SOLVERS[name](game)``."""

__all__ = [
    "CFR",
    "SOLVERS",
    "BestResponseActions",
    "CFRPlus",
    "ChanceSamplingMCCFR",
    "DiscountedCFR",
    "EliminationResult",
    "EliminationStep",
    "ExternalSamplingMCCFR",
    "LPSolution",
    "LinearCFR",
    "MixedEquilibrium",
    "NormalForm",
    "OutcomeSamplingMCCFR",
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
    "mixed_equilibrium_2x2",
    "pure_nash_equilibria",
    "regret_matching_strategy",
    "solve_sequence_form",
    "solve_zero_sum",
    "tutorial_matrices",
]
