from __future__ import annotations

import numpy as np
import pytest

from pokerlab.agents import AlwaysCall, AlwaysRaise, PolicyAgent, RandomAgent, RuleBased
from pokerlab.errors import PokerlabError, StrategyMismatchError
from pokerlab.eval.matches import play_match
from pokerlab.games import kuhn, leduc
from pokerlab.strategy import Strategy


def _observations(game):
    """One observation per infoset (the first history reaching it)."""
    seen = {}
    stack = [game.initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal:
            continue
        if state.player >= 0:
            obs = state.observation()
            seen.setdefault(obs.infoset_key, obs)
        stack.extend(child for _, child in state.children())
    return seen


@pytest.mark.parametrize("game", [kuhn(), leduc()], ids=["kuhn", "leduc"])
@pytest.mark.parametrize("cls", [AlwaysCall, AlwaysRaise])
def test_pure_agents_match_their_strategy(game, cls) -> None:
    strategy = cls().as_strategy(game)
    agent = cls()
    for key, obs in _observations(game).items():
        probs = strategy.probabilities(key)
        assert probs[agent.act(obs)] == 1.0


def test_always_call_never_folds_or_raises() -> None:
    for obs in _observations(leduc()).values():
        name = obs.action_names[obs.legal_actions.index(AlwaysCall().act(obs))]
        assert name in ("check", "call")
        raised = obs.action_names[obs.legal_actions.index(AlwaysRaise().act(obs))]
        assert raised in ("bet", "raise") or "raise" not in obs.action_names


def test_random_agent_is_legal_and_seeded() -> None:
    observations = list(_observations(leduc()).values())
    one, two = RandomAgent(seed=3), RandomAgent(seed=3)
    picks = [one.act(obs) for obs in observations]
    assert picks == [two.act(obs) for obs in observations]
    assert all(a in obs.legal_actions for a, obs in zip(picks, observations, strict=True))
    one.seed(5)
    two.seed(5)
    assert [one.act(o) for o in observations] == [two.act(o) for o in observations]


def test_rule_based_on_kuhn() -> None:
    observations = _observations(kuhn())
    agent = RuleBased()
    # bets the A, checks the K and the Q
    assert agent.act(observations["A|"]) == 1
    assert agent.act(observations["K|"]) == 0
    assert agent.act(observations["Q|"]) == 0
    # facing a bet: calls with the K, folds the Q
    assert agent.act(observations["K|pb"]) == 1
    assert agent.act(observations["Q|pb"]) == 0
    assert agent.act(observations["Q|b"]) == 0


def test_rule_based_on_leduc_raises_pairs() -> None:
    agent = RuleBased()
    for key, obs in _observations(leduc()).items():
        parts = key.split("|")
        if len(parts) == 4 and parts[0] == parts[1] == "J" and "raise" in obs.action_names:
            name = obs.action_names[obs.legal_actions.index(agent.act(obs))]
            assert name in ("bet", "raise")


def test_rule_based_rejects_bad_thresholds() -> None:
    with pytest.raises(PokerlabError, match="call_at"):
        RuleBased(raise_at=0.2, call_at=0.5)


def test_rule_based_beats_random_on_leduc() -> None:
    result = play_match(leduc(), RuleBased(), RandomAgent(), hands=400, seed=0)
    assert result.estimate.low > 0


def test_policy_agent_samples_the_rows() -> None:
    game = kuhn()
    rows = {"A|": [0.25, 0.75]}
    agent = PolicyAgent(Strategy.from_dict(game, rows), seed=0)
    obs = _observations(game)["A|"]
    picks = np.array([agent.act(obs) for _ in range(4000)])
    assert picks.mean() == pytest.approx(0.75, abs=0.03)


def test_policy_agent_from_file(tmp_path) -> None:
    game = kuhn()
    path = Strategy.uniform(game).save(tmp_path / "uniform.npz")
    agent = PolicyAgent.from_file(path, game)
    assert agent.name == "uniform"
    assert agent.policy.probabilities("K|") == {0: 0.5, 1: 0.5}  # type: ignore[union-attr]
    with pytest.raises(StrategyMismatchError):
        PolicyAgent.from_file(path, leduc())


def test_policy_agent_refuses_a_foreign_infoset() -> None:
    agent = PolicyAgent(Strategy.uniform(kuhn()))
    obs = next(o for k, o in _observations(leduc()).items() if k.count("|") == 3)
    with pytest.raises(PokerlabError, match="no infoset"):
        agent.act(obs)


def test_rule_based_refuses_holdem_before_the_match() -> None:
    from pokerlab.games import holdem

    with pytest.raises(PokerlabError, match="Kuhn and Leduc"):
        play_match(holdem(players=2), RuleBased(), RandomAgent(), hands=5)


def test_a_strategy_bot_for_another_game_is_refused() -> None:
    bot = PolicyAgent(Strategy.uniform(kuhn()))
    with pytest.raises(StrategyMismatchError):
        play_match(leduc(), bot, RandomAgent(), hands=5)
