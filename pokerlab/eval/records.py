"""Records of matches: faults, hands and results (the data :mod:`matches` produces)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from pokerlab._types import Action, FloatArray, Player
from pokerlab.errors import PokerlabError
from pokerlab.eval.statistics import (
    ControlVariateEstimate,
    Estimate,
)
from pokerlab.games.observation import Observation

Seats = Literal["both", "first", "second"]
"""``"both"``: each agent in each seat; ``"first"``/``"second"``: ``a`` always in seat 0/1."""

FAULT_KINDS = ("exception", "illegal", "timeout")
"""The kinds of :class:`FaultEvent`."""


class MatchAgent(Protocol):
    """What a match needs of an agent (the :class:`~pokerlab.agents.Agent` protocol)."""

    def act(self, observation: Observation) -> Action:
        """Return one of ``observation.legal_actions``."""
        ...


@dataclass(frozen=True)
class FaultEvent:
    """A decision (or hook call) an agent got wrong, and what was done instead.

    Attributes:
        hand: the hand index in the match.
        seat: the seat the agent sat in.
        agent: 0 for agent ``a``, 1 for agent ``b``.
        kind: ``"exception"``, ``"illegal"`` or ``"timeout"``.
        detail: a readable description (the exception, the illegal action, the seconds).
        action: the default action played instead (-1 for a failing ``reset``/``observe``).
    """

    hand: int
    seat: Player
    agent: int
    kind: str
    detail: str
    action: Action


@dataclass(frozen=True)
class HandRecord:
    """One hand of a match.

    Attributes:
        hand: the hand index in the match (0-based).
        deal: the deal id (the two hands of a duplicate pair share it).
        seats: which agent sat in each seat (``(0, 1)``: ``a`` in seat 0, ``b`` in seat 1).
        returns: chips won by each seat.
        history: every action of the hand, chance outcomes included (``state.history``).
        events: the faults of this hand.
        seconds: total thinking time of agents ``a`` and ``b`` in this hand, in seconds.
        decisions: number of decisions of agents ``a`` and ``b`` in this hand.
    """

    hand: int
    deal: int
    seats: tuple[int, ...]
    returns: tuple[float, ...]
    history: tuple[Action, ...]
    events: tuple[FaultEvent, ...] = ()
    seconds: tuple[float, ...] = (0.0, 0.0)
    decisions: tuple[int, ...] = (0, 0)

    def agent_returns(self) -> tuple[float, float]:
        """Chips won by agent ``a`` and agent ``b`` in this hand."""
        seat_a = self.seats.index(0)
        seat_b = self.seats.index(1)
        return self.returns[seat_a], self.returns[seat_b]


@dataclass(frozen=True, eq=False)
class MatchResult:
    """The outcome of a match between agents ``a`` and ``b`` (two players).

    Attributes:
        game: the game's spec string.
        agent_names: the names of ``a`` and ``b``.
        hands: every hand, in order (built lazily for sampled matches).
        returns: ``[n_hands]`` chips won by agent ``a`` in each hand.
        estimate: agent ``a``'s chips per hand with its 95% interval (from the per-pair
            means when duplicate; ``b``'s is the negation in a zero-sum game).
        exact_value: agent ``a``'s exact chips per hand averaged over the seats played,
            when both agents are strategy-backed; else None.
        control_variate: the control-variate estimate of agent ``a``'s chips per hand,
            with the coefficient and the variance reduction factor; None without a
            compiled tree.
        events: every fault of the match.
        duplicate: whether deals were played twice with seats swapped.
        sampled: whether the fast path (:func:`play_strategies`) played the hands.
    """

    game: str
    agent_names: tuple[str, str]
    hands: Sequence[HandRecord]
    returns: FloatArray
    estimate: Estimate
    exact_value: float | None
    control_variate: ControlVariateEstimate | None
    events: tuple[FaultEvent, ...]
    duplicate: bool
    sampled: bool

    @property
    def n_hands(self) -> int:
        """Number of hands played."""
        return int(self.returns.shape[0])

    @property
    def means(self) -> tuple[float, float]:
        """Chips per hand of ``a`` and ``b``."""
        return self.estimate.mean, -self.estimate.mean

    @property
    def ci95(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """95% intervals of ``a``'s and ``b``'s chips per hand."""
        e = self.estimate
        return (e.low, e.high), (-e.high, -e.low)

    @property
    def per_100(self) -> Estimate:
        """Agent ``a``'s chips per 100 hands."""
        return self.estimate.scaled(100.0)

    @property
    def best_estimate(self) -> Estimate:
        """The control-variate estimate when there is one, else the plain one."""
        return self.control_variate.estimate if self.control_variate else self.estimate

    def __repr__(self) -> str:
        a, b = self.agent_names
        return f"<MatchResult {a} vs {b}: {self.estimate} chips/hand over {self.n_hands} hands>"


def _check_seats(seats: str) -> None:
    if seats not in ("both", "first", "second"):
        raise PokerlabError(f"seats must be 'both', 'first' or 'second'; got {seats!r}")
