"""``--help`` of every command and group reads whole at 80 columns: nothing is cut."""

from __future__ import annotations

import pytest

import pokerlab.cli as cli
from pokerlab.cli import first_paragraph, main, module_commands


def _paths() -> list[tuple[str, ...]]:
    """Every command and group, as the words that name it: ("matrix", "solve"), ..."""
    found: list[tuple[str, ...]] = [()]

    def walk(prefix: tuple[str, ...], command: object) -> None:
        found.append(prefix)
        for name, sub in getattr(command, "commands", {}).items():
            walk((*prefix, name), sub)

    for module, names in cli.COMMAND_MODULES.items():
        commands = module_commands(module)
        for name in names:
            walk((name,), commands[name])
    return found


@pytest.mark.parametrize("path", _paths(), ids=lambda p: " ".join(p) or "pokerlab")
def test_help_is_whole_at_80_columns(
    path: tuple[str, ...], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    assert main([*path, "--help"]) == 0
    text = capsys.readouterr().out
    assert "Usage: pokerlab" in text
    assert "…" not in text
    too_long = [line for line in text.splitlines() if len(line) > 80]
    assert too_long == []
    # A group lists each subcommand with the whole first paragraph of its help (wrapped,
    # perhaps at a hyphen, so compare without white space).
    flat = _squeeze(text)
    if not path:
        listed = {n: s for names in cli.COMMAND_MODULES.values() for n, s in names.items()}
    else:
        module = next(m for m, names in cli.COMMAND_MODULES.items() if path[0] in names)
        command = module_commands(module)[path[0]]
        for word in path[1:]:
            command = command.commands[word]  # type: ignore[attr-defined]
        subcommands = getattr(command, "commands", {})
        listed = {name: first_paragraph(sub.help or "") for name, sub in subcommands.items()}
    for name, summary in listed.items():
        assert _squeeze(f"{name} {summary}") in flat


def _squeeze(text: str) -> str:
    return "".join(text.split())


def test_pokerlab_version_prints_the_version(capsys: pytest.CaptureFixture[str]) -> None:
    from pokerlab._version import __version__

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"pokerlab {__version__}"
    assert main(["--help"]) == 0
    assert "--version" in capsys.readouterr().out
