"""The 3-player study (issue 17 item 4): NashConv over iterations, head-to-head results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pokerlab.cli import main
from pokerlab.errors import PokerlabError
from pokerlab.eval import expected_value
from pokerlab.games import load
from pokerlab.strategy import Strategy
from pokerlab.studies.three_player import seat_value, three_player_study


def test_kuhn_three_players() -> None:
    game = load("kuhn", players=3)
    result = three_player_study(game, {"cfr": 300, "cfr+": 300, "es-mccfr": 3000}, seed=1)
    uniform_nash_conv = result.final_nash_conv["uniform"]
    for curve in result.curves:
        assert curve.iterations[-1] in (300, 3000)
        # Every solver improves a lot on its first iterate; nothing promises 0.
        assert curve.nash_conv[-1] < curve.nash_conv[0] / 10
        assert curve.nash_conv[-1] < uniform_nash_conv / 10
    assert result.names == ["cfr", "cfr+", "es-mccfr", "uniform"]
    # The solvers' strategies beat the uniform strategy seated against two copies of it...
    for i in range(3):
        assert result.one_vs_two[i][3] > 0.1
        assert result.one_vs_two[3][i] < 0
    # ... and seated together, the three values are a zero-sum split.
    assert sum(result.together.values()) == pytest.approx(0, abs=1e-9)


def test_seat_value_averages_seatings() -> None:
    game = load("kuhn", players=3)
    uniform = Strategy.uniform(game)
    # Identical strategies: by symmetry over seatings, each gets 0.
    assert seat_value(game, [uniform] * 3, 0) == pytest.approx(0, abs=1e-12)
    # Against the game's own seat values: the average of the three seats' values.
    values = expected_value(game, [uniform] * 3)
    assert sum(values) == pytest.approx(0, abs=1e-12)
    with pytest.raises(PokerlabError, match="need 3 strategies"):
        seat_value(game, [uniform] * 2, 0)


def test_bad_input() -> None:
    with pytest.raises(PokerlabError, match="3-player games"):
        three_player_study(load("kuhn"), {"cfr": 1})
    with pytest.raises(PokerlabError, match="iterations must map"):
        three_player_study(load("kuhn", players=3), {"dcfr": 1})


@pytest.mark.slow
def test_cli_leduc_small(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "nc.png"
    code = main(
        ["study", "three-player", "--games", "kuhn", "--scale", "0.05", "--out", str(out), "--json"]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data = json.loads(captured.out)
    assert data["results"][0]["game"].startswith("kuhn")
    assert out.read_bytes()[:4] == b"\x89PNG"
    assert main(["study", "three-player", "--games", "poker"]) != 0
