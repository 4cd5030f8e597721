"""The top-level group loads command modules lazily, and its table tells the truth.

``pokerlab --help`` and ``pokerlab games list`` must not pay for numba, scipy, matplotlib
or torch; every command module must register exactly the commands COMMAND_MODULES lists,
with the one-line help the listing shows.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import pokerlab.cli as cli

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numba", "scipy", "matplotlib", "torch")

DRIVER = """
import json, sys
from pokerlab.cli import main
code = main(sys.argv[1:])
loaded = sorted({name.split(".")[0] for name in sys.modules})
cli_modules = sorted(name for name in sys.modules if name.startswith("pokerlab.cli."))
sys.stderr.write(json.dumps({"code": code, "loaded": loaded, "cli": cli_modules}) + "\\n")
"""


def _imports_of(argv: list[str]) -> dict[str, object]:
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PYTHONPATH": path}
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, *argv],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )
    report: dict[str, object] = json.loads(done.stderr.strip().splitlines()[-1])
    report["stdout"] = done.stdout
    return report


def _command_modules(report: dict[str, object]) -> list[str]:
    """The command modules (not helpers such as ``_common``) the process imported."""
    loaded = report["cli"]
    assert isinstance(loaded, list)
    names = [str(name).removeprefix("pokerlab.cli.") for name in loaded]
    return [name for name in names if name in cli.COMMAND_MODULES]


@pytest.mark.parametrize(
    ("argv", "modules", "printed"),
    [(["--help"], [], "Commands:"), (["games", "list"], ["games"], "raise_cap"),
     # naming the built-in agents loads none of them (the Hard AI's modules load numba)
     (["play", "kuhn", "--help"], ["play"], "--opponent")],
)
def test_light_commands_import_no_heavy_package(
    argv: list[str], modules: list[str], printed: str
) -> None:
    report = _imports_of(argv)
    assert report["code"] == 0
    loaded = report["loaded"]
    assert isinstance(loaded, list)
    assert [name for name in HEAVY if name in loaded] == []
    assert _command_modules(report) == modules  # only the module of the command that runs
    assert printed in str(report["stdout"])


def test_help_lists_every_command_without_importing_it() -> None:
    report = _imports_of(["--help"])
    for commands in cli.COMMAND_MODULES.values():
        for name, summary in commands.items():
            assert name in str(report["stdout"])
            assert summary.split()[0] in str(report["stdout"])


def test_a_subcommand_help_imports_only_its_module() -> None:
    report = _imports_of(["lp", "--help"])
    assert report["code"] == 0
    assert _command_modules(report) == ["lp"]
    assert "Usage: pokerlab lp" in str(report["stdout"])


@pytest.mark.parametrize("module", sorted(cli.COMMAND_MODULES))
def test_the_table_says_what_each_module_registers(module: str) -> None:
    listed = cli.COMMAND_MODULES[module]
    registered = cli.module_commands(module)
    assert sorted(registered) == sorted(listed), (
        f"pokerlab.cli.{module} registers {sorted(registered)}; "
        f"COMMAND_MODULES lists {sorted(listed)}"
    )
    for name, summary in listed.items():
        help_text = registered[name].help or ""
        assert cli.first_paragraph(help_text) == summary, (
            f"COMMAND_MODULES[{module!r}][{name!r}] should be the first paragraph of the "
            f"command's help: {cli.first_paragraph(help_text)!r}"
        )


def test_a_typo_gets_a_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["gmaes", "list"]) == 2
    err = capsys.readouterr().err
    assert "No such command 'gmaes'" in err
    assert "Did you mean 'games'?" in err


def test_no_arguments_prints_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 2
    captured = capsys.readouterr()
    assert "Commands:" in captured.out + captured.err
