"""An ACPC client: connects to a dealer and plays a pokerlab agent through match states.

The client announces ``VERSION:2.0.0``, then for every match state it reads it rebuilds the
Hold'em state its seat may know (:func:`~pokerlab.protocols.acpc_matchstate.state_from_matchstate`),
and when that seat is to act asks the agent for an action on the seat's
:class:`~pokerlab.games.Observation` and answers ``<match state>:<action>``.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterable, Iterator

from pokerlab.errors import PokerlabError, ProtocolError
from pokerlab.games.holdem_state import HoldemGame
from pokerlab.protocols.acpc_matchstate import (
    VERSION_LINE,
    action_token,
    format_response,
    parse_matchstate,
    state_from_matchstate,
)


class AcpcPlayer:
    """Turns match-state lines into answers for one agent (no socket: testable on transcripts)."""

    def __init__(self, game: HoldemGame, agent: object) -> None:
        act = getattr(agent, "act", None)
        if not callable(act):
            raise PokerlabError(f"{type(agent).__name__} has no act(observation) method")
        self.game = game
        self.agent = agent
        self._act: Callable[..., object] = act
        self._hand: int | None = None

    def answer(self, line: str) -> str | None:
        """The reply to one dealer line, or None when the seat is not to act.

        Raises:
            ProtocolError: if the line is not a match state of this game.
            PokerlabError: if the agent answers an action that is not legal.
        """
        message = parse_matchstate(line.rstrip("\r\n"))
        if message.hand_number != self._hand:
            self._hand = message.hand_number
            reset = getattr(self.agent, "reset", None)
            if callable(reset):
                reset()
        state = state_from_matchstate(self.game, message)
        if state.player != message.position:
            return None
        observation = state.observation(message.position, public_history=state.public_history())
        action = self._act(observation)
        if isinstance(action, bool) or not isinstance(action, int) or not state.is_legal(action):
            raise PokerlabError(f"the agent answered {action!r}, not a legal action id here")
        return format_response(message, action_token(state, action))

    def play(self, lines: Iterable[str]) -> Iterator[str]:
        """Every reply to a run of dealer lines (a transcript, or a socket's lines)."""
        for line in lines:
            if not line.strip() or line.startswith("#"):
                continue
            reply = self.answer(line)
            if reply is not None:
                yield reply


def run_client(game: HoldemGame, host: str, port: int, agent: object) -> int:
    """Connect to the dealer at ``host:port`` and play until it closes; return hands seen.

    Raises:
        PokerlabError: if the dealer cannot be reached.
    """
    player = AcpcPlayer(game, agent)
    try:
        sock = socket.create_connection((host, port), timeout=30.0)
    except OSError as error:
        raise PokerlabError(f"cannot connect to the dealer at {host}:{port} ({error})") from error
    sock.settimeout(None)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    hands: set[int] = set()
    with sock, sock.makefile("r", encoding="ascii", errors="replace", newline="\n") as reader:
        try:
            sock.sendall(VERSION_LINE.encode("ascii") + b"\r\n")
            _serve(sock, reader, player, hands)
        except OSError:
            pass  # the dealer closed the connection: the match is over for us
    return len(hands)


def _serve(sock: socket.socket, reader: Iterable[str], player: AcpcPlayer, hands: set[int]) -> None:
    for line in reader:
        try:
            reply = player.answer(line)
        except ProtocolError:
            continue  # a line we cannot read: the dealer decides what our seat does
        if player._hand is not None:
            hands.add(player._hand)
        if reply is not None:
            sock.sendall(reply.encode("ascii") + b"\r\n")


__all__ = ["AcpcPlayer", "run_client"]
