"""`pokerlab bots prepare hard`: the Hard AI's blueprint built ahead of time, saying what and
what it costs; its first use without it says so too, and nothing else needs preparing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pokerlab.agents import hard
from pokerlab.agents.hard import (
    HardAI,
    default_blueprint_path,
    default_blueprint_ready,
    preparation_plan,
    train_default_blueprint,
)
from pokerlab.cli import main
from pokerlab.games import load

SMALL = ('holdem(betting="limit", ranks=3, suits=2, hole=1, board="1", seat_blinds=(1, 1), '
         'raises="2,4", caps="2,2", first="0,0", stack=100)')


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("POKERLAB_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_prepare_builds_the_blueprint_once_and_the_hard_ai_then_loads_it(
    cache: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = load(SMALL)
    assert not default_blueprint_ready(game)
    assert main(["bots", "prepare", "hard", "--game", SMALL]) == 0
    captured = capsys.readouterr()
    assert "train 300,000 iterations" in captured.err  # the plan, before the work
    assert f"hard is ready for {game.spec} (prepared in" in " ".join(captured.out.split())
    path = default_blueprint_path(game)
    assert path.parent == cache / "bots"
    assert path.exists()
    assert default_blueprint_ready(game)
    assert main(["bots", "prepare", "hard-search", "--game", SMALL, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["built"], data["blueprint"]) == (False, str(path))

    def no_training(*args: object, **kwargs: object) -> Path:
        raise AssertionError("a prepared Hard AI trained again")

    monkeypatch.setattr(hard, "train_default_blueprint", no_training)
    assert HardAI(game).blueprint_path == path


def test_a_first_use_says_what_it_builds_and_how_to_do_it_ahead(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = load(SMALL)
    train_default_blueprint(game)
    err = " ".join(capsys.readouterr().err.split())
    assert f"the Hard AI's default blueprint for {game.spec} is not prepared" in err
    assert "pokerlab bots prepare hard --game" in err
    assert "train 300,000 iterations" in err
    train_default_blueprint(load(SMALL.replace("stack=100", "stack=90")), show_progress=False)
    assert capsys.readouterr().err == ""


def test_the_texas_plan_names_the_tables_and_their_cost(cache: Path) -> None:
    plan = preparation_plan(load("holdem"))
    assert plan[0].startswith(f"build the 169/50/50/50 card tables into {cache / 'abstraction'}")
    assert "2.5 GB" in plan[0]
    assert plan[1].startswith("train 2,000,000 iterations")


def test_only_the_hard_ai_needs_preparing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bots", "prepare", "easy"]) != 0
    error = capsys.readouterr().err
    assert "nothing to prepare for 'easy': only hard, hard-search, hard-offmenu" in error


@pytest.mark.parametrize(("spec", "says"), [
    ("holdem(ante=1)", "no-limit blueprints take no antes"),
    ('holdem(betting="limit",stack=40)', "stacks above 48 chips"),
    ("holdem(stack=" + "1" + "0" * 26 + ")", "its betting tree cannot be built"),
])
def test_a_game_it_cannot_train_is_refused_before_any_table_is_built(
    cache: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    spec: str, says: str,
) -> None:
    # (A review found these refused only after the 90 s card tables, or by a traceback.)
    def no_tables(*args: object, **kwargs: object) -> None:
        raise AssertionError("card tables were built for a game that cannot train")

    monkeypatch.setattr(hard, "cards_from_spec", no_tables)
    assert main(["bots", "prepare", "hard", "--game", spec]) == 1
    err = capsys.readouterr().err
    assert says in err
    assert "Traceback" not in err
    assert "train " not in err  # refused before the plan
