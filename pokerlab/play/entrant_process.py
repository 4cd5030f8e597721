"""The entrant's side of the sandbox: the launcher the arena starts, then the entrant.

The arena starts this module (``python -I -c`` with its own pokerlab first on
``sys.path``: :data:`pokerlab.play.containment.BOOTSTRAP`) and writes a JSON object on
its stdin (then replaced by ``/dev/null``): ``mode`` (``python``, ``exec`` or
``probe``), ``channel`` (the descriptor of the protocol's socket,
:mod:`pokerlab.play.entrant_protocol`), ``contain``, ``root`` (its working folder on the
host), ``tmp_megabytes``, ``hidden``, and for ``exec`` the executable's descriptor
``program_fd`` and its ``name``. Its output goes to a bounded log, its resource limits
are set and its cgroup joined. Before any entrant code runs it:

1. with ``contain``: builds the contained view (:mod:`pokerlab.play.isolation`): new
   namespaces, an unprivileged id, a read-only file system of the system's folders and
   pokerlab's code with a private ``/tmp`` (its working directory), ``/dev`` and
   ``/proc``, no capability, ``no_new_privs`` and the seccomp filter; each is checked,
   and the process stops (status 3, the mechanism named on its log) if one fails;
2. ``python``: reads the ``start`` request (the entrant's source travels in it), writes
   the source to the working directory, imports it, builds its ``Agent`` and answers
   requests until ``stop`` or the end of the channel; ``exec``: becomes the executable;
   ``probe``: prints what it checked (the arena's test of the machine) and exits.

Every call into the entrant's code is wrapped: an exception of any kind (``SystemExit``
and ``KeyboardInterrupt`` included) becomes an error reply; the arena enforces the time
limits and kills the process when they pass.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import sys
import traceback
from pathlib import Path
from typing import Any, NoReturn

from pokerlab.games.observation import Observation
from pokerlab.play.entrant_protocol import (
    ProtocolError,
    Reader,
    decode_update,
    encode_answer,
    frame_reply,
    parse_trusted,
    send,
)
from pokerlab.play.isolation import (
    ISOLATION_FAILED,
    WORKDIR,
    IsolationError,
    build_root,
    drop_privileges,
    enter_namespaces,
    plan_view,
    run_as_pid_one,
    verify,
)

MAX_NAME = 80
"""An agent's ``name`` longer than this is cut."""


def _needed_paths() -> list[str]:
    """What the process must still read: its interpreter, libraries and pokerlab's code."""
    import pokerlab

    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix,
             os.path.dirname(os.path.realpath(sys.executable)),
             os.path.dirname(os.path.abspath(pokerlab.__file__))}
    return sorted({os.path.realpath(p) for p in paths if p})


def _fail(error: IsolationError) -> NoReturn:
    """Report a mechanism that could not be set up, and stop."""
    with contextlib.suppress(Exception):
        sys.stderr.write(f"pokerlab-isolation: {error}\n")
        sys.stderr.flush()
    os._exit(ISOLATION_FAILED)


def contain(config: dict[str, Any]) -> dict[str, object]:
    """Build the contained view (see :mod:`pokerlab.play.isolation`); return what was checked.

    Returns in the entrant's process (PID 1 of its namespace, its working directory
    :data:`~pokerlab.play.isolation.WORKDIR`); the launcher waits for it and ends as it
    ends. Stops the process (status 3) when a mechanism fails.
    """
    descriptors = [int(config[k]) for k in ("channel", "program_fd") if k in config]
    try:
        view = plan_view(_needed_paths(), [str(h) for h in config.get("hidden", [])],
                         int(config.get("tmp_megabytes", 16)))
        handles = enter_namespaces(view, int(config["host_id"]))
        run_as_pid_one([*descriptors, *handles.values()])
        has_proc = build_root(view, handles, str(config["root"]))
        os.makedirs(WORKDIR, mode=0o700, exist_ok=True)
        os.chdir(WORKDIR)
        drop_privileges()
        return verify(has_proc)
    except IsolationError as error:
        _fail(error)
    except OSError as error:
        _fail(IsolationError("containment", f"{error.strerror or error} "
                             f"({error.filename or ''})"))


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
            observation = request["observation"]
            if type(observation) is not Observation:  # decoded already by _Requests
                observation = decode_update(observation)
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
    """``Type: text (line n)``, at most 500 characters; an entrant's ``__str__`` may fail."""
    try:
        last = traceback.extract_tb(error.__traceback__)[-1:] if error.__traceback__ else []
        where = f" (line {last[0].lineno})" if last else ""
        text = str(error)
    except BaseException:
        where, text = "", "(its text could not be read)"
    return f"{type(error).__name__}: {text}"[:500] + where


def _agent_name(agent: object) -> str | None:
    name = getattr(agent, "name", None)
    return name[:MAX_NAME] if isinstance(name, str) else None


_ACT_HEAD = b'{"op":"act","observation":'
_ACT_TAIL = re.compile(rb',"id":(0|[1-9][0-9]{0,30})\}\Z')


class _Requests:
    """Reads the arena's requests; each distinct observation of ``act`` is decoded once.

    The arena writes ``act`` as ``{"op":"act","observation":{...},"id":n}``: the
    observation's bytes recur (a small game has few), so its decoded fields are kept
    (at most :attr:`LIMIT` of them) and each request gets a fresh, equal
    :class:`Observation` built from them. Anything else, or an observation that does not
    decode, is read by :func:`parse_trusted` as before.
    """

    LIMIT = 4096

    def __init__(self) -> None:
        self._fields: dict[bytes, dict[str, Any]] = {}

    def parse(self, data: bytes) -> dict[str, Any]:
        """The request as :func:`parse_trusted` reads it, ``act``'s observation decoded."""
        if data.startswith(_ACT_HEAD):
            tail = _ACT_TAIL.search(data, len(_ACT_HEAD))
            if tail is not None:
                key = data[len(_ACT_HEAD):tail.start()]
                fields = self._fields.get(key)
                if fields is None:
                    fields = self._decode(key)
                if fields is not None:
                    return {"op": "act", "observation": Observation(**fields),
                            "id": int(tail.group(1))}
        return parse_trusted(data)

    def _decode(self, key: bytes) -> dict[str, Any] | None:
        try:
            update = decode_update(parse_trusted(key))
        except Exception:  # the whole request is read as before; the entrant's call fails
            return None
        if type(update) is not Observation:
            return None
        if len(self._fields) >= self.LIMIT:
            self._fields.clear()
        fields = dict(vars(update))
        self._fields[key] = fields
        return fields


def serve(channel: socket.socket, workdir: str) -> None:
    """Answer the arena's requests until ``stop`` or the end of the channel.

    The arena's messages are read as plain JSON (:func:`parse_trusted`, through
    :class:`_Requests`): the bounds are the arena's protection against what an entrant
    sends, not the other way.
    """
    reader = Reader(channel, parse=_Requests().parse)
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
                value: object = {"name": _agent_name(entrant.agent), "hooks": entrant.hooks}
            elif entrant is None:
                raise ProtocolError("the entrant is not started")
            else:
                value = entrant.call(request)
        except BaseException as error:
            send(channel, {"id": ident, "ok": False, "kind": "exception",
                           "error": _describe(error)})
            continue
        channel.sendall(frame_reply(ident, value))


def exec_entrant(config: dict[str, Any], workdir: str) -> NoReturn:
    """Become an executable entrant (after :func:`contain` when contained).

    Copies the executable from its descriptor (opened by the arena) into the working
    directory, makes the connection to the dealer its stdin and stdout (its stderr stays
    the bounded log) and executes it: the entrant speaks the ACPC protocol on its
    standard streams and has no network of its own.
    """
    socket_fd, file_fd = int(config["channel"]), int(config["program_fd"])
    name = str(config.get("name", "entrant"))
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


def _read_config() -> dict[str, Any]:
    """The configuration on stdin; stdin becomes ``/dev/null``."""
    chunks = []
    while chunk := os.read(0, 1 << 16):
        chunks.append(chunk)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    config = json.loads(b"".join(chunks))
    assert isinstance(config, dict)
    return config


def main(argv: list[str] | None = None) -> None:
    """Entry point: the JSON configuration on stdin, or as the one argument."""
    args = list(sys.argv[1:] if argv is None else argv)
    config = json.loads(args[0]) if args else _read_config()
    workdir = str(config.get("root", "."))
    facts: dict[str, object] = {}
    if config.get("contain"):
        facts = contain(config)
        workdir = WORKDIR
    mode = config.get("mode")
    if mode == "probe":
        sys.stdout.write(json.dumps(facts) + "\n")
        sys.stdout.flush()
        os._exit(0)
    if mode == "exec":
        exec_entrant(config, workdir)
    # The entrant's prints go to the log (a line at a time, so that a killed process's
    # last lines are there too); the protocol has its own socket.
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError):
            stream.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    channel = socket.socket(fileno=int(config["channel"]))
    # The entrant's code runs in this frame's callees: it must not find the arena's paths
    # (``hidden`` names the database and the other entrants' files) in it.
    config.clear()
    del args
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
