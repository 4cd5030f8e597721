"""What the commands print: paths whole at any width, pure JSON, counts that agree.

The path checks run the CLI in a subprocess with COLUMNS=40, as a narrow terminal would,
under a folder whose name alone is far wider than that.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pokerlab.cli import main
from pokerlab.cli._common import plural

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def long_folder(tmp_path: Path) -> Path:
    folder = tmp_path / ("a-folder-name-much-wider-than-the-terminal-" * 3) / "and-deeper"
    folder.mkdir(parents=True)
    assert len(str(folder)) > 160
    return folder


def _narrow(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PYTHONPATH": path, "COLUMNS": "40"}
    return subprocess.run(
        [sys.executable, "-m", "pokerlab.cli", *argv],
        capture_output=True, text=True, env=env, cwd=cwd, timeout=300, check=False,
    )


def test_paths_on_stderr_are_never_broken(long_folder: Path, tmp_path: Path) -> None:
    agents = long_folder / "agents"
    agents.mkdir()
    (agents / "caller.py").write_text(
        "class Agent:\n    def act(self, observation):\n        return 1\n"
    )
    (agents / "broken.py").write_text("raise ImportError('missing dependency')\n")
    db = long_folder / "arena.db"
    done = _narrow(["arena", "run", "kuhn", "--agents", str(agents), "--builtins", "random",
                    "--hands", "10", "--db", str(db)], tmp_path)
    assert done.returncode == 0, done.stderr
    assert str(agents / "broken.py") in done.stderr  # "left out <path>: ..."
    assert str(db) in done.stderr  # "stored in <path>"


@pytest.mark.parametrize(
    "argv",
    [
        ["exploit", "{folder}/missing.npz"],
        ["show", "{folder}"],
        ["abstract", "kuhn", "--out", "{folder}"],
        ["plot", "regret-matching", "--out", "{folder}"],
        ["lp", "{folder}/missing.csv"],
        ["demo", "--out", "{folder}/file.txt"],
        ["plot", "convergence", "kuhn", "--out", "{folder}/file.txt/plot.png"],
    ],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_errors_name_the_whole_path_on_one_line(
    argv: list[str], long_folder: Path, tmp_path: Path
) -> None:
    (long_folder / "file.txt").write_text("not a folder\n")
    done = _narrow([a.format(folder=long_folder) for a in argv], tmp_path)
    assert done.returncode == 1
    assert done.stderr.startswith("error: ")
    assert done.stderr.count("\n") == 1
    assert str(long_folder) in done.stderr
    assert done.stdout == ""


def test_paths_on_stdout_are_never_broken(long_folder: Path, tmp_path: Path) -> None:
    out = long_folder / "[best]" / "rm.png"  # brackets: rich markup must not eat them
    done = _narrow(["plot", "regret-matching", "--iterations", "20", "--out", str(out)], tmp_path)
    assert done.returncode == 0, done.stderr
    assert out.is_file()
    assert f"wrote {out}\n" in done.stdout


# --------------------------------------------------------------------------------------
# --json prints JSON and nothing else on stdout


@pytest.fixture(scope="module")
def kuhn_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("json") / "kuhn.npz"
    assert main(["solve", "kuhn", "--algorithm", "lp", "--out", str(path)]) == 0
    return path


@pytest.mark.parametrize(
    "argv",
    [
        ["games", "list"],
        ["games", "info", "kuhn"],
        ["matrix", "solve", "battle_of_sexes"],
        ["matrix", "regret-matching", "rps", "--iterations", "100"],
        ["lp", "kuhn"],
        ["abstract", "kuhn(cards=12)", "--cards", "uniform:3", "--iterations", "30"],
        ["abstract", "kuhn(cards=12)", "--cards", "optimized:3", "--search-evaluations", "3",
         "--algorithm", "lp"],
        ["exploit", "{kuhn}"],
        ["value", "{kuhn}"],
        ["show", "{kuhn}"],
        ["equity", "AsKs", "QdQh", "--board", "2c7dTh"],
    ],
    ids=lambda argv: " ".join(argv[:3]),
)
def test_json_is_all_that_stdout_gets(
    argv: list[str], kuhn_file: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    capfd.readouterr()
    assert main([a.format(kuhn=kuhn_file) for a in argv] + ["--json"]) == 0
    captured = capfd.readouterr()
    json.loads(captured.out)  # the whole of stdout parses
    assert captured.err == ""  # no progress bar either


# --------------------------------------------------------------------------------------
# counts agree with their nouns


def test_plural() -> None:
    assert plural(1, "hand") == "1 hand"
    assert plural(0, "hand") == "0 hands"
    assert plural(2, "seat") == "2 seats"
    assert plural(1_000, "iteration") == "1,000 iterations"
    assert plural(1, "match") == "1 match"
    assert plural(3, "match") == "3 matches"
    assert plural(2, "box") == "2 boxes"
    assert plural(2, "history") == "2 histories"
    assert plural(2, "key") == "2 keys"
    assert plural(2, "analysis", "analyses") == "2 analyses"
    assert plural(1, "analysis", "analyses") == "1 analysis"


def test_one_iteration_is_singular(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["matrix", "regret-matching", "rps", "--iterations", "1"]) == 0
    out = capsys.readouterr().out
    assert "1 iteration" in out
    assert "1 iterations" not in out


@pytest.mark.slow
def test_sigterm_stops_any_command_cleanly(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "lifted.npz"
    process = subprocess.Popen(
        [sys.executable, "-m", "pokerlab.cli", "abstract", "kuhn(cards=400)", "--cards",
         "optimized:20", "--search-evaluations", "100000", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert process.stderr is not None
    first = process.stderr.readline()  # off a terminal each stage says when it starts
    assert first.startswith("searching buckets..."), first
    time.sleep(1)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "interrupted" in err
    assert "Traceback" not in err
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []  # nothing half written


class _InterruptedInCompiledCode:
    """A command whose Ctrl-C landed inside a numba call: a SystemError from the interrupt."""

    def main(self, **kwargs: object) -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise SystemError("CPUDispatcher returned a result with an exception set") from exc


class _BrokenCompiledCode:
    def main(self, **kwargs: object) -> None:
        raise SystemError("a real internal error")


def test_an_interrupt_inside_compiled_code_is_an_interruption(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from pokerlab.cli import _run

    assert _run(_InterruptedInCompiledCode(), []) == 130  # type: ignore[arg-type]
    assert capsys.readouterr().err == "interrupted\n"
    with pytest.raises(SystemError, match="a real internal error"):
        _run(_BrokenCompiledCode(), [])  # type: ignore[arg-type]
