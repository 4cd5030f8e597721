"""Package attributes that import their module on first use (PEP 562).

A package whose ``__init__`` would import heavy modules (numba kernels, scipy, the Hard AI's
card tables) lists its public names and the submodule of each instead; the name's module
loads when the name is first read, then stays (the attribute is set on the package). A
top-level module that imports nothing of pokerlab.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any


def lazy_attributes(package: str, modules: Mapping[str, str], names: Sequence[str]
                    ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``.

    Args:
        package: the package's name (its ``__name__``).
        modules: each lazy name and the submodule (relative to ``package``) defining it.
        names: the package's public names (its ``__all__``), what ``dir()`` lists.
    """

    def attribute(name: str) -> Any:
        module = modules.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)
        return value

    def listing() -> list[str]:
        return sorted(names)

    return attribute, listing
