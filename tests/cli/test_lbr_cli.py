"""`pokerlab lbr`: the JSON a user relies on, and one-line errors."""

from __future__ import annotations

import json

import pytest

from pokerlab.abstraction.lbr_actions import lbr_raises
from pokerlab.cli import main
from pokerlab.eval.lbr import run_lbr
from pokerlab.games.holdem import holdem
from pokerlab.strategy.policy import FunctionPolicy


def test_lbr_json_matches_the_library(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lbr", "always-call", "--hands", "4", "--seed", "2", "--rollouts", "8",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    game = holdem(betting="limit")
    call = FunctionPolicy(game, lambda o: {1: 1.0}, name="call")
    expected = run_lbr(game, call, 4, seed=2, rollouts=8)
    assert data["hands"] == 4
    assert data["mbb_per_hand"] == pytest.approx(expected.mbb_per_hand)
    assert data["ci95"] == pytest.approx(expected.ci95)


def test_lbr_refined_json_names_its_variant_and_interval(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["lbr", "always-call", "--hands", "4", "--seed", "2", "--rollouts", "8",
                 "--variant", "refined", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    game = holdem(betting="limit")
    call = FunctionPolicy(game, lambda o: {1: 1.0}, name="call")
    expected = run_lbr(game, call, 4, seed=2, rollouts=8, variant="refined",
                       raises=lbr_raises("FC/FCPA/FCPA/FCPA", game))
    assert data["variant"] == "refined"
    assert data["actions"] == "FC/FCPA/FCPA/FCPA"
    assert data["mbb_per_hand"] == pytest.approx(expected.mbb_per_hand)
    assert data["interval"] == pytest.approx(
        [expected.mbb_per_hand - expected.ci95, expected.mbb_per_hand + expected.ci95])


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["lbr", "nosuch", "--hands", "2"], "unknown built-in agent"),
        (["lbr", "random", "--game", "kuhn", "--hands", "2"], "heads-up Hold'em"),
        (["lbr", "random", "--hands", "3"], "even"),
        (["lbr", "random", "--hands", "2", "--variant", "best"], "paper, refined"),
        (["lbr", "random", "--game", "holdem()", "--hands", "2", "--actions", "FC/FCP"],
         "one per street"),
    ],
)
def test_lbr_bad_input_is_one_line(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert needle in err
