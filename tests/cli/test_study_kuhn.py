"""``pokerlab study kuhn-ante-bet``, ``study kuhn-deviations`` and ``show --by-card`` (issue 29)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pokerlab.cli import main
from pokerlab.strategy import kuhn_equilibrium


def run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:  # type: ignore[type-arg]
    capsys.readouterr()
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def fails(capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> None:
    capsys.readouterr()
    assert main(argv) != 0
    assert needle in capsys.readouterr().err


def test_kuhn_ante_bet_json_and_figure(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "ab.png"
    data = run_json(capsys, ["study", "kuhn-ante-bet", "--pairs", "1/1,2/1,2/3", "--points", "3",
                             "--out", str(out), "--json"])
    rows = {(r["ante"], r["bet"]): r for r in data["rows"]}
    assert rows[(1, 1)]["closed_form"] == "-1/18"
    assert rows[(1, 1)]["y_range"] == [0.0, 1.0]
    assert rows[(2, 1)]["y_range"] == [1.0, 1.0]
    assert rows[(2, 1)]["lp_value"] == pytest.approx(-1 / 30, abs=1e-9)
    assert rows[(2, 1)]["a_bet_gain"] == pytest.approx(0.2, abs=1e-12)
    assert rows[(2, 3)]["value_checking_the_A"] == pytest.approx(-1 / 14, abs=1e-9)
    assert rows[(2, 3)]["a_bet_gain_closed_form"] == "-3/7"
    assert out.stat().st_size > 1000
    assert data["figure"] == str(out)


def test_kuhn_ante_bet_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "kuhn-ante-bet", "--pairs", "3/2"]) == 0
    out = capsys.readouterr().out  # the table folds on a narrow terminal; the notes do not
    assert "y is free only when the ante equals the bet" in out
    data = run_json(capsys, ["study", "kuhn-ante-bet", "--pairs", "3/2", "--json"])
    assert data["rows"][0]["closed_form"] == "-1/12"
    assert data["rows"][0]["a_bet_gain_closed_form"] == "1/4"


def test_kuhn_ante_bet_refuses_bad_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    fails(capsys, ["study", "kuhn-ante-bet", "--pairs", "1-1"], "ANTE/BET")
    fails(capsys, ["study", "kuhn-ante-bet", "--pairs", "0/1"], ">= 1 chip")


def test_kuhn_deviations_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "dev.png"
    data = run_json(capsys, ["study", "kuhn-deviations", "--out", str(out), "--json"])
    found = {d["name"]: d for d in data["deviations"]}
    assert found["P1 never bluffs"]["best_response_gain"] == pytest.approx(1 / 54, abs=1e-12)
    assert found["P2 always bluffs"]["exploitability"] == pytest.approx(1 / 9, abs=1e-12)
    assert data["tables"]["x"]["gains"][0][0] == 0.0
    assert data["tables"]["z"]["gains"][0][1] == 0.0  # y = 0, z = 1/3
    assert out.stat().st_size > 1000


def test_kuhn_deviations_text(capsys: pytest.CaptureFixture[str]) -> None:
    # Tables fold long cells on a narrow terminal: look for short tokens only.
    assert main(["study", "kuhn-deviations", "--y", "0"]) == 0
    out = capsys.readouterr().out
    assert "Against the equilibrium each deviation costs nothing" in out
    data = run_json(capsys, ["study", "kuhn-deviations", "--y", "0", "--json"])
    never = next(d for d in data["deviations"] if d["name"] == "P1 never bluffs")
    assert never["best_response_gain"] == pytest.approx(0.0, abs=1e-12)  # y = 0: x = 0 is it
    assert never["exploiting_moves"] == []


@pytest.fixture(scope="module")
def equilibrium_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return kuhn_equilibrium(0.6).save(tmp_path_factory.mktemp("bycard") / "kuhn.npz")


def test_show_by_card_json(capsys: pytest.CaptureFixture[str], equilibrium_file: Path) -> None:
    data = run_json(capsys, ["show", str(equilibrium_file), "--by-card", "--json"])
    assert data["cards"] == ["Q", "K", "A"]
    assert data["P1"]["columns"] == ["check", "bet", "fold", "call"]
    assert data["P2"]["columns"] == ["check_check", "bet_check", "bet_fold", "bet_call"]
    assert data["P1"]["rows"]["Q"] == pytest.approx([0.8, 0.2, 1.0, 0.0])  # x = y/3
    assert data["P1"]["rows"]["K"] == pytest.approx([1.0, 0.0, 1 - 1.6 / 3, 1.6 / 3])
    assert data["P2"]["rows"]["K"] == pytest.approx([1.0, 0.0, 2 / 3, 1 / 3])
    assert data["P2"]["rows"]["Q"] == pytest.approx([2 / 3, 1 / 3, 1.0, 0.0])


def test_show_by_card_table_and_csv(capsys: pytest.CaptureFixture[str],
                                    equilibrium_file: Path) -> None:
    assert main(["show", str(equilibrium_file), "--by-card", "--player", "2"]) == 0
    out = capsys.readouterr().out
    assert "check_check" in out
    assert "P1's strategy" not in out
    assert main(["show", str(equilibrium_file), "--by-card", "--csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "player,card,column,probability"
    assert "1,Q,bet,0.2" in lines
    assert len(lines) == 1 + 2 * 3 * 4


def test_show_by_card_refuses_other_games(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    path = tmp_path / "leduc.npz"
    assert main(["solve", "leduc", "--algorithm", "cfr+", "--iterations", "2",
                 "--out", str(path)]) == 0
    fails(capsys, ["show", str(path), "--by-card"], "2-player Kuhn")
    fails(capsys, ["show", str(path), "--by-card", "--prefix", "K"], "--prefix")
