"""Exact evaluation on the compiled tree: expected values, best responses, exploitability.

- :func:`expected_value`: each seat's chips per hand when a profile is played;
- :func:`best_response`: a pure best response of one player, with its value;
- :func:`nash_conv` and :func:`exploitability` (NashConv / n_players, chips per hand).

Each has an array-level twin for solvers (``*_array(tree, probs)``) that skips building
:class:`~pokerlab.strategy.Strategy` objects. All are exact and need perfect recall.
"""

from __future__ import annotations

from pokerlab.eval.best_response import BestResponse, best_response, best_response_values_array
from pokerlab.eval.expected_value import expected_value, expected_values_array
from pokerlab.eval.exploitability import (
    exploitability,
    exploitability_array,
    nash_conv,
    nash_conv_array,
)
from pokerlab.eval.matches import HandRecord, MatchResult, play_match, play_strategies

__all__ = [
    "BestResponse",
    "HandRecord",
    "MatchResult",
    "best_response",
    "best_response_values_array",
    "expected_value",
    "expected_values_array",
    "exploitability",
    "exploitability_array",
    "nash_conv",
    "nash_conv_array",
    "play_match",
    "play_strategies",
]
