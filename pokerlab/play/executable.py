"""Entrants in any language: an executable that speaks ACPC, sandboxed, through the dealer.

An executable entrant is a program (a binary, or a script starting with ``#!``) that
plays the ACPC match-state protocol (version 2.0) on its standard streams: it writes
``VERSION:2.0.0``, then reads one match state per line on stdin and, when its seat is to
act, writes ``<match state>:<action>`` on stdout; stderr is its log. The arena starts it
as it starts Python entrants (:class:`~pokerlab.play.sandbox.ProcessEntrant`: a copy of
the program in a working directory of its own, the same :class:`SandboxLimits`, and
where the machine allows, namespaces with no network at all: the dealer's connection is
its only channel), and the library dealer reaches it through an :class:`AcpcSeat` over
that connection, fed by an :class:`AcpcTable` listening to the hand.

Faults are contained as for Python entrants: an answer that is garbage, stale or out of
turn is recorded and ignored; an illegal action is replaced by the default action; a
program that is silent past :attr:`SandboxLimits.decision_seconds`, exits or crashes is
killed (with everything it started) and started afresh for the next hand; after
:attr:`SandboxLimits.max_faults` such ends it is disqualified for the rest of the match.
Its time answering over a match is bounded by :attr:`SandboxLimits.match_budget`, as for
Python entrants (a ``budget`` fault, then the default action without asking).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from pathlib import Path

from pokerlab.errors import PokerlabError
from pokerlab.games.base import Game
from pokerlab.games.observation import HandResult, Observation
from pokerlab.play.acpc_matchstate import VERSION_LINE
from pokerlab.play.acpc_seat import AcpcSeat, AcpcTable, TimeLimits
from pokerlab.play.dealer import AgentFault
from pokerlab.play.sandbox import ProcessEntrant, SandboxLimits

MAX_PROGRAM_BYTES = 64 * 1024 * 1024
"""Executables larger than this are refused."""


def read_program(path: str | Path) -> bytes:
    """An executable entrant's bytes, read once (later changes to the file change nothing).

    Raises:
        PokerlabError: if it is missing, a folder, empty or too large.
    """
    file = Path(path)
    if not file.is_file():
        what = "a folder" if file.is_dir() else "missing"
        raise PokerlabError(f"executable entrant {str(file)!r} is {what}; give a program file")
    data = file.read_bytes()
    if not data:
        raise PokerlabError(f"executable entrant {str(file)!r} is empty")
    if len(data) > MAX_PROGRAM_BYTES:
        raise PokerlabError(
            f"executable entrant {str(file)!r} has {len(data):,} bytes; the limit is "
            f"{MAX_PROGRAM_BYTES:,}"
        )
    return data


class ExecutableAgent(ProcessEntrant):
    """An ACPC program playing from its own sandboxed process (an AgentConnection).

    Args:
        name: the entrant's name.
        program: the executable's bytes.
        game: the Hold'em game it plays.
        limits: what its process may use (``decision_seconds`` is its time per action,
            ``start_seconds`` its time to announce its version).
        contain: isolate it (None: when the machine can, else refuse unless
            ``limits.trusted``).
        hidden: files and folders the contained process must not see.

    Raises:
        IsolationUnavailable: as :class:`~pokerlab.play.sandbox.SandboxedAgent`.
    """

    wants_updates = False

    def __init__(
        self,
        name: str,
        program: bytes,
        game: Game,
        *,
        limits: SandboxLimits | None = None,
        contain: bool | None = None,
        hidden: Sequence[str | Path] = (),
    ) -> None:
        super().__init__(name, program, limits=limits, contain=contain, hidden=hidden)
        self.game = game
        self.seconds_used = 0.0
        self.table: AcpcTable | None = None
        self.hand_seconds = 0.0
        self.faults = 0
        self.disqualified = False
        self.program_sha256 = hashlib.sha256(program).hexdigest()
        self._seat: AcpcSeat | None = None
        self._deferred: list[tuple[str, str]] = []

    def start(self) -> None:
        """Start the program and read its version line.

        Raises:
            AgentFault: if it does not announce ``VERSION:2.x`` within ``start_seconds``
                (it is killed), or it is disqualified.
        """
        if self.disqualified:
            raise AgentFault("disqualified", f"{self.name} is disqualified for this match")
        try:
            connection = self.spawn()
        except OSError as error:
            raise self._fault("crash", f"the program could not start: {error}") from None
        seat = AcpcSeat(connection, self.name, TimeLimits(per_action=self.limits.decision_seconds))
        try:
            line = seat.lines.read_line(time.monotonic() + self.limits.start_seconds)
        except AgentFault as fault:
            exit_text = self.exit_text()
            problem = self._fault(fault.kind, f"no version line ({fault.detail}; {exit_text})")
            said = self.logs[-1].split("\n[")[0].strip()[-300:] if self.logs else ""
            if said:
                problem.detail += f"; its stderr ends: {said}"
            raise problem from None
        if not line.startswith("VERSION:2."):
            raise self._fault("protocol", f"announced {line[:40]!r}; allowed: {VERSION_LINE}")
        self._seat = seat

    def _fault(self, kind: str, detail: str) -> AgentFault:
        """Kill the process for a fault that ends it; disqualify after too many."""
        if self._seat is not None:
            self._deferred += self._seat.take_faults()
            self._seat.close()
            self._seat = None
        self.kill(f"{kind}: {detail}")
        self.faults += 1
        if self.faults >= self.limits.max_faults and not self.disqualified:
            self.disqualified = True
            self._deferred.append(
                (
                    "disqualified",
                    f"{self.name} is disqualified for the rest of the match after "
                    f"{self.faults} faults that ended its process",
                )
            )
        return AgentFault(kind, detail)

    def dealer_listener(self, index: int) -> AcpcTable:
        """The listener that sends this entrant (agent ``index`` of the match) its states."""
        return AcpcTable({index: self})

    def deliver(self, text: str) -> None:
        """Send a match state to the program (dropped while it is not running)."""
        if self._seat is not None:
            self._seat.deliver(text)

    def reset(self) -> None:
        """Start the program if it is not running (a fresh one after a fault)."""
        if self._seat is None and not self.disqualified:
            self.start()

    def seed(self, value: int) -> None:
        """Nothing: ACPC programs draw their own randomness."""

    def observe(self, update: Observation | HandResult) -> None:
        """Nothing: the table sends every state, the hand's end included."""

    def _out_of_budget(self) -> AgentFault:
        """The match's time budget is spent: stop the program, default actions from now on."""
        detail = (f"{self.name} has used its {self.limits.match_budget:g} s budget for the "
                  f"match ({self.seconds_used:.1f} s answering); it plays the default action "
                  "for the rest of the match")
        if self._seat is not None:
            self._deferred += self._seat.take_faults()
            self._seat.close()
            self._seat = None
        self.kill(f"budget: {detail}")
        self.disqualified = True
        return AgentFault("budget", detail)

    def act(self, observation: Observation) -> object:
        """The program's answer to the state last sent, within ``decision_seconds``.

        Raises:
            AgentFault: timeout or crash (the process is killed), an illegal action,
                disqualification, or the match's time budget spent.
        """
        if self.disqualified:
            raise AgentFault("disqualified", f"{self.name} is disqualified for this match")
        left = self.limits.match_budget - self.seconds_used
        if left <= 0:
            raise self._out_of_budget()
        seat = self._seat
        if seat is None:
            raise AgentFault("crash", "the program is not running (it failed earlier)")
        seat.table = self.table
        seconds = min(self.limits.decision_seconds, left)
        if seat.limits.per_action != seconds:
            seat.limits = TimeLimits(per_action=seconds)
        tick = time.monotonic()
        try:
            return seat.act(observation)
        except AgentFault as fault:
            if fault.kind == "timeout" and seconds < self.limits.decision_seconds:
                self.seconds_used += time.monotonic() - tick
                tick = time.monotonic()
                raise self._out_of_budget() from None
            if fault.kind in ("timeout", "crash"):
                raise self._fault(fault.kind, f"{fault.detail}; {self.exit_text()}") from None
            raise
        finally:
            self.seconds_used += time.monotonic() - tick

    def take_faults(self) -> list[tuple[str, str]]:
        """Faults found outside a call: garbage or stale lines, a disqualification."""
        found = [] if self._seat is None else self._seat.take_faults()
        found += self._deferred
        self._deferred = []
        return found

    def close(self) -> None:
        """Stop the program (and everything it started); keep its log."""
        if self._seat is not None:
            self._seat.close()
            self._seat = None
        self.kill()


__all__ = ["MAX_PROGRAM_BYTES", "ExecutableAgent", "read_program"]
