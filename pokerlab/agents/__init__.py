"""Agents: the Agent protocol and the built-in players."""

from __future__ import annotations

from pokerlab.agents.base import Agent, HandResult, call_observe, call_reset
from pokerlab.agents.exploitative import ExploitativeAgent
from pokerlab.agents.loader import AgentLoadError, load_agent, load_agent_class
from pokerlab.agents.simple import AlwaysCall, AlwaysRaise, RandomAgent, RuleBased
from pokerlab.agents.solver_bots import (
    SOLVER_BOT_ITERATIONS,
    solver_bot,
    solver_bots,
    solver_strategy,
)
from pokerlab.agents.strategy_agent import StrategyAgent

__all__ = [
    "SOLVER_BOT_ITERATIONS",
    "Agent",
    "AgentLoadError",
    "AlwaysCall",
    "AlwaysRaise",
    "ExploitativeAgent",
    "HandResult",
    "RandomAgent",
    "RuleBased",
    "StrategyAgent",
    "call_observe",
    "call_reset",
    "load_agent",
    "load_agent_class",
    "solver_bot",
    "solver_bots",
    "solver_strategy",
]
