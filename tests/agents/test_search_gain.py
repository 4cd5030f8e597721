"""The exact value of a search at one spot, checked by walking the game's states.

:func:`~pokerlab.agents.search_gain.spot_gain` values the searched rows with the range
solver's passes over ranges the searcher derived. Here the same figures come from the
game's own states instead: every deal of hole cards, weighted by the probability that
the blueprint plays the hand's history with it, walked to the end of the hand through
the policies' ``action_probabilities``.
"""

from __future__ import annotations

import pytest

from pokerlab.agents.search_gain import blueprint_spots, spot_gain
from pokerlab.agents.search_history import replay, street_start
from pokerlab.agents.search_policy import SearchPolicy, SearchSettings
from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.blueprint.policy import BlueprintPolicy
from pokerlab.games import load
from pokerlab.games.holdem_state import HoldemState
from pokerlab.strategy.policy import Policy

LEDUC_AS_HOLDEM = (
    'holdem(betting="limit", ranks=3, suits=2, hole=1, board="1", seat_blinds=(1, 1), '
    'raises="2,4", caps="2,2", first="0,0", stack=100)'
)


@pytest.fixture(scope="module")
def blueprint() -> BlueprintPolicy:
    game = load(LEDUC_AS_HOLDEM)
    trainer = BlueprintTrainer(game, seed=0)
    trainer.run(3000)
    return BlueprintPolicy(trainer, game=game)


def _walk(state: HoldemState, q: int, policies: tuple[Policy, Policy]) -> float:
    """``q``'s expected chips from ``state`` to the end of the hand (no card left to deal)."""
    if state.is_terminal:
        return state.returns()[q]
    assert not state.is_chance
    probs = policies[state.player].action_probabilities(state.observation(state.player))
    return sum(p * _walk(state.child(a), q, policies)  # type: ignore[arg-type]
               for a, p in probs.items() if p > 0)


def _walked_value(spot: HoldemState, searched: Policy, blueprint: BlueprintPolicy) -> float:
    """The searcher's value at the street's root over every deal, the blueprint opposing."""
    game = blueprint.game
    q = spot.player
    root_at = street_start(spot, 1)
    history = spot.history[:root_at]
    total = weighted = 0.0
    deck = game.initial_state().legal_actions()
    for cards in ((a, b) for a in deck for b in deck if a != b):
        if set(cards) & set(spot.board):
            continue
        state = game.initial_state()
        weight = 1.0
        for action in (*cards, *history[2:]):
            if not state.is_chance:
                probs = blueprint.action_probabilities(state.observation(state.player))
                weight *= probs.get(action, 0.0)
            state = state.child(action)
        if weight == 0:
            continue
        assert isinstance(state, HoldemState)
        assert state.history == (*cards, *history[2:])
        policies: tuple[Policy, Policy] = ((searched, blueprint) if q == 0
                                           else (blueprint, searched))
        total += weight
        weighted += weight * _walk(state, q, policies)
    return weighted / total


def test_the_gain_equals_a_walk_over_every_deal(blueprint: BlueprintPolicy) -> None:
    spots = blueprint_spots(blueprint, street=1, count=6, seed=3)
    assert len(spots) == 6
    assert {spot.player for spot in spots} == {0, 1}
    for spot in spots:
        searcher = SearchPolicy(blueprint, SearchSettings(think=None, iterations=200,
                                                          safety="gadget"))
        gain = spot_gain(searcher, spot)
        assert gain is not None
        assert (gain.street, gain.searcher) == (1, spot.player)
        root = replay(blueprint.game, spot.history[:street_start(spot, 1)])
        assert gain.pot == pytest.approx(sum(root.contributions()))
        walked = (_walked_value(spot, searcher, blueprint)
                  - _walked_value(spot, blueprint, blueprint))
        # float32 solves: the rows the walk reads are renormalized in float64
        assert gain.gain == pytest.approx(walked, abs=1e-6)
        assert gain.played_gain == (0.0 if gain.rejected else gain.gain)
        # the re-solving gadget's promise, on the real ranges: no worse against a best
        # response than the blueprint (up to 200 iterations' inexactness)
        assert gain.worst_after >= gain.worst_before - 0.01 * gain.pot
