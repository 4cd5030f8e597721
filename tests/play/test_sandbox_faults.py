"""Faults through the sandboxed pipe: garbage answers, deaths by signal, a looping observe.

Each is a recorded fault of the right kind, the default action is played for it (so the
entrant ends with the chips of a bot that always plays the default), and the match goes on.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pokerlab.agents import AlwaysCall
from pokerlab.eval.matches import play_match
from pokerlab.games import kuhn
from pokerlab.play.containment import containment_available
from pokerlab.play.dealer import default_action
from pokerlab.play.sandbox import EntrantSource, SandboxedAgent
from tests.arena.test_hostile import DEFAULT, LIMITS, PLAIN

pytestmark = pytest.mark.slow

HANDS = 4


def _play(
    text: str, name: str, folder: Path, contain: bool | None = None
) -> tuple[list[tuple[float, ...]], object]:
    file = folder / f"{name}.py"
    file.write_text(text)
    agent = SandboxedAgent(EntrantSource.read(file), kuhn(), limits=LIMITS, contain=contain)
    try:
        result = play_match(kuhn(), agent, AlwaysCall(), hands=HANDS, seed=5)
    finally:
        agent.close()
    return [r.agent_returns() for r in result.hands], result


def _answering(expression: str) -> str:
    return DEFAULT + f"class Agent:\n    def act(self, observation):\n        return {expression}\n"


GARBAGE = {
    "true": ("True", "returned True (bool)"),
    "string": ('"1"', "returned str: '1'"),
    "float": ("1.99", "returned float: 1.99"),
    "object": ("object()", "returned object: an object"),
    "none": ("None", "returned NoneType: None"),
    "illegal": ("99", "returned 99, which is not legal"),
}


@pytest.mark.parametrize("garbage", sorted(GARBAGE))
def test_a_garbage_answer_is_an_illegal_fault_and_the_default_is_played(
    garbage: str, tmp_path: Path
) -> None:
    expression, said = GARBAGE[garbage]
    plain, _ = _play(PLAIN, "plain", tmp_path)
    returns, result = _play(_answering(expression), garbage, tmp_path)
    assert returns == plain
    faults = [e for e in result.events if e.agent == 0]  # type: ignore[attr-defined]
    assert faults, "a garbage answer must be recorded"
    assert {e.kind for e in faults} == {"illegal"}
    assert all(said in e.detail for e in faults)
    # one fault per decision of the entrant, each replaced by a legal default action
    decisions = sum(r.decisions[0] for r in result.hands)  # type: ignore[attr-defined]
    assert len(faults) == decisions
    assert all(e.action >= 0 for e in faults)
    assert result.n_hands == 2 * HANDS  # type: ignore[attr-defined]


# How each death is caused. A contained entrant is PID 1 of its PID namespace, where the
# kernel drops the signals it sends itself that it has no handler for (a self-``kill`` is
# then a no-op: see the last case), so the self-kills run uncontained and the contained
# case dies of a real segmentation fault.
DEATHS = {
    "segfault-contained": ("import ctypes\n        ctypes.string_at(0)", "SIGSEGV", None),
    "sigsegv-process": ("os.kill(os.getpid(), signal.SIGSEGV)", "SIGSEGV", False),
    "sigkill-process": ("os.kill(os.getpid(), signal.SIGKILL)", "SIGKILL", False),
}


@pytest.mark.parametrize("death", sorted(DEATHS))
def test_an_entrant_killed_by_a_signal_is_a_crash_and_the_match_goes_on(
    death: str, tmp_path: Path
) -> None:
    code, signal_name, contain = DEATHS[death]
    killer = DEFAULT + (
        "import os, signal\n"
        "class Agent:\n"
        "    def act(self, observation):\n"
        f"        {code}\n"
        "        return default(observation)\n"
    )
    plain, _ = _play(PLAIN, "plain", tmp_path)
    returns, result = _play(killer, death, tmp_path, contain=contain)
    assert returns == plain
    faults = [e for e in result.events if e.agent == 0]  # type: ignore[attr-defined]
    crashes = [e for e in faults if e.kind == "crash"]
    assert crashes
    assert {e.kind for e in faults} <= {"crash", "disqualified"}
    assert any(signal_name in e.detail for e in crashes)
    assert result.n_hands == 2 * HANDS  # type: ignore[attr-defined]


def test_a_contained_self_kill_is_a_no_op_that_gains_nothing(tmp_path: Path) -> None:
    if not containment_available():
        pytest.skip("containment (root and namespaces) is not available on this machine")
    killer = DEFAULT + ("import os, signal\nclass Agent:\n    def act(self, observation):\n"
                        "        os.kill(os.getpid(), signal.SIGKILL)\n"
                        "        return default(observation)\n")
    plain, _ = _play(PLAIN, "plain", tmp_path)
    returns, result = _play(killer, "self-kill", tmp_path, contain=True)
    assert returns == plain
    assert [e for e in result.events if e.agent == 0] == []  # type: ignore[attr-defined]


def test_an_observe_that_loops_is_a_timeout_fault(tmp_path: Path) -> None:
    looper = PLAIN + "    def observe(self, update):\n        while True:\n            pass\n"
    plain, _ = _play(PLAIN, "plain", tmp_path)
    returns, result = _play(looper, "observer", tmp_path)
    assert returns == plain
    faults = [e for e in result.events if e.agent == 0]  # type: ignore[attr-defined]
    timeouts = [e for e in faults if e.kind == "timeout"]
    assert timeouts
    assert "pending:" in timeouts[0].detail
    assert "observe" in timeouts[0].detail
    assert {e.kind for e in faults} <= {"timeout", "disqualified"}
    assert result.n_hands == 2 * HANDS  # type: ignore[attr-defined]


def test_default_action_is_what_the_plain_bot_plays() -> None:
    # the comparison above is only meaningful if the plain bot plays the dealer's default
    state = kuhn().initial_state().child(0).child(1)
    assert state.action_name(default_action(state)) in ("check", "fold")


STRAY = DEFAULT + '''import subprocess, sys
class Agent:
    def act(self, observation):
        child = subprocess.Popen(["sleep", "30"], process_group=0)  # (setsid is refused)
        print("STRAY", child.pid, flush=True)
        return default(observation)
'''

TIDY = DEFAULT + '''import subprocess
class Agent:
    def act(self, observation):
        subprocess.run(["true"], check=True)  # a process that ends within the call is fine
        return default(observation)
'''


@pytest.mark.parametrize("contain", [None, False], ids=["contained", "process"])
def test_a_process_left_behind_is_a_fault_and_is_killed(
    contain: bool | None, tmp_path: Path
) -> None:
    file = tmp_path / "stray.py"
    file.write_text(STRAY)
    agent = SandboxedAgent(EntrantSource.read(file), kuhn(), limits=LIMITS, contain=contain)
    try:
        result = play_match(kuhn(), agent, AlwaysCall(), hands=2, seed=1)
    finally:
        agent.close()
    log = agent.log  # kept when the process ends
    faults = [e for e in result.events if e.agent == 0]
    assert faults
    assert {e.kind for e in faults} == {"stray-process"}
    assert len(faults) == sum(r.decisions[0] for r in result.hands)
    assert agent.strays == len(faults)
    if contain is False:  # the pids printed are this machine's: each is gone
        pids = [int(line.split()[1]) for line in log.splitlines() if line.startswith("STRAY")]
        assert pids
        assert [pid for pid in pids if _alive(pid)] == []


def _alive(pid: int) -> bool:
    """True if the process runs (a zombie, killed and waiting to be reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def test_a_process_that_ends_within_the_call_is_no_fault(tmp_path: Path) -> None:
    plain, _ = _play(PLAIN, "plain", tmp_path)
    returns, result = _play(TIDY, "tidy", tmp_path)
    assert returns == plain
    assert [e for e in result.events if e.agent == 0] == []  # type: ignore[attr-defined]
