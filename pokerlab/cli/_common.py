"""Helpers shared by the CLI modules: loading games, printing JSON, the console."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from pokerlab.games import Game, load, matrix_from_file

console = Console()
"""Results go to stdout."""

err_console = Console(stderr=True)
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
