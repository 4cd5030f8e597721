"""Names, paths and errors are printed as they are: never read as rich markup or emoji codes.

An attack review found that ``--exec "[/]=bot"`` made rich raise ``MarkupError`` out of
``arena run`` (after the first batch was stored) and out of ``arena leaderboard``, and
that an entrant file ``[bold]alice.py`` was shown as ``alice`` (``:smile: z.py`` as an
emoji): one entrant could pass for another on the leaderboard.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]
CALLER = ("class Agent:\n    def act(self, observation):\n"
          "        return observation.legal_actions[0]\n")


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PYTHONPATH": path, "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "pokerlab.cli", *argv], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=300, check=False)


def test_a_closing_tag_in_an_executables_name_stops_nothing(tmp_path: Path) -> None:
    program = tmp_path / "bot.sh"
    program.write_text((ROOT / "tests" / "protocols" / "clients" / "always_call.sh").read_text())
    program.chmod(0o755)
    db = tmp_path / "run.db"
    done = _run(["arena", "run", "holdem(betting='limit')", "--exec", f"[/]={program}",
                 "--exec", f"[red]x[/blue]={program}", "--builtins", "always-call",
                 "--hands", "3", "--db", str(db), "--trust-entrants", "--seed", "1"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "MarkupError" not in done.stderr
    assert "[/]" in done.stdout
    assert "[red]x[/blue]" in done.stdout
    board = _run(["arena", "leaderboard", "--db", str(db)], tmp_path)
    assert board.returncode == 0, board.stderr
    assert "[/]" in board.stdout
    assert "[red]x[/blue]" in board.stdout


def test_file_names_show_as_they_are(tmp_path: Path) -> None:
    agents = tmp_path / "agents"
    agents.mkdir()
    for name in ("[bold]alice.py", ":smile: z.py", "[link=https:evil]x.py"):
        (agents / name).write_text(CALLER)
    done = _run(["arena", "run", "kuhn", "--agents", str(agents), "--builtins", "random",
                 "--hands", "4", "--db", str(tmp_path / "run.db"), "--trust-entrants",
                 "--seed", "1"], tmp_path)
    assert done.returncode == 0, done.stderr
    for shown in ("[bold]alice", ":smile: z", "[link=https:evil]x"):
        assert shown in done.stdout
    assert "\N{SMILING FACE WITH OPEN MOUTH AND SMILING EYES}" not in done.stdout


def test_an_exec_name_follows_the_rule_of_file_names(tmp_path: Path) -> None:
    # A second attack review: --exec NAME=PATH took any name (a raw ESC printed in the
    # progress lines and tables, a leading space, a built-in's name)
    program = tmp_path / "bot.sh"
    program.write_text((ROOT / "tests" / "protocols" / "clients" / "always_call.sh").read_text())
    program.chmod(0o755)
    for name in ("bad\x1b[31m", " sp", "r\u0430ndom"):
        done = _run(["arena", "run", "holdem(betting='limit')", "--exec", f"{name}={program}",
                     "--builtins", "always-call", "--hands", "2", "--db",
                     str(tmp_path / "run.db"), "--trust-entrants"], tmp_path)
        assert done.returncode != 0
        assert "\x1b" not in done.stdout + done.stderr
        assert "allowed: printable ASCII" in done.stderr


def test_check_agent_shows_escapes_in_its_path_and_output_escaped(tmp_path: Path) -> None:
    folder = tmp_path / "esc\x1b[31mx"
    folder.mkdir()
    bot = folder / "bot.py"
    bot.write_text("import sys\nprint('\\x1b[2J\\u202e')\n" + CALLER)
    done = _run(["arena", "check-agent", str(bot), "--game", "kuhn", "--hands", "4",
                 "--trust-entrants"], tmp_path)
    assert "\x1b" not in done.stdout
    assert "\u202e" not in done.stdout
    assert "\\x1b[2J" in done.stdout  # what it printed, escaped
