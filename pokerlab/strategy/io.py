"""pokerlab's files: ``.npz`` arrays plus a JSON header, written atomically.

Strategies, infoset tables and solver checkpoints are all such files. The header records
the format, the game spec, what made the file and the pokerlab version, so that loading a
file for another game, or a damaged file, is a clear error rather than a wrong answer.
This module knows the container only; each format's reader and writer lives with its type.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

import numpy as np

from pokerlab._version import __version__
from pokerlab.errors import FileFormatError, PokerlabError
from pokerlab.games import Game, GameSpec, load
from pokerlab.tree import CompiledTree


def keys_fingerprint(tree: CompiledTree) -> str:
    """A short hash of the infoset keys in id order (detects misaligned rows)."""
    digest = hashlib.sha256("\n".join(tree.infoset_keys).encode())
    return digest.hexdigest()[:16]


def write_npz_atomic(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write ``arrays`` to ``path`` through a temporary file and a rename.

    Raises:
        FileFormatError: if ``path`` is an existing folder.
    """
    if path.is_dir():
        raise FileFormatError(f"{str(path)!r} is a folder; give the name of a file to write")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        # mkstemp makes the file private (0600); give it the permissions of an ordinary file.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        with os.fdopen(fd, "wb") as handle:
            np.savez_compressed(handle, **arrays)  # type: ignore[arg-type]
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def json_default(value: object) -> object:
    """Make numpy values JSON-ready (``json.dumps(..., default=json_default)``)."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    return str(value)


def header_array(header: dict[str, object]) -> np.ndarray:
    """The JSON header as the ``uint8`` array stored under the name ``header``."""
    text = json.dumps(header, default=json_default)
    return np.frombuffer(text.encode(), dtype=np.uint8)


def make_header(file_format: str, version: int, game: Game, **fields: object) -> dict[str, object]:
    """The header fields every pokerlab file has, plus ``fields``."""
    return {
        "format": file_format,
        "format_version": version,
        "pokerlab_version": __version__,
        "game": game.spec.to_dict(),
        "game_string": str(game.spec),
        **fields,
    }


def header_game(header: dict[str, object], path: str | Path) -> Game:
    """The game a file's header names.

    Raises:
        FileFormatError: if the header names no valid game.
    """
    try:
        game_dict = header["game"]
        if not isinstance(game_dict, dict):
            raise FileFormatError(f"its 'game' is {game_dict!r}, not a spec dict")
        return load(GameSpec.from_dict(game_dict))
    except (KeyError, PokerlabError) as exc:
        raise FileFormatError(f"{str(path)!r} names no valid game: {exc}") from None


def read_npz(
    path: str | Path, expected_format: str | tuple[str, ...]
) -> tuple[dict[str, object], dict[str, np.ndarray]]:
    """Read a pokerlab ``.npz`` file: its JSON header and its arrays.

    Args:
        path: the file.
        expected_format: the format (or formats) the caller can read.

    Raises:
        FileFormatError: missing, truncated, corrupted, or not of ``expected_format``.
    """
    formats = (expected_format,) if isinstance(expected_format, str) else expected_format
    source = Path(path)
    if not source.is_file():
        raise FileFormatError(f"{str(source)!r} does not exist")
    try:
        loaded = np.load(source, allow_pickle=False)
        if not isinstance(loaded, np.lib.npyio.NpzFile):
            raise FileFormatError(
                f"{str(source)!r} holds a single .npy array, not a pokerlab .npz file"
            )
        with loaded as data:
            arrays = {name: data[name] for name in data.files}
    except FileFormatError:
        raise
    except Exception as exc:  # a damaged zip fails in zipfile, zlib, numpy's header parser...
        raise FileFormatError(
            f"{str(source)!r} is not a readable pokerlab file (truncated or corrupted?): "
            f"{type(exc).__name__}: {exc}"
        ) from None
    if "header" not in arrays:
        raise FileFormatError(f"{str(source)!r} has no pokerlab header")
    try:
        header = json.loads(arrays.pop("header").tobytes().decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FileFormatError(f"{str(source)!r} has a corrupted header: {exc}") from None
    if not isinstance(header, dict) or header.get("format") not in formats:
        found = header.get("format") if isinstance(header, dict) else None
        raise FileFormatError(
            f"{str(source)!r} is a {found or 'unknown'} file, not a {' or '.join(formats)} file"
        )
    return header, arrays
