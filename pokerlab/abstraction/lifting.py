"""Lifting: play the real game with a strategy of its abstraction, and measure it there.

Every infoset of the real game gets the row of the abstract infoset that plays it
(:meth:`AbstractGame.abstract_key <pokerlab.abstraction.AbstractGame.abstract_key>`: its
card's bucket, and with a raise cap the translated betting). Actions are matched by id;
a real action the abstract infoset lacks (a raise beyond the cap) gets probability 0, and
a real infoset where no abstract action is legal (an all-in the abstraction never saw)
calls. The lifted strategy is a :class:`~pokerlab.strategy.Strategy` of the real game, so
its exploitability there is exact.

:func:`solve_abstraction` does the whole loop: build the abstract game, collapse it,
solve it with any solver of :data:`pokerlab.solvers.SOLVERS`, lift, and evaluate.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerlab._cache import SpecCache
from pokerlab._types import FloatArray, IntArray
from pokerlab.abstraction.abstract_game import (
    AbstractGame,
    CollapsedGame,
    abstract_game,
    collapse,
)
from pokerlab.abstraction.buckets import Bucketing
from pokerlab.errors import PokerlabError, SolverError, StrategyError
from pokerlab.eval import expected_value, exploitability_array
from pokerlab.games.base import Game
from pokerlab.solvers import SOLVERS
from pokerlab.solvers.base import Progress
from pokerlab.strategy import Strategy, tabulate
from pokerlab.tree import CompiledTree, compile

CALL = 1
"""The action a lifted row falls back on when no abstract action is legal (Leduc's call)."""


@dataclass(frozen=True, eq=False)
class LiftingMap:
    """Which abstract row and slot plays each real infoset and slot.

    Attributes:
        full_tree: the real game's compiled tree.
        abstract_tree: the compiled tree of the game the abstract strategy belongs to.
        index: ``[real infosets]`` the abstract infoset id that plays each real infoset.
        slots: ``[real infosets, max_actions]`` the abstract slot of each real slot, -1
            where the abstract infoset lacks the action (or the slot is empty).
    """

    full_tree: CompiledTree
    abstract_tree: CompiledTree
    index: IntArray
    slots: IntArray

    def apply(self, abstract_probs: FloatArray) -> FloatArray:
        """Return the real game's ``[infosets, max_actions]`` probabilities.

        Raises:
            StrategyError: if ``abstract_probs`` does not fit the abstract tree.
        """
        tree = self.abstract_tree
        probs = np.asarray(abstract_probs, dtype=np.float64)
        if probs.shape != (tree.n_infosets, tree.max_actions):
            raise StrategyError(
                f"abstract probabilities need shape {(tree.n_infosets, tree.max_actions)}; "
                f"got {probs.shape}"
            )
        rows = probs[self.index]  # [I_full, A_abstract]
        safe = np.where(self.slots >= 0, self.slots, 0)
        lifted = np.where(self.slots >= 0, np.take_along_axis(rows, safe, axis=1), 0.0)
        full = self.full_tree
        totals = lifted.sum(axis=1)
        empty = totals <= 0
        if empty.any():
            actions = full.infoset_actions[empty]
            has_call = (actions == CALL).any(axis=1)
            fallback = np.where(
                has_call[:, None],
                (actions == CALL).astype(np.float64),
                full.legal_mask[empty].astype(np.float64),
            )
            lifted[empty] = fallback
            totals = lifted.sum(axis=1)
        out: FloatArray = lifted / totals[:, None]
        return out


_MAPS: SpecCache[LiftingMap] = SpecCache("abstraction.lifting_map", maxsize=32)
"""Lifting maps by (abstract spec, solved spec); the 32 used last are kept."""


def lifting_map(abstract: AbstractGame, solved: Game | None = None) -> LiftingMap:
    """Return (cached) how the abstract game's rows play the real game.

    Args:
        abstract: the abstract game.
        solved: the game the abstract strategy belongs to: ``abstract`` itself (default)
            or its :func:`collapse`; both have the same keys, perhaps in another order.

    Raises:
        PokerlabError: if a real infoset maps to no abstract infoset (a bug guard).
    """
    solved = abstract if solved is None else solved
    cache_key = (abstract.spec, solved.spec)
    cached = _MAPS.get(cache_key)
    if cached is not None:
        return cached
    full_tree = compile(abstract.full)
    abstract_tree = compile(solved)
    index = np.empty(full_tree.n_infosets, dtype=np.int64)
    known = {key: i for i, key in enumerate(abstract_tree.infoset_keys)}
    for i, key in enumerate(full_tree.infoset_keys):
        target = abstract.abstract_key(key)
        found = known.get(target)
        if found is None:
            raise PokerlabError(
                f"{abstract.spec}: the real infoset {key!r} maps to {target!r}, which the "
                "abstract game does not have"
            )
        index[i] = found
    width = max(full_tree.max_actions, abstract_tree.max_actions)
    position = np.full((abstract_tree.n_infosets, width), -1, dtype=np.int64)
    rows, slots = np.nonzero(abstract_tree.legal_mask)
    position[rows, abstract_tree.infoset_actions[rows, slots]] = slots
    actions = full_tree.infoset_actions
    mapped = position[index[:, None], np.where(actions >= 0, actions, 0)]
    mapped = np.where(actions >= 0, mapped, -1)
    result = LiftingMap(full_tree, abstract_tree, index, mapped)
    _MAPS.put(cache_key, result)
    return result


def _abstract_of(game: Game) -> AbstractGame:
    if isinstance(game, AbstractGame):
        return game
    if isinstance(game, CollapsedGame):
        return game.abstract
    raise StrategyError(
        f"lift needs a strategy of an abstract game (or its collapsed game); got one of {game.spec}"
    )


def lift(strategy: Strategy) -> Strategy:
    """Return the real game's strategy that plays ``strategy`` (of an abstract game).

    Every real infoset gets the row of its abstract infoset (see the module docstring).

    Raises:
        StrategyError: if ``strategy`` is not of an abstract (or collapsed) game.

    Example:
        >>> from pokerlab.games import kuhn
        >>> from pokerlab.abstraction import abstract_game
        >>> small = abstract_game(kuhn(cards=20), "uniform:4")
        >>> lifted = lift(Strategy.uniform(small))
        >>> lifted.game == kuhn(cards=20), lifted.probabilities("7|pb")
        (True, {0: 0.5, 1: 0.5})
    """
    abstract = _abstract_of(strategy.game)
    mapping = lifting_map(abstract, strategy.game)
    probs = mapping.apply(strategy.probs)
    metadata = {
        **strategy.metadata,
        "abstraction": str(abstract.spec),
        "lifted": True,
    }
    return Strategy(abstract.full, probs, metadata)


def to_abstract_game(strategy: Strategy) -> Strategy:
    """Re-index a strategy of a collapsed game as a strategy of its abstract game.

    Compiles the abstract game itself (as large as the real game), so it is for saving
    and inspecting abstract strategies, not for solving loops.
    """
    game = strategy.game
    if isinstance(game, AbstractGame):
        return strategy
    if not isinstance(game, CollapsedGame):
        raise StrategyError(f"expected a strategy of a collapsed game; got one of {game.spec}")
    source = compile(game)
    target = compile(game.abstract)
    rows = np.array([source.infoset_id(key) for key in target.infoset_keys], dtype=np.int64)
    return Strategy(game.abstract, strategy.probs[rows].copy(), dict(strategy.metadata))


@dataclass(frozen=True)
class AbstractionResult:
    """An abstract game solved and lifted to the real game.

    Values are P1's, in chips per hand (P2's advantage is ``-value``); exploitabilities
    in chips per hand (NashConv / players).

    Attributes:
        abstract: the abstract game.
        abstract_strategy: the solver's strategy, of the collapsed abstract game.
        lifted: the real game's strategy that plays it.
        abstract_value: P1's value of the abstract strategy in the abstract game.
        abstract_exploitability: of the abstract strategy, in the abstract game (how far
            the solver is from the abstract equilibrium).
        lifted_value: P1's value in the real game when both seats play ``lifted``.
        lifted_exploitability: of ``lifted`` in the real game (the abstraction's cost,
            plus the solver's error).
        n_infosets_full: infosets of the real game.
        n_infosets_abstract: infosets of the abstract game.
        n_histories_solved: histories of the collapsed game the solver ran on.
        algorithm: the solver's name.
        iterations: the solver's iterations.
        seconds: collapsing, solving, lifting and evaluating, in seconds.
    """

    abstract: AbstractGame
    abstract_strategy: Strategy
    lifted: Strategy
    abstract_value: float
    abstract_exploitability: float
    lifted_value: float
    lifted_exploitability: float
    n_infosets_full: int
    n_infosets_abstract: int
    n_histories_solved: int
    algorithm: str
    iterations: int
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        """The numbers, JSON-ready."""
        return {
            "game": str(self.abstract.full.spec),
            "abstract": str(self.abstract.spec),
            "algorithm": self.algorithm,
            "iterations": self.iterations,
            "abstract_value": self.abstract_value,
            "abstract_exploitability": self.abstract_exploitability,
            "lifted_value": self.lifted_value,
            "lifted_exploitability": self.lifted_exploitability,
            "n_infosets_full": self.n_infosets_full,
            "n_infosets_abstract": self.n_infosets_abstract,
            "n_histories_solved": self.n_histories_solved,
            "seconds": self.seconds,
        }


DEFAULT_ITERATIONS = 1000
"""Iterations of an iterative solver when no stopping rule is given."""


def solve_abstraction(
    game: Game | str | AbstractGame,
    cards: str | Bucketing = "identity",
    *,
    board: str | Bucketing | None = None,
    raise_cap: int | None = None,
    algorithm: str = "cfr+",
    iterations: int | None = None,
    target_exploitability: float | None = None,
    check_every: int | None = None,
    seed: int | None = None,
    callback: Callable[[Progress], None] | None = None,
) -> AbstractionResult:
    """Solve the abstract game of ``game`` and lift its strategy back to ``game``.

    Args:
        game: the real game, or an already built :class:`AbstractGame` (then ``cards``,
            ``board`` and ``raise_cap`` are ignored).
        cards: the private card buckets (text or :class:`Bucketing`).
        board: Leduc's board buckets (default: as ``cards``).
        raise_cap: the betting abstraction's bets + raises per round (two-player Leduc).
        algorithm: a name of :data:`pokerlab.solvers.SOLVERS` (``"lp"`` solves exactly).
        iterations: iterations of an iterative solver (default 1000 when no
            ``target_exploitability`` is given either).
        target_exploitability: stop once the abstract strategy is this close to the
            abstract equilibrium (chips per hand).
        check_every: iterations between exploitability checks.
        seed: the seed of sampling solvers.
        callback: the solver's progress callback.

    Raises:
        SolverError: an unknown algorithm (the message lists the known ones).
        SpecError: a bad abstraction (see :func:`abstract_game`).
    """
    start = time.perf_counter()
    abstract = (
        game
        if isinstance(game, AbstractGame)
        else abstract_game(game, cards, board=board, raise_cap=raise_cap)
    )
    factory = SOLVERS.get(algorithm)
    if factory is None:
        raise SolverError(f"unknown algorithm {algorithm!r}; known: {', '.join(sorted(SOLVERS))}")
    collapsed = collapse(abstract)
    if seed is not None and "seed" in inspect.signature(factory).parameters:
        solver = factory(collapsed, seed=seed)  # type: ignore[call-arg]
    else:
        solver = factory(collapsed)
    if iterations is None and target_exploitability is None:
        iterations = DEFAULT_ITERATIONS
    if target_exploitability is not None and iterations is None:
        iterations = 1_000_000
    if solver.iterative:
        solver.run(
            iterations=iterations,
            target_exploitability=target_exploitability,
            check_every=check_every,
            callback=callback,
        )
    else:  # the LP solves in one step and takes no stopping rule
        solver.run(callback=callback)
    strategy = tabulate(solver.average_strategy(), collapsed)
    solved_tree = compile(collapsed)
    mapping = lifting_map(abstract, collapsed)
    lifted_probs = mapping.apply(strategy.probs)
    full_tree = mapping.full_tree
    lifted = Strategy(
        abstract.full,
        lifted_probs,
        {**strategy.metadata, "abstraction": str(abstract.spec), "lifted": True},
    )
    measured = solver.history[-1].exploitability if solver.history else None
    abstract_exploitability = (
        measured if measured is not None else exploitability_array(solved_tree, strategy.probs)
    )
    lifted_exploitability = exploitability_array(full_tree, lifted_probs)
    lifted = lifted.with_metadata(exploitability=lifted_exploitability)
    return AbstractionResult(
        abstract=abstract,
        abstract_strategy=strategy,
        lifted=lifted,
        abstract_value=float(expected_value(collapsed, strategy)[0]),
        abstract_exploitability=float(abstract_exploitability),
        lifted_value=float(expected_value(abstract.full, lifted)[0]),
        lifted_exploitability=float(lifted_exploitability),
        n_infosets_full=full_tree.n_infosets,
        n_infosets_abstract=solved_tree.n_infosets,
        n_histories_solved=solved_tree.n_histories,
        algorithm=algorithm,
        iterations=solver.iterations,
        seconds=time.perf_counter() - start,
    )


__all__ = [
    "AbstractionResult",
    "LiftingMap",
    "lift",
    "lifting_map",
    "solve_abstraction",
    "to_abstract_game",
]
