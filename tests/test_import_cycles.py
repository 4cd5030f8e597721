"""No import cycles among pokerlab's modules, whatever the depth of the import.

Every module under ``pokerlab/`` is parsed with ``ast``; every import statement at any
depth (inside functions, classes and ``if TYPE_CHECKING:`` blocks too), relative imports
resolved, and every ``importlib.import_module("pokerlab....")`` with a literal name, is an
edge from the importing module to each pokerlab module it names. ``from pokerlab.games
import kuhn`` names two: the package ``pokerlab.games`` (its ``__init__`` runs) and the
submodule ``pokerlab.games.kuhn``. The strongly connected components of that graph with
more than one module are the cycles, and the test fails listing them.

What is not an edge, because it is no dependency at all:

- a package's ``__init__`` importing its own submodules: that is the package's face
  (``pokerlab/games/__init__.py`` re-exporting ``load`` from ``registry``); the submodules
  never need the face to run;
- a module importing one of its own ancestor packages (``from pokerlab import
  __version__`` in ``pokerlab.studies.challenge``): Python has already started that
  package before the module itself, so the import adds no order between them.

These are the rules of the lead's hook (``shared/hooks/import_cycles.py``), so the two
checks agree; this test also follows literal ``importlib.import_module`` calls, which are
imports just the same.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "pokerlab"


def _modules(root: Path) -> dict[str, Path]:
    """Every module under ``root`` (a package folder) by dotted name."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _named(module: str, is_package: bool, node: ast.AST) -> Iterator[str]:
    """The dotted names one import node brings in (some are not modules: filtered later)."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            package = module.split(".") if is_package else module.split(".")[:-1]
            package = package[: len(package) - node.level + 1]
            base = ".".join([*package, *([base] if base else [])])
        yield base
        yield from (f"{base}.{alias.name}" for alias in node.names)
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute | ast.Name)
        and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
        == "import_module"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        yield node.args[0].value


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Each module's edges to the modules it depends on (see the module docstring)."""
    modules = _modules(root)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            for target in _named(name, is_package, node):
                if target not in modules or target == name:
                    continue
                if is_package and target.startswith(name + "."):
                    continue  # the package's face
                if modules[target].name == "__init__.py" and name.startswith(target + "."):
                    continue  # an ancestor package, already started
                graph[name].add(target)
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one node (or a self-loop)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    for start in sorted(graph):
        if start in index:
            continue
        # An explicit stack of (node, its remaining successors): no recursion limit.
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        work = [(start, iter(sorted(graph[start])))]
        while work:
            node, successors = work[-1]
            advanced = False
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph[succ]))))
                    advanced = True
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph[node]:
                    found.append(sorted(component))
    return sorted(found)


def _cycle_path(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """One concrete cycle inside ``component``, for a readable failure message."""
    members = set(component)
    start = component[0]
    # Breadth-first search from start's successors back to start, inside the component.
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for succ in sorted(graph[node] & members):
                if succ == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [*reversed(path), start]
                if succ not in previous:
                    previous[succ] = node
                    following.append(succ)
        frontier = following
    return component  # pragma: no cover - a component always holds a cycle


def test_pokerlab_has_no_import_cycles() -> None:
    graph = import_graph()
    cycles = strongly_connected(graph)
    assert not cycles, "import cycles:\n" + "\n".join(
        " -> ".join(_cycle_path(graph, component)) for component in cycles
    )


def test_the_checker_finds_cycles_at_any_depth(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "from pkg import a, sub\n",  # the face: no edge
        "a.py": "def f():\n    from .b import g\n",  # function-local, relative
        "b.py": "class C:\n    def m(self):\n        import pkg.sub.c\n",
        "c.py": "",
        "sub/__init__.py": "from pkg.sub.c import x\n",  # face
        "sub/c.py": "import importlib\nimportlib.import_module('pkg.a')\nfrom pkg import sub\n",
        "sub/d.py": "from .. import c\n",
    }
    for name, text in files.items():
        (package / name).write_text(text, encoding="utf-8")
    graph = import_graph(package)
    assert graph["pkg"] == set()
    assert graph["pkg.sub"] == set()
    assert graph["pkg.a"] == {"pkg.b"}
    assert graph["pkg.b"] == {"pkg.sub.c"}
    assert graph["pkg.sub.c"] == {"pkg.a"}  # `from pkg import sub`: its own ancestor
    assert graph["pkg.sub.d"] == {"pkg.c"}
    assert strongly_connected(graph) == [["pkg.a", "pkg.b", "pkg.sub.c"]]
    assert _cycle_path(graph, ["pkg.a", "pkg.b", "pkg.sub.c"]) == [
        "pkg.a", "pkg.b", "pkg.sub.c", "pkg.a"
    ]


def test_a_module_importing_its_own_package_face_is_no_cycle(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from pkg.a import f\n", encoding="utf-8")
    (package / "a.py").write_text("def f():\n    from pkg import f\n", encoding="utf-8")
    (package / "b.py").write_text("from pkg import f\n", encoding="utf-8")
    assert strongly_connected(import_graph(package)) == []
