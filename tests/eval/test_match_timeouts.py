"""A per-decision time limit is enforced: a stuck agent costs the limit, not the match."""

from __future__ import annotations

import time

from pokerlab.agents import RandomAgent
from pokerlab.eval import play_match
from pokerlab.games import Observation, kuhn


class Sleeper:
    """Thinks for far too long on every decision."""

    def act(self, observation: Observation) -> int:
        time.sleep(3.0)
        return observation.legal_actions[0]


def test_stuck_agent_gets_the_default_action_and_the_match_goes_on() -> None:
    start = time.monotonic()
    result = play_match(kuhn(), Sleeper(), RandomAgent(), hands=2, seats="fixed",
                        duplicate=False, seed=0, time_limit=0.05, fast=False)
    elapsed = time.monotonic() - start
    timeouts = [e for e in result.events if e.kind == "timeout"]
    assert len(result.hands) == 2
    assert timeouts, "every decision of the sleeper must be a timeout"
    assert all(e.action in (0, 1) for e in timeouts)
    # Without enforcement the two hands would take at least 3 s per Sleeper decision.
    assert elapsed < 3.0


def test_fast_agents_are_untouched_by_the_limit() -> None:
    result = play_match(kuhn(), RandomAgent(), RandomAgent(), hands=20, seed=1,
                        time_limit=5.0, fast=False)
    assert not result.events
