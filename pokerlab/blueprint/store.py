"""Blueprint files (``.bp``): a trainer's tables with a JSON header, written atomically.

A blueprint file is a checkpoint of kind ``"blueprint"`` of the one checkpoint family
(:mod:`pokerlab.solvers.checkpoint`): an ``.npz`` archive, stored uncompressed (the
tables are large), with the JSON header and the tables ``regrets`` and ``strategy_sum``
(float64 ``[rows, actions]``); the same file is the product (played by the Hard AI,
measured by LBR) and the checkpoint (``pokerlab blueprint train --resume``). Files of
the former container (the line ``pokerlab-blueprint 1``, one line of JSON, then an
``.npz`` archive of the tables) load as before. The header says what the tables mean
and how to go on training them:

- ``spec``: the game (``str(spec)``), and ``spec_dict`` to rebuild it;
- ``cards``: how to rebuild the card abstraction (``{"kind": "lossless"}`` or ``{"kind":
  "holdem", "bucket_counts": [...], "seed", "n_bins", "sample", "boards"}``), and
  ``bucket_counts``;
- ``bet_menu``: the no-limit bet menu the betting tree was built from (None for limit), and
  ``rules``: the betting rules themselves;
- ``iterations``, ``seconds`` (training time so far), ``wall_seconds`` and ``history``
  (the run loop's clock), ``seed``, ``rng`` (the generator's state, so a resumed run
  draws what an uninterrupted one would), ``batch`` (deals per kernel call),
  ``prune_after``, ``prune_threshold``, ``rows``, ``max_actions``, ``pokerlab_version``;
- ``rounds`` (only in files written by rounds of sampled iterations, e.g. on Ray:
  :mod:`pokerlab.blueprint.ray_backend`): ``{"iterations", "clock", "rounds"}``, the sampled
  iterations spent, the trainer's clock (equal to ``iterations`` above) and the rounds done.

A file is written to a temporary name beside the target and renamed over it, so an
interrupted save never leaves a half-written blueprint. Loading a file for another game, a
damaged file or another format is a clear error.
"""

from __future__ import annotations

import dataclasses
import io
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab._version import __version__
from pokerlab.abstraction.card_abstraction import CardAbstraction
from pokerlab.blueprint.betting_tree import BettingRules
from pokerlab.blueprint.mccfr import DEFAULT_BATCH, BlueprintTrainer
from pokerlab.errors import FileFormatError, SpecError
from pokerlab.games import Game, load
from pokerlab.games.spec import GameSpec
from pokerlab.solvers.checkpoint import FORMAT as CHECKPOINT_FORMAT
from pokerlab.solvers.checkpoint import FORMAT_VERSION as CHECKPOINT_VERSION
from pokerlab.solvers.checkpoint import write_checkpoint

MAGIC = "pokerlab-blueprint"
"""The first word of a blueprint file of the former container (still read)."""
VERSION = 1
"""The former container's version."""
SUFFIX = ".bp"
"""The usual file suffix."""

CardsSpec = dict[str, Any]
"""How to rebuild a card abstraction (see the module docstring)."""


def header_of(trainer: BlueprintTrainer, cards: CardsSpec, bet_menu: str | None) -> dict[str, Any]:
    """The JSON header of ``trainer``'s file (see the module docstring)."""
    return {
        "spec": str(trainer.game.spec),
        "spec_dict": trainer.game.spec.to_dict(),
        "cards": cards,
        "cards_name": trainer.cards.name,
        "bucket_counts": list(trainer.cards.bucket_counts),
        "bet_menu": bet_menu,
        "rules": dataclasses.asdict(trainer.rules),
        **trainer.clock_header(),
        "seed": trainer.seed,
        "rng": trainer.rng.bit_generator.state,
        "batch": trainer.batch,
        "prune_after": trainer.prune_after,
        "prune_threshold": trainer.prune_threshold,
        "rows": trainer.n_rows,
        "max_actions": trainer.tree.max_actions,
        "pokerlab_version": __version__,
    }


def save_blueprint(
    trainer: BlueprintTrainer,
    path: str | Path,
    *,
    cards: CardsSpec,
    bet_menu: str | None = None,
    rounds: dict[str, int] | None = None,
) -> Path:
    """Write ``trainer``'s tables and header to ``path`` (atomically); return the path.

    ``rounds``: the round counters of a run by rounds (see the module docstring), if any.
    """
    path = Path(path)
    header = header_of(trainer, cards, bet_menu)
    if rounds is not None:
        header["rounds"] = dict(rounds)
    tables = {"regrets": trainer.regrets, "strategy_sum": trainer.strategy_sum}
    return write_checkpoint(path, header, tables, kind="blueprint", compress=False)


def read_header(path: str | Path) -> dict[str, Any]:
    """The header of a blueprint file (either container), checked for format and version.

    Reads only the header, however large the tables.

    Raises:
        FileFormatError: if the file is missing, not a blueprint or of another version.
    """
    path = Path(path)
    try:
        with path.open("rb") as stream:
            first = stream.readline(200)
            second = b"" if first.startswith(b"PK") else stream.readline()
    except OSError as error:
        raise FileFormatError(f"cannot read blueprint {path}: {error.strerror}") from None
    if first.startswith(b"PK"):
        return _checkpoint_header(path)
    return _parse_header(path, first, second)


def _checkpoint_header(path: Path) -> dict[str, Any]:
    """The header of a blueprint stored as a checkpoint (the tables are not read)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            raw = data["header"].tobytes() if "header" in data.files else None
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError):
        raise FileFormatError(f"{path} is not a pokerlab blueprint file (not a readable "
                              "checkpoint archive: damaged or truncated?)") from None
    try:
        header = json.loads(raw.decode()) if raw is not None else None
    except (UnicodeDecodeError, ValueError):
        header = None
    if not isinstance(header, dict) or header.get("format") != CHECKPOINT_FORMAT or (
        header.get("kind") != "blueprint"
    ):
        found = (f"a {header.get('kind', 'solver')} checkpoint" if isinstance(header, dict)
                 and header.get("format") == CHECKPOINT_FORMAT else "another .npz file")
        raise FileFormatError(f"{path} is not a pokerlab blueprint file ({found})")
    version = header.get("format_version")
    if not isinstance(version, int) or version > CHECKPOINT_VERSION:
        raise FileFormatError(f"{path} is a blueprint of checkpoint format {version!r}; this "
                              f"pokerlab reads versions up to {CHECKPOINT_VERSION}")
    return header


def _parse_header(path: Path, first: bytes, second: bytes) -> dict[str, Any]:
    """The header of a file of the former container (its first two lines)."""
    words = first.decode("latin-1").split()
    if len(words) != 2 or words[0] != MAGIC:
        raise FileFormatError(f"{path} is not a pokerlab blueprint file (no '{MAGIC}' line)")
    if words[1] != str(VERSION):
        raise FileFormatError(
            f"{path} is a blueprint of format version {words[1]}; this pokerlab reads {VERSION}"
        )
    try:
        header: dict[str, Any] = json.loads(second)
    except ValueError:
        raise FileFormatError(f"{path}: the blueprint header is not valid JSON") from None
    return header


def check_game(header: dict[str, Any], game: Game, path: Path) -> None:
    """Refuse a blueprint made for another game.

    Raises:
        SpecError: naming both games.
    """
    if header["spec"] != str(game.spec):
        raise SpecError(
            f"{path} is a blueprint for {header['spec']}, not for {game.spec}; train one for "
            "this game (pokerlab blueprint train)"
        )


def rules_from_header(header: dict[str, Any]) -> BettingRules:
    """The betting rules a header records."""
    fields = dict(header["rules"])
    for name, value in fields.items():
        if isinstance(value, list):
            fields[name] = tuple(value)
    return BettingRules(**fields)


def load_blueprint(
    path: str | Path,
    *,
    game: Game | None = None,
    cards: CardAbstraction | None = None,
    cache_dir: str | Path | None = None,
    threads: int = 1,
    batch: int | None = None,
) -> tuple[BlueprintTrainer, dict[str, Any]]:
    """A trainer with a blueprint file's tables and state, and the file's header.

    Args:
        path: the ``.bp`` file.
        game: if given, the file must be a blueprint of this game.
        cards: the card abstraction, if the caller has it; else rebuilt from the header
            (:func:`pokerlab.blueprint.cards.cards_from_spec`, cached on disk).
        cache_dir: where cached bucket tables live.
        threads: kernel threads of the returned trainer.
        batch: deals per kernel call of the returned trainer (default: the file's, or
            :data:`~pokerlab.blueprint.mccfr.DEFAULT_BATCH` for files that do not say).

    Raises:
        FileFormatError: a missing, damaged or foreign file.
        SpecError: a blueprint of another game than ``game``.
    """
    from pokerlab.blueprint.cards import cards_from_spec

    path = Path(path)
    header = read_header(path)
    if game is None:
        game = load(GameSpec.from_dict(header["spec_dict"]))
    check_game(header, game, path)
    if cards is None:
        cards = cards_from_spec(game, header["cards"], cache_dir=cache_dir)
    if list(cards.bucket_counts) != list(header["bucket_counts"]):
        raise SpecError(
            f"{path} was trained with buckets {header['bucket_counts']}; the card abstraction "
            f"given has {list(cards.bucket_counts)}"
        )
    trainer = BlueprintTrainer(
        game, cards, rules_from_header(header), seed=int(header["seed"]),
        prune_after=int(header["prune_after"]), prune_threshold=float(header["prune_threshold"]),
        threads=threads, batch=batch or int(header.get("batch", DEFAULT_BATCH)),
    )  # fmt: skip
    regrets, strategy_sum = _tables(path, header)
    if regrets.shape != trainer.regrets.shape or strategy_sum.shape != regrets.shape:
        raise FileFormatError(
            f"{path}: tables of shape {regrets.shape}, the abstract game needs "
            f"{trainer.regrets.shape}"
        )
    trainer.regrets[:] = regrets
    trainer.strategy_sum[:] = strategy_sum
    trainer.restore_clock(header, repr(str(path)))
    trainer.rng.bit_generator.state = header["rng"]
    return trainer, header


def _tables(path: Path, header: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """The regret and strategy-sum tables of a blueprint file (either container).

    Raises:
        FileFormatError: if they are damaged.
    """
    try:
        if "format_version" in header:  # a checkpoint of the one family
            with np.load(path, allow_pickle=False) as arrays:
                regrets = np.array(arrays["state.regrets"], dtype=np.float64)
                strategy_sum = np.array(arrays["state.strategy_sum"], dtype=np.float64)
            return regrets, strategy_sum
        data = path.read_bytes()
        start = data.index(b"\n", data.index(b"\n") + 1) + 1
        with np.load(io.BytesIO(data[start:])) as arrays:
            regrets = np.array(arrays["regrets"], dtype=np.float64)
            strategy_sum = np.array(arrays["strategy_sum"], dtype=np.float64)
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
        raise FileFormatError(f"{path}: the blueprint tables are damaged ({error})") from None
    return regrets, strategy_sum


__all__ = [
    "MAGIC",
    "SUFFIX",
    "VERSION",
    "CardsSpec",
    "check_game",
    "header_of",
    "load_blueprint",
    "read_header",
    "rules_from_header",
    "save_blueprint",
]
