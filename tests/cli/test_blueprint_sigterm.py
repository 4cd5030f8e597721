"""`pokerlab blueprint train`: an unwritable --out is refused first; SIGTERM saves like Ctrl-C."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pokerlab.blueprint.store import read_header
from pokerlab.cli import main
from pokerlab.solvers import run_console
from tests.cli.test_blueprint_cli import ROOT, SMALL


@pytest.mark.parametrize("where", ["/proc/pokerlab-nowhere/x.bp", "/sys/x.bp"])
def test_an_unwritable_out_is_refused_before_training(
    where: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    trained: list[object] = []
    real = run_console.run_to_budget

    def spy(*args: object, **kwargs: object) -> object:
        trained.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(run_console, "run_to_budget", spy)
    assert main(["blueprint", "train", SMALL, "--out", where, "--iterations", "2000"]) == 1
    err = capsys.readouterr().err
    assert "--out" in err
    assert where in err
    assert "Traceback" not in err
    assert trained == []  # refused before any training


@pytest.mark.slow
def test_sigterm_saves_and_a_resume_continues(tmp_path: Path) -> None:
    out = tmp_path / "s.bp"
    command = [sys.executable, "-m", "pokerlab.cli", "blueprint", "train", SMALL, "--out",
               str(out), "--seconds", "120", "--chunk", "500", "--checkpoint-every", "1000"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=ROOT)
    # --checkpoint-every is far away: whatever is saved is the SIGTERM's doing. Wait for the
    # run to say it runs (stderr is not a terminal: one line, after the imports).
    assert process.stderr is not None
    lines = [process.stderr.readline()]
    while "running (" not in lines[-1] and process.poll() is None:
        lines.append(process.stderr.readline())
    time.sleep(1)
    assert process.poll() is None, "".join(lines) + process.communicate()[1]
    assert not out.exists()
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    err = "".join(lines) + err
    assert process.returncode == 130, err
    assert "Traceback" not in err
    assert "--resume" in err
    done = read_header(out)["iterations"]
    assert done > 0
    assert [p.name for p in tmp_path.iterdir()] == ["s.bp"]  # no temporary file left
    assert main(["blueprint", "train", SMALL, "--out", str(out), "--resume",
                 "--iterations", str(done + 1000), "--json"]) == 0
    assert read_header(out)["iterations"] == done + 1000
