"""Figures of the studies: matplotlib without a display, written atomically."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pokerlab.strategy.io import write_file_atomic


def pyplot() -> Any:
    """Matplotlib's pyplot on the Agg backend (no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(figure: Any, path: str | Path, *, dpi: int = 110) -> Path:
    """Write ``figure`` to ``path`` atomically (a temporary file, then a rename) and close it.

    The format follows the suffix (``.png``, ``.svg``, ``.pdf``); a reader never sees a
    half-written image.
    """
    out = Path(path)
    kind = out.suffix.lstrip(".").lower() or "png"
    try:
        write_file_atomic(out, lambda stream: figure.savefig(stream, dpi=dpi, format=kind))
    finally:
        pyplot().close(figure)
    return out
