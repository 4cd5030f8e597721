"""pokerlab/_numba.py: kernels load without scipy.linalg, and BLAS and scipy still work.

Each check runs in a fresh interpreter: what it is about is what a process has imported.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap


def _run(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_a_kernel_loads_without_importing_scipy_linalg() -> None:
    out = _run("""
        import sys
        from pokerlab.cards.splitmix import GAMMA, mix
        assert mix(int(GAMMA)) == 0xE220A8397B1DCDAF  # a cached kernel, loaded and called
        print(sorted(m for m in sys.modules if m.startswith("scipy.linalg")))
    """)
    assert out == "['scipy.linalg.cython_blas']"


def test_numba_blas_kernels_and_scipy_linalg_still_work_after_the_preload() -> None:
    out = _run("""
        import numpy as np
        from pokerlab._numba import njit

        @njit
        def dot(a, b):
            return np.dot(a, b)  # numba's BLAS wrapper, which looks the module up by name

        import sys
        import scipy.linalg
        from scipy.linalg import cython_blas
        assert cython_blas is sys.modules["scipy.linalg.cython_blas"]
        assert scipy.linalg.cython_blas is cython_blas  # the package's attribute, too
        x = scipy.linalg.solve(np.array([[2.0, 0.0], [0.0, 4.0]]), np.array([2.0, 2.0]))
        # qr_update's Cython module takes its BLAS from cython_blas, looked up by name
        q, r = scipy.linalg.qr(np.eye(3))
        q1, r1 = scipy.linalg.qr_update(q, r, np.ones(3), np.ones(3))
        assert np.allclose(q1 @ r1, np.eye(3) + 1.0)
        print(dot(np.arange(3.0), np.arange(3.0)), x.tolist())
    """)
    assert out == "5.0 [1.0, 0.5]"


def test_when_scipy_linalg_is_already_loaded_the_usual_import_is_used() -> None:
    out = _run("""
        import sys
        import scipy.linalg
        from pokerlab import _numba
        print(_numba.preload_blas(), scipy.linalg.cython_blas is sys.modules[_numba.BLAS_MODULE])
    """)
    assert out == "True True"


def test_without_scipy_numba_is_left_its_own_way() -> None:
    out = _run("""
        import sys
        sys.modules["scipy"] = None  # what an environment without scipy looks like
        from pokerlab import _numba
        print(_numba.preload_blas(), "scipy.linalg.cython_blas" in sys.modules)
    """)
    assert out == "False False"
