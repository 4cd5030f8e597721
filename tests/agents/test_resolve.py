"""The one resolver from text to agent: every kind it names, every refusal, and the sandbox.

An entrant file given to `pokerlab match` or `pokerlab play` runs sandboxed, as in the
arena: a file that writes to the host at import gets nothing written (unless the explicit,
documented-unsafe `--unsafe-in-process` is given).
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from pokerlab.agents import PolicyAgent
from pokerlab.agents.resolve import (
    build_agent,
    resolve_agent,
    resolve_agents,
    resolve_policy,
)
from pokerlab.blueprint.cards import cards_from_spec
from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.blueprint.nolimit import rules_for
from pokerlab.blueprint.store import save_blueprint
from pokerlab.cli import main
from pokerlab.errors import FileFormatError, SpecError, StrategyMismatchError
from pokerlab.games import kuhn, leduc, load
from pokerlab.play.containment import containment_available
from pokerlab.play.executable import ExecutableAgent
from pokerlab.play.sandbox import SandboxedAgent
from pokerlab.solvers import CFRPlus
from pokerlab.strategy import Strategy

ROOT = Path(__file__).resolve().parents[2]
SMALL_HOLDEM = 'holdem(stack=12, ranks=3, suits=2, hole=1, board="1")'
LIMIT = load('holdem(betting="limit")')

GOOD_BOT = """
class Agent:
    def act(self, observation):
        return observation.legal_actions[0]
"""


def test_a_builtin_name_builds_that_agent_and_a_group_names_several() -> None:
    (entrant,) = resolve_agents("always-call", leduc())
    assert (entrant.kind, entrant.source, entrant.sandboxed) == ("builtin", "builtin:always-call",
                                                                  False)
    assert type(entrant.build(leduc())).__name__ == "AlwaysCall"
    group = resolve_agents("solvers", kuhn())
    assert [e.name for e in group] == ["cfr+1", "cfr+10", "cfr+100", "cfr+1000", "cfr+10000"]
    with pytest.raises(SpecError, match="stands for 5 agents"):
        resolve_agent("solvers", kuhn())


def test_a_strategy_file_plays_as_a_policy_agent(tmp_path: Path) -> None:
    strategy = CFRPlus(kuhn()).run(iterations=50).average_strategy()
    strategy.save(tmp_path / "kuhn.npz")
    entrant = resolve_agent(str(tmp_path / "kuhn.npz"), kuhn(), seed=3)
    assert entrant.kind == "strategy"
    agent = entrant.build(kuhn())
    assert isinstance(agent, PolicyAgent)
    assert isinstance(agent.policy, Strategy)
    assert isinstance(resolve_policy(str(tmp_path / "kuhn.npz"), kuhn()), Strategy)
    with pytest.raises(StrategyMismatchError):
        resolve_agent(str(tmp_path / "kuhn.npz"), leduc())


def test_a_blueprint_file_plays_as_its_policy(tmp_path: Path) -> None:
    game = load(SMALL_HOLDEM)
    trainer = BlueprintTrainer(game, cards_from_spec(game, {"kind": "lossless"}),
                               rules_for(game, "50%,100%,a"), seed=0)
    trainer.run(200)
    path = tmp_path / "small.bp"
    save_blueprint(trainer, path, cards={"kind": "lossless"}, bet_menu="50%,100%,a")
    entrant = resolve_agent(str(path), game)
    assert (entrant.kind, entrant.name) == ("blueprint", "small")
    agent = entrant.build(game)
    assert isinstance(agent, PolicyAgent)
    assert type(resolve_policy(str(path), game)).__name__ == "BlueprintPolicy"


def test_an_entrant_file_is_sandboxed_unless_asked_in_process(tmp_path: Path) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text(GOOD_BOT)
    entrant = resolve_agent(str(bot), leduc())
    assert (entrant.kind, entrant.sandboxed) == ("entrant", True)
    agent = entrant.build(leduc())
    try:
        assert isinstance(agent, SandboxedAgent)
    finally:
        agent.close()
    unsafe = resolve_agent(str(bot), leduc(), in_process=True)
    assert not unsafe.sandboxed
    assert type(unsafe.build(leduc())).__name__ == "Agent"


def test_an_entrant_that_does_not_load_is_an_entrant_with_its_reason(tmp_path: Path) -> None:
    bot = tmp_path / "broken.py"
    bot.write_text("raise RuntimeError('no')\n")
    entrant = resolve_agent(str(bot), leduc())
    assert entrant.factory is None
    assert "RuntimeError" in str(entrant.error)
    with pytest.raises(SpecError, match="RuntimeError"):
        build_agent(str(bot), leduc())


def test_an_executable_is_an_acpc_program_for_holdem_only() -> None:
    script = ROOT / "tests" / "protocols" / "clients" / "always_call.sh"
    entrant = resolve_agent(str(script), LIMIT)
    assert (entrant.kind, entrant.sandboxed) == ("executable", True)
    agent = entrant.build(LIMIT)
    try:
        assert isinstance(agent, ExecutableAgent)
    finally:
        agent.close()  # type: ignore[attr-defined]
    with pytest.raises(SpecError, match="Hold'em games only"):
        resolve_agent(str(script), leduc())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nobody", "unknown built-in agent 'nobody'.*or give a file"),
        ("missing.npz", "the file does not exist"),
        ("folder", "is a folder"),
        ("notes.txt", "cannot play.*allowed: a built-in agent name"),
        ("damaged.npz", None),
    ],
)
def test_texts_that_name_nothing_playable_are_refused_with_what_is_allowed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, message: str | None
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    (tmp_path / "notes.txt").write_text("hello")
    (tmp_path / "damaged.npz").write_bytes(b"not a zip")
    if message is None:
        with pytest.raises(FileFormatError):
            resolve_agent(text, kuhn())
        return
    with pytest.raises(SpecError, match=message):
        resolve_agent(text, kuhn())


def test_a_builtin_that_cannot_play_the_game_is_refused() -> None:
    with pytest.raises(SpecError, match="cannot play"):
        resolve_agent("easy", leduc())


def test_resolve_policy_refuses_entrants_and_agents_without_a_policy(tmp_path: Path) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text(GOOD_BOT)
    with pytest.raises(SpecError, match="no policy"):
        resolve_policy(str(bot), leduc())
    with pytest.raises(SpecError, match="does not expose its policy"):
        resolve_policy("exploitative", kuhn())


def _hostile(tmp_path: Path) -> tuple[Path, Path]:
    marker = tmp_path / "outside" / "written-by-the-entrant"
    marker.parent.mkdir()
    bot = tmp_path / "hostile.py"
    bot.write_text(
        f"from pathlib import Path\n"
        f"try:\n"
        f"    Path({str(marker)!r}).write_text('I ran in your process')\n"
        f"except OSError:\n"
        f"    pass\n" + GOOD_BOT
    )
    return bot, marker


@pytest.mark.skipif(not containment_available(), reason="needs the sandbox's namespaces")
def test_pokerlab_match_runs_an_entrant_file_sandboxed(tmp_path: Path) -> None:
    bot, marker = _hostile(tmp_path)
    assert main(["match", "kuhn", str(bot), "always-call", "--hands", "3", "--json"]) == 0
    assert not marker.exists()  # the entrant could not write to the host
    assert main(["match", "kuhn", str(bot), "always-call", "--hands", "3", "--json",
                 "--unsafe-in-process"]) == 0
    assert marker.read_text() == "I ran in your process"  # what the flag's help warns of


@pytest.mark.skipif(not containment_available(), reason="needs the sandbox's namespaces")
def test_pokerlab_play_runs_an_entrant_opponent_sandboxed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bot, marker = _hostile(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("c\n" * 10))
    assert main(["play", "kuhn", "--opponent", str(bot), "--hands", "2", "--seed", "0"]) == 0
    assert "After 2 hands you are" in capsys.readouterr().out
    assert not marker.exists()
