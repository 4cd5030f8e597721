"""Entrants in any language: ACPC programs (shell, C) in the arena, sandboxed, contained."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from pokerlab.agents.registry import make_agent
from pokerlab.agents.resolve import resolve_agent
from pokerlab.arena import ArenaStore, builtin_entrants, run_tournament
from pokerlab.errors import SpecError
from pokerlab.eval.matches import iter_hands
from pokerlab.play.acpc_seat import TimeLimits
from pokerlab.play.containment import containment_available
from pokerlab.play.executable import ExecutableAgent
from pokerlab.play.sandbox import SandboxLimits
from pokerlab.protocols.acpc_dealer import accept_seats, open_seats, run_acpc_match
from pokerlab.protocols.acpc_gamedef import load_acpc_game

CLIENTS = Path(__file__).parent / "clients"
LIMIT = load_acpc_game("holdem.limit.2p.reverse_blinds")
LIMITS = SandboxLimits(decision_seconds=2.0, start_seconds=10.0, memory_megabytes=512,
                       max_faults=2)  # fmt: skip
COMPILER = shutil.which("cc") or shutil.which("gcc")


@pytest.fixture(scope="module")
def c_client(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """The C client compiled here, or None on a machine without a C compiler."""
    if COMPILER is None:
        return None
    out = tmp_path_factory.mktemp("c") / "always_call"
    subprocess.run([COMPILER, "-O2", "-o", str(out), str(CLIENTS / "always_call.c")],
                   check=True, timeout=60)  # fmt: skip
    return out


def _script(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


@pytest.mark.slow
def test_shell_and_c_programs_play_a_tournament_as_the_builtin_they_copy(
    tmp_path: Path, c_client: Path | None
) -> None:
    # Without a C compiler the shell program plays alone (and the C source is refused,
    # below); with one, the compiled C program plays too.
    programs = [CLIENTS / "always_call.sh", *([c_client] if c_client else [])]
    entrants = [
        *(resolve_agent(str(p), LIMIT, limits=LIMITS) for p in programs),
        *builtin_entrants("always-call", game=LIMIT),
    ]
    assert [e.error for e in entrants] == [None] * len(entrants)
    db = tmp_path / "arena.db"
    result = run_tournament(LIMIT, entrants, db=db, hands=15, seed=4)
    assert result.matches == len(entrants) * (len(entrants) - 1) // 2
    with ArenaStore(db) as store:
        assert store.events(run_id=result.run_id) == []
        for match in store.matches(result.run_id):
            records = store.hands(match.id)
            assert len(records) == 30
            # Both seats always call: every hand is the in-process always-call hand.
            agents = [make_agent("always-call", LIMIT), make_agent("always-call", LIMIT)]
            local = list(iter_hands(LIMIT, agents, hands=30, seed=match.seed, leg=15))
            assert [r.history for r in records] == [r.history for r in local]
            assert [r.returns for r in records] == [r.returns for r in local]


def test_the_c_client_connects_to_our_dealer_as_acpc_clients_do(c_client: Path | None) -> None:
    if c_client is None:  # no compiler: the source alone cannot be a client
        with pytest.raises(SpecError, match="not executable"):
            resolve_agent(str(CLIENTS / "always_call.c"), LIMIT)
        return
    servers = open_seats(2, 0)
    clients = [
        subprocess.Popen([str(c_client), "127.0.0.1", str(s.getsockname()[1])]) for s in servers
    ]
    seats = accept_seats(servers, ["c0", "c1"], TimeLimits(per_action=5.0))
    try:
        result = run_acpc_match(LIMIT, seats, hands=50, seed=8)
    finally:
        for seat in seats:
            seat.close()
        for process in clients:
            process.wait(10)
    agents = [make_agent("always-call", LIMIT), make_agent("always-call", LIMIT)]
    local = list(iter_hands(LIMIT, agents, hands=50, seats="rotate", duplicate=False, seed=8))
    assert result.faults == ()
    assert [r.history for r in result.records] == [r.history for r in local]


def test_a_c_source_file_is_not_a_program_and_is_refused_clearly() -> None:
    # The C source is not a program: what `cc` would have built must be given instead.
    with pytest.raises(SpecError, match=r"cannot play.*not executable.*ACPC executable"):
        resolve_agent(str(CLIENTS / "always_call.c"), LIMIT, limits=LIMITS)


HOSTILE = {
    "garbage": "printf 'VERSION:2.0.0\\r\\n'\nwhile :; do printf 'garbage\\r\\n'; done\n",
    "silence": "printf 'VERSION:2.0.0\\r\\n'\nexec sleep 600\n",
    "exits": "printf 'VERSION:2.0.0\\r\\n'\nread -r line\nexit 3\n",
    "illegal": (
        "printf 'VERSION:2.0.0\\r\\n'\n"
        "while IFS= read -r line; do printf '%s:r99999\\r\\n' \"${line%?}\"; done\n"
    ),
    "forks": "printf 'VERSION:2.0.0\\r\\n'\nwhile :; do sleep 600 & done\n",
}


@pytest.mark.slow
@pytest.mark.parametrize("attack", sorted(HOSTILE))
def test_a_hostile_program_is_contained_and_the_tournament_ends(
    tmp_path: Path, attack: str
) -> None:
    program = _script(tmp_path, f"{attack}.sh", HOSTILE[attack])
    entrants = [
        resolve_agent(str(program), LIMIT, limits=LIMITS),
        *builtin_entrants("always-call", game=LIMIT),
    ]
    assert entrants[0].error is None
    db = tmp_path / "arena.db"
    result = run_tournament(LIMIT, entrants, db=db, hands=3, seed=1)
    with ArenaStore(db) as store:
        (match,) = store.matches(result.run_id)
        assert match.finished is not None
        assert store.hands_done(match.id) == 6
        events = store.events(run_id=result.run_id)
        assert events
        hostile = {e.agent for e in events}
        assert hostile == {0}
        kinds = {e.kind for e in events}
        # a fork bomb hits the process cap: the shell cannot fork and dies (or hangs)
        expected = {"garbage": {"protocol"}, "silence": {"timeout"}, "exits": {"crash"},
                    "illegal": {"illegal"}, "forks": {"timeout", "crash"}}[attack]  # fmt: skip
        assert expected & kinds
    # nothing it started is left: no live process of the program runs (a killed one may take
    # a moment to go, and a zombie waiting for its parent's wait holds no resource)
    assert _live_processes(f"{attack}.sh") == []


def _live_processes(pattern: str, *, patience: float = 5.0) -> list[str]:
    """The non-zombie processes whose command line holds ``pattern``, once ``patience`` is up."""
    deadline = time.monotonic() + patience
    while True:
        table = subprocess.run(["ps", "-eo", "pid=,stat=,args="], capture_output=True,
                               text=True).stdout.splitlines()
        live = [row for row in table if pattern in row and not row.split()[1].startswith("Z")
                and "ps -eo" not in row]
        if not live or time.monotonic() > deadline:
            return live
        time.sleep(0.1)


def test_a_program_has_no_network_when_contained(tmp_path: Path) -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    # bash's /dev/tcp reaches a port if the network is there; the result goes to the log.
    program = tmp_path / "reach.sh"
    program.write_text(
        "#!/bin/bash\n"
        f"if (exec 3<>/dev/tcp/127.0.0.1/{port}) 2>/dev/null; then echo reached >&2; "
        "else echo blocked >&2; fi\n"
        "printf 'VERSION:2.0.0\\r\\n'\nsleep 1\n"
    )
    program.chmod(0o755)
    agent = ExecutableAgent("reach", program.read_bytes(), LIMIT, limits=LIMITS)
    try:
        agent.start()
    finally:
        agent.close()
        listener.close()
    if containment_available():
        assert agent.contained
        assert "blocked" in agent.log
    else:  # without namespaces (not root) the program shares the machine's network
        assert not agent.contained
        assert "reached" in agent.log


def test_the_program_is_a_copy_and_the_arenas_files_are_hidden(tmp_path: Path) -> None:
    secret = tmp_path / "arena.db"
    secret.write_text("the arena's records")
    program = _script(
        tmp_path,
        "peek.sh",
        f"cat {secret} >&2 || echo hidden >&2\necho \"$0\" >&2\nprintf 'VERSION:2.0.0\\r\\n'\n",
    )
    agent = ExecutableAgent("peek", program.read_bytes(), LIMIT, limits=LIMITS)
    agent.hidden = (str(secret),)
    try:
        agent.start()
    finally:
        agent.close()
    assert "the arena's records" not in agent.log
    assert str(program) not in agent.log  # it runs from a copy in its own folder
    assert os.path.exists(program)


class _StopError(Exception):
    pass


@pytest.mark.slow
def test_an_interrupted_tournament_with_a_program_resumes_and_finishes(tmp_path: Path) -> None:
    entrants = [
        resolve_agent(str(CLIENTS / "always_call.sh"), LIMIT, limits=LIMITS),
        *builtin_entrants("always-call", game=LIMIT),
    ]
    db = tmp_path / "arena.db"

    def stop(progress) -> None:  # type: ignore[no-untyped-def]
        # Inside the second leg (hands 5..9), where the program sits in the seat that must
        # call or fold first: a replayed hand it cannot answer differs from the record.
        if progress.hands_done >= 7:
            raise _StopError

    with pytest.raises(_StopError):
        run_tournament(LIMIT, entrants, db=db, hands=5, seed=2, batch_size=2, progress=stop)
    result = run_tournament(LIMIT, entrants, db=db, hands=5, seed=2, batch_size=2, resume=True)
    assert result.hands_played == 3
    with ArenaStore(db) as store:
        (match,) = store.matches(result.run_id)
        assert store.hands_done(match.id) == 10
        kinds = [e.kind for e in store.events(run_id=result.run_id)]
        assert kinds == ["replay"]  # the program is not replayed its past hands (documented)


def test_without_namespaces_a_program_still_runs_in_its_own_limited_process() -> None:
    program = (CLIENTS / "always_call.sh").read_bytes()
    agent = ExecutableAgent("plain", program, LIMIT, limits=LIMITS, contain=False)
    try:
        agent.start()
        assert not agent.contained
        assert agent.pid is not None
        assert agent.pid != os.getpid()
        agent.deliver("MATCHSTATE:1:0::|9hQd")
        assert agent._seat is not None
        agent._seat.flush()  # states are queued until the seat must answer
        answer = agent._seat.lines.read_line(time.monotonic() + 10)
        assert answer == "MATCHSTATE:1:0::|9hQd:c"
        pid = agent.pid
    finally:
        agent.close()
    assert not Path(f"/proc/{pid}").exists()  # killed at the end
