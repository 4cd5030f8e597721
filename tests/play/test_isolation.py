"""Attacks from an entrant's position gain nothing, stop nothing and leave nothing behind.

Each test plays a hostile entrant (a Python file, and where it applies an executable
program) in its sandbox and checks three things: the attack got nothing (each probe of
:mod:`tests.play.attacks` is refused, the entrant's results are those of a plain bot),
the match went on, and nothing stayed on the host afterwards (no SysV shared-memory
segment, no process of the entrant's host id, no working folder, no changed setting).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

import pokerlab
from pokerlab.agents import AlwaysCall
from pokerlab.agents.resolve import resolve_agent
from pokerlab.eval.matches import iter_hands, play_match
from pokerlab.games import kuhn
from pokerlab.play.containment import containment_available, isolation_problems
from pokerlab.play.dealer import AgentFault
from pokerlab.play.executable import ExecutableAgent
from pokerlab.play.isolation import HOST_ID_BASE
from pokerlab.play.sandbox import EntrantSource, SandboxedAgent, SandboxLimits
from pokerlab.protocols.acpc_gamedef import load_acpc_game
from tests.play.attacks import BLOCKED_OR_PRIVATE, PROBES
from tests.play.host import HostWatch, shm_segments

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not containment_available(),
                       reason=f"this machine cannot isolate entrants: {isolation_problems()}"),
]

LIMITS = SandboxLimits(decision_seconds=20.0, start_seconds=30.0, memory_megabytes=1024)
LIMIT_HOLDEM = load_acpc_game("holdem.limit.2p.reverse_blinds")

DEFAULT = '''
def default(observation):
    names = observation.action_names
    for wanted in ("check", "fold"):
        if wanted in names:
            return observation.legal_actions[names.index(wanted)]
    return observation.legal_actions[0]
'''

PLAIN = DEFAULT + ("class Agent:\n    def act(self, observation):\n"
                   "        return default(observation)\n")


SHOWN_SECRETS = [Path(p) for p in ("/etc/hostname", "/etc/machine-id", "/usr/share/doc")
                 if Path(p).exists()]
"""Paths under folders an entrant is shown, hidden for the tests (as the arena hides its
database or entrants' files when they lie there)."""


@pytest.fixture
def secrets(tmp_path: Path) -> list[Path]:
    """What the arena must hide: a rival's file beside the attacker, a database, and
    paths under the folders an entrant is shown."""
    rival = tmp_path / "rival.py"
    rival.write_text("SECRET = 'the rival strategy'\n" + PLAIN)
    database = tmp_path / "arena.db"
    database.write_bytes(b"SQLite format 3\x00 the results")
    return [rival, database, *SHOWN_SECRETS]


def _assert_all_blocked(results: dict[str, str]) -> None:
    gained = {name: outcome for name, outcome in results.items()
              if not outcome.startswith(BLOCKED_OR_PRIVATE)}
    assert gained == {}, f"attacks that worked: {gained}"
    assert len(results) >= 50


def test_a_python_entrant_gains_nothing_from_any_attack(
    tmp_path: Path, secrets: list[Path], host: HostWatch
) -> None:
    attacker = tmp_path / "attacker.py"
    attacker.write_text(PROBES + DEFAULT + f"""
SECRETS = {[str(s) for s in secrets]!r}
FOLDERS = {[str(tmp_path), str(Path.home())]!r}

class Agent:
    def act(self, observation):
        if not getattr(self, "done", False):
            self.done = True
            print("RESULTS " + json.dumps(probe(SECRETS, FOLDERS)), flush=True)
        return default(observation)
""")
    plain_file = tmp_path / "plain.py"
    plain_file.write_text(PLAIN)
    outcomes = []
    for file in (plain_file, attacker):
        agent = SandboxedAgent(EntrantSource.read(file), kuhn(), limits=LIMITS,
                               hidden=secrets[1:])
        try:
            result = play_match(kuhn(), agent, AlwaysCall(), hands=3, seed=2)
        finally:
            agent.close()
        outcomes.append(([r.agent_returns() for r in result.hands], result, agent))
    (plain, _, _), (hostile, result, agent) = outcomes
    assert hostile == plain  # the attacks won nothing at the table
    assert [e for e in result.events if e.agent == 0] == []  # type: ignore[attr-defined]
    line = next(x for x in agent.log.splitlines() if x.startswith("RESULTS "))
    _assert_all_blocked(json.loads(line[len("RESULTS "):]))


ACPC_CLIENT = r'''
def play():
    import sys
    sys.stdout.write("VERSION:2.0.0\r\n")
    sys.stdout.flush()
    for raw in sys.stdin:
        line = raw.rstrip("\r\n")
        if not line.startswith("MATCHSTATE:"):
            continue
        position, _, betting = line.split(":")[1:4]
        current = betting.split("/")[-1]
        if current.endswith("f") or (len(current) >= 2 and current.endswith("c")):
            continue
        first = 1 if current == betting else 0
        if (first + len(current)) % 2 == int(position):
            sys.stdout.write(line + ":c\r\n")
            sys.stdout.flush()
'''


def test_an_executable_entrant_gains_nothing_from_any_attack(
    tmp_path: Path, secrets: list[Path], host: HostWatch
) -> None:
    program = tmp_path / "attacker"
    program.write_text(f"#!{sys.executable}\n" + PROBES + ACPC_CLIENT + f"""
sys.stderr.write("RESULTS " + json.dumps(probe({[str(s) for s in secrets]!r},
                                                {[str(tmp_path)]!r})) + "\\n")
sys.stderr.flush()
play()
""")
    program.chmod(0o755)
    entrant = resolve_agent(str(program), LIMIT_HOLDEM, limits=LIMITS)
    assert entrant.error is None
    agent = entrant.build(LIMIT_HOLDEM)
    assert isinstance(agent, ExecutableAgent)
    agent.hidden = (*agent.hidden, *(str(s) for s in secrets[1:]))
    try:
        played = list(iter_hands(LIMIT_HOLDEM, [agent, AlwaysCall()], hands=3, seed=1,
                                 listeners=[agent.dealer_listener(0)]))
    finally:
        agent.close()
    local = list(iter_hands(LIMIT_HOLDEM, [AlwaysCall(), AlwaysCall()], hands=3, seed=1))
    assert [r.history for r in played] == [r.history for r in local]  # it gained nothing
    assert [e for r in played for e in r.events] == []
    line = next(x for x in agent.log.splitlines() if x.startswith("RESULTS "))
    _assert_all_blocked(json.loads(line[len("RESULTS "):]))


REPORTER = DEFAULT + '''
import os, sys
class Agent:
    def act(self, observation):
        import pokerlab
        print("POKERLAB " + pokerlab.__file__ + " " + str(os.getuid()), flush=True)
        return default(observation)
'''


@pytest.mark.parametrize("contain", [True, False], ids=["contained", "process"])
def test_the_entrant_runs_the_parents_pokerlab_whatever_is_installed(
    contain: bool, tmp_path: Path
) -> None:
    # The launcher runs `python -I`: PYTHONPATH is ignored, and the venv may hold another
    # pokerlab (an editable install of another checkout). It must import this one.
    file = tmp_path / "reporter.py"
    file.write_text(REPORTER)
    agent = SandboxedAgent(EntrantSource.read(file), kuhn(), limits=LIMITS, contain=contain)
    try:
        play_match(kuhn(), agent, AlwaysCall(), hands=1, seed=0)
    finally:
        agent.close()
    line = next(x for x in agent.log.splitlines() if x.startswith("POKERLAB "))
    path, uid = line.split()[1:]
    assert path == pokerlab.__file__
    assert int(uid) == (1000 if contain else os.getuid())


SHARER = DEFAULT + '''
import ctypes, os
LIBC = ctypes.CDLL(None, use_errno=True)
LIBC.shmat.restype = ctypes.c_void_p
KEY = 0x5EED0002

def post(text):
    ident = LIBC.shmget(KEY, 4096, 0o1000 | 0o666)
    if ident < 0:
        raise OSError(ctypes.get_errno(), "shmget")
    address = LIBC.shmat(ident, None, 0)
    ctypes.memmove(address, text.encode().ljust(32, b"\\0"), 32)
    for path in ("/dev/shm/card", "/tmp/card"):
        with open(path, "w") as handle:
            handle.write(text)

def peek():
    found = []
    ident = LIBC.shmget(KEY, 0, 0)
    if ident >= 0:
        address = LIBC.shmat(ident, None, 0)
        found.append(ctypes.string_at(address, 32).rstrip(b"\\0").decode())
    for path in ("/dev/shm/card", "/tmp/card"):
        if os.path.exists(path):
            found.append(open(path).read())
    return found

class Agent:
    def __init__(self):
        self.token = os.urandom(8).hex()  # this process's mark on what it posts
        self.acted = False

    def act(self, observation):
        seen = peek()
        # What a process finds is its own posting, from earlier in this match, or a leak.
        foreign = [t for t in seen if not t.startswith(self.token) or not self.acted]
        print("LEAK" if foreign else "CLEAN", foreign, flush=True)
        post(self.token + " " + observation.private_cards)
        self.acted = True
        return default(observation)
'''


def test_two_entrants_pass_nothing_through_shared_memory_and_nothing_survives(
    tmp_path: Path, host: HostWatch
) -> None:
    # The same program in both seats posts its card (with a mark of its own) in a SysV
    # segment, /dev/shm and /tmp, and looks for what is there before: it must find its own
    # postings only, and nothing at its first decision (a new process each match).
    file = tmp_path / "sharer.py"
    file.write_text(SHARER)
    source = EntrantSource.read(file)
    for _ in range(2):  # two matches: nothing carries over
        agents = [SandboxedAgent(source, kuhn(), limits=LIMITS) for _ in range(2)]
        try:
            result = play_match(kuhn(), *agents, hands=3, seed=3)
        finally:
            for agent in agents:
                agent.close()
        assert list(result.events) == []  # type: ignore[attr-defined]
        for agent in agents:
            lines = [x for x in agent.log.splitlines() if x.startswith(("LEAK", "CLEAN"))]
            assert len(lines) >= 3
            assert all(x.startswith("CLEAN") for x in lines), lines
    assert not any(s.startswith(f"{0x5EED0002} ") for s in shm_segments())


TOUCHER = DEFAULT + '''
import os, time
class Agent:
    def act(self, observation):
        done = 0
        children = []
        for _ in range(3):
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(read)
                block = bytearray(MEGABYTES * 1024 * 1024)
                block[::4096] = b"\\1" * len(range(0, len(block), 4096))  # every page touched
                os.write(write, b"1")
                time.sleep(30)
                os._exit(0)
            os.close(write)
            children.append((pid, read))
        deadline = time.monotonic() + 20
        holders = []
        for pid, read in children:
            while time.monotonic() < deadline:
                import select
                if select.select([read], [], [], 0.2)[0]:
                    if os.read(read, 1):
                        holders.append(pid)
                    break
                finished, _ = os.waitpid(pid, os.WNOHANG)
                if finished:
                    break
        # The ones holding their memory now: the kernel may have killed an earlier holder
        # to make room for a later one, so reports alone overcount.
        done = sum(1 for pid in holders if os.waitpid(pid, os.WNOHANG)[0] == 0)
        for pid, _ in children:
            try:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
            except OSError:
                pass
        print("HELD", done, flush=True)
        return default(observation)
'''


def test_memory_is_limited_on_the_whole_process_tree(tmp_path: Path, host: HostWatch) -> None:
    # Three processes of 300 MiB each against 512 MiB for the tree: at most one holds its
    # memory at a time (each fits the address-space limit of a process, 512 MiB, on its
    # own); a clean clone once saw two report, the kernel having killed the first holder
    # to make room for the second: what counts is how many hold at the end.
    limits = SandboxLimits(decision_seconds=40.0, start_seconds=30.0, memory_megabytes=512)
    file = tmp_path / "toucher.py"
    file.write_text(TOUCHER.replace("MEGABYTES", "300"))
    agent = SandboxedAgent(EntrantSource.read(file), kuhn(), limits=limits)
    try:
        agent.start()
        state = kuhn().initial_state().child(0).child(1)
        kind = None
        try:
            agent.act(state.observation())
        except AgentFault as fault:  # the kernel may kill the entrant's own process
            kind = fault.kind
        assert kind in (None, "crash")
    finally:
        agent.close()
    held = [int(x.split()[1]) for x in agent.log.splitlines() if x.startswith("HELD")]
    assert held == [] or held[0] <= 1
    assert "MemoryError" not in agent.log  # the tree's limit stopped them, not the process's


SPINNER = DEFAULT + '''
import threading, time
class Agent:
    def act(self, observation):
        stop = time.monotonic() + 2.0
        def spin():
            while time.monotonic() < stop:
                pass
        threads = [threading.Thread(target=spin) for _ in range(2)]
        start = time.process_time()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print("CPU", time.process_time() - start, flush=True)
        return default(observation)
'''


def test_cpu_is_limited_on_the_whole_process_tree(tmp_path: Path, host: HostWatch) -> None:
    # Two threads spinning for 2 s with a quarter of a core: at most about 0.5 s of CPU
    # (without the limit, up to 4 s on two idle cores).
    limits = SandboxLimits(decision_seconds=30.0, start_seconds=30.0, cpus=0.25)
    file = tmp_path / "spinner.py"
    file.write_text(SPINNER)
    agent = SandboxedAgent(EntrantSource.read(file), kuhn(), limits=limits)
    try:
        agent.start()
        agent.act(kuhn().initial_state().child(0).child(1).observation())
    finally:
        agent.close()
    used = [float(x.split()[1]) for x in agent.log.splitlines() if x.startswith("CPU")]
    assert used
    assert used[0] <= 0.25 * 2.0 + 0.3


def test_the_load_check_runs_in_the_restricted_view(tmp_path: Path, host: HostWatch) -> None:
    # A bot that reads its rival's file (beside it) at import and puts it in its load
    # error: the error, printed and stored by the arena, holds nothing of the rival.
    folder = tmp_path / "entrants"
    folder.mkdir()
    (folder / "rival.py").write_text("SECRET = 'the rival strategy'\n" + PLAIN)
    (folder / "leaker.py").write_text(
        f"raise RuntimeError(open({str(folder / 'rival.py')!r}).read())\n"
    )
    entrant = resolve_agent(str(folder / "leaker.py"), kuhn(), limits=LIMITS)
    assert entrant.error is not None
    assert "rival strategy" not in entrant.error
    assert "FileNotFoundError" in entrant.error


def test_every_uid_of_an_entrant_is_unprivileged_and_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two entrants at once run as two host ids, neither root, neither any user's, and
    # neither made of a host pid (an attack review read the launcher's pid in uid_map:
    # one leg told the next how many processes it forked)
    import pokerlab.play.containment as containment

    drawn: list[int] = []
    real = containment.new_host_id
    monkeypatch.setattr(containment, "new_host_id", lambda: drawn.append(real()) or drawn[-1])
    file = tmp_path / "plain.py"
    file.write_text(PLAIN)
    agents = [SandboxedAgent(EntrantSource.read(file), kuhn(), limits=LIMITS) for _ in range(2)]
    try:
        for agent in agents:
            agent.start()
        ids = set()
        for agent in agents:
            assert agent.pid is not None
            children = [int(p) for p in Path(f"/proc/{agent.pid}/task/{agent.pid}/children")
                        .read_text().split()]
            for pid in [agent.pid, *children]:
                status = Path(f"/proc/{pid}/status").read_text()
                uid = next(line for line in status.splitlines() if line.startswith("Uid:"))
                ids |= {int(v) for v in uid.split()[1:]}
        assert ids == set(drawn)
        assert len(ids) == 2
        assert min(ids) > HOST_ID_BASE
        assert not ids & {HOST_ID_BASE + a.pid for a in agents if a.pid is not None}
    finally:
        for agent in agents:
            agent.close()
