"""The mechanisms one by one: refusal where one is missing, the seccomp filter, the cgroups.

Where the machine lacks a mechanism, entrants are refused with the mechanism named, unless
trusted explicitly (``--trust-entrants``): never silently weaker. The seccomp filter's
system call numbers match the kernel headers, it refuses what it names, and a filter for
another architecture kills the process. An entrant's cgroup carries the limits of its
whole tree (cgroup v1 here; v2 on a made-up hierarchy).
"""

from __future__ import annotations

import errno
import os
import re
import signal
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import pokerlab.play.containment as containment
from pokerlab.agents import RandomAgent
from pokerlab.agents.resolve import resolve_agent
from pokerlab.cli import main
from pokerlab.eval.matches import play_match
from pokerlab.games import kuhn
from pokerlab.play import cgroups
from pokerlab.play.containment import IsolationUnavailable, require_isolation
from pokerlab.play.isolation import plan_view
from pokerlab.play.sandbox import EntrantSource, SandboxedAgent
from pokerlab.play.seccomp import (
    DENIED,
    MADV_COLD,
    MADV_PAGEOUT,
    SYSCALLS,
    install_seccomp,
    seccomp_filter,
)
from tests.arena.test_hostile import PLAIN

MISSING = ("user namespaces (unshare: EPERM (Operation not permitted))",)


@pytest.fixture
def no_isolation(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine without user namespaces, as the probe would report it."""
    monkeypatch.setattr(containment, "isolation_problems", lambda: MISSING)


def test_entrants_are_refused_naming_the_missing_mechanism(
    no_isolation: None, tmp_path: Path
) -> None:
    file = tmp_path / "bot.py"
    file.write_text(PLAIN)
    with pytest.raises(IsolationUnavailable, match=r"user namespaces.*--trust-entrants"):
        require_isolation(trusted=False)
    with pytest.raises(IsolationUnavailable, match="user namespaces"):
        resolve_agent(str(file), kuhn())
    with pytest.raises(IsolationUnavailable, match="user namespaces"):
        SandboxedAgent(EntrantSource.read(file), kuhn())
    program = tmp_path / "bot.sh"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    from pokerlab.protocols.acpc_gamedef import load_acpc_game

    with pytest.raises(IsolationUnavailable, match="user namespaces"):
        resolve_agent(str(program), load_acpc_game("holdem.limit.2p.reverse_blinds"))


@pytest.mark.slow
def test_trusted_entrants_run_in_plain_processes(no_isolation: None, tmp_path: Path) -> None:
    file = tmp_path / "bot.py"
    file.write_text(PLAIN)
    entrant = resolve_agent(str(file), kuhn(), trust=True)
    assert entrant.error is None
    agent = entrant.build(kuhn())
    assert isinstance(agent, SandboxedAgent)
    assert agent.contained is False
    assert agent.limits.trusted
    try:
        result = play_match(kuhn(), agent, RandomAgent(), hands=2, seed=0)
    finally:
        agent.close()
    assert result.n_hands == 4


def test_the_commands_that_take_entrants_refuse_them_or_trust_them(
    no_isolation: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "bot.py"
    file.write_text(PLAIN)
    assert main(["match", "kuhn", str(file), "random", "--hands", "3"]) == 1
    error = capsys.readouterr().err
    assert "user namespaces" in error
    assert "--trust-entrants" in error
    assert "Traceback" not in error
    for command in (["arena", "run"], ["arena", "check-agent"], ["match"], ["play", "kuhn"],
                    ["play", "leduc"], ["acpc", "client"]):
        assert main([*command, "--help"]) == 0
        assert "--trust-entrants" in capsys.readouterr().out


@pytest.mark.slow
def test_match_runs_a_trusted_entrant(
    no_isolation: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "bot.py"
    file.write_text(PLAIN)
    code = main(["match", "kuhn", str(file), "random", "--hands", "3", "--trust-entrants",
                 "--json", "--no-aivat"])
    assert code == 0, capsys.readouterr().err


def test_the_view_shows_the_system_and_the_code_and_covers_hidden_paths(
    tmp_path: Path
) -> None:
    code = tmp_path / "venv"
    (code / "lib").mkdir(parents=True)
    (code / "lib" / "secret.db").write_text("x")
    view = plan_view([str(code), str(code / "lib"), "/nonexistent"],
                     [str(code / "lib" / "secret.db"), str(tmp_path / "elsewhere")],
                     16)
    assert str(code) in view.shown
    assert str(code / "lib") not in view.shown  # shown through its parent
    assert "/nonexistent" not in view.shown
    assert "/etc" in view.shown or os.path.islink("/etc")
    assert str(code / "lib" / "secret.db") in view.hidden
    assert str(tmp_path / "elsewhere") not in view.hidden  # not under anything shown
    assert not any(p.startswith(("/home", "/tmp/", "/root", "/sys", "/proc")) and
                   p != str(code) for p in view.shown)


# -- seccomp ---------------------------------------------------------------------------------
HEADERS = {
    "x86_64": Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h"),
    "aarch64": Path("/usr/include/asm-generic/unistd.h"),
}


@pytest.mark.parametrize("machine", sorted(SYSCALLS))
def test_the_syscall_numbers_are_those_of_the_kernel_headers(machine: str) -> None:
    header = HEADERS[machine]
    if not header.exists():
        pytest.skip(f"{header} is not installed (linux-libc-dev)")
    numbers = {}
    for name, number in re.findall(r"#define __NR(?:3264)?_(\w+)\s+(\d+)", header.read_text()):
        numbers.setdefault(name, int(number))
    newer = {"cachestat": 451} if "cachestat" not in numbers else {}  # Linux 6.5
    assert {name: numbers.get(name, newer.get(name)) for name in SYSCALLS[machine]} \
        == SYSCALLS[machine]
    missing = [n for n in DENIED if n not in SYSCALLS[machine]]
    assert all(n not in numbers for n in missing)  # absent on this architecture indeed


def test_a_filter_is_built_for_each_supported_machine_only() -> None:
    for machine in SYSCALLS:
        program = seccomp_filter(machine)
        assert len(program) % 8 == 0
        assert len(program) // 8 < 4096  # the kernel's limit on a filter's length
    with pytest.raises(OSError, match="x86_64 and aarch64"):
        seccomp_filter("riscv64")


def _in_child(function: object) -> int:
    """Run ``function`` (returns an exit status) in a forked child; its wait status."""
    pid = os.fork()
    if pid == 0:
        try:
            os._exit(function())  # type: ignore[operator]
        except BaseException:
            os._exit(99)
    return os.waitpid(pid, 0)[1]


@pytest.mark.skipif(os.uname().machine not in SYSCALLS, reason="no filter for this machine")
def test_the_filter_refuses_what_it_names_and_allows_the_rest() -> None:
    import ctypes
    import socket

    def child() -> int:
        install_seccomp()
        libc = ctypes.CDLL(None, use_errno=True)
        numbers = SYSCALLS[os.uname().machine]
        expected = {"unshare": errno.EPERM, "ptrace": errno.EPERM, "bpf": errno.EPERM,
                    "keyctl": errno.EPERM, "mount": errno.EPERM, "setns": errno.EPERM,
                    "sysinfo": errno.ENOSYS, "clone3": errno.ENOSYS, "flock": errno.ENOLCK,
                    "sched_setaffinity": errno.EPERM, "fadvise64": errno.EPERM,
                    "process_madvise": errno.EPERM, "setsid": errno.EPERM}
        for name, code in expected.items():
            ctypes.set_errno(0)
            if libc.syscall(numbers[name], 0, 0, 0, 0, 0) != -1 or ctypes.get_errno() != code:
                return 1
        import mmap

        page = mmap.mmap(-1, mmap.PAGESIZE)
        address = ctypes.addressof(ctypes.c_char.from_buffer(page))
        for advice, code in ((MADV_PAGEOUT, errno.EPERM), (MADV_COLD, errno.EPERM),
                             (4, 0)):  # MADV_DONTNEED: the allocator's, allowed
            ctypes.set_errno(0)
            result = libc.syscall(numbers["madvise"], ctypes.c_void_p(address), mmap.PAGESIZE,
                                  advice)
            if (result == -1) != bool(code) or ctypes.get_errno() != code:
                return 6
        try:
            socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            return 2
        except OSError as error:
            if error.errno != errno.EAFNOSUPPORT:
                return 3
        a, b = socket.socketpair()  # AF_UNIX is allowed, as are files, forks, threads
        a.sendall(b"x")
        if b.recv(1) != b"x":
            return 4
        pid = os.fork()
        if pid == 0:
            os._exit(7)
        if os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) != 7:
            return 5
        return 0

    assert os.waitstatus_to_exitcode(_in_child(child)) == 0


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="needs another architecture's filter")
def test_a_filter_for_another_architecture_kills_the_process() -> None:
    def child() -> int:
        install_seccomp("aarch64")  # the next system call comes from x86_64: killed
        os.getpid()
        return 0

    status = _in_child(child)
    assert os.WIFSIGNALED(status)
    assert os.WTERMSIG(status) == signal.SIGSYS


# -- the probe -------------------------------------------------------------------------------
def test_the_thread_wait_returns_after_an_ending_thread_and_names_a_lasting_one() -> None:
    # the helper alone: launchers start with one thread already (containment.ONE_THREAD);
    # this wait is the fallback for a pool that ends at the fork
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent("""
        import threading, time
        from pokerlab.play.isolation import IsolationError, _wait_for_one_thread
        ending = threading.Thread(target=time.sleep, args=(0.05,))
        ending.start()
        _wait_for_one_thread()  # returns once the thread has gone
        stop = threading.Event()
        threading.Thread(target=stop.wait, daemon=True).start()
        try:
            _wait_for_one_thread(0.1)
        except IsolationError as error:
            print(error)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, **containment.ONE_THREAD}, timeout=60,
                         check=True).stdout
    assert "user namespaces: the launcher runs 2 threads; unshare needs one" in out


@pytest.mark.skipif(os.geteuid() != 0 or cgroups.cgroup_support()[1] is not None,
                    reason="the probe needs root and cgroups")
def test_the_probe_holds_every_time() -> None:
    # numpy's OpenBLAS started a thread in the launcher, and unshare refused a new user
    # namespace (EINVAL) in about 60% of the probes on a quiet machine: every test
    # module that asks containment_available() then skipped
    first = containment.probe_isolation()
    if first is not None and "EINVAL" not in first and "threads" not in first:
        pytest.skip(f"this machine cannot isolate entrants: {first}")  # e.g. EPERM
    assert [first] + [containment.probe_isolation() for _ in range(11)] == [None] * 12


# -- one core for a match's processes ---------------------------------------------------------
@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one CPU: nothing to pin")
def test_a_match_thread_and_the_processes_it_starts_share_one_core_then_it_is_free() -> None:
    import subprocess
    import sys

    allowed = os.sched_getaffinity(0)
    with containment.one_core():
        core = os.sched_getaffinity(0)
        started = subprocess.run(
            [sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"],
            capture_output=True, text=True, check=True).stdout.strip()
        with containment.one_core():  # nested (a second match): the same core
            assert os.sched_getaffinity(0) == core
    assert len(core) == 1
    assert core <= allowed
    assert started == str(sorted(core))
    assert os.sched_getaffinity(0) == allowed
    with containment.one_core(enabled=False):
        assert os.sched_getaffinity(0) == allowed


def test_iter_hands_pins_only_matches_with_entrant_processes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pokerlab.eval.matches as matches

    asked: list[bool] = []
    real = matches.one_core

    def spy(enabled: bool = True):  # type: ignore[no-untyped-def]
        asked.append(enabled)
        return real(enabled)

    monkeypatch.setattr(matches, "one_core", spy)
    list(matches.iter_hands(kuhn(), [RandomAgent(), RandomAgent()], hands=2))
    assert asked == [False, False]  # asked per hand, never pinned


class _AffinitySpy:
    """An agent that records the cores of its thread, and of a thread it starts, per act."""

    def __init__(self) -> None:
        self.seen: list[tuple[set[int], set[int]]] = []

    def act(self, observation):  # type: ignore[no-untyped-def]
        import threading

        box: list[set[int]] = []
        worker = threading.Thread(target=lambda: box.append(os.sched_getaffinity(0)))
        worker.start()
        worker.join()
        self.seen.append((os.sched_getaffinity(0), box[0]))
        return observation.legal_actions[0]


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one CPU: nothing to pin")
def test_a_pinned_match_keeps_in_process_agents_and_the_caller_on_every_core() -> None:
    # A searching agent playing an entrant decided on the dealer's one core, and every
    # thread it started (numba's pool, the solver's) was stuck there for good
    from pokerlab.eval.matches import iter_hands
    from pokerlab.play.executable import ExecutableAgent

    allowed = os.sched_getaffinity(0)

    class Entrant(ExecutableAgent):  # an entrant's process as the dealer sees it
        def __init__(self) -> None:
            self.name = "entrant"
            self.wants_updates = False
            self.cores: list[set[int]] = []

        def reset(self) -> None:
            pass

        def seed(self, value: int) -> None:
            pass

        def observe(self, update: object) -> None:
            pass

        def act(self, observation):  # type: ignore[no-untyped-def]
            self.cores.append(os.sched_getaffinity(0))
            return observation.legal_actions[0]

        def take_faults(self) -> list[tuple[str, str]]:
            return []

        def close(self) -> None:
            pass

    entrant, spy = Entrant(), _AffinitySpy()
    between: list[set[int]] = []
    for _ in iter_hands(kuhn(), [entrant, spy], hands=6, seed=1):
        between.append(os.sched_getaffinity(0))
    assert entrant.cores
    assert all(len(c) == 1 and c <= allowed for c in entrant.cores)
    assert len({frozenset(c) for c in entrant.cores}) == 1  # the same core every hand
    assert spy.seen
    assert all(own == allowed and started == allowed for own, started in spy.seen)
    assert between == [allowed] * 6
    assert os.sched_getaffinity(0) == allowed


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one CPU: nothing to spread")
def test_a_matchs_entrants_get_cores_of_their_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An attack review: with every process of a match on the dealer's core, an entrant
    # whose thread kept spinning between its calls took half of its rival's thinking
    # time (a 0.55 s task timed out; the rival was disqualified)
    monkeypatch.setattr(containment, "_RUNNING", {})  # no process of another test counts
    file = tmp_path / "plain.py"
    file.write_text(PLAIN)
    allowed = sorted(os.sched_getaffinity(0))
    agents = [SandboxedAgent(EntrantSource.read(file), kuhn(), contain=False)
              for _ in range(3)]
    try:
        with containment.one_core():
            (dealer,) = os.sched_getaffinity(0)
            agents[0].start()
            agents[1].start()
            cores = [os.sched_getaffinity(a.pid) for a in agents[:2]]  # type: ignore[arg-type]
            assert cores[0] == {dealer}  # the first shares the dealer's core
            assert len(cores[1]) == 1
            assert cores[1] != cores[0]  # the second has one of its own
            assert cores[1] <= set(allowed)
            agents[0].close()  # a fault ended it: its next process takes the free core
            agents[2].start()
            assert os.sched_getaffinity(agents[2].pid) == {dealer}  # type: ignore[arg-type]
    finally:
        for agent in agents:
            agent.close()
    outside = SandboxedAgent(EntrantSource.read(file), kuhn(), contain=False)
    try:
        outside.start()  # outside a match: the caller's affinity, as before
        assert os.sched_getaffinity(outside.pid) == set(allowed)  # type: ignore[arg-type]
    finally:
        outside.close()


@pytest.mark.skipif(os.geteuid() != 0, reason="raising a priority needs root")
def test_the_dealer_runs_at_a_higher_priority_and_its_entrants_do_not(tmp_path: Path) -> None:
    # A second attack review: an entrant spinning on the dealer's core added 5-20 ms to
    # its rival's measured decisions (a 150 ms bot under a 155 ms limit was disqualified)
    file = tmp_path / "plain.py"
    file.write_text(PLAIN)
    own = os.getpriority(os.PRIO_PROCESS, 0)
    agent = SandboxedAgent(EntrantSource.read(file), kuhn(), contain=False)
    try:
        with containment.one_core():
            assert os.getpriority(os.PRIO_PROCESS, 0) == min(own, containment.DEALER_NICE)
            with containment.one_core():  # a hand inside a match: the same
                assert os.getpriority(os.PRIO_PROCESS, 0) == min(own, containment.DEALER_NICE)
            agent.start()
            assert agent.pid is not None
            assert os.getpriority(os.PRIO_PROCESS, agent.pid) == own
        assert os.getpriority(os.PRIO_PROCESS, 0) == own
    finally:
        agent.close()


# -- cgroups ---------------------------------------------------------------------------------
@pytest.mark.skipif(cgroups.cgroup_support()[1] is not None, reason="no cgroups here")
def test_an_entrants_cgroup_carries_the_limits_of_its_whole_tree() -> None:
    group = cgroups.EntrantCgroup(300 * 1024 * 1024, 20, 0.5)
    try:
        values = {}
        for path in group.paths:
            for name in ("memory.max", "memory.limit_in_bytes", "pids.max", "cpu.max",
                         "cpu.cfs_quota_us", "cpu.cfs_period_us"):
                if (path / name).exists():
                    values[name] = (path / name).read_text().split()
        memory = values.get("memory.max") or values.get("memory.limit_in_bytes")
        assert memory == [str(300 * 1024 * 1024)]
        assert values["pids.max"] == ["20"]
        cpu = values.get("cpu.max") or [values["cpu.cfs_quota_us"][0],
                                        values["cpu.cfs_period_us"][0]]
        assert cpu == ["50000", "100000"]
        pid = os.fork()
        if pid == 0:
            group.join()
            os.kill(os.getpid(), signal.SIGSTOP)
            os._exit(0)
        os.waitpid(pid, os.WUNTRACED)
        assert group.procs() == {pid}
        assert group.count() == 1
    finally:
        group.kill_all()
    assert group.paths == []
    os.waitpid(pid, 0)


def test_cgroup_v2_delegation_writes_the_limits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A made-up v2 hierarchy whose controllers are delegated to this process's cgroup.
    own = tmp_path / "cg" / "user.slice" / "arena"
    for folder in (own, own / "pokerlab"):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "cgroup.controllers").write_text("cpu memory pids io\n")
        (folder / "cgroup.subtree_control").write_text("cpu memory pids\n")
    monkeypatch.setattr(cgroups, "_mounts",
                        lambda: [(str(tmp_path / "cg"), "cgroup2", {"rw"}, "/")])
    monkeypatch.setattr(cgroups, "_own_paths", lambda: {"": "/user.slice/arena"})
    monkeypatch.delenv("POKERLAB_CGROUP", raising=False)
    cgroups.cgroup_support.cache_clear()
    try:
        hierarchies, problem = cgroups.cgroup_support()
        assert problem is None
        assert [(h.version, sorted(h.controllers)) for h in hierarchies] == [
            (2, ["cpu", "memory", "pids"])]
        group = cgroups.EntrantCgroup(512 * 1024 * 1024, 19, 1.5)
        (path,) = group.paths
        assert path.parent == own / "pokerlab"
        assert (path / "memory.max").read_text() == str(512 * 1024 * 1024)
        assert (path / "pids.max").read_text() == "19"
        assert (path / "cpu.max").read_text() == "150000 100000"
    finally:
        cgroups.cgroup_support.cache_clear()


def test_cgroup_v2_without_delegation_names_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    own = tmp_path / "cg" / "session"
    own.mkdir(parents=True)
    (own / "cgroup.controllers").write_text("cpu pids\n")  # no memory controller given
    (own / "cgroup.subtree_control").write_text("")
    monkeypatch.setattr(cgroups, "_mounts",
                        lambda: [(str(tmp_path / "cg"), "cgroup2", {"rw"}, "/")])
    monkeypatch.setattr(cgroups, "_own_paths", lambda: {"": "/session"})
    cgroups.cgroup_support.cache_clear()
    try:
        _, problem = cgroups.cgroup_support()
        assert problem is not None
        assert "memory" in problem
    finally:
        cgroups.cgroup_support.cache_clear()


@pytest.mark.skipif(cgroups.cgroup_support()[1] is not None, reason="no cgroups here")
def test_cgroups_are_found_from_several_threads_at_once() -> None:
    # The arena checks entrants' files from several threads; each lookup probes the
    # folders with a scratch cgroup, which two threads once shared (one then removed
    # the other's and the arena refused isolation for that entrant).
    with ThreadPoolExecutor(max_workers=8) as pool:
        found = list(pool.map(lambda _: cgroups._find_support(), range(32)))
    assert [problem for _, problem in found] == [None] * 32


def _support_in_v1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layout: dict[str, str], root: str,
    own: dict[str, str],
) -> tuple[list[str], str | None]:
    """:func:`cgroups.cgroup_support` on a made-up cgroup v1 machine under ``tmp_path``.

    ``layout``: folders (one mount per controller, named for it) and their
    ``cgroup.procs``; ``root``: what every mount shows at its mount point (mountinfo);
    ``own``: this process's cgroup per controller (``/proc/self/cgroup``). Returns the
    parents found (relative to ``tmp_path``) and the problem.
    """
    for relative, procs in layout.items():
        folder = tmp_path / relative
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "cgroup.procs").write_text(procs)
    monkeypatch.setattr(cgroups, "_mounts", lambda: [
        (str(tmp_path / c), "cgroup", {"rw", c}, root) for c in cgroups.CONTROLLERS])
    monkeypatch.setattr(cgroups, "_own_paths", lambda: own)
    cgroups.cgroup_support.cache_clear()
    try:
        hierarchies, problem = cgroups.cgroup_support()
    finally:
        cgroups.cgroup_support.cache_clear()
    return sorted(str(h.parent.relative_to(tmp_path)) for h in hierarchies), problem


BOX = {c: "/box/7" for c in cgroups.CONTROLLERS}
"""This process's cgroup, /box/7, in every hierarchy."""


def test_cgroup_v1_in_a_container_that_sees_only_its_own_cgroup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # /proc/self/cgroup names /box/7 from the hierarchy's root; the mounts show /box/7 at
    # their mount points (mountinfo's root field): the cgroup is the mount point itself.
    me = os.getpid()
    found = _support_in_v1(tmp_path, monkeypatch, {c: f"{me}\n" for c in cgroups.CONTROLLERS},
                           "/box/7", BOX)
    assert found == (["cpu/pokerlab", "memory/pokerlab", "pids/pokerlab"], None)


def test_cgroup_v1_whose_paths_do_not_line_up_is_found_by_its_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The cpu mount shows the whole hierarchy but not the path /proc/self/cgroup names:
    # the cgroup that lists this process is found instead; the others line up.
    me = os.getpid()
    layout = {"memory/box/7": f"{me}\n", "pids/box/7": f"{me}\n", "cpu": "1\n",
              "cpu/other": "2 3\n", "cpu/system/box": f"4\n{me}\n"}
    assert _support_in_v1(tmp_path, monkeypatch, layout, "/", BOX) == (
        ["cpu/system/box/pokerlab", "memory/box/7/pokerlab", "pids/box/7/pokerlab"], None)


def test_cgroup_v1_whose_own_cgroup_is_not_shown_uses_the_nearest_one_above(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # This process was moved into /box/7/ci, which the cpu mount does not show (made
    # after it, in another view): entrants' cpu cgroups go under /box/7, the nearest.
    me = os.getpid()
    layout = {"memory/box/7": f"{me}\n", "pids/box/7": f"{me}\n", "cpu": "1\n",
              "cpu/box/7": "5\n"}
    assert _support_in_v1(tmp_path, monkeypatch, layout, "/", {**BOX, "cpu": "/box/7/ci"}) == (
        ["cpu/box/7/pokerlab", "memory/box/7/pokerlab", "pids/box/7/pokerlab"], None)


def test_a_cgroup_mount_that_cannot_be_written_names_the_mount(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    me = os.getpid()
    gone = tmp_path / "cpu"  # the mount point itself is not there
    layout = {"memory/box/7": f"{me}\n", "pids/box/7": f"{me}\n"}
    _, problem = _support_in_v1(tmp_path, monkeypatch, layout, "/", BOX)
    assert problem is not None
    assert f"cgroup v1 cpu at {gone}: No such file or directory: {gone}" in problem
