"""``pokerlab games list``, ``pokerlab games info`` and ``pokerlab demo``."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from pokerlab.cli import main
from pokerlab.cli.demo import plot_folder
from pokerlab.errors import FileFormatError


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


def test_games_list(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(["games", "list"], capsys)
    for name in ("kuhn", "leduc", "rps", "dominance", "battle_of_sexes", "matrix"):
        assert name in out
    assert "raise_cap" in out


def test_games_list_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(_run(["games", "list", "--json"], capsys))
    by_name = {entry["name"]: entry for entry in data}
    assert [entry["name"] for entry in data] == sorted(by_name)
    leduc = {p["name"]: p for p in by_name["leduc"]["parameters"]}
    assert leduc["raise_cap"]["default"] == "2"
    assert leduc["stack"]["default"] == "None"
    assert leduc["ranks"]["default"] == "derived"
    kuhn = {p["name"]: p for p in by_name["kuhn"]["parameters"]}
    assert set(kuhn) == {"cards", "players", "ante", "bet"}
    assert kuhn["ante"]["default"] == kuhn["bet"]["default"] == "1"
    assert by_name["rps"]["parameters"] == []


def test_games_info_leduc_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(_run(["games", "info", "leduc", "--json"], capsys))
    assert data["game"] == "leduc"
    assert data["histories"] == 9_457
    assert data["infosets"] == 288
    assert [row["sequences"] for row in data["per_player"]] == [337, 337]
    assert [row["infosets"] for row in data["per_player"]] == [144, 144]
    assert data["players"] == 2
    assert data["histories"] == (data["terminals"] + data["decision_nodes"] + data["chance_nodes"])
    assert data["memory_bytes"] > 0


def test_games_info_kuhn_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(_run(["games", "info", "kuhn(cards=100)", "--json"], capsys))
    assert data["game"] == "kuhn(cards=100)"
    assert data["infosets"] == 400
    assert data["histories"] == 89_201


@pytest.mark.slow
def test_games_info_fifty_chips(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(["games", "info", "leduc(stack=50, raise_cap=None)"], capsys)
    assert "leduc(stack=50, raise_cap=None)" in out
    assert "256,477" in out
    assert "6,888" in out
    data = json.loads(_run(["games", "info", "leduc(stack=50, raise_cap=None)", "--json"], capsys))
    assert data["histories"] == 256_477
    assert data["infosets"] == 6_888


def test_games_info_text(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(["games", "info", "kuhn"], capsys)
    assert "58" in out
    assert "P1: infosets / sequences" in out
    assert "6 / 13" in out


def test_games_info_matrix_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bos.csv"
    path.write_text(",T,P\nT,3;2,0;0\nP,0;0,2;3\n", encoding="utf-8")
    data = json.loads(_run(["games", "info", str(path), "--json"], capsys))
    assert data["histories"] == 7
    assert data["infosets"] == 2


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "info"]) == 2
    assert main(["games", "nope"]) == 2
    capsys.readouterr()


@pytest.mark.slow
def test_demo_writes_its_plots_into_a_folder_it_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where mkdtemp makes folders
    out = _run(["demo"], capsys)
    assert "pokerlab demo" in out
    assert "Games and the sizes" in out
    assert "9,457" in out
    assert "256,477" in out
    assert list(here.iterdir()) == []  # nothing lands in the current folder
    (folder,) = tmp_path.glob("pokerlab-demo-*")
    assert (folder / "convergence.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"The demo's plots are in {folder}\n" in out


def test_demo_out_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    assert plot_folder(tmp_path / "new" / "plots") == tmp_path / "new" / "plots"
    assert (tmp_path / "new" / "plots").is_dir()
    assert plot_folder(tmp_path) == tmp_path  # an existing folder is used as it is
    fresh = plot_folder(None)
    assert fresh.parent == tmp_path / "tmp"
    assert fresh.is_dir()
    assert list(fresh.iterdir()) == []
    assert fresh != plot_folder(None)  # a new one every run
    (tmp_path / "file").write_text("x")
    with pytest.raises(FileFormatError, match="is a file; give a folder to write into"):
        plot_folder(tmp_path / "file")
