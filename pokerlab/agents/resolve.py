"""The one resolver from text to agent, used by every command, the arena and the web.

A text names one of:

- a **built-in** agent (``easy``, ``hard``, ``cfr+1000``...; the group ``solvers`` names
  five): :mod:`pokerlab.agents.registry`;
- a **policy file** pokerlab writes: a strategy or an infoset table (``.npz``), a blueprint
  (``.bp``, played by the Hard AI) or a Deep CFR policy (``.pt``, needs torch);
- an **entrant file** (``.py``, defining ``Agent``): it always plays from a sandboxed
  process of its own (:class:`~pokerlab.play.sandbox.SandboxedAgent`), isolated; where
  the machine cannot isolate it, it is refused (naming what is missing) unless
  ``trust=True`` (``--trust-entrants``: a plain process with resource limits only).
  ``in_process=True`` imports it into the calling process instead: for debugging one's
  own bot only, since the file then gets everything that process may do (its files, its
  network, its memory);
- an **executable** program speaking the ACPC protocol on its standard streams (Hold'em
  games only), sandboxed likewise (:class:`~pokerlab.play.executable.ExecutableAgent`).

Every caller gets an :class:`Entrant`: a name, where it comes from, its kind, and a
factory that builds a fresh agent (or transport) for a match. An entrant file or program
that does not load is not an exception but an entrant with its ``error`` set: the arena
reports it and leaves it out; a command refuses it with that reason (:meth:`Entrant.build`).
A text that names nothing, a missing file or a policy file for another game is refused at
once with what is allowed.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pokerlab.agents.policy_agent import PolicyAgent
from pokerlab.agents.policy_files import POLICY_SUFFIXES, read_policy_file
from pokerlab.agents.registry import Seed, check_builtin, expand_name, make_agent
from pokerlab.errors import PokerlabError, SpecError
from pokerlab.games import Game
from pokerlab.play.names import check_name
from pokerlab.strategy import Policy

AgentFactory = Callable[[Game], object]
"""Builds a fresh agent (or a transport to one) for a match of the given game."""

AGENT_KINDS = ("builtin", "strategy", "blueprint", "deep", "entrant", "executable")
"""What a text may name (see the module docstring)."""

ALLOWED = (
    "a built-in agent name, a strategy or table file (.npz), a blueprint (.bp), a Deep CFR "
    "policy (.pt), an entrant file (.py defining Agent) or an ACPC executable"
)
"""What a text may name, for error messages."""


@dataclass(frozen=True)
class Entrant:
    """An agent named by a text: its name, where it comes from, and how to build it.

    Attributes:
        name: the display name (unique within a tournament once the arena numbers repeats).
        source: ``"builtin:NAME"`` or the path of the file.
        factory: builds a fresh agent for a match (None when it failed to load).
        error: why it could not be loaded, or None.
        kind: one of :data:`AGENT_KINDS`.
        sandboxed: whether it plays from a sandboxed process of its own.
    """

    name: str
    source: str
    factory: AgentFactory | None
    error: str | None = None
    kind: str = "builtin"
    sandboxed: bool = False

    @property
    def may_learn(self) -> bool:
        """True for entrant files and programs: they may remember a deal's cards.

        Code pokerlab does not know; a duplicate match builds it afresh for every leg.
        """
        return self.kind in ("entrant", "executable")

    def build(self, game: Game) -> object:
        """A fresh agent for ``game``.

        Raises:
            PokerlabError: the entrant did not load (the message says why).
        """
        if self.factory is None:
            raise PokerlabError(self.error or f"agent {self.name!r} cannot be built")
        return self.factory(game)


def _is_executable(path: Path) -> bool:
    if os.access(path, os.X_OK):
        return True
    with path.open("rb") as handle:
        return handle.read(2) == b"#!"


def builtin_entrant(name: str, *, seed: Seed = None, cache_dir: str | Path | None = None
                    ) -> Entrant:
    """The entrant of one built-in name (not a group), unchecked against any game.

    :func:`resolve_agents` checks the name against the game first; this is for callers
    that learn the game later (a tournament checks each table's game itself).
    """
    cache = None if cache_dir is None else Path(cache_dir)

    def factory(game: Game) -> object:
        return make_agent(name, game, seed=seed, cache_dir=cache)

    return Entrant(name, f"builtin:{name}", factory)


def _policy_entrant(path: Path, kind: str, game: Game, seed: Seed,
                    cache_dir: Path | None) -> Entrant:
    """A policy file, read once now (a file for another game is refused here)."""
    policy = load_file_policy(path, game, cache_dir=cache_dir)

    def play_policy(game: Game) -> object:
        return PolicyAgent(policy, seed=seed, name=path.stem)

    return Entrant(path.stem, str(path), play_policy, kind=kind)


def load_file_policy(
    path: str | Path, game: Game, *, cache_dir: str | Path | None = None
) -> Policy:
    """The policy of a policy file (``.npz``, ``.bp``, ``.pt``) for ``game``.

    Any file a pokerlab command saves a strategy to (:mod:`pokerlab.agents.policy_files`):
    strategies, infoset tables, solver and Rhode Island checkpoints, blueprints, networks.

    Raises:
        SpecError: another kind of file (the message lists the allowed suffixes).
        FileFormatError, StrategyMismatchError: a damaged file, or one for another game.
    """
    return read_policy_file(path, game, cache_dir=cache_dir).policy


def _sandbox_limits(limits: object, trust: bool) -> object:
    """``limits`` (SandboxLimits or None), trusted when ``trust``."""
    from pokerlab.play.sandbox import SandboxLimits

    assert limits is None or isinstance(limits, SandboxLimits)
    if not trust:
        return limits
    return dataclasses.replace(limits or SandboxLimits(), trusted=True)


def _entrant_file(path: Path, game: Game, limits: object, in_process: bool) -> Entrant:
    from pokerlab.play.containment import require_isolation
    from pokerlab.play.sandbox import EntrantSource, SandboxedAgent, SandboxLimits, check_loads

    if in_process:
        from pokerlab.play.entrant_loader import AgentLoadError, load_agent

        try:
            load_agent(path, game)
        except AgentLoadError as error:
            return Entrant(path.stem, str(path), None, str(error), kind="entrant")
        return Entrant(path.stem, str(path), lambda game: load_agent(path, game),
                       kind="entrant")
    assert limits is None or isinstance(limits, SandboxLimits)
    require_isolation((limits or SandboxLimits()).trusted)
    try:
        source = EntrantSource.read(path)
    except PokerlabError as error:
        return Entrant(path.stem, str(path), None, str(error), kind="entrant")
    problem = check_loads(source, game, limits=limits)
    if problem is not None:
        return Entrant(source.name, str(path), None,
                              f"cannot load an agent from {str(path)!r}: {problem}", kind="entrant",
                       sandboxed=True)

    def factory(game: Game) -> object:
        return SandboxedAgent(source, game, limits=limits)

    return Entrant(source.name, str(path), factory, kind="entrant", sandboxed=True)


def _executable(path: Path, game: Game, limits: object) -> Entrant:
    from pokerlab.games.holdem_state import HoldemGame
    from pokerlab.play.containment import require_isolation
    from pokerlab.play.dealer import AgentFault
    from pokerlab.play.executable import ExecutableAgent, read_program
    from pokerlab.play.sandbox import SandboxLimits

    assert limits is None or isinstance(limits, SandboxLimits)
    if not isinstance(game, HoldemGame):
        raise SpecError(f"{str(path)!r} is an executable: ACPC programs play Hold'em games "
                        f"only; got {game.spec}")
    require_isolation((limits or SandboxLimits()).trusted)
    hidden = (path.resolve().parent,)  # its folder (rivals' programs often lie beside it)
    name = path.name
    try:
        program = read_program(path)
    except PokerlabError as error:
        return Entrant(name, str(path), None, str(error), kind="executable")
    probe = ExecutableAgent(name, program, game, limits=limits, hidden=hidden)
    try:
        probe.start()
    except AgentFault as fault:
        return Entrant(name, str(path), None, f"cannot start {str(path)!r}: {fault.detail}",
                       kind="executable")
    finally:
        probe.close()

    def factory(game: Game) -> object:
        return ExecutableAgent(name, program, game, limits=limits, hidden=hidden)

    return Entrant(name, str(path), factory, kind="executable", sandboxed=True)


def resolve_agents(
    text: str,
    game: Game,
    *,
    seed: Seed = None,
    cache_dir: str | Path | None = None,
    limits: object = None,
    in_process: bool = False,
    trust: bool = False,
) -> list[Entrant]:
    """Every agent ``text`` names for ``game`` (a group such as ``solvers`` names several).

    Args:
        text: a built-in name or a file (see the module docstring).
        game: the game the agents will play (built-ins and files are checked against it).
        seed: the seed of policy-backed agents (matches reseed them per hand anyway).
        cache_dir: the cache root (solver bots, default blueprints); None: ``$POKERLAB_CACHE``.
        limits: the :class:`~pokerlab.play.sandbox.SandboxLimits` of sandboxed entrants.
        in_process: import an entrant's ``.py`` file into this process (unsafe; debugging).
        trust: run entrant files and programs even where this machine cannot isolate
            them (``--trust-entrants``: plain processes with resource limits only).

    Raises:
        SpecError: a text that names nothing, a missing file, a built-in that cannot play
            ``game``, an executable for a game other than Hold'em.
        FileFormatError, StrategyMismatchError: a damaged policy file or one of another game.
        IsolationUnavailable: an entrant file or program, on a machine that cannot
            isolate it, without ``trust`` (the message names what is missing).
    """
    cache = None if cache_dir is None else Path(cache_dir)
    limits = _sandbox_limits(limits, trust)
    path = Path(text)
    if not path.suffix and "/" not in text:
        try:
            names = expand_name(text)
        except PokerlabError as error:
            if not path.exists():
                raise SpecError(f"agent {text!r}: {error}; or give a file: {ALLOWED}") from None
        else:
            try:
                for name in names:
                    check_builtin(name, game)
            except PokerlabError as error:
                raise SpecError(f"agent {text!r}: {error}") from None
            return [builtin_entrant(name, seed=seed, cache_dir=cache) for name in names]
    if not path.exists():
        raise SpecError(f"agent {text!r}: the file does not exist; allowed: {ALLOWED}")
    if not path.is_file():
        raise SpecError(f"agent {text!r} is a folder; allowed: {ALLOWED}")
    check_name(path.name, f"agent {text!r}")  # its name reaches terminals and stores
    check_name(str(path.parent), f"agent {text!r}: its folder", ascii_only=False)
    kind = POLICY_SUFFIXES.get(path.suffix)
    if kind is not None:
        return [_policy_entrant(path, kind, game, seed, cache)]
    if path.suffix == ".py":
        return [_entrant_file(path, game, limits, in_process)]
    if _is_executable(path):
        return [_executable(path, game, limits)]
    raise SpecError(f"agent {text!r} is a file pokerlab cannot play ({path.suffix or 'no '}"
                    f" suffix, not executable); allowed: {ALLOWED}")


def resolve_agent(
    text: str,
    game: Game,
    *,
    seed: Seed = None,
    cache_dir: str | Path | None = None,
    limits: object = None,
    in_process: bool = False,
    trust: bool = False,
) -> Entrant:
    """The one agent ``text`` names (as :func:`resolve_agents`, a group refused).

    Raises:
        SpecError: as :func:`resolve_agents`, or a group name (``solvers``).
        IsolationUnavailable: as :func:`resolve_agents`.
    """
    found = resolve_agents(text, game, seed=seed, cache_dir=cache_dir, limits=limits,
                           in_process=in_process, trust=trust)
    if len(found) != 1:
        raise SpecError(f"agent {text!r} stands for {len(found)} agents "
                        f"({', '.join(e.name for e in found)}); name one")
    return found[0]


def build_agent(
    text: str,
    game: Game,
    *,
    seed: Seed = None,
    cache_dir: str | Path | None = None,
    limits: object = None,
    in_process: bool = False,
    trust: bool = False,
) -> object:
    """A fresh agent for ``game`` from ``text`` (an entrant that does not load is refused).

    Raises:
        SpecError: as :func:`resolve_agent`, or an entrant file or program that does not load.
        IsolationUnavailable: as :func:`resolve_agents`.
    """
    entrant = resolve_agent(text, game, seed=seed, cache_dir=cache_dir, limits=limits,
                            in_process=in_process, trust=trust)
    if entrant.factory is None:
        raise SpecError(f"agent {text!r}: {entrant.error}")
    return entrant.factory(game)


def resolve_policy(
    text: str,
    game: Game,
    *,
    cache_dir: str | Path | None = None,
) -> Policy:
    """The policy ``text`` names: a policy file, or a built-in agent that exposes one.

    What exact evaluators and LBR need: entrant files and programs have none.

    Raises:
        SpecError: a text that names nothing, or an agent without a policy.
        FileFormatError, StrategyMismatchError: a damaged file, or one of another game.
    """
    path = Path(text)
    if path.suffix in POLICY_SUFFIXES and path.is_file():
        return load_file_policy(path, game, cache_dir=cache_dir)
    entrant = resolve_agent(text, game, cache_dir=cache_dir)
    if entrant.kind in ("entrant", "executable"):
        raise SpecError(f"agent {text!r} is an entrant program: it has no policy to measure; "
                        "give a built-in agent or a policy file (.npz, .bp, .pt)")
    agent = entrant.build(game)
    policy = getattr(agent, "policy", None)
    if not isinstance(policy, Policy):
        raise SpecError(f"agent {text!r} does not expose its policy; give a policy-backed "
                        "agent or a policy file (.npz, .bp, .pt)")
    return policy


__all__ = [
    "AGENT_KINDS",
    "ALLOWED",
    "POLICY_SUFFIXES",
    "AgentFactory",
    "Entrant",
    "build_agent",
    "builtin_entrant",
    "load_file_policy",
    "resolve_agent",
    "resolve_agents",
    "resolve_policy",
]
