"""Walk a pokerlab game and the same OpenSpiel game in lockstep.

pokerlab's Kuhn and Leduc use OpenSpiel's action ids (chance outcomes are card ids), so
the two trees can be walked together. The walk checks that both agree on who acts, the
legal actions, the chance probabilities and the returns, and records how OpenSpiel's
information-state strings map onto pokerlab's infoset keys (many to one for Leduc,
whose OpenSpiel strings name suits while pokerlab keys name ranks).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pyspiel

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.games import Game, State
from pokerlab.strategy import Strategy
from pokerlab.tree import compile

OPENSPIEL_NAMES = {
    "kuhn": lambda spec: f"kuhn_poker(players={spec.get('players')})",
    "leduc": lambda spec: f"leduc_poker(players={spec.get('players')})",
}


def openspiel_game(game: Game) -> pyspiel.Game:
    """The OpenSpiel game with the same rules as ``game`` (default parameters only)."""
    return pyspiel.load_game(OPENSPIEL_NAMES[game.spec.name](game.spec))


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


def to_openspiel_policy(
    strategy: Strategy, os_game: pyspiel.Game, correspondence: Correspondence
) -> pyspiel.TabularPolicy:
    """Our strategy as an OpenSpiel tabular policy (python TabularPolicy -> pyspiel)."""
    from open_spiel.python import policy as os_policy

    tabular = os_policy.TabularPolicy(os_game)
    tree = strategy.tree
    for theirs, row in tabular.state_lookup.items():
        i = tree.infoset_id(correspondence.to_ours[theirs])
        n = int(tree.infoset_n_actions[i])
        legal = tree.infoset_actions[i, :n]
        tabular.action_probability_array[row, :] = 0.0
        tabular.action_probability_array[row, legal] = strategy.probs[i, :n]
    return tabular


def from_openspiel_policy(
    game: Game,
    probability: Callable[[str], dict[int, float]],
    correspondence: Correspondence,
) -> Strategy:
    """A pokerlab strategy from OpenSpiel's per-info-state action probabilities."""
    tree = compile(game)
    probs = np.zeros((tree.n_infosets, tree.max_actions))
    for theirs, ours in correspondence.to_ours.items():
        i = tree.infoset_id(ours)
        n = int(tree.infoset_n_actions[i])
        legal = [int(a) for a in tree.infoset_actions[i, :n]]
        table = probability(theirs)
        probs[i, :n] = [table.get(a, 0.0) for a in legal]
    return Strategy.from_array(game, probs, normalize=True)


def random_strategy(game: Game, rng: np.random.Generator) -> Strategy:
    """A random strategy (Dirichlet rows, some rows pure) for differential tests."""
    tree = compile(game)
    probs = rng.dirichlet(np.ones(tree.max_actions), size=tree.n_infosets)
    pure = rng.random(tree.n_infosets) < 0.2
    probs[pure] = np.eye(tree.max_actions)[rng.integers(0, tree.max_actions, pure.sum())]
    probs *= tree.legal_mask
    return Strategy.from_array(game, probs, normalize=True)
