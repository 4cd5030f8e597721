"""Agents: the Agent protocol and the built-in players, by name in :mod:`.registry`."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from pokerlab.agents.base import Agent, HandResult
from pokerlab.play.entrant_loader import AgentLoadError, load_agent, load_agent_class

if TYPE_CHECKING:  # what type checkers see; at run time each name loads on first use
    from pokerlab.agents.easy import EasyAI
    from pokerlab.agents.exploitative import ExploitativeAgent
    from pokerlab.agents.policy_agent import PolicyAgent
    from pokerlab.agents.registry import agent_names, check_builtin, expand_name, make_agent
    from pokerlab.agents.simple import AlwaysCall, AlwaysRaise, RandomAgent, RuleBased
    from pokerlab.agents.solver_bots import (
        SOLVER_BOT_ITERATIONS,
        solver_bot,
        solver_bots,
        solver_strategy,
    )

_LAZY = {
    "AlwaysCall": "simple",
    "AlwaysRaise": "simple",
    "EasyAI": "easy",
    "ExploitativeAgent": "exploitative",
    "PolicyAgent": "policy_agent",
    "RandomAgent": "simple",
    "RuleBased": "simple",
    "SOLVER_BOT_ITERATIONS": "solver_bots",
    "agent_names": "registry",
    "check_builtin": "registry",
    "expand_name": "registry",
    "make_agent": "registry",
    "solver_bot": "solver_bots",
    "solver_bots": "solver_bots",
    "solver_strategy": "solver_bots",
}
"""Each public name and the module that defines it (imported on first use: the Hard AI's
modules load numba and card tables, which naming a random agent should not)."""


def __getattr__(name: str) -> Any:
    """Load an agent module on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'pokerlab.agents' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"pokerlab.agents.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "SOLVER_BOT_ITERATIONS",
    "Agent",
    "AgentLoadError",
    "AlwaysCall",
    "AlwaysRaise",
    "EasyAI",
    "ExploitativeAgent",
    "HandResult",
    "PolicyAgent",
    "RandomAgent",
    "RuleBased",
    "agent_names",
    "check_builtin",
    "expand_name",
    "load_agent",
    "load_agent_class",
    "make_agent",
    "solver_bot",
    "solver_bots",
    "solver_strategy",
]
