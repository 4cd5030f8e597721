"""Agents: the Agent protocol and the built-in players, by name in :mod:`.registry`."""

from __future__ import annotations

from pokerlab.agents.base import Agent, HandResult
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
from pokerlab.play.entrant_loader import AgentLoadError, load_agent, load_agent_class

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
