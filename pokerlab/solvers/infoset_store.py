"""Regrets and strategy sums of the infosets a sampling solver meets, keyed by infoset key.

Monte Carlo CFR on a game too big to compile cannot give every infoset a row up front:
it adds a row the first time a walk meets an infoset. Rows live in flat, growable arrays
(the standard library's :mod:`array`, so that a walk in Python reads and writes plain
floats, 8 bytes each): row ``i`` holds the infoset's legal actions
``actions[offsets[i]:offsets[i + 1]]`` and, at the same positions, their cumulative
regrets and strategy sums; :attr:`InfosetStore.index` maps an infoset key to its row.
A no-limit row costs its legal actions, not the game's largest action id.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from pokerlab._types import FloatArray, IntArray
from pokerlab.errors import SolverError
from pokerlab.games.base import Game
from pokerlab.strategy import InfosetTable


class InfosetStore:
    """Growable rows of (legal actions, regrets, strategy sums), one per infoset met.

    Attributes:
        index: infoset key -> row.
        keys: the keys, in row order.
        offsets: ``[rows + 1]`` where each row starts in the flat arrays (int64).
        actions: the legal actions of every row, in increasing order (int64).
        regrets: cumulative regrets, aligned with ``actions`` (float64).
        strategy_sum: strategy sums, aligned with ``actions`` (float64).
    """

    __slots__ = ("_key_bytes", "actions", "index", "keys", "offsets", "regrets", "strategy_sum")

    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self.keys: list[str] = []
        self.offsets = array("q", [0])
        self.actions = array("q")
        self.regrets = array("d")
        self.strategy_sum = array("d")
        self._key_bytes = 0

    def __len__(self) -> int:
        return len(self.keys)

    def add(self, key: str, actions: Sequence[int]) -> int:
        """Add a row of zeros for ``key`` with these legal actions; return its row."""
        row = len(self.keys)
        self.index[key] = row
        self.keys.append(key)
        n = len(actions)
        self.actions.extend(actions)
        zeros = bytes(8 * n)  # n float zeros
        self.regrets.frombytes(zeros)
        self.strategy_sum.frombytes(zeros)
        self.offsets.append(len(self.actions))
        self._key_bytes += sys.getsizeof(key)
        return row

    @property
    def nbytes(self) -> int:
        """Memory held, in bytes: the arrays, the keys and the index (approximate)."""
        arrays = sum(
            a.buffer_info()[1] * a.itemsize
            for a in (self.offsets, self.actions, self.regrets, self.strategy_sum)
        )
        rows = len(self.keys)
        # The index's table, one int object per row beyond the small-int cache, the list.
        bookkeeping = sys.getsizeof(self.index) + 28 * rows + sys.getsizeof(self.keys)
        return int(arrays + self._key_bytes + bookkeeping)

    # -- numpy views and policies -------------------------------------------------------
    def numpy(self) -> dict[str, np.ndarray]:
        """Copies of the arrays as numpy arrays, and the keys as one UTF-8 byte array."""
        return {
            "keys": np.frombuffer("\n".join(self.keys).encode(), dtype=np.uint8).copy(),
            "offsets": np.array(self.offsets, dtype=np.int64),
            "actions": np.array(self.actions, dtype=np.int64),
            "regrets": np.array(self.regrets, dtype=np.float64),
            "strategy_sum": np.array(self.strategy_sum, dtype=np.float64),
        }

    @classmethod
    def from_numpy(cls, arrays: Mapping[str, Any]) -> InfosetStore:
        """Rebuild a store from :meth:`numpy`'s arrays (a checkpoint's).

        Raises:
            SolverError: missing arrays or arrays that do not fit together.
        """
        missing = [
            name
            for name in ("keys", "offsets", "actions", "regrets", "strategy_sum")
            if not isinstance(arrays.get(name), np.ndarray)
        ]
        if missing:
            raise SolverError(f"checkpoint state lacks the infoset arrays {missing}")
        try:
            text = np.asarray(arrays["keys"], dtype=np.uint8).tobytes().decode()
        except UnicodeDecodeError as exc:
            raise SolverError(f"checkpoint state has corrupted infoset keys: {exc}") from None
        keys = text.split("\n") if text else []
        offsets = np.asarray(arrays["offsets"], dtype=np.int64)
        size = int(offsets[-1]) if offsets.size else -1
        if (
            offsets.shape != (len(keys) + 1,)
            or offsets[0] != 0
            or np.any(np.diff(offsets) < 1)
            or any(np.asarray(arrays[n]).shape != (size,)
                   for n in ("actions", "regrets", "strategy_sum"))
            or len(set(keys)) != len(keys)
        ):
            raise SolverError(
                f"checkpoint state's infoset arrays do not fit together ({len(keys)} keys, "
                f"offsets {offsets.shape}, actions {np.asarray(arrays['actions']).shape})"
            )
        store = cls()
        store.keys = keys
        store.index = {key: row for row, key in enumerate(keys)}
        store.offsets = array("q", offsets.tolist())
        store.actions = array("q", np.asarray(arrays["actions"], dtype=np.int64).tolist())
        store.regrets = array("d", np.asarray(arrays["regrets"], dtype=np.float64).tobytes())
        store.strategy_sum = array(
            "d", np.asarray(arrays["strategy_sum"], dtype=np.float64).tobytes()
        )
        store._key_bytes = sum(sys.getsizeof(key) for key in keys)
        return store

    def _view(self, values: array[float]) -> FloatArray:
        return np.frombuffer(values, dtype=np.float64) if len(values) else np.zeros(0)

    def table(
        self, game: Game, which: str, metadata: Mapping[str, Any] | None = None
    ) -> InfosetTable:
        """The rows as an :class:`InfosetTable`.

        Args:
            game: the game.
            which: ``"average"`` (strategy sums, normalised) or ``"current"`` (regret
                matching: positive regrets, normalised); a row of zeros is uniform.
            metadata: recorded in the table.
        """
        if which == "average":
            weights = self._view(self.strategy_sum).copy()
        else:
            weights = np.maximum(self._view(self.regrets), 0.0)
        offsets: IntArray = np.array(self.offsets, dtype=np.int64)
        actions: IntArray = np.array(self.actions, dtype=np.int64)
        return InfosetTable.from_arrays(
            game, self.keys, offsets, actions, weights, normalize=True, metadata=metadata
        )


__all__ = ["InfosetStore"]
