"""Entrants in their own processes: the dealer's second transport, every fault contained.

An entrant's file never runs in the arena's process. :class:`SandboxedAgent` is an
:class:`~pokerlab.play.dealer.AgentConnection` to a process of its own
(:mod:`pokerlab.play.entrant_process`) that speaks the small protocol of
:mod:`pokerlab.play.entrant_protocol` over a socket pair. Only the entrant's own
observations cross; the process gets:

- a copy of the entrant's source only (read once by :meth:`EntrantSource.read`, so
  changing the file later changes nothing), in a working directory of its own;
- a closed stdin, its stdout and stderr captured to a bounded log (the first
  :attr:`SandboxLimits.log_bytes` over the whole match; the rest is counted and dropped);
- resource limits per process (address space, CPU seconds, file size, open files, no
  core dumps) and a cgroup for its whole process tree (memory, processes and threads,
  CPU share: :mod:`pokerlab.play.cgroups`), which also lists every process it started,
  so that all are killed with it;
- isolation (:mod:`pokerlab.play.isolation`): an unprivileged id of its own through a
  user namespace, new mount, PID, IPC, UTS, network and cgroup namespaces, a read-only
  view of the system's folders and pokerlab's code only, a private ``/tmp``, ``/dev`` and
  read-only ``/proc``, no capability, ``no_new_privs`` and a seccomp filter
  (:mod:`pokerlab.play.seccomp`). Where the machine lacks a mechanism
  (:func:`~pokerlab.play.containment.isolation_problems`), entrants are refused, naming
  it, unless they are trusted explicitly (:attr:`SandboxLimits.trusted`,
  ``--trust-entrants``): they then run in plain processes with the limits above only.

Time limits: starting (import and constructor) has :attr:`SandboxLimits.start_seconds`;
each decision has :attr:`SandboxLimits.decision_seconds`, shared with the hook calls
(``reset``, ``seed``, ``observe``) sent just before it (they are pipelined: the arena
does not wait for a hook's answer, it reads it later, so a slow entrant costs itself
time, not the arena). When a limit passes, the process is killed at once (not
abandoned) and a fresh one is started for the next hand; a process that dies, exits or
breaks the protocol is a fault too. After :attr:`SandboxLimits.max_faults` such faults in
a match the entrant is disqualified for the rest of it: its decisions get the default
action, each recorded as a ``disqualified`` fault. Over a match, the time it takes to
answer is bounded by :attr:`SandboxLimits.match_budget`: once spent (a ``budget``
fault) it plays the default action without being asked for the rest of the match, so a
match lasts at most its entrants' budgets (and their starts) beyond the built-ins' time.

Everything an entrant sends is read with bounded size, depth and number length
(:class:`~pokerlab.play.entrant_protocol.Reader`); anything else is a ``protocol`` fault.
Fault texts are cut to :data:`MAX_DETAIL` characters.

Processes left behind: an entrant may start processes while a call runs, but none may
outlive the call. After each decision the sandbox lists the processes of its cgroup
(every process the entrant started, whatever session or process group it moved to);
any beyond the entrant's own is killed and recorded as a ``stray-process`` fault (the
entrant's process itself goes on). The listing is skipped while the cgroup's task count
is unchanged since the last clean check, so a stray started in the same call as another
of the entrant's tasks ended is found only when the process ends. Where no cgroup can
be made (trusted entrants only), the session and the PID namespace are searched when the
process ends instead; strays found then are killed and noted in the log, as are those
started by the last hook of a match.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pokerlab.errors import PokerlabError
from pokerlab.games.base import Game
from pokerlab.games.observation import HandResult, Observation
from pokerlab.play.cgroups import EntrantCgroup
from pokerlab.play.containment import (
    EntrantLog,
    end_process,
    find_strays,
    keep_log,
    kill_pids,
    launch,
    require_isolation,
)
from pokerlab.play.dealer import AgentFault
from pokerlab.play.entrant_protocol import (
    ProtocolError,
    Reader,
    check_answer,
    clean_text,
    decode_answer,
    encode_update,
    frame,
    frame_act,
)
from pokerlab.play.names import check_name

MAX_SOURCE_BYTES = 512 * 1024
"""Entrant files larger than this are refused."""

MAX_DETAIL = 2000
"""Fault texts (an entrant's error, a load error) are cut to this many characters."""

BUDGET_DECISIONS = 60
"""A match's default time budget is this many decision limits (10 minutes for 10 s)."""


@dataclass(frozen=True)
class SandboxLimits:
    """What an entrant's process may use.

    Attributes:
        decision_seconds: per decision, the hooks sent just before it included.
        start_seconds: to import the file and build the agent.
        memory_megabytes: memory of the entrant's whole process tree (its cgroup), and
            the address space of each of its processes.
        cpu_seconds: CPU time of one process (it is restarted after a fault).
        tmp_megabytes: size of the private ``/tmp``.
        max_processes: processes (and threads) the entrant may run beside its own.
        log_bytes: how much of its output is kept, over a whole match.
        max_faults: timeouts, deaths and protocol breaks in a match before disqualification.
        match_seconds: the time it may take answering over a match (None:
            :data:`BUDGET_DECISIONS` times ``decision_seconds``); then it plays the
            default action for the rest of the match.
        cpus: CPU time per second of its whole process tree (1.0: one core).
        trusted: run it even where the machine cannot isolate it (``--trust-entrants``):
            a plain process with the limits above only.
    """

    decision_seconds: float = 10.0
    start_seconds: float = 30.0
    memory_megabytes: int = 2048
    cpu_seconds: int = 3600
    tmp_megabytes: int = 16
    max_processes: int = 16
    log_bytes: int = 64 * 1024
    max_faults: int = 3
    match_seconds: float | None = None
    cpus: float = 1.0
    trusted: bool = False

    @property
    def match_budget(self) -> float:
        """Seconds of answering an entrant has over a match."""
        if self.match_seconds is not None:
            return self.match_seconds
        return BUDGET_DECISIONS * self.decision_seconds


def _environment(python: bool) -> dict[str, str]:
    """The entrant's environment: the interpreter's folder and the system's on its PATH."""
    folders = [os.path.dirname(sys.executable), "/usr/local/bin", "/usr/bin", "/bin"]
    environment = {"PATH": ":".join(dict.fromkeys(folders)), "LANG": "C.UTF-8"}
    if python:
        environment |= {"NUMBA_CACHE_DIR": "/tmp/numba"}  # one thread: launch() sets it
    return environment


def _detail(text: str) -> str:
    return clean_text(text, MAX_DETAIL)


CONTAINED_ROOT = "/tmp"
"""Where a contained launcher mounts the entrant's new root, in its own mount namespace
only: a contained entrant has no folder on the host."""


def _workdir(owner: object, contained: bool) -> str | None:
    """A working folder on the host for an entrant that is not contained (else None).

    Removed when its process ends, or at the latest when ``owner`` is collected or the
    arena exits (a caller that never closes its agent leaves nothing either).
    """
    if contained:
        return None
    folder = tempfile.mkdtemp(prefix="pokerlab-entrant-")
    weakref.finalize(owner, _remove, folder)
    return folder


def _remove(folder: str | None) -> None:
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def _program_descriptor(program: bytes) -> int:
    """A descriptor holding the program's bytes (in memory: no file on the host)."""
    descriptor = os.memfd_create("entrant-program", 0)
    try:
        view = memoryview(program)
        written = 0
        while written < len(view):
            written += os.write(descriptor, view[written:])
        os.lseek(descriptor, 0, os.SEEK_SET)
    except OSError:
        os.close(descriptor)
        raise
    return descriptor


@dataclass(frozen=True)
class EntrantSource:
    """An entrant's file, read once: what every process of it runs.

    Attributes:
        name: the entrant's name (the file's stem).
        path: where it was read from (for messages only).
        text: the source.
        sha256: its digest.
    """

    name: str
    path: str
    text: str
    sha256: str

    @classmethod
    def read(cls, path: str | Path) -> EntrantSource:
        """Read an entrant's file.

        Raises:
            PokerlabError: if it is missing, a folder, too large, or not UTF-8 text.
        """
        file = Path(path)
        if not file.is_file():
            what = "a folder" if file.is_dir() else "missing"
            raise PokerlabError(f"entrant {str(file)!r} is {what}; give a Python file")
        data = file.read_bytes()
        if len(data) > MAX_SOURCE_BYTES:
            raise PokerlabError(f"entrant {str(file)!r} has {len(data):,} bytes; the limit is "
                                f"{MAX_SOURCE_BYTES:,}")
        try:
            text = data.decode()
        except UnicodeDecodeError:
            raise PokerlabError(f"entrant {str(file)!r} is not UTF-8 text") from None
        name = check_name(file.stem, f"entrant {str(file)!r}")  # shown and stored
        return cls(name, str(file), text, hashlib.sha256(data).hexdigest())


_MAX_POLL_MS = 2**31 - 1  # the longest wait poll takes (a C int of milliseconds)


class SandboxedAgent:
    """An entrant playing from its own process (an AgentConnection for the dealer).

    Args:
        source: the entrant's file, read once.
        game: the game it plays.
        limits: what its process may use.
        contain: isolate it (None: when the machine can, else refuse unless
            ``limits.trusted``; False: a plain process, for tests of the limits alone).
        hidden: files and folders of the arena the process must not see, should they lie
            under a folder it is shown (the arena's database, the entrants' files); the
            entrant's own folder (where its rivals' files often are) always is.

    Raises:
        IsolationUnavailable: ``contain`` is None, the machine cannot isolate entrants and
            ``limits.trusted`` is False (the message names what is missing).
    """

    def __init__(
        self,
        source: EntrantSource,
        game: Game,
        *,
        limits: SandboxLimits | None = None,
        contain: bool | None = None,
        hidden: Sequence[str | Path] = (),
    ) -> None:
        self.source = source
        self.limits = limits or SandboxLimits()
        self.contained = require_isolation(self.limits.trusted) if contain is None else contain
        own = [Path(source.path).parent] if source.path else []
        self.hidden = tuple(dict.fromkeys(str(Path(h).resolve()) for h in (*own, *hidden)))
        self.game = game
        self.name = source.name
        self.hooks: tuple[str, ...] = ()
        self.faults = 0
        self.starts = 0
        self.disqualified = False
        self.strays = 0
        self.seconds_used = 0.0
        self._killed: set[int] = set()
        self._own: set[int] = set()  # the pids of the launcher and the entrant's process
        self._quiet_count = -1  # the cgroup's task count when no stray was last found
        self.logs: list[str] = []
        self._log_left = self.limits.log_bytes
        self._deferred: list[tuple[str, str]] = []
        self._queue: list[bytes] = []
        self._pending: list[tuple[int, str]] = []  # (id, op) sent, answer not yet read
        self._next_id = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._channel: socket.socket | None = None
        self._reader: Reader | None = None
        self._poll: select.poll | None = None  # the channel, registered for reading
        self._log: EntrantLog | None = None
        self._workdir: str | None = None
        self._cgroup: EntrantCgroup | None = None

    # -- the process ---------------------------------------------------------------------
    @property
    def running(self) -> bool:
        """True while a process is up."""
        return self._process is not None

    @property
    def wants_updates(self) -> bool:
        """True when the entrant's agent defines ``observe``."""
        return "observe" in self.hooks

    @property
    def wants_seed(self) -> bool:
        """True when the entrant's agent defines ``seed`` (known once its process started)."""
        return "seed" in self.hooks

    @property
    def pid(self) -> int | None:
        """The process id (of the launcher when contained), or None."""
        return None if self._process is None else self._process.pid

    def start(self) -> None:
        """Start a process and build the agent in it.

        Raises:
            AgentFault: if the import or the constructor fails or takes too long (the
                process is killed), or the entrant is disqualified.
        """
        if self.disqualified:
            raise AgentFault("disqualified", f"{self.name} is disqualified for this match")
        self._spawn()
        value = self._request({"op": "start", "game": self.game.spec_text,
                               "file": Path(self.source.path).name,
                               "source": self.source.text},
                              self.limits.start_seconds, "start")
        hooks = value.get("hooks", []) if isinstance(value, dict) else []
        hooks = hooks if isinstance(hooks, list) else []
        self.hooks = tuple(h for h in ("reset", "seed", "observe") if h in hooks)

    def _spawn(self) -> None:
        self.starts += 1
        parent, child = socket.socketpair()
        self._workdir = _workdir(self, self.contained)
        config = {"mode": "python", "channel": child.fileno(), "contain": self.contained,
                  "root": self._workdir or CONTAINED_ROOT,
                  "tmp_megabytes": self.limits.tmp_megabytes, "hidden": list(self.hidden)}
        try:
            launched = launch(
                config, memory_megabytes=self.limits.memory_megabytes,
                cpu_seconds=self.limits.cpu_seconds, tmp_megabytes=self.limits.tmp_megabytes,
                max_tasks=self.limits.max_processes + 3, cpus=self.limits.cpus,
                pass_fds=(child.fileno(),), workdir=self._workdir or "/",
                environment=_environment(python=True), log_bytes=self._log_left,
            )
        except OSError as error:
            parent.close()
            _remove(self._workdir)
            self._workdir = None
            self.faults += 1
            raise AgentFault("crash", _detail(f"the process could not start: {error}")) from None
        finally:
            child.close()
        self._process, self._cgroup, self._log = launched.process, launched.cgroup, launched.log
        self._channel = parent
        self._reader = Reader(parent)
        self._poll = select.poll()
        self._poll.register(parent, select.POLLIN)
        self._pending.clear()
        self._queue.clear()

    def _kill(self, why: str | None = None) -> None:
        """End the process (and everything it started); keep its log."""
        process = self._process
        if process is None:
            return
        strays = [p for p in find_strays(process, self._cgroup, self.contained, scan=True,
                                         own=self._own)
                  if p not in self._killed]
        kill_pids(strays)
        self._killed.clear()
        self._own.clear()
        self._quiet_count = -1
        end_process(process, self._cgroup)
        self._cgroup = None
        if self._channel is not None:
            self._channel.close()
        if strays:
            self.strays += len(strays)
            note = f"killed {len(strays)} process(es) it left running"
            why = f"{why}; {note}" if why else note
        self._log_left -= keep_log(self._log, None if why is None else _detail(why), self.logs)
        _remove(self._workdir)
        self._process = self._channel = self._reader = self._log = None
        self._poll = None
        self._workdir = None
        self._pending.clear()
        self._queue.clear()

    def _fault(self, kind: str, detail: str) -> AgentFault:
        """Kill the process for a fault that ends it; disqualify after too many."""
        detail = _detail(detail)
        self._kill(f"{kind}: {detail}")
        self.faults += 1
        if self.faults >= self.limits.max_faults and not self.disqualified:
            self.disqualified = True
            self._deferred.append(("disqualified", f"{self.name} is disqualified for the rest "
                                   f"of the match after {self.faults} faults that ended its "
                                   "process"))
        return AgentFault(kind, detail)

    def _out_of_budget(self) -> AgentFault:
        """The match's time budget is spent: stop the process, default actions from now on."""
        budget = self.limits.match_budget
        detail = (f"{self.name} has used its {budget:g} s budget for the match "
                  f"({self.seconds_used:.1f} s answering); it plays the default action for "
                  "the rest of the match")
        self._kill(f"budget: {detail}")
        self.disqualified = True
        return AgentFault("budget", detail)

    def _exit_text(self) -> str:
        process = self._process
        if process is None:
            return "the process is gone"
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=2)
        code = process.returncode
        if code is None:
            return "the process closed its channel"
        if code < 0:
            with contextlib.suppress(ValueError):
                return f"the process was killed by signal {signal.Signals(-code).name}"
            return f"the process was killed by signal {-code}"
        if code == 3:
            text = self._log.text(0.5) if self._log is not None else ""
            for line in text.splitlines():
                if line.startswith("pokerlab-isolation: "):
                    return f"its isolation failed ({line[20:]})"
        return f"the process exited with status {code}"

    # -- requests ------------------------------------------------------------------------
    def _send_later(self, message: dict[str, Any]) -> None:
        self._next_id += 1
        message["id"] = self._next_id
        self._queue_frame(frame(message), self._next_id, str(message["op"]))

    def _queue_frame(self, data: bytes, ident: int, op: str) -> None:
        """Queue a framed request (numbered ``ident``) to send with the next one awaited."""
        self._queue.append(data)
        self._pending.append((ident, op))
        if len(self._queue) > 64:  # a long run of hooks without a decision: flush them
            self._flush()

    def _flush(self) -> None:
        if self._queue and self._channel is not None:
            data = self._queue[0] if len(self._queue) == 1 else b"".join(self._queue)
            self._queue.clear()
            try:
                self._channel.sendall(data)
            except OSError:
                raise self._fault("crash", self._exit_text()) from None

    def _request(self, message: dict[str, Any], seconds: float, what: str,
                 budget_bound: bool = False) -> object:
        """Send ``message`` after the queued hooks; wait for its answer.

        ``budget_bound``: ``seconds`` is what is left of the match's budget (a timeout
        then spends it).
        """
        self._send_later(message)
        return self._answer(self._next_id, seconds, what, budget_bound)

    def _answer(self, wanted: int, seconds: float, what: str, budget_bound: bool) -> object:
        """Send the queued requests (the last numbered ``wanted``); wait for its answer.

        Answers to the hooks before it are read on the way (an error is a deferred
        ``exception`` fault). No answer within ``seconds`` is a ``timeout`` fault, or the
        budget spent when ``budget_bound``; a closed channel a ``crash``; anything the
        reader refuses, or an answer out of order, a ``protocol`` fault.
        """
        self._flush()
        deadline = time.monotonic() + seconds
        reader, poll = self._reader, self._poll
        assert reader is not None
        assert poll is not None
        while True:
            try:
                reply = reader.pending()
            except ProtocolError as exc:
                raise self._fault("protocol", str(exc)) from None
            if reply is None:
                left = deadline - time.monotonic()
                # poll rounds its ms up (never early); past 24.8 days it waits again
                ready = poll.poll(min(left * 1000, _MAX_POLL_MS)) if left > 0 else []
                if not ready and time.monotonic() < deadline:
                    continue
                if not ready:
                    if budget_bound:
                        raise self._out_of_budget()
                    calls = ", ".join(op for _, op in self._pending)
                    raise self._fault(
                        "timeout", f"no answer to {what} within {seconds:g} s (pending: {calls})"
                    )
                try:
                    alive = reader.feed()
                except ProtocolError as exc:
                    raise self._fault("protocol", str(exc)) from None
                except OSError:
                    alive = False
                if not alive:
                    raise self._fault("crash", f"{self._exit_text()} during {what}")
                continue
            ident, ok = reply.get("id"), reply.get("ok")
            if not self._pending or type(ident) is not int or ident != self._pending[0][0]:
                raise self._fault("protocol", "an answer out of order: "
                                  + clean_text(str(reply), 100))
            if type(ok) is not bool:
                raise self._fault("protocol", "an answer without ok: "
                                  + clean_text(str(reply), 100))
            _, op = self._pending.pop(0)
            if not ok:
                error = reply.get("error", "?")
                detail = _detail(f"{op}: {error if isinstance(error, str) else '?'}")
                if ident == wanted:
                    raise AgentFault("exception", detail)
                self._deferred.append(("exception", detail))
                continue
            if ident == wanted:
                return reply.get("value")

    def _ensure_running(self) -> None:
        if self._process is None:
            self.start()

    # -- AgentConnection -----------------------------------------------------------------
    def reset(self) -> None:
        """Start the process if needed (a fresh one after a fault), then ``reset()``."""
        if self.disqualified:
            return
        self._ensure_running()
        if "reset" in self.hooks:
            self._send_later({"op": "reset"})

    def seed(self, value: int) -> None:
        """Pass the hand's seed to the ``seed`` hook."""
        if self._process is not None and "seed" in self.hooks:
            self._send_later({"op": "seed", "value": int(value)})

    def observe(self, update: Observation | HandResult) -> None:
        """Pass an observation or the hand's result to the ``observe`` hook."""
        if self._process is not None and "observe" in self.hooks:
            self._send_later({"op": "observe", "update": encode_update(update)})

    def act(self, observation: Observation) -> object:
        """The entrant's answer (checked by the dealer), within the decision's limit.

        Raises:
            AgentFault: timeout, crash, protocol break, exception, disqualification, or
                the match's time budget spent.
        """
        if self.disqualified:
            raise AgentFault("disqualified", f"{self.name} is disqualified for this match")
        left = self.limits.match_budget - self.seconds_used
        if left <= 0:
            raise self._out_of_budget()
        self._ensure_running()
        seconds = min(self.limits.decision_seconds, left)
        self._next_id += 1
        self._queue_frame(frame_act(self._next_id, observation), self._next_id, "act")
        tick = time.monotonic()
        try:
            answer = self._answer(self._next_id, seconds, "act",
                                  budget_bound=seconds < self.limits.decision_seconds)
        finally:
            self.seconds_used += time.monotonic() - tick
            self._catch_strays()
        try:
            return decode_answer(check_answer(answer))
        except ProtocolError as exc:
            raise self._fault("protocol", str(exc)) from None

    def _catch_strays(self) -> None:
        """Kill the processes the entrant left running after its calls; record a fault."""
        if self._process is None:
            return
        # Fast path: the cgroup's task count has not changed since the last check found
        # no stray. (A stray started in the same call as another of the entrant's tasks
        # ends is then seen only when the process ends: killed and noted in the log.)
        count = -1
        if self._cgroup is not None:
            with contextlib.suppress(OSError, ValueError):
                count = self._cgroup.count()
        if count >= 0 and count == self._quiet_count:
            return
        # A stray killed after an earlier call may not have exited yet (a loaded
        # machine): it is not counted twice.
        strays = [p for p in find_strays(self._process, self._cgroup, self.contained,
                                         scan=False, own=self._own)
                  if p not in self._killed]
        if not strays:
            self._quiet_count = count
        if strays:
            kill_pids(strays)
            self._killed.update(strays)
            self.strays += len(strays)
            self._deferred.append(("stray-process", f"{len(strays)} process(es) started by "
                                   "the entrant were still running after its call; killed"))

    def take_faults(self) -> list[tuple[str, str]]:
        """Faults found since the last call (a hook's exception read late, a disqualification)."""
        found, self._deferred = self._deferred, []
        return found

    def close(self) -> None:
        """Stop the process (and everything it started); keep its log."""
        if self._process is not None and self._channel is not None:
            with contextlib.suppress(OSError):
                self._queue.append(frame({"op": "stop", "id": 0}))
                self._flush_quietly()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._process.wait(timeout=0.5)  # a moment to finish its hooks and print
        self._kill()

    def _flush_quietly(self) -> None:
        if self._queue and self._channel is not None:
            with contextlib.suppress(OSError):
                self._channel.sendall(b"".join(self._queue))
            self._queue.clear()

    @property
    def log(self) -> str:
        """Everything the entrant's processes printed (bounded), one block per process."""
        return "\n".join(self.logs)

    def __repr__(self) -> str:
        mode = "contained" if self.contained else "process"
        return f"<SandboxedAgent {self.name} ({mode}, {self.starts} starts, {self.faults} faults)>"


class ProcessEntrant:
    """An entrant run as any executable in a sandbox (the same limits as Python entrants).

    The base of transports that start a program rather than a Python file (the ACPC
    executables of :mod:`pokerlab.play.executable`): :meth:`spawn` starts it with
    :class:`SandboxLimits` (its cgroup, resource limits, and the same isolation as Python
    entrants: the launcher copies the program into the private ``/tmp`` and executes
    it there); its stdin and stdout are one end of a socket pair (the arena holds the
    other), its stderr goes to the bounded log. :meth:`kill` ends it and everything it
    started. The arena hides its database and the entrants' files from it (``hidden``)
    and stores its log, as for Python entrants.

    Args:
        name: the entrant's name.
        program: the executable's bytes (read once).
        limits: what its process may use.
        contain: isolate it (None: when the machine can, else refuse unless
            ``limits.trusted``).
        hidden: files and folders the contained process must not see.

    Raises:
        IsolationUnavailable: as :class:`SandboxedAgent`.
    """

    def __init__(
        self,
        name: str,
        program: bytes,
        *,
        limits: SandboxLimits | None = None,
        contain: bool | None = None,
        hidden: Sequence[str | Path] = (),
    ) -> None:
        self.name = name
        self.program = program
        self.limits = limits or SandboxLimits()
        self.contained = require_isolation(self.limits.trusted) if contain is None else contain
        self.hidden = tuple(str(Path(h).resolve()) for h in hidden)
        self.starts = 0
        self.logs: list[str] = []
        self._log_left = self.limits.log_bytes
        self._process: subprocess.Popen[bytes] | None = None
        self._log: EntrantLog | None = None
        self._workdir: str | None = None
        self._cgroup: EntrantCgroup | None = None

    @property
    def pid(self) -> int | None:
        """The process id (of the launcher when contained), or None."""
        return None if self._process is None else self._process.pid

    def spawn(self) -> socket.socket:
        """Start the program; return the arena's end of its stdin/stdout connection.

        Raises:
            OSError: the process could not be started (its cgroup, a fork).
        """
        self.kill()
        self.starts += 1
        parent, child = socket.socketpair()
        self._workdir = _workdir(self, self.contained)
        program_fd = _program_descriptor(self.program)
        config = {"mode": "exec", "channel": child.fileno(), "program_fd": program_fd,
                  "name": self.name, "contain": self.contained,
                  "root": self._workdir or CONTAINED_ROOT,
                  "tmp_megabytes": self.limits.tmp_megabytes, "hidden": list(self.hidden)}
        try:
            launched = launch(
                config, memory_megabytes=self.limits.memory_megabytes,
                cpu_seconds=self.limits.cpu_seconds, tmp_megabytes=self.limits.tmp_megabytes,
                max_tasks=self.limits.max_processes + 3, cpus=self.limits.cpus,
                pass_fds=(child.fileno(), program_fd), workdir=self._workdir or "/",
                environment=_environment(python=False), log_bytes=self._log_left,
            )
        except OSError:
            parent.close()
            _remove(self._workdir)
            self._workdir = None
            raise
        finally:
            child.close()
            os.close(program_fd)
        self._process, self._cgroup, self._log = launched.process, launched.cgroup, launched.log
        return parent

    @property
    def running(self) -> bool:
        """True while a process is up (it may have exited and not been reaped yet)."""
        return self._process is not None and self._process.poll() is None

    def kill(self, why: str | None = None) -> None:
        """End the process and everything it started; keep its log."""
        process = self._process
        if process is None:
            return
        end_process(process, self._cgroup)
        self._cgroup = None
        self._log_left -= keep_log(self._log, None if why is None else _detail(why), self.logs)
        _remove(self._workdir)
        self._process = self._log = None
        self._workdir = None

    def exit_text(self) -> str:
        """How the process ended, in words."""
        process = self._process
        if process is None:
            return "the process is gone"
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=1)
        code = process.returncode
        if code is None:
            return "the process closed its connection"
        if code < 0:
            with contextlib.suppress(ValueError):
                return f"the process was killed by signal {signal.Signals(-code).name}"
            return f"the process was killed by signal {-code}"
        return f"the process exited with status {code}"

    @property
    def log(self) -> str:
        """Everything the program's processes wrote to stderr (bounded), one block each."""
        return "\n".join(self.logs)

    def close(self) -> None:
        """Stop the program (and everything it started); keep its log."""
        self.kill()


def check_loads(
    source: EntrantSource, game: Game, *, limits: SandboxLimits | None = None,
    hidden: Sequence[str | Path] = (),
) -> str | None:
    """Start the entrant in its sandbox (the same view as in play) and stop it.

    Returns None if it loads, else why not (cut to :data:`MAX_DETAIL` characters).

    Raises:
        IsolationUnavailable: as :class:`SandboxedAgent`.
    """
    agent = SandboxedAgent(source, game, limits=limits, hidden=hidden)
    try:
        agent.start()
    except AgentFault as exc:
        return _detail(f"{exc.kind}: {exc.detail}")
    finally:
        agent.close()
    return None


__all__ = [
    "BUDGET_DECISIONS",
    "MAX_DETAIL",
    "MAX_SOURCE_BYTES",
    "EntrantSource",
    "ProcessEntrant",
    "SandboxLimits",
    "SandboxedAgent",
    "check_loads",
]
