"""numba, imported once for every kernel module, without the half second numba spends on scipy.

Every module with compiled kernels imports numba from here (``from pokerlab._numba import
numba``), never directly: a test holds to it. The one thing done before numba loads is for a
fresh process's start-up. The first time numba loads any kernel (compiled or from its disk
cache) it loads its numpy registries, and one of them checks that BLAS is available by
importing ``scipy.linalg.cython_blas``. Python imports the package ``scipy.linalg`` first,
and that package walks numpy through scipy's array-API layer (loading numpy.f2py,
numpy.testing, unittest, pydoc ...): 0.4-0.5 s of a 1.6-2.2 s river spot command, for a
module of 148 function pointers that loads in milliseconds by itself.

So :func:`preload_blas` loads that one extension module by itself and registers it under
its own name: numba's check and numba's BLAS wrappers (which look the module up by name)
find it, and ``import scipy.linalg`` later still works (the package's own modules do not
import it). Anything unexpected (no scipy, another layout) leaves numba's own path.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from pathlib import Path

BLAS_MODULE = "scipy.linalg.cython_blas"


def preload_blas() -> bool:
    """Load scipy's ``cython_blas`` extension without its package; True if it is loaded.

    A no-op when the module is already loaded; False (and nothing registered) when scipy is
    missing or the extension cannot be found or loaded, so numba imports it its own way.
    """
    if BLAS_MODULE in sys.modules:
        return True
    try:
        import scipy
    except ImportError:
        return False
    folder = Path(scipy.__file__).parent / "linalg"
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    paths = sorted(p for p in folder.glob("cython_blas.*") if p.name.endswith(suffixes))
    if not paths:
        return False
    loader = importlib.machinery.ExtensionFileLoader(BLAS_MODULE, str(paths[0]))
    spec = importlib.util.spec_from_file_location(BLAS_MODULE, paths[0], loader=loader)
    if spec is None:
        return False
    try:
        module = importlib.util.module_from_spec(spec)
        sys.modules[BLAS_MODULE] = module
        loader.exec_module(module)
    except Exception:  # any failure: numba's own import path, as if this were not here
        sys.modules.pop(BLAS_MODULE, None)
        return False
    return True


preload_blas()

import numba  # noqa: E402  (after the preload, which is the point of this module)
from numba import njit, prange  # noqa: E402

__all__ = ["njit", "numba", "prange", "preload_blas"]
