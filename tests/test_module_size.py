"""No module of the package grows past about 800 lines (issue 10's structure rule).

A module that long has more than one job; split it by job (as solvers/deep_cfr.py was
split into deep_networks.py, deep_policy.py and deep_cfr.py).
"""

from __future__ import annotations

from pathlib import Path

import pokerlab

LIMIT = 800
"""The most lines a module of ``pokerlab`` may have."""


def test_no_module_is_over_the_limit() -> None:
    root = Path(pokerlab.__file__).parent
    sizes = {
        str(path.relative_to(root)): len(path.read_text(encoding="utf-8").splitlines())
        for path in root.rglob("*.py")
    }
    assert len(sizes) > 100  # the walk found the package
    too_long = {name: n for name, n in sizes.items() if n > LIMIT}
    assert not too_long, f"modules over {LIMIT} lines: {too_long}"
