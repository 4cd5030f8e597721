"""Entrants in their own processes: the dealer's second transport, every fault contained.

An entrant's file never runs in the arena's process. :class:`SandboxedAgent` is an
:class:`~pokerlab.play.dealer.AgentConnection` to a process of its own
(:mod:`pokerlab.play.entrant_process`) that speaks the small protocol of
:mod:`pokerlab.play.entrant_protocol` over a socket pair. Only the entrant's own
observations cross; the process gets:

- a copy of the entrant's source only (read once by :meth:`EntrantSource.read`, so
  changing the file later changes nothing), in a working directory of its own; the
  users' folders (``/tmp``, ``/home``...), the arena's database and the entrants' files
  are hidden from it (contained processes);
- a closed stdin, its stdout and stderr captured to a bounded log (the first
  :attr:`SandboxLimits.log_bytes`; the rest is counted and dropped);
- resource limits: address space, CPU seconds, file size, open files, no core dumps, and
  (where the machine's cgroups allow) a cap on its number of processes, which also lists
  every process it started, so that all are killed with it;
- when the machine allows it (root and Linux namespaces: :func:`containment_available`),
  containment: new mount, PID and network namespaces, the whole file system read-only,
  a private size-limited ``/tmp`` and ``/proc``, every capability dropped, a process cap.
  Then an entrant cannot read or write any file of the arena, see or signal any other
  process, reach the network, or leave a process behind: killing the sandbox kills
  everything it started.

Time limits: starting (import and constructor) has :attr:`SandboxLimits.start_seconds`;
each decision has :attr:`SandboxLimits.decision_seconds`, shared with the hook calls
(``reset``, ``seed``, ``observe``) sent just before it (they are pipelined: the arena
does not wait for a hook's answer, it reads it later, so a slow entrant costs itself
time, not the arena). When a limit passes, the process is killed at once (not
abandoned) and a fresh one is started for the next hand; a process that dies, exits or
breaks the protocol is a fault too. After :attr:`SandboxLimits.max_faults` such faults in
a match the entrant is disqualified for the rest of it: its decisions get the default
action, each recorded as a ``disqualified`` fault.

Processes left behind: an entrant may start processes while a call runs, but none may
outlive the call. After each decision the sandbox lists the processes of its cgroup
(every process the entrant started, whatever session or process group it moved to);
any beyond the entrant's own is killed and recorded as a ``stray-process`` fault (the
entrant's process itself goes on). The listing is skipped while the cgroup's task count
is unchanged since the last clean check, so a stray started in the same call as another
of the entrant's tasks ended is found only when the process ends. Where no cgroup can
be made, the session and (when contained) the PID namespace are searched when the process
ends instead; strays found then are killed and noted in the log, as are those started by
the last hook of a match.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import hashlib
import os
import resource
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pokerlab.errors import PokerlabError
from pokerlab.games.base import Game
from pokerlab.games.observation import HandResult, Observation
from pokerlab.play.containment import (
    EntrantLog,
    ProcessCap,
    containment_available,
    end_process,
    find_strays,
    keep_log,
    kill_pids,
)
from pokerlab.play.dealer import AgentFault
from pokerlab.play.entrant_protocol import (
    ProtocolError,
    Reader,
    decode_answer,
    encode_update,
    frame,
)

MAX_SOURCE_BYTES = 512 * 1024
"""Entrant files larger than this are refused."""

_PR_SET_PDEATHSIG = 1


@dataclass(frozen=True)
class SandboxLimits:
    """What an entrant's process may use.

    Attributes:
        decision_seconds: per decision, the hooks sent just before it included.
        start_seconds: to import the file and build the agent.
        memory_megabytes: address space of the process.
        cpu_seconds: CPU time of one process (it is restarted after a fault).
        tmp_megabytes: size of the private ``/tmp`` (contained processes).
        max_processes: processes the entrant may start beside its own.
        log_bytes: how much of its output is kept.
        max_faults: timeouts, deaths and protocol breaks in a match before disqualification.
    """

    decision_seconds: float = 10.0
    start_seconds: float = 30.0
    memory_megabytes: int = 2048
    cpu_seconds: int = 3600
    tmp_megabytes: int = 16
    max_processes: int = 16
    log_bytes: int = 64 * 1024
    max_faults: int = 3


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
        return cls(file.stem, str(file), text, hashlib.sha256(data).hexdigest())


def _limit_child(limits: SandboxLimits, cap: ProcessCap | None) -> None:
    """Runs in the child between fork and exec: resource limits and a death signal."""
    if cap is not None:
        cap.join()
    memory = limits.memory_megabytes * 1024 * 1024
    for which, value in (
        (resource.RLIMIT_AS, memory),
        (resource.RLIMIT_CPU, limits.cpu_seconds),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_FSIZE, limits.tmp_megabytes * 1024 * 1024),
        (resource.RLIMIT_NOFILE, 256),
    ):
        resource.setrlimit(which, (value, value))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails, not kills
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


class SandboxedAgent:
    """An entrant playing from its own process (an AgentConnection for the dealer).

    Args:
        source: the entrant's file, read once.
        game: the game it plays.
        limits: what its process may use.
        contain: use namespaces (None: when :func:`containment_available`).
        hidden: files and folders the contained process must not see, besides the users'
            folders (``/tmp``, ``/home``...) that it never sees: the arena's database,
            the entrants' files.
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
        self.hidden = tuple(str(Path(h).resolve()) for h in hidden)
        self.game = game
        self.limits = limits or SandboxLimits()
        self.contained = containment_available() if contain is None else contain
        self.name = source.name
        self.hooks: tuple[str, ...] = ()
        self.faults = 0
        self.starts = 0
        self.disqualified = False
        self.strays = 0
        self._killed: set[int] = set()
        self._own: set[int] = set()  # the pids of the process and unshare's child
        self._quiet_count = -1  # the cgroup's task count when no stray was last found
        self.logs: list[str] = []
        self._deferred: list[tuple[str, str]] = []
        self._queue: list[bytes] = []
        self._pending: list[tuple[int, str]] = []  # (id, op) sent, answer not yet read
        self._next_id = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._channel: socket.socket | None = None
        self._reader: Reader | None = None
        self._log: EntrantLog | None = None
        self._workdir: str | None = None
        self._cap: ProcessCap | None = None

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
    def pid(self) -> int | None:
        """The process id (of ``unshare`` when contained), or None."""
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
        try:
            value = self._request({"op": "start", "game": self.game.spec_text,
                                   "file": Path(self.source.path).name,
                                   "source": self.source.text},
                                  self.limits.start_seconds, "start")
        except AgentFault:
            raise
        hooks = value.get("hooks", []) if isinstance(value, dict) else []
        self.hooks = tuple(h for h in hooks if h in ("reset", "seed", "observe"))

    def _spawn(self) -> None:
        self.starts += 1
        parent, child = socket.socketpair()
        log_read, log_write = os.pipe()
        self._workdir = tempfile.mkdtemp(prefix="pokerlab-entrant-")
        # unshare and the interpreter, then what the entrant may start itself
        self._cap = ProcessCap(self.limits.max_processes + 2)
        command = [sys.executable, "-I", "-m", "pokerlab.play.entrant_process",
                   str(child.fileno()), self._workdir]
        if self.contained:
            command = ["unshare", "--mount", "--pid", "--net", "--fork", "--kill-child", "--",
                       *command, "--contain", str(self.limits.tmp_megabytes),
                       str(self.limits.max_processes), *self.hidden]
        environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
                       "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
                       "NUMBA_CACHE_DIR": "/tmp/numba"}
        try:
            self._process = subprocess.Popen(
                command, pass_fds=(child.fileno(),), stdin=subprocess.DEVNULL,
                stdout=log_write, stderr=log_write, cwd=self._workdir, env=environment,
                start_new_session=True,
                preexec_fn=functools.partial(_limit_child, self.limits, self._cap),
            )
        finally:
            child.close()
            os.close(log_write)
        self._channel = parent
        self._reader = Reader(parent)
        self._log = EntrantLog(log_read, self.limits.log_bytes)
        self._pending.clear()
        self._queue.clear()

    def _kill(self, why: str | None = None) -> None:
        """End the process (and everything it started); keep its log."""
        process = self._process
        if process is None:
            return
        strays = [p for p in find_strays(process, self._cap, self.contained, scan=True,
                                     own=self._own)
                  if p not in self._killed]
        kill_pids(strays)
        self._killed.clear()
        self._own.clear()
        self._quiet_count = -1
        end_process(process, self._cap)
        self._cap = None
        if self._channel is not None:
            self._channel.close()
        if strays:
            self.strays += len(strays)
            note = f"killed {len(strays)} process(es) it left running"
            why = f"{why}; {note}" if why else note
        keep_log(self._log, why, self.logs)
        if self._workdir is not None:
            shutil.rmtree(self._workdir, ignore_errors=True)
        self._process = self._channel = self._reader = self._log = None
        self._workdir = None
        self._pending.clear()
        self._queue.clear()

    def _fault(self, kind: str, detail: str) -> AgentFault:
        """Kill the process for a fault that ends it; disqualify after too many."""
        self._kill(f"{kind}: {detail}")
        self.faults += 1
        if self.faults >= self.limits.max_faults and not self.disqualified:
            self.disqualified = True
            self._deferred.append(("disqualified", f"{self.name} is disqualified for the rest "
                                   f"of the match after {self.faults} faults that ended its "
                                   "process"))
        return AgentFault(kind, detail)

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
            return f"the process was killed by signal {signal.Signals(-code).name}"
        return f"the process exited with status {code}"

    # -- requests ------------------------------------------------------------------------
    def _send_later(self, message: dict[str, Any]) -> None:
        self._next_id += 1
        message["id"] = self._next_id
        self._queue.append(frame(message))
        self._pending.append((self._next_id, str(message["op"])))
        if len(self._queue) > 64:  # a long run of hooks without a decision: flush them
            self._flush()

    def _flush(self) -> None:
        if self._queue and self._channel is not None:
            data = b"".join(self._queue)
            self._queue.clear()
            try:
                self._channel.sendall(data)
            except OSError:
                raise self._fault("crash", self._exit_text()) from None

    def _request(self, message: dict[str, Any], seconds: float, what: str) -> object:
        """Send ``message`` after the queued hooks; wait for its answer."""
        self._send_later(message)
        wanted = self._next_id
        self._flush()
        deadline = time.monotonic() + seconds
        assert self._reader is not None
        assert self._channel is not None
        while True:
            try:
                reply = self._reader.pending()
            except ProtocolError as exc:
                raise self._fault("protocol", str(exc)) from None
            if reply is None:
                left = deadline - time.monotonic()
                ready = select.select([self._channel], [], [], max(left, 0))[0] if left > 0 else []
                if not ready:
                    calls = ", ".join(op for _, op in self._pending)
                    raise self._fault(
                        "timeout", f"no answer to {what} within {seconds:g} s (pending: {calls})"
                    )
                try:
                    alive = self._reader.feed()
                except ProtocolError as exc:
                    raise self._fault("protocol", str(exc)) from None
                except OSError:
                    alive = False
                if not alive:
                    raise self._fault("crash", f"{self._exit_text()} during {what}")
                continue
            ident = reply.get("id")
            if not self._pending or ident != self._pending[0][0]:
                raise self._fault("protocol", f"an answer out of order: {str(reply)[:100]}")
            _, op = self._pending.pop(0)
            if not reply.get("ok"):
                detail = f"{op}: {reply.get('error', '?')}"
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
            AgentFault: timeout, crash, protocol break, exception, or disqualification.
        """
        if self.disqualified:
            raise AgentFault("disqualified", f"{self.name} is disqualified for this match")
        self._ensure_running()
        try:
            answer = self._request({"op": "act", "observation": encode_update(observation)},
                                   self.limits.decision_seconds, "act")
        finally:
            self._catch_strays()
        return decode_answer(answer)

    def _catch_strays(self) -> None:
        """Kill the processes the entrant left running after its calls; record a fault."""
        if self._process is None:
            return
        # Fast path: the cgroup's task count has not changed since the last check found
        # no stray. (A stray started in the same call as another of the entrant's tasks
        # ends is then seen only when the process ends: killed and noted in the log.)
        count = -1
        if self._cap is not None:
            with contextlib.suppress(OSError, ValueError):
                count = self._cap.count()
        if count >= 0 and count == self._quiet_count:
            return
        # A stray killed after an earlier call may not have exited yet (a loaded
        # machine): it is not counted twice.
        strays = [p for p in find_strays(self._process, self._cap, self.contained, scan=False,
                                     own=self._own)
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
    executables of :mod:`pokerlab.protocols`): :meth:`spawn` copies the program into a
    working directory of its own, starts it with :class:`SandboxLimits` (address space,
    CPU, file size, open files, a process cap that lists every process to kill) and, when
    :func:`containment_available`, in new mount, PID and network namespaces with the
    users' folders and ``hidden`` paths covered; its stdin and stdout are one end of a
    socket pair (the arena holds the other), its stderr goes to the bounded log.
    :meth:`kill` ends it and everything it started. The arena hides its database and the
    entrants' files from it (``hidden``) and stores its log, as for Python entrants.

    Args:
        name: the entrant's name.
        program: the executable's bytes (read once).
        limits: what its process may use.
        contain: use namespaces (None: when :func:`containment_available`).
        hidden: files and folders the contained process must not see.
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
        self.contained = containment_available() if contain is None else contain
        self.hidden = tuple(str(Path(h).resolve()) for h in hidden)
        self.starts = 0
        self.logs: list[str] = []
        self._process: subprocess.Popen[bytes] | None = None
        self._log: EntrantLog | None = None
        self._workdir: str | None = None
        self._cap: ProcessCap | None = None

    @property
    def pid(self) -> int | None:
        """The process id (of ``unshare`` when contained), or None."""
        return None if self._process is None else self._process.pid

    def spawn(self) -> socket.socket:
        """Start the program; return the arena's end of its stdin/stdout connection."""
        self.kill()
        self.starts += 1
        parent, child = socket.socketpair()
        log_read, log_write = os.pipe()
        self._workdir = tempfile.mkdtemp(prefix="pokerlab-entrant-")
        program = Path(self._workdir) / "program"
        program.write_bytes(self.program)
        program_fd = os.open(program, os.O_RDONLY)
        self._cap = ProcessCap(self.limits.max_processes + 2)
        # The launcher by its path: the one beside this module, whichever pokerlab the
        # interpreter would import by name.
        launcher = str(Path(__file__).with_name("entrant_process.py"))
        command = [sys.executable, "-I", launcher, "--exec",
                   str(child.fileno()), str(program_fd), self.name,
                   str(Path(self._workdir) / "run")]
        if self.contained:
            command = ["unshare", "--mount", "--pid", "--net", "--fork", "--kill-child", "--",
                       *command, "--contain", str(self.limits.tmp_megabytes),
                       str(self.limits.max_processes), *self.hidden]
        environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
        try:
            self._process = subprocess.Popen(
                command, pass_fds=(child.fileno(), program_fd), stdin=subprocess.DEVNULL,
                stdout=log_write, stderr=log_write, cwd=self._workdir, env=environment,
                start_new_session=True,
                preexec_fn=functools.partial(_limit_child, self.limits, self._cap),
            )
        finally:
            child.close()
            os.close(log_write)
            os.close(program_fd)
        self._log = EntrantLog(log_read, self.limits.log_bytes)
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
        end_process(process, self._cap)
        self._cap = None
        keep_log(self._log, why, self.logs)
        if self._workdir is not None:
            shutil.rmtree(self._workdir, ignore_errors=True)
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
            return f"the process was killed by signal {signal.Signals(-code).name}"
        return f"the process exited with status {code}"

    @property
    def log(self) -> str:
        """Everything the program's processes wrote to stderr (bounded), one block each."""
        return "\n".join(self.logs)

    def close(self) -> None:
        """Stop the program (and everything it started); keep its log."""
        self.kill()


def check_loads(
    source: EntrantSource, game: Game, *, limits: SandboxLimits | None = None
) -> str | None:
    """Start the entrant in a sandbox and stop it: None if it loads, else why not."""
    agent = SandboxedAgent(source, game, limits=limits)
    try:
        agent.start()
    except AgentFault as exc:
        return f"{exc.kind}: {exc.detail}"
    finally:
        agent.close()
    return None


__all__ = [
    "MAX_SOURCE_BYTES",
    "EntrantSource",
    "ProcessEntrant",
    "SandboxLimits",
    "SandboxedAgent",
    "check_loads",
]
