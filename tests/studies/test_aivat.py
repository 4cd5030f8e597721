"""AIVAT with action terms (issue 17 item 6): exact unbiasedness, zero variance if all known."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from pokerlab.agents.policy_agent import PolicyAgent
from pokerlab.errors import PokerlabError
from pokerlab.eval import expected_value, play_match
from pokerlab.eval.aivat import aivat_corrections, aivat_estimates, exact_aivat_mean
from pokerlab.games import Game, kuhn, leduc, load
from pokerlab.strategy import Strategy
from pokerlab.studies.aivat_study import aivat_study
from pokerlab.tree import compile


def _random_strategy(game: Game, seed: int) -> Strategy:
    tree = compile(game)
    probs = np.random.default_rng(seed).random((tree.n_infosets, tree.max_actions))
    return Strategy.from_array(game, probs * tree.legal_mask, normalize=True)


@pytest.mark.parametrize("game", [kuhn(), leduc(), load("kuhn", players=3)], ids=str)
def test_every_known_subset_is_unbiased(game: Game) -> None:
    tree = compile(game)
    n = game.n_players
    seats = [_random_strategy(game, seed) for seed in range(n)]
    played = np.zeros((tree.n_infosets, tree.max_actions))
    for seat, strategy in enumerate(seats):
        rows = tree.infosets_of(seat)
        played[rows] = strategy.probs[rows]
    exact = np.array(expected_value(game, seats))
    reference = _random_strategy(game, 99).probs  # V from an unrelated profile: still unbiased
    for mask in itertools.product((False, True), repeat=n):
        known = [played if k else None for k in mask]
        corrections = aivat_corrections(tree, reference, known)
        np.testing.assert_allclose(exact_aivat_mean(tree, played, corrections), exact, atol=1e-12)
        if any(mask):
            assert np.abs(corrections[tree.terminal_ids]).max() > 1e-3  # the terms are not 0


def test_a_wrong_known_policy_biases_the_estimate() -> None:
    game = leduc()
    tree = compile(game)
    truth, claimed = _random_strategy(game, 1), _random_strategy(game, 2)
    corrections = aivat_corrections(tree, truth.probs, [truth.probs, claimed.probs])
    exact = np.array(expected_value(game, [truth, truth]))
    assert np.abs(exact_aivat_mean(tree, truth.probs, corrections) - exact).max() > 1e-3


def test_all_known_gives_the_exact_value_every_hand() -> None:
    game = leduc()
    a, b = _random_strategy(game, 3), _random_strategy(game, 4)
    result = play_match(game, PolicyAgent(a, name="a"), PolicyAgent(b, name="b"), hands=300, seed=2)
    estimate = aivat_estimates(game, result, [a, b])[0].estimate
    assert result.exact_values is not None
    assert estimate.mean == pytest.approx(result.exact_values[0], abs=1e-12)
    assert estimate.std_error < 1e-12


def test_agents_with_a_policy_can_be_given_directly() -> None:
    game = kuhn()
    bot, other = _random_strategy(game, 5), _random_strategy(game, 6)
    agent = PolicyAgent(bot, name="bot")
    result = play_match(game, agent, PolicyAgent(other, name="other"), hands=200, seed=1)
    by_agent = aivat_estimates(game, result, [agent, None])[0]
    by_policy = aivat_estimates(game, result, [bot, None])[0]
    assert by_agent.estimate.mean == pytest.approx(by_policy.estimate.mean, abs=1e-12)
    with pytest.raises(PokerlabError, match="exposes no policy"):
        aivat_estimates(game, result, [object(), None])


def test_one_side_known_in_a_match() -> None:
    rows = aivat_study([leduc()], opponents=("cfr+10",), hands=3000, seed=5, bot_iterations=300)
    row = rows[0]
    assert abs(row.aivat_mean - row.exact) < 4 * row.aivat_se
    assert abs(row.bias_known_bot) < 1e-12
    assert abs(row.bias_both) < 1e-12
    # Correcting the bot's own actions as well as chance removes more variance than chance alone.
    assert row.aivat_reduction > row.chance_reduction > 1.0
    assert row.full_mean == pytest.approx(row.exact, abs=1e-9)


def test_bad_input() -> None:
    game = kuhn()
    tree = compile(game)
    uniform = Strategy.uniform(game)
    with pytest.raises(PokerlabError, match="one entry per seat"):
        aivat_corrections(tree, uniform.probs, [None])
    result = play_match(game, PolicyAgent(uniform), PolicyAgent(uniform), hands=10, seed=0)
    with pytest.raises(PokerlabError, match="one entry per agent"):
        aivat_estimates(game, result, [uniform])
    with pytest.raises(PokerlabError, match="known policy or a reference"):
        aivat_estimates(game, result, [None, None])
    with pytest.raises(PokerlabError, match="played on kuhn"):
        aivat_estimates(leduc(), result, [None, None])


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from pokerlab.cli import main

    assert main(["study", "aivat", "--hands", "200", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 6
    assert all(abs(r["bias_known_bot"]) < 1e-12 for r in rows)
