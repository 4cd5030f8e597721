"""`pokerlab match` reports a searching agent's decision times per street and its budget.

On these small games, which compile, the times include the decisions the match's exact
evaluation asked for; on Texas Hold'em only those of play.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from pokerlab.agents.hard import train_default_blueprint
from pokerlab.cli import main
from pokerlab.games import load
from tests.agents.test_search_policy import LEDUC_AS_HOLDEM

SMALL = LEDUC_AS_HOLDEM  # a limit Hold'em small enough to train and search in seconds


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A cache holding the small game's default blueprint (trained once for the module)."""
    folder = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("POKERLAB_CACHE", str(folder))
        train_default_blueprint(load(SMALL), show_progress=False)
        yield folder


def test_a_match_reports_the_searchers_decision_times_per_street(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["match", SMALL, "hard-search@250ms", "hard", "--hands", "30", "--seed", "3",
                 "--json"]) == 0
    rows = {row["spec"]: row for row in json.loads(capsys.readouterr().out)["agents"]}
    assert "decision_seconds" not in rows["hard"]  # the blueprint does not search
    times = rows["hard-search@250ms"]["decision_seconds"]
    assert times["budget"] == 0.25
    streets = times["streets"]
    assert "1" in streets  # the last street of this game is searched
    river = streets["1"]
    assert 0 < river["searched"] <= river["decisions"]
    assert 0 < river["median"] <= river["p95"] <= river["max"]
    assert 0 <= river["over_budget"] <= river["decisions"]
    assert streets["0"]["searched"] == 0  # preflop: the blueprint's answers, worked out


def test_the_text_output_says_the_decision_times_and_the_budget(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["match", SMALL, "hard", "hard-search+20", "--hands", "10", "--seed", "4"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "hard-search decided: preflop " in out
    assert "; flop " in out  # this game's board street, searched
    assert "searched): median " in out
    assert "over 1.2 x" not in out  # an iteration budget has no clock to be over
