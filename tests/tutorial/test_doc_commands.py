"""Every command docs/tutorial.md shows runs (``python -c``) or parses (``pokerlab ...``).

The ``pokerlab`` lines are parsed by the real click commands (every option and argument
checked, nothing run); the quick ones are also run. The ``python -c`` lines run in a
fresh interpreter and print what the doc's table says they print.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer import _click as click
from typer.core import TyperGroup

from pokerlab.cli import build_command, main

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")

# Placeholders of the doc's prose, and what stands for them when parsed.
PLACEHOLDERS = {"GAME": "kuhn", "FILE.npz": "kuhn.npz", "A": "random", "B": "always-call"}


def _pokerlab_commands() -> list[str]:
    inline = re.findall(r"`(pokerlab [^`]*)`", DOC)
    blocks = re.findall(r"^(pokerlab .*)$", DOC, flags=re.MULTILINE)
    commands = {line.split("  #")[0].strip() for line in inline + blocks}
    return sorted(commands)


def _python_lines() -> list[str]:
    return re.findall(r'`python -c "([^"`]*)"`', DOC)


def _argv(command: str) -> list[str]:
    words = shlex.split(command)[1:]
    if "..." in words:  # "pokerlab arena run ...": only the command path is the doc's
        return [*words[: words.index("...")], "--help"]
    return [PLACEHOLDERS.get(w, w.split("|")[0]) for w in words]


def _parse(argv: list[str]) -> click.Command:
    """Resolve ``argv`` to its command and parse every argument and option; run nothing."""
    command: click.Command = build_command()
    ctx = command.make_context("pokerlab", list(argv), resilient_parsing=False)
    while isinstance(command, TyperGroup):
        rest = [*ctx._protected_args, *ctx.args]
        if not rest:
            break
        _, sub, rest = command.resolve_command(ctx, rest)
        assert sub is not None
        command = sub
        ctx = command.make_context(command.name, rest, parent=ctx)
    return command


COMMANDS = _pokerlab_commands()


def test_the_doc_shows_commands_of_every_section() -> None:
    assert len(COMMANDS) > 40
    assert len(_python_lines()) == 4


@pytest.mark.parametrize("command", COMMANDS)
def test_each_pokerlab_command_of_the_doc_parses(command: str) -> None:
    argv = _argv(command)
    if argv[-1] == "--help":
        assert main(argv) == 0
        return
    try:
        parsed = _parse(argv)
    except click.exceptions.NoArgsIsHelpError:  # a group named alone ("pokerlab play"): a family
        assert main([*argv, "--help"]) == 0
        return
    except click.exceptions.UsageError as exc:  # pragma: no cover - the failure message
        pytest.fail(f"{command!r} does not parse: {exc.format_message()}")
    assert parsed.callback is not None or isinstance(parsed, TyperGroup)


# Quick enough (< 2 s) to run, not only parse.
QUICK = (
    "pokerlab games list",
    "pokerlab games info kuhn",
    "pokerlab matrix solve rps",
    "pokerlab matrix solve dominance",
    "pokerlab matrix regret-matching rps --opponent 0.4,0.3,0.3",
    "pokerlab study kuhn-deals --y 0.5",
)


@pytest.mark.parametrize("command", QUICK)
def test_the_quick_commands_run(command: str) -> None:
    assert command in COMMANDS
    assert main(_argv(command)) == 0


# What the doc's table says each python -c line shows (in its order).
EXPECTED: tuple[Callable[[str], bool], ...] = (
    lambda out: "0.25" in out,  # always Paper wins 0.25 a game
    lambda out: abs(float(out)) < 1e-9,  # the analytical equilibrium is unexploitable
    lambda out: abs(float(out) + 1 / 18) < 1e-9,  # the 64 x 64 normal form's value
    lambda out: abs(float(out) - 11 / 12) < 1e-9,  # the uniform strategy's NashConv
)


def test_each_python_line_of_the_doc_runs_and_prints_its_figure() -> None:
    # One interpreter runs the lines one after another, each in a fresh namespace.
    lines = _python_lines()
    driver = (
        "import sys\n"
        "for code in sys.argv[1:]:\n"
        "    exec(compile(code, '<doc>', 'exec'), {})\n"
        "    print('\\x00', flush=True)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", driver, *lines], capture_output=True, text=True, env=env,
        timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    outputs = [chunk.strip() for chunk in done.stdout.split("\x00")[:-1]]
    assert len(outputs) == len(lines)
    for line, out, check in zip(lines, outputs, EXPECTED, strict=True):
        assert check(out), f"{line!r} printed {out!r}"
