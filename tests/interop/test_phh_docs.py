"""docs/interop.md's commands run as written, in order, and print what the page shows.

The page's ``pokerlab`` lines run in a fresh folder (the ACPC log they export is written
first, as the ACPC dealer writes it); its Python block runs after them; the hand it shows
is the first one the export wrote, the import table the one ``hands import`` prints, and
its error line the one a bad file gets.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from pokerlab.agents.registry import make_agent
from pokerlab.cli import main
from pokerlab.eval.matches import iter_hands
from pokerlab.play.acpc_seat import AcpcTable
from pokerlab.protocols.acpc_gamedef import load_acpc_game
from pokerlab.web.app import create_app

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "interop.md").read_text(encoding="utf-8")
COMMANDS = [line for block in re.findall(r"```bash\n(.*?)```", DOC, flags=re.S)
            for line in block.splitlines() if line.startswith("pokerlab ")]
TEXTS = re.findall(r"```text\n(.*?)```", DOC, flags=re.S)
PYTHON = re.findall(r"```python\n(.*?)```", DOC, flags=re.S)
HAND = re.findall(r"```toml\n(.*?)```", DOC, flags=re.S)


def _acpc_log(path: Path) -> None:
    game = load_acpc_game("holdem.limit.2p.reverse_blinds")
    lines: list[str] = []
    agents = [make_agent("random", game, seed=1), make_agent("always-call", game, seed=2)]
    table = AcpcTable([None, None], lines.append)
    for _ in iter_hands(game, agents, hands=10, seats="rotate", duplicate=False, seed=3,
                        listeners=[table]):
        pass
    path.write_text("\n".join(lines) + "\n")


def test_the_page_shows_the_commands_of_every_source() -> None:
    joined = "\n".join(COMMANDS)
    for words in ("hands export --db", "--hands-out", "hands export --acpc-log",
                  "hands import", "hands aivat"):
        assert words in joined
    assert len(PYTHON) == 1
    assert len(HAND) == 1
    assert len(TEXTS) == 3


def test_the_web_download_the_page_names_is_served() -> None:
    path = re.search(r"`(/api/tables/TOKEN/hands\.phhs)`", DOC)
    assert path is not None
    routes = {getattr(r, "path", None) for r in create_app().routes}
    assert path.group(1).replace("TOKEN", "{token}") in routes


@pytest.mark.slow
def test_the_page_s_commands_run_and_print_what_it_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "160")
    _acpc_log(tmp_path / "match.log")
    outputs = {}
    for command in COMMANDS:
        status = main(shlex.split(command)[1:])
        out, err = capsys.readouterr()
        assert status == 0, f"{command}\n{err}"
        outputs[command] = out
    # The hand shown is the first the export wrote.
    written = (tmp_path / "hands" / "arena-run1-match0.phhs").read_text()
    assert written.startswith(HAND[0])
    # The import table is the one shown (the arena's hands are seeded, so they repeat).
    (imported,) = [out for command, out in outputs.items() if "hands import" in command]
    assert [line.split() for line in imported.splitlines() if "│" in line] == [
        line.split() for line in TEXTS[1].splitlines() if "│" in line]
    (aivat,) = [out for command, out in outputs.items() if "hands aivat" in command]
    assert [line.split() for line in aivat.splitlines() if "│" in line] == [
        line.split() for line in TEXTS[2].splitlines() if "│" in line]
    assert sorted(p.name for p in (tmp_path / "acpc").iterdir()) == ["match.phhs"]
    # The page's error line is what a bad file gets.
    bad = (tmp_path / "bad.phh")
    bad.write_text('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n'
                   'starting_stacks = [100, 100]\nactions = ["d dh p1 AsKs", "d dh p2 AhKh", '
                   '"p2 cbr 300"]\n')
    assert main(["hands", "import", "bad.phh"]) == 1
    assert capsys.readouterr().err.strip() == TEXTS[0].strip()
    # The Python block runs there too (pokerlab's reader and pokerkit's).
    done = subprocess.run([sys.executable, "-c", PYTHON[0]], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    first, payoffs = done.stdout.splitlines()
    assert first.startswith("holdem(players=3, stack=(40, 100, 200)) (42.0, -40.0, -2.0)")
    assert payoffs == "[42, -40, -2]"
