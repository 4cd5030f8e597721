"""Starting and ending an entrant's process: the launcher, the probe, logs, strays.

The mechanics under :mod:`pokerlab.play.sandbox`: whether this machine can isolate
entrants (:func:`isolation_problems`, a probe of every mechanism, once per process),
how a launcher is started (:func:`launch`: the interpreter running *this* pokerlab, in
the entrant's cgroup, with its resource limits), the bounded capture of its output
(:class:`EntrantLog`), how processes an entrant left behind are found
(:func:`find_strays`) and killed, and how an entrant's process is ended
(:func:`end_process`).
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import json
import os
import resource
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokerlab.errors import PokerlabError
from pokerlab.games.observation import Observation
from pokerlab.play.cgroups import EntrantCgroup, cgroup_support
from pokerlab.play.dealer import AgentConnection
from pokerlab.play.entrant_protocol import clean_text
from pokerlab.play.isolation import HOST_ID_BASE, ISOLATION_FAILED

_PR_SET_PDEATHSIG = 1

PACKAGE_ROOT = str(Path(__file__).resolve().parent.parent.parent)
"""The folder holding this ``pokerlab`` package: the launcher imports pokerlab from it."""

BOOTSTRAP = (
    "import sys; sys.path.insert(0, {root!r}); "
    "from pokerlab.play.entrant_process import main; main()"
)
"""What the launcher's interpreter runs (``-I -c``): the parent's pokerlab, whatever is
installed (``-I`` ignores ``PYTHONPATH`` and the user's site-packages)."""


class IsolationUnavailable(PokerlabError):  # noqa: N818 - the name says what is missing
    """This machine cannot isolate entrants, and they were not trusted explicitly."""


@dataclass
class Launched:
    """A started launcher: its process, its cgroup (or None) and its log."""

    process: subprocess.Popen[bytes]
    cgroup: EntrantCgroup | None
    log: EntrantLog
    host_pids: set[int] = field(default_factory=set)


def launcher_command() -> list[str]:
    """The launcher's command line.

    Its configuration comes on its stdin, not in its arguments: an entrant reads its own
    command line, and the paths it must not see are in the configuration.
    """
    return [sys.executable, "-I", "-c", BOOTSTRAP.format(root=PACKAGE_ROOT)]


@contextlib.contextmanager
def one_core(enabled: bool = True) -> Iterator[None]:
    """Keep the calling thread, and every process it starts meanwhile, on one core.

    A match with isolated entrants is a game of ping-pong: the dealer's thread asks, an
    entrant's process answers, never both at once. On a virtual machine a wake-up on
    another core costs tens of microseconds (a request and its answer over a socket pair:
    50-65 us across two cores, 14-17 us on one, measured on the 2-core machine of
    docs/benchmarks.md), so the thread runs on one core of those it may use, and its
    launchers inherit that affinity. The core is the same for every match of a process
    (chosen by its pid among the allowed ones: an entrant started in one match and still
    running in the next stays with its dealer; two arenas side by side likely differ).
    The previous affinity comes back at the end. Nothing is changed where the thread may
    run on one core only already, or where the system has no affinities (never an error).

    Entrants' processes started meanwhile are spread over the cores (:func:`launch`): the
    first shares the dealer's, the next gets another, so that two entrants of a match do
    not share one core where the machine has two (one that keeps a thread busy would
    take half of its rival's thinking time otherwise). Where the dealer may (root), its
    thread also runs at :data:`DEALER_NICE` meanwhile: an entrant that keeps a thread busy
    on the dealer's core then delays the dealer's reading of its rival's answers by far
    less (it added 5-20 ms to a rival's measured decisions at the same priority); the
    entrants' processes start at the caller's priority.
    """
    global _WIDE
    before = None
    nice = None
    if enabled and hasattr(os, "sched_setaffinity"):
        try:
            allowed = os.sched_getaffinity(0)
            if len(allowed) > 1:
                os.sched_setaffinity(0, {sorted(allowed)[os.getpid() % len(allowed)]})
                before = allowed
                _WIDE = frozenset(allowed)
        except OSError:
            before = None
    outer = getattr(_NICE, "value", None)  # set: inside another one_core of this thread
    if enabled and os.geteuid() == 0:
        with contextlib.suppress(OSError):
            nice = os.getpriority(os.PRIO_PROCESS, 0)  # this thread's, on Linux
            _NICE.value = nice if outer is None else outer
            os.setpriority(os.PRIO_PROCESS, 0, min(nice, DEALER_NICE))
    try:
        yield
    finally:
        if before is not None:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(0, before)
        if nice is not None:
            with contextlib.suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, 0, nice)
            _NICE.value = outer


DEALER_NICE = -10
"""The dealer thread's nice value while it plays entrants (root only; the caller's after)."""

_NICE = threading.local()
"""``value``: the dealer thread's own nice value while :func:`one_core` raised it (None
elsewhere): the priority its launchers go back to."""


class AllCores:
    """A connection whose agent decides on every core its process may use, in a pinned match.

    :func:`one_core` keeps the dealer's thread on one core while it plays a hand against
    entrants' processes. An agent in this process decides on that thread: without this
    wrapper, a searching agent, a numba kernel or any thread it starts would get one core
    too (threads inherit the affinity of the thread that starts them). ``act`` widens the
    thread's affinity to ``cores`` for the call and puts it back after (three system
    calls, a few microseconds); the other hooks, which agents keep light, pass straight
    through.
    """

    def __init__(self, inner: AgentConnection, cores: set[int]) -> None:
        self.inner = inner
        self.cores = set(cores)
        self.name = inner.name
        self.wants_updates = bool(inner.wants_updates)
        self.wants_seed = bool(getattr(inner, "wants_seed", True))
        self.reset = inner.reset
        self.seed = inner.seed
        self.observe = inner.observe

    def act(self, observation: Observation) -> object:
        """The agent's answer, decided on every core."""
        act = self.inner.act
        try:
            pinned = os.sched_getaffinity(0)
            if pinned == self.cores:
                return act(observation)
            os.sched_setaffinity(0, self.cores)
        except OSError:
            return act(observation)
        try:
            return act(observation)
        finally:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(0, pinned)

    def close(self) -> None:
        """Close the wrapped connection, if it closes."""
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()


DROP_CACHES = Path("/proc/sys/vm/drop_caches")
"""The kernel's switch that drops the clean page cache, dentries and inodes (root)."""


def can_drop_host_caches() -> bool:
    """Whether :func:`drop_host_caches` can work here (root in the host's namespaces)."""
    return os.access(DROP_CACHES, os.W_OK)


DROP_CACHES_VARIABLE = "POKERLAB_DROP_CACHES"
"""The environment variable that sets the default: ``yes``, ``no`` or ``auto`` (unset)."""


def drop_caches_setting() -> bool | None:
    """The default of ``$POKERLAB_DROP_CACHES``: True (``yes``), False (``no``), None (auto).

    Raises:
        PokerlabError: a value that is none of ``yes``, ``no``, ``auto``.
    """
    text = os.environ.get(DROP_CACHES_VARIABLE, "").strip().lower()
    choices: dict[str, bool | None] = {"": None, "auto": None, "yes": True, "no": False}
    if text not in choices:
        raise PokerlabError(f"${DROP_CACHES_VARIABLE} must be yes, no or auto; got "
                            f"{os.environ[DROP_CACHES_VARIABLE]!r}")
    return choices[text]


def resolve_drop_caches(wanted: bool | None) -> bool:
    """Whether to drop the host's caches between legs: ``wanted``, or the default (None).

    The default is ``$POKERLAB_DROP_CACHES`` (:func:`drop_caches_setting`), and where that
    is unset, to drop them wherever the machine allows it. Dropping them where the machine
    cannot (True) is refused before anything is played; False never drops them.

    Raises:
        PokerlabError: they must be dropped and cannot be here, or a bad variable.
    """
    if wanted is None:
        wanted = drop_caches_setting()
    if wanted is None:
        return can_drop_host_caches()
    if wanted:
        check_drop_caches()
    return wanted


def check_drop_caches() -> None:
    """Refuse, before a run, a machine where :func:`drop_host_caches` cannot work.

    Raises:
        PokerlabError: naming what is missing (root in the host's namespaces).
    """
    if not can_drop_host_caches():
        raise PokerlabError(
            f"dropping the host's caches needs root in the host's namespaces: {DROP_CACHES} "
            "is not writable here; run with --no-drop-caches (the page cache between the "
            "legs of a match then stays a channel, see docs/entrants.md)")


def drop_host_caches() -> None:
    """Drop the machine's clean page cache, dentries and inodes (after writing dirty pages).

    Between the legs of a duplicate match: the first leg's processes could leave the
    cards they held in what the cache holds (a rarely read file read, a missing name
    looked up), and the second leg's read it back by timing its own reads. After the
    drop, the cache holds what running processes map and nothing an ended leg chose.
    Every process of the machine pays: its files are read from the disk again.

    Raises:
        PokerlabError: the kernel refused (see :func:`check_drop_caches`).
    """
    os.sync()
    try:
        DROP_CACHES.write_text("3\n")
    except OSError as error:
        raise PokerlabError(f"cannot drop the host's caches ({error}); see "
                            "check_drop_caches") from None


def allowed_cores() -> set[int] | None:
    """The cores the calling thread may run on (None where the system has no affinities)."""
    if not hasattr(os, "sched_getaffinity"):
        return None
    try:
        return set(os.sched_getaffinity(0))
    except OSError:
        return None


@functools.cache
def _prctl() -> Any:
    """The C library's ``prctl`` (None where there is none), looked up in the parent.

    ``dlopen`` between fork and exec could wait forever on a lock that another of the
    arena's threads held at the fork.
    """
    try:
        return ctypes.CDLL(None).prctl
    except (OSError, AttributeError):
        return None


_WIDE: frozenset[int] | None = None
"""The cores this process may use, as :func:`one_core` found them before it pinned."""

_RUNNING: dict[int, tuple[subprocess.Popen[bytes], int, int | None]] = {}
"""The launchers started and not yet seen ended, by pid: (process, host id, core or None)."""

_RUNNING_LOCK = threading.Lock()


def _running() -> list[tuple[int, int | None]]:
    """(host id, core) of each launcher still running (the ended ones are forgotten)."""
    with _RUNNING_LOCK:
        for pid, (process, _, _) in list(_RUNNING.items()):
            if process.poll() is not None:
                del _RUNNING[pid]
        return [(number, core) for _, number, core in _RUNNING.values()]


def new_host_id() -> int:
    """A host user id for an entrant's process: random, and none a running entrant holds.

    :data:`~pokerlab.play.isolation.HOST_ID_BASE` plus a random 30-bit number: the id is
    read back inside (``/proc/self/uid_map``), so it must tell nothing of the host (the
    launcher's pid, as it was made of, told one leg how many processes the last had
    forked: a channel between the legs of a duplicate match).
    """
    taken = {number for number, _ in _running()}
    while True:
        number = HOST_ID_BASE + 1 + secrets.randbelow(1 << 30)
        if number not in taken:
            return number


def _entrant_core() -> int | None:
    """The core for an entrant's process started now; None: it inherits the caller's.

    Inside :func:`one_core` (the calling thread on one core, the process allowed several),
    the core with the fewest entrants' processes still running, the dealer's first then
    the next ones in order: a match's two entrants get two cores where there are two, and
    an entrant started again after a fault takes the core its rival does not hold.
    """
    wide = _WIDE
    try:
        mine = os.sched_getaffinity(0)
    except (OSError, AttributeError):
        return None
    if wide is None or len(wide) < 2 or len(mine) != 1 or not mine <= wide:
        return None
    cores = sorted(wide)
    home = cores.index(next(iter(mine)))
    order = cores[home:] + cores[:home]
    load = dict.fromkeys(order, 0)
    for _, core in _running():
        if core in load:
            load[core] += 1
    return min(order, key=load.__getitem__)  # ties: the first in order, the dealer's


def _limit_child(memory: int, cpu_seconds: int, file_bytes: int,
                 cgroup: EntrantCgroup | None, prctl: Any, core: int | None = None,
                 nice: int | None = None) -> None:
    """Runs in the child between fork and exec: cgroup, limits, core, priority, death signal.

    The seccomp filter refuses ``sched_setaffinity`` to the entrant: the core holds. The
    priority goes back from the dealer's (:data:`DEALER_NICE`) to the caller's.
    """
    if core is not None:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {core})
    if nice is not None:
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, 0, nice)
    if cgroup is not None:
        cgroup.join()
    for which, value in (
        (resource.RLIMIT_AS, memory),
        (resource.RLIMIT_CPU, cpu_seconds),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_FSIZE, file_bytes),
        (resource.RLIMIT_NOFILE, 256),
    ):
        resource.setrlimit(which, (value, value))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails, not kills
    if prctl is not None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def launch(
    config: dict[str, Any],
    *,
    memory_megabytes: int,
    cpu_seconds: int,
    tmp_megabytes: int,
    max_tasks: int,
    cpus: float,
    pass_fds: Sequence[int],
    workdir: str,
    environment: dict[str, str],
    log_bytes: int,
) -> Launched:
    """Start a launcher in a cgroup of its own (where the machine allows) with its limits.

    ``config`` (see :mod:`pokerlab.play.entrant_process`) is written on its stdin, which
    it replaces by ``/dev/null``; its stdout and stderr go to an :class:`EntrantLog`
    keeping the first ``log_bytes``. The environment gets :data:`ONE_THREAD`: the launcher
    imports numpy before it enters its namespaces, and ``unshare`` refuses a new user
    namespace to a process with a second thread (OpenBLAS starts one per core).
    """
    environment = {**environment, **ONE_THREAD}
    memory = memory_megabytes * 1024 * 1024
    cgroup = None
    if cgroup_support()[0]:
        cgroup = EntrantCgroup(memory, max_tasks, cpus)
    config = {**config, "host_id": new_host_id()}
    log_read, log_write = os.pipe()
    core = _entrant_core()
    try:
        process = subprocess.Popen(
            launcher_command(), pass_fds=tuple(pass_fds), stdin=subprocess.PIPE,
            stdout=log_write, stderr=log_write, cwd=workdir, env=environment,
            start_new_session=True,
            preexec_fn=functools.partial(_limit_child, memory, cpu_seconds,
                                         tmp_megabytes * 1024 * 1024, cgroup, _prctl(), core,
                                         getattr(_NICE, "value", None)),
        )
        with _RUNNING_LOCK:
            _RUNNING[process.pid] = (process, int(config["host_id"]), core)
        assert process.stdin is not None
        with contextlib.suppress(OSError):  # a launcher that died at once: seen later
            process.stdin.write(json.dumps(config).encode())
        with contextlib.suppress(OSError):
            process.stdin.close()
    except BaseException:
        os.close(log_read)
        if cgroup is not None:
            cgroup.kill_all()
        raise
    finally:
        os.close(log_write)
    return Launched(process, cgroup, EntrantLog(log_read, log_bytes))


ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
"""Set in every launcher's environment (and so its entrant's): numeric libraries start no
thread pools."""

_PROBLEMS_LOCK = threading.Lock()


@functools.lru_cache(maxsize=1)
def isolation_problems() -> tuple[str, ...]:
    """What this machine lacks to isolate entrants (empty: nothing), each mechanism named.

    Checked once per process, one thread at a time (entrants' files are checked from
    several threads): root (to map each entrant to an unprivileged id of its own),
    cgroups for memory, processes and CPU, then a probe: a launcher that builds the
    whole contained view and checks every mechanism from inside.
    """
    with _PROBLEMS_LOCK:
        return _find_problems()


def _find_problems() -> tuple[str, ...]:
    """:func:`isolation_problems`, looked up."""
    problems = []
    if not sys.platform.startswith("linux"):
        return (f"Linux namespaces (this is {sys.platform})",)
    if os.geteuid() != 0:
        problems.append("root (needed to map each entrant to an unprivileged id of its own)")
    cgroup_problem = cgroup_support()[1]
    if cgroup_problem is not None:
        problems.append(f"cgroups for memory, processes and CPU ({cgroup_problem})")
    if problems:
        return tuple(problems)
    probe = probe_isolation()
    return () if probe is None else (probe,)


def probe_isolation(hidden: Sequence[str] = ()) -> str | None:
    """Start a contained launcher that checks every mechanism; None if all hold, else why."""
    launched = launch(
        {"mode": "probe", "contain": True, "tmp_megabytes": 1, "hidden": list(hidden),
         "root": "/tmp"},
        memory_megabytes=1024, cpu_seconds=60, tmp_megabytes=1, max_tasks=16, cpus=1.0,
        pass_fds=(), workdir="/", environment={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
        log_bytes=16384,
    )
    try:
        code = launched.process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        code = None
    end_process(launched.process, launched.cgroup)
    text = launched.log.text()
    if code == 0 and '"uid"' in text:
        return None
    for line in text.splitlines():
        if line.startswith("pokerlab-isolation: "):
            return line[len("pokerlab-isolation: "):]
    if code is None:
        return "the isolation probe did not finish within 60 s"
    status = f"status {code}" if code != ISOLATION_FAILED else "a mechanism failed"
    return f"the isolation probe ended with {status}: {text.strip()[-300:]}"


def containment_available() -> bool:
    """True when this machine isolates entrants with every mechanism (see docs/entrants.md)."""
    return not isolation_problems()


def require_isolation(trusted: bool) -> bool:
    """Whether to contain entrants: True if the machine can; False if not but ``trusted``.

    Raises:
        IsolationUnavailable: the machine cannot, and entrants are not trusted (the
            message names each missing mechanism and the way out).
    """
    problems = isolation_problems()
    if not problems:
        return True
    if trusted:
        return False
    raise IsolationUnavailable(
        "entrants cannot be isolated on this machine: it lacks "
        + "; ".join(problems)
        + ". Run pokerlab as root on Linux with user namespaces and cgroups, or pass "
        "--trust-entrants to run them anyway in plain processes (they can then read "
        "and write what you can, and use the network)"
    )


DRAIN_BYTES_PER_SECOND = 16 * 1024 * 1024
"""How fast output past an entrant's log limit is read (and dropped)."""


class EntrantLog:
    """Reads a process's output in a thread; keeps the first ``limit`` bytes.

    Past the limit it still drains the pipe (counting what it drops), but at most
    :data:`DRAIN_BYTES_PER_SECOND`: an entrant printing without end blocks on its own
    writes instead of keeping the arena's thread busy.
    """

    def __init__(self, descriptor: int, limit: int) -> None:
        self.limit = max(0, limit)
        self.data = bytearray()
        self.dropped = 0
        self._thread = threading.Thread(target=self._read, args=(descriptor,), daemon=True,
                                        name="pokerlab-entrant-log")
        self._thread.start()

    def _read(self, descriptor: int) -> None:
        with contextlib.suppress(OSError):
            while True:
                chunk = os.read(descriptor, 1 << 16)
                if not chunk:
                    break
                room = self.limit - len(self.data)
                if room > 0:
                    self.data += chunk[:room]
                self.dropped += max(0, len(chunk) - max(room, 0))
                if room <= len(chunk):
                    time.sleep(len(chunk) / DRAIN_BYTES_PER_SECOND)
        os.close(descriptor)

    def text(self, wait: float = 1.0) -> str:
        """What was kept (control characters escaped), with a note of what was dropped."""
        self._thread.join(wait)
        text = clean_text(self.data.decode(errors="replace"), len(self.data))
        if self.dropped:
            text += f"\n[... {self.dropped:,} more bytes of output dropped]"
        return text


def parent_and_session(pid: int) -> tuple[int, int] | None:
    """``(parent pid, session id)`` of a process, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[1]), int(fields[3])


def pid_namespace(pid: int) -> str | None:
    """The PID namespace ``pid`` lives in (its /proc link), or None once it is gone."""
    with contextlib.suppress(OSError):
        return os.readlink(f"/proc/{pid}/ns/pid")
    return None


def sandbox_processes(
    process: subprocess.Popen[bytes], cgroup: EntrantCgroup | None, contained: bool, *,
    scan: bool
) -> set[int]:
    """Pids of the processes of a sandbox now.

    Its cgroup lists them all; without one (and only with ``scan``, which reads the whole
    process table), those of its session and, when contained, of its PID namespace.
    """
    if cgroup is not None:
        with contextlib.suppress(OSError, ValueError):
            return cgroup.procs()
    if not scan:
        return set()
    found: set[int] = set()
    table = [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()]
    for pid in table:
        info = parent_and_session(pid)
        if info is not None and (info[1] == process.pid or pid == process.pid):
            found.add(pid)
    if contained:
        namespaces = {pid_namespace(p) for p in found if p != process.pid} - {None}
        found |= {p for p in table if pid_namespace(p) in namespaces}
    return found


def find_strays(
    process: subprocess.Popen[bytes],
    cgroup: EntrantCgroup | None,
    contained: bool,
    *,
    scan: bool,
    own: set[int] | None = None,
) -> list[int]:
    """Processes of the sandbox beyond the entrant's own (the launcher and its child).

    ``own``, when given, caches the entrant's own pids between calls (filled on the
    first): the check after each decision then reads no process's ``/proc`` entry.
    """
    pids = sandbox_processes(process, cgroup, contained, scan=scan)
    mine = own if own is not None else set()
    if not mine:
        mine.add(process.pid)
        if contained:
            mine |= {p for p in pids if (parent_and_session(p) or (0, 0))[0] == process.pid}
    return sorted(pids - mine)


def kill_pids(pids: Sequence[int]) -> None:
    """SIGKILL each of ``pids``, ignoring those already gone or not ours."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def end_process(process: subprocess.Popen[bytes], cgroup: EntrantCgroup | None) -> None:
    """Kill an entrant's process group and every process it started, then reap it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    if cgroup is not None:
        cgroup.kill_all()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


def keep_log(log: EntrantLog | None, why: str | None, logs: list[str]) -> int:
    """Append what an ended process printed (and why it ended, if said) to ``logs``.

    Returns the bytes kept of its output (to share a log budget between processes).
    """
    if log is None:
        return 0
    text = log.text()
    if why:
        text += f"\n[{why}]"
    logs.append(text)
    return len(log.data)


__all__ = [
    "BOOTSTRAP",
    "DEALER_NICE",
    "DROP_CACHES",
    "DROP_CACHES_VARIABLE",
    "PACKAGE_ROOT",
    "AllCores",
    "EntrantLog",
    "IsolationUnavailable",
    "Launched",
    "allowed_cores",
    "can_drop_host_caches",
    "check_drop_caches",
    "containment_available",
    "drop_caches_setting",
    "drop_host_caches",
    "end_process",
    "find_strays",
    "isolation_problems",
    "keep_log",
    "kill_pids",
    "launch",
    "launcher_command",
    "new_host_id",
    "one_core",
    "parent_and_session",
    "pid_namespace",
    "probe_isolation",
    "require_isolation",
    "resolve_drop_caches",
    "sandbox_processes",
]
