"""AIVAT for any match (issue 17 item 6): the method per game, known policies, `pokerlab match`."""

from __future__ import annotations

import json

import pytest

from pokerlab.agents import AlwaysCall, EasyAI, ExploitativeAgent, RandomAgent, RuleBased
from pokerlab.agents.hard_seed import HardSeedAI
from pokerlab.agents.policy_agent import PolicyAgent
from pokerlab.cli import main
from pokerlab.errors import PokerlabError
from pokerlab.eval import play_match
from pokerlab.eval.aivat import aivat_method, known_policy, match_aivat
from pokerlab.games import holdem, kuhn, leduc, load
from pokerlab.strategy import Strategy


def test_the_method_follows_the_game() -> None:
    assert aivat_method(kuhn()) == "exact"
    assert aivat_method(leduc()) == "exact"
    assert aivat_method(holdem(betting="limit")) == "equity"
    assert aivat_method(holdem(players=3)) == "equity"
    assert aivat_method(holdem(players=7)) is None


def test_known_policies() -> None:
    game = kuhn()
    assert known_policy(game, RuleBased(game)) is not None
    assert known_policy(game, object()) is None
    assert known_policy(game, ExploitativeAgent(game)) is None  # learns during the match
    assert known_policy(game, RuleBased(leduc())) is None  # a policy of another game
    limit = holdem(betting="limit")
    assert known_policy(limit, EasyAI(limit)) is not None
    assert known_policy(limit, HardSeedAI(limit)) is None  # its policy changes hand to hand


def test_every_policy_known_gives_the_exact_value() -> None:
    game = leduc()
    a, b = RuleBased(game), RandomAgent(game, seed=1)
    result = play_match(game, a, b, hands=200, seed=4)
    estimates = match_aivat(game, result, [a, b])
    assert estimates is not None
    assert result.exact_values is not None
    assert estimates[0].estimate.mean == pytest.approx(result.exact_values[0], abs=1e-12)
    assert estimates[0].estimate.std_error < 1e-12
    # Nothing known: chance terms only (V under a uniform profile), the mean stays near.
    unknown = match_aivat(game, result, [None, None])
    assert unknown is not None
    chance_only = unknown[0].estimate
    assert abs(chance_only.mean - result.exact_values[0]) < 4 * chance_only.std_error
    assert chance_only.std_error > 1e-3


def test_no_aivat_where_histories_cannot_be_valued() -> None:
    game = holdem(players=7, betting="limit")
    agents = [AlwaysCall(game) for _ in range(7)]
    result = play_match(game, *agents, hands=1, seed=0)
    assert match_aivat(game, result, agents) is None


def test_holdem_match_uses_exposed_policies() -> None:
    game = holdem(betting="limit")
    easy, call = EasyAI(game, seed=3), AlwaysCall(game)
    result = play_match(game, easy, call, hands=60, seed=2)
    estimates = match_aivat(game, result, [easy, call])
    assert estimates is not None
    assert estimates[0].estimate.mean == pytest.approx(-estimates[1].estimate.mean)
    assert estimates[0].variance_reduction > 1.0


def test_match_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "kuhn", "rule-based", "random", "--hands", "300", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    rows = out["agents"]
    assert [r["agent"] for r in rows] == ["rule-based", "random"]
    for row in rows:
        assert row["aivat"]["policy_known"] is True
        assert row["aivat"]["mean"] == pytest.approx(row["exact"], abs=1e-9)
        assert row["low"] < row["mean"] < row["high"]


def test_match_command_table_and_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    strategy = Strategy.uniform(load("kuhn"))
    assert PolicyAgent(strategy).policy is strategy
    assert main(["match", "kuhn", "random", "always-call", "--hands", "50"]) == 0
    text = capsys.readouterr().out
    assert "AIVAT" in text
    assert "exact" in text
    assert main(["match", "kuhn", "random", "--hands", "50"]) != 0
    assert "2 seats" in capsys.readouterr().err
    assert main(["match", "kuhn", "random", "nobody", "--hands", "50"]) != 0
    assert "unknown built-in" in capsys.readouterr().err
    assert main(["match", "kuhn", "random", "missing.npz"]) != 0
    assert "does not exist" in capsys.readouterr().err


class _Raiser:
    """No policy: always the last legal action."""

    name = "raiser"

    def act(self, observation: object) -> int:
        return int(observation.legal_actions[-1])  # type: ignore[attr-defined]


class _Liar(_Raiser):
    """Claims always-call's policy but raises: AIVAT must refuse it, not be biased by it."""

    name = "liar"

    def __init__(self) -> None:
        self.policy = AlwaysCall(leduc()).policy


def test_a_policy_that_is_not_played_is_refused() -> None:
    game = leduc()
    liar, raiser = _Liar(), _Raiser()
    result = play_match(game, liar, raiser, hands=20, seed=0)
    assert not result.sampled  # played through the dealer: act, not the policy
    with pytest.raises(PokerlabError, match="probability 0"):
        match_aivat(game, result, [liar, raiser])
    assert match_aivat(game, result, [None, raiser]) is not None
