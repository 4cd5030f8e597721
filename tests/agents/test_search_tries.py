"""A street whose searches keep failing is left to the blueprint, tried again now and then.

On the default heads-up limit blueprint every turn search with a 1 s budget failed (built
and referenced in 0.4-0.7 s, then refused: the solve needed about 1.3 s more), so each
turn decision spent that time before the blueprint answered anyway.
"""

from __future__ import annotations

from typing import Any

import pytest

from pokerlab.agents.search_policy import SearchPolicy, SearchSettings
from pokerlab.agents.search_tries import RETRY_EVERY, SKIP_AFTER, StreetTries
from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.blueprint.policy import BlueprintPolicy
from pokerlab.errors import GameTooLargeError
from pokerlab.games import load
from pokerlab.games.holdem_rules import CALL, RAISE
from pokerlab.games.holdem_state import HoldemGame, HoldemState
from tests.agents.test_search_policy import LEDUC_AS_HOLDEM


def test_failures_in_a_row_skip_the_street_with_a_retry_every_few_decisions() -> None:
    tries = StreetTries()
    for _ in range(SKIP_AFTER - 1):
        tries.failed("turn")
    assert tries.should_try("turn")  # not yet enough failures
    tries.failed("turn")
    answers = [tries.should_try("turn") for _ in range(3 * RETRY_EVERY)]
    assert answers == ([False] * (RETRY_EVERY - 1) + [True]) * 3
    assert tries.should_try("river")  # streets are counted apart
    tries.built("turn")
    assert all(tries.should_try("turn") for _ in range(2 * RETRY_EVERY))
    for _ in range(10):
        tries.failed(None)
        assert tries.should_try(None)  # no clock: always tried, never counted


def _street_one_spots() -> list[HoldemState]:
    """First decisions of the board street, one per board and preflop betting."""
    game = load(LEDUC_AS_HOLDEM)
    assert isinstance(game, HoldemGame)
    spots = []
    deck = list(game.rules.deck)
    for preflop in ((CALL, CALL), (RAISE, CALL), (CALL, RAISE, CALL), (RAISE, RAISE, CALL)):
        for board in deck:
            hole = [c for c in deck if c != board][:2]
            state = game.initial_state()
            for action in (*hole, *preflop, board):
                state = state.child(action)
            assert isinstance(state, HoldemState)
            assert state.street == 1
            assert state.player >= 0
            spots.append(state)
    return spots


@pytest.mark.parametrize("think", [5.0, None])
def test_the_searcher_stops_building_a_street_that_keeps_failing(
    think: float | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = load(LEDUC_AS_HOLDEM)
    trainer = BlueprintTrainer(game, seed=0)
    trainer.run(200)
    settings = SearchSettings(think=think, iterations=20)
    policy = SearchPolicy(BlueprintPolicy(trainer, game=game), settings)
    calls = []

    def failing(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        raise GameTooLargeError("too large", found=1, limit=0)

    monkeypatch.setattr(policy, "_street_solve", failing)
    spots = _street_one_spots()
    decisions = [policy.decide(s.observation(s.player)) for s in spots]
    assert not any(d.searched for d in decisions)  # the blueprint answered each
    n = len(spots)
    if think is None:  # an iteration budget: every spot is tried, as before
        assert len(calls) == n
        return
    assert len(calls) == SKIP_AFTER + (n - SKIP_AFTER) // RETRY_EVERY
    # Searches work again: the skipped street's next retry builds one, then every
    # decision there is searched (the decisions and the blueprint's streets forgotten, so
    # that the same spots are asked afresh).
    monkeypatch.undo()
    policy._decisions.clear()
    policy._large.clear()
    built = []
    solve = policy._street_solve

    def counted(*args: Any, **kwargs: Any) -> Any:
        built.append(args)
        return solve(*args, **kwargs)

    monkeypatch.setattr(policy, "_street_solve", counted)
    again = [policy.decide(s.observation(s.player)) for s in spots]
    skipped = RETRY_EVERY - 1 - (n - SKIP_AFTER) % RETRY_EVERY  # until the next retry
    assert len(built) == n - skipped
    assert sum(d.searched for d in again) == n - skipped
