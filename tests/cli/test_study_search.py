"""``pokerlab study search``: tic-tac-toe solved by search, determinized search beaten by CFR+."""

from __future__ import annotations

import json

import pytest

from pokerlab.cli import main


@pytest.mark.slow
def test_study_search_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["study", "search", "--mcts-iterations", "300", "--cfr-iterations", "100", "--json"]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data = json.loads(captured.out)
    assert data["tictactoe"]["minimax_value"] == 0
    assert data["tictactoe"]["alpha_beta_nodes"] < data["tictactoe"]["minimax_nodes"]
    for game in ("kuhn", "leduc"):
        row = data["poker"][game]
        assert row["pimc_exploitability"] > 10 * row["cfr_plus_exploitability"]


def test_study_search_refuses_zero_iterations(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["study", "search", "--cfr-iterations", "0"])
    assert code != 0
    assert "cfr-iterations" in capsys.readouterr().err


def test_study_push_fold_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["study", "push-fold", "--cards", "5", "--stack", "6", "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data = json.loads(captured.out)
    assert data["value"] == pytest.approx(-0.2, abs=1e-4)  # the normal-form LP's value
    assert data["exploitability"] < 1e-4
    assert len(data["push"]) == 5
