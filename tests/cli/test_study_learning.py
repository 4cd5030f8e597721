"""``pokerlab study bandits``, ``study regret-bound`` and ``study q-learning`` (issue 29)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from pokerlab.cli import main


def run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:  # type: ignore[type-arg]
    capsys.readouterr()
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)


def test_bandits_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, ["study", "bandits", "--horizon", "200", "--games", "100",
                             "--runs", "5", "--json"])
    assert set(data["bandit"]) == {"epsilon-greedy", "ucb1", "thompson", "regret-matching",
                                   "regret-matching-full"}
    assert data["ucb1_bound"] > data["bandit"]["ucb1"]["regret"]
    assert data["lai_robbins_constant"] == pytest.approx(8.560383, abs=1e-6)
    rm = data["rps"]["regret-matching vs best-response"]
    assert rm["worst_regret"] <= rm["regret_bound"] == pytest.approx(2 * math.sqrt(3 / 100))
    assert data["rps"]["ucb1 vs best-response"]["payoff"] < -0.9


@pytest.mark.slow
def test_bandits_text_and_figure(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "b.png"
    assert main(["study", "bandits", "--horizon", "50", "--games", "50", "--runs", "3",
                 "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "UCB1's bound" in text  # lines outside the tables are never folded
    assert "Regret matching's no-regret bound at T = 50" in text
    assert out.stat().st_size > 1000


def test_bandits_refuses_bad_means(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "bandits", "--means", "0.5,x"]) != 0
    assert "--means" in capsys.readouterr().err
    assert main(["study", "bandits", "--means", "1.5,0.2", "--horizon", "5"]) != 0
    assert "means" in capsys.readouterr().err


def test_regret_bound_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, ["study", "regret-bound", "--rps-iterations", "300",
                             "--kuhn-iterations", "30", "--leduc-iterations", "0", "--json"])
    labels = [c["label"] for c in data["curves"]]
    assert labels == ["RM on RPS vs fixed", "RM on RPS vs best-response", "CFR on kuhn"]
    for curve in data["curves"]:
        for regrets, bound in zip(curve["average_regret"], curve["bound"], strict=True):
            assert max(regrets) <= bound


@pytest.mark.slow
def test_regret_bound_text_and_figure(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "r.png"
    assert main(["study", "regret-bound", "--rps-iterations", "100", "--kuhn-iterations", "10",
                 "--leduc-iterations", "0", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert f"wrote {out}" in text
    assert "leduc" not in text
    assert out.stat().st_size > 1000


def test_q_learning_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, ["study", "q-learning", "kuhn", "--hands", "300", "--seeds", "2",
                             "--cfr-iterations", "50", "--json"])
    assert data["pure_profile_floor"] == pytest.approx(1 / 6)
    assert len(data["q_learning"]["greedy"]) == 2
    assert data["cfr"]["iterations"][-1] == 50
    assert data["cfr"]["average"][-1] < 0.05


@pytest.mark.slow
def test_q_learning_leduc_text_and_figure(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    out = tmp_path / "q.png"
    assert main(["study", "q-learning", "leduc", "--hands", "100", "--seeds", "1",
                 "--cfr-iterations", "5", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert f"wrote {out}" in text
    assert "No profile of pure strategies" not in text  # too many to enumerate on Leduc
    assert out.stat().st_size > 1000
