"""Hold'em sessions played by the dealer: hand after hand at one table, stacks carried over.

:class:`~pokerlab.games.holdem_session.HoldemSession` keeps the table's books (who plays,
the stacks, the button); :func:`play_session_hand` plays its next hand through the dealer
(:func:`pokerlab.play.dealer.deal_hand`), so a terminal session, a web table and a match
deal, ask agents, contain faults and notify renderers the same way. Agents are given by
table seat; their ``agent`` index in records and faults is their seat number.
"""

from __future__ import annotations

from collections.abc import Sequence

from pokerlab.errors import PokerlabError
from pokerlab.games.holdem import HoldemState
from pokerlab.games.holdem_session import HandOutcome, HoldemSession
from pokerlab.play.dealer import DealStream, Listener, connect, deal_hand
from pokerlab.play.records import HandRecord


def play_session_hand(
    session: HoldemSession,
    agents: Sequence[object],
    *,
    seed: int,
    time_limit: float | None = None,
    listeners: Sequence[Listener] = (),
) -> tuple[HandOutcome, HandRecord]:
    """Play the session's next hand; ``agents[seat]`` plays table seat ``seat``.

    Args:
        session: the table.
        agents: one agent (or connection) per table seat, busted seats included.
        seed: the session's seed: hand ``k`` is dealt from the stream of deal ``k``.
        time_limit: seconds allowed per decision (None: no limit, as for a person).
        listeners: renderers of the dealer's events.

    Raises:
        PokerlabError: if there is not one agent per seat, or the session is over.
    """
    if len(agents) != session.n_seats:
        raise PokerlabError(
            f"the table has {session.n_seats} seats; got {len(agents)} agents"
        )
    setup = session.start_hand()
    connections = [connect(agents[seat], time_limit=time_limit) for seat in setup.seats]
    record, state = deal_hand(
        setup.game,
        connections,
        chance=DealStream(seed, setup.number),
        hand=setup.number,
        deal=setup.number,
        agents=setup.seats,
        listeners=listeners,
    )
    assert isinstance(state, HoldemState)
    return session.finish_hand(setup, state), record


def play_session(
    session: HoldemSession,
    agents: Sequence[object],
    *,
    hands: int,
    seed: int,
    time_limit: float | None = None,
    listeners: Sequence[Listener] = (),
) -> list[HandOutcome]:
    """Play up to ``hands`` hands (fewer if the session ends); return their outcomes."""
    connections = [connect(agent, time_limit=time_limit) for agent in agents]
    outcomes = []
    for _ in range(hands):
        if session.is_over:
            break
        outcome, _ = play_session_hand(session, connections, seed=seed, listeners=listeners)
        outcomes.append(outcome)
    return outcomes


__all__ = ["play_session", "play_session_hand"]
