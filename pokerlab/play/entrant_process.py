"""The entrant's side of the sandbox: ``python -m pokerlab.play.entrant_process FD DIR ...``.

The arena starts this module in a process of its own, with the socket of the protocol
(:mod:`pokerlab.play.entrant_protocol`) as file descriptor ``FD``, a closed stdin, its
output going to a bounded log, resource limits already set, and (``--contain``) inside
new mount, PID and network namespaces. Before any entrant code runs it:

1. with ``--contain``: makes the whole file system read-only, mounts a fresh, empty,
   size-limited ``/tmp`` (its working directory), a ``/proc`` that shows only its own
   processes and a ``/dev`` with only null, zero, full, random and urandom (no disk), then
   drops every capability for good (so it cannot remount anything or regain
   privileges), and caps the number of processes;
2. reads the ``start`` request: the entrant's source travels in the message, is written
   to the working directory, imported and its ``Agent`` built;
3. answers requests until ``stop`` or the end of the channel.

Every call into the entrant's code is wrapped: an exception of any kind (``SystemExit``
and ``KeyboardInterrupt`` included) becomes an error reply; the arena enforces the time
limits and kills the process when they pass.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import socket
import stat
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pokerlab.play.entrant_protocol import (
    ProtocolError,
    Reader,
    decode_update,
    encode_answer,
    send,
)

_MS_RDONLY = 1
_MS_NOSUID = 2
_MS_NODEV = 4
_MS_NOEXEC = 8
_MS_REMOUNT = 32
_MS_BIND = 4096
_MS_REC = 16384
_MS_PRIVATE = 1 << 18
_PR_SET_NO_NEW_PRIVS = 38
_PR_CAPBSET_DROP = 24
_CAPABILITY_VERSION_3 = 0x20080522
_LAST_CAPABILITY = 63

_DEVICES = {"null": 3, "zero": 5, "full": 7, "random": 8, "urandom": 9}
"""Character devices (major 1) of the contained /dev."""

WORKDIR = "/tmp/entrant"
"""The entrant's working directory inside the contained process."""


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _mount(libc: ctypes.CDLL, source: str, target: str, kind: str, flags: int,
           data: str = "") -> None:
    result = libc.mount(source.encode(), target.encode(), kind.encode() if kind else None,
                        ctypes.c_ulong(flags), data.encode() if data else None)
    if result != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"mount {source} on {target}: {os.strerror(error)}")


COVERED = ("/tmp", "/var/tmp", "/home", "/run", "/mnt", "/media", "/srv")
"""Folders hidden under an empty file system in the contained process (users' files,
other programs' scratch space); the interpreter and pokerlab's code, if they live there,
are shown again, read-only."""


def _is_under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _needed_paths() -> list[str]:
    """What the process must still read: its interpreter, libraries and pokerlab's code."""
    import pokerlab

    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix,
             os.path.dirname(os.path.realpath(sys.executable)),
             os.path.dirname(os.path.abspath(pokerlab.__file__))}
    return sorted({os.path.realpath(p) for p in paths if p})


def contain(tmp_megabytes: int, max_processes: int, hidden: Sequence[str] = ()) -> None:
    """Contain this process: what it may read, write, see and start.

    A read-only file system with the users' folders hidden; a private ``/tmp``, ``/proc``
    and ``/dev``; no capabilities; few processes. Runs as the first process of fresh
    mount, PID and network namespaces (``unshare``).
    ``hidden`` are files and folders of the arena that must not be seen (its database,
    the entrants' files): a file is covered by ``/dev/null``, a folder by an empty file
    system. The interpreter and pokerlab's code stay visible (read-only) wherever they live.
    """
    libc = _libc()
    # Count the machine's processes while the host's /proc is still the one mounted.
    running = sum(1 for entry in os.listdir("/proc") if entry.isdigit())
    needed = _needed_paths()
    folders = [f for f in dict.fromkeys((*COVERED, *hidden)) if os.path.isdir(f)]
    files = [h for h in hidden if os.path.isfile(h)]
    # Handles on the code that lives in a folder about to be hidden, to show it again.
    shown = {p: os.open(p, os.O_PATH | os.O_DIRECTORY) for p in needed
             if any(_is_under(p, f) for f in folders)}
    _mount(libc, "none", "/", "", _MS_REC | _MS_PRIVATE)
    _mount(libc, "/", "/", "", _MS_BIND | _MS_REC)
    mounts = []
    with open("/proc/self/mountinfo") as info:
        for line in info:
            mounts.append(line.split()[4])
    read_only = _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _MS_NOSUID | _MS_NODEV
    for point in mounts:
        try:
            _mount(libc, "none", point, "", read_only)
        except OSError:
            continue  # a mount point that is gone or cannot be remounted stays hidden below
    _mount(libc, "proc", "/proc", "proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC)
    # A /dev with the harmless devices only (no disks): null, zero, full, random, urandom.
    _mount(libc, "tmpfs", "/dev", "tmpfs", _MS_NOSUID | _MS_NOEXEC, "size=64k,mode=755")
    for name, minor in _DEVICES.items():
        os.mknod(f"/dev/{name}", stat.S_IFCHR | 0o666, os.makedev(1, minor))
    os.mkdir("/dev/shm", 0o1777)
    _mount(libc, "tmpfs", "/dev/shm", "tmpfs", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC,
           "size=1m,mode=1777")
    # Hide the folders under empty file systems (/tmp: the entrant's writable scratch space).
    covered = []
    for folder in folders:
        size = f"size={tmp_megabytes}m,mode=1777" if folder == "/tmp" else "size=1m,mode=755"
        try:
            _mount(libc, "tmpfs", folder, "tmpfs", _MS_NOSUID | _MS_NODEV, size)
        except OSError:
            continue  # inside a folder hidden already
        covered.append(folder)
    for path, handle in shown.items():
        os.makedirs(path, exist_ok=True)
        _mount(libc, f"/proc/self/fd/{handle}", path, "", _MS_BIND | _MS_REC)
        _mount(libc, "none", path, "", read_only)
        os.close(handle)
    for folder in covered:
        if folder != "/tmp":
            _mount(libc, "none", folder, "", read_only)
    for file in files:
        if os.path.isfile(file):  # not under a folder hidden already
            _mount(libc, "/dev/null", file, "", _MS_BIND)
    # No capabilities, ever again: drop them from the bounding set, then clear them.
    for capability in range(_LAST_CAPABILITY + 1):
        libc.prctl(_PR_CAPBSET_DROP, capability, 0, 0, 0)
    header = (ctypes.c_uint32 * 2)(_CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)(0, 0, 0, 0, 0, 0)
    if libc.capset(header, data) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"capset: {os.strerror(error)}")
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"no_new_privs: {os.strerror(error)}")
    # Processes on the machine (all of this user's at most), plus a few: a fork bomb stops.
    limit = running + max_processes
    resource.setrlimit(resource.RLIMIT_NPROC, (limit, limit))


class _Entrant:
    """The entrant's agent and the calls into it."""

    def __init__(self, game: str, file: str, source: str, workdir: str) -> None:
        from pokerlab.games import load
        from pokerlab.play.entrant_loader import load_agent

        folder = Path(workdir)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / Path(file).name
        path.write_text(source)
        os.chdir(folder)
        self.agent = load_agent(path, load(game))
        self.hooks = [h for h in ("reset", "seed", "observe") if callable(getattr(self.agent, h,
                                                                                    None))]

    def call(self, request: dict[str, Any]) -> object:
        op = request.get("op")
        if op == "act":
            observation = decode_update(request["observation"])
            return encode_answer(self.agent.act(observation))  # type: ignore[attr-defined]
        if op == "reset":
            self.agent.reset()  # type: ignore[attr-defined]
            return None
        if op == "seed":
            self.agent.seed(int(request["value"]))  # type: ignore[attr-defined]
            return None
        if op == "observe":
            self.agent.observe(decode_update(request["update"]))  # type: ignore[attr-defined]
            return None
        raise ProtocolError(f"unknown request {op!r}")


def _describe(error: BaseException) -> str:
    last = traceback.extract_tb(error.__traceback__)[-1:] if error.__traceback__ else []
    where = f" (line {last[0].lineno})" if last else ""
    return f"{type(error).__name__}: {error}"[:500] + where


def serve(channel: socket.socket, workdir: str) -> None:
    """Answer the arena's requests until ``stop`` or the end of the channel."""
    reader = Reader(channel)
    entrant: _Entrant | None = None
    while True:
        try:
            request = reader.read()
        except ProtocolError:
            return
        ident = request.get("id")
        op = request.get("op")
        if op == "stop":
            return
        try:
            if op == "start":
                entrant = _Entrant(str(request["game"]), str(request["file"]),
                                   str(request["source"]), workdir)
                value: object = {"name": getattr(entrant.agent, "name", None)
                                 if isinstance(getattr(entrant.agent, "name", None), str)
                                 else None, "hooks": entrant.hooks}
            elif entrant is None:
                raise ProtocolError("the entrant is not started")
            else:
                value = entrant.call(request)
        except BaseException as error:
            kind = "exception"
            send(channel, {"id": ident, "ok": False, "kind": kind, "error": _describe(error)})
            continue
        send(channel, {"id": ident, "ok": True, "value": value})


def exec_entrant(args: Sequence[str]) -> None:
    """Become an executable entrant: ``SOCKET_FD FILE_FD NAME WORKDIR [--contain ...]``.

    Contains the process first (as for Python entrants), then copies the executable from
    ``FILE_FD`` (opened by the arena before the users' folders were hidden) into the
    working directory, makes the connection to the dealer its stdin and stdout (its
    stderr stays the bounded log) and ``exec``s it: the entrant speaks the ACPC protocol
    on its standard streams and has no network of its own.
    """
    socket_fd, file_fd, name, workdir = int(args[0]), int(args[1]), args[2], args[3]
    if len(args) >= 7 and args[4] == "--contain":
        contain(int(args[5]), int(args[6]), args[7:])
        workdir = WORKDIR
    os.makedirs(workdir, exist_ok=True)
    path = os.path.join(workdir, os.path.basename(name) or "entrant")
    with os.fdopen(file_fd, "rb") as source, open(path, "wb") as copy:
        while chunk := source.read(1 << 20):
            copy.write(chunk)
    os.chmod(path, 0o500)
    os.dup2(socket_fd, 0)
    os.dup2(socket_fd, 1)
    os.close(socket_fd)
    os.chdir(workdir)
    try:
        os.execv(path, [path])
    except OSError as error:
        sys.stderr.write(f"cannot run {name}: {error.strerror} (a binary, or a script "
                         "starting with #!)\n")
        sys.stderr.flush()
        os._exit(127)


def main(argv: list[str] | None = None) -> None:
    """Entry point: ``FD WORKDIR [--contain TMP_MB MAX_PROCESSES [HIDDEN ...]]``.

    ``--exec SOCKET_FD FILE_FD NAME WORKDIR [--contain ...]`` runs an executable entrant
    instead (:func:`exec_entrant`).
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "--exec":
        exec_entrant(args[1:])
        return
    descriptor, workdir = int(args[0]), args[1]
    if len(args) >= 5 and args[2] == "--contain":
        contain(int(args[3]), int(args[4]), args[5:])
        workdir = WORKDIR
    # The entrant's prints go to the log (a line at a time, so that a killed process's
    # last lines are there too); the protocol has its own socket.
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError):
            stream.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    channel = socket.socket(fileno=descriptor)
    try:
        serve(channel, workdir)
    finally:
        channel.close()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(0)  # skip the interpreter's teardown: entrant objects may misbehave in it


if __name__ == "__main__":
    main()
