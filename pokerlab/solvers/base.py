"""The Solver contract every equilibrium solver shares, and the registry of algorithms.

``solver = CFRPlus(game)``; ``solver.run(iterations=1000)`` (cumulative, returns
``self``); ``solver.average_strategy()`` and ``solver.current_strategy()`` (copies, as
policies: a :class:`~pokerlab.strategy.Strategy` where the game compiles, an
:class:`~pokerlab.strategy.InfosetTable` where it does not); ``solver.iterations``;
``solver.history`` (``(iteration, seconds, exploitability)`` rows, the exploitability
None where the game is too big to measure it); ``solver.save_checkpoint(path)`` and
``Solver.load_checkpoint(path)`` resume exactly.

``run`` honours or refuses each argument it is given: a solver that solves in one step
(the LP) refuses stopping rules, and a target exploitability is refused where the
exploitability cannot be measured. Hyper-parameters are keyword-only, stored as given and
validated in ``__init__`` (the scikit-learn contract, adapted: we validate early because
there is no ``set_params``). Sampling solvers take ``seed=``: an integer or a numpy
Generator, the one way to seed anything in pokerlab.

:data:`SOLVERS` maps each algorithm name (``"cfr+"``, ``"es-mccfr"``...) to its class:
the CLI builds solvers from it (:func:`make_solver`) and checkpoints find their class
again through it. A class joins it with the :func:`register_solver` decorator.
"""

from __future__ import annotations

import importlib
from abc import abstractmethod
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import numpy as np

from pokerlab._types import FloatArray
from pokerlab.errors import (
    FileFormatError,
    GameTooLargeError,
    PokerlabError,
    SolverError,
    StrategyMismatchError,
)
from pokerlab.eval import exploitability, exploitability_array
from pokerlab.games import Game, GameSpec, load
from pokerlab.solvers.checkpoint import read_checkpoint, split_state, write_checkpoint
from pokerlab.solvers.run_loop import (
    Callback,
    HistoryRow,
    Interrupt,
    Progress,
    RunLoop,
    check_stopping_rules,
)
from pokerlab.strategy import InfosetTable, Strategy, tabulate
from pokerlab.strategy.io import keys_fingerprint
from pokerlab.tree import CompiledTree, compile

Seed = int | np.integer | np.random.Generator | None
"""What ``seed=`` accepts: an integer, a numpy Generator (used, not copied), or None."""


# -- seeding ----------------------------------------------------------------------------
def make_generator(seed: Seed) -> np.random.Generator:
    """The numpy Generator of ``seed=`` (an integer, a Generator, or None for fresh entropy).

    Raises:
        SolverError: if ``seed`` is not one of those (a bool, a float, a negative integer).
    """
    if (
        isinstance(seed, bool)
        or not (seed is None or isinstance(seed, int | np.integer | np.random.Generator))
        or (isinstance(seed, int | np.integer) and seed < 0)
    ):
        raise SolverError(
            f"seed must be an integer >= 0 or a numpy Generator (or None); got {seed!r}"
        )
    return np.random.default_rng(seed)


def seed_value(seed: Seed) -> int | None:
    """``seed`` as recorded in files: the integer, or None for a Generator or no seed."""
    return int(seed) if isinstance(seed, int | np.integer) else None


def generator_from_state(rng_state: object) -> np.random.Generator:
    """Rebuild a Generator from ``generator.bit_generator.state`` (as checkpoints save it).

    Raises:
        SolverError: if ``rng_state`` is not a numpy bit generator state.
    """
    if not isinstance(rng_state, dict) or not isinstance(rng_state.get("bit_generator"), str):
        raise SolverError(
            "checkpoint state 'rng_state' must be a numpy bit generator state (a dict "
            f"naming its 'bit_generator'); got {rng_state!r}"
        )
    bit_generator_class = getattr(np.random, rng_state["bit_generator"], None)
    if not (
        isinstance(bit_generator_class, type)
        and issubclass(bit_generator_class, np.random.BitGenerator)
    ):
        raise SolverError(
            f"checkpoint state names an unknown bit generator {rng_state['bit_generator']!r}"
        )
    bit_generator = bit_generator_class()
    try:
        bit_generator.state = rng_state
    except (TypeError, ValueError, KeyError) as exc:
        raise SolverError(f"checkpoint state 'rng_state' is not valid: {exc}") from None
    return np.random.Generator(bit_generator)


# -- the registry -------------------------------------------------------------------------
SOLVER_MODULES = ("cfr", "lp", "mccfr", "regret_matching", "deep_cfr", "q_learning")
"""The modules of ``pokerlab.solvers`` that register solvers, in the registry's order."""


class SolverRegistry(MutableMapping[str, "type[Solver]"]):
    """Solver classes by algorithm name; the solver modules load at its first read.

    Importing ``pokerlab.solvers`` (or its run loop alone, as the range solver does) then
    costs no CFR kernel and no scipy; the first lookup, listing or count imports every
    module of :data:`SOLVER_MODULES` and lists their solvers in that order (then any
    registered by other modules, in registration order).
    """

    def __init__(self) -> None:
        self._classes: dict[str, type[Solver]] = {}
        self._loaded = False

    def add(self, cls: type[Solver]) -> None:
        """Register ``cls`` without loading the solver modules (what the decorator calls)."""
        self._classes[cls.algorithm] = cls

    def known(self, name: str) -> type[Solver] | None:
        """The class registered under ``name`` so far (the solver modules not loaded)."""
        return self._classes.get(name)

    def _load(self) -> dict[str, type[Solver]]:
        if not self._loaded:
            self._loaded = True
            for module in SOLVER_MODULES:
                importlib.import_module(f"pokerlab.solvers.{module}")
            order = {f"pokerlab.solvers.{module}": k for k, module in enumerate(SOLVER_MODULES)}
            ranked = sorted(enumerate(self._classes.items()),
                            key=lambda item: (order.get(item[1][1].__module__, len(order)),
                                              item[0]))
            self._classes = {name: cls for _, (name, cls) in ranked}
        return self._classes

    def __getitem__(self, name: str) -> type[Solver]:
        return self._load()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._load()))

    def __len__(self) -> int:
        return len(self._load())

    def __setitem__(self, name: str, cls: type[Solver]) -> None:
        self._load()[name] = cls

    def __delitem__(self, name: str) -> None:
        del self._load()[name]

    def __repr__(self) -> str:
        return f"SolverRegistry({list(self)})"


SOLVERS = SolverRegistry()
"""Solver classes by algorithm name (``pokerlab solve --algorithm NAME``, checkpoints)."""

SolverClass = TypeVar("SolverClass", bound="type[Solver]")


def register_solver(cls: SolverClass) -> SolverClass:
    """Add a solver class to :data:`SOLVERS` under its ``algorithm`` name (a class decorator).

    Its constructor must accept ``(game, **solver.hyperparameters())``, so that
    checkpoints can rebuild it.

    Raises:
        SolverError: if another class is registered under the same name.
    """
    name = cls.algorithm
    known = SOLVERS.known(name)
    if known is not None and known is not cls:
        raise SolverError(
            f"two solver classes are named {name!r} ({known.__module__}.{known.__name__} and "
            f"{cls.__module__}.{cls.__name__}); give one another algorithm name"
        )
    SOLVERS.add(cls)
    return cls


def solver_class(algorithm: str) -> type[Solver]:
    """The class registered under ``algorithm``.

    Raises:
        SolverError: if no solver has that name (the message lists the known ones).
    """
    factory = SOLVERS.get(algorithm)
    if factory is None:
        raise SolverError(f"unknown algorithm {algorithm!r}; known: {', '.join(SOLVERS)}")
    return factory


def make_solver(algorithm: str, game: Game, *, seed: Seed = None, **hyperparameters: Any) -> Solver:
    """Build the solver registered under ``algorithm`` for ``game``.

    Args:
        algorithm: a key of :data:`SOLVERS`.
        game: the game to solve.
        seed: the seed of a sampling solver (refused by deterministic ones).
        **hyperparameters: passed to the solver's constructor.

    Raises:
        SolverError: an unknown algorithm, a seed for a deterministic solver, or a
            hyper-parameter the solver refuses.

    Example:
        >>> from pokerlab.games import kuhn
        >>> make_solver("es-mccfr", kuhn(), seed=3)
        <ExternalSamplingMCCFR kuhn, compiled, after 0 iterations>
    """
    factory = solver_class(algorithm)
    if seed is not None:
        if not factory.sampling:
            sampling = ", ".join(name for name, cls in SOLVERS.items() if cls.sampling)
            raise SolverError(
                f"{algorithm} is deterministic and takes no seed; the sampling solvers are "
                f"{sampling}"
            )
        hyperparameters["seed"] = seed
    return factory(game, **hyperparameters)


# -- the solver ---------------------------------------------------------------------------
class Solver(RunLoop):
    """Base class of the solvers: the run loop (:class:`RunLoop`), strategies, checkpoints.

    Subclasses implement :meth:`_iterate` (one iteration) or :meth:`_advance` (a batch),
    :meth:`average_strategy`, :meth:`current_strategy`, and the checkpoint state
    (:meth:`_state` / :meth:`_restore`).
    """

    algorithm: ClassVar[str] = "solver"
    """The name in :data:`SOLVERS` and in files."""
    iterative: ClassVar[bool] = True
    """False for a solver that solves in one step (it refuses stopping rules)."""
    sampling: ClassVar[bool] = False
    """True for a solver that takes ``seed=``."""

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game

    # -- to implement -------------------------------------------------------------------
    @abstractmethod
    def _iterate(self) -> None:
        """Do one iteration (``self.iterations`` is advanced by the caller)."""

    def _advance(self, count: int) -> None:
        """Do ``count`` iterations and count them in :attr:`iterations`.

        Solvers that batch iterations in compiled code override it.
        """
        for _ in range(count):
            self._iterate()
            self.iterations += 1

    @abstractmethod
    def average_strategy(self) -> Strategy | InfosetTable:
        """The average strategy so far (a copy): the one that converges to equilibrium."""

    @abstractmethod
    def current_strategy(self) -> Strategy | InfosetTable:
        """The strategy the next iteration will play (a copy)."""

    def hyperparameters(self) -> dict[str, Any]:
        """The hyper-parameters as given, JSON-ready (recorded in files)."""
        return {}

    @property
    def can_measure(self) -> bool:
        """Whether the exploitability can be measured (the game compiles)."""
        return True

    def _measure(self) -> float | None:
        """The exploitability of the average strategy (chips per hand), None if unmeasurable."""
        if not self.can_measure:
            return None
        return exploitability(self.game, tabulate(self.average_strategy(), self.game))

    def _keys_fingerprint(self) -> str | None:
        """The fingerprint of the compiled tree the state is aligned with, if any."""
        return None

    # -- checkpoints ----------------------------------------------------------------------
    def _state(self) -> dict[str, Any]:
        """Arrays and values that, restored, make the next iteration identical."""
        raise SolverError(f"{type(self).__name__} does not support checkpoints")

    def _restore(self, state: dict[str, Any]) -> None:
        raise SolverError(f"{type(self).__name__} does not support checkpoints")

    def save_checkpoint(self, path: str | Path) -> Path:
        """Write everything needed to resume exactly to ``path``, atomically.

        Raises:
            SolverError: if the solver's class is not registered, or it keeps no
                checkpoints.
        """
        from pokerlab import __version__

        name = type(self).__name__
        if SOLVERS.get(self.algorithm) is not type(self):
            raise SolverError(
                f"{name} is not a registered solver; decorate it with "
                "pokerlab.solvers.register_solver to save checkpoints"
            )
        arrays, values = split_state(name, self._state())
        header = {
            "pokerlab_version": __version__,
            "solver": name,
            "algorithm": self.algorithm,
            "hyperparameters": self.hyperparameters(),
            "game": self.game.spec.to_dict(),
            "game_string": str(self.game.spec),
            "keys_fingerprint": self._keys_fingerprint(),
            **self.clock_header(),
            "state_values": values,
        }
        return write_checkpoint(Path(path), header, arrays)

    @classmethod
    def load_checkpoint(cls, path: str | Path, *, game: Game | None = None) -> Solver:
        """Rebuild a solver from a checkpoint; the next iteration is the one it would have run.

        Args:
            path: a file written by :meth:`save_checkpoint`.
            game: if given, the checkpoint must be for this game (and this object is used).

        Raises:
            FileFormatError: missing, damaged, or not a checkpoint.
            StrategyMismatchError: the checkpoint is for another game than ``game``, or
                for a pokerlab whose infosets differ.
            SolverError: the algorithm is unknown or is not ``cls``, or the solver
                rejects the saved state.
        """
        header, arrays = read_checkpoint(path, kind="solver")
        where = repr(str(path))
        file_game = _checkpoint_game(header, where, game)
        name = header.get("algorithm")
        factory = SOLVERS.get(name) if isinstance(name, str) else None
        if factory is None:
            raise SolverError(
                f"{where} was saved by solver {header.get('solver', name)!r}, which is "
                f"unknown; known: {', '.join(SOLVERS)}"
            )
        if cls is not Solver and not issubclass(factory, cls):
            raise SolverError(
                f"{where} is a checkpoint of {factory.__name__}, not {cls.__name__}"
            )
        hyperparameters = header.get("hyperparameters", {})
        if not isinstance(hyperparameters, dict):
            raise FileFormatError(f"{where} has corrupted hyper-parameters: {hyperparameters!r}")
        try:
            solver = factory(file_game, **hyperparameters)
        except TypeError as exc:
            raise FileFormatError(f"{where} has hyper-parameters {factory.__name__} does not "
                                  f"take: {exc}") from None
        saved = header.get("keys_fingerprint")
        own = solver._keys_fingerprint()
        if saved is not None and own is not None and saved != own:
            raise StrategyMismatchError(
                f"{where} was saved for {file_game.spec} by a pokerlab whose infosets differ "
                "from this one's; it cannot be resumed"
            )
        state: dict[str, Any] = dict(header.get("state_values", {}))
        state.update(arrays)
        solver._restore(state)
        solver.restore_clock(header, where)
        return solver


def _checkpoint_game(header: dict[str, Any], where: str, game: Game | None) -> Game:
    """The game a checkpoint is for (``game`` itself when given and the same)."""
    try:
        spec = GameSpec.from_dict(header["game"])
    except (KeyError, PokerlabError) as exc:
        raise FileFormatError(f"{where} names no valid game: {exc}") from None
    if game is not None:
        if game.spec != spec:
            raise StrategyMismatchError(f"{where} is a checkpoint for {spec}, not for {game.spec}")
        return game
    try:
        return load(spec)
    except PokerlabError as exc:
        raise FileFormatError(
            f"{where} is for {spec}, which cannot be rebuilt ({exc}); pass game="
        ) from None


def strategy_metadata(solver: Solver, kind: str) -> dict[str, Any]:
    """What a solver's strategy records: algorithm, kind, iterations, hyper-parameters.

    ``kind`` is ``"average"`` or ``"current"``.
    """
    return {
        "algorithm": solver.algorithm,
        "strategy": kind,
        "iterations": solver.iterations,
        "hyperparameters": solver.hyperparameters(),
    }


def compiled_or_none(game: Game) -> CompiledTree | None:
    """``game``'s compiled tree, or None when it is too big to compile."""
    try:
        return compile(game)
    except GameTooLargeError:
        return None


class RegretSolver(Solver):
    """A solver that keeps regrets and strategy sums as ``[n_infosets, max_actions]`` arrays.

    The CFR family: the average strategy is the normalised strategy sums
    (:meth:`average_probs`), wrapped in a :class:`Strategy` that records what made it.
    """

    _regrets: FloatArray
    _strategy_sum: FloatArray
    _tree: CompiledTree

    @abstractmethod
    def average_probs(self) -> FloatArray:
        """The average strategy as a new ``[n_infosets, max_actions]`` array."""

    def average_strategy(self) -> Strategy:
        """The average strategy so far (a copy): the one that converges to equilibrium."""
        return Strategy(self.game, self.average_probs(), strategy_metadata(self, "average"))

    def _measure(self) -> float | None:
        return float(exploitability_array(self._tree, self.average_probs()))

    def infosets_touched(self) -> int | None:
        """The compiled tree's infosets (every one has a row)."""
        return self._tree.n_infosets

    def memory_bytes(self) -> int | None:
        """Bytes of the regret and strategy-sum arrays."""
        return int(self._regrets.nbytes + self._strategy_sum.nbytes)

    def _keys_fingerprint(self) -> str | None:
        return keys_fingerprint(self._tree)


__all__ = [
    "SOLVERS",
    "Callback",
    "HistoryRow",
    "Interrupt",
    "Progress",
    "RegretSolver",
    "RunLoop",
    "Seed",
    "Solver",
    "check_stopping_rules",
    "compiled_or_none",
    "generator_from_state",
    "make_generator",
    "make_solver",
    "register_solver",
    "seed_value",
    "solver_class",
    "strategy_metadata",
]
