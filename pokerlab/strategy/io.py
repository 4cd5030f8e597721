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
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import numpy as np

from pokerlab._version import __version__
from pokerlab.errors import FileFormatError, PokerlabError, StrategyMismatchError
from pokerlab.games import Game, GameSpec, load
from pokerlab.tree import CompiledTree


def keys_fingerprint(tree: CompiledTree) -> str:
    """A short hash of the infoset keys in id order (detects misaligned rows)."""
    digest = hashlib.sha256("\n".join(tree.infoset_keys).encode())
    return digest.hexdigest()[:16]


def write_file_atomic(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Write a file through ``write(handle)`` into a temporary file, then rename it to ``path``.

    A reader sees the old file or the whole new one, never a part; the file gets the
    permissions of an ordinary file (not mkstemp's 0600).

    Raises:
        FileFormatError: if ``path`` is an existing folder.
    """
    if path.is_dir():
        raise FileFormatError(f"{str(path)!r} is a folder; give the name of a file to write")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        with os.fdopen(fd, "wb") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_npz_atomic(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write ``arrays`` to ``path`` as a compressed ``.npz``, atomically (see write_file_atomic).

    Raises:
        FileFormatError: if ``path`` is an existing folder.
    """
    write_file_atomic(path, lambda handle: np.savez_compressed(handle, **arrays))  # type: ignore[arg-type]


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


_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"PK\x03\x04", "a zip archive (.npz)"),
    (b"PK\x05\x06", "an empty zip archive"),
    (b"\x93NUMPY", "a single .npy array"),
    (b"SQLite format 3\x00", "an SQLite database"),
    (b"\x89PNG", "a PNG image"),
    (b"%PDF", "a PDF document"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"\x80", "a Python pickle"),
)


def describe_file(path: Path) -> str:
    """What a file is, in a few words, from its first bytes (for clear errors)."""
    if path.is_dir():
        return "a folder"
    if not path.exists():
        return "a file that does not exist"
    try:
        with open(path, "rb") as handle:
            head = handle.read(512)
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    if not head:
        return "an empty file (truncated or corrupted?)"
    for magic, kind in _MAGIC:
        if head.startswith(magic):
            return kind
        if len(head) < len(magic) and magic.startswith(head):
            return f"{kind} cut short (truncated or corrupted?)"
    text = head.lstrip()
    if text[:1] in (b"{", b"["):
        return "a JSON file"
    try:
        head.decode()
    except UnicodeDecodeError:
        return "a binary file of unknown format"
    return "a text file"


def file_game(
    header: dict[str, object], path: str | Path, game: Game | None, holds: str
) -> Game:
    """The game a file's header names, checked against ``game`` when one is given.

    Raises:
        FileFormatError: if the header names no valid game.
        StrategyMismatchError: if ``game`` is given and the file was made for another.
    """
    found = header_game(header, path)
    if game is not None and game != found:
        raise StrategyMismatchError(
            f"{str(path)!r} holds {holds} for {found.spec}, not for {game.spec}"
        )
    return found


def read_npz(
    path: str | Path, expected_format: str | tuple[str, ...]
) -> tuple[dict[str, object], dict[str, np.ndarray]]:
    """Read a pokerlab ``.npz`` file: its JSON header and its arrays.

    Args:
        path: the file.
        expected_format: the format (or formats) the caller can read.

    Raises:
        FileFormatError: missing, a folder, another kind of file (named), truncated,
            corrupted, or not of ``expected_format``.
    """
    formats = (expected_format,) if isinstance(expected_format, str) else expected_format
    wanted = " or ".join(formats)
    source = Path(path)
    kind = describe_file(source)
    if kind == "a file that does not exist":
        raise FileFormatError(f"{str(source)!r} does not exist")
    if kind != "a zip archive (.npz)":
        raise FileFormatError(f"{str(source)!r} is {kind}, not a {wanted} file (.npz)")
    try:
        loaded = np.load(source, allow_pickle=False)
        with loaded as data:
            arrays = {name: data[name] for name in data.files}
    except FileFormatError:
        raise
    except Exception as exc:  # a damaged zip fails in zipfile, zlib, numpy's header parser...
        reason = "it holds Python objects" if "allow_pickle" in str(exc) else (
            f"{type(exc).__name__}: {str(exc)[:120]}")
        raise FileFormatError(
            f"{str(source)!r} is a zip archive that is not a readable {wanted} file "
            f"(truncated or corrupted? or another program's .npz: {reason})"
        ) from None
    if "header" not in arrays:
        raise FileFormatError(
            f"{str(source)!r} is an .npz file with no pokerlab header (its arrays: "
            f"{', '.join(sorted(arrays)[:5]) or 'none'}), not a {wanted} file"
        )
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
