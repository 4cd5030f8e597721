"""Records of hands: faults and hands (what the dealer produces, what matches and stores keep).

Every record works for 2 to 9 seats. Agents are numbered in the order they were given to
the match (agent 0 is ``a``); ``seats[s]`` is the agent sitting in seat ``s`` of a hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerlab._types import Action, Player

FAULT_DETAIL_LIMIT = 4096
"""Characters of a fault's detail that are kept (what an agent's exception or answer says
is the agent's to choose; a megabyte of it must not reach the store a megabyte a time)."""

LOG_LIMIT = 65536
"""Characters of what an entrant printed that are kept per entrant per match."""

FAULT_KINDS = (
    "exception", "illegal", "timeout", "policy", "crash", "protocol", "disqualified",
    "stray-process", "budget",
)
"""The kinds of :class:`FaultEvent`: an exception in the agent's code, an answer that is not
a legal action id, no answer within the time limit, a policy whose probabilities are not a
distribution over the legal actions; for agents in their own processes also a process that
died or exited (``crash``), broke the protocol, was disqualified after too many faults, or
left a process of its own running after a call (``stray-process``: it is killed), or used
up its time budget for the match (``budget``: it plays the default action for the rest)."""


def bounded_text(text: str, limit: int) -> str:
    """``text`` if it has at most ``limit`` characters, else its head and tail with a marker.

    The marker says how many characters were cut; the result never exceeds ``limit``
    characters, so bounding a bounded text changes nothing (it is cut once). Below 80
    characters there is no room for a marker: the head alone is kept.

    Example:
        >>> bounded_text("x" * 10, 100) == "x" * 10
        True
        >>> cut = bounded_text("a" * 3000 + "b" * 3000, 200)
        >>> len(cut) <= 200, "[... 5" in cut, cut.startswith("aaa"), cut.endswith("bbb")
        (True, True, True, True)
    """
    if len(text) <= limit:
        return text
    if limit < 80:  # no room for a marker
        return text[:limit]
    keep = limit
    while True:  # the marker's width depends on the count it reports: settle both
        marker = f" [... {len(text) - keep:,} characters cut ...] "
        if keep == limit - len(marker):
            break
        keep = limit - len(marker)
    head = keep - keep // 4
    tail = keep - head
    return text[:head] + marker + (text[len(text) - tail:] if tail else "")


@dataclass(frozen=True)
class FaultEvent:
    """A decision (or hook call) an agent got wrong, and what was done instead.

    Attributes:
        hand: the hand index in the match.
        seat: the seat the agent sat in.
        agent: the agent's index in the match (0 for ``a``, 1 for ``b``, ...).
        kind: one of :data:`FAULT_KINDS`.
        detail: a readable description (the exception, the illegal answer, the seconds),
            at most :data:`FAULT_DETAIL_LIMIT` characters when the dealer made it.
        action: the default action played instead (-1 for a failing hook).
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
        deal: the deal id (the hands of one deal, in rotated seats, share it).
        seats: the agent sitting in each seat (``(0, 1)``: ``a`` in seat 0, ``b`` in seat 1).
        returns: chips won by each seat.
        history: every action of the hand, chance outcomes included (``state.history``).
        events: the faults of this hand.
        seconds: total thinking time of each agent (by agent index) in this hand.
        decisions: number of decisions of each agent (by agent index) in this hand.
    """

    hand: int
    deal: int
    seats: tuple[int, ...]
    returns: tuple[float, ...]
    history: tuple[Action, ...]
    events: tuple[FaultEvent, ...] = ()
    seconds: tuple[float, ...] = ()
    decisions: tuple[int, ...] = ()

    def agent_returns(self) -> tuple[float, ...]:
        """Chips won by each agent (by agent index) in this hand."""
        out = [0.0] * len(self.seats)
        for seat, agent in enumerate(self.seats):
            out[agent] = self.returns[seat]
        return tuple(out)


__all__ = [
    "FAULT_DETAIL_LIMIT",
    "FAULT_KINDS",
    "LOG_LIMIT",
    "FaultEvent",
    "HandRecord",
    "bounded_text",
]
