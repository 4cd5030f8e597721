"""Exact expected value of a strategy profile, per seat, on the compiled tree."""

from __future__ import annotations

from collections.abc import Sequence

from pokerlab._types import FloatArray
from pokerlab.errors import StrategyError
from pokerlab.eval._passes import run_pass
from pokerlab.games.base import Game
from pokerlab.strategy import Policy, Strategy, tabulate
from pokerlab.tree import CompiledTree, compile


def expected_value(game: Game, strategies: Policy | Sequence[Policy]) -> tuple[float, ...]:
    """Return each player's exact expected winnings when the profile is played.

    Exact (every deal and every action weighted by its probability, no sampling), on the
    compiled tree. Values sum to 0 in zero-sum games.

    Args:
        game: the game.
        strategies: one policy holding every player's rows (a full profile), or one policy
            per player, player ``p``'s rows taken from ``strategies[p]``; any policy is
            tabulated on the compiled tree first.

    Returns:
        One value per player, in chips per hand.

    Raises:
        StrategyMismatchError: if a strategy was made for another game.
        StrategyError: if a sequence does not hold one strategy per player.
        GameTooLargeError: if the game is too big to compile (the message says so).

    Example:
        >>> from pokerlab.games import kuhn
        >>> game = kuhn()
        >>> [round(v, 6) for v in expected_value(game, Strategy.uniform(game))]
        [0.125, -0.125]
        >>> always_bet = Strategy.from_dict(game, {k: [0, 1] for k in compile(game).infoset_keys})
        >>> expected_value(game, [always_bet, Strategy.uniform(game)])   # P2 folds half
        (0.5, -0.5)
    """
    profile = _profile(game, strategies)
    return tuple(float(v) for v in expected_values_array(compile(game), profile.probs))


def expected_values_array(tree: CompiledTree, probs: FloatArray) -> FloatArray:
    """Return ``[n_players]`` exact expected chips per hand of the profile ``probs``.

    The array-level entry point for solvers: no :class:`Strategy` is built and rows are
    not checked (they should sum to 1 over legal slots).

    Args:
        tree: the compiled game.
        probs: ``[n_infosets, max_actions]`` action probabilities of every player.

    Raises:
        StrategyError: if ``probs`` does not have the shape ``[n_infosets, max_actions]``.

    Example:
        >>> from pokerlab.games import kuhn
        >>> game = kuhn()
        >>> expected_values_array(compile(game), Strategy.uniform(game).probs).round(6)
        array([ 0.125, -0.125])
    """
    return run_pass(tree, probs, best_response=False).values


def _profile(game: Game, strategies: Policy | Sequence[Policy]) -> Strategy:
    """Return the single profile ``strategies`` stands for, after checking the games."""
    if isinstance(strategies, Policy):
        return tabulate(strategies, game, purpose="an exact expected value")
    seats = list(strategies)
    if len(seats) != game.n_players:
        raise StrategyError(
            f"{game.spec} has {game.n_players} players; give one Strategy (a full profile) "
            f"or one per player, not {len(seats)}"
        )
    tables = []
    for seat in seats:
        if not isinstance(seat, Policy):
            raise StrategyError(f"expected a policy for each player; got {type(seat).__name__}")
        tables.append(tabulate(seat, game, purpose="an exact expected value"))
    return tables[0].combine(tables)
