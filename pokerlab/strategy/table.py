"""InfosetTable: a policy stored as rows keyed by infoset key, for games too big to compile.

A :class:`~pokerlab.strategy.Strategy` needs the compiled tree (its rows are aligned with
the tree's infoset ids). Sampling solvers on large games (Monte Carlo CFR on Hold'em)
meet only some infosets and key them by their readable key; their strategies are
``InfosetTable`` objects: the keys met, each with its legal actions and probabilities,
stored compactly (one flat array of actions and one of probabilities, rows delimited by
``offsets``, so a no-limit row costs its legal actions, not the game's largest id).

At an infoset the table never met, the policy plays uniformly over the legal actions
(:attr:`InfosetTable.unseen` counts how often that happened in this process).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab._types import Action, FloatArray, IntArray
from pokerlab.errors import FileFormatError, PokerlabError, StrategyError, StrategyMismatchError
from pokerlab.games.base import Game
from pokerlab.games.observation import Observation
from pokerlab.strategy.archive import NpzArchive
from pokerlab.strategy.io import (
    file_game,
    header_array,
    header_game,
    make_header,
    read_npz,
    write_npz_atomic,
)
from pokerlab.tree.compile import DEFAULT_MEMORY_LIMIT

FORMAT = "pokerlab-table"
"""The ``format`` field of an infoset table file's header."""

FORMAT_VERSION = 1

ROW_TOLERANCE = 1e-6
"""How far a row may sum from 1 before it is refused."""


@dataclass(frozen=True, eq=False)
class InfosetTable:
    """Action probabilities at the infosets a sampling solver met, keyed by infoset key.

    Build one with :meth:`from_rows` or :meth:`from_arrays`; look a row up with
    :meth:`probabilities`; play it through :meth:`action_probabilities` (the policy
    contract); save with :meth:`save` and load with :meth:`load`.

    Attributes:
        game: the game it was made for.
        keys: the infoset keys, one per row.
        offsets: ``[rows + 1]`` row ``i`` is ``actions[offsets[i]:offsets[i + 1]]``.
        actions: ``[entries]`` the legal action ids of every row, in increasing order.
        probs: ``[entries]`` the probability of each of those actions.
        metadata: what made it (algorithm, iterations...), JSON-ready.
    """

    game: Game
    keys: tuple[str, ...]
    offsets: IntArray
    actions: IntArray
    probs: FloatArray
    metadata: Mapping[str, Any] = field(default_factory=dict)
    _index: dict[str, int] = field(repr=False, default_factory=dict)
    _unseen: list[int] = field(repr=False, default_factory=lambda: [0])

    def __post_init__(self) -> None:
        for array in (self.offsets, self.actions, self.probs):
            array.setflags(write=False)
        if not self._index:
            self._index.update((key, i) for i, key in enumerate(self.keys))

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_arrays(
        cls,
        game: Game,
        keys: Sequence[str],
        offsets: IntArray,
        actions: IntArray,
        probs: FloatArray,
        *,
        normalize: bool = False,
        metadata: Mapping[str, Any] | None = None,
    ) -> InfosetTable:
        """Wrap flat rows after checking them.

        Args:
            game: the game.
            keys: one infoset key per row (distinct).
            offsets: ``[rows + 1]`` increasing, from 0 to ``len(actions)``.
            actions: the action ids of every row.
            probs: their probabilities.
            normalize: rescale each row to sum to 1 (a row of zeros becomes uniform), as
                solvers' averages need; otherwise rows must already sum to 1.
            metadata: recorded in saved files.

        Raises:
            StrategyError: inconsistent shapes, repeated keys, negative or non-finite
                entries, or (unless ``normalize``) a row that does not sum to 1.
        """
        keys = tuple(keys)
        offsets = np.asarray(offsets, dtype=np.int64)
        actions = np.asarray(actions, dtype=np.int64)
        probs = np.array(probs, dtype=np.float64)
        if (
            offsets.ndim != 1
            or offsets.shape[0] != len(keys) + 1
            or offsets[0] != 0
            or offsets[-1] != actions.shape[0]
            or actions.shape != probs.shape
            or np.any(np.diff(offsets) < 1)
        ):
            raise StrategyError(
                f"an infoset table needs offsets of length rows + 1 = {len(keys) + 1} rising "
                f"from 0 to len(actions) with every row non-empty, and probs shaped like "
                f"actions; got offsets {offsets.shape}, actions {actions.shape}, probs "
                f"{probs.shape}"
            )
        if len(set(keys)) != len(keys):
            raise StrategyError("an infoset table's keys must be distinct")
        bad = ~np.isfinite(probs) | (probs < 0)
        if bad.any():
            row = int(np.searchsorted(offsets, int(np.flatnonzero(bad)[0]), side="right") - 1)
            raise StrategyError(
                f"infoset {keys[row]!r} has a negative or non-finite probability: "
                f"{probs[offsets[row]:offsets[row + 1]].tolist()}"
            )
        sizes = np.diff(offsets)
        row_of = np.repeat(np.arange(len(keys)), sizes)
        sums = np.bincount(row_of, weights=probs, minlength=len(keys))
        if normalize:
            zero = sums <= 0
            scale = np.where(zero, 1.0, sums)[row_of]
            probs = np.where(zero[row_of], 1.0 / sizes[row_of], probs / scale)
        else:
            off = np.abs(sums - 1.0) > ROW_TOLERANCE
            if off.any():
                row = int(np.flatnonzero(off)[0])
                raise StrategyError(
                    f"infoset {keys[row]!r}: probabilities sum to {sums[row]:.9g}, not 1; "
                    "pass normalize=True to rescale"
                )
        return cls(game, keys, offsets, actions, probs, dict(metadata or {}))

    @classmethod
    def from_rows(
        cls,
        game: Game,
        rows: Mapping[str, Mapping[Action, float]],
        *,
        normalize: bool = False,
        metadata: Mapping[str, Any] | None = None,
    ) -> InfosetTable:
        """Build a table from ``{infoset key: {action id: probability}}``.

        Example:
            >>> from pokerlab.games import kuhn
            >>> table = InfosetTable.from_rows(kuhn(), {"K|": {0: 0.25, 1: 0.75}})
            >>> table.probabilities("K|")
            {0: 0.25, 1: 0.75}
        """
        keys = list(rows)
        offsets = np.zeros(len(keys) + 1, dtype=np.int64)
        actions: list[int] = []
        probs: list[float] = []
        for i, key in enumerate(keys):
            row = sorted(rows[key].items())
            actions.extend(int(a) for a, _ in row)
            probs.extend(float(p) for _, p in row)
            offsets[i + 1] = len(actions)
        return cls.from_arrays(
            game, keys, offsets, np.asarray(actions, dtype=np.int64), np.asarray(probs),
            normalize=normalize, metadata=metadata,
        )

    # -- lookup -------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.keys)

    def __contains__(self, key: object) -> bool:
        return key in self._index

    def get(self, infoset_key: str) -> dict[Action, float] | None:
        """The row of ``infoset_key`` as ``{action: probability}``, or None if never met."""
        i = self._index.get(infoset_key)
        if i is None:
            return None
        lo, hi = int(self.offsets[i]), int(self.offsets[i + 1])
        return dict(zip(self.actions[lo:hi].tolist(), self.probs[lo:hi].tolist(), strict=True))

    def probabilities(self, infoset_key: str) -> dict[Action, float]:
        """The row of ``infoset_key``.

        Raises:
            PokerlabError: if the table has no row for it.
        """
        row = self.get(infoset_key)
        if row is None:
            raise PokerlabError(f"the table ({len(self)} infosets) has no row {infoset_key!r}")
        return row

    def action_probabilities(self, observation: Observation) -> dict[Action, float]:
        """The policy contract: the row of the observed infoset, uniform if never met.

        Raises:
            StrategyError: if the stored row's actions are not the observation's legal ones.
        """
        legal = observation.legal_actions
        row = self.get(observation.infoset_key)
        if row is None:
            self._unseen[0] += 1
            return {a: 1.0 / len(legal) for a in legal}
        if tuple(row) != tuple(legal):
            raise StrategyError(
                f"the table's row {observation.infoset_key!r} has actions {tuple(row)}, but the "
                f"legal actions are {tuple(legal)}; was it made for {observation.game}?"
            )
        return row

    @property
    def unseen(self) -> int:
        """How many lookups fell on an infoset the table never met (played uniformly)."""
        return self._unseen[0]

    def items(self) -> Iterator[tuple[str, dict[Action, float]]]:
        """Every ``(key, row)``, in row order."""
        for key in self.keys:
            row = self.get(key)
            assert row is not None
            yield key, row

    @property
    def nbytes(self) -> int:
        """Memory of the arrays and keys, in bytes (approximate for the keys)."""
        keys = sum(len(k) + 49 for k in self.keys)
        return int(self.offsets.nbytes + self.actions.nbytes + self.probs.nbytes + keys)

    def check_game(self, game: Game) -> None:
        """Raise :class:`StrategyMismatchError` unless this table was made for ``game``."""
        if self.game != game:
            raise StrategyMismatchError(
                f"this table was made for {self.game.spec}, not for {game.spec}"
            )

    def with_metadata(self, **metadata: Any) -> InfosetTable:
        """A copy with ``metadata`` added."""
        return InfosetTable(
            self.game, self.keys, self.offsets, self.actions, self.probs,
            {**self.metadata, **metadata}, self._index,
        )

    def __repr__(self) -> str:
        algo = self.metadata.get("algorithm", "?")
        return f"<InfosetTable {self.game.spec} [{len(self)} infosets] by {algo}>"

    # -- files --------------------------------------------------------------------------
    def save(self, path: str | Path) -> Path:
        """Write the table to ``path`` (``.npz`` + JSON header), atomically."""
        target = Path(path)
        header = make_header(
            FORMAT, FORMAT_VERSION, self.game, n_infosets=len(self),
            metadata=dict(self.metadata),
        )
        keys = "\n".join(self.keys).encode()
        write_npz_atomic(
            target,
            {
                "header": header_array(header),
                "keys": np.frombuffer(keys, dtype=np.uint8),
                "offsets": np.ascontiguousarray(self.offsets),
                "actions": np.ascontiguousarray(self.actions),
                "probs": np.ascontiguousarray(self.probs),
            },
        )
        return target

    @classmethod
    def load(cls, path: str | Path, *, game: Game | None = None) -> InfosetTable:
        """Read a table written by :meth:`save`.

        Raises:
            StrategyMismatchError: if ``game`` is given and the file was made for another.
            FileFormatError: if the file is missing, truncated, corrupted or of another format.
        """
        header, arrays = read_npz(
            path, FORMAT, check=lambda head, declared: check_table_arrays(head, declared, path)
        )
        return table_from_file(header, arrays, path, game)


def check_table_arrays(header: dict[str, object], archive: NpzArchive, path: str | Path) -> None:
    """Refuse a table file whose declared arrays cannot be a table, before reading them.

    The keys (a byte vector, one line per row) are read first and must be distinct; then
    ``offsets`` must be declared one longer than the rows, and ``actions`` and ``probs``
    as vectors of one length, at most the game's ``max_actions`` per row. So what the
    file makes pokerlab allocate is bounded by the distinct keys it really holds.

    Raises:
        FileFormatError: naming the array whose declaration is impossible.
    """
    where = repr(str(path))
    arrays = archive.arrays
    missing = [name for name in ("keys", "offsets", "actions", "probs") if name not in arrays]
    if missing:
        raise FileFormatError(f"{where} has no {', '.join(repr(m) for m in missing)} array")
    keys, offsets = arrays["keys"], arrays["offsets"]
    actions, probs = arrays["actions"], arrays["probs"]
    if any(len(a.shape) != 1 for a in (keys, offsets, actions, probs)) or keys.dtype != np.uint8:
        raise FileFormatError(f"{where} declares table arrays that are not vectors of its format")
    archive.check_limit(DEFAULT_MEMORY_LIMIT, names=("keys",))
    rows = len(_file_keys(archive.read("keys"), where))
    game = header_game(header, path)
    if (
        offsets.shape != (rows + 1,)
        or actions.shape != probs.shape
        or actions.shape[0] > rows * game.max_actions
        or offsets.dtype.kind not in "iu"
        or actions.dtype.kind not in "iu"
        or probs.dtype.kind not in "iuf"
    ):
        raise FileFormatError(
            f"{where} declares a table that cannot be: offsets {offsets.shape} "
            f"({offsets.dtype}), actions {actions.shape} ({actions.dtype}), probs "
            f"{probs.shape} ({probs.dtype}) for {rows} keys and at most {game.max_actions} "
            "actions per row"
        )


def _file_keys(raw: np.ndarray, where: str) -> list[str]:
    """The distinct keys of a table file's ``keys`` bytes."""
    try:
        text = raw.tobytes().decode()
    except UnicodeDecodeError as exc:
        raise FileFormatError(f"{where} has corrupted keys: {exc}") from None
    keys = text.split("\n") if text else []
    if len(set(keys)) != len(keys):
        raise FileFormatError(f"{where} holds an invalid table: its keys are not distinct")
    return keys


def table_from_file(
    header: dict[str, object], arrays: dict[str, np.ndarray], path: str | Path,
    game: Game | None,
) -> InfosetTable:
    """Build the table of a file already read by :func:`~pokerlab.strategy.io.read_npz`."""
    found = file_game(header, path, game, "a table")
    missing = [name for name in ("keys", "offsets", "actions", "probs") if name not in arrays]
    if missing:
        raise FileFormatError(f"{str(path)!r} has no {', '.join(repr(m) for m in missing)} array")
    keys = _file_keys(arrays["keys"], repr(str(path)))
    metadata = header.get("metadata", {})
    try:
        return InfosetTable.from_arrays(
            found, keys, arrays["offsets"], arrays["actions"], arrays["probs"],
            metadata=metadata if isinstance(metadata, dict) else {},
        )
    except StrategyError as exc:
        raise FileFormatError(f"{str(path)!r} holds an invalid table: {exc}") from None


__all__ = ["InfosetTable", "check_table_arrays", "table_from_file"]
