"""Playing hands: the dealer, its transports, the entrant sandbox, sessions and hand records.

- :func:`deal_hand`: the dealer, the one hand loop of every match, session, table and ACPC
  dealer; agents are reached through a transport (:class:`AgentConnection`):
  in-process (:func:`connect`) or a sandboxed process of their own
  (:class:`~pokerlab.play.sandbox.SandboxedAgent`);
- :class:`DealStream`: the chance stream every deal is sampled from;
- :class:`HandRecord` and :class:`FaultEvent`: what a hand leaves behind;
- :func:`~pokerlab.play.session.play_session`: terminal and web Hold'em sessions.

This layer sits left of evaluation so that every layer above it (matches, LBR, the arena,
the ACPC dealer, the web) plays its hands the same way and can run an entrant sandboxed.
"""

from __future__ import annotations

from pokerlab.play.dealer import (
    Agent,
    AgentConnection,
    AgentFault,
    DealStream,
    InProcessConnection,
    connect,
    deal_hand,
)
from pokerlab.play.records import FAULT_KINDS, FaultEvent, HandRecord

__all__ = [
    "FAULT_KINDS",
    "Agent",
    "AgentConnection",
    "AgentFault",
    "DealStream",
    "FaultEvent",
    "HandRecord",
    "InProcessConnection",
    "connect",
    "deal_hand",
]
