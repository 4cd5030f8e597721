"""`pokerlab equity` and `pokerlab plot`: outputs and files a user relies on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pokerlab.cards import equity
from pokerlab.cli import main


def test_equity_json_matches_the_library(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["equity", "AsKs", "QdQh", "--board", "2c7dTh", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = equity(["AsKs", "QdQh"], board="2c7dTh")
    assert data["exact"] is True
    assert data["equity"] == pytest.approx(list(expected.equity))
    assert sum(data["equity"]) == pytest.approx(1.0)


def test_equity_text_names_every_player(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["equity", "AsKs", "QdQh", "8c8h", "--board", "2c7dTh"]) == 0
    out = capsys.readouterr().out
    assert "P3" in out
    assert "exact" in out


def test_equity_bad_input_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["equity", "AsKs", "AsQd"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "share cards" in err


def test_plot_convergence_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "conv.png"
    code = main(["plot", "convergence", "kuhn", "--algorithms", "cfr,cfr+,es-mccfr",
                 "--iterations", "200", "--out", str(out)])
    assert code == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = capsys.readouterr().out
    assert "cfr+: 200 iterations" in text
    assert "es-mccfr" in text


def test_plot_regret_matching_writes_a_png(tmp_path: Path) -> None:
    out = tmp_path / "rm.png"
    assert main(["plot", "regret-matching", "--iterations", "500", "--out", str(out)]) == 0
    assert out.stat().st_size > 10_000


def test_plot_unknown_algorithm_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["plot", "convergence", "kuhn", "--algorithms", "cfr,nope",
                 "--out", str(tmp_path / "x.png")])
    assert code == 1
    assert "unknown algorithm 'nope'" in capsys.readouterr().err
