"""Every policy file pokerlab writes, read as a policy: what ``show``, ``exploit`` and agents load.

A command that saves a strategy writes one of these:

- ``.npz`` a **strategy** (``pokerlab-strategy``: exact solvers on compiled games) or an
  **infoset table** (``pokerlab-table``: Monte Carlo CFR on games too big to compile, such
  as ``solve 'holdem(betting="limit")' --algorithm es-mccfr``);
- ``.npz`` a **checkpoint** of ``pokerlab solve`` (kind ``solver``: its average strategy)
  or of the range solver on Rhode Island Hold'em (kind ``range``, what ``solve
  rhode_island --out`` writes: played by
  :class:`~pokerlab.subgame.rhode_island.RhodeIslandStrategy`);
- ``.bp`` a **blueprint** (``blueprint train``: played by
  :class:`~pokerlab.blueprint.policy.BlueprintPolicy`);
- ``.pt`` a **Deep CFR network** (``solve --algorithm deep-cfr --out X.pt``; needs torch).

A spot solution (``spot solve --out``) is a range checkpoint too, but of one spot, not of
a whole game: it is refused here with the command that reads it (``pokerlab spot show``).
The kind is found from the file's header, not only its suffix, so a file renamed keeps
working and a file of another kind is named in the error.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pokerlab.errors import FileFormatError, SpecError, StrategyMismatchError
from pokerlab.games import Game
from pokerlab.strategy import Policy, load_policy
from pokerlab.strategy.io import read_npz

POLICY_SUFFIXES = {".npz": "strategy", ".bp": "blueprint", ".pt": "deep"}
"""Policy files by suffix, and their kind (an ``.npz`` may also hold a checkpoint)."""

_STRATEGY_FORMATS = ("pokerlab-strategy", "pokerlab-table")
_CHECKPOINT_FORMATS = ("pokerlab-checkpoint", "pokerlab-range-checkpoint")


@dataclass(frozen=True)
class PolicyFile:
    """A policy file read: the policy and what the file was.

    Attributes:
        policy: the policy it holds (for the game of its header, or the one asked for).
        kind: ``"strategy"``, ``"table"``, ``"checkpoint"``, ``"range"``, ``"blueprint"``
            or ``"deep"``.
        path: the file.
    """

    policy: Policy
    kind: str
    path: Path


def read_policy_file(
    path: str | Path, game: Game | None = None, *, cache_dir: str | Path | None = None
) -> PolicyFile:
    """The policy held in any policy file pokerlab writes (see the module docstring).

    Args:
        path: the file.
        game: if given, the file must hold a policy for this game.
        cache_dir: where blueprints find their card tables (None: ``$POKERLAB_CACHE``).

    Raises:
        SpecError: another kind of file, or a spot solution (the message names the command
            that reads it).
        FileFormatError, StrategyMismatchError: a damaged file, or one for another game.
    """
    file = Path(path)
    kind = POLICY_SUFFIXES.get(file.suffix)
    if kind == "blueprint":
        return PolicyFile(_blueprint_policy(file, game, cache_dir), "blueprint", file)
    if kind == "deep":
        from pokerlab.solvers.deep_policy import DeepPolicy

        return PolicyFile(DeepPolicy.load(file, game=game), "deep", file)
    if kind is None:
        raise SpecError(f"{str(file)!r} is not a policy file; allowed: "
                        + ", ".join(POLICY_SUFFIXES))
    header, _ = read_npz(file, _STRATEGY_FORMATS + _CHECKPOINT_FORMATS)
    if header.get("format") in _STRATEGY_FORMATS:
        policy = load_policy(file, game=game)
        found = "table" if header.get("format") == "pokerlab-table" else "strategy"
        return PolicyFile(policy, found, file)
    return _checkpoint_policy(file, game)


def _blueprint_policy(file: Path, game: Game | None, cache_dir: str | Path | None) -> Policy:
    """A blueprint's policy, on Hold'em or on a game that compiles.

    On Hold'em the blueprint itself (it maps real hands to its abstraction); on a game that
    compiles (Leduc), its average strategy as a table.
    """
    from pokerlab.blueprint.policy import BlueprintPolicy
    from pokerlab.blueprint.store import load_blueprint, read_header
    from pokerlab.games import HoldemGame, load

    the_game = game if game is not None else load(str(read_header(file)["spec"]))
    if isinstance(the_game, HoldemGame):
        return BlueprintPolicy.from_file(file, the_game, cache_dir=cache_dir)
    trainer, _ = load_blueprint(file, game=the_game, cache_dir=cache_dir)
    return trainer.average_strategy()


def _checkpoint_policy(file: Path, game: Game | None) -> PolicyFile:
    """The average strategy a checkpoint holds (a solver's, or Rhode Island's range solver's)."""
    from pokerlab.solvers.checkpoint import read_checkpoint

    header, _ = read_checkpoint(file)
    if header.get("kind") == "solver":
        from pokerlab.solvers.base import Solver

        return PolicyFile(Solver.load_checkpoint(file, game=game).average_strategy(),
                          "checkpoint", file)
    source = header.get("source")
    if header.get("kind") == "range" and isinstance(source, dict):
        if source.get("kind") == "rhode_island":
            from pokerlab.subgame.rhode_island import RhodeIslandStrategy, load_rhode_island

            built, ranges = load_rhode_island(file)
            if game is not None and built.game != game:
                raise StrategyMismatchError(f"{str(file)!r} holds a strategy for "
                                            f"{built.game.spec}, not for {game.spec}")
            return PolicyFile(RhodeIslandStrategy(built, ranges.average_arrays()), "range",
                              file)
        if source.get("kind") in ("spot", "subgame"):
            raise SpecError(f"{str(file)!r} is the solution of one spot (range vs range), not "
                            f"a strategy for a whole game; read it with `pokerlab spot show "
                            f"{file}`")
    raise FileFormatError(f"{str(file)!r} is a checkpoint of kind {header.get('kind')!r} that "
                          "holds no strategy of a whole game")


__all__ = ["POLICY_SUFFIXES", "PolicyFile", "read_policy_file"]
