"""Determinized Monte Carlo tree search on poker: sampled deals, UCT on each, and its failure.

:mod:`pokerlab.studies.pimc` computes perfect-information Monte Carlo exactly (every deal,
exact minimax). The way search programs actually run it is sampled: at an infoset, draw
some deals consistent with what the player sees (by their chance probability), run UCT
(Monte Carlo tree search with UCB1 selection and random rollouts) on each as if every
card were known to both players, add up the root visit counts over the deals, and play
the most visited action. This module does that, so the tutorial's point (section 5) is
shown with the real algorithm: as the budget grows the strategy converges to an
exploitable one (the exact PIMC strategy's neighbourhood), while CFR's goes to 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from pokerlab.errors import PokerlabError
from pokerlab.eval import exploitability
from pokerlab.games import Game
from pokerlab.games.base import State
from pokerlab.solvers import make_solver
from pokerlab.strategy import Strategy
from pokerlab.studies.pimc import _infoset_states, pimc_strategy


@dataclass
class _Node:
    """One perfect-information state in a UCT tree: visits and summed returns per seat."""

    state: State
    visits: int = 0
    totals: np.ndarray | None = None
    children: dict[int, _Node] = field(default_factory=dict)


def _rollout(state: State, rng: np.random.Generator) -> np.ndarray:
    """Random play (chance by its probabilities) to the end: the returns of every seat."""
    while not state.is_terminal:
        if state.is_chance:
            outcomes = state.chance_outcomes()
            k = rng.choice(len(outcomes), p=[p for _, p in outcomes])
            state = state.child(outcomes[k][0])
        else:
            actions = state.legal_actions()
            state = state.child(actions[int(rng.integers(len(actions)))])
    return np.asarray(state.returns(), dtype=np.float64)


def _simulate(node: _Node, rng: np.random.Generator, exploration: float) -> np.ndarray:
    """One UCT iteration below ``node``: select, expand one child, roll out, back up."""
    state = node.state
    if state.is_terminal:
        returns = np.asarray(state.returns(), dtype=np.float64)
    elif state.is_chance:
        outcomes = state.chance_outcomes()
        k = int(rng.choice(len(outcomes), p=[p for _, p in outcomes]))
        action = outcomes[k][0]
        child = node.children.setdefault(action, _Node(state.child(action)))
        returns = _simulate(child, rng, exploration)
    else:
        untried = [a for a in state.legal_actions() if a not in node.children]
        if untried:
            action = untried[0]
            child = _Node(state.child(action))
            node.children[action] = child
            returns = _rollout(child.state, rng)
            child.visits += 1
            child.totals = returns.copy()
        else:
            mover = state.player
            log_n = math.log(node.visits)

            def score(item: tuple[int, _Node]) -> float:
                child = item[1]
                assert child.totals is not None
                mean = child.totals[mover] / child.visits
                return float(mean + exploration * math.sqrt(log_n / child.visits))

            _, child = max(node.children.items(), key=score)
            returns = _simulate(child, rng, exploration)
    node.visits += 1
    node.totals = returns.copy() if node.totals is None else node.totals + returns
    return returns


def uct_visits(
    state: State, simulations: int, rng: np.random.Generator, exploration: float = 2.0
) -> dict[int, int]:
    """Root visit count of each legal action after ``simulations`` UCT iterations on ``state``.

    ``state`` is searched as a perfect-information game (every player sees every card);
    ``exploration`` is UCB1's constant, in chips (Kuhn's returns lie in [-2, 2]).
    """
    if simulations < 1:
        raise PokerlabError(f"simulations must be at least 1; got {simulations}")
    root = _Node(state)
    for _ in range(simulations):
        _simulate(root, rng, exploration)
    return {a: (root.children[a].visits if a in root.children else 0)
            for a in state.legal_actions()}


def determinized_mcts_strategy(
    game: Game,
    *,
    determinizations: int = 20,
    simulations: int = 200,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Strategy:
    """Sampled PIMC: per infoset, UCT on ``determinizations`` sampled deals; the most visited.

    Deals are drawn by their chance probability among the infoset's states; the root visit
    counts are summed over them and the most visited action is played (ties to the first
    legal action), so the strategy is pure, as a search bot's play is.
    """
    if game.n_players != 2:
        raise PokerlabError(
            f"determinized MCTS here is for two-player games; {game!r} has {game.n_players}"
        )
    if determinizations < 1 or simulations < 1:
        raise PokerlabError(
            "determinizations and simulations must be at least 1; got "
            f"{determinizations}, {simulations}"
        )
    rng = np.random.default_rng(seed)
    groups = _infoset_states(game)
    table: dict[str, list[float]] = {}
    for done, (key, states) in enumerate(sorted(groups.items())):
        weights = np.array([w for _, w in states])
        actions = states[0][0].legal_actions()
        counts = dict.fromkeys(actions, 0)
        for k in rng.choice(len(states), size=determinizations, p=weights / weights.sum()):
            for action, visits in uct_visits(states[int(k)][0], simulations, rng).items():
                counts[action] += visits
        best = max(range(len(actions)), key=lambda i: counts[actions[i]] - 1e-9 * i)
        table[key] = [1.0 if i == best else 0.0 for i in range(len(actions))]
        if progress is not None:
            progress(done + 1, len(groups))
    return Strategy.from_dict(game, table, default="error")


@dataclass(frozen=True)
class MctsComparison:
    """Sampled determinized MCTS beside exact PIMC and CFR+, all measured exactly."""

    simulations: int
    determinizations: int
    mcts_exploitability: float
    pimc_exploitability: float
    agreement_with_pimc: float
    cfr_iterations: int
    cfr_exploitability: float


def compare_mcts(
    game: Game,
    *,
    determinizations: int = 20,
    simulations: int = 200,
    seed: int = 0,
    cfr_iterations: int = 200,
) -> MctsComparison:
    """Exploitability of sampled determinized MCTS, exact PIMC, and CFR+ after its iterations.

    ``agreement_with_pimc`` is the share of infosets where MCTS plays exact PIMC's action.
    """
    if cfr_iterations < 1:
        raise PokerlabError(f"cfr_iterations must be at least 1; got {cfr_iterations}")
    mcts = determinized_mcts_strategy(
        game, determinizations=determinizations, simulations=simulations, seed=seed
    )
    pimc = pimc_strategy(game)
    keys = sorted(_infoset_states(game))
    same = sum(
        int(np.argmax(list(mcts.probabilities(k).values())))
        == int(np.argmax(list(pimc.probabilities(k).values())))
        for k in keys
    )
    solver = make_solver("cfr+", game)
    solver.run(iterations=cfr_iterations)
    return MctsComparison(
        simulations=simulations,
        determinizations=determinizations,
        mcts_exploitability=exploitability(game, mcts),
        pimc_exploitability=exploitability(game, pimc),
        agreement_with_pimc=same / len(keys),
        cfr_iterations=cfr_iterations,
        cfr_exploitability=exploitability(game, solver.average_strategy()),
    )
