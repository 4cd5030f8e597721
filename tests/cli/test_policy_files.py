"""Every file a pokerlab command saves a strategy to is read by every command that reads one.

Issue 26 item 2: each writer runs with a tiny budget, and its file is then accepted by
``show``, by ``exploit`` (exactly where the game compiles; else one line naming ``pokerlab
lbr``), by ``match`` and ``arena run`` as an agent, and by ``play`` where a terminal game
of its kind exists. The commands run in this process (``main``), as a user types them.
"""

from __future__ import annotations

import io
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from pokerlab.cli import main

LIMIT_HOLDEM = 'holdem(betting="limit")'


@dataclass(frozen=True)
class Writer:
    """A command that writes a policy file, the game it is for, and what reads it back."""

    name: str
    game: str
    suffix: str
    argv: tuple[str, ...]  # OUT stands for the file
    play: str | None = None  # the `pokerlab play` game, if any
    exact: bool = True  # whether exploit measures it exactly


WRITERS = (
    Writer("solve-cfr", "kuhn", ".npz", ("solve", "kuhn", "--algorithm", "cfr",
                                          "--iterations", "10", "--out", "OUT"), play="kuhn"),
    Writer("solve-es-mccfr-holdem", LIMIT_HOLDEM, ".npz",
           ("solve", LIMIT_HOLDEM, "--algorithm", "es-mccfr", "--iterations", "20", "--seed",
            "1", "--out", "OUT"), exact=False),
    Writer("abstract", "leduc", ".npz", ("abstract", "leduc", "--cards", "uniform:2",
                                          "--iterations", "20", "--out", "OUT"), play="leduc"),
    Writer("blueprint-leduc", "leduc", ".bp", ("blueprint", "train", "leduc", "--iterations",
                                               "200", "--out", "OUT"), play="leduc"),
    Writer("solve-rhode-island", "rhode_island(ranks=2, suits=2)", ".npz",
           ("solve", "rhode_island(ranks=2, suits=2)", "--iterations", "3", "--out", "OUT")),
    Writer("solve-deep-cfr", "kuhn", ".pt", ("solve", "kuhn", "--algorithm", "deep-cfr",
                                              "--iterations", "1", "--out", "OUT"), play="kuhn"),
)


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each writer's file (written once for the module); a writer that needs torch is
    left out where torch is missing."""
    folder = tmp_path_factory.mktemp("policy-files")
    files: dict[str, Path] = {}
    for writer in WRITERS:
        if writer.suffix == ".pt":
            try:
                import torch  # noqa: F401
            except ImportError:
                continue
        out = folder / f"{writer.name}{writer.suffix}"
        argv = [str(out) if word == "OUT" else word for word in writer.argv]
        assert main(argv) == 0, writer.name
        assert out.is_file(), writer.name
        files[writer.name] = out
    return files


def _file(written: dict[str, Path], writer: Writer) -> Path:
    if writer.name not in written:
        pytest.importorskip("torch")  # the one writer that needs an optional extra
    return written[writer.name]


IDS = [w.name for w in WRITERS]


@pytest.mark.slow
@pytest.mark.parametrize("writer", WRITERS, ids=IDS)
def test_show_reads_every_file(writer: Writer, written: dict[str, Path],
                               capsys: pytest.CaptureFixture[str]) -> None:
    path = _file(written, writer)
    assert main(["show", str(path)]) == 0
    out = capsys.readouterr().out
    assert "infoset" in out  # a table of rows by infoset key
    assert main(["show", str(path), "--csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("infoset,")
    assert len(lines) > 3


@pytest.mark.slow
@pytest.mark.parametrize("writer", WRITERS, ids=IDS)
def test_exploit_measures_or_names_the_command_that_does(
        writer: Writer, written: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    path = _file(written, writer)
    code = main(["exploit", str(path), "--json"])
    captured = capsys.readouterr()
    if writer.exact:
        assert code == 0, captured.err
        import json

        data = json.loads(captured.out)
        assert data["exploitability"] > 0  # a few iterations: far from an equilibrium
        assert len(data["best_response_values"]) == 2
    else:
        assert code != 0
        message = captured.err.strip()
        assert len(message.splitlines()) == 1
        assert "too big to compile" in message
        assert f"pokerlab lbr {path}" in message


@pytest.mark.slow
@pytest.mark.parametrize("writer", WRITERS, ids=IDS)
def test_match_and_arena_play_every_file(writer: Writer, written: dict[str, Path],
                                         tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = _file(written, writer)
    assert main(["match", writer.game, str(path), "random", "--hands", "4", "--no-aivat",
                 "--json"]) == 0  # JSON: a narrow terminal folds a long name in the table
    assert path.stem in [a["agent"] for a in json.loads(capsys.readouterr().out)["agents"]]
    agents = tmp_path / "agents"
    agents.mkdir()
    (agents / path.name).write_bytes(path.read_bytes())
    db = tmp_path / "arena.db"
    assert main(["arena", "run", writer.game, "--agents", str(agents), "--builtins", "random",
                 "--hands", "4", "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["arena", "leaderboard", "--db", str(db), "--json"]) == 0
    assert path.stem in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.parametrize("writer", [w for w in WRITERS if w.play], ids=[w.name for w in WRITERS
                                                                         if w.play])
def test_play_takes_every_file_of_its_game(writer: Writer, written: dict[str, Path],
                                           monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = _file(written, writer)
    assert writer.play is not None
    monkeypatch.setattr(sys, "stdin", io.StringIO("c\n" * 60))
    assert main(["play", writer.play, "--opponent", str(path), "--hands", "2", "--seed",
                 "1"]) == 0
    assert "After 2 hands" in capsys.readouterr().out


def test_a_file_for_another_game_is_refused_by_name(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "k.npz"
    assert main(["solve", "kuhn", "--algorithm", "cfr", "--iterations", "5", "--out",
                 str(out)]) == 0
    capsys.readouterr()
    assert main(["match", "leduc", str(out), "random", "--hands", "4"]) == 1
    assert "for kuhn, not for leduc" in capsys.readouterr().err


def test_a_spot_checkpoint_names_the_command_that_reads_it(tmp_path: Path) -> None:
    from pokerlab.agents.policy_files import read_policy_file
    from pokerlab.errors import SpecError
    from pokerlab.solvers.checkpoint import write_checkpoint

    path = write_checkpoint(tmp_path / "spot.npz", {"source": {"kind": "spot", "spot": {}}},
                            {}, kind="range")
    with pytest.raises(SpecError, match="pokerlab spot show"):
        read_policy_file(path)


def test_a_solver_checkpoint_is_read_as_its_average_strategy(tmp_path: Path) -> None:
    from pokerlab.agents.policy_files import read_policy_file
    from pokerlab.games import leduc
    from pokerlab.solvers import CFRPlus

    solver = CFRPlus(leduc())
    solver.run(iterations=5)
    path = tmp_path / "leduc.checkpoint.npz"
    solver.save_checkpoint(path)
    found = read_policy_file(path, leduc())
    assert found.kind == "checkpoint"
    expected = solver.average_strategy()
    assert (found.policy.probs == expected.probs).all()  # type: ignore[attr-defined]
