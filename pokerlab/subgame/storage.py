"""How the range solver stores its regrets and strategy sums.

Three precisions, each half the memory of the one before:

- ``"float64"``: the default where it fits;
- ``"float32"``: arithmetic stays float64 in registers, each stored update rounds;
- ``"compressed"``: 16 bits a number, as the Rust postflop solver's compression: regrets
  ``int16`` and strategy sums ``uint16``, each node's rows scaled by one float32 (its
  largest magnitude maps to the integers' top), work vectors float32. A regret is kept
  to within half a step, 1/65,534 of its node's largest; a strategy sum to within a step,
  1/65,535, rounded stochastically so that small additions survive on average
  (:func:`pokerlab.subgame._kernels.encode_node`).

``"auto"`` takes the first of them that fits the memory limit. A compressed solve
finishes in place: each player's regrets and sums lie in one buffer, and the float32
average strategies are written over it (:func:`finish_in_place`), so the report costs no
more memory than the solve.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerlab.errors import GameTooLargeError, SolverError
from pokerlab.subgame import _kernels as kernels
from pokerlab.subgame.public_tree import PublicGame

PRECISIONS = ("auto", "float64", "float32", "compressed")
"""How the solver stores regrets, strategy sums and work vectors (see the module)."""

ITEMSIZES = {"float64": 8, "float32": 4, "compressed": 2}
"""Bytes per stored regret or strategy sum of each precision (the memory estimates' key)."""

STORAGE_NAMES = {"float64": "float64", "float32": "float32",
                 "compressed": "16-bit integers scaled per node (compressed)"}
"""How each precision is named to a user."""

_WORK_DTYPES: dict[str, type] = {"float64": np.float64, "float32": np.float32,
                                 "compressed": np.float32}
_NO_SCALES = np.zeros(0, dtype=np.float32)  # writable: the kernels compile one version


def storage_precision(game: PublicGame, memory_limit: int, precision: str = "auto", *,
                      areas: int = 1) -> str:
    """The precision the solver stores in: ``precision``, or the first that fits (``"auto"``).

    ``areas`` is the threads that will run units at once (each has its scratch rows).

    Raises:
        SolverError: an unknown precision.
        GameTooLargeError: if the arrays exceed ``memory_limit`` even in that precision.
    """
    if precision not in PRECISIONS:
        raise SolverError(f"unknown precision {precision!r}; allowed: {', '.join(PRECISIONS)}")
    if precision == "auto":
        precision = next((name for name, size in ITEMSIZES.items()
                          if game.memory_bytes(size, areas) <= memory_limit), "compressed")
    check_memory(game, memory_limit, itemsize=ITEMSIZES[precision], areas=areas)
    return precision


def check_memory(game: PublicGame, memory_limit: int, *, itemsize: int = 8,
                 areas: int = 1) -> None:
    """Refuse a game whose solver arrays would exceed ``memory_limit`` bytes.

    ``itemsize`` is the bytes per stored number (:data:`ITEMSIZES`); ``areas`` the threads
    running units at once.

    Raises:
        GameTooLargeError: naming the estimate and the limit.
    """
    need = game.memory_bytes(itemsize, areas)
    if need > memory_limit:
        name = next(name for name, size in ITEMSIZES.items() if size == itemsize)
        raise GameTooLargeError(
            f"solving {game.description} needs about {need / 1e6:,.0f} MB "
            f"({game.tree.n_nodes:,} public nodes, {game.n_hands[0]:,} x {game.n_hands[1]:,} "
            f"hands, {name}), over the limit of {memory_limit / 1e6:,.0f} MB; "
            "use smaller ranges, fewer bet sizes, or a later street",
            found=need,
            limit=memory_limit,
        )


def work_dtype(precision: str) -> type:
    """The dtype of the work vectors, the averages and the strategies of ``precision``."""
    return _WORK_DTYPES[precision]


@dataclass(frozen=True)
class StoredArrays:
    """One solver's regrets and strategy sums, ``[rows, hands]`` per player.

    Attributes:
        precision: ``"float64"``, ``"float32"`` or ``"compressed"``.
        regrets: each player's regrets (int16 when compressed).
        sums: each player's strategy sums (uint16 when compressed).
        regret_scales: compressed: each node's scale at its first row, float32 ``[rows]``
            per player (empty arrays for floats; the kernels read emptiness as floats).
        sum_scales: likewise for the sums.
        buffers: compressed: each player's one buffer holding its regrets then its sums
            (what :func:`finish_in_place` writes the averages over); else empty.
    """

    precision: str
    regrets: tuple[np.ndarray, np.ndarray]
    sums: tuple[np.ndarray, np.ndarray]
    regret_scales: tuple[np.ndarray, np.ndarray]
    sum_scales: tuple[np.ndarray, np.ndarray]
    buffers: tuple[np.ndarray, ...] = ()

    @property
    def compressed(self) -> bool:
        """Whether the numbers are 16-bit integers scaled per node."""
        return self.precision == "compressed"

    def named(self) -> dict[str, np.ndarray]:
        """The arrays a checkpoint saves, by name (the scales only when compressed)."""
        out = {"regrets0": self.regrets[0], "regrets1": self.regrets[1],
               "sums0": self.sums[0], "sums1": self.sums[1]}
        if self.compressed:
            out.update(regret_scales0=self.regret_scales[0],
                       regret_scales1=self.regret_scales[1],
                       sum_scales0=self.sum_scales[0], sum_scales1=self.sum_scales[1])
        return out

    @property
    def nbytes(self) -> int:
        """Bytes of every stored array."""
        return int(sum(array.nbytes for array in self.named().values()))


def allocate(shapes: tuple[tuple[int, int], tuple[int, int]], precision: str) -> StoredArrays:
    """Zeroed regrets and strategy sums of ``shapes`` (``(rows, hands)`` per player)."""
    if precision != "compressed":
        dtype = _WORK_DTYPES[precision]
        return StoredArrays(precision, (np.zeros(shapes[0], dtype), np.zeros(shapes[1], dtype)),
                            (np.zeros(shapes[0], dtype), np.zeros(shapes[1], dtype)),
                            (_NO_SCALES, _NO_SCALES), (_NO_SCALES, _NO_SCALES))
    regrets, sums, buffers = [], [], []
    for rows, hands in shapes:
        buffer = np.zeros(4 * rows * hands, dtype=np.uint8)
        half = 2 * rows * hands
        regrets.append(buffer[:half].view(np.int16).reshape(rows, hands))
        sums.append(buffer[half:].view(np.uint16).reshape(rows, hands))
        buffers.append(buffer)
    scales = [np.zeros(rows, dtype=np.float32) for rows, _ in shapes]
    sum_scales = [np.zeros(rows, dtype=np.float32) for rows, _ in shapes]
    return StoredArrays(precision, (regrets[0], regrets[1]), (sums[0], sums[1]),
                        (scales[0], scales[1]), (sum_scales[0], sum_scales[1]),
                        tuple(buffers))


def finish_in_place(stored: StoredArrays, nodes: np.ndarray, player: int,
                    max_actions: int) -> np.ndarray:
    """Compressed storage: ``player``'s average strategy, float32, over its own buffer.

    Each decision node's sums are copied out before its average rows are written, in the
    order of their rows: the average's row ``r`` ends where the sums' row ``r`` lies at
    the earliest, so no row is overwritten before it is read. The regrets and sums are
    gone afterwards.
    """
    rows, hands = stored.sums[player].shape
    out = stored.buffers[player].view(np.float32).reshape(rows, hands)
    decisions = np.flatnonzero((nodes[:, 0] == 0) & (nodes[:, 1] == player))
    order = decisions[np.argsort(nodes[decisions, 6], kind="stable")]
    copy = np.empty((max(1, max_actions), max(1, hands)), dtype=np.float64)
    kernels.average_over_sums(nodes, order, stored.sums[player], out, copy)
    return out


__all__ = [
    "ITEMSIZES",
    "PRECISIONS",
    "STORAGE_NAMES",
    "StoredArrays",
    "allocate",
    "check_memory",
    "finish_in_place",
    "storage_precision",
    "work_dtype",
]
