"""The Texas Hold'em card abstraction: bucket tables per street, built, cached and loaded.

:class:`HoldemCardAbstraction` implements
:class:`~pokerlab.abstraction.card_abstraction.CardAbstraction`: one table per street maps
each canonical hand (:mod:`.holdem_iso`: 169 / 1,286,792 / 13,960,050 / 123,156,254 suit
classes) to its bucket, so a deal's buckets are four index computations and four lookups.

How the tables are built (:func:`build_holdem_abstraction`; docs/holdem_abstraction.md):

- preflop: the 169 classes themselves when 169 buckets are asked (lossless), else EMD
  k-medians on their equity distributions;
- flop and turn: potential-aware buckets, EMD k-medians (:mod:`.holdem_clusters`) on the
  distribution of the river hand strength over every runout (:mod:`.holdem_features`);
  buckets are numbered by mean expected hand strength, bucket 0 the weakest;
- river: the river hand strength split into intervals, optimally in 1-D EMD.

Building the standard 169/50/50/50 tables takes minutes on two cores (docs/benchmarks.md);
:func:`load_or_build` caches them in the ``abstraction`` folder of the cache root
(``cache_dir``, else ``$POKERLAB_CACHE``, else ``~/.cache/pokerlab``:
:func:`pokerlab._cache.cache_folder`), written atomically. A build saves each finished
street next to the final file, so an interrupted build (Ctrl-C, SIGTERM) resumes at the
street it was on. The same counts and seed give the same tables.
"""

from __future__ import annotations

import contextlib
import json
import resource
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab._cache import cache_folder
from pokerlab._numba import numba
from pokerlab._types import StageCallback, StepCallback
from pokerlab.abstraction.holdem_clusters import Clustering, emd_kmedians, one_dimensional_buckets
from pokerlab.abstraction.holdem_features import (
    NOT_COMPUTED,
    STRENGTH_SCALE,
    StreetFeatures,
    preflop_distributions,
    river_strengths,
    street_distributions,
)
from pokerlab.abstraction.holdem_iso import index_hand, street_indexer
from pokerlab.errors import CardError, FileFormatError, SpecError
from pokerlab.strategy.archive import NpzArchive, parse_json, read_npy
from pokerlab.strategy.io import write_file_atomic, write_npz_atomic

FILE_FORMAT = "pokerlab.holdem_cards"
FORMAT_VERSION = 1
DEFAULT_COUNTS = (169, 50, 50, 50)
BOARD_VISIBLE = (0, 3, 4, 5)
STREET_NAMES = ("preflop", "flop", "turn", "river")


@dataclass(frozen=True)
class BuildReport:
    """What a build cost and reached.

    Attributes:
        seconds: wall-clock seconds per phase (``"flop features"``, ...), this run only.
        emd: per street, the mean EMD of the hands to their bucket's center (hand-strength
            units; river: mean absolute distance to the bucket's median strength).
        peak_memory: the process's peak resident memory, bytes.
        resumed: streets loaded from an interrupted build instead of computed.
    """

    seconds: dict[str, float] = field(default_factory=dict)
    emd: dict[str, float] = field(default_factory=dict)
    peak_memory: int = 0
    resumed: tuple[str, ...] = ()


@dataclass(frozen=True, eq=False)
class HoldemCardAbstraction:
    """Texas Hold'em buckets per street, from tables indexed by canonical hand.

    Attributes:
        tables: per street, ``[classes]`` the bucket of each canonical hand.
        seed: the seed the tables were built with.
        n_bins: histogram bins of the equity distributions.
        report: how the tables were built (None when loaded without one).
    """

    tables: tuple[NDArray[np.integer], ...]
    seed: int = 0
    n_bins: int = 50
    report: BuildReport | None = None
    _counts: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if len(self.tables) != 4:
            raise SpecError(f"a Hold'em abstraction has 4 street tables; got {len(self.tables)}")
        for street, table in enumerate(self.tables):
            size = street_indexer(street).size
            if table.shape != (size,):
                raise SpecError(
                    f"the {STREET_NAMES[street]} table must have {size:,} entries (one per "
                    f"canonical hand); got shape {table.shape}"
                )
        counts = tuple(int(table.max()) + 1 for table in self.tables)
        object.__setattr__(self, "_counts", counts)

    @property
    def name(self) -> str:
        """``"emd 169/50/50/50 seed 0"``."""
        return f"emd {'/'.join(map(str, self.bucket_counts))} seed {self.seed}"

    @property
    def board_visible(self) -> tuple[int, ...]:
        """Board cards visible at each street: ``(0, 3, 4, 5)``."""
        return BOARD_VISIBLE

    @property
    def bucket_counts(self) -> tuple[int, ...]:
        """Buckets at each street (the largest bucket in each table, plus one)."""
        return self._counts

    @property
    def nbytes(self) -> int:
        """Memory the tables take."""
        return sum(table.nbytes for table in self.tables)

    def buckets(self, hole: NDArray[np.int64], board: NDArray[np.int64]) -> NDArray[np.int32]:
        """Every player's bucket at every street of a batch of deals.

        Args:
            hole: ``[deals, players, 2]`` card ids.
            board: ``[deals, 5]`` card ids in dealing order (flop, turn, river).

        Returns:
            ``[deals, players, 4]`` int32 buckets.

        Raises:
            CardError: for wrong shapes, a card outside 0..51, or a card dealt twice in a deal.
        """
        hole = np.asarray(hole)
        board = np.asarray(board)
        if hole.ndim != 3 or hole.shape[2] != 2:
            raise CardError(f"hole must be [deals, players, 2] card ids; got shape {hole.shape}")
        if board.ndim != 2 or board.shape != (hole.shape[0], 5):
            raise CardError(
                f"board must be [deals, 5] card ids ({hole.shape[0]} deals); got {board.shape}"
            )
        for what, array in (("hole", hole), ("board", board)):
            if array.size and not np.issubdtype(array.dtype, np.integer):
                raise CardError(f"{what} must hold integer card ids; got dtype {array.dtype}")
            if array.size and (array.min() < 0 or array.max() > 51):
                raise CardError(f"{what} holds a card id outside 0..51")
        indexers = tuple(
            array for street in range(4) for array in street_indexer(street).kernel_tables()[2:]
        )
        kernel = _buckets_parallel if hole.shape[0] >= PARALLEL_DEALS else _buckets_serial
        # Contiguous and writable (a read-only array, copied): one compiled signature.
        out, bad = kernel(
            np.require(hole, dtype=np.int64, requirements=["C", "W"]),
            np.require(board, dtype=np.int64, requirements=["C", "W"]),
            self.tables,
            indexers,
        )
        if bad >= 0:
            raise CardError(f"deal {bad} deals a card twice; each card may be dealt once per deal")
        return out

    def bucket(self, hole: Sequence[int], board: Sequence[int]) -> int:
        """The bucket of one hand at the street its board shows (0, 3, 4 or 5 cards)."""
        if len(board) not in BOARD_VISIBLE or len(hole) != 2:
            raise CardError(
                f"a hand is 2 hole cards and 0, 3, 4 or 5 board cards; got {len(hole)} and "
                f"{len(board)}"
            )
        street = BOARD_VISIBLE.index(len(board))
        index = street_indexer(street).index([[*hole, *board]])[0]
        return int(self.tables[street][index])

    def save(self, path: str | Path) -> Path:
        """Write the tables to ``path`` (.npz) atomically; return the path."""
        target = Path(path)
        header: dict[str, object] = {
            "format": FILE_FORMAT,
            "version": FORMAT_VERSION,
            "bucket_counts": list(self.bucket_counts),
            "seed": self.seed,
            "n_bins": self.n_bins,
        }
        if self.report is not None:
            header["report"] = {
                "seconds": self.report.seconds,
                "emd": self.report.emd,
                "peak_memory": self.report.peak_memory,
            }
        arrays = {f"street{s}": table for s, table in enumerate(self.tables)}
        arrays["header"] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
        write_npz_atomic(target, arrays)
        return target


def load(path: str | Path) -> HoldemCardAbstraction:
    """Read tables written by :meth:`HoldemCardAbstraction.save`.

    Raises:
        FileFormatError: if the file is missing, not such a file, or damaged.
    """
    source = Path(path)
    where = repr(str(source))
    if not source.is_file():
        raise FileFormatError(f"cannot read a Hold'em card abstraction from {where}: no file")
    try:
        opened = NpzArchive(source, where=where)
    except FileFormatError as exc:
        raise FileFormatError(f"cannot read a Hold'em card abstraction: {exc}") from None
    try:
        with opened as archive:
            header = _tables_header(archive, where)
            tables = []
            for street in range(4):
                name, size = f"street{street}", street_indexer(street).size
                info = archive.arrays.get(name)
                if info is None or info.shape != (size,) or info.dtype.kind not in "iu":
                    shown = "missing" if info is None else f"{info.shape} ({info.dtype})"
                    raise FileFormatError(
                        f"{where} is damaged: its {name} table is {shown}, not {size} integers"
                    )
                tables.append(archive.read(name))
    except OSError as exc:
        raise FileFormatError(
            f"cannot read a Hold'em card abstraction from {where}: {exc.strerror or exc}"
        ) from None
    try:
        saved = header.get("report")
        report = (
            None
            if not isinstance(saved, dict)
            else BuildReport(
                {str(k): float(v) for k, v in saved.get("seconds", {}).items()},
                {str(k): float(v) for k, v in saved.get("emd", {}).items()},
                int(saved.get("peak_memory", 0)),
            )
        )
        abstraction = HoldemCardAbstraction(
            tuple(tables), int(header["seed"]), int(header["n_bins"]), report
        )
    except (SpecError, TypeError, AttributeError, ValueError, KeyError, OverflowError) as exc:
        raise FileFormatError(f"{str(source)!r} is damaged: {exc}") from None
    if list(abstraction.bucket_counts) != header.get("bucket_counts"):
        raise FileFormatError(f"{str(source)!r} is damaged: its bucket counts do not match")
    return abstraction


def _tables_header(archive: NpzArchive, where: str) -> dict[str, Any]:
    """The JSON header of a card abstraction file, checked for format and version."""
    info = archive.arrays.get("header")
    if info is None or info.dtype != np.uint8 or len(info.shape) != 1:
        raise FileFormatError(f"{where} is not a Hold'em card abstraction (no header)")
    header = parse_json(archive.read("header").tobytes(), where=where)
    if not isinstance(header, dict) or (
        header.get("format") != FILE_FORMAT or header.get("version") != FORMAT_VERSION
    ):
        found = header if not isinstance(header, dict) else header.get("format")
        raise FileFormatError(
            f"{where} is not a Hold'em card abstraction (format {str(found)[:40]!r})"
        )
    return header


def cache_path(
    bucket_counts: Sequence[int] = DEFAULT_COUNTS,
    seed: int = 0,
    *,
    n_bins: int = 50,
    sample: int = 200_000,
    cache_dir: str | Path | None = None,
) -> Path:
    """The cache file of the tables built with these parameters."""
    counts = "-".join(str(int(c)) for c in bucket_counts)
    name = f"holdem-emd-{counts}-bins{n_bins}-sample{sample}-seed{seed}-v{FORMAT_VERSION}.npz"
    return cache_folder("abstraction", cache_dir) / name


def check_bucket_counts(bucket_counts: Sequence[int]) -> tuple[int, ...]:
    """Validate four bucket counts (preflop 1..169, others 1..65,535).

    Raises:
        SpecError: naming what is wrong and what is allowed.
    """
    counts = tuple(bucket_counts)
    if len(counts) != 4 or not all(isinstance(c, int | np.integer) for c in counts):
        raise SpecError(
            f"give 4 bucket counts, preflop,flop,turn,river (e.g. 169,50,50,50); got {counts}"
        )
    if not 1 <= counts[0] <= 169:
        raise SpecError(f"preflop buckets must be 1..169 (the suit classes); got {counts[0]}")
    for street in (1, 2, 3):
        if not 1 <= counts[street] <= 65_535:
            raise SpecError(
                f"{STREET_NAMES[street]} buckets must be 1..65535; got {counts[street]}"
            )
    return tuple(int(c) for c in counts)


def load_or_build(
    bucket_counts: Sequence[int] = DEFAULT_COUNTS,
    seed: int = 0,
    *,
    n_bins: int = 50,
    sample: int = 200_000,
    cache_dir: str | Path | None = None,
    progress: StageCallback | None = None,
) -> tuple[HoldemCardAbstraction, Path, bool]:
    """The cached tables for these parameters, built (and cached) if missing or damaged.

    Returns:
        ``(abstraction, cache file, True if it was built now)``.
    """
    counts = check_bucket_counts(bucket_counts)
    path = cache_path(counts, seed, n_bins=n_bins, sample=sample, cache_dir=cache_dir)
    if path.exists():
        with contextlib.suppress(FileFormatError):
            return load(path), path, False
    partial = path.with_suffix(".partial")
    abstraction = build_holdem_abstraction(
        counts, seed, n_bins=n_bins, sample=sample, progress=progress, partial_dir=partial
    )
    abstraction.save(path)
    shutil.rmtree(partial, ignore_errors=True)
    return abstraction, path, True


def build_holdem_abstraction(
    bucket_counts: Sequence[int] = DEFAULT_COUNTS,
    seed: int = 0,
    *,
    n_bins: int = 50,
    sample: int = 200_000,
    progress: StageCallback | None = None,
    partial_dir: str | Path | None = None,
    boards: int | None = None,
) -> HoldemCardAbstraction:
    """Build the four bucket tables (minutes on two cores; see the module docstring).

    Args:
        bucket_counts: buckets per street, preflop to river.
        seed: seed of the clustering (samples and seeding); the same seed, the same tables.
        n_bins: bins of the flop and turn equity histograms.
        sample: hands the flop and turn clusterings train on (then every hand is assigned).
        progress: called with (phase, done, total) as the build goes.
        partial_dir: a folder where each finished street is saved, and from which an
            earlier interrupted build's streets are loaded (None: no resuming).
        boards: for tests only: compute the first ``boards`` canonical boards of each
            street, not all; the hands on the other boards get bucket 0.
    """
    counts = check_bucket_counts(bucket_counts)
    step = _Steps(progress, partial_dir, (counts, seed, n_bins, sample, boards))
    tables: list[NDArray[np.integer] | None] = [None] * 4
    for street in (0, 1, 2, 3):
        tables[street] = step.load(street)
    if tables[0] is None or tables[1] is None:
        flop = step.run(
            "flop features",
            lambda p: street_distributions(1, n_bins, progress=p, boards=_first(boards)),
        )
        flop_clusters = _cluster(step, "flop clusters", flop, counts[1], seed, sample)
        step.emd["flop"] = flop_clusters.emd
        tables[1] = step.save(1, _narrow(flop_clusters.labels, counts[1]))
        if counts[0] == 169:
            tables[0] = step.save(0, np.arange(169, dtype=np.uint8))
            step.emd["preflop"] = 0.0
        else:
            pre = preflop_distributions(flop)
            pre_clusters = _cluster(step, "preflop clusters", pre, counts[0], seed, sample)
            step.emd["preflop"] = pre_clusters.emd
            tables[0] = step.save(0, _narrow(pre_clusters.labels, counts[0]))
        del flop, flop_clusters
    if tables[2] is None:
        turn = step.run(
            "turn features",
            lambda p: street_distributions(2, n_bins, progress=p, boards=_first(boards)),
        )
        turn_clusters = _cluster(step, "turn clusters", turn, counts[2], seed, sample)
        step.emd["turn"] = turn_clusters.emd
        tables[2] = step.save(2, _narrow(turn_clusters.labels, counts[2]))
        del turn, turn_clusters
    if tables[3] is None:
        river = step.run(
            "river strengths", lambda p: river_strengths(progress=p, boards=_first(boards))
        )
        split = one_dimensional_buckets(river.value_weights.astype(np.float64), counts[3])
        values = np.arange(STRENGTH_SCALE + 1)
        centers = np.array(
            [_weighted_median(values[split == b], river.value_weights[split == b])
             for b in range(counts[3])]
        )  # fmt: skip
        step.emd["river"] = float(
            np.dot(river.value_weights, np.abs(values - centers[split]))
            / river.value_weights.sum()
            / STRENGTH_SCALE
        )
        lookup = np.zeros(NOT_COMPUTED + 1, dtype=np.int32)
        lookup[: len(split)] = split
        if boards is None and np.any(river.numerators == NOT_COMPUTED):
            raise RuntimeError("river strengths left a canonical hand uncomputed (a bug)")
        tables[3] = step.save(3, _narrow(lookup, counts[3])[river.numerators])
        del river
    report = BuildReport(
        dict(step.seconds),
        dict(step.emd),
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
        tuple(STREET_NAMES[s] for s in step.resumed),
    )
    final = tuple(t for t in tables if t is not None)
    return HoldemCardAbstraction(final, seed, n_bins, report)


def _cluster(
    step: _Steps, phase: str, features: StreetFeatures, k: int, seed: int, sample: int
) -> Clustering:
    """One street's hands in ``k`` clusters by the earth mover's distance (a timed phase)."""
    clusters: Clustering = step.run(
        phase,
        lambda p: emd_kmedians(
            features.histograms, k, weights=features.weights, order_by=features.ehs,
            seed=seed, sample=sample, progress=p,
        ),
    )  # fmt: skip
    return clusters


def _first(boards: int | None) -> NDArray[np.int64] | None:
    return None if boards is None else np.arange(boards, dtype=np.int64)


def _weighted_median(values: NDArray[np.int64], weights: NDArray[np.int64]) -> int:
    cumulative = np.cumsum(weights)
    return int(values[int(np.searchsorted(cumulative, cumulative[-1] / 2))])


def _narrow(labels: NDArray[np.integer], count: int) -> NDArray[np.integer]:
    return labels.astype(np.uint8 if count <= 256 else np.uint16)


class _Steps:
    """Times the phases, reports progress, and saves / resumes finished street tables."""

    def __init__(
        self, progress: StageCallback | None, partial_dir: str | Path | None, key: object
    ) -> None:
        self.progress = progress
        self.folder = None if partial_dir is None else Path(partial_dir)
        self.key = json.dumps(key, default=str)
        self.seconds: dict[str, float] = {}
        self.emd: dict[str, float] = {}
        self.resumed: list[int] = []

    def run(self, phase: str, work: Callable[[StepCallback | None], object]) -> Any:
        """Run one phase, timing it and forwarding its progress."""
        report = self.progress
        callback = None if report is None else (lambda done, total: report(phase, done, total))
        start = time.perf_counter()
        result = work(callback)
        self.seconds[phase] = time.perf_counter() - start
        return result

    def load(self, street: int) -> NDArray[np.integer] | None:
        """A street table an interrupted build of the same parameters saved, if any."""
        if self.folder is None:
            return None
        path = self.folder / f"street{street}.npy"
        key = self.folder / "parameters.json"
        if not path.exists() or not key.exists() or key.read_text() != self.key:
            return None
        try:
            table = read_npy(path, shape=(street_indexer(street).size,), kinds="iu")
        except (OSError, ValueError):
            return None
        self.resumed.append(street)
        return table

    def save(self, street: int, table: NDArray[np.integer]) -> NDArray[np.integer]:
        """Keep a finished street table in the partial folder (atomically); return it."""
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            key = self.folder / "parameters.json"
            if not key.exists() or key.read_text() != self.key:
                _atomic_bytes(key, self.key.encode())
            write_file_atomic(self.folder / f"street{street}.npy",
                              lambda stream: np.save(stream, table))
        return table


def _atomic_bytes(path: Path, data: bytes) -> None:
    write_file_atomic(path, lambda stream: stream.write(data))


PARALLEL_DEALS = 4096
"""Batches at least this large use both cores; smaller ones (play time) run on the caller's."""


@numba.njit(cache=True, nogil=True, inline="always")
def _deal_buckets(
    d: int,
    hole: NDArray[np.int64],
    board: NDArray[np.int64],
    out: NDArray[np.int32],
    tables: tuple[NDArray[np.integer], ...],
    indexers: tuple[NDArray[np.int64], ...],
    rounds: tuple[NDArray[np.int64], ...],
    hand: NDArray[np.int64],
) -> bool:
    """Fill ``out[d]``; False (and nothing filled) if the deal repeats a card.

    ``rounds`` holds each street's indexer rounds, ``hand`` is 7 cards of scratch space.
    """
    seen = 0
    for k in range(5):
        seen |= 1 << board[d, k]
    repeated = _popcount64(seen) != 5
    for p in range(hole.shape[1]):
        for k in range(2):
            bit = 1 << hole[d, p, k]
            if seen & bit:
                repeated = True
            seen |= bit
    if repeated:
        return False
    table0, table1, table2, table3 = tables
    sizes0, keys0, offsets0, sizes1, keys1, offsets1 = indexers[:6]
    sizes2, keys2, offsets2, sizes3, keys3, offsets3 = indexers[6:]
    rounds0, rounds1, rounds2, rounds3 = rounds
    for k in range(5):
        hand[2 + k] = board[d, k]
    for p in range(hole.shape[1]):
        hand[0] = hole[d, p, 0]
        hand[1] = hole[d, p, 1]
        out[d, p, 0] = table0[index_hand(hand[:2], rounds0, 13, sizes0, keys0, offsets0)]
        out[d, p, 1] = table1[index_hand(hand[:5], rounds1, 13, sizes1, keys1, offsets1)]
        out[d, p, 2] = table2[index_hand(hand[:6], rounds2, 13, sizes2, keys2, offsets2)]
        out[d, p, 3] = table3[index_hand(hand, rounds3, 13, sizes3, keys3, offsets3)]
    return True


@numba.njit(cache=True, nogil=True)
def _street_rounds() -> tuple[NDArray[np.int64], ...]:
    """The rounds of the four standard indexers (``STREET_ROUNDS``) as arrays."""
    return (
        np.array([2], dtype=np.int64),
        np.array([2, 3], dtype=np.int64),
        np.array([2, 4], dtype=np.int64),
        np.array([2, 5], dtype=np.int64),
    )


@numba.njit(cache=True, nogil=True, parallel=True)
def _buckets_parallel(
    hole: NDArray[np.int64],
    board: NDArray[np.int64],
    tables: tuple[NDArray[np.integer], ...],
    indexers: tuple[NDArray[np.int64], ...],
) -> tuple[NDArray[np.int32], int]:
    """Buckets of every player at every street, deals over the cores; first bad deal or -1."""
    out = np.zeros((hole.shape[0], hole.shape[1], 4), dtype=np.int32)
    good = np.empty(hole.shape[0], dtype=np.bool_)
    rounds = _street_rounds()
    for d in numba.prange(hole.shape[0]):
        hand = np.empty(7, dtype=np.int64)
        good[d] = _deal_buckets(d, hole, board, out, tables, indexers, rounds, hand)
    for d in range(hole.shape[0]):
        if not good[d]:
            return out, d
    return out, -1


@numba.njit(cache=True, nogil=True)
def _buckets_serial(
    hole: NDArray[np.int64],
    board: NDArray[np.int64],
    tables: tuple[NDArray[np.integer], ...],
    indexers: tuple[NDArray[np.int64], ...],
) -> tuple[NDArray[np.int32], int]:
    """:func:`_buckets_parallel` on the calling thread (no thread pool: small batches)."""
    out = np.zeros((hole.shape[0], hole.shape[1], 4), dtype=np.int32)
    rounds = _street_rounds()
    hand = np.empty(7, dtype=np.int64)
    for d in range(hole.shape[0]):
        if not _deal_buckets(d, hole, board, out, tables, indexers, rounds, hand):
            return out, d
    return out, -1


@numba.njit(cache=True, nogil=True, inline="always")
def _popcount64(x: int) -> int:
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count
