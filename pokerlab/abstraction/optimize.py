"""Better-than-uniform buckets: search the boundaries that make the lifted strategy strong.

The measure of a bucketing is the exact exploitability, in the *real* game, of the lifted
equilibrium of its abstract game (:class:`BucketEvaluator`: collapse, solve, lift,
best-respond; a few hundredths of a second for 100-card Kuhn with 10 buckets). Two ways
to find good buckets:

1. :func:`behaviour_buckets`: cluster the cards by how the real game's equilibrium plays
   them. Each card is a vector of its action probabilities at its infosets, weighted by
   how often each infoset is reached; the optimal split of the ordered cards into ``B``
   contiguous runs (least weighted squared deviation from the run means) is found exactly
   by dynamic programming over prefix sums (:func:`optimal_segmentation`, ``O(B N^2)``).
2. :func:`optimize_buckets`: start from the best of uniform, percentile and behaviour
   buckets, then local search: move one boundary at a time by ``step`` cards, keep any
   move that lowers the exploitability, halve ``step`` when a full sweep finds none, stop
   at ``step = 1`` without improvement or when the evaluation budget is spent.

Both need the real game solved or evaluated, which is fine for a study of toy games: the
point is to learn which abstractions lose least, to apply the lesson where the real game
cannot be solved.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from pokerlab._types import FloatArray
from pokerlab.abstraction.abstract_game import (
    CardAbstraction,
    item_names,
    item_weights,
)
from pokerlab.abstraction.buckets import (
    Bucketing,
    boundary_buckets,
    percentile_buckets,
    uniform_buckets,
)
from pokerlab.abstraction.lifting import AbstractionResult, solve_abstraction
from pokerlab.errors import SpecError
from pokerlab.games import load
from pokerlab.games.base import Game
from pokerlab.solvers import SequenceFormLP
from pokerlab.strategy import Strategy
from pokerlab.tree import CompiledTree, compile

START_METHODS = ("uniform", "percentile", "behaviour")
"""The bucketings :func:`optimize_buckets` may start from."""


class BucketEvaluator:
    """The real-game exploitability of the lifted solution of each bucketing, cached.

    Args:
        game: the real game (Kuhn or Leduc).
        board: Leduc's board buckets (default: the same as the cards').
        raise_cap: a betting abstraction on top (two-player Leduc).
        algorithm: the abstract game's solver (``"lp"``: exact; ``"cfr+"``...).
        target_exploitability: an iterative solver's tolerance in the abstract game.
        iterations: an iterative solver's iteration cap.

    Attributes:
        evaluations: how many distinct bucketings were solved.
        seconds: the time spent solving and evaluating.
    """

    def __init__(
        self,
        game: Game | str,
        *,
        board: str | Bucketing | None = None,
        raise_cap: int | None = None,
        algorithm: str = "lp",
        target_exploitability: float | None = 1e-6,
        iterations: int | None = None,
    ) -> None:
        self.game = load(game) if isinstance(game, str) else game
        self.board = board
        self.raise_cap = raise_cap
        self.algorithm = algorithm
        self.target_exploitability = target_exploitability
        self.iterations = iterations
        self.evaluations = 0
        self.seconds = 0.0
        self._cache: dict[tuple[int, ...], float] = {}

    def solve(self, bucketing: Bucketing) -> AbstractionResult:
        """Solve and lift one bucketing (not cached)."""
        iterative = self.algorithm != "lp"
        return solve_abstraction(
            self.game,
            bucketing,
            board=self.board,
            raise_cap=self.raise_cap,
            algorithm=self.algorithm,
            iterations=self.iterations if iterative else None,
            target_exploitability=self.target_exploitability if iterative else None,
            check_every=50 if iterative else None,
        )

    def __call__(self, bucketing: Bucketing) -> float:
        """The lifted strategy's exploitability in the real game, in chips per hand."""
        cached = self._cache.get(bucketing.starts)
        if cached is not None:
            return cached
        tick = time.perf_counter()
        value = self.solve(bucketing).lifted_exploitability
        self.seconds += time.perf_counter() - tick
        self.evaluations += 1
        self._cache[bucketing.starts] = value
        return value


@dataclass(frozen=True)
class OptimizationResult:
    """The buckets :func:`optimize_buckets` found.

    Attributes:
        bucketing: the best buckets found.
        exploitability: the real-game exploitability of its lifted strategy (chips/hand).
        start: the starting bucketing's method (``uniform``, ``percentile``, ``behaviour``).
        candidates: the exploitability of each starting bucketing.
        evaluations: distinct bucketings measured (solved, or found in the evaluator's cache).
        seconds: the search time.
        trace: ``(evaluations so far, best exploitability)`` after each improvement.
    """

    bucketing: Bucketing
    exploitability: float
    start: str
    candidates: dict[str, float]
    evaluations: int
    seconds: float
    trace: list[tuple[int, float]] = field(default_factory=list)


def infoset_reach(tree: CompiledTree, probs: FloatArray) -> FloatArray:
    """Return ``[infosets]`` the probability of reaching each infoset under ``probs``.

    Chance and every player's probabilities included (the sum over its histories).
    """
    reach = np.zeros(tree.n_histories)
    reach[0] = 1.0
    offsets = tree.level_offsets
    for d in range(1, offsets.shape[0] - 1):
        lo, hi = int(offsets[d]), int(offsets[d + 1])
        parent = tree.parent[lo:hi]
        edge = tree.chance_prob[lo:hi].copy()
        decided = tree.player[parent] >= 0
        rows = np.flatnonzero(decided)
        edge[rows] = probs[tree.infoset[parent[rows]], tree.slot[rows + lo]]
        reach[lo:hi] = reach[parent] * edge
    decision = tree.decision_ids
    out: FloatArray = np.bincount(
        tree.infoset[decision], weights=reach[decision], minlength=tree.n_infosets
    ).astype(np.float64)
    return out


def optimal_segmentation(
    features: FloatArray, weights: FloatArray, n_buckets: int
) -> tuple[int, ...]:
    """Split ordered items into ``n_buckets`` contiguous runs of least weighted variance.

    Minimises ``sum over runs, features f: sum_i w[i,f] (x[i,f] - mean_run[f])^2`` with the
    weighted mean per run, exactly, by dynamic programming over prefix sums.

    Args:
        features: ``[items, features]`` each item's vector.
        weights: ``[items, features]`` non-negative weights.
        n_buckets: the number of runs, ``1..items``.

    Returns:
        The first item of each run.

    Example:
        >>> x = np.array([[0.0], [0.1], [1.0], [1.1], [5.0]])
        >>> optimal_segmentation(x, np.ones_like(x), 3)
        (0, 2, 4)
    """
    x = np.asarray(features, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    n = x.shape[0]
    if not 1 <= n_buckets <= n:
        raise SpecError(f"segmentation needs 1 <= buckets <= items ({n}); got {n_buckets}")
    zeros = np.zeros((1, x.shape[1]))
    sw = np.concatenate([zeros, np.cumsum(w, axis=0)])
    swx = np.concatenate([zeros, np.cumsum(w * x, axis=0)])
    swxx = np.concatenate([zeros, np.cumsum(w * x * x, axis=0)])
    # cost[i, j]: the run of items i..j-1 (i < j).
    dw = sw[None, :, :] - sw[:, None, :]
    dwx = swx[None, :, :] - swx[:, None, :]
    dwxx = swxx[None, :, :] - swxx[:, None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        cost = (dwxx - np.where(dw > 0, dwx * dwx / dw, 0.0)).sum(axis=2)
    cost = np.maximum(cost, 0.0)
    upper = np.triu(np.ones((n + 1, n + 1), dtype=bool), k=1)
    cost = np.where(upper, cost, np.inf)
    best = np.full((n_buckets + 1, n + 1), np.inf)
    choice = np.zeros((n_buckets + 1, n + 1), dtype=np.int64)
    best[0, 0] = 0.0
    for k in range(1, n_buckets + 1):
        total = best[k - 1][:, None] + cost  # [start, end]
        choice[k] = np.argmin(total, axis=0)
        best[k] = total[choice[k], np.arange(n + 1)]
    starts = []
    end = n
    for k in range(n_buckets, 0, -1):
        start = int(choice[k, end])
        starts.append(start)
        end = start
    return tuple(reversed(starts))


def behaviour_buckets(
    game: Game | str, n_buckets: int, *, strategy: Strategy | None = None
) -> Bucketing:
    """Buckets of cards that the real game's equilibrium plays alike.

    Args:
        game: the real game (Kuhn or Leduc).
        n_buckets: how many buckets.
        strategy: an equilibrium of ``game`` (default: solved by the sequence-form LP).

    Raises:
        SpecError: ``n_buckets`` outside ``1..N``, or another game.
    """
    real = load(game) if isinstance(game, str) else game
    names = item_names(real)
    n_items = len(names)
    uniform_buckets(n_items, n_buckets)  # validates n_buckets
    if strategy is None:
        strategy = SequenceFormLP(real).run().average_strategy()
    strategy.check_game(real)
    tree = compile(real)
    mapping = CardAbstraction(real, uniform_buckets(n_items, n_items))
    reach = infoset_reach(tree, strategy.probs)
    contexts: dict[str, int] = {}
    item_of = np.empty(tree.n_infosets, dtype=np.int64)
    context_of = np.empty(tree.n_infosets, dtype=np.int64)
    for i, key in enumerate(tree.infoset_keys):
        head, _, rest = key.partition("|")
        item_of[i] = mapping.item(head)
        context_of[i] = contexts.setdefault(rest, len(contexts))
    width = tree.max_actions
    features = np.zeros((n_items, len(contexts) * width))
    weights = np.zeros_like(features)
    columns = context_of[:, None] * width + np.arange(width)[None, :]
    legal = tree.legal_mask
    for i in range(tree.n_infosets):
        features[item_of[i], columns[i][legal[i]]] = strategy.probs[i][legal[i]]
        weights[item_of[i], columns[i][legal[i]]] = reach[i]
    starts = optimal_segmentation(features, weights, n_buckets)
    return Bucketing(n_items, starts, "behaviour")


def _start_bucketing(
    method: str, game: Game, n_buckets: int, equilibrium: Strategy | None
) -> Bucketing:
    n_items = len(item_names(game))
    if method == "uniform":
        return uniform_buckets(n_items, n_buckets)
    if method == "percentile":
        return percentile_buckets(item_weights(game), n_buckets)
    if method == "behaviour":
        return behaviour_buckets(game, n_buckets, strategy=equilibrium)
    raise SpecError(f"unknown start {method!r}; allowed: {', '.join(START_METHODS)}")


def optimize_buckets(
    game: Game | str,
    n_buckets: int,
    *,
    evaluator: BucketEvaluator | None = None,
    starts: Sequence[str] = START_METHODS,
    max_evaluations: int = 150,
    equilibrium: Strategy | None = None,
    progress: Callable[[int, float], None] | None = None,
) -> OptimizationResult:
    """Search contiguous buckets that minimise the lifted strategy's real exploitability.

    Args:
        game: the real game (Kuhn or Leduc).
        n_buckets: how many buckets.
        evaluator: how bucketings are measured (default: :class:`BucketEvaluator` with the
            exact LP); pass one to share its cache or choose the solver.
        starts: the bucketings to start from (the best one is searched from).
        max_evaluations: the budget of distinct bucketings measured, starts included.
        equilibrium: an equilibrium of ``game`` for the ``behaviour`` start (default:
            solved by the LP when needed).
        progress: called with ``(evaluations, best exploitability)`` after each evaluation.

    Returns:
        The best buckets found; never worse than the best start.

    Raises:
        SpecError: ``n_buckets`` outside ``1..N``, an unknown start, another game.

    Example:
        >>> from pokerlab.games import kuhn
        >>> found = optimize_buckets(kuhn(cards=12), 3, max_evaluations=20)
        >>> found.exploitability <= found.candidates["uniform"]
        True
    """
    real = load(game) if isinstance(game, str) else game
    n_items = len(item_names(real))
    uniform_buckets(n_items, n_buckets)  # validates n_buckets
    if isinstance(max_evaluations, bool) or not isinstance(max_evaluations, int) or (
        max_evaluations < 1
    ):
        raise SpecError(f"max_evaluations must be an integer >= 1; got {max_evaluations!r}")
    if not starts:
        raise SpecError(f"optimize_buckets needs a start; allowed: {', '.join(START_METHODS)}")
    evaluator = evaluator or BucketEvaluator(real)
    tick = time.perf_counter()
    measured: set[tuple[int, ...]] = set()
    trace: list[tuple[int, float]] = []

    def spent() -> int:
        return len(measured)

    def measure(bucketing: Bucketing) -> float:
        value = evaluator(bucketing)
        measured.add(bucketing.starts)
        if progress is not None:
            progress(spent(), min(value, best_value) if trace else value)
        return value

    candidates: dict[str, float] = {}
    best: Bucketing | None = None
    best_value = np.inf
    best_start = starts[0]
    for method in starts:
        bucketing = _start_bucketing(method, real, n_buckets, equilibrium)
        value = measure(bucketing)
        candidates[method] = value
        if value < best_value:
            best, best_value, best_start = bucketing, value, method
            trace.append((spent(), value))
    assert best is not None
    step = max(1, n_items // (2 * n_buckets))
    while spent() < max_evaluations and n_buckets > 1:
        improved = False
        for j in range(1, n_buckets):
            for delta in (step, -step):
                moved = list(best.starts)
                moved[j] += delta
                upper = moved[j + 1] if j + 1 < n_buckets else n_items
                if not moved[j - 1] < moved[j] < upper:
                    continue
                candidate = boundary_buckets(n_items, moved)
                value = measure(candidate)
                if value < best_value - 1e-12:
                    best, best_value = candidate, value
                    trace.append((spent(), value))
                    improved = True
                    break
                if spent() >= max_evaluations:
                    break
            if spent() >= max_evaluations:
                break
        if not improved:
            if step == 1:
                break
            step //= 2
    found = Bucketing(n_items, best.starts, "optimized")
    return OptimizationResult(
        bucketing=found,
        exploitability=float(best_value),
        start=best_start,
        candidates=candidates,
        evaluations=spent(),
        seconds=time.perf_counter() - tick,
        trace=trace,
    )


__all__ = [
    "START_METHODS",
    "BucketEvaluator",
    "OptimizationResult",
    "behaviour_buckets",
    "infoset_reach",
    "optimal_segmentation",
    "optimize_buckets",
]
