"""Figures of the studies: matplotlib without a display, written atomically."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any


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
    out.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=out.suffix)
    os.close(handle)
    try:
        figure.savefig(tmp, dpi=dpi)
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
        pyplot().close(figure)
    return out
