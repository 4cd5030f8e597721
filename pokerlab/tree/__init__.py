"""The compiled tree: a game's histories as flat numpy arrays, built once per spec."""

from __future__ import annotations

from pokerlab.tree.compile import DEFAULT_MEMORY_LIMIT, CompiledTree, clear_cache, compile

__all__ = ["DEFAULT_MEMORY_LIMIT", "CompiledTree", "clear_cache", "compile"]
