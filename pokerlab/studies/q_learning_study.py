"""Q-learning in self-play beside CFR: what each learns, measured by exact exploitability.

The tutorial asks "How is this related to Q learning?" (section 7) and lists "RL
terminology" and "exploitation vs. exploration" (section 5). This study trains
:class:`pokerlab.solvers.QLearning` by self-play on Kuhn or Leduc for some hands, with
several seeds, and :class:`pokerlab.solvers.CFR` beside it, and measures at log-spaced
checkpoints, exactly on the compiled tree:

- for Q-learning, the exploitability of its greedy policy (the argmax of Q: what it has
  learned), of its epsilon-greedy policy (what it plays) and of its average (the
  frequencies of its actions over the run), and how many infosets' greedy action changed
  since the last checkpoint (the policy still chasing the opponent);
- for CFR, the exploitability of its average strategy and of its current strategy.

Why the greedy policy cannot converge, in one number: it is a pure strategy, and
:func:`pure_profile_floor` computes (over the induced normal form, where it is small
enough to enumerate) the least exploitability any profile of pure strategies has. In
Kuhn poker it is exactly 1/6 chip a hand (P1's best pure guarantee is -1/6, the least a
pure P2 concedes is +1/6), so a greedy learner never comes closer to equilibrium than
that, however long it learns.

Work is counted in game states visited: a Q-learning hand passes through a handful of
states (:attr:`QLearning.states_visited`); a CFR iteration updates each player once, each
update a pass over all the tree's histories, so ``n_players * n_histories`` states.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from pokerlab._types import FloatArray, IntArray
from pokerlab.errors import PokerlabError
from pokerlab.eval import exploitability
from pokerlab.games import Game
from pokerlab.solvers import CFR, QLearning, induced_normal_form
from pokerlab.studies.regret_bound import checkpoints
from pokerlab.tree import compile


@dataclass(frozen=True)
class QLearningCurve:
    """Q-learning's exploitability at checkpoints, one row per seed.

    Attributes:
        hands: ``[checkpoints]`` hands played when measured.
        states: ``[seeds, checkpoints]`` game states visited by then.
        greedy: ``[seeds, checkpoints]`` exploitability of the greedy policy (chips/hand).
        behaviour: ``[seeds, checkpoints]`` of the epsilon-greedy policy it plays.
        average: ``[seeds, checkpoints]`` of its action frequencies over the run.
        churn: ``[seeds, checkpoints]`` infosets whose greedy action changed since the
            previous checkpoint (an infoset met for the first time does not count).
        seeds: the seeds.
    """

    hands: IntArray
    states: IntArray
    greedy: FloatArray
    behaviour: FloatArray
    average: FloatArray
    churn: IntArray
    seeds: tuple[int, ...]


@dataclass(frozen=True)
class CFRCurve:
    """CFR's exploitability at checkpoints.

    Attributes:
        iterations: ``[checkpoints]``.
        states: ``[checkpoints]`` game states visited (``n_players * n_histories`` an iteration).
        average: ``[checkpoints]`` exploitability of the average strategy (chips per hand).
        current: ``[checkpoints]`` of the current strategy.
    """

    iterations: IntArray
    states: IntArray
    average: FloatArray
    current: FloatArray


def _greedy_actions(solver: QLearning) -> dict[str, int]:
    """Each infoset met's greedy action (the first of the largest Q values)."""
    out = {}
    for key, values in solver.q_values().items():
        out[key] = max(values, key=lambda a: (values[a], -a))
    return out


def pure_profile_floor(game: Game) -> float:
    """The least exploitability of any profile of pure strategies, in chips per hand.

    With ``A`` the induced normal form (P1's payoffs), a pure profile ``(i, j)`` has
    NashConv ``max_k A[k, j] - min_l A[i, l]``; the smallest is ``min_j max_k A[k, j] -
    max_i min_l A[i, l]`` (the pure upper value minus the pure lower value), halved for
    the exploitability. Kuhn poker: ``(1/6 - (-1/6)) / 2 = 1/6``.

    Raises:
        SolverError: if the game is not two-player zero-sum or has too many pure strategies
            to enumerate (Leduc has far too many).
    """
    matrix = induced_normal_form(game).A
    upper = float(matrix.max(axis=0).min())
    lower = float(matrix.min(axis=1).max())
    return (upper - lower) / 2.0


def run_q_learning(
    game: Game,
    hands: int,
    *,
    seeds: Sequence[int] = (0, 1, 2),
    learning_rate: float = 0.1,
    epsilon: float = 0.1,
    per_decade: int = 4,
    progress: Callable[[int], None] | None = None,
) -> QLearningCurve:
    """Train Q-learning by self-play, once per seed, measuring at log-spaced checkpoints.

    Args:
        game: a game that compiles (the measurements are exact).
        hands: hands per seed.
        seeds: one run per seed.
        learning_rate: Q-learning's ``alpha``.
        epsilon: its exploration probability.
        per_decade: checkpoints per factor of 10.
        progress: called with the hands done so far, over all seeds.

    Raises:
        PokerlabError: no seeds, or ``hands`` below 1.
    """
    if not seeds:
        raise PokerlabError("run_q_learning needs at least one seed")
    marks = checkpoints(hands, per_decade)
    shape = (len(seeds), marks.shape[0])
    greedy, behaviour, average = np.empty(shape), np.empty(shape), np.empty(shape)
    states = np.empty(shape, dtype=np.int64)
    churn = np.zeros(shape, dtype=np.int64)
    for s, seed in enumerate(seeds):
        solver = QLearning(game, learning_rate=learning_rate, epsilon=epsilon, seed=seed)
        previous: dict[str, int] = {}
        done = 0
        for k, mark in enumerate(marks):
            step = int(mark) - done
            solver.run(iterations=step, check_every=step + 1)
            done = int(mark)
            table = solver.greedy_strategy()
            greedy[s, k] = exploitability(game, table)
            behaviour[s, k] = exploitability(game, solver.current_strategy())
            measured = solver.history[-1].exploitability  # the run's own check: the average
            average[s, k] = (exploitability(game, solver.average_strategy()) if measured is None
                             else measured)
            states[s, k] = solver.states_visited
            actions = _greedy_actions(solver)
            churn[s, k] = sum(1 for key, a in actions.items() if key in previous
                              and previous[key] != a)
            previous = actions
            if progress is not None:
                progress(s * hands + done)
    return QLearningCurve(marks, states, greedy, behaviour, average, churn, tuple(seeds))


def run_cfr(
    game: Game,
    iterations: int,
    *,
    per_decade: int = 4,
    progress: Callable[[int], None] | None = None,
) -> CFRCurve:
    """Run CFR (alternating updates), measuring its average and current strategies."""
    marks = checkpoints(iterations, per_decade)
    tree = compile(game)
    solver = CFR(game)
    average, current = np.empty(marks.shape[0]), np.empty(marks.shape[0])
    done = 0
    for k, mark in enumerate(marks):
        step = int(mark) - done
        solver.run(iterations=step, check_every=step + 1)
        done = int(mark)
        measured = solver.history[-1].exploitability  # the run's own check: the average
        average[k] = (exploitability(game, solver.average_strategy()) if measured is None
                      else measured)
        current[k] = exploitability(game, solver.current_strategy())
        if progress is not None:
            progress(done)
    per_iteration = tree.n_players * tree.n_histories
    return CFRCurve(marks, marks * per_iteration, average, current)


def q_learning_figure(game: Game, q: QLearningCurve, cfr: CFRCurve, path: str,
                      *, floor: float | None = None) -> str:
    """Exploitability against game states visited (log-log), and the greedy policy's churn.

    ``floor`` (:func:`pure_profile_floor`), when given, is drawn as a horizontal line.
    """
    from pokerlab.studies._figures import pyplot, save_figure

    plt = pyplot()
    figure, (left, right) = plt.subplots(1, 2, figsize=(13, 4.8))
    states = q.states.mean(axis=0)
    for name, values, style in (("Q-learning greedy", q.greedy, "-"),
                                ("Q-learning epsilon-greedy", q.behaviour, "--"),
                                ("Q-learning average", q.average, "-.")):
        mean = values.mean(axis=0)
        line = left.loglog(states, mean, style, label=f"{name} (mean of {len(q.seeds)} seeds)")
        if len(q.seeds) > 1:
            left.fill_between(states, values.min(axis=0), values.max(axis=0), alpha=0.15,
                              color=line[0].get_color())
    left.loglog(cfr.states, np.maximum(cfr.average, 1e-12), color="k", label="CFR average")
    left.loglog(cfr.states, np.maximum(cfr.current, 1e-12), color="gray", linestyle=":",
                label="CFR current")
    if floor is not None:
        left.axhline(floor, color="tab:red", linewidth=0.8,
                     label=f"least exploitability of a pure profile ({floor:.4f})")
    left.set_title(f"{game.spec}: exploitability against game states visited")
    left.set_xlabel("game states visited")
    left.set_ylabel("exploitability (chips per hand)")
    left.grid(True, which="major", alpha=0.3)
    left.legend(fontsize=8)
    for s, seed in enumerate(q.seeds):
        right.semilogx(q.hands, q.churn[s], marker=".", label=f"seed {seed}")
    right.set_title("Q-learning: greedy actions changed since the last checkpoint")
    right.set_xlabel("hands played")
    right.grid(True, which="major", alpha=0.3)
    right.legend(fontsize=8)
    figure.tight_layout()
    return str(save_figure(figure, path))


__all__ = [
    "CFRCurve",
    "QLearningCurve",
    "pure_profile_floor",
    "q_learning_figure",
    "run_cfr",
    "run_q_learning",
]
