"""The checkpoint file of every run loop: everything needed to resume exactly, in one ``.npz``.

One family for every long run (:class:`~pokerlab.solvers.run_loop.RunLoop`): a JSON
header and the arrays of the state, written atomically (a temporary file, then a
rename), so an interrupted save never leaves a damaged file. The header's ``kind`` says
whose state it holds:

- ``"solver"``: a solver of :data:`pokerlab.solvers.SOLVERS` (the algorithm, its
  hyper-parameters, the game spec and, where the game compiles, its infoset keys'
  fingerprint; :meth:`pokerlab.solvers.Solver.save_checkpoint`);
- ``"range"``: the range solver of :mod:`pokerlab.subgame` (the public game's source
  instead of a spec; :meth:`pokerlab.subgame.RangeSolver.save_checkpoint`);
- ``"blueprint"``: a blueprint trainer (:mod:`pokerlab.blueprint.store`: the ``.bp``
  file is its checkpoint).

Every kind records the run's clock the same way (:meth:`RunLoop.clock_header
<pokerlab.solvers.run_loop.RunLoop.clock_header>`: ``iterations``, ``seconds``,
``wall_seconds``, ``history``) and the non-array part of its state (``state_values``).

Format versions: 1 named the solver by class (``"solver"``) and always held a
fingerprint; 2 found the solver by ``"algorithm"`` and held a fingerprint only where the
game compiles; 3 (this one) adds ``kind`` (absent: ``"solver"``) and ``wall_seconds``
(absent: the solving ``seconds``). All load. So do the files of the range solver's
former format (``pokerlab-range-checkpoint`` 1, read as kind ``"range"``); the
blueprint's former ``.bp`` container is read by :mod:`pokerlab.blueprint.store`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.errors import FileFormatError, SolverError
from pokerlab.strategy.io import json_default, read_npz, write_file_atomic, write_npz_atomic

FORMAT = "pokerlab-checkpoint"
"""The ``format`` field of a checkpoint's header."""

FORMAT_VERSION = 3

KINDS = ("solver", "range", "blueprint")
"""What a checkpoint can hold (its header's ``kind``)."""

LEGACY_RANGE_FORMAT = "pokerlab-range-checkpoint"
"""The range solver's checkpoints before they joined this family (read as ``"range"``)."""

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


def write_checkpoint(
    path: Path,
    header: dict[str, Any],
    arrays: dict[str, np.ndarray],
    *,
    kind: str = "solver",
    compress: bool = True,
) -> Path:
    """Write ``header`` and the state ``arrays`` to ``path`` atomically; return the path.

    ``header`` gets the ``format``, ``format_version`` and ``kind`` fields here.
    ``compress=False`` stores the arrays as they are (large tables: much faster to write).
    """
    if kind not in KINDS:
        raise SolverError(f"unknown checkpoint kind {kind!r}; known: {', '.join(KINDS)}")
    stored = {_ARRAY_PREFIX + name: np.ascontiguousarray(a) for name, a in arrays.items()}
    full = {"format": FORMAT, "format_version": FORMAT_VERSION, "kind": kind, **header}
    stored["header"] = np.frombuffer(
        json.dumps(full, default=json_default).encode(), dtype=np.uint8
    )
    if compress:
        write_npz_atomic(path, stored)
    else:
        write_file_atomic(path, lambda handle: np.savez(handle, **stored))  # type: ignore[arg-type]
    return path


def read_checkpoint(
    path: str | Path, *, kind: str | None = None
) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """Read a checkpoint: its header and its state arrays (names without the prefix).

    Args:
        path: the file.
        kind: if given, the file must hold a checkpoint of this kind.

    Raises:
        FileFormatError: missing, damaged, not a checkpoint (or not of ``kind``), or of a
            newer format.
    """
    header, arrays = read_npz(path, (FORMAT, LEGACY_RANGE_FORMAT))
    if header.get("format") == LEGACY_RANGE_FORMAT:
        legacy = dict(header)
        legacy["kind"] = "range"
        _check_kind(legacy, kind, path)
        return legacy, dict(arrays)
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
    full = dict(header)
    full.setdefault("kind", "solver")
    _check_kind(full, kind, path)
    return full, state


def _check_kind(header: dict[str, Any], kind: str | None, path: str | Path) -> None:
    found = header.get("kind")
    if kind is not None and found != kind:
        raise FileFormatError(
            f"{str(path)!r} is a checkpoint of a {_KIND_WORDS.get(str(found), found)}, not of "
            f"a {_KIND_WORDS[kind]}"
        )


_KIND_WORDS = {"solver": "solver (pokerlab solve)", "range": "range solver (pokerlab spot "
               "solve)", "blueprint": "blueprint trainer (pokerlab blueprint train)"}


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
    "FORMAT_VERSION",
    "KINDS",
    "LEGACY_RANGE_FORMAT",
    "read_checkpoint",
    "split_state",
    "write_checkpoint",
]
