"""A battery of attacks from an entrant's position, as source text an entrant runs.

``PROBES`` defines ``probe(secrets, folders)``: it tries every attack below and returns, for each,
``"blocked: <how>"`` or ``"SUCCEEDED: <what it got>"``. A Python entrant runs it in
``act``; an executable entrant (a ``#!`` script) runs it before announcing its version.
``secrets`` are paths the arena must hide (a rival's file, the database): reading any of
them is a success of the attack; so is listing one of ``folders``.
"""

from __future__ import annotations

PROBES = r'''
import ctypes, errno, json, os, signal, socket, struct, sys

LIBC = ctypes.CDLL(None, use_errno=True)
NR = {
    "x86_64": {"ptrace": 101, "bpf": 321, "keyctl": 250, "add_key": 248,
               "perf_event_open": 298, "init_module": 175, "finit_module": 313,
               "delete_module": 176, "kexec_load": 246, "reboot": 169, "swapon": 167,
               "pivot_root": 155, "chroot": 161, "acct": 163, "userfaultfd": 323,
               "io_uring_setup": 425, "process_vm_readv": 310, "setns": 308,
               "unshare": 272, "clone": 56, "mount": 165, "umount2": 166,
               "open_tree": 428, "fsopen": 430, "sysinfo": 99, "inotify_init1": 294,
               "fanotify_init": 300, "flock": 73, "pidfd_getfd": 438, "syslog": 103,
               "mincore": 27},
    "aarch64": {"ptrace": 117, "bpf": 280, "keyctl": 219, "add_key": 217,
                "perf_event_open": 241, "init_module": 105, "finit_module": 273,
                "delete_module": 106, "kexec_load": 104, "reboot": 142, "swapon": 224,
                "pivot_root": 41, "chroot": 51, "acct": 89, "userfaultfd": 282,
                "io_uring_setup": 425, "process_vm_readv": 270, "setns": 268,
                "unshare": 97, "clone": 220, "mount": 40, "umount2": 39,
                "open_tree": 428, "fsopen": 430, "sysinfo": 179, "inotify_init1": 26,
                "fanotify_init": 262, "flock": 32, "pidfd_getfd": 438, "syslog": 116,
                "mincore": 232},
}[os.uname().machine]


def _syscall(name, *args):
    ctypes.set_errno(0)
    result = LIBC.syscall(ctypes.c_long(NR[name]), *[ctypes.c_long(a) for a in args])
    return result, ctypes.get_errno()


def _call(name, *args):
    result, error = _syscall(name, *args)
    if result == -1:
        return "blocked: " + errno.errorcode.get(error, str(error))
    return f"SUCCEEDED: {name} returned {result}"


def _write(path, data="x"):
    try:
        with open(path, "w") as handle:
            handle.write(data)
    except OSError as error:
        return "blocked: " + errno.errorcode.get(error.errno, str(error.errno))
    return f"SUCCEEDED: wrote {path}"


def _read(path):
    try:
        with open(path, "rb") as handle:
            data = handle.read(200)
    except OSError as error:
        return "blocked: " + errno.errorcode.get(error.errno, str(error.errno))
    if not data:
        return "blocked: empty"
    return f"SUCCEEDED: read {data[:60]!r}"


def _try(function):
    try:
        return function()
    except OSError as error:
        return "blocked: " + errno.errorcode.get(error.errno or 0, str(error))
    except Exception as error:  # noqa: BLE001
        return f"blocked: {type(error).__name__}"


def _on_the_way(folder):
    """Names in ``folder`` that lead to the interpreter or pokerlab (shown on purpose)."""
    try:
        import pokerlab
        package = [os.path.dirname(pokerlab.__file__)]
    except ImportError:  # an executable entrant's interpreter may not reach it
        package = []
    names = set()
    for shown in (sys.prefix, sys.base_prefix, *package,
                  os.path.dirname(os.path.realpath(sys.executable))):
        if shown.startswith(folder.rstrip("/") + "/"):
            names.add(shown[len(folder.rstrip("/")) + 1:].split("/")[0])
    return names


def _listing(path):
    try:
        names = set(os.listdir(path)) - _on_the_way(path)
    except OSError as error:
        return "blocked: " + errno.errorcode.get(error.errno, str(error.errno))
    return f"SUCCEEDED: {sorted(names)[:20]}" if names else "blocked: empty"


def _host_processes():
    pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    mine = {os.getpid()}
    others = [p for p in pids if p not in mine]
    # in its own PID namespace an entrant sees itself (1) and its own children only
    return "blocked: own namespace only" if min(pids) == 1 and len(others) < 5 else \
        f"SUCCEEDED: sees {len(pids)} processes"


def _capabilities():
    status = {line.split(":")[0]: line.split()[1] for line in open("/proc/self/status")
              if line.startswith("Cap")}
    held = {k: v for k, v in status.items() if int(v, 16)}
    return f"SUCCEEDED: {held}" if held else "blocked: no capability"


def _setuid_root():
    try:
        os.setuid(0)
    except OSError as error:
        return "blocked: " + errno.errorcode.get(error.errno, str(error.errno))
    return "SUCCEEDED: setuid(0)"


def _network():
    results = []
    for family in (socket.AF_INET, socket.AF_INET6, socket.AF_NETLINK, socket.AF_PACKET):
        try:
            sock = socket.socket(family, socket.SOCK_RAW if family == socket.AF_PACKET
                                 else socket.SOCK_DGRAM)
        except OSError as error:
            results.append(errno.errorcode.get(error.errno, str(error.errno)))
            continue
        sock.close()
        return f"SUCCEEDED: socket family {family}"
    return "blocked: " + ",".join(results)


def _mknod():
    try:
        os.mknod("/tmp/sda", 0o600 | 0o060000, os.makedev(8, 0))
    except OSError as error:
        return "blocked: " + errno.errorcode.get(error.errno, str(error.errno))
    return "SUCCEEDED: mknod of a block device"


def _clone_newuser():
    # clone(CLONE_NEWUSER | SIGCHLD) without unshare
    result, error = _syscall("clone", 0x10000000 | 17, 0, 0, 0, 0)
    if result == 0:
        os._exit(0)
    if result > 0:
        os.waitpid(result, 0)
        return "SUCCEEDED: a child in a new user namespace"
    return "blocked: " + errno.errorcode.get(error, str(error))


def _flock():
    import fcntl
    try:
        with open("/etc/passwd") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        return "blocked: " + errno.errorcode.get(error.errno, str(error.errno))
    return "SUCCEEDED: locked /etc/passwd"


def _hostname():
    try:
        socket.sethostname("pwned")
    except OSError as error:
        return "blocked: " + errno.errorcode.get(error.errno, str(error.errno))
    return "SUCCEEDED: sethostname"


def _kill_everyone():
    try:
        os.kill(-1, 0)  # signal 0: who could it reach? (its own namespace only)
    except OSError as error:
        return "blocked: " + errno.errorcode.get(error.errno, str(error.errno))
    return "blocked: own namespace only" if _host_processes().startswith("blocked") else \
        "SUCCEEDED: kill(-1) reaches the host"


def _write_outside_tmp():
    for path in ("/x", "/usr/x", "/etc/x", "/dev/x", "/proc/x", sys.prefix + "/x",
                 os.path.dirname(os.__file__) + "/x"):
        outcome = _write(path)
        if outcome.startswith("SUCCEEDED"):
            return outcome
    return "blocked: read-only everywhere but /tmp"


def _setuid_binary():
    # a set-user-id program gives no privilege: its mount is nosuid and no_new_privs is set
    status = open("/proc/self/status").read()
    for program in ("/usr/bin/su", "/usr/bin/passwd", "/bin/su", "/usr/bin/newgrp"):
        if os.path.exists(program) and os.stat(program).st_mode & 0o4000:
            nosuid = os.statvfs(program).f_flag & os.ST_NOSUID
            if nosuid and "NoNewPrivs:\t1" in status:
                return "blocked: nosuid and no_new_privs"
            return f"SUCCEEDED: {program} would run set-user-id"
    return "blocked: no set-user-id program"


def _mincore():
    # page-cache residency of a file every entrant can read: a channel between two
    import mmap
    with open(os.__file__, "rb") as handle:
        mapped = mmap.mmap(handle.fileno(), 4096, access=mmap.ACCESS_COPY)
    address = ctypes.addressof(ctypes.c_char.from_buffer(mapped))
    vector = ctypes.create_string_buffer(1)
    result, error = _syscall("mincore", address, 4096, ctypes.addressof(vector))
    return "blocked: " + errno.errorcode.get(error, str(error)) if result == -1 else \
        "SUCCEEDED: mincore answered"


def _ofd_lock_query():
    import fcntl
    with open("/etc/passwd", "rb") as handle:
        lock = struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0)
        try:
            fcntl.fcntl(handle, 36, lock)  # F_OFD_GETLK: who holds a lock on a shared file
        except OSError as error:
            return "blocked: " + errno.errorcode.get(error.errno, str(error.errno))
    return "SUCCEEDED: F_OFD_GETLK answered"


def _own_traces(secrets):
    # what the launcher was told (the paths to hide) must not be in its command line
    seen = open("/proc/1/cmdline", "rb").read()
    try:
        seen += open("/proc/self/environ", "rb").read()
    except OSError:
        pass  # unreadable: a process that changed its ids is not dumpable
    leaked = [s for s in secrets if s.encode() in seen]
    return f"SUCCEEDED: {leaked}" if leaked else "blocked: no hidden path in sight"


def _open_descriptors():
    odd = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue  # the listing's own descriptor, closed already
        if not target.startswith(("pipe:", "socket:", "/dev/null", "anon_inode:")):
            odd.append(target)
    return f"SUCCEEDED: {odd}" if odd else "blocked: only its own streams and channel"


def _host_tmp():
    # Its own /tmp, plus the way down to the code it runs where that lives under /tmp (a
    # checkout or a virtual environment in mktemp -d): nothing beside that way is seen.
    import pokerlab

    needed = {os.path.realpath(p) for p in (os.path.dirname(pokerlab.__file__), sys.prefix,
                                            sys.base_prefix)}
    extra = []

    def walk(folder):
        ways = {p[len(folder) + 1:].split("/")[0] for p in needed if p.startswith(folder + "/")}
        for name in os.listdir(folder):
            path = f"{folder}/{name}"
            if path in needed:
                continue
            if name in ways:
                walk(path)
            elif folder != "/tmp" or name not in {"entrant", "numba"}:
                extra.append(path)

    walk("/tmp")
    return f"SUCCEEDED: {sorted(extra)[:10]}" if extra else "blocked: its own /tmp"


def _shm_segment():
    LIBC.shmget.restype = ctypes.c_int
    ident = LIBC.shmget(ctypes.c_int(0x5EED0001), ctypes.c_size_t(4096),
                        ctypes.c_int(0o1000 | 0o666))
    if ident < 0:
        return "blocked: " + errno.errorcode.get(ctypes.get_errno(), "?")
    return f"made: {ident}"  # private to its IPC namespace: the host must not see it


def probe(secrets, folders=()):
    results = {
        "core_pattern": _write("/proc/sys/kernel/core_pattern", "|/bin/sh -c id"),
        "proc_hostname": _write("/proc/sys/kernel/hostname", "pwned"),
        "drop_caches": _write("/proc/sys/vm/drop_caches", "3"),
        "pid_max": _write("/proc/sys/kernel/pid_max", "4194304"),
        "file_max": _write("/proc/sys/fs/file-max", "100"),
        "sysrq": _write("/proc/sysrq-trigger", "h"),
        "sethostname": _hostname(),
        "mount": _try(lambda: _call("mount", 0, 0, 0, 0, 0)),
        "umount": _call("umount2", 0, 2),
        "unshare_user": _call("unshare", 0x10000000),
        "unshare_net": _call("unshare", 0x40000000),
        "clone_newuser": _clone_newuser(),
        "setns": _call("setns", 0, 0),
        "ptrace_attach": _call("ptrace", 16, 1, 0, 0),
        "ptrace_traceme": _call("ptrace", 0, 0, 0, 0),
        "bpf": _call("bpf", 0, 0, 0),
        "keyctl": _call("keyctl", 0, 0, 0, 0, 0),
        "add_key": _call("add_key", 0, 0, 0, 0, 0),
        "perf_event_open": _call("perf_event_open", 0, 0, -1, -1, 0),
        "init_module": _call("init_module", 0, 0, 0),
        "finit_module": _call("finit_module", 0, 0, 0),
        "delete_module": _call("delete_module", 0, 0),
        "kexec_load": _call("kexec_load", 0, 0, 0, 0),
        "reboot": _call("reboot", 0xFEE1DEAD, 672274793, 0x4321FEDC, 0),
        "swapon": _call("swapon", 0, 0),
        "pivot_root": _call("pivot_root", 0, 0),
        "chroot": _call("chroot", 0),
        "acct": _call("acct", 0),
        "userfaultfd": _call("userfaultfd", 0),
        "io_uring_setup": _call("io_uring_setup", 1, 0),
        "process_vm_readv": _call("process_vm_readv", 1, 0, 0, 0, 0, 0),
        "pidfd_getfd": _call("pidfd_getfd", 0, 0, 0),
        "syslog": _call("syslog", 3, 0, 0),
        "sysinfo": _call("sysinfo", 0),
        "inotify": _call("inotify_init1", 0),
        "fanotify": _call("fanotify_init", 0, 0),
        "flock": _flock(),
        "network": _network(),
        "mknod": _mknod(),
        "setuid_root": _setuid_root(),
        "capabilities": _capabilities(),
        "host_processes": _host_processes(),
        "kill_everyone": _kill_everyone(),
        "shadow": _read("/etc/shadow"),
        "root_home": _listing("/root"),
        "home": _listing("/home"),
        "sys": _listing("/sys"),
        "host_tmp": _host_tmp(),
        "loadavg": _read("/proc/loadavg"),
        "proc_locks": _read("/proc/locks"),
        "proc_sys": _listing("/proc/sys"),
        "write_outside_tmp": _write_outside_tmp(),
        "setuid_binary": _try(_setuid_binary),
        "shm": _shm_segment(),
        "mincore": _try(_mincore),
        "ofd_lock_query": _ofd_lock_query(),
        "own_traces": _own_traces(secrets),
        "open_descriptors": _open_descriptors(),
    }
    for index, path in enumerate(secrets):
        results[f"secret{index}"] = _listing(path) if os.path.isdir(path) else _read(path)
    for index, path in enumerate(folders):
        results[f"folder{index}"] = _listing(path)
    return results
'''
"""The battery: ``exec`` it, then call ``probe(secrets)``."""

BLOCKED_OR_PRIVATE = ("blocked", "made")
"""The outcomes that mean an attack gained nothing (``made``: a SysV segment, private)."""
