"""`python -m benchmarks`: its options are checked before any benchmark runs."""

from __future__ import annotations

import pytest

from benchmarks.__main__ import main


def test_help_lists_the_topics_and_runs_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "--quick" in out
    assert "acpc" in out
    assert "compile" in out


@pytest.mark.parametrize("argv", [["--bogus"], ["cards", "--quik"], ["-x"]])
def test_an_unknown_option_is_refused_by_name(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "unknown option" in err
    assert argv[-1] in err
    assert "--markdown" in err


def test_an_unknown_topic_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nosuch"]) == 2
    assert "nosuch" in capsys.readouterr().err
