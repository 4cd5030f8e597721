"""Agents: the Agent protocol and the built-in players."""

from __future__ import annotations

from pokerlab.agents.base import Agent, HandResult, call_observe, call_reset

__all__ = ["Agent", "HandResult", "call_observe", "call_reset"]
