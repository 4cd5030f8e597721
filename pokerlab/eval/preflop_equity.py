"""Preflop all-in equity by hand class pair: a 169 x 169 table for AIVAT's hole-card term.

AIVAT's chance term for the hole cards is ``V(deal) - mean over every deal of V(deal)``: it
has mean zero for *any* value ``V`` whose mean over the deals is computed exactly. Exact
preflop equity of two given hands takes 1.7 million runouts each, and its mean over the
1,624,350 deals is out of reach; a value read from a table of the 169 hand classes (``AA``,
``AKs``, ``AKo``, ...) is cheap and its mean over all deals is a sum over 169 x 169 cells
weighted by how many deals fall in each (:func:`class_pair_deal_counts`).

The table (:func:`class_pair_equity`): ``T[i, j]`` is the showdown share (win 1, tie 1/2)
of a class-``i`` hand against a class-``j`` hand, all five board cards to come, estimated
by the card layer's equity sampler (:func:`pokerlab.cards.equity`: a concrete hand of each
class drawn uniformly with card removal, then a runout) from :data:`SAMPLES_PER_CELL`
showdowns per cell with a fixed seed per cell, so the table is a fixed function of the
cards. It is built antisymmetric, ``T[j, i] = 1 - T[i, j]`` and ``T[i, i] = 1/2``, so its
mean over all deals is exactly 1/2. Built once (about 15 seconds on two idle cores: 14,196
cells) and kept in memory and in the ``aivat`` folder of the cache root (``$POKERLAB_CACHE``, else
``~/.cache/pokerlab``: :func:`pokerlab._cache.cache_folder`), written atomically.

Class ids: the 13 x 13 grid with rank ``r`` (0 = deuce .. 12 = ace): a pair is
``r * 13 + r``, a suited hand ``high * 13 + low``, an offsuit hand ``low * 13 + high``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cache
from pathlib import Path

import numpy as np

from pokerlab._cache import cache_folder
from pokerlab._types import FloatArray, IntArray
from pokerlab.cards.card import RANKS
from pokerlab.cards.equity import equity
from pokerlab.cards.ranges import parse_range
from pokerlab.errors import PokerlabError
from pokerlab.strategy.archive import read_npy
from pokerlab.strategy.io import write_file_atomic

N_CLASSES = 169
"""Hand classes of two hole cards (13 pairs, 78 suited, 78 offsuit)."""

SAMPLES_PER_CELL = 3000
"""Showdowns sampled per class pair (a 95% half-width of at most 0.018 equity)."""

TABLE_SEED = 0x169
"""The seed of the table's runouts (the table is a fixed function of the cards)."""

FORMAT_VERSION = 1
_LOCK = threading.Lock()


def hand_class_id(first: int, second: int) -> int:
    """The class id 0..168 of the hole cards ``first``, ``second`` (module docstring).

    Raises:
        PokerlabError: for card ids outside 0..51 or the same card twice.

    Example:
        >>> hand_class_id(51, 47), hand_class_id(51, 46), hand_class_id(1, 0)  # AKs AKo 22
        (167, 155, 0)
    """
    if not (0 <= first < 52 and 0 <= second < 52) or first == second:
        raise PokerlabError(
            f"hole cards must be two different card ids 0..51; got {first}, {second}"
        )
    high, low = max(first, second), min(first, second)
    rank_high, rank_low = high >> 2, low >> 2
    if rank_high == rank_low or (high & 3) == (low & 3):
        return rank_high * 13 + rank_low
    return rank_low * 13 + rank_high


@cache
def _combos() -> tuple[IntArray, IntArray]:
    """``[1326, 2]`` every two-card hand and ``[1326]`` its class id."""
    combos = np.array([(a, b) for a in range(52) for b in range(a)], dtype=np.int64)
    high, low = combos[:, 0], combos[:, 1]
    rank_high, rank_low = high >> 2, low >> 2
    paired_or_suited = (rank_high == rank_low) | ((high & 3) == (low & 3))
    classes = np.where(paired_or_suited, rank_high * 13 + rank_low, rank_low * 13 + rank_high)
    return combos, classes


@cache
def _disjoint_pairs() -> tuple[IntArray, IntArray]:
    """Row indices ``(first, second)`` of every ordered pair of hands sharing no card."""
    combos, _ = _combos()
    masks = (np.int64(1) << combos[:, 0]) | (np.int64(1) << combos[:, 1])
    first, second = np.nonzero((masks[:, None] & masks[None, :]) == 0)
    return first.astype(np.int64), second.astype(np.int64)


def class_pair_deal_counts() -> IntArray:
    """``[169, 169]`` how many of the 1,624,350 ordered deals give classes ``(i, j)``.

    A deal gives seat 0 one hand and seat 1 another sharing no card; all are equally likely,
    so a table's mean over every deal is ``(counts * table).sum() / counts.sum()``.
    """
    _, classes = _combos()
    first, second = _disjoint_pairs()
    counts = np.bincount(classes[first] * N_CLASSES + classes[second],
                         minlength=N_CLASSES * N_CLASSES)
    return counts.reshape(N_CLASSES, N_CLASSES).astype(np.int64)


def class_pair_mean(table: FloatArray) -> float:
    """The exact mean of ``table[class of seat 0, class of seat 1]`` over every deal.

    Raises:
        PokerlabError: for a table that is not ``[169, 169]``.
    """
    if table.shape != (N_CLASSES, N_CLASSES):
        raise PokerlabError(f"a class-pair table is 169 x 169; got shape {table.shape}")
    counts = class_pair_deal_counts()
    return float((counts * table).sum() / counts.sum())


def class_label(class_id: int) -> str:
    """The range text of a class id: ``"AA"``, ``"AKs"`` or ``"AKo"``.

    Example:
        >>> class_label(167), class_label(155), class_label(0)
        ('AKs', 'AKo', '22')
    """
    row, column = divmod(class_id, 13)
    if row == column:
        return RANKS[row] * 2
    if row > column:
        return f"{RANKS[row]}{RANKS[column]}s"
    return f"{RANKS[column]}{RANKS[row]}o"


def _build_table(progress: Callable[[int, int], None] | None = None) -> FloatArray:
    """Estimate the table (module docstring): each cell ``i < j`` by the card layer's sampler."""
    ranges = [parse_range(class_label(k)) for k in range(N_CLASSES)]
    table = np.full((N_CLASSES, N_CLASSES), 0.5)
    rows, columns = np.triu_indices(N_CLASSES, 1)
    for done, (i, j) in enumerate(zip(rows.tolist(), columns.tolist(), strict=True)):
        result = equity([ranges[i], ranges[j]], samples=SAMPLES_PER_CELL, exact_threshold=0,
                        seed=TABLE_SEED + i * N_CLASSES + j)
        table[i, j] = result.equity[0]
        table[j, i] = 1.0 - result.equity[0]
        if progress is not None and (done + 1) % 1000 == 0:
            progress(done + 1, len(rows))
    return table


def cache_file(cache_dir: str | Path | None = None) -> Path:
    """Where the table is kept: the ``aivat`` folder of the cache root ``cache_dir``."""
    folder = cache_folder("aivat", cache_dir)
    name = f"preflop-class-equity-n{SAMPLES_PER_CELL}-s{TABLE_SEED}-v{FORMAT_VERSION}.npy"
    return folder / name


_MEMORY: dict[Path, FloatArray] = {}


def class_pair_equity(
    cache_dir: str | Path | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> FloatArray:
    """``[169, 169]`` the preflop class-pair equity table (built once, then read from cache).

    A damaged or wrong-shaped cache file is rebuilt. The returned array is read-only.
    ``progress`` is called with ``(cells done, cells)`` every 1,000 cells while building.
    """
    path = cache_file(cache_dir)
    with _LOCK:
        table = _MEMORY.get(path)
        if table is not None:
            return table
        try:
            table = read_npy(path, shape=(N_CLASSES, N_CLASSES), kinds="f")
            if table.dtype != np.float64:
                table = None
        except (OSError, ValueError):
            table = None
        if table is None:
            table = _build_table(progress)
            built = table
            write_file_atomic(path, lambda out: np.save(out, built))
        table.setflags(write=False)
        _MEMORY[path] = table
        return table


__all__ = [
    "N_CLASSES",
    "SAMPLES_PER_CELL",
    "TABLE_SEED",
    "cache_file",
    "class_label",
    "class_pair_deal_counts",
    "class_pair_equity",
    "class_pair_mean",
    "hand_class_id",
]
