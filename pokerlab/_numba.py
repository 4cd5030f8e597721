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
find it. A later ``import scipy.linalg`` still works and gets the module as its
``cython_blas`` attribute (a finder on ``sys.meta_path`` sets it once the package has
loaded). Anything unexpected (no scipy, another layout, a failing load) leaves numba's own
path.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from types import ModuleType

BLAS_MODULE = "scipy.linalg.cython_blas"
PACKAGE = "scipy.linalg"


class _Parent(importlib.abc.MetaPathFinder):
    """Gives ``scipy.linalg``, when it is imported after the preload, its ``cython_blas``.

    Python sets a submodule as its package's attribute only when it loads the submodule
    itself; the preloaded one was registered before the package existed.
    """

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != PACKAGE:
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)  # once: the package loads once
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        loader = None if spec is None else spec.loader
        if loader is None:
            return spec
        inner = loader.exec_module

        def exec_module(module: ModuleType) -> None:
            inner(module)
            blas = sys.modules.get(BLAS_MODULE)
            if blas is not None:
                module.cython_blas = blas  # type: ignore[attr-defined]

        setattr(loader, "exec_module", exec_module)  # noqa: B010 (this spec's own loader)
        return spec


def preload_blas() -> bool:
    """Load scipy's ``cython_blas`` extension without its package; True if it is loaded.

    A no-op when the module is already loaded; the usual import when ``scipy.linalg`` is;
    False (and nothing registered) when scipy is missing or the extension cannot be found
    or loaded, so numba imports it its own way.
    """
    if BLAS_MODULE in sys.modules:
        return True
    try:
        if PACKAGE in sys.modules:
            importlib.import_module(BLAS_MODULE)
            return True
        import scipy

        folders = [os.path.join(folder, "linalg") for folder in scipy.__path__]
        spec = importlib.machinery.PathFinder.find_spec(BLAS_MODULE, folders)
        if spec is None or spec.loader is None:
            return False
        module = importlib.util.module_from_spec(spec)
        sys.modules[BLAS_MODULE] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            sys.modules.pop(BLAS_MODULE, None)
            raise
    except Exception:  # any failure: numba's own import path, as if this were not here
        return False
    sys.meta_path.insert(0, _Parent())
    return True


preload_blas()

import numba  # noqa: E402  (after the preload, which is the point of this module)
from numba import njit, prange  # noqa: E402

__all__ = ["njit", "numba", "prange", "preload_blas"]
