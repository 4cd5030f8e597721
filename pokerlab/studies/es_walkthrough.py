"""External-sampling Monte Carlo CFR on Kuhn, step by step, with a regret trace.

The tutorial's CFR chapter promises "external sampling CFR detailed code and walk through
(how values change over many iterations)". This module is that code: a plain recursive
external-sampling MCCFR (Lanctot et al. 2009) over the game's states, written to be read,
which records what happens rather than being fast (pokerlab's solvers run the same
algorithm as compiled kernels: :class:`pokerlab.solvers.ExternalSamplingMCCFR`).

One iteration, for each player ``i`` in turn (the *traverser*):

1. at a chance node, sample one outcome (a deal) and go on;
2. at an opponent's infoset, play its regret-matching strategy: add that strategy to the
   infoset's strategy sum (the average strategy), then sample one action and go on;
3. at the traverser's infoset ``I``, try every action ``a``: ``v(a)`` is the sampled value
   of the subtree; the infoset's value is ``v = sum sigma(a) v(a)``; the regret of ``a``
   grows by ``v(a) - v`` (the sampled counterfactual regret, an unbiased estimate of CFR's);
4. terminal: the traverser's payoff.

:func:`walkthrough` returns every update of the first iterations (the table a student
follows), the cumulative regrets of chosen infosets after every iteration (the trace),
the exploitability of the average strategy at checkpoints, and the average strategy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from pokerlab.errors import PokerlabError
from pokerlab.eval.exploitability import exploitability
from pokerlab.games import Game, kuhn
from pokerlab.games.base import State
from pokerlab.strategy import Strategy
from pokerlab.strategy.regrets import regret_matching_strategy
from pokerlab.tree import compile

DEFAULT_TRACED = ("K|pb", "Q|", "K|b", "Q|p")
"""Infosets traced by default (3-card Kuhn's cards are Q, K, A as in the tutorial): P1 with
the K facing check-bet (call?), P1 with the Q first (bluff?), P2 with the K facing a bet
(call?), P2 with the Q after a check (bluff?)."""


@dataclass(frozen=True)
class RegretUpdate:
    """One visit of the traverser to one of its infosets.

    Attributes:
        iteration: 1-based.
        traverser: the player whose regrets change.
        infoset: the infoset key.
        strategy: the regret-matching strategy played there (per legal action).
        action_values: the sampled value of each legal action, ``v(a)``.
        value: the infoset's sampled value ``sum strategy * action_values``.
        regrets: the cumulative regrets after the update.
    """

    iteration: int
    traverser: int
    infoset: str
    strategy: tuple[float, ...]
    action_values: tuple[float, ...]
    value: float
    regrets: tuple[float, ...]


@dataclass(frozen=True)
class Walkthrough:
    """What :func:`walkthrough` recorded.

    Attributes:
        updates: every regret update of the first ``record_iterations`` iterations.
        traced: the traced infoset keys.
        trace: ``{key: [iterations, n_actions]}`` cumulative regrets after each iteration.
        checkpoints: iterations at which exploitability was measured.
        exploitability: of the average strategy at each checkpoint (chips per hand).
        average: the final average strategy.
        action_names: ``{key: names of its legal actions}``.
    """

    updates: tuple[RegretUpdate, ...]
    traced: tuple[str, ...]
    trace: dict[str, np.ndarray]
    checkpoints: np.ndarray
    exploitability: np.ndarray
    average: Strategy
    action_names: dict[str, tuple[str, ...]]


class _Tables:
    """Regrets and strategy sums per infoset key (created on first visit)."""

    def __init__(self) -> None:
        self.regrets: dict[str, np.ndarray] = {}
        self.strategy_sum: dict[str, np.ndarray] = {}

    def get(self, key: str, n_actions: int) -> tuple[np.ndarray, np.ndarray]:
        if key not in self.regrets:
            self.regrets[key] = np.zeros(n_actions)
            self.strategy_sum[key] = np.zeros(n_actions)
        return self.regrets[key], self.strategy_sum[key]


def _traverse(
    state: State,
    traverser: int,
    tables: _Tables,
    rng: np.random.Generator,
    record: Callable[[str, np.ndarray, np.ndarray, float, np.ndarray], None] | None,
) -> float:
    if state.is_terminal:
        return float(state.returns()[traverser])
    if state.is_chance:
        outcomes = state.chance_outcomes()
        probs = np.array([p for _, p in outcomes])
        pick = int(rng.choice(len(outcomes), p=probs / probs.sum()))
        return _traverse(state.child(outcomes[pick][0]), traverser, tables, rng, record)
    actions = state.legal_actions()
    key = state.infoset_key()
    regrets, strategy_sum = tables.get(key, len(actions))
    sigma = regret_matching_strategy(regrets, check=False)
    if state.player != traverser:
        strategy_sum += sigma
        pick = int(rng.choice(len(actions), p=sigma))
        return _traverse(state.child(actions[pick]), traverser, tables, rng, record)
    values = np.array(
        [_traverse(state.child(a), traverser, tables, rng, record) for a in actions]
    )
    value = float(sigma @ values)
    regrets += values - value
    if record is not None:
        record(key, sigma, values, value, regrets)
    return value


def _average(game: Game, tables: _Tables) -> Strategy:
    tree = compile(game)
    probs = np.zeros((tree.n_infosets, tree.max_actions))
    for key, total in tables.strategy_sum.items():
        probs[tree.infoset_id(key), : len(total)] = total
    return Strategy.from_array(
        game, probs, normalize=True, metadata={"algorithm": "es-mccfr walkthrough"}
    )


def walkthrough(
    iterations: int,
    *,
    game: Game | None = None,
    seed: int = 0,
    record_iterations: int = 3,
    traced: Sequence[str] = DEFAULT_TRACED,
    checkpoints: Sequence[int] = (),
    progress: Callable[[int], None] | None = None,
) -> Walkthrough:
    """Run external-sampling MCCFR for ``iterations`` and record it (see the module docstring).

    Args:
        iterations: iterations (each one traversal per player).
        game: a small game (default 3-card Kuhn).
        seed: the sampling seed (a ``numpy.random.Generator``).
        record_iterations: how many first iterations have every update recorded.
        traced: infoset keys whose cumulative regrets are traced after each iteration.
        checkpoints: iterations at which the average's exploitability is measured
            (default: ten points spaced logarithmically, and the last).
        progress: called with the iteration number after each iteration.

    Raises:
        PokerlabError: on a non-positive count, an unknown infoset key or a checkpoint
            outside ``1..iterations``.
    """
    game = game if game is not None else kuhn()
    if iterations < 1 or record_iterations < 0:
        raise PokerlabError(
            f"iterations must be at least 1 and record_iterations at least 0; "
            f"got {iterations}, {record_iterations}"
        )
    tree = compile(game)
    known = set(tree.infoset_keys)
    unknown = [key for key in traced if key not in known]
    if unknown:
        raise PokerlabError(
            f"unknown infoset key(s) {unknown} in {game.spec}; e.g. {sorted(known)[:6]}"
        )
    marks = sorted(set(checkpoints)) if checkpoints else sorted(
        {round(v) for v in np.geomspace(1, iterations, 10)} | {iterations}
    )
    if marks[0] < 1 or marks[-1] > iterations:
        raise PokerlabError(f"checkpoints must lie in 1..{iterations}; got {list(checkpoints)}")
    names = {
        key: tuple(game.action_name(int(a)) for a in tree.infoset_actions[tree.infoset_id(key)]
                   if a >= 0)
        for key in traced
    }
    rng = np.random.default_rng(seed)
    tables = _Tables()
    updates: list[RegretUpdate] = []
    trace = {key: np.zeros((iterations, int(tree.infoset_n_actions[tree.infoset_id(key)])))
             for key in traced}
    measured = np.zeros(len(marks))
    mark_index = 0
    for t in range(1, iterations + 1):
        for traverser in range(game.n_players):
            record = None
            if t <= record_iterations:
                def record(key: str, sigma: np.ndarray, values: np.ndarray, value: float,
                           regrets: np.ndarray, t: int = t, who: int = traverser) -> None:
                    updates.append(RegretUpdate(
                        t, who, key, tuple(sigma.tolist()), tuple(values.tolist()), value,
                        tuple(regrets.tolist()),
                    ))
            _traverse(game.initial_state(), traverser, tables, rng, record)
        for key in traced:
            if key in tables.regrets:
                trace[key][t - 1] = tables.regrets[key]
        if mark_index < len(marks) and marks[mark_index] == t:
            measured[mark_index] = exploitability(game, _average(game, tables))
            mark_index += 1
        if progress is not None:
            progress(t)
    return Walkthrough(
        updates=tuple(updates),
        traced=tuple(traced),
        trace=trace,
        checkpoints=np.asarray(marks, dtype=np.int64),
        exploitability=measured,
        average=_average(game, tables),
        action_names=names,
    )


def first_iteration_regrets(
    game: Game, seeds: Sequence[int], traverser: int = 0
) -> dict[str, np.ndarray]:
    """The mean, over ``seeds``, of the traverser's regrets after one ES traversal from uniform.

    External sampling is unbiased: this mean tends to the counterfactual regrets of the
    uniform profile (CFR's first-iteration regrets) as the seeds grow.
    """
    sums: dict[str, np.ndarray] = {}
    for seed in seeds:
        tables = _Tables()
        _traverse(game.initial_state(), traverser, tables, np.random.default_rng(seed), None)
        for key, regrets in tables.regrets.items():
            if key in sums:
                sums[key] += regrets
            else:
                sums[key] = regrets.copy()
    return {key: total / len(seeds) for key, total in sums.items()}


def regret_trace_figure(result: Walkthrough, path: str, *, title: str | None = None) -> str:
    """Draw the traced cumulative regrets against iterations and the exploitability, to ``path``."""
    from pokerlab.studies._figures import pyplot, save_figure

    plt = pyplot()
    figure, (regrets_axis, exploit_axis) = plt.subplots(1, 2, figsize=(12, 4.5))
    for key in result.traced:
        series = result.trace[key]
        labels = result.action_names.get(key) or tuple(str(a) for a in range(series.shape[1]))
        for slot in range(series.shape[1]):
            regrets_axis.plot(np.arange(1, len(series) + 1), series[:, slot],
                              label=f"{key} {labels[slot]}", linewidth=1)
    regrets_axis.set_xlabel("iteration")
    regrets_axis.set_ylabel("cumulative regret (chips)")
    regrets_axis.legend(fontsize=7, ncol=2)
    regrets_axis.grid(True, alpha=0.3)
    exploit_axis.loglog(result.checkpoints, np.maximum(result.exploitability, 1e-12), marker="o")
    exploit_axis.set_xlabel("iteration")
    exploit_axis.set_ylabel("exploitability of the average (chips per hand)")
    exploit_axis.grid(True, which="both", alpha=0.3)
    figure.suptitle(title or "External-sampling MCCFR on Kuhn: regrets and exploitability")
    figure.tight_layout()
    return str(save_figure(figure, path))


__all__ = [
    "DEFAULT_TRACED",
    "RegretUpdate",
    "Walkthrough",
    "first_iteration_regrets",
    "regret_trace_figure",
    "walkthrough",
]
