"""The Gymnasium environment passes Gymnasium's checker and plays opponents as the dealer does."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from pokerlab.agents import AlwaysCall, RandomAgent
from pokerlab.envs import gym_env, single
from pokerlab.envs.single import MAX_SKIPPED, PokerGymEnv
from pokerlab.errors import IllegalActionError, PokerlabError, SpecError
from pokerlab.eval import expected_value
from pokerlab.games import HandResult, Observation, load
from pokerlab.solvers import CFRPlus
from pokerlab.strategy import Strategy, tabulate

SMALL = (
    'holdem(betting="limit", ranks=3, suits=2, hole=1, board="1", seat_blinds=(1, 1), '
    'raises="2,4", caps="2,2", first="0,0", stack=100)'
)
"""A tiny limit Hold'em game a blueprint is trained for in a blink."""


def _checked(environment: PokerGymEnv) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(environment)
    return [str(w.message) for w in caught]


NO_SPEC = "Not able to test alternative render modes due to the environment not having a spec"
"""check_env's note that it cannot make the other render modes itself (tested below)."""


@pytest.mark.parametrize(
    ("spec", "opponents"),
    [("kuhn", "random"), ("leduc", "always-raise"), ("kuhn(players=3)", "random"),
     ('holdem(betting="limit")', "always-call"), ("holdem(players=4)", "random"),
     ("leduc(stack=20, raise_cap=None)", "cfr+20")],
)
def test_gymnasium_check_env(spec: str, opponents: str) -> None:
    for render_mode in (None, "ansi", "human"):
        messages = _checked(gym_env(spec, opponents, render_mode=render_mode))
        assert [m for m in messages if NO_SPEC not in m] == []


def test_rewards_are_the_learners_chips_and_average_to_the_games_value() -> None:
    """A learner playing uniformly over its mask earns Kuhn's exact value, seat by seat."""
    game = load("kuhn")
    environment = gym_env(game, "always-call")
    environment.reset(seed=2)
    rng = np.random.default_rng(0)
    rewards: dict[int, list[float]] = {0: [], 1: []}
    for _ in range(12_000):
        observation, info = environment.reset()
        terminated = False
        reward = 0.0
        while not terminated:
            legal = np.flatnonzero(observation["action_mask"])
            observation, reward, terminated, truncated, _ = environment.step(
                int(legal[rng.integers(len(legal))])
            )
            assert not truncated
        assert reward == environment.table.returns()[info["seat"]]
        rewards[info["seat"]].append(reward)
    caller = tabulate(AlwaysCall(game).policy, game)  # type: ignore[arg-type]
    uniform = Strategy.uniform(game)
    for seat, seats in ((0, [uniform, caller]), (1, [caller, uniform])):
        exact = expected_value(game, seats)[seat]
        sample = np.array(rewards[seat])
        assert len(sample) > 5000
        assert abs(sample.mean() - exact) < 4 * sample.std() / np.sqrt(len(sample))


class Recorder:
    """An opponent that logs the dealer's hooks and always calls."""

    name = "recorder"

    def __init__(self) -> None:
        self.calls: list[str] = []

    def reset(self) -> None:
        self.calls.append("reset")

    def seed(self, value: int) -> None:
        self.calls.append("seed")

    def observe(self, update: Observation | HandResult) -> None:
        self.calls.append("result" if isinstance(update, HandResult) else "observe")

    def act(self, observation: Observation) -> int:
        self.calls.append("act")
        return observation.action_named("call" if "call" in observation.action_names
                                        else "check")


def test_opponents_get_the_dealers_hooks() -> None:
    recorder = Recorder()
    environment = gym_env("leduc", recorder, seat=0)
    environment.reset(seed=0)
    assert recorder.calls == ["reset", "seed"]  # the learner (seat 0) acts first
    environment.step(1)  # check
    assert recorder.calls[2:4] == ["observe", "act"]
    terminated = False
    while not terminated:
        mask = environment.action_masks()
        _, _, terminated, _, _ = environment.step(int(np.flatnonzero(mask)[0]))
    assert recorder.calls[-1] == "result"


def test_the_learners_seat_is_fixed_or_drawn() -> None:
    fixed = gym_env("kuhn(players=3)", "random", seat=2)
    assert {fixed.reset(seed=k)[1]["seat"] for k in range(10)} == {2}
    drawn = gym_env("kuhn(players=3)", "random")
    assert {drawn.reset(seed=k)[1]["seat"] for k in range(30)} == {0, 1, 2}
    with pytest.raises(SpecError, match=r"seat must be None or 0\.\.2"):
        gym_env("kuhn(players=3)", seat=3)


class Folder:
    """Folds whenever it may, else checks."""

    name = "folder"

    def act(self, observation: Observation) -> int:
        names = observation.action_names
        return observation.action_named("fold" if "fold" in names else "check")


def test_hands_without_a_decision_are_dealt_past_and_reported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Heads-up the button (player 1) acts first preflop; a random button folds a third of
    # the time in limit.
    environment = gym_env('holdem(betting="limit")', RandomAgent(seed=1), seat=0)
    skipped = 0
    chips = 0.0
    for k in range(60):
        _, info = environment.reset(seed=k)
        skipped += info["skipped_hands"]
        chips += info["skipped_returns"]
        assert environment.table.player == 0
    assert skipped > 0
    assert chips == skipped * 1.0  # each time the button folded its small blind to us
    monkeypatch.setattr(single, "MAX_SKIPPED", 300)  # the limit, reached sooner
    always = gym_env("holdem", Folder(), seat=0)
    with pytest.raises(PokerlabError, match="no decision in 300 hands in a row"):
        always.reset(seed=0)
    assert MAX_SKIPPED > 300


def test_an_index_outside_the_mask_plays_the_default_action_or_raises() -> None:
    lenient = gym_env("leduc", "always-call", seat=0)
    lenient.reset(seed=0)
    _, _, _, _, info = lenient.step(0)  # fold with nothing owed: checks instead
    assert info == {"illegal_action": 0}
    assert lenient.table.state.history[2] == 1  # type: ignore[attr-defined]
    strict = gym_env("leduc", "always-call", seat=0, on_illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError, match="legal: 1 \\(check\\), 2 \\(bet\\)"):
        strict.step(0)
    with pytest.raises(SpecError, match="on_illegal must be"):
        gym_env("leduc", on_illegal="clamp")


def test_stepping_after_the_end_is_refused() -> None:
    environment = gym_env("kuhn", "always-call", seat=0)
    environment.reset(seed=0)
    environment.step(1)  # bet; the caller calls: the hand is over
    with pytest.raises(PokerlabError, match="call reset"):
        environment.step(1)


def test_opponents_from_files_and_objects(tmp_path: Path) -> None:
    game = load("leduc")
    strategy = CFRPlus(game).run(iterations=50).average_strategy()
    path = strategy.save(tmp_path / "leduc.npz")
    environment = gym_env(game, str(path))
    assert environment.opponents[0].name == "leduc"  # type: ignore[attr-defined]
    assert [m for m in _checked(environment) if NO_SPEC not in m] == []
    three = gym_env("kuhn(players=3)", [RandomAgent(seed=0), AlwaysCall()])
    three.reset(seed=0)
    with pytest.raises(SpecError, match="give one agent object per seat"):
        gym_env("kuhn(players=3)", AlwaysCall())
    caller = AlwaysCall()
    with pytest.raises(SpecError, match="one agent object sits in two seats"):
        gym_env("kuhn(players=3)", [caller, caller])
    with pytest.raises(SpecError, match="needs 2 opponents; got 1"):
        gym_env("kuhn(players=3)", ["random"])
    with pytest.raises(SpecError, match="the file does not exist"):
        gym_env(game, str(tmp_path / "missing.npz"))
    bot = tmp_path / "bot.py"
    bot.write_text("class Agent:\n    def act(self, observation):\n"
                   "        return observation.legal_actions[0]\n")
    sandboxed = gym_env(game, str(bot))  # an entrant file: resolved and sandboxed
    sandboxed.reset(seed=0)
    sandboxed.close()
    with pytest.raises(PokerlabError, match="unknown built-in agent 'nobody'"):
        gym_env(game, "nobody")
    with pytest.raises(SpecError, match="an opponent must be an agent"):
        gym_env(game, 42)


def test_a_blueprint_opponent(tmp_path: Path) -> None:
    from pokerlab.blueprint.mccfr import BlueprintTrainer
    from pokerlab.blueprint.store import save_blueprint

    trainer = BlueprintTrainer(load(SMALL), seed=0)
    trainer.run(200)
    path = save_blueprint(trainer, tmp_path / "small.bp", cards={"kind": "lossless"})
    environment = gym_env(SMALL, str(path))
    assert environment.opponents[0].name == "small"  # type: ignore[attr-defined]
    assert [m for m in _checked(environment) if NO_SPEC not in m] == []


class Cheater:
    name = "cheater"

    def act(self, observation: Observation) -> int:
        return 7


class Crasher:
    name = "crasher"

    def act(self, observation: Observation) -> int:
        raise RuntimeError("boom")


def test_a_failing_opponent_is_named() -> None:
    with pytest.raises(PokerlabError, match="opponent cheater \\(seat 0\\) answered 7"):
        gym_env("kuhn", Cheater(), seat=1).reset(seed=0)
    with pytest.raises(PokerlabError, match="opponent crasher \\(seat 0\\) failed in act"):
        gym_env("kuhn", Crasher(), seat=1).reset(seed=0)
