"""The result of a match: each agent's chips per hand with intervals, exact values, faults.

Every result works for 2 to 9 seats. Agents are numbered in the order they were given to
the match (agent 0 is ``a``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pokerlab._types import FloatArray
from pokerlab.eval.statistics import ControlVariateEstimate, Estimate
from pokerlab.play.records import FaultEvent, HandRecord


@dataclass(frozen=True, eq=False)
class MatchResult:
    """The outcome of a match between 2 to 9 agents.

    Attributes:
        game: the game's spec string.
        agent_names: the agents' names, in agent order.
        hands: every hand, in order (built lazily for sampled matches).
        agent_returns: ``[n_hands, n_agents]`` chips won by each agent in each hand.
        estimates: each agent's chips per hand with its 95% interval, computed on the deals
            (the mean over every seating of one deal is an independent unit, so card luck
            shared by the rotations cancels).
        exact_values: each agent's exact chips per hand averaged over the seatings played,
            when every agent is policy-backed on a game that compiles; else None.
        control_variates: each agent's control-variate estimate (the chance-luck term of
            AIVAT), or None without a compiled tree.
        events: every fault of the match.
        duplicate: whether each deal was played in every seating.
        sampled: whether the fast path (whole hands sampled on the compiled tree) played.
    """

    game: str
    agent_names: tuple[str, ...]
    hands: Sequence[HandRecord]
    agent_returns: FloatArray
    estimates: tuple[Estimate, ...]
    exact_values: tuple[float, ...] | None
    control_variates: tuple[ControlVariateEstimate, ...] | None
    events: tuple[FaultEvent, ...]
    duplicate: bool
    sampled: bool

    @property
    def n_hands(self) -> int:
        """Number of hands played."""
        return int(self.agent_returns.shape[0])

    @property
    def n_agents(self) -> int:
        """Number of agents (the game's number of players)."""
        return len(self.agent_names)

    @property
    def returns(self) -> FloatArray:
        """``[n_hands]`` chips won by agent ``a`` (agent 0) in each hand."""
        return self.agent_returns[:, 0]

    @property
    def estimate(self) -> Estimate:
        """Agent ``a``'s chips per hand with its interval."""
        return self.estimates[0]

    @property
    def exact_value(self) -> float | None:
        """Agent ``a``'s exact chips per hand, when every agent is policy-backed."""
        return None if self.exact_values is None else self.exact_values[0]

    @property
    def control_variate(self) -> ControlVariateEstimate | None:
        """Agent ``a``'s control-variate estimate, when there is one."""
        return None if self.control_variates is None else self.control_variates[0]

    @property
    def means(self) -> tuple[float, ...]:
        """Chips per hand of each agent."""
        return tuple(e.mean for e in self.estimates)

    @property
    def per_100(self) -> Estimate:
        """Agent ``a``'s chips per 100 hands."""
        return self.estimate.scaled(100.0)

    @property
    def best_estimate(self) -> Estimate:
        """Agent ``a``'s control-variate estimate when there is one, else the plain one."""
        control = self.control_variate
        return control.estimate if control else self.estimate

    def __repr__(self) -> str:
        names = " vs ".join(self.agent_names)
        return f"<MatchResult {names}: {self.estimate} chips/hand for {self.agent_names[0]} " \
            f"over {self.n_hands} hands>"


__all__ = ["MatchResult"]
