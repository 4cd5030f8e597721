"""Process containment for entrants: namespaces, a pids cgroup, bounded logs, stray processes.

The mechanics under :mod:`pokerlab.play.sandbox`: whether this machine can contain a process
(:func:`containment_available`), a cgroup that caps and lists an entrant's processes
(:class:`ProcessCap`), the bounded capture of its output (:class:`EntrantLog`), how processes
an entrant left behind are found (:func:`find_strays`) and killed, and how an entrant's
process is ended (:func:`end_process`).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path


@functools.lru_cache(maxsize=1)
def containment_available() -> bool:
    """True when entrants can be contained: root, and mount/PID/network namespaces work."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    try:
        done = subprocess.run(
            ["unshare", "--mount", "--pid", "--net", "--fork", "--kill-child", "--", "true"],
            capture_output=True, timeout=10, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


_PIDS_CGROUP = Path("/sys/fs/cgroup/pids")
_SANDBOX_COUNT = itertools.count()


@functools.lru_cache(maxsize=1)
def pids_root() -> Path | None:
    """Where sandboxes get their process-count cgroup (cgroup v1 ``pids``), if we may."""
    if not (_PIDS_CGROUP / "cgroup.procs").exists():
        return None
    root = _PIDS_CGROUP / "pokerlab"
    try:
        root.mkdir(exist_ok=True)
        probe = root / f"probe-{os.getpid()}"
        probe.mkdir(exist_ok=True)
        probe.rmdir()
    except OSError:
        return None
    # Cgroups left by arenas that were killed (their pid, in the name, is gone): remove
    # the empty ones.
    for stale in root.glob("sandbox-*"):
        owner = stale.name.split("-")[1]
        if owner.isdigit() and not Path(f"/proc/{owner}").exists():
            with contextlib.suppress(OSError):
                stale.rmdir()
    return root


class ProcessCap:
    """A ``pids`` cgroup holding a sandbox's processes.

    It caps their number, and lists every one of them to kill: none escapes it by changing
    its session or process group.
    """

    def __init__(self, max_processes: int) -> None:
        root = pids_root()
        self.path: Path | None = None
        self._count_fd: int | None = None
        if root is None:
            return
        path = root / f"sandbox-{os.getpid()}-{next(_SANDBOX_COUNT)}"
        try:
            path.mkdir()
            (path / "pids.max").write_text(str(max_processes))
        except OSError:
            return
        self.path = path

    def procs(self) -> set[int]:
        """The pids of the cgroup's processes now (raises OSError if it cannot be read).

        Opened afresh each time: cgroup v1 lists the pids of an open file once and
        re-reads of it (``pread`` at 0) show that stale list.
        """
        if self.path is None:
            raise OSError("no cgroup")
        descriptor = os.open(self.path / "cgroup.procs", os.O_RDONLY)
        try:
            return {int(p) for p in os.read(descriptor, 1 << 16).split()}
        finally:
            os.close(descriptor)

    def count(self) -> int:
        """The cgroup's task count now (``pids.current``: threads too); OSError if unreadable.

        A file of one number, read fresh by ``pread`` on a descriptor kept open: a few
        microseconds, where listing the pids costs an open each time.
        """
        if self.path is None:
            raise OSError("no cgroup")
        if self._count_fd is None:
            self._count_fd = os.open(self.path / "pids.current", os.O_RDONLY)
        return int(os.pread(self._count_fd, 64, 0))

    def join(self) -> None:
        """Move the calling process (a child before exec) into the cgroup."""
        if self.path is not None:
            with open(self.path / "cgroup.procs", "w") as procs:
                procs.write(str(os.getpid()))

    def kill_all(self) -> None:
        """Kill every process of the cgroup, then remove it."""
        if self._count_fd is not None:
            os.close(self._count_fd)
            self._count_fd = None
        if self.path is None:
            return
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                pids = [int(p) for p in (self.path / "cgroup.procs").read_text().split()]
            except OSError:
                break
            if not pids:
                break
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.01)
        with contextlib.suppress(OSError):
            self.path.rmdir()
        self.path = None


class EntrantLog:
    """Reads a process's output in a thread; keeps the first ``limit`` bytes."""

    def __init__(self, descriptor: int, limit: int) -> None:
        self.limit = limit
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
        os.close(descriptor)

    def text(self, wait: float = 1.0) -> str:
        """What was kept, with a note of what was dropped."""
        self._thread.join(wait)
        text = self.data.decode(errors="replace")
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
    process: subprocess.Popen[bytes], cap: ProcessCap | None, contained: bool, *, scan: bool
) -> set[int]:
    """Pids of the processes of a sandbox now.

    Its cgroup lists them all; without one (and only with ``scan``, which reads the whole
    process table), those of its session and, when contained, of its PID namespace.
    """
    if cap is not None and cap.path is not None:
        with contextlib.suppress(OSError, ValueError):
            return cap.procs()
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
    cap: ProcessCap | None,
    contained: bool,
    *,
    scan: bool,
    own: set[int] | None = None,
) -> list[int]:
    """Processes of the sandbox beyond the entrant's own (``unshare`` and its child).

    ``own``, when given, caches the entrant's own pids between calls (filled on the
    first): the check after each decision then reads no process's ``/proc`` entry.
    """
    pids = sandbox_processes(process, cap, contained, scan=scan)
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


def end_process(process: subprocess.Popen[bytes], cap: ProcessCap | None) -> None:
    """Kill an entrant's process group and every process it started, then reap it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    if cap is not None:
        cap.kill_all()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


def keep_log(log: EntrantLog | None, why: str | None, logs: list[str]) -> None:
    """Append what an ended process printed (and why it ended, if said) to ``logs``."""
    if log is not None:
        text = log.text()
        if why:
            text += f"\n[{why}]"
        logs.append(text)


__all__ = [
    "EntrantLog",
    "ProcessCap",
    "containment_available",
    "end_process",
    "find_strays",
    "keep_log",
    "kill_pids",
    "parent_and_session",
    "pid_namespace",
    "pids_root",
    "sandbox_processes",
]
