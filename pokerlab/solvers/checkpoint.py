"""Solver checkpoints: everything needed to resume a run exactly, in one ``.npz`` file.

A checkpoint holds a JSON header (the solver's class name, its hyper-parameters, the game
spec and the infoset keys' fingerprint, iterations, solving seconds, the history of
measurements, and the non-array part of the solver's state) and the arrays of the
solver's :meth:`~pokerlab.solvers.base.Solver._state`. It is written atomically (a
temporary file, then a rename), so an interrupted save never leaves a damaged file.

Loading rebuilds the solver from its class name through a registry: a solver class that
supports checkpoints registers itself with :func:`register_solver` (a class decorator), so
solvers written anywhere in pokerlab resume the same way. Resuming is exact: the next
iteration is bit for bit the one the saved solver would have run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from pokerlab.errors import FileFormatError, PokerlabError, SolverError, StrategyMismatchError
from pokerlab.games import Game, GameSpec, load
from pokerlab.strategy.io import keys_fingerprint, read_npz, write_npz_atomic
from pokerlab.tree import compile

if TYPE_CHECKING:
    from pokerlab.solvers.base import Solver

FORMAT = "pokerlab-checkpoint"
FORMAT_VERSION = 1
_ARRAY_PREFIX = "state."

_REGISTRY: dict[str, type[Solver]] = {}

SolverType = TypeVar("SolverType", bound="type[Solver]")


def register_solver(cls: SolverType) -> SolverType:
    """Record a solver class so that its checkpoints can be loaded (a class decorator).

    The class is found again by its name, so names must be unique among solvers; its
    constructor must accept ``(game, **solver.hyperparameters())``.

    Raises:
        SolverError: if another class of the same name is already registered.
    """
    name = cls.__name__
    known = _REGISTRY.get(name)
    if known is not None and known is not cls:
        raise SolverError(
            f"two solver classes are named {name!r} ({known.__module__} and {cls.__module__}); "
            "checkpoints find solvers by class name, so rename one"
        )
    _REGISTRY[name] = cls
    return cls


def registered_solvers() -> dict[str, type[Solver]]:
    """The registered solver classes by class name (a copy)."""
    _import_solvers()
    return dict(_REGISTRY)


def _import_solvers() -> None:
    """Import pokerlab.solvers, whose modules register their classes on import."""
    import pokerlab.solvers

    for value in getattr(pokerlab.solvers, "SOLVERS", {}).values():
        if isinstance(value, type) and value.__name__ not in _REGISTRY:
            _REGISTRY[value.__name__] = value


def save_checkpoint(solver: Solver, path: str | Path) -> Path:
    """Write ``solver``'s complete state to ``path`` atomically and return the path.

    Raises:
        SolverError: if the solver does not support checkpoints, or its state holds a
            value that is neither an array nor JSON-ready.
    """
    from pokerlab import __version__

    name = type(solver).__name__
    if _REGISTRY.get(name) is not type(solver):
        raise SolverError(
            f"{name} is not a registered solver; decorate it with "
            "pokerlab.solvers.checkpoint.register_solver to save checkpoints"
        )
    state = solver._state()
    arrays: dict[str, np.ndarray] = {}
    values: dict[str, Any] = {}
    for key, value in state.items():
        if isinstance(value, np.ndarray):
            arrays[_ARRAY_PREFIX + key] = np.ascontiguousarray(value)
        elif _json_ready(value):
            values[key] = value
        else:
            raise SolverError(
                f"{name}._state() entry {key!r} is a {type(value).__name__}; checkpoints hold "
                "numpy arrays and JSON values (numbers, strings, lists, dicts)"
            )
    tree = compile(solver.game)
    header = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "pokerlab_version": __version__,
        "solver": name,
        "algorithm": solver.algorithm,
        "hyperparameters": solver.hyperparameters(),
        "game": solver.game.spec.to_dict(),
        "game_string": str(solver.game.spec),
        "keys_fingerprint": keys_fingerprint(tree),
        "iterations": solver.iterations,
        "seconds": solver.seconds,
        "history": [[row.iteration, row.seconds, row.exploitability] for row in solver.history],
        "state_values": values,
    }
    encoded = json.dumps(header).encode()
    arrays["header"] = np.frombuffer(encoded, dtype=np.uint8)
    target = Path(path)
    write_npz_atomic(target, arrays)
    return target


def load_checkpoint(path: str | Path, *, game: Game | None = None) -> Solver:
    """Rebuild the solver saved in ``path``; its next iteration is the one it would have run.

    Args:
        path: a file written by :func:`save_checkpoint`.
        game: if given, the checkpoint must be for this game (and this object is used).

    Raises:
        FileFormatError: missing, damaged, or not a checkpoint.
        StrategyMismatchError: the checkpoint is for another game than ``game``, or for a
            pokerlab whose infosets differ.
        SolverError: the solver class is unknown, or rejects the saved state.
    """
    from pokerlab.solvers.base import HistoryRow

    raw, arrays = read_npz(path, FORMAT)
    header: dict[str, Any] = dict(raw)
    where = repr(str(path))
    try:
        spec = GameSpec.from_dict(header["game"])
    except (KeyError, PokerlabError) as exc:
        raise FileFormatError(f"{where} names no valid game: {exc}") from None
    if game is not None:
        if game.spec != spec:
            raise StrategyMismatchError(
                f"{where} is a checkpoint for {spec}, not for {game.spec}"
            )
        file_game = game
    else:
        try:
            file_game = load(spec)
        except PokerlabError as exc:
            raise FileFormatError(
                f"{where} is for {spec}, which cannot be rebuilt ({exc}); pass game="
            ) from None
    if header.get("keys_fingerprint") != keys_fingerprint(compile(file_game)):
        raise StrategyMismatchError(
            f"{where} was saved for {spec} by a pokerlab whose infosets differ from this "
            "one's; it cannot be resumed"
        )
    _import_solvers()
    name = header.get("solver")
    cls = _REGISTRY.get(name) if isinstance(name, str) else None
    if cls is None:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise SolverError(f"{where} was saved by solver {name!r}, which is unknown; known: {known}")
    hyperparameters = header.get("hyperparameters", {})
    if not isinstance(hyperparameters, dict):
        raise FileFormatError(f"{where} has corrupted hyper-parameters: {hyperparameters!r}")
    solver = cls(file_game, **hyperparameters)
    state: dict[str, Any] = dict(header.get("state_values", {}))
    for key, value in arrays.items():
        if key.startswith(_ARRAY_PREFIX):
            state[key[len(_ARRAY_PREFIX) :]] = value
    try:
        iterations = int(header["iterations"])
        seconds = float(header["seconds"])
        history = [HistoryRow(int(i), float(s), float(e)) for i, s, e in header["history"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise FileFormatError(f"{where} has a corrupted header: {exc!r}") from None
    solver._restore(state)
    solver.iterations = iterations
    solver._seconds = seconds
    solver.history = history
    return solver


def _json_ready(value: object) -> bool:
    if value is None or isinstance(value, bool | int | float | str):
        return True
    if isinstance(value, list | tuple):
        return all(_json_ready(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_ready(v) for k, v in value.items())
    return False


__all__ = [
    "FORMAT",
    "load_checkpoint",
    "register_solver",
    "registered_solvers",
    "save_checkpoint",
]
