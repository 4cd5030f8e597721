"""GameSpec: the frozen, serializable name and parameters of a game.

A spec reads like a call, ``leduc(stack=50, raise_cap=None)``, and round-trips through
its string and its dict: ``GameSpec.parse(str(spec)) == spec``. Parameters left at their
defaults are filled in by the registry, so two specs of the same game are equal exactly
when they describe the same rules; ``str(spec)`` shows only the parameters that differ
from their defaults.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeAlias

from pokerlab.errors import SpecError

ParamValue: TypeAlias = "int | float | str | bool | tuple[ParamValue, ...] | None"


def _freeze(value: object, *, where: str) -> ParamValue:
    """Turn lists into tuples recursively and refuse what a spec cannot hold."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return tuple(_freeze(v, where=where) for v in value)
    raise SpecError(
        f"parameter {where} has a value of type {type(value).__name__}; allowed: "
        "int, float, str, bool, None, and tuples or lists of those"
    )


def _thaw(value: ParamValue) -> object:
    """Turn tuples into lists, for JSON."""
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class GameSpec:
    """The name of a game and every one of its parameters.

    Attributes:
        name: the registered game name, e.g. ``"leduc"``.
        params: every parameter as ``(name, value)`` pairs, in the game's declared order.
        defaults: the parameters' default values, used only to print the short form.
    """

    name: str
    params: tuple[tuple[str, ParamValue], ...] = ()
    defaults: tuple[tuple[str, ParamValue], ...] = ()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameSpec):
            return NotImplemented
        return self.name == other.name and self.params == other.params

    def __hash__(self) -> int:
        return hash((self.name, self.params))

    @staticmethod
    def make(
        name: str,
        params: Mapping[str, object],
        defaults: Mapping[str, object] | None = None,
    ) -> GameSpec:
        """Build a spec from plain values (lists become tuples)."""
        frozen = tuple((k, _freeze(v, where=k)) for k, v in params.items())
        frozen_defaults = tuple((k, _freeze(v, where=k)) for k, v in (defaults or {}).items())
        return GameSpec(name, frozen, frozen_defaults)

    def get(self, key: str) -> ParamValue:
        """Return the value of parameter ``key``."""
        for k, v in self.params:
            if k == key:
                return v
        raise SpecError(f"{self.name} has no parameter {key!r}; it has {self.param_names}")

    @property
    def param_names(self) -> list[str]:
        """The parameter names, in declared order."""
        return [k for k, _ in self.params]

    def as_kwargs(self) -> dict[str, ParamValue]:
        """The parameters as a dict."""
        return dict(self.params)

    def __str__(self) -> str:
        defaults = dict(self.defaults)
        shown = [f"{k}={v!r}" for k, v in self.params if k not in defaults or defaults[k] != v]
        return f"{self.name}({', '.join(shown)})" if shown else self.name

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict: ``{"name": ..., "params": {...}}``."""
        return {"name": self.name, "params": {k: _thaw(v) for k, v in self.params}}

    @staticmethod
    def from_dict(data: Mapping[str, object]) -> GameSpec:
        """Inverse of :meth:`to_dict` (defaults are restored by ``games.load``)."""
        name = data.get("name")
        params = data.get("params", {})
        if not isinstance(name, str) or not isinstance(params, Mapping):
            raise SpecError(
                f"a spec dict needs a string 'name' and a mapping 'params'; got {dict(data)!r}"
            )
        return GameSpec.make(name, params)

    @staticmethod
    def parse(text: str) -> tuple[str, dict[str, object]]:
        """Split ``"leduc(stack=50, raise_cap=None)"`` into its name and keyword values.

        A bare name (``"kuhn"``) has no parameters. Values are Python literals.

        Raises:
            SpecError: if the text is not ``name`` or ``name(key=literal, ...)``.
        """
        text = text.strip()
        allowed = "a name like 'kuhn' or a call like 'leduc(stack=50, raise_cap=None)'"
        try:
            tree = ast.parse(text, mode="eval").body
        except SyntaxError:
            raise SpecError(f"cannot read game {text!r}; expected {allowed}") from None
        if isinstance(tree, ast.Name):
            return tree.id, {}
        if not isinstance(tree, ast.Call) or not isinstance(tree.func, ast.Name) or tree.args:
            raise SpecError(f"cannot read game {text!r}; expected {allowed} (keywords only)")
        values: dict[str, object] = {}
        for keyword in tree.keywords:
            if keyword.arg is None:
                raise SpecError(f"cannot read game {text!r}: '**' is not allowed")
            if keyword.arg in values:
                raise SpecError(f"cannot read game {text!r}: {keyword.arg} is given twice")
            try:
                values[keyword.arg] = ast.literal_eval(keyword.value)
            except ValueError:
                raise SpecError(
                    f"parameter {keyword.arg} of {text!r} is not a literal value "
                    "(allowed: numbers, strings, True/False/None, tuples, lists)"
                ) from None
        return tree.func.id, values
