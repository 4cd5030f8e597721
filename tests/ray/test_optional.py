"""Ray is optional: nothing imports it unless asked, and its absence is one clear line."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from pokerlab.blueprint.ray_backend import require_ray, train_blueprint
from pokerlab.cli import main
from pokerlab.errors import PokerlabError
from pokerlab.games import leduc

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import runpy, sys
import pokerlab, pokerlab.arena, pokerlab.arena.ray_backend, pokerlab.blueprint.ray_backend
for argv in (["--help"], ["arena", "run", "--help"]):
    sys.argv = ["pokerlab", *argv]
    try:
        runpy.run_module("pokerlab.cli", run_name="__main__")
    except SystemExit:
        pass
print("RAY MODULES", sorted(m for m in sys.modules if m == "ray" or m.startswith("ray.")))
"""


RUN_LOCALLY = """
import sys
from pokerlab.cli import main
out = sys.argv[1]
assert main(["blueprint", "train", "leduc", "--out", out + "/a.bp", "--iterations", "300",
             "--json"]) == 0
assert main(["arena", "run", "kuhn", "--builtins", "random,always-call", "--hands", "20",
             "--db", out + "/a.db"]) == 0
print("RAY MODULES", sorted(m for m in sys.modules if m == "ray" or m.startswith("ray.")))
"""


def test_local_training_and_tournament_do_not_import_ray(tmp_path) -> None:
    done = subprocess.run([sys.executable, "-c", RUN_LOCALLY, str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=240, check=False,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
                               "HOME": str(tmp_path), "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    assert '"iterations": 300' in done.stdout  # the blueprint trained
    assert (tmp_path / "a.bp").exists()
    assert (tmp_path / "a.db").exists()  # the tournament stored its hands
    assert "RAY MODULES []" in done.stdout


def test_nothing_imports_ray_without_the_backend() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
                               "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    assert "--backend" in done.stdout  # the help was printed
    assert "RAY MODULES []" in done.stdout


@pytest.fixture
def without_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "ray" or m.startswith("ray.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError


@pytest.mark.usefixtures("without_ray")
def test_without_ray_the_error_names_the_extra(tmp_path, capsys) -> None:
    with pytest.raises(Exception, match=r"pip install 'pokerlab\[ray\]'") as error:
        require_ray()
    assert "\n" not in str(error.value)
    with pytest.raises(Exception, match=r"pokerlab\[ray\]"):
        train_blueprint(leduc(), iterations=10)
    rc = main(["arena", "run", "kuhn", "--builtins", "random,always-call", "--hands", "5",
               "--db", str(tmp_path / "a.db"), "--backend", "ray"])
    err = capsys.readouterr().err
    assert rc == 1
    assert "pip install 'pokerlab[ray]'" in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "a.db").exists()  # said before anything was recorded


def test_backend_options_are_checked(tmp_path, capsys) -> None:
    rc = main(["arena", "run", "kuhn", "--builtins", "random,always-call", "--db",
               str(tmp_path / "a.db"), "--workers", "2"])
    assert rc == 1
    assert "--address and --workers go with --backend ray" in capsys.readouterr().err
    rc = main(["arena", "run", "kuhn", "--builtins", "random,always-call", "--db",
               str(tmp_path / "a.db"), "--backend", "spark"])
    assert rc == 1
    assert "--backend must be local or ray; got 'spark'" in capsys.readouterr().err
    assert not (tmp_path / "a.db").exists()


def test_an_address_nothing_listens_on_is_refused_at_once(monkeypatch) -> None:
    import ray

    monkeypatch.setattr(ray, "is_initialized", lambda: False)  # as in a fresh process
    with socket.socket() as probe:  # a port that was free a moment ago
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(PokerlabError, match=f"cannot reach a Ray cluster at --address "
                                            f"'127.0.0.1:{port}'"):
        train_blueprint(leduc(), iterations=10, address=f"127.0.0.1:{port}")
    with pytest.raises(PokerlabError, match="--address must be auto or HOST:PORT"):
        train_blueprint(leduc(), iterations=10, address="nowhere")
