"""pokerlab's files: ``.npz`` arrays plus a JSON header, written atomically.

Strategies, infoset tables and solver checkpoints are all such files. The header records
the format, the game spec, what made the file and the pokerlab version, so that loading a
file for another game, or a damaged file, is a clear error rather than a wrong answer.
This module knows the container only; each format's reader and writer lives with its type.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import numpy as np

from pokerlab._files import replace_atomically
from pokerlab._version import __version__
from pokerlab.errors import FileFormatError, PokerlabError, StrategyMismatchError
from pokerlab.games import Game, GameSpec, load
from pokerlab.strategy.archive import (
    MAX_JSON_BYTES,
    NpzArchive,
    format_bytes,
    parse_json,
)
from pokerlab.tree import CompiledTree
from pokerlab.tree.compile import DEFAULT_MEMORY_LIMIT


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
    replace_atomically(path, write)


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


ArrayCheck = Callable[[dict[str, object], NpzArchive], None]
"""A reader's check of a file's declared arrays (``archive.arrays``), given its header,
before they are read; it may read small arrays (``archive.read``) to check the others."""


def read_npz(
    path: str | Path,
    expected_format: str | tuple[str, ...],
    *,
    check: ArrayCheck | None = None,
    limit: int | None = None,
) -> tuple[dict[str, object], dict[str, np.ndarray]]:
    """Read a pokerlab ``.npz`` file: its JSON header and its arrays, checked before reading.

    The zip directory and every array's ``.npy`` header are read first (shape, dtype,
    declared size: :class:`~pokerlab.strategy.archive.NpzArchive`); then the JSON header
    (bounded: :func:`~pokerlab.strategy.archive.parse_json`); then ``check`` sees the
    header and the declared arrays (and may read small ones); then the declared total is
    compared with ``limit``; only then are the arrays read, never more bytes than
    declared. Object (pickled) arrays are never read.

    Args:
        path: the file.
        expected_format: the format (or formats) the caller can read.
        check: the caller's check of the declared shapes (raises to refuse the file).
        limit: the most bytes the arrays may declare together (default: the memory
            limit, :data:`pokerlab.tree.compile.DEFAULT_MEMORY_LIMIT`).

    Raises:
        FileFormatError: missing, a folder, another kind of file (named), truncated,
            corrupted, declaring arrays the format does not allow or over ``limit``, or
            not of ``expected_format``.
    """
    formats = (expected_format,) if isinstance(expected_format, str) else expected_format
    wanted = " or ".join(formats)
    source = Path(path)
    where = repr(str(source))
    kind = describe_file(source)
    if kind == "a file that does not exist":
        raise FileFormatError(f"{where} does not exist")
    if kind != "a zip archive (.npz)":
        raise FileFormatError(f"{where} is {kind}, not a {wanted} file (.npz)")
    with NpzArchive(source, where=where) as archive:
        header = read_npz_header(archive, wanted)
        if header.get("format") not in formats:
            raise FileFormatError(
                f"{where} is a {header.get('format') or 'unknown'} file, not a {wanted} file"
            )
        if check is not None:
            check(header, archive)
        archive.check_limit(DEFAULT_MEMORY_LIMIT if limit is None else limit)
        arrays = {name: archive.read(name) for name in archive.arrays if name != "header"}
    return header, arrays


def read_npz_header(archive: NpzArchive, wanted: str) -> dict[str, object]:
    """The JSON header of an opened pokerlab archive (its ``header`` array), bounded.

    Raises:
        FileFormatError: no header, a header that is not a ``uint8`` vector of at most
            :data:`~pokerlab.strategy.archive.MAX_JSON_BYTES`, or not a JSON object.
    """
    where = archive.where
    info = archive.arrays.get("header")
    if info is None:
        names = ", ".join(sorted(archive.arrays)[:5]) or "none"
        raise FileFormatError(
            f"{where} is an .npz file with no pokerlab header (its arrays: {names}), not a "
            f"{wanted} file"
        )
    if info.dtype != np.uint8 or len(info.shape) != 1 or info.nbytes > MAX_JSON_BYTES:
        raise FileFormatError(
            f"{where} has a corrupted header: a {info.dtype} array of shape {info.shape}, "
            f"not the text of at most {format_bytes(MAX_JSON_BYTES)}"
        )
    header = parse_json(archive.read("header").tobytes(), where=where)
    if not isinstance(header, dict):
        raise FileFormatError(f"{where} has a corrupted header: not a JSON object")
    return header


def read_npz_format(path: str | Path) -> str | None:
    """The ``format`` field of a pokerlab ``.npz`` file's header; None for any other file.

    Only the zip directory, the ``.npy`` headers and the (bounded) JSON header are read.
    """
    try:
        with NpzArchive(Path(path), where=repr(str(path))) as archive:
            value = read_npz_header(archive, "pokerlab").get("format")
    except (FileFormatError, OSError):
        return None
    return value if isinstance(value, str) else None
