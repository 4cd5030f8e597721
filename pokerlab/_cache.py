"""Caches: bounded ones in memory keyed by game spec, and the one folder on disk.

On disk, every kind of cached file (solver bots, default blueprints, card tables, the
AIVAT preflop table, the hand evaluator's lookup tables) lives in a folder of its own
under one root: :func:`cache_folder`, the only reader of ``$POKERLAB_CACHE``. A
``cache_dir`` argument anywhere in pokerlab names that root, never one kind's folder.

In memory:

Several layers keep what they computed for a game (its compiled tree, a lifting map, a
collapsed game, a Hold'em size count) so the next call for the same spec is free. In a
long-running process (a server, a tournament) such caches must not grow without end,
and a caller must be able to drop them all at once. A :class:`SpecCache` is a small LRU
mapping with a fixed number of entries; every one registers itself by name, and
:func:`clear_caches` clears every registered cache.

Example:
    >>> trees = SpecCache("example", maxsize=2)
    >>> trees.put("kuhn", 1); trees.put("leduc", 2); trees.put("rps", 3)
    >>> trees.get("kuhn") is None, trees.get("rps"), len(trees)  # the oldest went first
    (True, 3, 2)
    >>> clear_caches(); len(trees)
    0
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Hashable
from pathlib import Path
from typing import Generic, TypeVar

Value = TypeVar("Value")

CACHE_ENV = "POKERLAB_CACHE"
"""The environment variable naming the cache root."""

CACHE_KINDS = ("bots", "abstraction", "blueprint-cards", "aivat", "evaluator")
"""The kinds of cached files, one folder each under the root."""


def cache_root(cache_dir: str | Path | None = None) -> Path:
    """The cache root: ``cache_dir``, else ``$POKERLAB_CACHE``, else ``~/.cache/pokerlab``."""
    if cache_dir is not None:
        return Path(cache_dir)
    env = os.environ.get(CACHE_ENV)
    return Path(env) if env else Path.home() / ".cache" / "pokerlab"


def cache_folder(kind: str, cache_dir: str | Path | None = None) -> Path:
    """The folder of one kind of cached file: ``<root>/<kind>`` (see :func:`cache_root`).

    Raises:
        ValueError: a kind not in :data:`CACHE_KINDS`.
    """
    if kind not in CACHE_KINDS:
        raise ValueError(f"cache kind must be one of {', '.join(CACHE_KINDS)}; got {kind!r}")
    return cache_root(cache_dir) / kind


_CACHES: dict[str, SpecCache[object]] = {}
_CACHES_LOCK = threading.Lock()


class SpecCache(Generic[Value]):
    """A least-recently-used mapping from a spec (or any hashable key) to a value.

    Holds at most ``maxsize`` entries: storing one more evicts the entry used longest ago.
    Safe to share between threads. Registered under ``name`` (a later cache of the same
    name replaces it in the registry) so :func:`clear_caches` reaches it.

    Args:
        name: the cache's name in the registry (``"tree.compile"``), unique per cache.
        maxsize: the most entries kept, at least 1.

    Raises:
        ValueError: if ``maxsize`` is below 1.
    """

    def __init__(self, name: str, *, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError(f"a cache holds at least 1 entry; got maxsize={maxsize}")
        self.name = name
        self.maxsize = maxsize
        self._entries: OrderedDict[Hashable, Value] = OrderedDict()
        self._lock = threading.Lock()
        with _CACHES_LOCK:
            _CACHES[name] = self  # type: ignore[assignment]

    def get(self, key: Hashable) -> Value | None:
        """The value stored for ``key`` (now the most recently used), or None."""
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: Hashable, value: Value) -> None:
        """Store ``value`` for ``key``, evicting the least recently used entry when full."""
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.maxsize:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __repr__(self) -> str:
        return f"<SpecCache {self.name!r}: {len(self)} of {self.maxsize}>"


def clear_caches() -> None:
    """Empty every registered cache (compiled trees, lifting maps, ...) at once."""
    with _CACHES_LOCK:
        caches = list(_CACHES.values())
    for cache in caches:
        cache.clear()


def registered_caches() -> dict[str, SpecCache[object]]:
    """Every registered cache by name (a copy of the registry)."""
    with _CACHES_LOCK:
        return dict(_CACHES)


__all__ = [
    "CACHE_ENV",
    "CACHE_KINDS",
    "SpecCache",
    "cache_folder",
    "cache_root",
    "clear_caches",
    "registered_caches",
]
