"""Exact equilibria of two-player zero-sum games: the sequence-form linear program.

P1 picks a realization plan ``x`` (``E x = e``, ``x >= 0``), P2 a plan ``y``
(``F y = f``, ``y >= 0``), and P1 wins ``x^T A y`` (see :mod:`pokerlab.solvers.sequence_form`).
The equilibrium is ``max_x min_y x^T A y``. For fixed ``y``, P1's best response is an LP
whose dual is ``min_p e^T p`` subject to ``E^T p >= A y``; so, as in the tutorial's MATLAB
program, one LP gives the game value and P2's plan:

1. build ``E``, ``F``, ``e``, ``f``, ``A`` (sparse) from the compiled tree;
2. solve ``min e^T p`` over ``(y, p)`` subject to ``A y - E^T p <= 0``, ``F y = f``,
   ``y >= 0``, ``p`` free, with HiGHS (:func:`scipy.optimize.linprog`);
3. the optimum ``e^T p = p[0]`` is P1's game value (chips per hand); ``y`` is P2's plan;
4. the multipliers of the inequalities are P1's plan ``x`` (HiGHS reports them as
   ``res.ineqlin.marginals``, the sensitivity of the objective to the right-hand side, so
   ``x = -marginals``); ``E x = e`` holds by the dual's stationarity in ``p``;
5. behaviour probabilities are ``x[sequence] / x[parent sequence]`` (uniform where the
   parent is never played).

If the duals come back inaccurate (they should not: HiGHS returns a basic solution), P1's
plan is taken instead from the mirror LP ``max f^T q`` subject to ``F^T q <= A^T x``.

References:
    D. Koller, N. Megiddo, B. von Stengel, "Fast algorithms for finding randomized
    strategies in game trees", STOC 1994; B. von Stengel, "Efficient computation of
    behavior strategies", Games and Economic Behavior 14 (1996).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, ClassVar, Self

import numpy as np
from scipy import sparse

from pokerlab._types import FloatArray
from pokerlab.errors import SolverError
from pokerlab.games.base import Game
from pokerlab.solvers.base import Callback, Interrupt, Solver, register_solver
from pokerlab.solvers.sequence_form import (
    SequenceForm,
    build_sequence_form,
    check_two_player_zero_sum,
    plan_to_behaviour,
)
from pokerlab.strategy import Strategy
from pokerlab.tree import DEFAULT_MEMORY_LIMIT, compile

PLAN_TOLERANCE = 1e-9
"""Largest residual of ``E x = e`` accepted from the duals before solving the mirror LP."""

_HIGHS_OPTIONS: dict[str, Any] = {
    "presolve": True,
    "primal_feasibility_tolerance": 1e-10,
    "dual_feasibility_tolerance": 1e-10,
}


@dataclass(frozen=True, eq=False)
class LPSolution:
    """An equilibrium of a two-player zero-sum game, from the sequence-form LP.

    Attributes:
        value: P1's game value, in chips per hand (P2's is ``-value``).
        x: ``[P1 sequences]`` P1's realization plan (``E x = e``, ``x >= 0``).
        y: ``[P2 sequences]`` P2's realization plan (``F y = f``, ``y >= 0``).
        p: ``[1 + P1 infosets]`` the LP's ``p``: ``p[0]`` is the value; ``p[r]`` is what P1
            can still win from the infoset of row ``r`` of ``E`` against ``y``.
        strategy: both players' behaviour strategies.
        form: the sequence-form matrices that were solved.
        seconds: building and solving time, in seconds.
        solve_seconds: of which HiGHS, in seconds.
    """

    value: float
    x: FloatArray
    y: FloatArray
    p: FloatArray
    strategy: Strategy
    form: SequenceForm
    seconds: float
    solve_seconds: float


def solve_sequence_form(game: Game, *, memory_limit: int = DEFAULT_MEMORY_LIMIT) -> LPSolution:
    """Solve a two-player zero-sum game exactly by the sequence-form LP (HiGHS).

    Args:
        game: a two-player zero-sum game.
        memory_limit: the largest LP accepted, in bytes (estimated before building).

    Returns:
        The game value, both realization plans and the equilibrium strategy.

    Raises:
        SolverError: if the game is not two-player zero-sum, or HiGHS fails.
        GameTooLargeError: if the LP would exceed ``memory_limit``.

    Example:
        >>> from pokerlab.games import kuhn
        >>> solution = solve_sequence_form(kuhn())
        >>> round(solution.value, 9), round(-1 / 18, 9)
        (-0.055555556, -0.055555556)
    """
    start = time.perf_counter()
    form = build_sequence_form(game, memory_limit=memory_limit)
    n1, n2 = form.n_sequences
    m1 = form.E.shape[0]
    # Variables (y, p): minimise e^T p s.t. A y - E^T p <= 0, F y = f, y >= 0, p free.
    c = np.concatenate([np.zeros(n2), form.e])
    A_ub = sparse.hstack([form.A, -form.E.T], format="csc")
    A_eq = sparse.hstack([form.F, sparse.csr_array((form.F.shape[0], m1))], format="csc")
    bounds = np.array([(0.0, np.inf)] * n2 + [(-np.inf, np.inf)] * m1)
    tick = time.perf_counter()
    from scipy.optimize import linprog  # here: scipy.optimize takes a second to import

    result = linprog(
        c,
        A_ub=A_ub,
        b_ub=np.zeros(n1),
        A_eq=A_eq,
        b_eq=form.f,
        bounds=bounds,
        method="highs",
        options=_HIGHS_OPTIONS,
    )
    solve_seconds = time.perf_counter() - tick
    _check_result(game, result)
    y = np.clip(result.x[:n2], 0.0, None)
    p = result.x[n2:]
    value = float(result.fun)
    x = np.clip(-result.ineqlin.marginals, 0.0, None)
    residual = float(np.abs(form.E @ x - form.e).max())
    if not residual <= PLAN_TOLERANCE:
        tick = time.perf_counter()
        x = _solve_p1_plan(game, form)
        solve_seconds += time.perf_counter() - tick

    return _solution(
        game, form, value, x, y, p, seconds=time.perf_counter() - start, solve_seconds=solve_seconds
    )


def _solution(
    game: Game,
    form: SequenceForm,
    value: float,
    x: FloatArray,
    y: FloatArray,
    p: FloatArray,
    *,
    seconds: float,
    solve_seconds: float,
) -> LPSolution:
    """Wrap the plans, with the behaviour strategy they define."""
    tree = compile(game)
    probs = np.zeros((tree.n_infosets, tree.max_actions))
    plan_to_behaviour(tree, 0, x, probs)
    plan_to_behaviour(tree, 1, y, probs)
    strategy = Strategy.from_array(
        game, probs, metadata={"algorithm": "lp", "iterations": 1, "value": value}
    )
    return LPSolution(
        value=value,
        x=x,
        y=y,
        p=p,
        strategy=strategy,
        form=form,
        seconds=seconds,
        solve_seconds=solve_seconds,
    )


def _solve_p1_plan(game: Game, form: SequenceForm) -> FloatArray:
    """P1's plan from the mirror LP: maximise ``f^T q`` s.t. ``F^T q - A^T x <= 0``, ``E x = e``."""
    n1, _ = form.n_sequences
    m2 = form.F.shape[0]
    c = np.concatenate([np.zeros(n1), -form.f])
    A_ub = sparse.hstack([-form.A.T, form.F.T], format="csc")
    A_eq = sparse.hstack([form.E, sparse.csr_array((form.E.shape[0], m2))], format="csc")
    bounds = np.array([(0.0, np.inf)] * n1 + [(-np.inf, np.inf)] * m2)
    from scipy.optimize import linprog  # here: scipy.optimize takes a second to import

    result = linprog(
        c,
        A_ub=A_ub,
        b_ub=np.zeros(A_ub.shape[0]),
        A_eq=A_eq,
        b_eq=form.e,
        bounds=bounds,
        method="highs",
        options=_HIGHS_OPTIONS,
    )
    _check_result(game, result)
    plan: FloatArray = np.clip(result.x[:n1], 0.0, None)
    return plan


def _check_result(game: Game, result: Any) -> None:
    if result.status != 0:
        raise SolverError(
            f"HiGHS could not solve the sequence-form LP of {game.spec}: {result.message} "
            f"(status {result.status})"
        )


@register_solver
class SequenceFormLP(Solver):
    """The exact equilibrium of a two-player zero-sum game, by one linear program.

    Follows the :class:`~pokerlab.solvers.base.Solver` interface: ``run()`` solves the LP
    once (it takes no stopping rules, and refuses them), after which :attr:`iterations` is 1,
    :attr:`history` has one row, :attr:`value` is P1's game value, and both
    :meth:`average_strategy` and :meth:`current_strategy` return the equilibrium. Before
    ``run()`` they return the uniform strategy.

    Args:
        game: a two-player zero-sum game.
        memory_limit: the largest LP accepted, in bytes; checked when ``run()`` builds it.

    Raises:
        SolverError: if the game is not two-player zero-sum (raised here, before any work).

    Example:
        >>> from pokerlab.games import kuhn
        >>> solver = SequenceFormLP(kuhn()).run()
        >>> round(solver.value, 9), solver.iterations
        (-0.055555556, 1)
        >>> round(solver.average_strategy().probabilities("K|b")[1], 9)
        0.333333333
    """

    algorithm: ClassVar[str] = "lp"
    iterative: ClassVar[bool] = False

    def __init__(self, game: Game, *, memory_limit: int = DEFAULT_MEMORY_LIMIT) -> None:
        check_two_player_zero_sum(game)
        if not isinstance(memory_limit, int) or memory_limit <= 0:
            raise SolverError(
                f"memory_limit must be a positive number of bytes; got {memory_limit!r}"
            )
        super().__init__(game)
        self.memory_limit = memory_limit
        self._solution: LPSolution | None = None

    def hyperparameters(self) -> dict[str, Any]:
        """The hyper-parameters as given (recorded in files)."""
        return {"memory_limit": self.memory_limit}

    @property
    def solution(self) -> LPSolution:
        """The full solution (plans, value, matrices).

        Raises:
            SolverError: before :meth:`run`.
        """
        if self._solution is None:
            raise SolverError("the LP is not solved yet; call run() first")
        return self._solution

    @property
    def value(self) -> float:
        """P1's game value in chips per hand (P2's is its negative).

        Raises:
            SolverError: before :meth:`run`.
        """
        return self.solution.value

    def run(
        self,
        iterations: int | None = None,
        *,
        target_exploitability: float | None = None,
        seconds: float | None = None,
        check_every: int | None = None,
        callback: Callback | None = None,
        interrupt: Interrupt | None = None,
        measure: bool | None = None,
    ) -> Self:
        """Solve the LP (once; later calls do nothing) and measure its exploitability.

        The LP is exact in one step, so it takes no stopping rule: passing one is an
        error rather than a silently ignored argument.

        Args:
            iterations: refused (must be None).
            target_exploitability: refused.
            seconds: refused.
            check_every: refused.
            callback: called once with a :class:`~pokerlab.solvers.base.Progress` after
                solving and measuring the exploitability.
            interrupt: polled once before solving (HiGHS cannot be stopped midway).
            measure: False skips measuring the exploitability.

        Returns:
            ``self``, for chaining.

        Raises:
            SolverError: if a stopping rule is given.
            GameTooLargeError: if the LP would exceed the memory limit.
        """
        given = {
            "iterations": iterations,
            "target_exploitability": target_exploitability,
            "seconds": seconds,
            "check_every": check_every,
        }
        refused = [f"{name}={value!r}" for name, value in given.items() if value is not None]
        if refused:
            raise SolverError(
                f"the sequence-form LP solves exactly in one step and takes no stopping rule; "
                f"got {', '.join(refused)}: call run() without them"
            )
        self.interrupted = False
        if self._solution is not None:
            return self
        if interrupt is not None and interrupt():
            self.interrupted = True
            return self
        tick = time.perf_counter()
        self._iterate()
        self.iterations = 1
        self._seconds += time.perf_counter() - tick
        self._check(1, callback, measure is not False)
        self._wall_seconds += time.perf_counter() - tick
        return self

    def _iterate(self) -> None:
        if self._solution is None:
            self._solution = solve_sequence_form(self.game, memory_limit=self.memory_limit)

    def average_strategy(self) -> Strategy:
        """The equilibrium strategy of both players (uniform before :meth:`run`)."""
        if self._solution is None:
            return Strategy.uniform(self.game)
        strategy = self._solution.strategy
        metadata: dict[str, Any] = dict(strategy.metadata)
        if self.history:
            metadata["exploitability"] = self.history[-1].exploitability
        return Strategy(self.game, strategy.probs.copy(), metadata)

    def current_strategy(self) -> Strategy:
        """The same as :meth:`average_strategy`: the LP has no iterates."""
        return self.average_strategy()

    # -- checkpoints ----------------------------------------------------------------------
    def _state(self) -> dict[str, Any]:
        """The solution's plans and value (restored without solving again)."""
        if self._solution is None:
            return {"solved": False}
        solution = self._solution
        return {
            "solved": True,
            "value": solution.value,
            "x": solution.x,
            "y": solution.y,
            "p": solution.p,
            "seconds": solution.seconds,
            "solve_seconds": solution.solve_seconds,
        }

    def _restore(self, state: dict[str, Any]) -> None:
        if not state.get("solved"):
            self._solution = None
            return
        form = build_sequence_form(self.game, memory_limit=self.memory_limit)
        plans = [np.asarray(state[k], dtype=np.float64) for k in ("x", "y", "p")]
        expected = (form.n_sequences[0], form.n_sequences[1], form.E.shape[0])
        if tuple(plan.shape[0] for plan in plans) != expected:
            raise SolverError(
                f"the checkpoint's realization plans do not fit {self.game.spec} "
                f"(sizes {[plan.shape[0] for plan in plans]}, expected {list(expected)})"
            )
        self._solution = _solution(
            self.game,
            form,
            float(state["value"]),
            *plans,
            seconds=float(state["seconds"]),
            solve_seconds=float(state["solve_seconds"]),
        )
