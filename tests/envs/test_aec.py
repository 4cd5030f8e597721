"""The PettingZoo environment passes PettingZoo's own checkers and plays the game's rules."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test
from pettingzoo.test.seed_test import check_environment_deterministic

from pokerlab.envs import env, raw_env
from pokerlab.envs.aec import PokerEnv
from pokerlab.errors import IllegalActionError, PokerlabError, SpecError
from pokerlab.games import load

SPECS = [
    "kuhn", "kuhn(players=3)", "kuhn(players=5, cards=7)", "leduc", "leduc(players=3)",
    "leduc(stack=50, raise_cap=None)", 'holdem(betting="limit")',
    'holdem(players=6, betting="limit")', "holdem", "holdem(players=3, stack=(40, 200, 90))",
    "holdem(players=9)", 'holdem(betting="limit", hole=1, board="1,1", ranks=6, suits=2)',
]
DICT_OBSERVATION_WARNINGS = (
    "Observation space for each agent probably should be gymnasium.spaces.box",
    "Observation is not a NumPy array",
)
"""What api_test says of every environment whose observations are {observation,
action_mask} dicts, PettingZoo's convention for card games (it exempts its own by name)."""


@pytest.mark.parametrize("spec", SPECS)
def test_pettingzoo_api_test_and_seed_test(spec: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(spec), num_cycles=200)
        check_environment_deterministic(env(spec), env(spec), 200)
    others = [str(w.message) for w in caught
              if not str(w.message).startswith(DICT_OBSERVATION_WARNINGS)]
    assert others == []


def test_raw_env_is_the_environment_itself() -> None:
    assert raw_env is env
    assert isinstance(env("kuhn"), PokerEnv)


@pytest.mark.parametrize("spec", ["kuhn(players=3)", "leduc", "holdem(players=4)"])
def test_rewards_are_the_hands_returns_in_chips(spec: str) -> None:
    game = load(spec)
    environment = env(spec)
    environment.reset(seed=11)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    for _ in range(150):
        environment.reset()
        for agent in environment.agent_iter():
            observation, reward, terminated, truncated, _ = environment.last()
            totals[agent] += reward
            if terminated or truncated:
                environment.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            environment.step(int(legal[rng.integers(len(legal))]))
        # Replaying the same cards and actions through the rules gives the same returns.
        state = environment.table.state
        replay = game.initial_state().apply_sequence(state.history)
        assert replay.returns() == state.returns()
    assert sum(totals.values()) == pytest.approx(0.0)


def test_the_acting_agent_sees_its_own_cards_and_a_mask_others_see_none() -> None:
    environment = env("leduc")
    environment.reset(seed=3)
    acting = environment.agent_selection
    other = next(a for a in environment.possible_agents if a != acting)
    mine = environment.observe(acting)
    theirs = environment.observe(other)
    assert mine["action_mask"].any()
    assert not theirs["action_mask"].any()
    encoder = environment.table.encoder
    hand = encoder.block("hand")
    state = environment.table.state
    seat = environment.possible_agents.index(acting)
    rank = state.private[seat] // 2  # type: ignore[attr-defined]
    assert mine["observation"][hand.offset + rank] == 1.0
    assert mine["observation"].dtype == np.float32
    assert mine["action_mask"].dtype == np.int8


def test_illegal_actions_raise_and_change_nothing() -> None:
    environment = env("leduc")
    environment.reset(seed=0)
    state = environment.table.state
    with pytest.raises(IllegalActionError, match="legal: 1 \\(check\\), 2 \\(bet\\)"):
        environment.step(0)  # fold with nothing owed
    with pytest.raises(IllegalActionError):
        environment.step(1.5)
    assert environment.table.state is state


def test_calls_out_of_order_are_refused() -> None:
    environment = env("kuhn")
    with pytest.raises(PokerlabError, match="reset\\(\\) the environment before step"):
        environment.step(0)
    with pytest.raises(PokerlabError, match="before observe"):
        environment.observe("player_0")
    environment.reset(seed=0)
    for _agent in environment.agent_iter():
        _, _, terminated, _, _ = environment.last()
        environment.step(None if terminated else 1)
    with pytest.raises(PokerlabError, match="every agent is done"):
        environment.step(None)


def test_a_seeded_reset_replays_and_an_unseeded_one_goes_on() -> None:
    environment = env("holdem(players=3)")
    environment.reset(seed=5)
    first = environment.table.state.history
    environment.reset()
    second = environment.table.state.history
    environment.reset(seed=5)
    assert environment.table.state.history == first
    environment.reset()
    assert environment.table.state.history == second != first


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    text_env = env("kuhn", render_mode="ansi")
    text_env.reset(seed=1)
    text = text_env.render()
    assert text is not None
    assert "player_0" in text
    assert "to act" in text
    human = env("kuhn", render_mode="human")
    human.reset(seed=1)
    human.step(1)
    assert "betting: player_0:bet" in capsys.readouterr().out
    with pytest.raises(SpecError, match="render_mode must be None, 'human' or 'ansi'"):
        env("kuhn", render_mode="rgb_array")


def test_bet_sizes_reach_the_action_space() -> None:
    environment = env("holdem", bet_sizes="33%,75%,150%,a")
    assert environment.action_space("player_0").n == 6
    environment.reset(seed=0)
    observation = environment.observe(environment.agent_selection)
    assert environment.observation_space("player_0").contains(observation)
