"""The contained entrant's view, built in its own process before any entrant code runs.

Its steps run in the launcher (:func:`pokerlab.play.entrant_process.contain` calls them),
started by the arena as root with its resource limits set and its cgroup joined. They:

1. clears the supplementary groups, then enters new user, mount, PID, IPC, UTS, network
   and cgroup namespaces (one ``unshare``); a helper process left in the host's
   namespaces maps the entrant's id 1000 (user and group) to a host id of its own,
   :data:`HOST_ID_BASE` plus a number the arena draws at random for it (never one an
   entrant still running holds): an id that owns no file, has no privilege on the host
   and, read back in ``/proc/self/uid_map``, tells nothing of the host; an id made of the
   launcher's pid let one leg learn how many processes the last leg had forked. The
   launcher then takes that id: it stops acting as root;
2. forks the entrant's process, PID 1 of the new PID namespace (the launcher waits for
   it and ends as it ends), which builds a new root on an empty file system and
   pivots into it (``pivot_root``): the system's programs and libraries (``/usr``, ``/etc``,
   ``/lib``...), the interpreter and pokerlab's code, each bound read-only; an empty
   private ``/tmp`` (the working directory, size-limited) and ``/dev/shm``; a ``/dev``
   with null, zero, full, random and urandom only; a ``/proc`` of its own PID namespace,
   read-only, with ``/proc/sys`` and the machine-wide counters (load, memory, locks...)
   covered; no ``/sys``, no users' folders, no network. ``hidden`` paths under a shown
   folder (the arena's database, the entrants' files) are covered too;
3. drops every capability (bounding and ambient sets included), sets ``no_new_privs``
   and installs the seccomp filter of :mod:`pokerlab.play.seccomp`; then checks that
   each of these holds, and stops if one does not (never silently weaker).

A step that fails raises :class:`IsolationError` naming the mechanism; the launcher
writes it on its log (``pokerlab-isolation: <mechanism>: <detail>``) and exits with
status :data:`ISOLATION_FAILED`, which the arena's probe reads.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import platform
import signal
import stat
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from pokerlab.play.seccomp import SYSCALLS, errno_text, install_seccomp

ENTRANT_ID = 1000
"""The entrant's user and group id inside its namespace."""

HOST_ID_BASE = 2_000_000_000
"""The host id of an entrant is this plus its launcher's pid (unique while it runs)."""

ISOLATION_FAILED = 3
"""The launcher's exit status when a mechanism could not be set up."""

SYSTEM_PATHS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
"""The system's folders an entrant sees (read-only), when they exist."""

MASKED_PROC = ("loadavg", "stat", "meminfo", "vmstat", "locks", "uptime", "schedstat",
               "sched_debug", "interrupts", "softirqs", "diskstats", "zoneinfo", "buddyinfo",
               "pagetypeinfo", "slabinfo", "timer_list", "key-users", "keys", "kallsyms",
               "swaps", "partitions", "cgroups", "modules")
"""Files of ``/proc`` covered by an empty file: counters of the whole machine, through
which two entrants running at once could signal each other."""

MASKED_PROC_FOLDERS = ("sys", "pressure", "fs", "irq", "bus", "driver", "tty", "sysvipc",
                       "acpi", "scsi")
"""Folders of ``/proc`` covered by an empty file system (``/proc/sys`` among them)."""

DEVICES = ("null", "zero", "full", "random", "urandom")
"""The host's devices shown in the contained ``/dev``."""

WORKDIR = "/tmp/entrant"
"""The entrant's working directory inside the contained process."""

_CLONE_NEWNS = 0x00020000
_CLONE_NEWCGROUP = 0x02000000
_CLONE_NEWUTS = 0x04000000
_CLONE_NEWIPC = 0x08000000
_CLONE_NEWUSER = 0x10000000
_CLONE_NEWPID = 0x20000000
_CLONE_NEWNET = 0x40000000
NAMESPACES = (_CLONE_NEWUSER | _CLONE_NEWNS | _CLONE_NEWPID | _CLONE_NEWIPC | _CLONE_NEWUTS
              | _CLONE_NEWNET | _CLONE_NEWCGROUP)
"""The namespaces an entrant gets (user first: the others are owned by it)."""

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_NOATIME, MS_NODIRATIME, MS_BIND = 32, 1024, 2048, 4096
MS_REC, MS_PRIVATE, MS_RELATIME, MS_STRICTATIME = 16384, 1 << 18, 1 << 21, 1 << 24
_MNT_DETACH = 2
_PR_SET_PDEATHSIG = 1
_PR_CAPBSET_DROP = 24
_PR_CAPBSET_READ = 23
_PR_CAP_AMBIENT = 47
_PR_CAP_AMBIENT_CLEAR_ALL = 4
_PR_GET_SECCOMP = 21
_PR_GET_NO_NEW_PRIVS = 39
_CAPABILITY_VERSION_3 = 0x20080522
_LAST_CAPABILITY = 63
_ST_RDONLY = 1


class IsolationError(Exception):
    """A mechanism of the contained view could not be set up."""

    def __init__(self, mechanism: str, detail: str) -> None:
        super().__init__(f"{mechanism}: {detail}")
        self.mechanism = mechanism
        self.detail = detail


@dataclass(frozen=True)
class View:
    """What a contained entrant sees, decided in the launcher from the host's view.

    Attributes:
        shown: host folders and files bound read-only at the same path.
        links: top-level symbolic links recreated as they are (``/bin -> usr/bin``).
        hidden: paths under a shown folder to cover (a folder by an empty file system,
            a file by an empty file).
        tmp_megabytes: the size of the private ``/tmp``.
    """

    shown: tuple[str, ...]
    links: tuple[tuple[str, str], ...]
    hidden: tuple[str, ...]
    tmp_megabytes: int


def _is_under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def plan_view(needed: Sequence[str], hidden: Sequence[str], tmp_megabytes: int) -> View:
    """The view of an entrant: the system's folders and ``needed``, less ``hidden``.

    ``needed`` are what the process must still read (its interpreter, libraries and
    pokerlab's code); a path under another shown one is shown through it.
    """
    links = []
    candidates = []
    for path in SYSTEM_PATHS:
        if os.path.islink(path):
            links.append((path, os.readlink(path)))
        elif os.path.exists(path):
            candidates.append(path)
    candidates += [os.path.realpath(p) for p in needed if p and os.path.exists(p)]
    shown: list[str] = []
    for path in sorted(set(candidates), key=lambda p: (p.count("/"), p)):
        if not any(_is_under(path, s) for s in shown):
            shown.append(path)
    real_hidden = {os.path.realpath(h) for h in hidden if h}
    covered = sorted(h for h in real_hidden if any(_is_under(h, s) for s in shown)
                     and os.path.exists(h))
    return View(tuple(shown), tuple(links), tuple(covered), tmp_megabytes)


# -- system calls ----------------------------------------------------------------------------
_LIBC: ctypes.CDLL | None = None


def _libc() -> ctypes.CDLL:
    global _LIBC
    if _LIBC is None:
        _LIBC = ctypes.CDLL(None, use_errno=True)
    return _LIBC


def _check(result: int, mechanism: str, what: str) -> None:
    if result != 0:
        error = ctypes.get_errno()
        raise IsolationError(mechanism, f"{what}: {errno_text(error)}")


def _mount(source: str, target: str, kind: str | None, flags: int, data: str = "",
           mechanism: str = "mount namespace") -> None:
    result = _libc().mount(source.encode(), target.encode(),
                           kind.encode() if kind else None, ctypes.c_ulong(flags),
                           data.encode() if data else None)
    _check(result, mechanism, f"mount {source} on {target}")


def _prctl(option: int, *args: int) -> int:
    values = [ctypes.c_ulong(a) for a in args] + [ctypes.c_ulong(0)] * (4 - len(args))
    return int(_libc().prctl(option, *values))


# -- 1. namespaces and ids ---------------------------------------------------------------------
def _map_ids(pid: int, outside: int, ready: int, done: int) -> None:
    """In the helper (host namespaces, root): map the launcher's ids once it has unshared."""
    status = b"1"
    try:
        if os.read(ready, 1) != b"1":
            os._exit(1)
        mapping = f"{ENTRANT_ID} {outside} 1\n"
        with open(f"/proc/{pid}/uid_map", "w") as handle:
            handle.write(mapping)
        with open(f"/proc/{pid}/setgroups", "w") as handle:
            handle.write("deny")
        with open(f"/proc/{pid}/gid_map", "w") as handle:
            handle.write(mapping)
    except OSError as error:
        status = f"0{error.strerror or error}".encode()
    os.write(done, status)
    os._exit(0)


def _wait_for_one_thread(seconds: float = 2.0) -> None:
    """Wait until the launcher is its only thread, as ``unshare`` needs.

    A new user namespace is refused (EINVAL) to a process with two threads; a pool's
    threads told to end at the fork (OpenBLAS's) may still be counted for a moment.

    Raises:
        IsolationError: "user namespaces", with the count of threads still running.
    """
    import time

    deadline = time.monotonic() + seconds
    while True:
        try:
            threads = len(os.listdir("/proc/self/task"))
        except OSError:
            return  # no /proc to count on: unshare gives the real reason if it fails
        if threads <= 1:
            return
        if time.monotonic() > deadline:
            raise IsolationError("user namespaces", f"the launcher runs {threads} threads; "
                                 "unshare needs one (a numeric library's thread pool?)")
        time.sleep(0.001)


def enter_namespaces(view: View, outside: int) -> dict[str, int]:
    """New namespaces and the unprivileged host id ``outside``; handles on ``view.shown``.

    The handles (``O_PATH``) are opened in the new mount namespace while the launcher
    is still the host's root: the entrant's id may not search the folders above them
    (``/root`` is private), so the binds go through them (:func:`build_root`).

    Raises:
        IsolationError: "user namespaces" when the kernel refuses them or the mapping.
    """
    if not HOST_ID_BASE < outside < 2**32 - 1:
        raise IsolationError("unprivileged id", f"{outside} is not an entrant's host id")
    try:
        os.setgroups([])
    except OSError as error:
        raise IsolationError("unprivileged id", f"setgroups: {error.strerror}") from None
    ready_read, ready_write = os.pipe()
    done_read, done_write = os.pipe()
    launcher = os.getpid()
    helper = os.fork()
    if helper == 0:
        os.close(ready_write)
        os.close(done_read)
        _map_ids(launcher, outside, ready_read, done_write)
    os.close(ready_read)
    os.close(done_write)
    try:
        _wait_for_one_thread()
        result = _libc().unshare(ctypes.c_int(NAMESPACES))
        if result != 0:
            number = ctypes.get_errno()
            os.write(ready_write, b"0")
            raise IsolationError("user namespaces", f"unshare: {errno_text(number)}")
        os.write(ready_write, b"1")
        answer = os.read(done_read, 4096)
    finally:
        os.close(ready_write)
        os.waitpid(helper, 0)
        os.close(done_read)
    if answer != b"1":
        raise IsolationError("user namespaces", "mapping the entrant's id: "
                             + answer[1:].decode(errors="replace"))
    try:
        handles = {path: os.open(path, os.O_PATH | os.O_CLOEXEC) for path in view.shown}
    except OSError as error:
        raise IsolationError("mount namespace", f"opening {error.filename}: "
                             f"{error.strerror}") from None
    try:
        os.setresgid(ENTRANT_ID, ENTRANT_ID, ENTRANT_ID)
        os.setresuid(ENTRANT_ID, ENTRANT_ID, ENTRANT_ID)
    except OSError as error:
        raise IsolationError("unprivileged id", f"setresuid: {error.strerror}") from None
    return handles


def run_as_pid_one(keep: Sequence[int]) -> None:
    """Fork the entrant's process (PID 1 of the new namespace); return in it.

    The launcher closes every descriptor but its standard streams (the entrant's channel
    among them: only the entrant holds it), waits for the entrant and ends as it ended
    (the same status, or the same signal).
    """
    child = os.fork()
    if child == 0:
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        return
    for descriptor in keep:
        with contextlib.suppress(OSError):
            os.close(descriptor)
    while True:
        try:
            _, status = os.waitpid(child, 0)
            break
        except ChildProcessError:
            os._exit(1)
        except InterruptedError:
            continue
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        with contextlib.suppress(OSError, ValueError):
            signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


# -- 2. the new root -------------------------------------------------------------------------
def _unescape(field: str) -> str:
    return field.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n") \
        .replace("\\134", "\\")


def _mounts_under(folder: str) -> list[tuple[str, set[str]]]:
    """``(mount point, options)`` of the mounts at or under ``folder``, in mount order."""
    found = []
    with open("/proc/self/mountinfo") as info:
        for line in info:
            fields = line.split()
            point = _unescape(fields[4])
            if _is_under(point, folder):
                found.append((point, set(fields[5].split(","))))
    return found


def _kept_flags(options: set[str]) -> int:
    """The flags a remount must keep (the kernel refuses to clear them in a namespace)."""
    flags = 0
    for name, flag in (("nosuid", MS_NOSUID), ("nodev", MS_NODEV), ("noexec", MS_NOEXEC),
                       ("noatime", MS_NOATIME), ("nodiratime", MS_NODIRATIME),
                       ("relatime", MS_RELATIME)):
        if name in options:
            flags |= flag
    if not flags & (MS_NOATIME | MS_RELATIME):
        flags |= MS_STRICTATIME
    return flags


def _read_only(point: str, options: set[str], extra: int = MS_NOSUID | MS_NODEV) -> None:
    flags = MS_REMOUNT | MS_BIND | MS_RDONLY | extra | _kept_flags(options)
    _mount("none", point, None, flags, mechanism="read-only file system")


def _make_path(root: str, path: str, folder: bool) -> str:
    target = root + path
    if folder:
        os.makedirs(target, mode=0o755, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), mode=0o755, exist_ok=True)
        if not os.path.exists(target):
            os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o444))
    return target


def _bind(root: str, path: str, handle: int) -> str:
    target = _make_path(root, path, stat.S_ISDIR(os.fstat(handle).st_mode))
    _mount(f"/proc/self/fd/{handle}", target, None, MS_BIND | MS_REC)
    os.close(handle)
    return target


def _cover(target: str, empty_file: str) -> None:
    """Cover a path by an empty read-only file system (a folder) or an empty file."""
    if os.path.isdir(target):
        _mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY,
               "size=4k,nr_inodes=1,mode=555")
    elif os.path.lexists(target):
        _mount(empty_file, target, None, MS_BIND)
        _mount("none", target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV
               | MS_NOEXEC)


def _mount_proc(root: str, empty_file: str) -> bool:
    """A read-only ``/proc`` of the entrant's PID namespace, its machine-wide files covered.

    False where the kernel refuses a new ``/proc`` (the host's own is partly covered, as
    in some containers): ``/proc`` is then an empty folder (less to see, not more).
    """
    target = _make_path(root, "/proc", True)
    flags = MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC
    if _libc().mount(b"proc", target.encode(), b"proc", ctypes.c_ulong(flags), None) != 0:
        return False
    for name in MASKED_PROC_FOLDERS:
        if os.path.isdir(f"{target}/{name}"):
            _cover(f"{target}/{name}", empty_file)
    for name in MASKED_PROC:
        if os.path.lexists(f"{target}/{name}"):
            _cover(f"{target}/{name}", empty_file)
    return True


def _make_dev(root: str) -> None:
    dev = _make_path(root, "/dev", True)
    _mount("tmpfs", dev, "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k,nr_inodes=64,mode=755")
    for name in DEVICES:
        target = _make_path(root, f"/dev/{name}", False)
        _mount(f"/dev/{name}", target, None, MS_BIND)
        _mount("none", target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NOEXEC)
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                         ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):
        os.symlink(target, f"{dev}/{name}")
    os.mkdir(f"{dev}/shm", 0o1777)
    _mount("tmpfs", f"{dev}/shm", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
           "size=1m,nr_inodes=256,mode=1777")
    _mount("none", dev, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NOEXEC)


def build_root(view: View, handles: dict[str, int], root: str) -> bool:
    """Build the entrant's file system on ``root`` and pivot into it; True if /proc is there.

    Runs in the entrant's process (PID 1 of its namespace: its ``/proc`` shows its own
    processes only); ``handles`` are :func:`enter_namespaces`' (closed here).
    """
    _mount("none", "/", None, MS_REC | MS_PRIVATE)
    _mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,nr_inodes=4096,mode=755")
    empty_file = _make_path(root, "/.empty", False)
    for path, target in view.links:
        os.symlink(target, root + path)
    # The private /tmp first: a shown folder under /tmp (a checkout or a virtual environment
    # there) is then bound over it, not hidden under it.
    tmp = _make_path(root, "/tmp", True)
    _mount("tmpfs", tmp, "tmpfs", MS_NOSUID | MS_NODEV,
           f"size={view.tmp_megabytes}m,nr_inodes={max(1024, 256 * view.tmp_megabytes)},"
           "mode=1777")
    shown = [_bind(root, path, handles[path]) for path in view.shown]
    # Every mount now under the new root read-only (submounts of a bound folder included).
    for point, options in _mounts_under(root):
        if point != root and any(_is_under(point, s) for s in shown):
            _read_only(point, options)
    for path in view.hidden:
        _cover(root + path, empty_file)
    _make_dev(root)
    has_proc = _mount_proc(root, empty_file)
    old = _make_path(root, "/.old-root", True)
    number = SYSCALLS.get(platform.machine(), {}).get("pivot_root")
    if number is None:
        raise IsolationError("mount namespace", f"pivot_root on {platform.machine()}")
    _check(_libc().syscall(ctypes.c_long(number), root.encode(), old.encode()),
           "mount namespace", "pivot_root")
    os.chdir("/")
    _check(_libc().umount2(b"/.old-root", ctypes.c_int(_MNT_DETACH)), "mount namespace",
           "detaching the host's root")
    os.rmdir("/.old-root")
    _mount("none", "/", None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV,
           mechanism="read-only file system")
    _check(_libc().sethostname(b"entrant", ctypes.c_size_t(7)), "UTS namespace", "sethostname")
    return has_proc


# -- 3. privileges ---------------------------------------------------------------------------
def drop_privileges(seccomp: bool = True) -> None:
    """No capability (bounding and ambient sets too), ``no_new_privs``, the seccomp filter."""
    for capability in range(_LAST_CAPABILITY + 1):
        if _prctl(_PR_CAPBSET_READ, capability) == 1:
            _check(_prctl(_PR_CAPBSET_DROP, capability), "capabilities",
                   f"dropping capability {capability} from the bounding set")
    _prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL)
    header = (ctypes.c_uint32 * 2)(_CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)(0, 0, 0, 0, 0, 0)
    _check(_libc().capset(header, data), "capabilities", "capset")
    if seccomp:
        try:
            install_seccomp()
        except OSError as error:
            raise IsolationError("seccomp", str(error.strerror or error)) from None


def verify(has_proc: bool) -> dict[str, object]:
    """Check each mechanism from inside (after :func:`drop_privileges`); what was seen.

    Raises:
        IsolationError: naming the first mechanism that does not hold.
    """
    header = (ctypes.c_uint32 * 2)(_CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()
    _check(_libc().capget(header, data), "capabilities", "capget")
    if any(data):
        raise IsolationError("capabilities", f"still held: {list(data)}")
    if any(_prctl(_PR_CAPBSET_READ, c) == 1 for c in range(_LAST_CAPABILITY + 1)):
        raise IsolationError("capabilities", "the bounding set is not empty")
    if _prctl(_PR_GET_NO_NEW_PRIVS) != 1:
        raise IsolationError("no_new_privs", "not set")
    if _prctl(_PR_GET_SECCOMP) != 2:
        raise IsolationError("seccomp", "no filter installed")
    if os.getuid() != ENTRANT_ID or os.geteuid() != ENTRANT_ID or os.getgid() != ENTRANT_ID:
        raise IsolationError("unprivileged id", f"running as {os.getuid()}:{os.getgid()}")
    if os.getgroups() not in ([], [ENTRANT_ID]):
        raise IsolationError("unprivileged id", f"supplementary groups {os.getgroups()}")
    for path in ("/", "/usr", "/dev", "/proc"):
        if os.path.isdir(path) and not os.statvfs(path).f_flag & _ST_RDONLY:
            raise IsolationError("read-only file system", f"{path} is writable")
    if os.getpid() != 1:
        raise IsolationError("PID namespace", f"pid {os.getpid()}, not 1")
    for path in ("/proc/sys/kernel/core_pattern", "/proc/sys/kernel/hostname"):
        with contextlib.suppress(OSError), open(path, "w"):
            raise IsolationError("read-only /proc", f"{path} opens for writing")
    return {"uid": os.getuid(), "proc": has_proc, "pid": os.getpid(),
            "python": sys.version.split()[0]}


__all__ = [
    "DEVICES",
    "ENTRANT_ID",
    "HOST_ID_BASE",
    "ISOLATION_FAILED",
    "MASKED_PROC",
    "MASKED_PROC_FOLDERS",
    "NAMESPACES",
    "SYSTEM_PATHS",
    "WORKDIR",
    "IsolationError",
    "View",
    "build_root",
    "drop_privileges",
    "enter_namespaces",
    "plan_view",
    "run_as_pid_one",
    "verify",
]
