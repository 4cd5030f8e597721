"""The checkpoint file: everything needed to resume a solver exactly, in one ``.npz`` file.

A checkpoint holds a JSON header (the algorithm, its hyper-parameters, the game spec and,
where the game compiles, its infoset keys' fingerprint, the iterations, the solving
seconds, the history of measurements, and the non-array part of the solver's state) and
the arrays of the solver's state. It is written atomically (a temporary file, then a
rename), so an interrupted save never leaves a damaged file.

This module knows the file only: :meth:`pokerlab.solvers.Solver.save_checkpoint` and
:meth:`~pokerlab.solvers.Solver.load_checkpoint` turn solvers into headers and arrays
and back (and find the solver class again through the registry of algorithms,
:data:`pokerlab.solvers.SOLVERS`).

Format versions: 1 named the solver by class (``"solver"``) and always held a
fingerprint; 2 (this one) finds the solver by ``"algorithm"`` and holds a fingerprint
only where the game compiles. Version 1 files load (their ``"algorithm"`` is there too).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.errors import FileFormatError, SolverError
from pokerlab.strategy.io import json_default, read_npz, write_npz_atomic

FORMAT = "pokerlab-checkpoint"
"""The ``format`` field of a checkpoint's header."""

FORMAT_VERSION = 2

_ARRAY_PREFIX = "state."


def split_state(owner: str, state: dict[str, Any]) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Split a solver's state into its arrays and its JSON values.

    Args:
        owner: the solver's name, for the message.
        state: what the solver's ``_state()`` returned.

    Raises:
        SolverError: if an entry is neither a numpy array nor JSON-ready.
    """
    arrays: dict[str, np.ndarray] = {}
    values: dict[str, Any] = {}
    for key, value in state.items():
        if isinstance(value, np.ndarray):
            arrays[key] = value
        elif _json_ready(value):
            values[key] = value
        else:
            raise SolverError(
                f"{owner}._state() entry {key!r} is a {type(value).__name__}; checkpoints hold "
                "numpy arrays and JSON values (numbers, strings, lists, dicts)"
            )
    return arrays, values


def write_checkpoint(path: Path, header: dict[str, Any], arrays: dict[str, np.ndarray]) -> Path:
    """Write ``header`` and the state ``arrays`` to ``path`` atomically; return the path.

    ``header`` gets the ``format`` and ``format_version`` fields here.
    """
    stored = {_ARRAY_PREFIX + name: np.ascontiguousarray(a) for name, a in arrays.items()}
    full = {"format": FORMAT, "format_version": FORMAT_VERSION, **header}
    stored["header"] = np.frombuffer(
        json.dumps(full, default=json_default).encode(), dtype=np.uint8
    )
    write_npz_atomic(path, stored)
    return path


def read_checkpoint(path: str | Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """Read a checkpoint: its header and its state arrays (names without the prefix).

    Raises:
        FileFormatError: missing, damaged, not a checkpoint, or of a newer format.
    """
    header, arrays = read_npz(path, FORMAT)
    version = header.get("format_version")
    if not isinstance(version, int) or not 1 <= version <= FORMAT_VERSION:
        raise FileFormatError(
            f"{str(path)!r} is a checkpoint of format version {version!r}; this pokerlab "
            f"reads versions 1 to {FORMAT_VERSION}"
        )
    state = {
        name[len(_ARRAY_PREFIX) :]: value
        for name, value in arrays.items()
        if name.startswith(_ARRAY_PREFIX)
    }
    return dict(header), state


def _json_ready(value: object) -> bool:
    if value is None or isinstance(value, bool | int | float | str):
        return True
    if isinstance(value, list | tuple):
        return all(_json_ready(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_ready(v) for k, v in value.items())
    return False


__all__ = ["FORMAT", "FORMAT_VERSION", "read_checkpoint", "split_state", "write_checkpoint"]
