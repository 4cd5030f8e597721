"""Reports over many flops: rows checked independently, resume, processes, outputs, CLI."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from pokerlab.cards import equity
from pokerlab.cli import main
from pokerlab.errors import PokerlabError, SpecError
from pokerlab.solvers import run_console
from pokerlab.studies.flop_report import (
    ReportPlan,
    aggregate,
    flops_csv,
    load_report,
    run_report,
    solve_flop,
    textures_csv,
)
from pokerlab.studies.flop_sets import Flop, parse_flops
from tests.interrupts import InterruptAfter

SHAPE = {"oop": "AA,KK", "ip": "QQ,JJ,AK", "pot": 100, "stack": 100, "bets": "a", "raises": ""}
PLAN = ReportPlan(SHAPE, iterations=20, check_every=10)
FLOPS = parse_flops("Td9d6h 12, 7c7d7h 4")


def _without_time(rows: dict[str, Any]) -> dict[str, Any]:
    return {flop: {k: v for k, v in row.items() if k != "seconds"} for flop, row in rows.items()}


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    run = run_report(PLAN, FLOPS, tmp_path_factory.mktemp("whole"))
    assert run.finished
    assert run.solved == 2
    return run.data


def test_checked_down_flops_are_worth_the_equity_an_independent_count_gives() -> None:
    plan = ReportPlan({**SHAPE, "ip": "QQ,JJ", "bets": "", "raises": ""}, iterations=1)
    flop = parse_flops("Td9d6h")[0]
    row = solve_flop(plan, flop)
    assert row is not None
    assert "error" not in row
    exact = equity(["AA,KK", "QQ,JJ"], board="Td9d6h").equity
    assert row["equity_oop"] == pytest.approx(100 * exact[0], abs=1e-9)
    assert row["equity_ip"] == pytest.approx(100 * exact[1], abs=1e-9)
    assert row["ev_oop"] == pytest.approx(100 * exact[0], abs=1e-9)  # nobody can bet
    assert row["oop"] == {"check": 1.0}
    assert row["ip_vs_check"] == {"check": 1.0}


def test_each_row_adds_up(uninterrupted: dict[str, Any]) -> None:
    for row in uninterrupted["rows"].values():
        assert row["ev_oop"] + row["ev_ip"] == pytest.approx(100.0, abs=1e-3)
        assert row["equity_oop"] + row["equity_ip"] == pytest.approx(100.0, abs=1e-9)
        assert sum(row["oop"].values()) == pytest.approx(1.0)
        assert sum(row["ip_vs_check"].values()) == pytest.approx(1.0)
        assert list(row["oop"]) == ["check", "all-in 100"]  # the tree's order
        assert row["iterations"] == 20
    assert uninterrupted["rows"]["Td9d6h"]["weight"] == 12.0


@pytest.mark.slow
def test_an_interrupted_report_resumes_to_the_same_rows(
    tmp_path: Path, uninterrupted: dict[str, Any]
) -> None:
    seen: list[int] = []
    first = run_report(PLAN, FLOPS, tmp_path, stop=lambda: len(seen) > 1,
                       progress=lambda done, total: seen.append(done))
    assert not first.finished
    assert first.solved == 1
    assert len(load_report(tmp_path)["rows"]) == 1  # kept on disk
    second = run_report(PLAN, FLOPS, tmp_path)
    assert second.finished
    assert second.solved == 1
    assert _without_time(second.data["rows"]) == _without_time(uninterrupted["rows"])


@pytest.mark.slow
def test_processes_give_the_rows_one_process_gives(
    tmp_path: Path, uninterrupted: dict[str, Any]
) -> None:
    run = run_report(PLAN, FLOPS, tmp_path, workers=2)
    assert run.finished
    assert _without_time(run.data["rows"]) == _without_time(uninterrupted["rows"])


def test_a_folder_of_another_report_is_refused(tmp_path: Path) -> None:
    plan = ReportPlan(SHAPE, iterations=1)
    run_report(plan, FLOPS[:1], tmp_path)
    with pytest.raises(PokerlabError, match="differs in iterations"):
        run_report(ReportPlan(SHAPE, iterations=2), FLOPS[:1], tmp_path)
    with pytest.raises(PokerlabError, match="over other flops"):
        run_report(plan, FLOPS[1:2], tmp_path)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "report.json").write_text('{"cells": {}}')
    with pytest.raises(PokerlabError, match="is not a flop report"):
        run_report(plan, FLOPS[:1], tmp_path / "other")


def test_a_flop_the_ranges_cannot_meet_on_is_a_row_with_its_error(tmp_path: Path) -> None:
    plan = ReportPlan({**SHAPE, "oop": "AA", "ip": "AA"}, iterations=1)
    run = run_report(plan, parse_flops("AsAh2c, 9c8d2h"), tmp_path)
    assert run.finished
    assert "error" in run.data["rows"]["AsAh2c"]
    assert "error" not in run.data["rows"]["9c8d2h"]
    assert aggregate(run.data)[0]["flops"] == 1  # the averages leave the error out


def test_a_plan_needs_a_stopping_rule_and_no_board() -> None:
    with pytest.raises(SpecError, match="stopping rule"):
        ReportPlan(SHAPE)
    with pytest.raises(SpecError, match="no board"):
        ReportPlan({**SHAPE, "board": "AsKd2c"}, iterations=1)


def _synthetic(rows: list[tuple[str, float, str, float, float]]) -> dict[str, Any]:
    """A report of made-up rows: (flop, weight, suits, EV % of OOP, OOP's bet frequency)."""
    data: dict[str, Any] = {"flops": [], "rows": {}}
    for flop, weight, suits, ev, bet in rows:
        data["flops"].append({"flop": flop, "weight": weight})
        data["rows"][flop] = {
            "flop": flop, "weight": weight, "suits": suits, "pairing": "unpaired",
            "high": flop[0], "connected": "disconnected", "ev_oop_percent": ev,
            "ev_ip_percent": 100 - ev, "equity_oop": ev, "equity_ip": 100 - ev,
            "exploitability_percent": 0.1, "oop": {"check": 1 - bet, "bet 50": bet},
            "ip_vs_check": {"check": 1.0}}
    return data


def test_averages_weight_each_flop_by_the_flops_it_stands_for() -> None:
    data = _synthetic([("AsKd2c", 24, "rainbow", 60, 0.5), ("Ks8s3d", 12, "two-tone", 40, 0.2),
                       ("Qs7s2d", 36, "two-tone", 50, 0.8)])
    whole = aggregate(data)[0]
    assert whole["weight"] == 72
    assert whole["ev_oop_percent"] == pytest.approx((24 * 60 + 12 * 40 + 36 * 50) / 72)
    assert whole["oop"]["bet 50"] == pytest.approx((24 * 0.5 + 12 * 0.2 + 36 * 0.8) / 72)
    by_suits = {group["group"]: group for group in aggregate(data, "suits")}
    assert list(by_suits) == ["rainbow", "two-tone"]
    assert by_suits["two-tone"]["oop"]["bet 50"] == pytest.approx((12 * 0.2 + 36 * 0.8) / 48)
    with pytest.raises(SpecError, match="group by one of"):
        aggregate(data, "colour")
    table = list(csv.reader(io.StringIO(textures_csv(data))))
    assert table[0][:3] == ["by", "group", "flops"]
    assert "oop bet 50" in table[0]
    assert [row[:2] for row in table[1:4]] == [["all", "all"], ["suits", "rainbow"],
                                               ["suits", "two-tone"]]
    flops = list(csv.DictReader(io.StringIO(flops_csv(data))))
    assert [row["flop"] for row in flops] == ["AsKd2c", "Ks8s3d", "Qs7s2d"]
    assert float(flops[2]["oop bet 50"]) == 0.8


ARGS = ["spot", "report", "--flops", "Td9d6h 12, 7c7d7h 4", "--oop", "AA,KK",
        "--ip", "QQ,JJ,AK", "--pot", "100", "--stack", "100", "--bets", "a", "--raises", "",
        "--iterations", "20", "--check-every", "10", "--workers", "1"]


@pytest.mark.slow
def test_the_command_writes_the_table_csv_and_charts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], uninterrupted: dict[str, Any]
) -> None:
    out = tmp_path / "report"
    assert main([*ARGS, "--out", str(out), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["solved"] == 2
    assert result["errors"] == {}
    assert result["groups"]["all"][0]["weight"] == 16
    rows = {row["flop"]: row for row in result["rows"]}
    assert _without_time(rows) == _without_time(uninterrupted["rows"])
    assert (out / "textures.png").read_bytes()[:4] == b"\x89PNG"
    assert len((out / "flops.csv").read_text().splitlines()) == 3
    assert main([*ARGS, "--out", str(out), "--by", "pairing"]) == 0  # done: nothing to solve
    text = capsys.readouterr().out
    assert "by pairing" in text
    assert "trips" in text
    assert "OOP" in text  # the action columns (a narrow console wraps their headers)


@pytest.mark.slow
def test_ctrl_c_stops_and_the_same_command_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "report"
    monkeypatch.setattr(run_console, "StopSignals", lambda: _CtrlCOnceAFlopIsStored(out))
    assert main([*ARGS, "--out", str(out)]) == 130
    err = capsys.readouterr().err
    assert "interrupted: 1 of 2 flops done" in err
    assert "go on with the same command" in err
    assert len(load_report(out)["rows"]) == 1
    monkeypatch.undo()
    assert main([*ARGS, "--out", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["solved"] == 2


class _CtrlCOnceAFlopIsStored(InterruptAfter):
    """Ctrl-C pressed as soon as the report in ``folder`` holds a flop."""

    def __init__(self, folder: Path) -> None:
        super().__init__(0)
        self._folder = folder

    @property
    def requested(self) -> bool:
        report = load_report(self._folder) if self._folder.exists() else None
        return report is not None and len(report["rows"]) >= 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (["--flops", "rainbow"], "--flops is 'all', a count"),
        (["--by", "colour"], "--by must be one of"),
        (["--address", "auto"], "--address goes with --backend ray"),
        (["--backend", "spark"], "--backend must be local or ray"),
        (["--memory-limit", "1"], "over --memory-limit 1 MB"),
        (["--bets", "50%,big"], "cannot read bet size 'big'"),
    ],
)
def test_bad_input_is_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: list[str], message: str
) -> None:
    args = list(ARGS)
    if change[0] in args:
        args[args.index(change[0]) + 1] = change[1]
    else:
        args += change
    assert main([*args, "--out", str(tmp_path / "r")]) == 1
    err = capsys.readouterr().err
    assert message in err
    assert err.startswith("error: ")
    assert err.count("\n") == 1
    assert not (tmp_path / "r" / "report.json").exists()


def test_a_stopping_rule_is_required(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ARGS[: ARGS.index("--iterations")]
    assert main([*args, "--out", str(tmp_path / "r")]) == 1
    assert "needs a stopping rule" in capsys.readouterr().err


def test_the_plan_puts_each_flop_on_the_board() -> None:
    assert PLAN.spot_on(Flop((51, 45, 0), 2.0)).board == "AsKd2c"
