"""Evaluation: exact values, best responses and exploitability; matches, statistics.

- :func:`expected_value`: each seat's chips per hand when a profile is played;
- :func:`best_response`: a pure best response of one player, with its value;
- :func:`nash_conv` and :func:`exploitability` (NashConv / n_players, chips per hand);
- :func:`play_match`: matches of 2 to 9 agents, rotated over shared deals, played by the
  dealer (:mod:`pokerlab.play`).

The exact evaluators accept any :class:`~pokerlab.strategy.Policy` on a game that
compiles (they tabulate it first) and say clearly when the game is too big. Each has an
array-level twin for solvers (``*_array(tree, probs)``) that skips building objects.
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
from pokerlab.eval.match_result import MatchResult
from pokerlab.eval.matches import play_match
from pokerlab.eval.sampling import play_strategies

__all__ = [
    "BestResponse",
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
