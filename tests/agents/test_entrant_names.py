"""An agent's name is printable text: a file name with terminal escapes is refused.

An entrant's name comes from its file name (or a name given on the command line) and
reaches terminals, the arena's store and logs. The red-team file name below writes the
clipboard (OSC 52), clears the screen and turns the text red wherever it is printed raw.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pokerlab.agents.resolve import resolve_agent
from pokerlab.arena.tournament import file_entrants
from pokerlab.cli import main
from pokerlab.errors import SpecError
from pokerlab.games import kuhn, load
from pokerlab.play.names import check_name, printable
from pokerlab.play.sandbox import EntrantSource
from pokerlab.protocols.acpc_dealer import check_seat_names

EVIL = "x\033]52;c;cHduZWQ=\033\\\033[2J\033[31mevil"
BOT = """
class Agent:
    def act(self, observation):
        return observation.legal_actions[0]
"""


def _plain(text: str) -> bool:
    return text.isprintable()


def test_printable_escapes_what_a_terminal_would_obey() -> None:
    assert printable("bot_1 v2") == "bot_1 v2"
    shown = printable(EVIL + "\u202e\x9b")
    assert _plain(shown)
    assert shown.startswith("x\\x1b]52;c;cHduZWQ=\\x1b\\")
    assert shown.endswith("evil\\u202e\\x9b")


@pytest.mark.parametrize("name", [EVIL, "a\nb", "tab\there", "bidi\u202egnp", "csi\x9b2J", ""])
def test_check_name_refuses_what_is_not_printable_text(name: str) -> None:
    with pytest.raises(SpecError, match="allowed: printable ASCII") as caught:
        check_name(name, f"agent file {name!r}")
    assert _plain(str(caught.value))


def test_check_name_keeps_printable_names_and_refuses_forbidden_separators() -> None:
    assert check_name("Elodie's bot-2 (v3)", "x") == "Elodie's bot-2 (v3)"
    # A second attack review: a Cyrillic "а" made "rаndom" pass for the built-in random,
    # and U+3164 and U+2800 are printable yet show as nothing: names are ASCII
    for name in ("r\u0430ndom", "\u3164", "\u2800", "random\u3164", "\u00c9lodie"):
        with pytest.raises(SpecError, match="printable ASCII"):
            check_name(name, "x")
    assert check_name("/home/\u00e9lodie/bots", "its folder", ascii_only=False)
    with pytest.raises(SpecError, match=r"holds '\|'.*without \| :"):
        check_name("a|b", "seat 1's name", forbidden="|:")
    check_seat_names(["alice", "bob"])
    for bad in (["alice", "b:ob"], ["alice", "x\x1b[2J"]):
        with pytest.raises(SpecError, match="seat 2's name"):
            check_seat_names(bad)


@pytest.mark.parametrize("suffix", [".py", ".npz", ""])
def test_an_agent_file_with_escapes_in_its_name_is_refused(tmp_path: Path, suffix: str) -> None:
    file = tmp_path / f"{EVIL}{suffix}"
    file.write_text(BOT if suffix != "" else "#!/bin/sh\nexit 0\n")
    if suffix == "":
        os.chmod(file, 0o755)
    with pytest.raises(SpecError) as caught:
        resolve_agent(str(file), load('holdem(betting="limit")') if suffix == "" else kuhn())
    message = str(caught.value)
    assert _plain(message)  # one line, no escape reaches the terminal
    assert "\\x1b]52" in message  # the file is named (escaped)
    assert "allowed: printable ASCII" in message


def test_a_folder_name_with_escapes_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "d\x1b[2J"
    folder.mkdir()
    (folder / "bot.py").write_text(BOT)
    with pytest.raises(SpecError, match="its folder") as caught:
        resolve_agent(str(folder / "bot.py"), kuhn())
    assert _plain(str(caught.value))


def test_entrant_source_refuses_such_a_name(tmp_path: Path) -> None:
    file = tmp_path / f"{EVIL}.py"
    file.write_text(BOT)
    with pytest.raises(SpecError, match="allowed: printable ASCII"):
        EntrantSource.read(file)


def test_a_folder_of_entrants_skips_the_file_under_its_escaped_name(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text(BOT)
    (tmp_path / f"{EVIL}.py").write_text(BOT)
    entrants = file_entrants(tmp_path, kuhn())
    assert len(entrants) == 2
    refused = [e for e in entrants if e.error is not None]
    assert len(refused) == 1
    (bad,) = refused
    assert bad.factory is None
    assert all(_plain(text) for text in (bad.name, bad.source, bad.error or ""))
    assert "allowed: printable ASCII" in str(bad.error)
    (good,) = [e for e in entrants if e.error is None]
    assert good.name == "ok"


def test_pokerlab_match_refuses_it_in_one_printable_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / f"{EVIL}.py"
    file.write_text(BOT)
    code = main(["match", "kuhn", str(file), "always-call", "--hands", "4"])
    assert code != 0
    captured = capsys.readouterr()
    assert "\x1b" not in captured.out + captured.err
    assert "allowed: printable ASCII" in captured.err


def test_the_acpc_client_and_the_cli_options_show_the_text_escaped(tmp_path: Path) -> None:
    from pokerlab.cli._common import build_agent
    from pokerlab.errors import PokerlabError
    from pokerlab.protocols.acpc_client import client_agent

    file = tmp_path / f"{EVIL}.py"
    file.write_text(BOT)
    with pytest.raises(PokerlabError, match="allowed: printable ASCII") as caught:
        client_agent(str(file), kuhn())
    assert _plain(str(caught.value))
    assert str(caught.value).startswith("--agent ")
    with pytest.raises(SpecError, match="allowed: printable ASCII") as refused:
        build_agent(str(file), kuhn(), option="--opponent")
    assert _plain(str(refused.value))
    assert str(refused.value).startswith("--opponent ")


@pytest.mark.parametrize("name", [" ", "  ", " bot", "bot "])
def test_a_blank_name_or_one_with_spaces_around_it_is_refused(name: str) -> None:
    # An attack review: " .py" played under a blank name
    with pytest.raises(SpecError, match=r"blank|starts or ends with a space"):
        check_name(name, "entrant")


def test_a_file_named_as_a_builtin_never_takes_the_builtins_name() -> None:
    # An attack review: random.py played as "random" and the built-in became "random#2"
    from pokerlab.agents.resolve import Entrant
    from pokerlab.arena.tournament import _unique

    def entrant(name: str, kind: str) -> Entrant:
        return Entrant(name, name, None, None, kind=kind)

    named = _unique([entrant("random", "entrant"), entrant("random#2", "entrant"),
                     entrant("random", "builtin"), entrant("caller", "entrant")])
    assert [e.name for e in named] == ["random#2", "random#2#2", "random", "caller"]
    assert [e.kind for e in named] == ["entrant", "entrant", "builtin", "entrant"]


def test_a_link_out_of_the_agents_folder_is_left_out_unread(tmp_path: Path) -> None:
    # An attack review: shadow.py -> /etc/shadow was read by the arena (root) and sent
    # into a sandbox as an entrant's source
    secret = tmp_path / "secret.txt"
    secret.write_text("not for the arena\n")
    folder = tmp_path / "agents"
    folder.mkdir()
    (folder / "shadow.py").symlink_to(secret)
    (folder / "real.py").write_text(BOT)
    (folder / "alias.py").symlink_to(folder / "real.py")  # a link inside the folder is fine
    found = {e.name: e for e in file_entrants(folder, kuhn())}
    assert found["shadow"].error is not None
    assert "link to a file outside" in found["shadow"].error
    assert found["alias"].error is None or "outside" not in found["alias"].error
