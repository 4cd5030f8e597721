"""The built-in agents by name: one table for `play`, the arena, matches and the web table.

``make_agent("cfr+1000", game)`` builds a fresh agent for ``game``; :func:`agent_names`
lists the names; :func:`expand_name` turns the group names (``solver``, ``solvers``) into
the agents they stand for. A name that cannot play a game is refused before any hand
(:func:`check_builtin`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pokerlab.agents.search_name import NAME as SEARCH_NAME
from pokerlab.agents.search_name import search_budget
from pokerlab.agents.simple import AlwaysCall, AlwaysRaise, RandomAgent, RuleBased
from pokerlab.agents.solver_bots import SOLVER_BOT_ITERATIONS, solver_bot
from pokerlab.errors import GameTooLargeError, PokerlabError
from pokerlab.games import Game
from pokerlab.tree import compile

Seed = np.random.Generator | int | None


@dataclass(frozen=True)
class BuiltinAgent:
    """A built-in agent: its name, what it is, which games it plays, how to build it.

    Attributes:
        name: the name users type.
        summary: one line.
        plays: ``"any"``, ``"kuhn/leduc"``, ``"holdem"``, ``"holdem, 2 players"``,
            ``"holdem, no-limit"``, ``"compiles"`` (games small enough to solve exactly) or
            ``"compiles, 2 players"``.
        build: ``(game, seed, cache_dir) -> agent``.
    """

    name: str
    summary: str
    plays: str
    build: Callable[[Game, Seed, Path | None], object]


# Each builder imports its agent's module when called: naming, listing and checking the
# built-ins loads no card table, kernel or solver (the Hard AI's modules load numba).
def _easy(game: Game, seed: Seed, cache: Path | None) -> object:
    from pokerlab.agents.easy import EasyAI

    return EasyAI(game, seed=seed)


def _hard_seed(game: Game, seed: Seed, cache: Path | None) -> object:
    from pokerlab.agents.hard_seed import HardSeedAI

    return HardSeedAI(game, seed=seed)


def _hard(game: Game, seed: Seed, cache: Path | None) -> object:
    from pokerlab.agents.hard import HardAI

    return HardAI(game, seed=seed, cache_dir=cache)


def _hard_search(game: Game, seed: Seed, cache: Path | None, name: str = SEARCH_NAME) -> object:
    from pokerlab.agents.hard_search import HardSearchAI, parse_search_name

    return HardSearchAI(game, settings=parse_search_name(name), seed=seed, cache_dir=cache)


def _hard_offmenu(game: Game, seed: Seed, cache: Path | None) -> object:
    from pokerlab.agents.off_menu import OffMenuBettor

    return OffMenuBettor(game, seed=seed, cache_dir=cache)


def _ehs(game: Game, seed: Seed, cache: Path | None) -> object:
    from pokerlab.agents.ehs_bot import EHSBot

    return EHSBot(game, seed=seed)


def _ehs_threshold(game: Game, seed: Seed, cache: Path | None) -> object:
    from pokerlab.agents.ehs_threshold import EHSThresholdBot

    return EHSThresholdBot(game)


def _exploitative(game: Game, seed: Seed, cache: Path | None) -> object:
    from pokerlab.agents.exploitative import ExploitativeAgent

    return ExploitativeAgent(game)


def _compiles(game: Game) -> bool:
    try:
        compile(game)
    except GameTooLargeError:
        return False
    return True


_BUILTINS: dict[str, BuiltinAgent] = {
    agent.name: agent
    for agent in (
        BuiltinAgent("random", "a uniformly random legal action", "any",
                     lambda game, seed, cache: RandomAgent(game, seed=seed)),
        BuiltinAgent("always-call", "checks or calls, never folds or raises", "any",
                     lambda game, seed, cache: AlwaysCall(game)),
        BuiltinAgent("always-raise", "bets or raises whenever it may", "any",
                     lambda game, seed, cache: AlwaysRaise(game)),
        BuiltinAgent("rule-based", "raises strong cards, calls medium, folds weak",
                     "kuhn/leduc", lambda game, seed, cache: RuleBased(game)),
        BuiltinAgent("easy", "the tutorial's Easy AI (hand strength, fixed odds)", "holdem",
                     _easy),
        BuiltinAgent("hard-seed", "the tutorial's Hard AI (online regret matching per hand "
                     "strength)", "holdem", _hard_seed),
        BuiltinAgent("hard", "the Hard AI: a blueprint trained by ES-MCCFR on an abstraction "
                     "(default blueprint trained once, then cached)", "holdem", _hard),
        BuiltinAgent(SEARCH_NAME, "the Hard AI re-solving each decision from the turn on, "
                     "safely, over its blueprint; @250ms, @2s: time per decision; +N: N "
                     "solver iterations per search", "holdem, 2 players", _hard_search),
        BuiltinAgent("hard-offmenu", "the Hard AI's blueprint betting off its menu: 37%, "
                     "70% or 140% of the pot, raises to 3.3x (tests translation and search)",
                     "holdem, no-limit", _hard_offmenu),
        BuiltinAgent("ehs", "the 1999 Alberta bot: effective hand strength against modelled "
                     "ranges, a (fold, call, raise) probability triple (Billings et al.)",
                     "holdem", _ehs),
        BuiltinAgent("ehs-threshold", "Loki-1's fixed thresholds on effective hand strength "
                     "against a random hand (deterministic)", "holdem", _ehs_threshold),
        BuiltinAgent("exploitative", "models its opponent and best-responds to the model",
                     "compiles, 2 players", _exploitative),
    )
}

BLUEPRINT_BOTS = ("hard", SEARCH_NAME, "hard-offmenu")
"""The built-ins that play the Hard AI's default blueprint (``hard-search`` with any budget):
what ``pokerlab bots prepare`` builds for, and what a web table refuses before it is built."""


def plays_blueprint(name: str) -> bool:
    """Whether the built-in ``name`` plays the Hard AI's default blueprint.

    Raises:
        SpecError: a ``hard-search`` name with a zero or absurd budget.
    """
    return name in BLUEPRINT_BOTS or search_budget(name) is not None


SOLVER_PREFIX = "cfr+"
"""``cfr+N``: the CFR+ strategy after N iterations (solved on first use, then cached)."""


def agent_names() -> tuple[str, ...]:
    """Every built-in name, the solver groups included (``solver``, ``solvers``, ``cfr+N``)."""
    solvers = tuple(f"{SOLVER_PREFIX}{n}" for n in SOLVER_BOT_ITERATIONS)
    return (*_BUILTINS, "solver", "solvers", *solvers)


def describe_agents() -> list[tuple[str, str, str]]:
    """``(name, summary, games it plays)`` of every built-in, for help texts."""
    rows = [(a.name, a.summary, a.plays) for a in _BUILTINS.values()]
    rows.append(("solver", f"CFR+ after {SOLVER_BOT_ITERATIONS[-1]:,} iterations", "compiles"))
    rows.append(("solvers", "CFR+ after " + ", ".join(f"{n:,}" for n in SOLVER_BOT_ITERATIONS)
                 + " iterations (five agents)", "compiles"))
    rows.append(("cfr+N", "CFR+ after N iterations", "compiles"))
    rows.append((f"{SEARCH_NAME}@250ms, {SEARCH_NAME}+N", "the searching Hard AI with 250 ms "
                 "per decision, or N solver iterations per search", "holdem, 2 players"))
    return rows


def _solver_iterations(name: str) -> int | None:
    if name.startswith(SOLVER_PREFIX) and name[len(SOLVER_PREFIX):].isdigit():
        iterations = int(name[len(SOLVER_PREFIX):])
        return iterations if iterations > 0 else None
    return None


def expand_name(name: str) -> list[str]:
    """The agents a name stands for: ``solvers`` is five, ``solver`` the strongest.

    Raises:
        PokerlabError: for an unknown name (the message lists the known ones).
    """
    if name == "solvers":
        return [f"{SOLVER_PREFIX}{n}" for n in SOLVER_BOT_ITERATIONS]
    if name == "solver":
        return [f"{SOLVER_PREFIX}{SOLVER_BOT_ITERATIONS[-1]}"]
    if name in _BUILTINS or _solver_iterations(name) is not None:
        return [name]
    if search_budget(name) is not None:
        return [name]
    known = ", ".join(n for n in agent_names() if not n.startswith(SOLVER_PREFIX))
    raise PokerlabError(f"unknown built-in agent {name!r}; known: {known}, cfr+N (any N >= 1)")


def check_builtin(name: str, game: Game) -> None:
    """Refuse a built-in that cannot play ``game``, before any hand.

    Raises:
        PokerlabError: naming the agent, the game and what the agent plays.
    """
    for single in expand_name(name):
        entry = _BUILTINS.get(SEARCH_NAME if search_budget(single) else single)
        plays = entry.plays if entry is not None else "compiles"
        checks: dict[str, Callable[[], bool]] = {  # lazy: compiling a game can take long
            "any": lambda: True,
            "kuhn/leduc": lambda: game.spec.name in ("kuhn", "leduc"),
            "holdem": lambda: game.spec.name == "holdem",
            "compiles": lambda: _compiles(game),
            "compiles, 2 players": lambda: game.n_players == 2 and _compiles(game),
            "holdem, 2 players": lambda: game.spec.name == "holdem" and game.n_players == 2,
            "holdem, no-limit": lambda: game.spec.name == "holdem"
            and bool(getattr(getattr(game, "rules", None), "no_limit", False)),
        }
        ok = checks[plays]()
        if not ok:
            raise PokerlabError(
                f"the built-in agent {single!r} cannot play {game.spec}: it plays {plays} "
                "games" + (" (too big to solve exactly: use a sampling solver or an abstraction)"
                           if plays.startswith("compiles") else "")
            )


def make_agent(
    name: str, game: Game, *, seed: Seed = None, cache_dir: str | Path | None = None
) -> object:
    """A fresh built-in agent for ``game`` (one name: not a group such as ``solvers``).

    Raises:
        PokerlabError: an unknown name, a group name, or an agent that cannot play ``game``.
    """
    names = expand_name(name)
    if names != [name] and name != "solver":
        raise PokerlabError(f"{name!r} stands for {len(names)} agents; name one of them")
    single = names[0]
    check_builtin(single, game)
    cache = None if cache_dir is None else Path(cache_dir)
    iterations = _solver_iterations(single)
    if iterations is not None:
        return solver_bot(game, iterations, cache_dir=cache,
                          seed=seed if isinstance(seed, int) else None)
    if search_budget(single) is not None:
        return _hard_search(game, seed, cache, single)
    return _BUILTINS[single].build(game, seed, cache)


__all__ = [
    "BLUEPRINT_BOTS",
    "SOLVER_PREFIX",
    "BuiltinAgent",
    "agent_names",
    "check_builtin",
    "describe_agents",
    "expand_name",
    "make_agent",
    "plays_blueprint",
]
