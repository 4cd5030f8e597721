"""Load a challenge entrant's agent from a Python file that defines a class ``Agent``.

The file is imported by path under a unique module name (it never touches
``sys.modules`` entries of other entrants, and its folder is not added to ``sys.path``),
so two entrants may both be called ``bot.py``. The class is instantiated with the game
when its constructor has a parameter named ``game`` or a required positional parameter
(``Agent(game)``), else with no argument (``Agent()``).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import inspect
import sys
from pathlib import Path
from types import ModuleType

from pokerlab.errors import PokerlabError
from pokerlab.games import Game

AGENT_CLASS = "Agent"
"""The name of the class an entrant's file must define."""


class AgentLoadError(PokerlabError, ImportError):
    """An entrant's file that cannot be imported, or has no usable ``Agent`` class.

    Attributes:
        file: the entrant's file.
        reason: what went wrong, in plain words (the exception included).
    """

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"cannot load an agent from {str(path)!r}: {reason}")
        self.file = path
        self.reason = reason


def import_file(path: str | Path) -> ModuleType:
    """Import the Python file at ``path`` in isolation and return the module.

    Raises:
        AgentLoadError: if the file is missing or raises anything while importing
            (syntax errors included); the message names the path and the error.
    """
    file = Path(path).resolve()
    if not file.is_file():
        raise AgentLoadError(file, "no such file")
    digest = hashlib.sha256(str(file).encode()).hexdigest()[:12]
    module_name = f"pokerlab_entrant_{file.stem}_{digest}"
    spec = importlib.util.spec_from_file_location(module_name, file)
    if spec is None or spec.loader is None:
        raise AgentLoadError(file, "not an importable Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses and pickling look modules up here
    try:
        spec.loader.exec_module(module)
    except BaseException as exc:  # SystemExit from an entrant's file is an import failure too
        sys.modules.pop(module_name, None)
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise AgentLoadError(file, f"importing it raised {type(exc).__name__}: {exc}") from exc
    return module


def load_agent_class(path: str | Path) -> type:
    """Return the ``Agent`` class defined by the file at ``path``.

    Raises:
        AgentLoadError: if the import fails, or there is no class ``Agent`` with an
            ``act`` method.
    """
    module = import_file(path)
    file = Path(path).resolve()
    cls = getattr(module, AGENT_CLASS, None)
    if not inspect.isclass(cls):
        raise AgentLoadError(file, f"the file defines no class named {AGENT_CLASS!r}")
    if not callable(getattr(cls, "act", None)):
        raise AgentLoadError(file, f"class {AGENT_CLASS} has no act(observation) method")
    return cls


def load_agent(path: str | Path, game: Game) -> object:
    """Import the file at ``path`` and return a new instance of its ``Agent`` class.

    Raises:
        AgentLoadError: if the import fails, the class is missing, or building it raises.
    """
    cls = load_agent_class(path)
    file = Path(path).resolve()
    try:
        takes_game = _takes_argument(cls)
        agent = cls(game) if takes_game else cls()
    except Exception as exc:
        raise AgentLoadError(file, f"{AGENT_CLASS}() raised {type(exc).__name__}: {exc}") from exc
    if not getattr(agent, "name", None):
        with contextlib.suppress(AttributeError):  # a class with __slots__ keeps its own name
            agent.name = file.stem
    return agent


def _takes_argument(cls: type) -> bool:
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        return False
    for parameter in signature.parameters.values():
        positional = parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD)
        if positional and (parameter.name == "game" or parameter.default is parameter.empty):
            return True
    return False


__all__ = ["AGENT_CLASS", "AgentLoadError", "import_file", "load_agent", "load_agent_class"]
