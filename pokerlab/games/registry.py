"""The registry of games: load any game by name and parameters, or by its spec string.

``load("leduc", stack=50, raise_cap=None)``, ``load("leduc(stack=50, raise_cap=None)")``
and ``load(spec)`` build the same game. Unknown names and parameters, and values out of
range, raise :class:`~pokerlab.errors.SpecError` naming what is allowed.

The registry imports no game: the built-in games register themselves from
:mod:`pokerlab.games._builtin`, which the package ``pokerlab.games`` runs before any of
its modules can be used. Families of games defined by layers to the right of ``games``
(the abstract games of :mod:`pokerlab.abstraction`, the Hold'em spots of
:mod:`pokerlab.subgame.spot_game`) are named in :data:`PROVIDERS`: the
first ``load`` of such a name imports the module that registers its loader, so a saved
strategy of an abstract game loads again in a fresh interpreter, while ``games`` never
imports ``abstraction`` (docs/architecture.md says why a table rather than entry points).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from pokerlab.errors import PokerlabError, SpecError
from pokerlab.games.base import Game
from pokerlab.games.spec import GameSpec, ParamValue, _freeze


@dataclass(frozen=True)
class Parameter:
    """One parameter of a game: its name, default, and what it means."""

    name: str
    default: ParamValue | Callable[[Mapping[str, object]], ParamValue]
    help: str
    kind: type | tuple[type, ...] = int
    allow_none: bool = False

    @property
    def default_text(self) -> str:
        """The default as shown to users (a derived default shows its help)."""
        return "derived" if callable(self.default) else repr(self.default)


@dataclass(frozen=True)
class GameEntry:
    """A registered game: how to build it from a spec, and its parameters."""

    name: str
    summary: str
    parameters: tuple[Parameter, ...]
    build: Callable[[GameSpec], Game]


_REGISTRY: dict[str, GameEntry] = {}


def register(entry: GameEntry) -> None:
    """Add a game to the registry (a later entry of the same name replaces it)."""
    _REGISTRY[entry.name] = entry


Loader = Callable[[Mapping[str, object]], Game]
"""Builds a game from its parameters, for a name outside the registry (:func:`register_loader`)."""

_LOADERS: dict[str, Loader] = {}


PROVIDERS: Mapping[str, str] = MappingProxyType(
    {
        "abstract": "pokerlab.abstraction.abstract_game",
        "collapsed": "pokerlab.abstraction.abstract_game",
        "spot": "pokerlab.subgame.spot_game",
    }
)
"""Game names defined right of ``games``, and the module that registers each one's loader.

The module is imported (by name, with :mod:`importlib`) the first time :func:`load` meets
the name; importing it calls :func:`register_loader`. A test checks every entry."""


def register_loader(name: str, loader: Loader) -> None:
    """Let :func:`load` build games named ``name`` with ``loader(params)``.

    For families of games defined by packages to the right of ``games`` (the abstract games
    of :mod:`pokerlab.abstraction`): the module named in :data:`PROVIDERS` calls it when it
    is imported, so that a saved strategy of such a game loads again. Registered games take
    precedence over loaders.
    """
    _LOADERS[name] = loader


def registered() -> list[GameEntry]:
    """Every registered game, sorted by name."""
    return [_REGISTRY[name] for name in sorted(_REGISTRY)]


def _check_kind(entry: GameEntry, parameter: Parameter, value: object) -> object:
    if value is None:
        if parameter.allow_none:
            return None
        raise SpecError(
            f"{entry.name}: parameter {parameter.name} cannot be None ({parameter.help})"
        )
    kinds = parameter.kind if isinstance(parameter.kind, tuple) else (parameter.kind,)
    if int in kinds and isinstance(value, bool):
        kinds_ok = bool in kinds
    else:
        kinds_ok = isinstance(value, kinds) or (float in kinds and isinstance(value, int))
    if not kinds_ok:
        allowed = " or ".join(k.__name__ for k in kinds) + (
            " or None" if parameter.allow_none else ""
        )
        raise SpecError(
            f"{entry.name}: parameter {parameter.name}={value!r} has the wrong type; "
            f"allowed: {allowed} ({parameter.help})"
        )
    return value


def make_spec(name: str, params: Mapping[str, object]) -> GameSpec:
    """Validate ``params`` for game ``name`` and return the full spec, defaults filled in."""
    if name not in _REGISTRY:
        raise SpecError(f"unknown game {name!r}; known games: {', '.join(sorted(_REGISTRY))}")
    entry = _REGISTRY[name]
    known = {p.name: p for p in entry.parameters}
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise SpecError(
            f"{name} has no parameter {', '.join(unknown)}; its parameters: "
            + (
                ", ".join(f"{p.name} (default {p.default_text})" for p in entry.parameters)
                or "none"
            )
        )
    checked = {
        key: _check_kind(entry, known[key], _freeze(value, where=key))
        for key, value in params.items()
    }
    fixed: dict[str, object] = {
        p.name: p.default for p in entry.parameters if not callable(p.default)
    }
    fixed.update({k: v for k, v in checked.items() if not callable(known[k].default)})
    defaults: dict[str, object] = {}
    full: dict[str, object] = {}
    for p in entry.parameters:
        if callable(p.default):
            defaults[p.name] = p.default(fixed)
        else:
            defaults[p.name] = p.default
        full[p.name] = checked.get(p.name, defaults[p.name])
    return GameSpec.make(name, full, defaults)


def load(name_or_spec: str | GameSpec, /, **params: object) -> Game:
    """Return the game named by a name and parameters, a spec string, or a spec.

    Example:
        >>> load("leduc(stack=50, raise_cap=None)") == load("leduc", stack=50, raise_cap=None)
        True
        >>> str(load("kuhn", cards=100).spec)
        'kuhn(cards=100)'
    """
    if isinstance(name_or_spec, GameSpec):
        name = name_or_spec.name
        values: dict[str, object] = dict(name_or_spec.params)
    else:
        name, values = GameSpec.parse(name_or_spec)
    values.update(params)
    if name not in _REGISTRY:
        loader = _loader(name)
        if loader is not None:
            return loader(values)
    spec = make_spec(name, values)
    return _REGISTRY[name].build(spec)


def load_dict(data: Mapping[str, object]) -> Game:
    """Return the game of a spec dict (as written by ``GameSpec.to_dict``)."""
    return load(GameSpec.from_dict(data))


def _loader(name: str) -> Loader | None:
    """The loader of ``name``, importing its provider module the first time; None if none."""
    if name not in _LOADERS and name in PROVIDERS:
        importlib.import_module(PROVIDERS[name])
        if name not in _LOADERS:
            raise PokerlabError(
                f"game {name!r} should be registered by {PROVIDERS[name]}, which did not; "
                "this is a bug in pokerlab"
            )
    return _LOADERS.get(name)
