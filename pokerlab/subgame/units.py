"""The range solver on several cores: a public tree split into units that share nothing.

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
"""

from __future__ import annotations

import numbers
import os
import threading
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerlab._types import IntArray
from pokerlab.errors import SolverError
from pokerlab.subgame.public_tree import PublicTree

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
    """

    top: IntArray
    nodes: IntArray
    offsets: IntArray
    everything: IntArray

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
        to threads would cost more than it saves.
        """
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
        return [np.array(sorted(units), dtype=np.int64) for units in lists if units]


_UNITS: weakref.WeakKeyDictionary[PublicTree, Units] = weakref.WeakKeyDictionary()
_UNITS_LOCK = threading.Lock()


def tree_units(tree: PublicTree) -> Units:
    """The tree's units (worked out once per tree)."""
    with _UNITS_LOCK:
        found = _UNITS.get(tree)
    if found is not None:
        return found
    from pokerlab.subgame._kernels import chance_units  # numba: only when a solver runs

    unit, count = chance_units(tree.nodes)
    inside = np.flatnonzero(unit >= 0)
    order = inside[np.argsort(unit[inside], kind="stable")]
    offsets = np.zeros(count + 1, dtype=np.int64)
    np.cumsum(np.bincount(unit[inside], minlength=count), out=offsets[1:])
    units = Units(
        top=np.ascontiguousarray(np.flatnonzero(unit < 0), dtype=np.int64),
        nodes=np.ascontiguousarray(order, dtype=np.int64),
        offsets=offsets,
        everything=np.arange(count, dtype=np.int64),
    )
    for array in units.as_tuple():
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


__all__ = ["MIN_THREADED_WORK", "Units", "resolve_threads", "run_groups", "scratch_arrays",
           "tree_units", "usable_cores"]
