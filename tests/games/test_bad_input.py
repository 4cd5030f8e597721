"""Bad input raises a pokerlab error that names what was wrong and what is allowed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pokerlab.cli import main
from pokerlab.errors import FileFormatError, IllegalActionError, PokerlabError, SpecError
from pokerlab.games import kuhn, leduc, load

REPO = Path(__file__).resolve().parents[2]
PYTHON = REPO / ".venv" / "bin" / "python"


def test_illegal_action_lists_the_legal_ones() -> None:
    state = kuhn().initial_state().child(0).child(1)
    with pytest.raises(
        IllegalActionError, match=r"'7' is not legal here; legal: check \(0\), bet \(1\)"
    ):
        state.child(7)
    facing = state.child(1)
    with pytest.raises(IllegalActionError, match=r"legal: fold \(0\), call \(1\)"):
        facing.child(2)
    leduc_state = leduc().initial_state().child(0).child(2)
    with pytest.raises(
        IllegalActionError, match=r"'fold' is not legal here; legal: check \(1\), bet \(2\)"
    ):
        leduc_state.child(0)
    with pytest.raises(IllegalActionError, match="legal: deal"):
        kuhn().initial_state().child(0).child(0)
    with pytest.raises(IllegalActionError, match="hand is over"):
        state.child(0).child(0).child(0)
    assert isinstance(IllegalActionError("x"), ValueError)


def test_odd_actions_are_illegal_not_crashes() -> None:
    import numpy as np

    from pokerlab.games import rps

    chance = leduc().initial_state()
    for action in (-1, 6, 2.0, 2.5, "2", None):
        with pytest.raises(IllegalActionError, match=r"is not legal here; legal: deal Qa \(0\)"):
            chance.child(action)  # type: ignore[arg-type]
    # A negative id is not named by Python's negative indexing ("-1" is not "deal A").
    with pytest.raises(IllegalActionError, match=r"^'-1' is not legal"):
        kuhn().initial_state().child(-1)
    with pytest.raises(IllegalActionError, match=r"^'Rock' is not legal here; legal: Rock \(0\)"):
        rps().initial_state().child("Rock")  # type: ignore[arg-type]
    assert chance.child(np.int64(2)).history == (2,)  # numpy ints are ints


def test_unknown_game_lists_known_games() -> None:
    with pytest.raises(SpecError, match=r"unknown game 'poker'; known games: .*kuhn.*leduc"):
        load("poker")
    with pytest.raises(SpecError, match="known games"):
        load("poker(cards=3)")


def test_unknown_parameter_lists_parameters() -> None:
    with pytest.raises(SpecError, match=r"kuhn has no parameter deck; its parameters: cards"):
        load("kuhn(deck=3)")
    with pytest.raises(SpecError, match=r"stack \(default None\)"):
        load("leduc", stacks=50)
    with pytest.raises(SpecError, match="parameters: none"):
        load("rps(size=3)")


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("kuhn(cards=2)", r"cards >= players \+ 1 = 3"),
        ("kuhn(cards=3, players=3)", r"cards >= players \+ 1 = 4"),
        ("kuhn(cards=0)", "cards >= players"),
        ("kuhn(players=1)", "players >= 2"),
        ("kuhn(cards='3')", "wrong type; allowed: int"),
        ("kuhn(cards=3.0)", "wrong type"),
        ("kuhn(cards=True)", "wrong type"),
        ("kuhn(cards=None)", "cannot be None"),
        ("leduc(stack=-5)", "stack must be larger than the ante"),
        ("leduc(stack=1)", "stack must be larger than the ante"),
        ("leduc(stack=0)", "stack must be larger than the ante"),
        ("leduc(raise_cap=None)", "needs a finite stack"),
        ("leduc(raise_cap=None, stack=None)", "needs a finite stack"),
        ("leduc(raise_cap=-1)", "raise_cap must be >= 0"),
        ("leduc(players=4)", "players=2 or players=3"),
        ("leduc(ranks=1)", "ranks >= 2"),
        ("leduc(ante=0)", "ante >= 1"),
        ("leduc(bets=(2,))", "bets must be two positive integers"),
        ("leduc(bets=(2, -4))", "bets must be two positive integers"),
        ("leduc(pair_counts=1)", "wrong type"),
        ("leduc(players=3, stack=10)", "players=2 only"),
        ("leduc(stack=)", "cannot read game"),
        ("leduc(1)", "keywords only"),
        ("leduc(stack=50", "cannot read game"),
        ("leduc(stack=x)", "not a literal"),
        ("leduc(stack=1+2)", "not a literal"),
        ("leduc(**{'stack': 3})", "'\\*\\*' is not allowed"),
        ("leduc.x", "cannot read game"),
        ("3", "cannot read game"),
        ("", "cannot read game"),
        ("kuhn(cards={1: 2})", "type dict"),
        ("kuhn(cards=3, cards=4)", "cards is given twice"),
    ],
)
def test_bad_specs(text: str, match: str) -> None:
    with pytest.raises(SpecError, match=match):
        load(text)


def test_errors_are_value_errors() -> None:
    with pytest.raises(ValueError, match="cards"):
        kuhn(cards=2)


def test_malformed_matrix_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(",a,b\nx,1;2,3;4\ny,1;2,zz\n", encoding="utf-8")
    with pytest.raises(FileFormatError, match=r"line 3, column 'b'"):
        load_via_cli_helper(str(path))


def load_via_cli_helper(text: str) -> object:
    from pokerlab.cli._common import load_game

    return load_game(text)


@pytest.mark.parametrize(
    "argv",
    [
        ["games", "info", "kuhn(cards=2)"],
        ["games", "info", "poker"],
        ["games", "info", "leduc(stack=)"],
        ["games", "info", "leduc(raise_cap=None)"],
        ["games", "info", "kuhn(cards=20000)"],
        ["games", "info", "leduc", "--memory-limit-mb", "0.01"],
        ["games", "info", ""],
        ["bots", "prepare", "hard", "--game", " "],
    ],
)
def test_cli_prints_one_line_and_exits_1(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 1
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: ")
    assert "Traceback" not in captured.err + captured.out


def test_cli_malformed_matrix_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"A": [[1, 2], [3]]}', encoding="utf-8")
    assert main(["games", "info", str(path)]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "malformed payoffs" in err


def test_cli_subprocess_one_line_no_traceback() -> None:
    done = subprocess.run(
        [
            str(PYTHON if PYTHON.exists() else sys.executable),
            "-m",
            "pokerlab.cli",
            "games",
            "info",
            "kuhn(cards=2)",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert "cards >= players + 1" in lines[0]


def test_pokerlab_error_base() -> None:
    for error in (SpecError, IllegalActionError, FileFormatError):
        assert issubclass(error, PokerlabError)
