"""Conformance checks that users and challenge entrants run on their own code."""

from __future__ import annotations

from pokerlab.testing.agents import AgentCheckReport, check_agent

__all__ = ["AgentCheckReport", "check_agent"]
