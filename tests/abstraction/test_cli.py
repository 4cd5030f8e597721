from __future__ import annotations

import json
from pathlib import Path

import pytest

from pokerlab.cli import main
from pokerlab.eval import exploitability
from pokerlab.games import kuhn, leduc
from pokerlab.strategy import Strategy


def test_abstract_writes_the_lifted_strategy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "lifted.npz"
    rc = main(["abstract", "kuhn(cards=20)", "--cards", "uniform:5", "--algorithm", "lp",
               "--out", str(out), "--json"])
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    assert data["n_infosets_full"] == 80
    assert data["n_infosets_abstract"] == 20
    lifted = Strategy.load(out)
    assert lifted.game == kuhn(cards=20)
    assert exploitability(lifted.game, lifted) == pytest.approx(data["lifted_exploitability"])
    assert data["abstract_value"] == pytest.approx(data["lifted_value"])


def test_abstract_table_with_cfr_plus_and_a_raise_cap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "capped.npz"
    rc = main(["abstract", "leduc(stack=50, raise_cap=None)", "--raise-cap", "3",
               "--algorithm", "cfr+", "--iterations", "50", "--out", str(out)])
    assert rc == 0
    text = capsys.readouterr().out
    assert "lifted exploitability" in text
    assert "6,888 -> 528" in text
    assert Strategy.load(out).game == leduc(stack=50, raise_cap=None)


def test_abstract_optimized_buckets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "optimized.npz"
    rc = main(["abstract", "kuhn(cards=20)", "--cards", "optimized:4", "--algorithm", "lp",
               "--search-evaluations", "10", "--out", str(out), "--json"])
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    assert "boundaries:" in data["abstract"]


def test_abstract_without_out_solves_and_saves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["abstract", "kuhn(cards=20)", "--cards", "uniform:5", "--algorithm", "lp"]) == 0
    text = capsys.readouterr().out
    assert "lifted exploitability" in text
    assert "80 -> 20 (4.0x fewer)" in text
    assert "not saved (give --out FILE" in text
    assert main(["abstract", "kuhn(cards=20)", "--cards", "uniform:5", "--algorithm", "lp",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["out"] is None
    assert data["n_infosets_abstract"] == 20
    assert list(tmp_path.iterdir()) == []


def test_abstract_with_out_says_where(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "lifted.npz"
    assert main(["abstract", "kuhn(cards=20)", "--cards", "uniform:5", "--algorithm", "lp",
                 "--out", str(out)]) == 0
    assert f"saved the lifted strategy to {out}\n" in capsys.readouterr().out
    assert Strategy.load(out).game == kuhn(cards=20)


def test_abstract_refuses_a_folder_before_solving(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["abstract", "kuhn(cards=20)", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err == f"error: --out {tmp_path} is a folder; give the name of a file to write\n"


def test_abstract_bad_buckets_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc = main(["abstract", "kuhn(cards=20)", "--cards", "uniform:0", "--out",
               str(tmp_path / "x.npz")])
    assert rc == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "between 1 and the number of cards (20)" in err
    assert not (tmp_path / "x.npz").exists()


@pytest.mark.slow
def test_study_challenge_quick_writes_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pokerlab.studies.challenge import PLOTS, SECTIONS

    out = tmp_path / "report"
    rc = main(["study", "challenge", "--out", str(out), "--quick"])
    assert rc == 0
    readme = (out / "README.md").read_text()
    positions = [readme.index(section) for section in SECTIONS]
    assert positions == sorted(positions)
    for plot in PLOTS:
        assert (out / plot).stat().st_size > 1000
        assert f"]({plot})" in readme
    assert "| 100-card Kuhn | LP (exact) | -0.056616 |" in readme
    assert "| 3-card Kuhn | LP (exact) | -0.055556 |" in readme
    assert "wrote" in capsys.readouterr().out
