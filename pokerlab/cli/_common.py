"""Helpers shared by the CLI modules: loading games, printing JSON, the console."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from pokerlab.errors import FileFormatError
from pokerlab.games import Game, load, matrix_from_file


def _width(stream: object) -> int | None:
    """The terminal's width, or 160 columns when output goes to a pipe or a file.

    Rich falls back to 80 columns without a terminal, which squeezes wide tables into
    ellipses exactly when a user saves the output.
    """
    isatty = getattr(stream, "isatty", None)
    if os.environ.get("COLUMNS") or (callable(isatty) and isatty()):
        return None
    return 160


console = Console(width=_width(sys.stdout))
"""Results go to stdout."""

err_console = Console(stderr=True, width=_width(sys.stderr))
"""Progress and logs go to stderr."""


def load_game(text: str) -> Game:
    """A game from a spec string (``"leduc(stack=50)"``) or a matrix file path."""
    if text.endswith((".csv", ".json")) and Path(text).exists():
        return matrix_from_file(text)
    return load(text)


def print_json(data: Any) -> None:
    """Print ``data`` as indented JSON on stdout."""
    sys.stdout.write(json.dumps(data, indent=2, default=_default) + "\n")


def _default(value: Any) -> Any:
    import numpy as np

    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def check_output_path(path: Path) -> None:
    """Refuse an output path that is a folder, before any work is done.

    Raises:
        FileFormatError: if ``path`` is an existing folder.
    """
    if path.is_dir():
        raise FileFormatError(f"--out {path} is a folder; give the name of a file to write")
