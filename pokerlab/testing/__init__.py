"""Conformance checks that users and challenge entrants run on their own code.

:func:`check_agent` (an entrant's file, played in the sandbox) and :func:`check_solver`
(the promises of the one run loop, for every solver and trainer).
"""

from __future__ import annotations

from pokerlab.testing.agents import AgentCheckReport, check_agent
from pokerlab.testing.solvers import SolverCheck, check_solver, solver_checks

__all__ = ["AgentCheckReport", "SolverCheck", "check_agent", "check_solver", "solver_checks"]
