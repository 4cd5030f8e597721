"""`pokerlab blueprint train`: budgets, Ctrl-C saves and resumes, clear refusals."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pokerlab.blueprint.store import read_header
from pokerlab.cli import main
from pokerlab.solvers import run_console
from tests.interrupts import InterruptAfter

SMALL = (
    'holdem(betting="limit", ranks=3, suits=2, hole=1, board="1", seat_blinds=(1, 1), '
    'raises="2,4", caps="2,2", first="0,0", stack=100)'
)
ROOT = Path(__file__).resolve().parents[2]


def test_train_interrupt_resume_reaches_the_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "small.bp"
    args = ["blueprint", "train", SMALL, "--out", str(out), "--iterations", "5000",
            "--chunk", "1000", "--json"]
    monkeypatch.setattr(run_console, "StopSignals", lambda: InterruptAfter(2))
    assert main(args) == 130
    assert read_header(out)["iterations"] == 2000
    assert "--resume" in capsys.readouterr().err
    monkeypatch.undo()
    assert main(args) == 1  # the file exists: no silent overwrite
    assert "pass --resume" in capsys.readouterr().err
    assert main([*args, "--resume"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["iterations"] == 5000
    assert summary["finished"]
    assert read_header(out)["iterations"] == 5000


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ([], "needs a budget"),
        (["--iterations", "10", "--buckets", "169,50"], "give 4 bucket counts"),
        (["--iterations", "10", "--buckets", "169,5,5,5"], "Texas Hold'em's cards"),
        (["--iterations", "10", "--bets", "50%,a"], "for no-limit games"),
    ],
)
def test_bad_options_are_refused_before_training(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    out = tmp_path / "x.bp"
    assert main(["blueprint", "train", SMALL, "--out", str(out), *extra]) == 1
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_float32_storage_is_kept_by_the_file_and_its_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "narrow.bp"
    args = ["blueprint", "train", SMALL, "--out", str(out), "--chunk", "1000", "--json"]
    assert main([*args, "--iterations", "2000", "--storage", "float32"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["storage"] == "float32"
    assert read_header(out)["storage"] == "float32"
    assert main(["blueprint", "info", str(out)]) == 0
    assert "storage: float32" in capsys.readouterr().out
    assert main([*args, "--iterations", "3000", "--resume", "--backend", "ray"]) == 1
    assert "holds float32 tables; Ray's rounds train float64" in capsys.readouterr().err
    assert main([*args, "--iterations", "3000", "--resume", "--storage", "float64"]) == 1
    assert "holds float32 tables; resume without --storage" in capsys.readouterr().err
    assert main([*args, "--iterations", "3000", "--resume"]) == 0
    assert json.loads(capsys.readouterr().out)["storage"] == "float32"
    assert read_header(out)["iterations"] == 3000
    assert main(["blueprint", "train", SMALL, "--out", str(tmp_path / "x.bp"),
                 "--iterations", "10", "--storage", "half"]) == 1
    assert "storage must be one of float64, float32; got 'half'" in capsys.readouterr().err


def test_the_card_blind_board_subset_is_not_offered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `--boards N` built tables for N canonical boards a street and bucket 0 on all others:
    # a blueprint blind to its cards after the flop. Users no longer get it.
    out = tmp_path / "x.bp"
    args = ["blueprint", "train", 'holdem(betting="limit")', "--out", str(out),
            "--buckets", "169,50,50,25", "--boards", "300", "--iterations", "10"]
    assert main(args) != 0
    assert "--boards" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.slow
def test_sigint_saves_and_a_resume_finishes(tmp_path: Path) -> None:
    out = tmp_path / "s.bp"
    command = [sys.executable, "-m", "pokerlab.cli", "blueprint", "train", SMALL, "--out",
               str(out), "--seconds", "120", "--chunk", "500", "--checkpoint-every", "1"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=ROOT)
    deadline = time.monotonic() + 60
    while not out.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    assert "--resume" in err
    done = read_header(out)["iterations"]
    assert done > 0
    assert [p.name for p in tmp_path.iterdir()] == ["s.bp"]
    assert main(["blueprint", "train", SMALL, "--out", str(out), "--resume",
                 "--iterations", str(done + 1000), "--json"]) == 0
    assert read_header(out)["iterations"] == done + 1000


def test_nolimit_trains_with_a_bet_menu(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "nl.bp"
    game = 'holdem(stack=40, ranks=4, suits=2, board="1")'
    assert main(["blueprint", "train", game, "--bets", "50%,100%,a", "--iterations",
                 "3000", "--out", str(out), "--json"]) == 0
    header = read_header(out)
    assert header["bet_menu"] == "50%,100%,a"
    assert header["rules"]["bet_menu"] == "50%,100%,a/50%,100%,a"  # the game has 2 streets
    assert header["rules"]["pot_fractions"] == []
    assert header["iterations"] == 3000
    assert main(["blueprint", "info", str(out)]) == 0
    assert "bet_menu: 50%,100%,a" in capsys.readouterr().out


def test_nolimit_trains_with_a_per_street_menu(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pokerlab.blueprint.store import load_blueprint

    out = tmp_path / "nl.bp"
    game = 'holdem(stack=40, ranks=4, suits=2, board="1")'
    assert main(["blueprint", "train", game, "--bets", "2.5x,a/33%,75%", "--iterations",
                 "2000", "--out", str(out), "--json"]) == 0
    capsys.readouterr()
    assert main(["blueprint", "info", str(out)]) == 0
    text = capsys.readouterr().out
    assert "bet_menu: 2.5x,a/33%,75%" in text
    assert "bet_menu_by_street: preflop 2.5x,a; flop 33%,75%" in text
    trainer, _ = load_blueprint(out)
    tree = trainer.tree
    root = [int(tree.raise_to[0, j]) for j in range(int(tree.n_actions[0]))
            if tree.action_kind[0, j] == 2]
    assert root == [5, 40]  # 2.5 big blinds, all-in
    assert main(["blueprint", "train", game, "--bets", "2.5x,a/33%/a", "--iterations",
                 "10", "--out", str(tmp_path / "bad.bp")]) != 0
    assert "gives 3 lists separated by '/'; the game has 2 streets (preflop/flop)" in (
        capsys.readouterr().err)


def test_three_handed_no_limit_trains_and_shows_its_tree_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pokerlab.blueprint.betting_tree import tree_size
    from pokerlab.blueprint.nolimit import rules_for
    from pokerlab.games import load

    game = 'holdem(players=3, stack=20, ranks=4, suits=2, hole=1, board="1")'
    out = tmp_path / "three.bp"
    assert main(["blueprint", "train", game, "--bets", "100%,a", "--iterations", "200",
                 "--out", str(out)]) == 0
    size = tree_size(rules_for(load(game), "100%,a"))
    assert size.n_players == 3
    assert f"betting tree: {size.n_nodes:,} nodes, {size.n_decisions:,} decisions" in (
        capsys.readouterr().err)
    assert read_header(out)["iterations"] == 200


def test_the_tables_memory_is_shown_before_the_card_tables_are_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import pokerlab.blueprint.cards as blueprint_cards
    from pokerlab.blueprint.betting_tree import tree_size
    from pokerlab.blueprint.mccfr import check_tables
    from pokerlab.blueprint.nolimit import rules_for
    from pokerlab.games import load
    from pokerlab.solvers.run_console import format_bytes

    class CardTablesStartedError(Exception):
        pass

    def stop(*args: object, **kwargs: object) -> None:
        raise CardTablesStartedError

    monkeypatch.setattr(blueprint_cards, "load_or_build", stop)
    game = 'holdem(betting="limit")'
    with pytest.raises(CardTablesStartedError):
        main(["blueprint", "train", game, "--buckets", "169,8,8,8", "--storage", "float32",
              "--seconds", "5", "--out", str(tmp_path / "x.bp")])
    tables = check_tables(tree_size(rules_for(load(game), None)), [169, 8, 8, 8],
                          storage="float32")
    assert f"tables: {format_bytes(tables)} of float32 (regrets" in capsys.readouterr().err


def test_tables_over_the_limit_are_refused_before_the_card_tables_are_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # three-handed limit Texas Hold'em with the default buckets: 485,601,010 rows (23 GB
    # of tables); the clustered card tables (minutes to build) must not be started first
    import pokerlab.blueprint.cards as blueprint_cards

    def no_build(*args: object, **kwargs: object) -> None:
        raise AssertionError("the card tables were built before the memory check")

    monkeypatch.setattr(blueprint_cards, "load_or_build", no_build)
    out = tmp_path / "three.bp"
    assert main(["blueprint", "train", 'holdem(players=3, betting="limit")', "--buckets",
                 "169,50,50,50", "--seconds", "5", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "betting tree: 23,937,308 nodes, 9,711,806 decisions" in err
    assert "the blueprint's tables need 23,309 MB in float64 (485,601,010 rows" in err
    assert "float32 tables (--storage float32: 11,654 MB)" in err
    assert "POKERLAB_MEMORY_LIMIT" in err
    assert not out.exists()
