"""No kernel passes a plain integer or boolean constant to another kernel.

numba types a constant argument by its value (``Literal[int](0)``) and compiles the callee
once per value: the range solver's passes were compiled twice over (player 0 and player 1,
start 0, each flag), 74-85 s for one storage's kernels instead of 30-41 s. The fix is to
pass numpy scalars (``np.int64(0)``, ``np.bool_(True)``, or module constants holding them),
which numba types as plain ``int64`` and ``bool``. Kernels inlined into their callers
(``inline="always"``) compile with them and may take constants. This test reads every
kernel module's source, so it costs no compilation.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pokerlab

ROOT = Path(pokerlab.__file__).parent


def _jitted(tree: ast.Module) -> tuple[dict[str, ast.FunctionDef], set[str]]:
    """The module's functions decorated with ``numba.njit``/``njit``/``numba.jit``, and
    those of them inlined into their callers (``inline="always"``: no compilation of
    their own, so a constant argument costs nothing and may fold)."""
    found, inlined = {}, set()
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        for decorator in node.decorator_list:
            target = decorator.func if isinstance(decorator, ast.Call) else decorator
            name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
            if name in ("njit", "jit"):
                found[node.name] = node
                if isinstance(decorator, ast.Call) and any(
                    k.arg == "inline" and isinstance(k.value, ast.Constant)
                    and k.value.value == "always" for k in decorator.keywords
                ):
                    inlined.add(node.name)
    return found, inlined


def _literal_calls(path: Path, root: Path = ROOT.parent) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    kernels, inlined = _jitted(tree)
    bad = []
    for caller in kernels.values():
        for call in ast.walk(caller):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                    and call.func.id in kernels and call.func.id not in inlined):
                continue
            for argument in [*call.args, *(k.value for k in call.keywords)]:
                value = argument
                if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub):
                    value = value.operand
                if isinstance(value, ast.Constant) and isinstance(value.value, int):
                    bad.append(f"{path.relative_to(root)}:{call.lineno}: "
                               f"{caller.name} passes {ast.unparse(argument)} to "
                               f"{call.func.id}")
    return bad


def test_kernels_pass_no_literal_integer_or_boolean_to_kernels() -> None:
    modules = [path for path in sorted(ROOT.rglob("*.py"))
               if "njit" in path.read_text(encoding="utf-8")]
    assert len(modules) >= 10  # the kernel modules are found
    bad = [line for path in modules for line in _literal_calls(path)]
    assert not bad, "\n".join(bad)


def test_the_check_finds_a_literal_argument(tmp_path: Path) -> None:
    source = tmp_path / "kernels.py"
    source.write_text(
        "import numba\n"
        "@numba.njit(cache=True)\n"
        "def inner(p, flag):\n    return p\n"
        "@numba.njit(inline='always')\n"
        "def folded(p):\n    return p\n"
        "@numba.njit\n"
        "def outer(x):\n    return inner(0, True) + inner(x, flag=False) + inner(x, -1)"
        " + folded(3)\n",
        encoding="utf-8")
    found = [line.split(": ", 1)[1] for line in _literal_calls(source, tmp_path)]
    assert sorted(found) == sorted(["outer passes 0 to inner", "outer passes True to inner",
                                    "outer passes False to inner", "outer passes -1 to inner"])

