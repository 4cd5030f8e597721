"""Writing a file atomically: a reader sees the old file or the whole new one, never a part.

The one primitive every layer uses to write (strategy files, checkpoints, caches, the
card tables' cache): write into a temporary file in the same folder, flush it to disk,
then rename it over the target. :func:`pokerlab.strategy.io.write_file_atomic` wraps it
with the error a user sees when the target is a folder.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


def replace_atomically(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Write ``path`` through ``write(handle)`` into a temporary file, then rename it.

    The file gets the permissions of an ordinary file (not mkstemp's 0600); the folder is
    made if missing. On any error the temporary file is removed and the error raised.
    """
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


__all__ = ["replace_atomically"]
