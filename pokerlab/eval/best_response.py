"""Exact best response to a strategy, on the compiled tree.

A best response of player p maximizes p's expected chips against the other players'
rows of a strategy. It is computed for every infoset of p, bottom-up: the value of an
action is what it earns, weighted by the probability that chance and the other players
reach the infoset, when p best-responds afterwards (a counterfactual value); the best
response plays an action of largest value (the first one on ties). See
:mod:`pokerlab.eval._passes` for the passes, which serve every player at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerlab._types import FloatArray
from pokerlab.errors import PokerlabError
from pokerlab.eval._passes import run_pass
from pokerlab.games.base import Game
from pokerlab.strategy import Policy, Strategy, tabulate
from pokerlab.tree import CompiledTree, compile


@dataclass(frozen=True, eq=False)
class BestResponse:
    """A pure best response of one player to the others' rows of a strategy.

    Attributes:
        player: the best-responding player (0..n-1).
        value: the best responder's expected winnings against the others' rows, in chips
            per hand.
        strategy: a profile whose rows for ``player`` are the pure best response (one
            action with probability 1 at every infoset, reachable or not) and whose other
            rows are copied from the strategy responded to.
        action_values: ``[n_infosets, max_actions]`` read-only; at ``player``'s infosets,
            the counterfactual value of each legal action (chips weighted by the
            probability that chance and the other players reach the infoset, the best
            responder playing on optimally); NaN on illegal slots and other players' rows.
    """

    player: int
    value: float
    strategy: Strategy
    action_values: FloatArray

    def __post_init__(self) -> None:
        self.action_values.setflags(write=False)


def best_response(game: Game, strategy: Policy, player: int) -> BestResponse:
    """Return a best response of ``player`` to the other players' rows of ``strategy``.

    Exact, in one pass over the compiled tree; works for any number of players (the
    opponents all play ``strategy``). The rows of ``player`` in ``strategy`` are ignored.

    Args:
        game: the game.
        strategy: the profile responded to.
        player: the best responder, 0..n_players-1.

    Raises:
        StrategyMismatchError: if ``strategy`` was made for another game.
        GameTooLargeError: if the game is too big to compile.
        PokerlabError: if ``player`` is not a player of the game.

    Example:
        >>> from pokerlab.games import kuhn
        >>> game = kuhn()
        >>> br = best_response(game, Strategy.uniform(game), player=1)
        >>> round(br.value, 6)   # P2 wins 5/12 chip a hand against a uniform P1
        0.416667
        >>> br.strategy.probabilities("Q|b")   # ...folding the Q to a bet
        {0: 1.0, 1: 0.0}
    """
    strategy = tabulate(strategy, game, purpose="a best response")
    tree = compile(game)
    if not 0 <= player < tree.n_players:
        raise PokerlabError(
            f"{game.spec} has players 0..{tree.n_players - 1}; got player={player}"
        )
    result = run_pass(tree, strategy.probs, best_response=True)
    mine = tree.infoset_player == player
    probs = np.array(strategy.probs)
    probs[mine] = 0.0
    rows = np.flatnonzero(mine)
    probs[rows, result.best_slots[rows]] = 1.0
    action_values = result.action_values
    action_values[~mine] = np.nan
    value = float(result.best_response_values[player])
    metadata = {"algorithm": "best_response", "player": player, "value": value}
    return BestResponse(
        player=player,
        value=value,
        strategy=Strategy(game, probs, metadata),
        action_values=action_values,
    )


def best_response_values_array(tree: CompiledTree, probs: FloatArray) -> FloatArray:
    """Return ``[n_players]``: each player's best-response value against the others' rows.

    The array-level entry point for solvers: every player's best response in one pass,
    without building a :class:`Strategy`; rows are not checked.

    Args:
        tree: the compiled game.
        probs: ``[n_infosets, max_actions]`` action probabilities of every player.

    Returns:
        Chips per hand that each player wins by best-responding.

    Raises:
        StrategyError: if ``probs`` does not have the shape ``[n_infosets, max_actions]``.

    Example:
        >>> from pokerlab.games import kuhn
        >>> game = kuhn()
        >>> best_response_values_array(compile(game), Strategy.uniform(game).probs).round(6)
        array([0.5     , 0.416667])
    """
    return run_pass(tree, probs, best_response=True).best_response_values
