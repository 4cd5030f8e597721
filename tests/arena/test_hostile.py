"""Hostile entrants gain nothing: every attack is contained, recorded, and changes no result.

Each bot below tries one attack. A bot that survives its attack plays the default action
(check, else fold), so that its results can be compared with those of a plain bot that
always plays it: equal results mean the attack won nothing. Attacks that misbehave
(exits, exceptions, hangs, garbage) are recorded faults, and the default action is played
for them, so these bots too must end with the plain bot's results.
"""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import replace
from pathlib import Path

import pytest

from pokerlab.agents import AlwaysCall
from pokerlab.arena import ArenaStore, builtin_entrants, leaderboard, run_tournament
from pokerlab.arena.tournament import file_entrant
from pokerlab.eval.matches import play_match
from pokerlab.games import kuhn
from pokerlab.play.containment import containment_available
from pokerlab.play.dealer import AgentFault
from pokerlab.play.sandbox import (
    EntrantSource,
    SandboxedAgent,
    SandboxLimits,
    check_loads,
)
from tests.play.host import HostWatch

pytestmark = pytest.mark.slow

LIMITS = SandboxLimits(decision_seconds=2.0, start_seconds=10.0, memory_megabytes=1024)

DEFAULT = '''
def default(observation):
    names = observation.action_names
    for wanted in ("check", "fold"):
        if wanted in names:
            return observation.legal_actions[names.index(wanted)]
    return observation.legal_actions[0]
'''

PLAIN = DEFAULT + '''
class Agent:
    def act(self, observation):
        return default(observation)
'''

# Each attack: (body of act before playing the default, the fault kinds it must cause).
ATTACKS: dict[str, tuple[str, set[str]]] = {
    "frames": ('''
        import inspect
        for frame in inspect.stack():
            for value in frame.frame.f_locals.values():
                if hasattr(value, "hole") or hasattr(value, "private") or "Generator" in repr(
                        type(value)):
                    return observation.legal_actions[-1]  # it found the state: it would cheat
''', set()),
    # The launcher's configuration names the arena's database and the entrants' files.
    "config": ('''
        import gc, inspect
        places = [f.frame.f_locals for f in inspect.stack()] + gc.get_objects()
        for value in places:
            if isinstance(value, dict) and isinstance(value.get("hidden"), list):
                return observation.legal_actions[-1]  # it found the arena's paths
''', set()),
    "gc": ('''
        import gc
        for thing in gc.get_objects():
            name = type(thing).__name__
            if name in ("KuhnState", "LeducState", "HoldemState", "DealStream", "Generator",
                        "AlwaysCall", "InProcessConnection"):
                return observation.legal_actions[-1]
''', set()),
    "opponent": ('''
        import gc
        for thing in gc.get_objects():
            try:
                other = hasattr(thing, "act") and thing is not self
            except Exception:
                continue
            if other and not isinstance(thing, type):
                thing.act = lambda obs: obs.legal_actions[0]
''', set()),
    "siblings": ('''
        for path in PATHS:
            with open(path, "w") as handle:
                handle.write("hacked")
''', {"exception"}),
    "database": ('''
        import sqlite3
        with sqlite3.connect(DATABASE) as db:
            db.execute("UPDATE hand SET returns = '[]'")
''', {"exception"}),
    "detached": ('''
        import subprocess, sys
        if not getattr(Agent, "spawned", False):
            Agent.spawned = True
            # (a group of its own: a new session, setsid, is refused to entrants)
            subprocess.Popen([sys.executable, "-c", DETACHED], process_group=0,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
''', {"stray-process"}),
    "reader": ('''
        import os
        seen = b""
        for path in PATHS:
            try:
                with open(path, "rb") as handle:
                    seen += handle.read()
            except OSError:
                pass
        if seen or any(name.startswith("pytest-of") for name in os.listdir("/tmp")):
            return observation.legal_actions[-1]  # it read the arena's files: it would cheat
''', set()),
    "sys-exit": ('''
        import sys
        sys.exit(0)
''', {"exception"}),
    "os-exit": ('''
        import os
        os._exit(0)
''', {"crash", "disqualified"}),
    "interrupt": ('''
        raise KeyboardInterrupt
''', {"exception"}),
    "int-loop": ('''
        class Forever:
            def __int__(self):
                while True:
                    pass
            __index__ = __int__
        return Forever()
''', {"illegal"}),
    "memory": ('''
        hoard = bytearray(16 * 1024 ** 3)
''', {"exception"}),
    "spinner": ('''
        while True:
            pass
''', {"timeout", "disqualified"}),
    "output": ('''
        import sys
        sys.stdout.write("x" * 5_000_000)
        sys.stdout.flush()
''', set()),
    "fork": ('''
        import os, time
        for _ in range(200):
            if os.fork() == 0:
                time.sleep(60)
                os._exit(0)
''', {"exception", "stray-process"}),
    # The host's settings, through /proc/sys: a `|program` core pattern would run as root.
    "core-pattern": ('''
        with open("/proc/sys/kernel/core_pattern", "w") as handle:
            handle.write("|/bin/sh -c 'touch /tmp/pwned'")
''', {"exception"}),
    "drop-caches": ('''
        with open("/proc/sys/vm/drop_caches", "w") as handle:
            handle.write("3")
''', {"exception"}),
    "hostname": ('''
        import socket
        socket.sethostname("pwned")
''', {"exception"}),
    "mount": ('''
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.mount(b"tmpfs", b"/tmp", b"tmpfs", 0, None) != 0:
            raise OSError(ctypes.get_errno(), "mount")
''', {"exception"}),
    "ptrace": ('''
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.ptrace(16, 1, 0, 0) != 0:  # PTRACE_ATTACH to its parent's world
            raise OSError(ctypes.get_errno(), "ptrace")
''', {"exception"}),
    "network": ('''
        import socket
        socket.create_connection(("127.0.0.1", 22), timeout=1)
''', {"exception"}),
    # Leave its core for its rival's (a match gives each entrant a core of its own).
    "affinity": ('''
        import os
        os.sched_setaffinity(0, range(os.cpu_count() or 1))
''', {"exception"}),
    # Move the machine-wide autogroup counter (/proc/self/autogroup) to its cards, for the
    # next leg to read.
    "setsid": ('''
        import os
        pid = os.fork()
        if pid == 0:
            try:
                os.setsid()
                os._exit(0)
            except OSError:
                os._exit(1)
        if os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0:
            raise RuntimeError("a new session")
''', set()),
    # Evict a shared file from the page cache (half of a timing channel between the legs
    # of a duplicate match: the next leg times its reads).
    "evict": ('''
        import os
        with open(os.__file__, "rb") as handle:
            os.posix_fadvise(handle.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
''', {"exception"}),
    # 100 MB of SysV segments, left allocated: they die with the entrant's IPC namespace.
    "shm-hoard": ('''
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        for key in range(10):
            libc.shmget(0x5EED1000 + key, 10 * 1024 * 1024, 0o1000 | 0o666)
''', set()),
}


def _bot(attack: str, paths: list[Path], database: Path) -> str:
    body, _ = ATTACKS[attack]
    detached = (f"import time, sqlite3; time.sleep(3); "
                f"sqlite3.connect({str(database)!r}).execute('DELETE FROM hand')")
    return (
        DEFAULT
        + f"PATHS = {[str(p) for p in paths]!r}\nDATABASE = {str(database)!r}\n"
        + f"DETACHED = {detached!r}\n"
        + "class Agent:\n    def act(self, observation):"
        + body.replace("\n        ", "\n        ")
        + "\n        return default(observation)\n"
    )


def _digest(paths: list[Path]) -> dict[str, str]:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths if p.exists()}


@pytest.fixture(scope="module")
def victims(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Path], Path]:
    """Files an entrant must not touch: another entrant's file and an arena database."""
    folder = tmp_path_factory.mktemp("victims")
    sibling = folder / "sibling.py"
    sibling.write_text(PLAIN)
    database = folder / "arena.db"
    run_tournament(kuhn(), [e for n in ("random", "always-call") for e in
                            builtin_entrants(n)], db=database, hands=5)
    return [sibling, database], database


def _match(
    source_text: str, name: str, folder: Path, hidden: list[Path] | None = None
) -> tuple[list[tuple[float, ...]], object, SandboxedAgent]:
    file = folder / f"{name}.py"
    file.write_text(source_text)
    agent = SandboxedAgent(EntrantSource.read(file), kuhn(), limits=LIMITS,
                           hidden=hidden or [])
    try:
        result = play_match(kuhn(), agent, AlwaysCall(), hands=4, seed=3)
    finally:
        agent.close()
    return [r.agent_returns() for r in result.hands], result, agent


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_an_attack_gains_nothing_and_is_recorded(
    attack: str, victims, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths, database = victims
    before = _digest(paths)
    host = HostWatch(monkeypatch)  # nothing may stay on the host: segments, processes...
    plain, _, _ = _match(PLAIN, "plain", tmp_path)
    hostile, result, agent = _match(_bot(attack, paths, database), attack, tmp_path,
                                    hidden=paths)
    assert hostile == plain  # the same chips, hand by hand, as the plain bot
    kinds = {e.kind for e in result.events if e.agent == 0}  # type: ignore[attr-defined]
    assert kinds == ATTACKS[attack][1]
    assert not any(e.agent == 1 for e in result.events)  # type: ignore[attr-defined]
    if attack == "detached":
        time.sleep(4)  # the detached process would have struck by now
    assert _digest(paths) == before
    if attack == "output":
        assert len(agent.log) <= LIMITS.log_bytes + 100
        assert "more bytes of output dropped" in agent.log
    host.assert_clean()


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("while True:\n    pass\n", "no answer to start"),
        ("class Agent:\n    def __init__(self):\n        while True:\n            pass\n"
         "    def act(self, o):\n        return 0\n", "no answer to start"),
        ("import os\nos._exit(0)\n", "exited with status 0"),
        ("raise SystemExit(2)\n", "SystemExit"),
        ("class NotAgent:\n    pass\n", "no class named 'Agent'"),
    ],
    ids=["import-loop", "constructor-loop", "exit-at-import", "sys-exit-at-import", "no-agent"],
)
def test_entrants_that_cannot_start_are_left_out(code: str, why: str, tmp_path: Path) -> None:
    file = tmp_path / "bad.py"
    file.write_text(code)
    # A loop is cut at the start limit whatever it is: a shorter one keeps the test short
    # (the others must start Python and report their error within it, under any load).
    limits = replace(LIMITS, start_seconds=4.0) if "no answer" in why else LIMITS
    start = time.monotonic()
    entrant = file_entrant(file, kuhn(), limits=limits)
    assert entrant.factory is None
    assert entrant.error is not None
    assert why in entrant.error
    assert time.monotonic() - start < limits.start_seconds + 8


def test_a_reset_loop_is_a_timeout_of_the_next_decision(tmp_path: Path) -> None:
    file = tmp_path / "resetter.py"
    file.write_text("class Agent:\n    def reset(self):\n        while True:\n            pass\n"
                    "    def act(self, o):\n        return o.legal_actions[0]\n")
    agent = SandboxedAgent(EntrantSource.read(file), kuhn(), limits=LIMITS)
    try:
        result = play_match(kuhn(), agent, AlwaysCall(), hands=3, seed=0)
    finally:
        agent.close()
    details = [e.detail for e in result.events if e.kind == "timeout"]
    assert details
    assert "pending: reset" in details[0]
    assert result.n_hands == 6


def test_a_spinning_entrant_stops_using_cpu_at_its_timeout(tmp_path: Path) -> None:
    file = tmp_path / "spinner.py"
    file.write_text("class Agent:\n    def act(self, o):\n        while True:\n            pass\n")
    agent = SandboxedAgent(EntrantSource.read(file), kuhn(), limits=LIMITS)
    try:
        agent.start()
        pid = agent.pid
        assert pid is not None
        state = kuhn().initial_state().child(0).child(1)
        start = time.monotonic()
        with pytest.raises(AgentFault, match="no answer to act"):
            agent.act(state.observation())
        gone_after = time.monotonic() - start - LIMITS.decision_seconds
        # the process (and everything in its namespace) is gone from the process table
        assert not Path(f"/proc/{pid}").exists()
        assert gone_after < 1.0
        spinning = [p for p in Path("/proc").iterdir() if p.name.isdigit()
                    and b"entrant_process" in _cmdline(p) and b"spinner" in _cmdline(p)]
        assert spinning == []
    finally:
        agent.close()


def _cmdline(process: Path) -> bytes:
    try:
        return (process / "cmdline").read_bytes()
    except OSError:
        return b""


def test_the_entrant_file_is_read_once(tmp_path: Path) -> None:
    file = tmp_path / "changing.py"
    file.write_text(PLAIN)
    source = EntrantSource.read(file)
    file.write_text("raise RuntimeError('changed after the check')\n")
    assert check_loads(source, kuhn(), limits=LIMITS) is None


def test_isolation_is_real_here() -> None:
    # CI runs as root on Linux: the strongest isolation must be on, or the tests above
    # would prove less than they claim.
    if os.geteuid() == 0:
        assert containment_available()


def test_a_hostile_entrant_changes_no_other_result(tmp_path: Path, victims) -> None:
    paths, _ = victims
    folder = tmp_path / "entrants"
    folder.mkdir()
    database = tmp_path / "with.db"
    reference = tmp_path / "without.db"
    (folder / "a.py").write_text(_bot("database", [], database))
    (folder / "b.py").write_text(_bot("detached", [], database))
    plain_folder = tmp_path / "plain"
    plain_folder.mkdir()
    (plain_folder / "a.py").write_text(PLAIN)
    (plain_folder / "b.py").write_text(PLAIN)
    builtins = [e for n in ("random", "always-call") for e in builtin_entrants(n)]
    game = kuhn()
    hostile = [file_entrant(folder / f, game, limits=LIMITS) for f in ("a.py", "b.py")]
    plain = [file_entrant(plain_folder / f, game, limits=LIMITS) for f in ("a.py", "b.py")]
    run_tournament(game, [*hostile, *builtins], db=database, hands=10, seed=4)
    run_tournament(game, [*plain, *builtins], db=reference, hands=10, seed=4)
    time.sleep(4)  # past the detached process's delay
    with ArenaStore(database, readonly=True) as one, ArenaStore(reference, readonly=True) as two:
        assert one.hand_table(one.run().id) == two.hand_table(two.run().id)
    board = leaderboard(database)
    faults = {s.name: s.faults for s in board.standings}
    assert faults["a"] > 0  # every write attempt is a recorded fault
    assert faults["random"] == faults["always-call"] == 0
    del paths
