"""Walk a pokerlab game and the same OpenSpiel game in lockstep; random strategies.

pokerlab's Kuhn and Leduc use OpenSpiel's action ids (chance outcomes are card ids), so
the two trees can be walked together. The walk checks that both agree on who acts, the
legal actions, the chance probabilities and the returns, and records how OpenSpiel's
information-state strings map onto pokerlab's infoset keys (many to one for Leduc,
whose OpenSpiel strings name suits while pokerlab keys name ranks): the independent
check of :func:`pokerlab.interop.openspiel.infostate_map`, which converts strategies
(this walk visits every history; the map does not).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pyspiel

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.games import Game, State
from pokerlab.interop.openspiel import openspiel_game
from pokerlab.strategy import Strategy
from pokerlab.tree import compile


@dataclass
class Correspondence:
    """How OpenSpiel's info-state strings map to pokerlab's infoset keys."""

    to_ours: dict[str, str] = field(default_factory=dict)
    histories: int = 0

    def add(self, theirs: str, ours: str) -> None:
        known = self.to_ours.setdefault(theirs, ours)
        assert known == ours, f"OpenSpiel infoset {theirs!r} maps to {known!r} and {ours!r}"


def walk(game: Game, os_game: pyspiel.Game | None = None) -> Correspondence:
    """Walk both full trees; assert agreement everywhere; return the key correspondence."""
    os_game = os_game or openspiel_game(game)
    result = Correspondence()

    def visit(ours: State, theirs: pyspiel.State) -> None:
        result.histories += 1
        if theirs.is_terminal():
            assert ours.player == TERMINAL
            np.testing.assert_allclose(ours.returns(), theirs.returns(), atol=1e-12)
            return
        if theirs.is_chance_node():
            assert ours.player == CHANCE
            mine = dict(ours.chance_outcomes())
            other = dict(theirs.chance_outcomes())
            assert mine.keys() == other.keys()
            for a, p in other.items():
                assert abs(mine[a] - p) < 1e-12
        else:
            assert ours.player == theirs.current_player()
            assert tuple(ours.legal_actions()) == tuple(theirs.legal_actions())
            player = theirs.current_player()
            result.add(theirs.information_state_string(player), ours.infoset_key(player))
        for a in theirs.legal_actions():
            visit(ours.child(a), theirs.child(a))

    visit(game.initial_state(), os_game.new_initial_state())
    return result


def random_strategy(game: Game, rng: np.random.Generator) -> Strategy:
    """A random strategy (Dirichlet rows, some rows pure) for differential tests."""
    tree = compile(game)
    probs = rng.dirichlet(np.ones(tree.max_actions), size=tree.n_infosets)
    pure = rng.random(tree.n_infosets) < 0.2
    probs[pure] = np.eye(tree.max_actions)[rng.integers(0, tree.max_actions, pure.sum())]
    probs *= tree.legal_mask
    return Strategy.from_array(game, probs, normalize=True)
