"""The ``lp``, ``solve``, ``exploit``, ``value`` and ``show`` commands."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pokerlab.cli import main
from tests.tutorial.test_kuhn_lp import TUTORIAL_A_TIMES_6, TUTORIAL_E, TUTORIAL_F

KUHN_VALUE = -1 / 18


def run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:  # type: ignore[type-arg]
    capsys.readouterr()
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def fails(capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> None:
    capsys.readouterr()
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert needle in err


@pytest.fixture(scope="module")
def kuhn_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("lp") / "kuhn.npz"
    assert main(["solve", "kuhn", "--algorithm", "lp", "--out", str(path)]) == 0
    return path


def test_lp_show_matrices_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lp", "kuhn", "--show-matrices"]) == 0
    out = capsys.readouterr().out
    assert "multiplied by 6" in out
    assert "A_b(ab)" in out
    assert "-1/18" in out
    # The A block, as printed, holds the tutorial's integers row by row.
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("A (P1 payoff)"))
    printed = [[int(v) for v in line.split()[1:]] for line in lines[start + 2 : start + 15]]
    assert printed == TUTORIAL_A_TIMES_6


def test_lp_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, ["lp", "kuhn", "--show-matrices", "--json"])
    assert data["value"] == pytest.approx(KUHN_VALUE, abs=1e-9)
    assert data["value_fraction"] == "-1/18"
    assert data["exploitability"] < 1e-9
    matrices = data["matrices"]
    assert matrices["A_scale"] == 6
    np.testing.assert_allclose(matrices["A_scaled"], TUTORIAL_A_TIMES_6, atol=1e-12)
    np.testing.assert_array_equal(matrices["E"], TUTORIAL_E)
    np.testing.assert_array_equal(matrices["F"], TUTORIAL_F)
    assert matrices["e"] == [1, 0, 0, 0, 0, 0, 0]
    assert matrices["f"] == [1, 0, 0, 0, 0, 0, 0]
    assert data["strategy"]["K|b"]["actions"]["call"] == pytest.approx(1 / 3)  # facing a bet


def test_lp_leduc_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, ["lp", "leduc", "--json"])
    assert data["value"] == pytest.approx(-0.0856064, abs=1e-6)
    assert data["sequences"] == [337, 337]


def test_lp_refuses(capsys: pytest.CaptureFixture[str]) -> None:
    fails(capsys, ["lp", "kuhn(players=3)"], "two-player zero-sum")
    fails(capsys, ["lp", "leduc", "--show-matrices"], "dense matrices")


def test_solve_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "leduc.npz"
    data = run_json(capsys, ["solve", "leduc", "--algorithm", "lp", "--out", str(out), "--json"])
    assert data["algorithm"] == "lp"
    assert data["iterations"] == 1
    assert data["value"] == pytest.approx(-0.0856064, abs=1e-6)
    assert data["exploitability"] < 1e-9
    assert out.is_file()


def test_solve_unknown_algorithm(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    fails(capsys, ["solve", "kuhn", "--algorithm", "simplex", "--out", str(tmp_path / "x.npz")],
          "unknown algorithm 'simplex'; known: ")


def test_exploit(capsys: pytest.CaptureFixture[str], kuhn_file: Path) -> None:
    data = run_json(capsys, ["exploit", str(kuhn_file), "--json"])
    assert data["exploitability"] < 1e-9
    assert data["best_response_values"] == pytest.approx([KUHN_VALUE, -KUHN_VALUE], abs=1e-9)
    assert main(["exploit", str(kuhn_file)]) == 0
    assert "exploitability" in capsys.readouterr().out


def test_value(capsys: pytest.CaptureFixture[str], kuhn_file: Path) -> None:
    data = run_json(capsys, ["value", str(kuhn_file), "--json"])
    assert data["values"] == pytest.approx([KUHN_VALUE, -KUHN_VALUE], abs=1e-9)
    assert data["p2_advantage"] == pytest.approx(-KUHN_VALUE, abs=1e-9)
    data = run_json(capsys, ["value", str(kuhn_file), str(kuhn_file), "--json"])
    assert data["values"] == pytest.approx([KUHN_VALUE, -KUHN_VALUE], abs=1e-9)
    assert main(["value", str(kuhn_file)]) == 0
    out = capsys.readouterr().out
    assert "P1 value: -0.0555555556" in out
    assert "P2 advantage: 0.0555555556" in out


def test_value_file_for_another_game(
    capsys: pytest.CaptureFixture[str], kuhn_file: Path, tmp_path: Path
) -> None:
    other = tmp_path / "kuhn4.npz"
    assert main(["solve", "kuhn(cards=4)", "--algorithm", "lp", "--out", str(other)]) == 0
    fails(capsys, ["value", str(kuhn_file), str(other)], "kuhn(cards=4)")


def test_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.npz")
    for command in ("exploit", "value", "show"):
        fails(capsys, [command, missing], "does not exist")


def test_show(capsys: pytest.CaptureFixture[str], kuhn_file: Path) -> None:
    data = run_json(capsys, ["show", str(kuhn_file), "--prefix", "K|", "--json"])
    assert set(data["infosets"]) == {"K|", "K|pb", "K|b", "K|p"}
    assert data["infosets"]["K|b"]["actions"] == pytest.approx({"fold": 2 / 3, "call": 1 / 3})
    assert data["infosets"]["K|"]["actions"].keys() == {"check", "bet"}
    data = run_json(capsys, ["show", str(kuhn_file), "--player", "2", "--json"])
    assert {row["player"] for row in data["infosets"].values()} == {2}
    assert len(data["infosets"]) == 6
    assert main(["show", str(kuhn_file), "--prefix", "Q|", "--csv"]) == 0
    csv_lines = capsys.readouterr().out.splitlines()
    assert csv_lines[0] == "infoset,player,action,probability"
    assert len(csv_lines) == 1 + 4 * 2
    assert main(["show", str(kuhn_file), "--prefix", "K|"]) == 0
    table = capsys.readouterr().out
    assert "K|pb" in table
    assert "A|" not in table
    fails(capsys, ["show", str(kuhn_file), "--player", "3"], "--player must be between 1 and 2")
