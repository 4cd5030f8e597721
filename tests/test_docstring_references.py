"""Every name a docstring cites exists: cross-references, dotted pokerlab paths and calls.

Docstrings cite code three ways: Sphinx roles (``:func:`deal_hand```,
``:class:`~pokerlab.play.sandbox.SandboxedAgent```), dotted paths in double backquotes
(````pokerlab.games.load````) and calls (````play_match(game, a, b)````). A rename that
forgets a docstring leaves it citing a name that no longer exists; this test finds them.

A role's target resolves when it is a full ``pokerlab.`` path that imports, or a name of
the module's own namespace (or, for a method or attribute, of one of its classes), or, for
short names, a name defined somewhere in the package. A call in backquotes resolves when
its name is a name of the package (any module's top level, any class's attribute), a
builtin, or a method of a standard type.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "pokerlab"
ROLE = re.compile(r":(?:func|class|meth|mod|data|attr|exc|obj):`~?([^`<>]+?)`")
DOTTED = re.compile(r"``(pokerlab(?:\.[A-Za-z_][A-Za-z0-9_]*)+)``")
CALL = re.compile(r"``([A-Za-z_][A-Za-z0-9_.]*)\(")
OPTIONAL_MODULES = ("torch", "ray", "pettingzoo", "gymnasium", "pyspiel", "open_spiel")
ALIASES = {"np": "numpy"}
FOREIGN = {
    "complete_bet_or_raise_to": "pokerkit's State method, compared with in holdem_rules",
    "cf_reach": "a quantity of the CFR paper, written as a function of a history",
    "v_o": "the opponent's value vector of the re-solving papers",
}
"""Names cited as calls that belong to other projects or to the mathematics."""


def _modules() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if parts[-1] != "__main__":  # importing it runs the command
            names.append(".".join(parts))
    return names


def _docstrings(tree: ast.Module) -> Iterator[tuple[str, int, str | None]]:
    """(docstring, line, enclosing class name) of the module, classes and functions."""
    text = ast.get_docstring(tree, clean=False)
    if text:
        yield text, 1, None

    def walk(node: ast.AST, owner: str | None) -> Iterator[tuple[str, int, str | None]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                doc = ast.get_docstring(child, clean=False)
                inner = child.name if isinstance(child, ast.ClassDef) else owner
                if doc:
                    yield doc, child.lineno, inner
                yield from walk(child, inner)

    yield from walk(tree, None)


def _package_names() -> set[str]:
    """Every name defined at any module's top level, or as any class's attribute."""
    names: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
                names.update(t.attr for t in node.targets if isinstance(t, ast.Attribute))
            elif isinstance(node, ast.AnnAssign):
                if isinstance(node.target, ast.Name):
                    names.add(node.target.id)
                elif isinstance(node.target, ast.Attribute):
                    names.add(node.target.attr)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
    return names


def _standard_names() -> set[str]:
    names = set(dir(builtins))
    for kind in (str, list, dict, set, tuple, bytes, int, float, object, Path):
        names.update(dir(kind))
    return names


def _resolve(dotted: str) -> bool:
    parts = dotted.split(".")
    parts[0] = ALIASES.get(parts[0], parts[0])
    for cut in range(len(parts), 0, -1):
        try:
            value: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError as error:
            if error.name and error.name.split(".")[0] in OPTIONAL_MODULES:
                return True
            continue
        except ImportError:
            return True  # an optional extra is missing: not a wrong name
        for attribute in parts[cut:]:
            if not hasattr(value, attribute):
                annotations = getattr(value, "__annotations__", {})
                fields = getattr(value, "__dataclass_fields__", {})
                return attribute in annotations or attribute in fields
            value = getattr(value, attribute)
        return True
    return False


def _broken_references() -> list[str]:
    known = _package_names()
    standard = _standard_names()
    broken: list[str] = []
    for name in _modules():
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue  # an optional extra is missing
        path = Path(module.__file__ or "")
        tree = ast.parse(path.read_text())
        namespace = vars(module)
        for text, line, owner in _docstrings(tree):
            where = f"{path.relative_to(PACKAGE.parent)}:{line}"
            for target in ROLE.findall(text):
                target = target.strip().rstrip("()")
                if target.startswith("."):  # relative to the module's package
                    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
                    ok = _resolve(package + target)
                elif "." in target and target.split(".")[0] not in namespace:
                    ok = _resolve(target)
                else:
                    head = target.split(".")[0]
                    ok = (head in namespace or head in known or head in standard
                          or (owner is not None and hasattr(namespace.get(owner), head)))
                if not ok:
                    broken.append(f"{where}: {target}")
            for target in DOTTED.findall(text):
                if not _resolve(target):
                    broken.append(f"{where}: {target}")
            for target in CALL.findall(text):
                if "." in target:  # a module's function, or a method of a variable's object
                    ok = (target.split(".")[0] in namespace or _resolve(target)
                          or target.split(".")[-1] in known)
                elif "_" in target.strip("_"):  # a function's name, not math (V, O, sqrt)
                    ok = (target in known or target in standard or target in namespace
                          or target in FOREIGN)
                else:
                    ok = True
                if not ok:
                    broken.append(f"{where}: {target}(")
    return broken


@pytest.mark.slow
def test_every_name_a_docstring_cites_exists() -> None:
    broken = _broken_references()
    assert broken == [], "docstrings cite names that do not exist:\n" + "\n".join(broken)


def test_the_checker_finds_a_wrong_name() -> None:
    assert _resolve("pokerlab.play.dealer.deal_hand")
    assert not _resolve("pokerlab.play.dealer.no_such_function")
    assert not _resolve("pokerlab.no_such_module.thing")
    assert ROLE.findall(":func:`~pokerlab.eval.play_match` and :class:`Agent`") == [
        "pokerlab.eval.play_match", "Agent"]
