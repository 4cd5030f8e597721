"""A seccomp filter for entrants: the system calls a bot never needs are refused.

The filter is classic BPF, built with :mod:`struct` and installed with
``prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ...)`` through :mod:`ctypes` (no dependency:
libseccomp's Python binding is not on PyPI). It runs in the entrant's process after its
view is built and before any entrant code, and is inherited by everything it starts
(``execve`` included, with ``no_new_privs``). It checks the architecture first and kills
the process on any other (an x32 call on x86_64 included), then refuses:

- the calls that reach the kernel's privileged or debugging surface: ``ptrace``, the
  mount family (old and new API), ``pivot_root``, ``chroot``, ``bpf``, ``perf_event_open``,
  ``userfaultfd``, ``io_uring``, ``modify_ldt``, the keyrings, kernel modules, ``kexec``,
  ``reboot``, swap, ``acct``, ``quotactl``, ``syslog``, clock setting, another process's
  memory (``process_vm_readv``/``writev``, ``pidfd_getfd``, ``kcmp``), file handles;
- new namespaces: ``unshare``, ``setns``, ``clone`` with a namespace flag, and ``clone3``
  (its flags cannot be read by a filter: it answers ``ENOSYS`` and the C library falls
  back to ``clone``);
- what two entrants could signal each other through, since they see the same read-only
  files: file locks (``flock``; ``fcntl`` lock, lease and notify commands: ``ENOLCK``),
  file watches (``inotify``, ``fanotify``), page-cache residency (``mincore``,
  ``cachestat``, ``preadv2`` and its ``RWF_NOWAIT``), evicting pages from the page cache
  (``fadvise64``; ``madvise`` with ``MADV_COLD`` or ``MADV_PAGEOUT``; ``process_madvise``)
  and the machine-wide counters of ``sysinfo``;
- leaving its core: ``sched_setaffinity`` (a match gives each entrant's process a core,
  :func:`pokerlab.play.containment.one_core`);
- ``setsid``: each new session moves the machine-wide autogroup counter that
  ``/proc/self/autogroup`` shows, which one leg of a duplicate match could set to its
  cards and the next read back;
- sockets of any family but ``AF_UNIX`` (``EAFNOSUPPORT``): an entrant has no network.

The syscall numbers are those of the Linux UAPI headers (``asm/unistd_64.h`` for x86_64,
``asm-generic/unistd.h`` for aarch64; checked against the installed headers by the tests
where present); ``cachestat`` (Linux 6.5, 451 on both, as every call numbered since
``pidfd_send_signal``) is newer than the headers of Debian 12. Only x86_64 and aarch64
are supported: on another machine :func:`seccomp_filter` raises, and the sandbox names
the missing mechanism.
"""

from __future__ import annotations

import ctypes
import errno
import platform
import struct

AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
"""The ``AUDIT_ARCH_*`` value the kernel reports for each supported machine."""

# What a bot never needs, and the errno each call gets (EPERM unless said).
DENIED = (
    "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "kcmp",
    "mount", "umount2", "pivot_root", "chroot", "open_tree", "move_mount", "fsopen",
    "fsconfig", "fsmount", "fspick", "mount_setattr", "name_to_handle_at",
    "open_by_handle_at", "unshare", "setns", "bpf", "perf_event_open", "userfaultfd",
    "io_uring_setup", "io_uring_enter", "io_uring_register", "keyctl", "add_key",
    "request_key", "init_module", "finit_module", "delete_module", "kexec_load",
    "kexec_file_load", "reboot", "swapon", "swapoff", "acct", "quotactl", "quotactl_fd",
    "syslog", "lookup_dcookie", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
    "sethostname", "setdomainname", "vhangup", "nfsservctl", "iopl", "ioperm", "uselib",
    "modify_ldt",
    "_sysctl", "ustat", "inotify_init", "inotify_init1", "inotify_add_watch",
    "fanotify_init", "fanotify_mark", "sysinfo", "mincore", "cachestat", "preadv2",
    "pwritev2", "fadvise64", "process_madvise", "sched_setaffinity", "setsid",
)
"""Refused with ``EPERM`` (those of :data:`ENOSYS_CALLS` with ``ENOSYS``)."""

ENOSYS_CALLS = ("sysinfo", "inotify_init", "inotify_init1", "inotify_add_watch",
                "fanotify_init", "fanotify_mark", "clone3", "cachestat", "preadv2", "pwritev2")
"""Refused as if the kernel had no such call (libraries fall back or do without)."""

SYSCALLS: dict[str, dict[str, int]] = {
    # Linux UAPI asm/unistd_64.h (arch/x86/entry/syscalls/syscall_64.tbl).
    "x86_64": {
        "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "pidfd_getfd": 438,
        "kcmp": 312, "mount": 165, "umount2": 166, "pivot_root": 155, "chroot": 161,
        "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432,
        "fspick": 433, "mount_setattr": 442, "name_to_handle_at": 303,
        "open_by_handle_at": 304, "unshare": 272, "setns": 308, "bpf": 321,
        "perf_event_open": 298, "userfaultfd": 323, "io_uring_setup": 425,
        "io_uring_enter": 426, "io_uring_register": 427, "keyctl": 250, "add_key": 248,
        "request_key": 249, "init_module": 175, "finit_module": 313, "delete_module": 176,
        "kexec_load": 246, "kexec_file_load": 320, "reboot": 169, "swapon": 167,
        "swapoff": 168, "acct": 163, "quotactl": 179, "quotactl_fd": 443, "syslog": 103,
        "lookup_dcookie": 212, "settimeofday": 164, "clock_settime": 227,
        "clock_adjtime": 305, "adjtimex": 159, "sethostname": 170, "setdomainname": 171,
        "vhangup": 153, "nfsservctl": 180, "iopl": 172, "ioperm": 173, "uselib": 134,
        "modify_ldt": 154,
        "_sysctl": 156, "ustat": 136, "inotify_init": 253, "inotify_init1": 294,
        "inotify_add_watch": 254, "fanotify_init": 300, "fanotify_mark": 301,
        "sysinfo": 99, "mincore": 27, "cachestat": 451, "preadv2": 327, "pwritev2": 328,
        "fadvise64": 221, "process_madvise": 440, "sched_setaffinity": 203, "madvise": 28,
        "setsid": 112,
        "flock": 73, "fcntl": 72, "clone": 56, "clone3": 435, "socket": 41,
        "socketpair": 53, "read": 0, "write": 1, "recvfrom": 45, "sendto": 44,
        "recvmsg": 47, "sendmsg": 46, "futex": 202, "poll": 7, "ppoll": 271, "select": 23,
        "pselect6": 270, "mmap": 9, "munmap": 11, "brk": 12,
    },
    # Linux UAPI asm-generic/unistd.h (aarch64 has no inotify_init, iopl, ioperm, uselib,
    # modify_ldt, _sysctl nor ustat).
    "aarch64": {
        "ptrace": 117, "process_vm_readv": 270, "process_vm_writev": 271, "pidfd_getfd": 438,
        "kcmp": 272, "mount": 40, "umount2": 39, "pivot_root": 41, "chroot": 51,
        "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432,
        "fspick": 433, "mount_setattr": 442, "name_to_handle_at": 264,
        "open_by_handle_at": 265, "unshare": 97, "setns": 268, "bpf": 280,
        "perf_event_open": 241, "userfaultfd": 282, "io_uring_setup": 425,
        "io_uring_enter": 426, "io_uring_register": 427, "keyctl": 219, "add_key": 217,
        "request_key": 218, "init_module": 105, "finit_module": 273, "delete_module": 106,
        "kexec_load": 104, "kexec_file_load": 294, "reboot": 142, "swapon": 224,
        "swapoff": 225, "acct": 89, "quotactl": 60, "quotactl_fd": 443, "syslog": 116,
        "lookup_dcookie": 18, "settimeofday": 170, "clock_settime": 112,
        "clock_adjtime": 266, "adjtimex": 171, "sethostname": 161, "setdomainname": 162,
        "vhangup": 58, "nfsservctl": 42, "inotify_init1": 26, "inotify_add_watch": 27,
        "fanotify_init": 262, "fanotify_mark": 263, "sysinfo": 179, "mincore": 232,
        "cachestat": 451, "preadv2": 286, "pwritev2": 287, "flock": 32,
        "fadvise64": 223, "process_madvise": 440, "sched_setaffinity": 122, "madvise": 233,
        "setsid": 157,
        "fcntl": 25, "clone": 220, "clone3": 435, "socket": 198, "socketpair": 199,
        "read": 63, "write": 64, "recvfrom": 207, "sendto": 206, "recvmsg": 212,
        "sendmsg": 211, "futex": 98, "ppoll": 73, "pselect6": 72, "mmap": 222,
        "munmap": 215, "brk": 214,
    },
}
"""System call numbers by machine (those the filter names)."""

FREQUENT = ("read", "write", "recvfrom", "sendto", "recvmsg", "sendmsg", "futex", "poll",
            "ppoll", "select", "pselect6", "mmap", "munmap", "brk")
"""Allowed at once, before the checks: the calls an entrant makes at every decision (each
check costs every allowed call a few nanoseconds)."""

CLONE_NAMESPACES = 0x7E020080
"""``CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET | NEWTIME``."""

LOCK_COMMANDS = (5, 6, 7, 12, 13, 14, 36, 37, 38, 1024, 1026)
"""``fcntl`` commands refused: ``F_GETLK``, ``F_SETLK``, ``F_SETLKW`` (and their 64-bit
forms), ``F_OFD_GETLK``/``SETLK``/``SETLKW``, ``F_SETLEASE``, ``F_NOTIFY``."""

AF_UNIX = 1

MADV_COLD, MADV_PAGEOUT = 20, 21
"""``madvise`` advice refused: they push a file's pages out of the page cache."""

_LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JSET = 0x45  # BPF_JMP | BPF_JSET | BPF_K
_JGE = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_RET = 0x06  # BPF_RET | BPF_K
_RET_KILL_PROCESS = 0x80000000
_RET_ERRNO = 0x00050000
_RET_ALLOW = 0x7FFF0000
_NR, _ARCH, _ARG0, _ARG1, _ARG2 = 0, 4, 16, 24, 32  # in struct seccomp_data (low 32 bits)
_X32_BIT = 0x40000000
_PR_SET_NO_NEW_PRIVS = 38
_PR_SET_SECCOMP = 22
_SECCOMP_MODE_FILTER = 2


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("<HBBI", code, jt, jf, k)


def _errno(value: int) -> bytes:
    return _op(_RET, _RET_ERRNO | value)


def seccomp_filter(machine: str | None = None) -> bytes:
    """The filter's BPF program for ``machine`` (default: this one), as bytes.

    Raises:
        OSError: the machine is neither x86_64 nor aarch64.
    """
    machine = machine or platform.machine()
    if machine not in SYSCALLS:
        raise OSError(errno.ENOSYS, f"no seccomp filter for {machine!r} (x86_64 and aarch64 "
                      "only)")
    numbers = SYSCALLS[machine]
    program = [
        _op(_LD_W_ABS, _ARCH),
        _op(_JEQ, AUDIT_ARCH[machine], 1, 0),
        _op(_RET, _RET_KILL_PROCESS),
        _op(_LD_W_ABS, _NR),
    ]
    if machine == "x86_64":  # x32 calls share the architecture value: refuse them all
        program += [_op(_JGE, _X32_BIT, 0, 1), _op(_RET, _RET_KILL_PROCESS)]
    for name in FREQUENT:
        number = numbers.get(name)
        if number is not None:
            program += [_op(_JEQ, number, 0, 1), _op(_RET, _RET_ALLOW)]
    for name in DENIED:
        number = numbers.get(name)
        if number is not None:
            code = errno.ENOSYS if name in ENOSYS_CALLS else errno.EPERM
            program += [_op(_JEQ, number, 0, 1), _errno(code)]
    program += [_op(_JEQ, numbers["clone3"], 0, 1), _errno(errno.ENOSYS),
                _op(_JEQ, numbers["flock"], 0, 1), _errno(errno.ENOLCK)]
    # clone: refuse a namespace flag (the nr is reloaded after each argument check)
    program += [_op(_JEQ, numbers["clone"], 0, 4), _op(_LD_W_ABS, _ARG0),
                _op(_JSET, CLONE_NAMESPACES, 0, 1), _errno(errno.EPERM),
                _op(_LD_W_ABS, _NR)]
    # madvise: refuse pushing pages out of memory (the rest: the allocator's own advice)
    program += [_op(_JEQ, numbers["madvise"], 0, 5), _op(_LD_W_ABS, _ARG2),
                _op(_JEQ, MADV_COLD, 1, 0), _op(_JEQ, MADV_PAGEOUT, 0, 1),
                _errno(errno.EPERM), _op(_LD_W_ABS, _NR)]
    # fcntl: refuse the lock, lease and notify commands
    checks = [_op(_LD_W_ABS, _ARG1)]
    for index, command in enumerate(LOCK_COMMANDS):
        left = len(LOCK_COMMANDS) - index - 1
        checks.append(_op(_JEQ, command, left + 1, 0))  # to the ENOLCK below
    checks += [_op(_RET, _RET_ALLOW), _errno(errno.ENOLCK)]
    # jump over the fcntl block unless the call is fcntl
    program += [_op(_JEQ, numbers["fcntl"], 0, len(checks)), *checks]
    # socket and socketpair: AF_UNIX only
    for name in ("socket", "socketpair"):
        program += [_op(_JEQ, numbers[name], 0, 4), _op(_LD_W_ABS, _ARG0),
                    _op(_JEQ, AF_UNIX, 1, 0), _errno(errno.EAFNOSUPPORT),
                    _op(_LD_W_ABS, _NR)]
    program.append(_op(_RET, _RET_ALLOW))
    return b"".join(program)


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install_seccomp(machine: str | None = None) -> None:
    """Set ``no_new_privs`` and install the filter on the calling thread (for good).

    Call it while the process has one thread: the filter applies to the calling thread
    and what it starts afterwards.

    Raises:
        OSError: the machine is not supported, or the kernel refused the filter.
    """
    program = seccomp_filter(machine)
    libc = ctypes.CDLL(None, use_errno=True)
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = _SockFprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"prctl(PR_SET_NO_NEW_PRIVS): {errno_text(error)}")
    if libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"prctl(PR_SET_SECCOMP): {errno_text(error)}")


def errno_text(error: int) -> str:
    """``EPERM (Operation not permitted)`` for an errno value."""
    import os

    return f"{errno.errorcode.get(error, str(error))} ({os.strerror(error)})"


__all__ = [
    "AUDIT_ARCH",
    "CLONE_NAMESPACES",
    "DENIED",
    "ENOSYS_CALLS",
    "FREQUENT",
    "LOCK_COMMANDS",
    "MADV_COLD",
    "MADV_PAGEOUT",
    "SYSCALLS",
    "errno_text",
    "install_seccomp",
    "seccomp_filter",
]
