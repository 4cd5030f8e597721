"""Perfect-information Monte Carlo (determinized search) on poker, and why it fails.

The tutorial's section 5 contrasts tic-tac-toe, where search on the state solves every
subgame, with poker, where a decision is made on an infoset spanning several states.
Determinized search (PIMC) pretends each consistent deal is known to everyone: at each
infoset it solves every determinization as a perfect-information game and plays the
action with the best average value. This module computes that limit exactly (every
determinization weighted by its chance probability, as infinitely many samples would),
so the strategy is deterministic and its exploitability is measured exactly beside CFR's.

PIMC's strategy never bluffs or slow-plays for a reason (in the determinized world the
opponent sees the cards), so it is exploitable; that is the lesson.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from pokerlab.errors import PokerlabError
from pokerlab.eval import exploitability
from pokerlab.games import Game
from pokerlab.games.base import State
from pokerlab.solvers import make_solver
from pokerlab.strategy import Strategy


@dataclass(frozen=True)
class PimcComparison:
    """PIMC's strategy and exploitability beside CFR+'s after the given iterations."""

    pimc: Strategy
    pimc_exploitability: float
    cfr_iterations: int
    cfr_exploitability: float


def perfect_information_value(state: State, player: int) -> float:
    """The value of the state to the player when every card is known to both players.

    Each player to act maximizes their own value (ties to the first legal action);
    chance nodes (boards) are averaged.
    """
    return _perfect_information_returns(state)[player]


def _perfect_information_returns(state: State) -> tuple[float, ...]:
    if state.is_terminal:
        return state.returns()
    if state.is_chance:
        outcomes = [
            (p, _perfect_information_returns(state.child(a))) for a, p in state.chance_outcomes()
        ]
        return tuple(sum(p * r[i] for p, r in outcomes) for i in range(len(outcomes[0][1])))
    mover = state.player
    best: tuple[float, ...] | None = None
    for action in state.legal_actions():
        returns = _perfect_information_returns(state.child(action))
        if best is None or returns[mover] > best[mover] + 1e-12:
            best = returns
    assert best is not None  # a decision node has a legal action
    return best


def _infoset_states(game: Game) -> dict[str, list[tuple[State, float]]]:
    """Every decision state grouped by its infoset key, with its chance probability."""
    groups: dict[str, list[tuple[State, float]]] = defaultdict(list)

    def walk(state: State, chance: float) -> None:
        if state.is_terminal:
            return
        if state.is_chance:
            for action, p in state.chance_outcomes():
                walk(state.child(action), chance * p)
            return
        groups[state.infoset_key()].append((state, chance))
        for action in state.legal_actions():
            walk(state.child(action), chance)

    walk(game.initial_state(), 1.0)
    return groups


def pimc_strategy(game: Game) -> Strategy:
    """The exact PIMC strategy: at each infoset, the action best on average over deals.

    Ties go to the first legal action (check/call before bet), so the result is pure.
    """
    if game.n_players != 2:
        raise PokerlabError(
            f"PIMC here solves two-player zero-sum determinizations; {game!r} has "
            f"{game.n_players} players"
        )
    table: dict[str, list[float]] = {}
    for key, states in _infoset_states(game).items():
        first = states[0][0]
        actions = first.legal_actions()
        me = first.player
        totals = [
            sum(w * perfect_information_value(s.child(a), me) for s, w in states) for a in actions
        ]
        best = max(range(len(actions)), key=lambda i: totals[i] - 1e-12 * i)
        table[key] = [1.0 if i == best else 0.0 for i in range(len(actions))]
    return Strategy.from_dict(game, table, default="error")


def compare_with_cfr(game: Game, cfr_iterations: int = 200) -> PimcComparison:
    """PIMC's exploitability beside CFR+'s after the given number of iterations."""
    if cfr_iterations < 1:
        raise PokerlabError(f"cfr_iterations must be at least 1; got {cfr_iterations}")
    pimc = pimc_strategy(game)
    solver = make_solver("cfr+", game)
    solver.run(iterations=cfr_iterations)
    average = solver.average_strategy()
    return PimcComparison(
        pimc=pimc,
        pimc_exploitability=exploitability(game, pimc),
        cfr_iterations=cfr_iterations,
        cfr_exploitability=exploitability(game, average),
    )
