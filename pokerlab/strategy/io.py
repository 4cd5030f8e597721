"""Strategy files: ``.npz`` arrays plus a JSON header, written atomically.

The header records the game spec, the infoset keys' fingerprint, what made the strategy
(algorithm, iterations, exploitability) and the pokerlab version, so that loading a file
for another game, or a damaged file, is a clear error rather than a wrong answer.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

import numpy as np

from pokerlab.errors import FileFormatError, PokerlabError, StrategyMismatchError
from pokerlab.games import Game, GameSpec, load
from pokerlab.strategy.strategy import Strategy
from pokerlab.tree import CompiledTree, compile

FORMAT = "pokerlab-strategy"
FORMAT_VERSION = 1


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


def save_strategy(strategy: Strategy, path: str | Path) -> Path:
    """Write ``strategy`` to ``path`` atomically and return the path."""
    from pokerlab import __version__

    target = Path(path)
    tree = compile(strategy.game)
    header = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "pokerlab_version": __version__,
        "game": strategy.game.spec.to_dict(),
        "game_string": str(strategy.game.spec),
        "n_infosets": tree.n_infosets,
        "max_actions": tree.max_actions,
        "keys_fingerprint": keys_fingerprint(tree),
        "metadata": dict(strategy.metadata),
    }
    arrays: dict[str, np.ndarray] = {
        "header": np.frombuffer(json.dumps(header, default=_json_default).encode(), dtype=np.uint8),
        "probs": np.ascontiguousarray(strategy.probs),
    }
    write_npz_atomic(target, arrays)
    return target


def _json_default(value: object) -> object:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    return str(value)


def read_npz(
    path: str | Path, expected_format: str
) -> tuple[dict[str, object], dict[str, np.ndarray]]:
    """Read a pokerlab ``.npz`` file: its JSON header and its arrays.

    Raises:
        FileFormatError: missing, truncated, corrupted, or not of ``expected_format``.
    """
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
    if not isinstance(header, dict) or header.get("format") != expected_format:
        found = header.get("format") if isinstance(header, dict) else None
        raise FileFormatError(
            f"{str(source)!r} is a {found or 'unknown'} file, not a {expected_format} file"
        )
    return header, arrays


def load_strategy(path: str | Path, *, game: Game | None = None) -> Strategy:
    """Read a strategy file; check it against ``game`` when one is given."""
    header, arrays = read_npz(path, FORMAT)
    try:
        game_dict = header["game"]
        if not isinstance(game_dict, dict):
            raise FileFormatError(f"its 'game' is {game_dict!r}, not a spec dict")
        file_game = load(GameSpec.from_dict(game_dict))
    except (KeyError, PokerlabError) as exc:
        raise FileFormatError(f"{str(path)!r} names no valid game: {exc}") from None
    if game is not None and game != file_game:
        raise StrategyMismatchError(
            f"{str(path)!r} holds a strategy for {file_game.spec}, not for {game.spec}"
        )
    tree = compile(file_game)
    if header.get("keys_fingerprint") != keys_fingerprint(tree):
        raise StrategyMismatchError(
            f"{str(path)!r} was made for {file_game.spec} by a pokerlab whose infosets differ "
            "from this one's; solve it again"
        )
    probs = arrays.get("probs")
    if probs is None:
        raise FileFormatError(f"{str(path)!r} has no 'probs' array")
    metadata = header.get("metadata", {})
    return Strategy.from_array(
        file_game, probs, metadata=metadata if isinstance(metadata, dict) else {}
    )
