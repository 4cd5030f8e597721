"""``pokerlab study kuhn-lp | es-walkthrough | figures``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pokerlab.cli import main


def test_kuhn_lp_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "kuhn-lp", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["value"] == pytest.approx(-1 / 18)
    assert set(data["q"]) == {"0", "Ab", "Ap", "Kb", "Kp", "Qb", "Qp"}
    assert data["p"]["0"] == pytest.approx(-1 / 18)
    assert data["reduced"]["value"] == pytest.approx(-1 / 18)
    assert "K_b" in data["dominated"]["P1"]


def test_kuhn_lp_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "kuhn-lp"]) == 0
    out = capsys.readouterr().out
    assert "q" in out
    assert "-0.0556" in out
    assert "Q_pp" in out


def test_es_walkthrough_writes_trace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "trace.png"
    code = main(["study", "es-walkthrough", "--iterations", "40", "--show", "1",
                 "--out", str(out), "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data = json.loads(captured.out)
    assert data["updates"]
    assert all(u["iteration"] == 1 for u in data["updates"])
    assert out.read_bytes()[:4] == b"\x89PNG"


def test_es_walkthrough_refuses_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "es-walkthrough", "--iterations", "0"]) != 0
    assert "iterations" in capsys.readouterr().err


@pytest.mark.slow
def test_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["study", "figures", "--out", str(tmp_path), "--runs", "3", "--plays", "40"])
    assert code == 0, capsys.readouterr().err
    names = sorted(p.name for p in tmp_path.glob("*.png"))
    assert names == ["es-regret-trace.png", "kuhn-tree.png", "leduc-subtree.png", "rm-runs.png",
                     "rps-dynamics.png"]
