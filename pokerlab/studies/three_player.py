"""Three-player poker: CFR's strategies are not equilibrium guarantees (tutorial section 13).

In two-player zero-sum games CFR's average strategy converges to a Nash equilibrium; with
three players nothing guarantees it, and even an equilibrium guarantees nothing when the
others do not play theirs. This study measures both on 3-player Kuhn and 3-player Leduc:

1. NashConv (the sum over players of what a best response gains over the profile; 0 at
   a Nash equilibrium) of the average strategy of CFR, CFR+ and external-sampling MCCFR
   at checkpoints, exact on the compiled tree;
2. head-to-head results among the final strategies, exact expected values: each strategy
   alone against two copies of another (averaged over its three seats), and the three
   strategies seated together (averaged over the six seatings).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from pokerlab.errors import PokerlabError
from pokerlab.eval.expected_value import expected_value
from pokerlab.eval.exploitability import nash_conv
from pokerlab.games import Game, load
from pokerlab.solvers import CFR, CFRPlus, ExternalSamplingMCCFR
from pokerlab.solvers.base import Solver
from pokerlab.strategy import Strategy

ALGORITHMS = ("cfr", "cfr+", "es-mccfr")
"""The solvers compared."""


@dataclass(frozen=True)
class Curve:
    """NashConv of one solver's average strategy against iterations (and seconds)."""

    algorithm: str
    iterations: list[int]
    nash_conv: list[float]
    seconds: list[float]


@dataclass(frozen=True)
class ThreePlayerResult:
    """The study on one game.

    Attributes:
        game: the spec string.
        curves: one per algorithm.
        names: the strategies of the head-to-head (the algorithms, then ``uniform``).
        one_vs_two: ``[i][j]`` chips per hand that strategy ``i`` wins seated alone among
            two copies of strategy ``j`` (averaged over its 3 seats); the diagonal is 0.
        together: chips per hand each of the algorithms' strategies wins when the three
            sit together (averaged over the 6 seatings; sums to 0).
        final_nash_conv: NashConv of each named strategy.
    """

    game: str
    curves: list[Curve]
    names: list[str]
    one_vs_two: list[list[float]]
    together: dict[str, float]
    final_nash_conv: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return asdict(self)


def _solver(game: Game, algorithm: str, seed: int) -> Solver:
    if algorithm == "cfr":
        return CFR(game)
    if algorithm == "cfr+":
        return CFRPlus(game)
    if algorithm == "es-mccfr":
        return ExternalSamplingMCCFR(game, seed=seed)
    raise PokerlabError(f"unknown algorithm {algorithm!r}; choose among {', '.join(ALGORITHMS)}")


def _as_strategy(game: Game, solver: Solver) -> Strategy:
    average = solver.average_strategy()
    return Strategy.from_array(
        game, np.asarray(average.probs), normalize=True, metadata={"algorithm": solver.algorithm}
    )


def _checkpoints(iterations: int, count: int = 12) -> list[int]:
    return sorted({max(1, round(v)) for v in np.geomspace(1, iterations, count)} | {iterations})


def seat_value(game: Game, strategies: Sequence[Strategy], who: int) -> float:
    """Chips per hand of seat-list entry ``who`` averaged over every seating of the list.

    ``strategies`` has one strategy per seat (``n_players`` of them); every permutation of
    seats is played (exactly, by :func:`expected_value`) and ``who``'s value averaged.
    """
    n = game.n_players
    if len(strategies) != n or not 0 <= who < n:
        raise PokerlabError(
            f"need {n} strategies and who in 0..{n - 1}; got {len(strategies)} and {who}"
        )
    total, count = 0.0, 0
    for order in itertools.permutations(range(n)):
        seated = [strategies[k] for k in order]
        total += expected_value(game, seated)[order.index(who)]
        count += 1
    return total / count


def three_player_study(
    game: Game,
    iterations: dict[str, int],
    *,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
) -> ThreePlayerResult:
    """Run the study (see the module docstring) on a 3-player ``game``.

    Args:
        game: a 3-player game that compiles (``load("kuhn", players=3)``, or Leduc's).
        iterations: per algorithm, its iterations (ES-MCCFR's are much cheaper).
        seed: ES-MCCFR's seed.
        progress: called with a line of text at each checkpoint.
    """
    if game.n_players != 3:
        raise PokerlabError(f"the study is for 3-player games; {game.spec} has {game.n_players}")
    unknown = [a for a in iterations if a not in ALGORITHMS]
    if unknown or not iterations or min(iterations.values()) < 1:
        raise PokerlabError(
            f"iterations must map algorithms among {', '.join(ALGORITHMS)} to counts >= 1; "
            f"got {iterations}"
        )
    curves, finals = [], {}
    for algorithm, count in iterations.items():
        solver = _solver(game, algorithm, seed)
        done, spent = 0, 0.0
        xs, ys, ts = [], [], []
        for mark in _checkpoints(count):
            tick = time.perf_counter()
            solver.run(iterations=mark - done, check_every=mark - done)
            spent += time.perf_counter() - tick
            done = mark
            xs.append(mark)
            ys.append(nash_conv(game, _as_strategy(game, solver)))
            ts.append(spent)
            if progress is not None:
                progress(f"{game.spec} {algorithm}: {mark} iterations, NashConv {ys[-1]:.4f}")
        curves.append(Curve(algorithm, xs, ys, ts))
        finals[algorithm] = _as_strategy(game, solver)
    finals["uniform"] = Strategy.uniform(game)
    names = list(finals)
    one_vs_two = [
        [0.0 if a == b else seat_value(game, [finals[a], finals[b], finals[b]], 0) for b in names]
        for a in names
    ]
    trio = [n for n in names if n != "uniform"][:3]
    together = {}
    if len(trio) == 3:
        strategies = [finals[n] for n in trio]
        together = {n: seat_value(game, strategies, k) for k, n in enumerate(trio)}
    return ThreePlayerResult(
        game=str(game.spec),
        curves=curves,
        names=names,
        one_vs_two=one_vs_two,
        together=together,
        final_nash_conv={n: nash_conv(game, s) for n, s in finals.items()},
    )


DEFAULT_ITERATIONS = {
    "kuhn": {"cfr": 2000, "cfr+": 2000, "es-mccfr": 20000},
    "leduc": {"cfr": 200, "cfr+": 200, "es-mccfr": 200_000},
}
"""Per game, the iterations of each solver in ``pokerlab study three-player``."""


def default_games() -> list[Game]:
    """3-player Kuhn and 3-player Leduc."""
    return [load("kuhn", players=3), load("leduc", players=3)]


def nash_conv_figure(results: Sequence[ThreePlayerResult], path: str) -> str:
    """Plot NashConv against iterations, one panel per game, log-log."""
    from pokerlab.studies._figures import pyplot, save_figure

    if not results:
        raise PokerlabError("nash_conv_figure needs at least one result")
    plt = pyplot()
    figure, axes = plt.subplots(1, len(results), figsize=(6.2 * len(results), 4.5), squeeze=False)
    for axis, result in zip(axes[0], results, strict=True):
        for curve in result.curves:
            axis.loglog(
                curve.iterations,
                np.maximum(curve.nash_conv, 1e-9),
                marker=".",
                label=curve.algorithm,
            )
        axis.set_title(f"{result.game}: NashConv of the average strategy")
        axis.set_xlabel("iterations")
        axis.set_ylabel("NashConv (chips per hand)")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend()
    figure.tight_layout()
    return str(save_figure(figure, path))


__all__ = [
    "ALGORITHMS",
    "DEFAULT_ITERATIONS",
    "Curve",
    "ThreePlayerResult",
    "default_games",
    "nash_conv_figure",
    "seat_value",
    "three_player_study",
]
