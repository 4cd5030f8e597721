"""A flop report on Ray workers keeps the rows the local run keeps."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from pokerlab.studies.flop_report import ReportPlan, run_report
from pokerlab.studies.flop_sets import parse_flops

pytestmark = pytest.mark.timeout(240)  # bounded even when a cluster misbehaves

PLAN = ReportPlan({"oop": "AA,KK", "ip": "QQ,JJ,AK", "pot": 100, "stack": 100, "bets": "a",
                   "raises": ""}, iterations=10, check_every=10)
FLOPS = parse_flops("Td9d6h 12, 7c7d7h 4")


@pytest.mark.slow
def test_ray_workers_give_the_rows_of_the_local_run(ray_cluster: ModuleType,
                                                    tmp_path: Path) -> None:
    local = run_report(PLAN, FLOPS, tmp_path / "local")
    remote = run_report(PLAN, FLOPS, tmp_path / "ray", backend="ray", workers=2)
    assert local.finished
    assert remote.finished
    assert remote.solved == 2

    def rows(data: dict) -> dict:
        return {flop: {k: v for k, v in row.items() if k != "seconds"}
                for flop, row in data["rows"].items()}

    assert rows(remote.data) == rows(local.data)
    assert ray_cluster.is_initialized()  # the report used the cluster and left it running


@pytest.mark.slow
def test_the_command_reports_on_ray(ray_cluster: ModuleType, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    from pokerlab.cli import main

    argv = ["spot", "report", "--flops", "7c7d7h", "--oop", "AA,KK", "--ip", "QQ,JJ,AK",
            "--pot", "100", "--stack", "100", "--bets", "a", "--raises", "", "--iterations",
            "10", "--backend", "ray", "--workers", "1", "--out", str(tmp_path / "r"), "--json"]
    assert main(argv) == 0
    assert '"solved": 1' in capsys.readouterr().out
    assert main([*argv[:-3], "--address", "auto", "--backend", "local", *argv[-3:]]) == 1
    assert "--address goes with --backend ray" in capsys.readouterr().err
