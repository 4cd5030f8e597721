"""The range solver on several cores, in bounded memory: units that share nothing.

Below the first chance nodes of a public tree (a flop spot's turn cards, a turn spot's
river cards), each card's subtree is a *unit*: its nodes, their regret rows and their
reach and value entries belong to it alone. A pass of the range solver
(:mod:`pokerlab.subgame._kernels`) runs in three steps: the opponent's reach down the
nodes above the units (*top*), then each unit on its own (reach down, values up), then
the values up the top nodes. The middle step runs on several threads at once, each on its
own list of units (the kernels release the GIL), balanced by their node counts.

Every node's arithmetic is the same whatever the split and the number of threads, so the
results are identical, bit for bit, on one thread or on many (a test checks it). A river
spot has no chance node: it runs on one thread, as before.

**Layout.** Units also bound memory. A pass needs the opponent's reach and the player's
values at a node only while the node's unit runs, so the solver keeps rows of its own
only for the top nodes and each unit's root (where the top meets the unit); the other
nodes of a unit use rows of a *scratch area*, one per thread, reused unit after unit.
``slot[n] >= 0`` is node ``n``'s own row; ``-1 - i`` is row ``i`` of the area its unit
runs in. On the issue's flop spot this cuts the reach and value arrays from 1,073,542
rows to 585 of their own and 11,900 per thread. Callers who read values at nodes inside
the units after a pass (reports below the first chance node, re-solving, opponent
values) use the *full* layout, where every node has its own row.
:func:`work_arrays` makes the arrays in either layout.
"""

from __future__ import annotations

import numbers
import os
import threading
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from pokerlab._types import FloatArray, IntArray
from pokerlab.errors import SolverError
from pokerlab.subgame.public_tree import PublicGame, PublicTree

MIN_THREADED_WORK = 1_000_000
"""Node-hand entries below which the units run on one thread (a pass of that size takes
about a millisecond; waking the threads costs a tenth of one)."""


@dataclass(frozen=True, eq=False)
class Units:
    """A public tree split for the passes (see the module docstring).

    Attributes:
        top: the nodes in no unit, in id order (the root first): those above the first
            chance nodes, those chance nodes, and lines that end without a card.
        nodes: every unit's nodes, unit after unit, each unit's in id order.
        offsets: ``[units + 1]`` where each unit's nodes start in ``nodes``.
        everything: ``0..units-1`` (a single thread's list).
        slot: ``[nodes]`` each node's work row in the compact layout (module docstring).
        n_static: the rows of their own (the top nodes, then the units' roots).
        span: the rows of one scratch area (the largest unit, less its root).
    """

    top: IntArray
    nodes: IntArray
    offsets: IntArray
    everything: IntArray
    slot: IntArray
    n_static: int
    span: int
    _groups: dict[tuple[int, int], list[IntArray]] = field(
        default_factory=dict, repr=False, compare=False)

    @property
    def n_units(self) -> int:
        """Number of units."""
        return int(self.everything.shape[0])

    def as_tuple(self) -> tuple[IntArray, IntArray, IntArray, IntArray]:
        """``(top, nodes, offsets, everything)``: the kernels' last arguments."""
        return self.top, self.nodes, self.offsets, self.everything

    def groups(self, threads: int, width: int) -> list[IntArray]:
        """The units split into at most ``threads`` lists of about equal node counts.

        Largest unit first, each to the lightest list (deterministic; the split changes
        the timing only, never the results). One list where the units' work (nodes times
        ``width``, the hands per node) is under :data:`MIN_THREADED_WORK`: handing them
        to threads would cost more than it saves. Worked out once per ``(threads,
        width)``: every pass of a solve asks again.
        """
        key = (threads, width)
        found = self._groups.get(key)
        if found is not None:
            return found
        sizes = np.diff(self.offsets)
        if int(sizes.sum()) * width < MIN_THREADED_WORK:
            threads = 1
        count = max(1, min(threads, self.n_units))
        loads = [0] * count
        lists: list[list[int]] = [[] for _ in range(count)]
        for unit in np.argsort(-sizes, kind="stable").tolist():
            lightest = loads.index(min(loads))
            lists[lightest].append(unit)
            loads[lightest] += int(sizes[unit])
        groups = [np.array(sorted(units), dtype=np.int64) for units in lists if units]
        for group in groups:  # read-only as ``everything``: one compiled kernel for both
            group.setflags(write=False)
        self._groups[key] = groups
        return groups


_UNITS: weakref.WeakKeyDictionary[PublicTree, Units] = weakref.WeakKeyDictionary()
_UNITS_LOCK = threading.Lock()


def tree_units(tree: PublicTree) -> Units:
    """The tree's units (worked out once per tree)."""
    with _UNITS_LOCK:
        found = _UNITS.get(tree)
    if found is not None:
        return found
    unit, count = tree.chance_units
    inside = np.flatnonzero(unit >= 0)
    order = inside[np.argsort(unit[inside], kind="stable")]
    offsets = np.zeros(count + 1, dtype=np.int64)
    np.cumsum(np.bincount(unit[inside], minlength=count), out=offsets[1:])
    top = np.ascontiguousarray(np.flatnonzero(unit < 0), dtype=np.int64)
    slot = np.empty(unit.shape[0], dtype=np.int64)
    slot[top] = np.arange(top.shape[0])
    # inside unit u, the node at position i (0: the root) takes scratch row i - 1 ...
    sizes = np.diff(offsets)
    position = np.arange(order.shape[0]) - np.repeat(offsets[:-1], sizes)
    slot[order] = -position
    # ... and the roots rows of their own, after the top's
    slot[order[offsets[:-1]]] = top.shape[0] + np.arange(count)
    units = Units(
        top=top,
        nodes=np.ascontiguousarray(order, dtype=np.int64),
        offsets=offsets,
        everything=np.arange(count, dtype=np.int64),
        slot=slot,
        n_static=int(top.shape[0] + count),
        span=int(max(0, int(sizes.max(initial=1)) - 1)),
    )
    for array in (*units.as_tuple(), slot):
        array.setflags(write=False)
    with _UNITS_LOCK:
        _UNITS[tree] = units
    return units


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return max(1, os.cpu_count() or 1)


def resolve_threads(threads: int | None) -> int:
    """``threads`` checked (None: every usable core).

    Raises:
        SolverError: not a whole number >= 1.
    """
    if threads is None:
        return usable_cores()
    if isinstance(threads, bool) or not isinstance(threads, numbers.Integral) or threads < 1:
        raise SolverError(f"threads must be a whole number >= 1 (or None: every core); "
                          f"got {threads!r}")
    return int(threads)


_POOL: tuple[int, ThreadPoolExecutor] | None = None
_POOL_LOCK = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    """The process's worker threads (made again in a forked child, which has none)."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None or _POOL[0] != os.getpid():
            _POOL = (os.getpid(), ThreadPoolExecutor(thread_name_prefix="pokerlab-units"))
        return _POOL[1]


def run_groups(work: Callable[[IntArray, int], Any], groups: Sequence[IntArray]) -> None:
    """``work(units, g)`` for each group ``g``: the first on this thread, the rest on others.

    Every group is finished when this returns, an interrupt (Ctrl-C) included: the
    others are waited for before anything is raised, so no thread still writes to the
    solver's arrays afterwards. An exception in any group is raised here.
    """
    futures = [_pool().submit(work, units, g) for g, units in enumerate(groups) if g > 0]
    error: BaseException | None = None
    try:
        if groups:
            work(groups[0], 0)
    except BaseException as exc:  # the others still run: wait for them first
        error = exc
    while futures:
        try:
            wait(futures)
        except BaseException as exc:  # an interrupt while waiting: keep waiting
            error = error or exc
            continue
        for future in futures:
            failed = future.exception()
            error = error or failed
        futures = []
    if error is not None:
        raise error


def scratch_arrays(sigma: np.ndarray, scratch: np.ndarray, count: int
                   ) -> list[tuple[np.ndarray, np.ndarray]]:
    """``count`` private ``(sigma, scratch)`` pairs: ``(sigma, scratch)`` itself first."""
    return [(sigma, scratch)] + [(np.zeros_like(sigma), np.zeros_like(scratch))
                                 for _ in range(count - 1)]


class WorkArrays(NamedTuple):
    """The compiled passes' work arrays (see :func:`work_arrays`).

    Attributes:
        cfreach: the opponent's reach ``[rows, hands]``.
        source: ``[nodes]`` the row of ``cfreach`` holding each node's reach.
        cfv: the updating player's values ``[rows, hands]``.
        sigma: strategy rows ``[actions + 1, hands]``.
        scratch: prefix sums of the terminal values.
        slot: ``[nodes]`` each node's row (:mod:`pokerlab.subgame.units`, "layout"):
            every node its own (the full layout) or the compact layout.
        n_static: the rows of their own; the scratch areas follow them.
        span: the rows of one scratch area (0 in the full layout).
        areas: how many units may run at once (threads); None: any number (full).
    """

    cfreach: FloatArray
    source: IntArray
    cfv: FloatArray
    sigma: FloatArray
    scratch: FloatArray
    slot: IntArray
    n_static: int
    span: int
    areas: int | None

    def base(self, area: int) -> int:
        """The first row of scratch area ``area``."""
        return self.n_static + area * self.span

    def arrays(self) -> tuple[FloatArray, IntArray, FloatArray, FloatArray, FloatArray]:
        """``(cfreach, source, cfv, sigma, scratch)``, as the kernels take them."""
        return self.cfreach, self.source, self.cfv, self.sigma, self.scratch

    @property
    def nbytes(self) -> int:
        """Bytes of the arrays these work arrays own.

        The compact layout's ``slot`` is the tree's (:attr:`Units.slot`, shared by every
        solver of the tree): not counted; the full layout's is made for these arrays.
        """
        own = (*self.arrays(), self.slot) if self.areas is None else self.arrays()
        return int(sum(a.nbytes for a in own))


def work_arrays(game: PublicGame, dtype: type = np.float64, *,
                areas: int | None = None) -> WorkArrays:
    """The passes' work arrays: reach and values, reach rows, strategy rows, scratch.

    Reach, values and the small strategy rows are in ``dtype`` (float32 work computes in
    float32); the scratch (prefix sums) stays float64. By default every node has rows of
    its own (the full layout: the values at every node can be read after a pass). With
    ``areas``, the compact layout (:mod:`pokerlab.subgame.units`): rows for the top nodes
    and the units' roots, and ``areas`` scratch areas for at most that many threads; what
    the solver keeps.
    """
    tree = game.tree
    width = max(*game.n_hands, 1)
    if areas is None:
        slot = np.arange(tree.n_nodes, dtype=np.int64)
        slot.setflags(write=False)  # as the compact layout's: the kernels compile one version
        n_static, span = tree.n_nodes, 0
    else:
        units = tree_units(tree)
        slot, n_static, span = units.slot, units.n_static, units.span
        areas = max(1, areas)
    rows = n_static + (areas or 0) * span
    return WorkArrays(
        cfreach=np.zeros((rows, width), dtype=dtype),
        source=np.zeros(tree.n_nodes, dtype=np.int64),
        cfv=np.zeros((rows, width), dtype=dtype),
        sigma=np.zeros((tree.max_actions + 1, width), dtype=dtype),
        scratch=np.zeros(3 * width + game.n_cards + 8),
        slot=slot,
        n_static=n_static,
        span=span,
        areas=areas,
    )


__all__ = ["MIN_THREADED_WORK", "Units", "WorkArrays", "resolve_threads", "run_groups",
           "scratch_arrays", "tree_units", "usable_cores", "work_arrays"]
