"""``match``, ``lbr`` and ``blueprint train`` print no blank line before their output
(issue 26 item 6): off a terminal no live display is drawn, so none is left behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from pokerlab.cli import main


@pytest.mark.parametrize("argv", [
    ["match", "kuhn", "random", "always-call", "--hands", "10"],
    ["lbr", "random", "--hands", "4"],
    ["blueprint", "train", "leduc", "--iterations", "200", "--out", "OUT"],
], ids=["match", "lbr", "blueprint"])
def test_no_blank_line_before_the_output(argv: list[str], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    argv = [str(tmp_path / "x.bp") if word == "OUT" else word for word in argv]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert captured.out.strip()
    for stream in (captured.out, captured.err):
        assert "" not in stream.splitlines(), stream
