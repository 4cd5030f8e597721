"""Every ``pokerlab`` command README.md shows parses, and the quick ones run (issue 26).

As tests/tutorial/test_doc_commands.py does for the tutorial: each command of the
README's ``bash`` blocks is resolved by the real click commands (every option and argument
checked); the commands that finish in seconds also run, from a scratch folder, and print
what the README promises. Long ones (training for 30 minutes, a server) only parse.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from pokerlab.cli import main
from tests.tutorial.test_doc_commands import _parse

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _commands() -> list[str]:
    """The README's ``pokerlab`` lines (continuations joined, comments dropped)."""
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", README, flags=re.S):
        joined = re.sub(r"\\\n\s*", " ", block)
        for line in joined.splitlines():
            line = line.split("  #")[0].split(" # ")[0].strip()
            if line.startswith("pokerlab "):
                commands.append(line)
    return commands


COMMANDS = _commands()


def test_the_readme_shows_the_commands_of_every_part() -> None:
    assert len(COMMANDS) >= 25
    for family in ("solve", "exploit", "show", "spot solve", "blueprint train", "match", "lbr",
                   "acpc dealer", "arena run", "play holdem"):
        assert any(c.startswith(f"pokerlab {family}") for c in COMMANDS), family


@pytest.mark.parametrize("command", COMMANDS)
def test_each_readme_command_parses(command: str) -> None:
    argv = shlex.split(command)[1:]
    parsed = _parse(argv)
    assert parsed is not None


# The quick commands, run as written, in order (later ones read what earlier ones wrote),
# and a piece of what each prints.
QUICK = (
    ("pokerlab games list", "leduc"),
    ("pokerlab games info 'leduc(stack=50, raise_cap=None)'", "infosets"),
    ("pokerlab matrix solve dominance", "Action 1"),
    ("pokerlab matrix solve battle_of_sexes", "1.2"),
    ("pokerlab matrix regret-matching rps --opponent 0.4,0.3,0.3", "Paper"),
    ("pokerlab solve kuhn --algorithm lp --out kuhn.npz", "-0.0555555556"),
    ("pokerlab solve leduc --algorithm cfr+ --target 1e-3 --out leduc.npz", "saved to"),
    ("pokerlab exploit leduc.npz", "exploitability: 0.000"),
    ("pokerlab show kuhn.npz", "Strategy"),
    ("pokerlab lp kuhn --show-matrices", "E"),
    ("pokerlab equity AsKs QdQh --board 2c7dTh", "%"),
    ("pokerlab solve 'holdem(betting=\"limit\")' --algorithm es-mccfr --seconds 60 --out hu.npz",
     "saved to hu.npz"),
    ("pokerlab abstract leduc --cards uniform:2 --iterations 500", "exploitability"),
    ("pokerlab arena check-agent examples/entrants/strength.py --game leduc", "strength"),
)

SECONDS = 2
"""A README budget of ``--seconds N`` runs for this long here (the command as written)."""


def _shortened(argv: list[str]) -> list[str]:
    if "--seconds" in argv:
        argv = list(argv)
        argv[argv.index("--seconds") + 1] = str(SECONDS)
    return argv


@pytest.mark.slow
def test_the_quick_commands_run_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "examples").symlink_to(ROOT / "examples")  # the README runs from the clone
    for command, promised in QUICK:
        assert command in COMMANDS, command
        assert main(_shortened(shlex.split(command)[1:])) == 0, command
        out = capsys.readouterr().out
        assert promised in out, (command, out[-2000:])
