"""The layers: a module of pokerlab imports only from its own layer and those to its left.

Every module under ``pokerlab/`` is parsed with ``ast``; every import at any depth
(function-local ones included), relative imports resolved, and every
``importlib.import_module("pokerlab....")`` with a literal name, is checked against the
order below (DESIGN.md's, with ``testing``, the conformance checks, right of the layers
whose objects it checks). The top-level modules ``pokerlab/__init__.py``, ``errors.py``,
``_types.py``, ``_version.py``, ``_cache.py``, ``_files.py``, ``_progress.py``, ``_lazy.py``
and ``_numba.py`` may be imported from anywhere; all but ``__init__`` import nothing from
pokerlab; ``__init__`` may import anything (and imports no
layer for its side effects: see ``test_the_package_imports_no_layer_right_of_strategy``).
Only the CLI (and the web app) import typer; only ``_numba.py`` imports numba itself.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pokerlab"

LAYERS = (
    "cards",
    "games",
    "tree",
    "strategy",
    "play",
    "eval",
    "solvers",
    "subgame",
    "abstraction",
    "blueprint",
    "agents",
    "arena",
    "envs",
    "studies",
    "protocols",
    "interop",
    "testing",
    "web",
    "cli",
)
TOP_LEVEL = ("__init__", "errors", "_types", "_version", "_cache", "_files", "_progress",
             "_lazy", "_numba")
LEAVES = ("errors", "_types", "_version", "_cache", "_files", "_progress", "_lazy", "_numba")
"""Top-level modules that import nothing from pokerlab."""
TYPER_LAYERS = ("cli", "web")


@dataclass(frozen=True)
class Import:
    module: str  # the importing module, dotted
    target: str  # the imported module, dotted
    line: int


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve_relative(module: str, is_package: bool, level: int, name: str | None) -> str:
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join([*base, *([name] if name else [])])


def _is_module(dotted: str) -> bool:
    path = PACKAGE.parent.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _imports(path: Path) -> list[Import]:
    return _imports_of(
        _module_name(path), path.name == "__init__.py", path.read_text(encoding="utf-8")
    )


def _imports_of(module: str, is_package: bool, text: str) -> list[Import]:
    tree = ast.parse(text)
    found: list[Import] = []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = (
                _resolve_relative(module, is_package, node.level, node.module)
                if node.level
                else node.module or ""
            )
            # `from pokerlab import games` imports the subpackage pokerlab.games.
            targets = [
                f"{base}.{alias.name}" if _is_module(f"{base}.{alias.name}") else base
                for alias in node.names
            ]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            targets = [node.args[0].value]
        found.extend(Import(module, target, node.lineno) for target in targets)
    return found


def _layer(dotted: str) -> str:
    """The layer of a pokerlab module: its subpackage, or a top-level module's name."""
    parts = dotted.split(".")
    if len(parts) == 1:
        return "__init__"
    return parts[1]


def _all_imports() -> list[Import]:
    found: list[Import] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        found.extend(_imports(path))
    return found


def test_modules_are_in_known_layers() -> None:
    unknown = sorted(
        {
            _module_name(path)
            for path in PACKAGE.rglob("*.py")
            if _layer(_module_name(path)) not in (*LAYERS, *TOP_LEVEL)
        }
    )
    assert not unknown, f"modules outside the known layers {LAYERS}: {unknown}"


def test_imports_go_left_only() -> None:
    violations = []
    for item in _all_imports():
        if item.target != "pokerlab" and not item.target.startswith("pokerlab."):
            continue
        source, target = _layer(item.module), _layer(item.target)
        if target in TOP_LEVEL or source == "__init__":
            continue
        if source in LEAVES:
            violations.append(f"{item.module}:{item.line} imports {item.target}")
            continue
        if target not in LAYERS:
            violations.append(f"{item.module}:{item.line} imports unknown {item.target}")
            continue
        if LAYERS.index(target) > LAYERS.index(source):
            violations.append(
                f"{item.module}:{item.line} ({source}) imports {item.target} ({target}), "
                "a layer to its right"
            )
    assert not violations, "layer violations:\n" + "\n".join(violations)


def test_top_level_leaves_import_nothing_from_pokerlab() -> None:
    for name in LEAVES:
        targets = [i.target for i in _imports(PACKAGE / f"{name}.py")]
        assert not [t for t in targets if t.split(".")[0] == "pokerlab"], (name, targets)


def test_the_package_imports_no_layer_right_of_strategy() -> None:
    """``import pokerlab`` loads the rules and the strategy format, nothing for side effects."""
    allowed = set(LAYERS[: LAYERS.index("strategy") + 1]) | set(TOP_LEVEL)
    eager = [
        f"{i.target} (line {i.line})"
        for i in _imports(PACKAGE / "__init__.py")
        if i.target.startswith("pokerlab.") and _layer(i.target) not in allowed
    ]
    assert not eager, f"pokerlab/__init__.py imports layers to the right of strategy: {eager}"


def test_only_the_cli_imports_typer() -> None:
    offenders = [
        f"{i.module}:{i.line} imports {i.target}"
        for i in _all_imports()
        if i.target.split(".")[0] in ("typer", "click") and _layer(i.module) not in TYPER_LAYERS
    ]
    assert not offenders, "typer outside the CLI:\n" + "\n".join(offenders)


def test_kernels_import_numba_through_the_one_module_that_preloads_blas() -> None:
    """``import numba`` anywhere else could load kernels before scipy's BLAS module is
    preloaded, bringing back numba's import of all of scipy.linalg (pokerlab/_numba.py)."""
    events = {"pokerlab.solvers.run_loop", "pokerlab.solvers.run_console"}  # numba.core.event
    offenders = [
        f"{i.module}:{i.line} imports {i.target}"
        for i in _all_imports()
        if (i.target == "numba" or i.target.startswith("numba."))
        and i.module != "pokerlab._numba"
        and not (i.target == "numba.core" and i.module in events)
    ]
    assert not offenders, "numba imported directly:\n" + "\n".join(offenders)


def test_the_checker_sees_local_and_relative_imports() -> None:
    source = (
        "from __future__ import annotations\n"
        "import numpy\n"
        "from . import base\n"
        "from ..solvers import cfr\n"
        "def f() -> None:\n"
        "    import pokerlab.cli\n"
        "    from pokerlab import arena\n"
        "    class C:\n"
        "        def g(self) -> None:\n"
        "            importlib.import_module('pokerlab.agents.simple')\n"
    )
    targets = [i.target for i in _imports_of("pokerlab.games.fake", False, source)]
    assert sorted(targets) == sorted(
        [
            "__future__",
            "numpy",
            "pokerlab.games.base",
            "pokerlab.solvers.cfr",
            "pokerlab.cli",
            "pokerlab.arena",
            "pokerlab.agents.simple",
        ]
    )
    assert _resolve_relative("pokerlab.games.kuhn", False, 2, "solvers") == "pokerlab.solvers"
    assert _resolve_relative("pokerlab.games", True, 1, "kuhn") == "pokerlab.games.kuhn"
    assert _resolve_relative("pokerlab.games.kuhn", False, 1, None) == "pokerlab.games"
    assert _layer("pokerlab.games.kuhn") == "games"
    assert _layer("pokerlab") == "__init__"
    assert _layer("pokerlab.errors") == "errors"
