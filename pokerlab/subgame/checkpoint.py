"""Range solver checkpoints: resume an interrupted solve exactly, rebuilding its game.

A range checkpoint is a checkpoint of kind ``"range"`` of the one family
(:mod:`pokerlab.solvers.checkpoint`, written by :meth:`RangeSolver.save_checkpoint`): a
JSON header with the game's source (a spot's fields, or a Kuhn/Leduc spec), the variant
and its hyper-parameters, the run's clock and history; and the regrets and strategy sums
of both players. Loading rebuilds the public game from its source (this module: it
knows spots and the classic games), so the next iteration is bit for bit the one the
saved solver would have run. Files of the former format (``pokerlab-range-checkpoint``)
load too.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pokerlab.errors import FileFormatError, PokerlabError
from pokerlab.games import GameSpec, load
from pokerlab.solvers.checkpoint import read_checkpoint
from pokerlab.subgame.classic import public_game
from pokerlab.subgame.node_lock import NodeLock
from pokerlab.subgame.public_tree import PublicGame
from pokerlab.subgame.range_solver import RangeSolver
from pokerlab.subgame.spot import DEFAULT_MEMORY_LIMIT, Spot


def game_from_source(source: dict[str, Any], *, memory_limit: int = DEFAULT_MEMORY_LIMIT
                     ) -> PublicGame:
    """Build the public game a ``PublicGame.source`` describes.

    Raises:
        FileFormatError: if the source names no known kind of game.
    """
    kind = source.get("kind")
    try:
        if kind == "spot":
            spot = source.get("spot")
            if not isinstance(spot, dict):
                raise FileFormatError(f"a spot source needs the spot's fields; got {spot!r}")
            return Spot.from_dict(spot).build(memory_limit=memory_limit).public
        if kind == "game":
            game = source.get("game")
            if not isinstance(game, dict):
                raise FileFormatError(f"a game source needs a spec dict; got {game!r}")
            return public_game(load(GameSpec.from_dict(game))).public
    except (KeyError, TypeError) as exc:
        raise FileFormatError(f"cannot rebuild the game {source!r}: {exc}") from None
    raise FileFormatError(f"unknown game source {kind!r}; expected 'spot' or 'game'")


def save_range_checkpoint(solver: RangeSolver, path: str | Path) -> Path:
    """Write everything needed to resume ``solver`` exactly to ``path``, atomically.

    The same as :meth:`RangeSolver.save_checkpoint` (a checkpoint of kind ``"range"``).
    """
    return solver.save_checkpoint(path)


def load_range_checkpoint(path: str | Path, *, game: PublicGame | None = None,
                          memory_limit: int = DEFAULT_MEMORY_LIMIT,
                          locks: Iterable[NodeLock | str] | None = None) -> RangeSolver:
    """Rebuild the solver saved in ``path``; its next iteration is the one it would have run.

    Args:
        path: a file written by :func:`save_range_checkpoint` (or by the range solver's
            former checkpoint format).
        game: the public game, if already built (it must have the checkpoint's source);
            else rebuilt from the source the file records.
        memory_limit: the largest solver allocation accepted, in bytes.
        locks: the node locks the run solves with; they must be the checkpoint's (None:
            the checkpoint's own).

    Raises:
        FileFormatError: missing, damaged, or not a range checkpoint.
        SolverError: ``game`` is not the checkpoint's game, the arrays do not fit it, or
            ``locks`` are not the checkpoint's.
    """
    if game is None:
        header, _ = read_checkpoint(path, kind="range")
        where = repr(str(path))
        source = header.get("source")
        if not isinstance(source, dict):
            raise FileFormatError(f"{where} has no game source")
        try:
            game = game_from_source(source, memory_limit=memory_limit)
        except PokerlabError as exc:
            if isinstance(exc, FileFormatError):
                raise
            raise FileFormatError(f"{where} names a game that cannot be built: {exc}") from None
    return RangeSolver.load_checkpoint(path, game=game, memory_limit=memory_limit, locks=locks)


__all__ = ["game_from_source", "load_range_checkpoint", "save_range_checkpoint"]
