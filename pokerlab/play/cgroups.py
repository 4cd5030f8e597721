"""A cgroup per entrant: memory, processes and CPU limited on its whole process tree.

Every process an entrant starts is in its cgroup, whatever session or process group it
moves to, so the limits hold for the tree (three processes of 1 GiB each do not fit a
2 GiB limit) and the sandbox can list and kill all of them. The cgroup is made beneath
the arena's own (never above it: the arena's limits still hold) wherever the machine's
mounts show it, found by its path as the mount sees it or by the processes it lists
(a container that does not show it: beneath the nearest one shown), with cgroup v2 where
the controllers are delegated to the arena, else cgroup v1's ``memory``, ``pids`` and
``cpu`` hierarchies:

- v2: ``memory.max`` (and ``memory.swap.max`` 0), ``pids.max``, ``cpu.max``. A cgroup
  that holds processes cannot give its controllers to children, so the arena moves itself
  into a leaf ``pokerlab-arena-<pid>`` first when it is the only process there; where
  other processes share its cgroup, give it one of its own (``systemd-run --scope -p
  Delegate=yes ...``), or name a delegated cgroup in ``$POKERLAB_CGROUP``;
- v1: ``memory.limit_in_bytes`` (and ``memory.memsw.limit_in_bytes`` where swap is
  accounted), ``pids.max``, ``cpu.cfs_quota_us``.

:func:`cgroup_support` says which, or why neither works here (the sandbox then names
the missing mechanism).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path

CONTROLLERS = ("memory", "pids", "cpu")
"""The controllers an entrant's cgroup needs."""

CPU_PERIOD_US = 100_000
"""The CPU bandwidth period (the quota is ``cpus`` times it)."""

_COUNT = itertools.count()


@dataclass(frozen=True)
class Hierarchy:
    """Where entrants' cgroups are made for some controllers.

    Attributes:
        parent: the folder under which each entrant gets a cgroup (made, ours).
        controllers: the controllers it holds, of :data:`CONTROLLERS`.
        version: 1 or 2.
    """

    parent: Path
    controllers: frozenset[str]
    version: int


def _mounts() -> list[tuple[str, str, set[str], str]]:
    """``(mount point, type, super options, root)`` of the cgroup file systems.

    ``root`` is the cgroup the mount shows at its mount point (``/`` for the whole
    hierarchy; a container often sees only its own cgroup there).
    """
    found = []
    with contextlib.suppress(OSError), open("/proc/self/mountinfo") as info:
        for line in info:
            left, _, right = line.partition(" - ")
            fields, tail = left.split(), right.split()
            if len(fields) > 4 and len(tail) > 2 and tail[0] in ("cgroup", "cgroup2"):
                found.append((fields[4], tail[0], set(tail[2].split(",")), fields[3]))
    return found


_SEARCH_LIMIT = 4096
"""Cgroup folders looked through, at most, for this process's own one."""


def _own_folder(point: str, root: str, own: str) -> Path:
    """The folder of this process's cgroup under a mount at ``point`` showing ``root``.

    ``/proc/self/cgroup`` names the cgroup from the hierarchy's root, the mount shows it
    from ``root``: the folder is ``point`` plus what ``own`` adds to ``root``. Where that
    folder is not there (a container's view whose paths do not line up, or a cgroup the
    process was moved into that this mount does not show), the mount is searched for the
    cgroup that lists this process; failing that, the nearest folder above the computed
    one that the mount shows is used (entrants' own limits then still hold; the limits
    of the cgroup the arena is in, which no one here can see, no longer cover them).
    """
    root, own = root.rstrip("/"), own.rstrip("/")
    inside = own[len(root):] if own == root or own.startswith(root + "/") else own
    folder = Path(point + inside)
    if folder.is_dir():
        return folder
    me, looked, queue = str(os.getpid()), 0, [Path(point)]
    while queue and looked < _SEARCH_LIMIT:
        here = queue.pop(0)
        looked += 1
        with contextlib.suppress(OSError):
            if me in (here / "cgroup.procs").read_text().split():
                return here
        with contextlib.suppress(OSError):
            queue.extend(sorted(child for child in here.iterdir() if child.is_dir()))
    mount = Path(point)
    for above in folder.parents:
        if above.is_dir() and (above == mount or mount in above.parents):
            return above
    return folder


def _own_paths() -> dict[str, str]:
    """This process's cgroup path by v1 controller, and ``""`` for v2 (``/proc/self/cgroup``)."""
    paths = {}
    with contextlib.suppress(OSError), open("/proc/self/cgroup") as info:
        for line in info:
            _, names, path = line.rstrip("\n").split(":", 2)
            for name in names.split(",") if names else [""]:
                paths[name] = path
    return paths


def _writable_parent(folder: Path) -> Path:
    """``folder/pokerlab``, made if needed (raises OSError where we may not)."""
    parent = folder / "pokerlab"
    parent.mkdir(exist_ok=True)
    probe = parent / f"probe-{os.getpid()}-{next(_COUNT)}"  # one per call: threads too
    probe.mkdir()
    probe.rmdir()
    # Cgroups left by arenas that were killed (their pid, in the name, is gone).
    for stale in parent.glob("sandbox-*"):
        owner = stale.name.split("-")[1]
        if owner.isdigit() and not Path(f"/proc/{owner}").exists():
            with contextlib.suppress(OSError):
                stale.rmdir()
    return parent


def _enable(folder: Path, wanted: set[str]) -> None:
    """Give ``wanted`` controllers to the children of a v2 cgroup (OSError if refused)."""
    enabled = set((folder / "cgroup.subtree_control").read_text().split())
    missing = wanted - enabled
    if missing:
        (folder / "cgroup.subtree_control").write_text(" ".join(f"+{c}" for c in sorted(missing)))


def _v2_parent(mount: str, root: str, own: str, wanted: set[str]) -> Path:
    """The v2 folder for entrants' cgroups, delegating ``wanted`` (OSError with why not)."""
    override = os.environ.get("POKERLAB_CGROUP")
    base = Path(override) if override else _own_folder(mount, root, own)
    available = set((base / "cgroup.controllers").read_text().split())
    if not wanted <= available:
        raise OSError(f"cgroup v2: {base} lacks the {', '.join(sorted(wanted - available))} "
                      "controller(s)")
    try:
        _enable(base, wanted)
    except OSError:
        # Processes in ``base`` (this one) forbid delegation: move this process into a
        # leaf of its own when it is the only one there, then delegate.
        procs = (base / "cgroup.procs").read_text().split()
        if procs != [str(os.getpid())]:
            raise OSError(f"cgroup v2: {base} holds {len(procs)} processes, so its "
                          "controllers cannot be delegated; run pokerlab in a cgroup of its "
                          "own (systemd-run --scope -p Delegate=yes) or set POKERLAB_CGROUP "
                          "to a delegated cgroup") from None
        leaf = base / f"pokerlab-arena-{os.getpid()}"
        leaf.mkdir(exist_ok=True)
        (leaf / "cgroup.procs").write_text(str(os.getpid()))
        _enable(base, wanted)
    parent = _writable_parent(base)
    _enable(parent, wanted)
    return parent


def _why(error: OSError) -> str:
    """An OSError in words, with the file it names (``"No such file or directory: /x"``)."""
    if error.strerror and error.filename:
        return f"{error.strerror}: {error.filename}"
    return str(error.strerror or error)


_SUPPORT_LOCK = threading.Lock()


@functools.lru_cache(maxsize=1)
def cgroup_support() -> tuple[tuple[Hierarchy, ...], str | None]:
    """Where entrants' cgroups go, or why they cannot be made: ``(hierarchies, problem)``.

    ``problem`` is None when every controller of :data:`CONTROLLERS` is available.
    Found once per process, one thread at a time (the arena checks its entrants'
    files from several threads at once: two threads probing the same folder made one
    of them refuse isolation).
    """
    with _SUPPORT_LOCK:
        return _find_support()


def _find_support() -> tuple[tuple[Hierarchy, ...], str | None]:
    """:func:`cgroup_support`, looked up."""
    mounts = _mounts()
    own = _own_paths()
    wanted = set(CONTROLLERS)
    hierarchies: list[Hierarchy] = []
    problems = []
    v1 = [(point, options & wanted, root) for point, kind, options, root in mounts
          if kind == "cgroup" and options & wanted]
    v2 = [(point, root) for point, kind, _, root in mounts if kind == "cgroup2"]
    if v2 and "" in own:
        v2_point, v2_root = v2[0]
        try:
            delegated = set((_own_folder(v2_point, v2_root, own[""]) / "cgroup.controllers")
                            .read_text().split())
        except OSError:
            delegated = set()
        v2_wanted = wanted & delegated
        if v2_wanted == wanted or not v1:
            try:
                parent = _v2_parent(v2_point, v2_root, own[""], v2_wanted if v1 else wanted)
                hierarchies.append(Hierarchy(parent, frozenset(v2_wanted), 2))
                wanted -= v2_wanted
            except OSError as error:
                problems.append(_why(error))
    for point, controllers, root in v1:
        controllers &= wanted
        if not controllers:
            continue
        path = own.get(next(iter(controllers)), "/")
        try:
            parent = _writable_parent(_own_folder(point, root, path))
        except OSError as error:
            problems.append(f"cgroup v1 {','.join(sorted(controllers))} at {point}: "
                            f"{_why(error)}")
            continue
        hierarchies.append(Hierarchy(parent, frozenset(controllers), 1))
        wanted -= controllers
    if wanted:
        problems.insert(0, f"no writable cgroup for {', '.join(sorted(wanted))}")
        return tuple(hierarchies), "; ".join(problems)
    return tuple(hierarchies), None


class EntrantCgroup:
    """The cgroup(s) of one entrant's processes: limits, listing, killing.

    Args:
        memory_bytes: memory of the whole tree (swap included where accounted).
        max_tasks: processes and threads of the whole tree.
        cpus: CPU time per second of the whole tree (1.0: one core).

    Where :func:`cgroup_support` finds no cgroup for some controller, the others are
    still made (``complete`` is then False): trusted entrants get what the machine allows.
    """

    def __init__(self, memory_bytes: int, max_tasks: int, cpus: float) -> None:
        hierarchies, problem = cgroup_support()
        self.complete = problem is None
        self.paths: list[Path] = []
        self._pids: Path | None = None
        self._count_fd: int | None = None
        self._v2 = False
        name = f"sandbox-{os.getpid()}-{next(_COUNT)}"
        try:
            for hierarchy in hierarchies:
                path = hierarchy.parent / name
                path.mkdir()
                self.paths.append(path)
                self._limit(path, hierarchy, memory_bytes, max_tasks, cpus)
                if "pids" in hierarchy.controllers:
                    self._pids = path
                    self._v2 = hierarchy.version == 2
        except OSError:
            self.kill_all()
            raise

    @staticmethod
    def _limit(path: Path, hierarchy: Hierarchy, memory: int, tasks: int, cpus: float) -> None:
        quota = max(1000, int(cpus * CPU_PERIOD_US))
        if hierarchy.version == 2:
            writes = {"memory": [("memory.max", str(memory)), ("memory.swap.max", "0")],
                      "pids": [("pids.max", str(tasks))],
                      "cpu": [("cpu.max", f"{quota} {CPU_PERIOD_US}")]}
        else:
            writes = {"memory": [("memory.limit_in_bytes", str(memory)),
                                 ("memory.memsw.limit_in_bytes", str(memory))],
                      "pids": [("pids.max", str(tasks))],
                      "cpu": [("cpu.cfs_period_us", str(CPU_PERIOD_US)),
                              ("cpu.cfs_quota_us", str(quota))]}
        for controller in sorted(hierarchy.controllers):
            for file, value in writes[controller]:
                target = path / file
                if file.startswith(("memory.swap", "memory.memsw")) and not target.exists():
                    continue  # swap not accounted on this machine: nothing to swap to it
                target.write_text(value)

    def join(self) -> None:
        """Move the calling process (a child before exec) into every cgroup of the entrant."""
        for path in self.paths:
            with open(path / "cgroup.procs", "w") as procs:
                procs.write(str(os.getpid()))

    def procs(self) -> set[int]:
        """The pids of the entrant's processes now (OSError where they cannot be listed).

        Opened afresh each time: cgroup v1 lists the pids of an open file once.
        """
        if self._pids is None:
            raise OSError("no pids cgroup")
        descriptor = os.open(self._pids / "cgroup.procs", os.O_RDONLY)
        try:
            return {int(p) for p in os.read(descriptor, 1 << 16).split()}
        finally:
            os.close(descriptor)

    def count(self) -> int:
        """The task count now (``pids.current``, threads too), read on a kept descriptor."""
        if self._pids is None:
            raise OSError("no pids cgroup")
        if self._count_fd is None:
            self._count_fd = os.open(self._pids / "pids.current", os.O_RDONLY)
        return int(os.pread(self._count_fd, 64, 0))

    def memory_peak(self) -> int | None:
        """The most memory the tree has used, in bytes, where the machine says."""
        for path in self.paths:
            for name in ("memory.peak", "memory.max_usage_in_bytes"):
                with contextlib.suppress(OSError, ValueError):
                    return int((path / name).read_text())
        return None

    def kill_all(self) -> None:
        """Kill every process of the entrant, then remove its cgroups."""
        if self._count_fd is not None:
            os.close(self._count_fd)
            self._count_fd = None
        if self._v2 and self._pids is not None:
            with contextlib.suppress(OSError):
                (self._pids / "cgroup.kill").write_text("1")
        deadline = time.monotonic() + 5
        for path in self.paths:
            while time.monotonic() < deadline:
                try:
                    pids = [int(p) for p in (path / "cgroup.procs").read_text().split()]
                except OSError:
                    break
                if not pids:
                    break
                for pid in pids:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(pid, signal.SIGKILL)
                time.sleep(0.01)
            with contextlib.suppress(OSError):
                path.rmdir()
        self.paths = []
        self._pids = None


__all__ = ["CONTROLLERS", "CPU_PERIOD_US", "EntrantCgroup", "Hierarchy", "cgroup_support"]
