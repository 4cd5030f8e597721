"""Range solver checkpoints: resume an interrupted solve exactly.

A checkpoint is one ``.npz`` file (written atomically through
:func:`pokerlab.strategy.io.write_npz_atomic`): a JSON header with the game's source (a
spot's fields, or a Kuhn/Leduc spec), the variant and its hyper-parameters, the
iterations, solving seconds and measurements so far; and the regrets and strategy sums of
both players. Loading rebuilds the public game from its source, so the next iteration is
bit for bit the one the saved solver would have run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab._version import __version__
from pokerlab.errors import FileFormatError, PokerlabError, SolverError
from pokerlab.games import GameSpec, load
from pokerlab.solvers.base import HistoryRow
from pokerlab.strategy.io import json_default, read_npz, write_npz_atomic
from pokerlab.subgame.classic import public_game
from pokerlab.subgame.public_tree import PublicGame
from pokerlab.subgame.range_solver import RangeSolver
from pokerlab.subgame.spot import DEFAULT_MEMORY_LIMIT, Spot

FORMAT = "pokerlab-range-checkpoint"
FORMAT_VERSION = 1


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
    """Write everything needed to resume ``solver`` exactly to ``path``, atomically."""
    header = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "pokerlab_version": __version__,
        "source": dict(solver.game.source),
        "description": solver.game.description,
        "hyperparameters": solver.hyperparameters(),
        "iterations": solver.iterations,
        "seconds": solver.seconds,
        "history": [[row.iteration, row.seconds, row.exploitability] for row in solver.history],
    }
    text = json.dumps(header, default=json_default)
    arrays = {"header": np.frombuffer(text.encode(), dtype=np.uint8), **solver.state()}
    target = Path(path)
    write_npz_atomic(target, arrays)
    return target


def load_range_checkpoint(path: str | Path, *, game: PublicGame | None = None,
                          memory_limit: int = DEFAULT_MEMORY_LIMIT) -> RangeSolver:
    """Rebuild the solver saved in ``path``; its next iteration is the one it would have run.

    Args:
        path: a file written by :func:`save_range_checkpoint`.
        game: the public game, if already built (it must have the checkpoint's source).
        memory_limit: the largest solver allocation accepted, in bytes.

    Raises:
        FileFormatError: missing, damaged, or not a range checkpoint.
        SolverError: ``game`` is not the checkpoint's game, or the arrays do not fit it.
    """
    raw, arrays = read_npz(path, FORMAT)
    header: dict[str, Any] = dict(raw)
    where = repr(str(path))
    source = header.get("source")
    if not isinstance(source, dict):
        raise FileFormatError(f"{where} has no game source")
    if game is None:
        try:
            game = game_from_source(source, memory_limit=memory_limit)
        except PokerlabError as exc:
            if isinstance(exc, FileFormatError):
                raise
            raise FileFormatError(f"{where} names a game that cannot be built: {exc}") from None
    elif dict(game.source) != source:
        raise SolverError(f"{where} is a checkpoint of {header.get('description')}, not of "
                          f"{game.description}")
    hyperparameters = header.get("hyperparameters", {})
    if not isinstance(hyperparameters, dict):
        raise FileFormatError(f"{where} has corrupted hyper-parameters: {hyperparameters!r}")
    try:
        solver = RangeSolver(game, memory_limit=memory_limit, **hyperparameters)
        history = [HistoryRow(int(i), float(s), float(e)) for i, s, e in header["history"]]
        solver.restore(arrays, iterations=int(header["iterations"]),
                       seconds=float(header["seconds"]), history=history)
    except (KeyError, TypeError, ValueError) as exc:
        raise FileFormatError(f"{where} has a corrupted header: {exc!r}") from None
    return solver


__all__ = ["FORMAT", "game_from_source", "load_range_checkpoint", "save_range_checkpoint"]
