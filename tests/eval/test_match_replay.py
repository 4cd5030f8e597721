"""Replaying recorded hands into fresh agents (what the arena does on --resume)."""

from __future__ import annotations

from pokerlab.agents import RandomAgent
from pokerlab.eval import play_match
from pokerlab.eval.matches import replay_hands
from pokerlab.games import Observation, leduc


class Faulty:
    """Deterministic, but raises on every third decision and answers 999 on others."""

    def __init__(self) -> None:
        self.calls = 0

    def reset(self) -> None:
        self.calls = 0

    def act(self, observation: Observation) -> int:
        self.calls += 1
        if self.calls % 3 == 0:
            raise RuntimeError("boom")
        if self.calls % 3 == 1:
            return 999
        return observation.legal_actions[-1]


def test_faults_replay_as_faults_not_as_mismatches() -> None:
    game = leduc()
    result = play_match(game, Faulty(), RandomAgent(), hands=60, seed=4, fast=False)
    assert {e.kind for e in result.events} == {"exception", "illegal"}
    assert replay_hands(game, [Faulty(), RandomAgent()], result.hands, seed=4) == 0


def test_a_different_agent_is_a_mismatch() -> None:
    game = leduc()
    result = play_match(game, Faulty(), RandomAgent(), hands=40, seed=4, fast=False)
    assert replay_hands(game, [RandomAgent(), RandomAgent()], result.hands, seed=4) > 0
