"""Blueprint files (``.bp``): a trainer's tables with a JSON header, written atomically.

A blueprint file is a checkpoint of kind ``"blueprint"`` of the one checkpoint family
(:mod:`pokerlab.solvers.checkpoint`): an ``.npz`` archive, stored uncompressed (the
tables are large), with the JSON header and the tables ``regrets`` and ``strategy_sum``
(``[rows, actions]``, float64 or the header's ``storage``); the same file is the product
(played by the Hard AI, measured by LBR) and the checkpoint (``pokerlab blueprint train
--resume``). Files of the former container (the line ``pokerlab-blueprint 1``, one line of
JSON, then an ``.npz`` archive of the tables) load as before. The header says what the tables mean
and how to go on training them:

- ``spec``: the game (``str(spec)``), and ``spec_dict`` to rebuild it;
- ``cards``: how to rebuild the card abstraction (``{"kind": "lossless"}`` or ``{"kind":
  "holdem", "bucket_counts": [...], "seed", "n_bins", "sample", "boards"}``), and
  ``bucket_counts``;
- ``bet_menu``: the no-limit bet menu the betting tree was built from (None for limit; the
  CLI's ``--bets``), and ``rules``: the betting rules themselves (``rounding`` since the one
  rounding rule of :mod:`pokerlab.games.bet_sizes`; without it, halves rounded to even);
- ``iterations``, ``seconds`` (training time so far), ``wall_seconds`` and ``history``
  (the run loop's clock), ``seed``, ``rng`` (the generator's state, so a resumed run
  draws what an uninterrupted one would), ``batch`` (deals per kernel call),
  ``prune_after``, ``prune_threshold``, ``rows``, ``max_actions``, ``pokerlab_version``,
  ``storage`` (the tables' number type, ``"float64"`` when missing: older files);
- ``rounds`` (only in files written by rounds of sampled iterations, e.g. on Ray:
  :mod:`pokerlab.blueprint.ray_backend`): ``{"iterations", "clock", "rounds"}``, the sampled
  iterations spent, the trainer's clock (equal to ``iterations`` above) and the rounds done.

A file is written to a temporary name beside the target and renamed over it, so an
interrupted save never leaves a half-written blueprint. Loading a file for another game, a
damaged file or another format is a clear error.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

from pokerlab._version import __version__
from pokerlab.abstraction.card_abstraction import CardAbstraction
from pokerlab.blueprint.betting_tree import BettingRules
from pokerlab.blueprint.mccfr import DEFAULT_BATCH, STORAGES, BlueprintTrainer
from pokerlab.errors import FileFormatError, PokerlabError, SpecError
from pokerlab.games import Game, load
from pokerlab.games.spec import GameSpec
from pokerlab.solvers.checkpoint import FORMAT as CHECKPOINT_FORMAT
from pokerlab.solvers.checkpoint import FORMAT_VERSION as CHECKPOINT_VERSION
from pokerlab.solvers.checkpoint import write_checkpoint
from pokerlab.strategy.archive import NpzArchive, parse_json
from pokerlab.strategy.io import read_npz_header

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
        "storage": trainer.storage,
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


MAX_HEADER_BYTES = 1024**2
"""The longest JSON header line a blueprint file may have."""

_INT = (int,)
_NUMBER = (int, float)
HEADER_FIELDS: dict[str, tuple[type, ...]] = {
    "spec": (str,),
    "spec_dict": (dict,),
    "cards": (dict,),
    "bucket_counts": (list,),
    "rules": (dict,),
    "iterations": _INT,
    "seed": _INT,
    "rng": (dict,),
    "prune_after": _INT,
    "prune_threshold": _NUMBER,
}
"""The header fields a loader needs, with their JSON types (see the module docstring)."""
OPTIONAL_FIELDS: dict[str, tuple[type, ...]] = {
    "seconds": _NUMBER,
    "bet_menu": (str, type(None)),
    "cards_name": (str,),
    "rows": _INT,
    "max_actions": _INT,
    "rounds": (dict, type(None)),
    "pokerlab_version": (str,),
    "wall_seconds": _NUMBER,
    "history": (list,),
    "batch": _INT,
    "format_version": _INT,
    "storage": (str,),
}
"""Header fields that may be missing (older files), with their JSON types when present."""
LARGEST_COUNT = 2**62
"""The largest integer a counter field (iterations, seeds, rows...) may hold."""
LARGEST_BATCH = 2**24
"""The most deals per kernel call a header may ask for (the default is 4096)."""


def read_header(path: str | Path) -> dict[str, Any]:
    """The header of a blueprint file (either container), checked field by field.

    Reads only the header, however large the tables: the former container's JSON line at
    most :data:`MAX_HEADER_BYTES`; a checkpoint's zip directory, ``.npy`` headers and its
    ``header`` array (declared at most :data:`MAX_HEADER_BYTES`), nothing inflated first.

    Raises:
        FileFormatError: if the file is missing, not a blueprint, of another version, or
            its header is malformed (a one-line message naming the field).
    """
    path = Path(path)
    try:
        with path.open("rb") as stream:
            first = stream.readline(200)
            second = b"" if first.startswith(b"PK") else stream.readline(MAX_HEADER_BYTES + 1)
    except OSError as error:
        raise FileFormatError(f"cannot read blueprint {path}: {error.strerror}") from None
    header = _checkpoint_header(path) if first.startswith(b"PK") else _parse_header(
        path, first, second)
    check_header(header, path)
    return header


def _checkpoint_header(path: Path) -> dict[str, Any]:
    """The header of a blueprint stored as a checkpoint (the tables are not read)."""
    try:
        with NpzArchive(path, where="its archive") as archive:
            info = archive.arrays.get("header")
            if info is not None and info.nbytes > MAX_HEADER_BYTES:
                raise FileFormatError(
                    f"its header declares {info.nbytes} bytes, over the {MAX_HEADER_BYTES} "
                    "allowed"
                )
            header = read_npz_header(archive, "pokerlab blueprint")
    except FileFormatError as error:
        raise FileFormatError(
            f"{path} is damaged or not a pokerlab blueprint file: {error}"
        ) from None
    if header.get("format") != CHECKPOINT_FORMAT or header.get("kind") != "blueprint":
        found = (f"a {_shown(header.get('kind', 'solver'))} checkpoint"
                 if header.get("format") == CHECKPOINT_FORMAT else "another .npz file")
        raise FileFormatError(f"{path} is not a pokerlab blueprint file ({found})")
    version = header.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool) or not (
        1 <= version <= CHECKPOINT_VERSION
    ):
        raise FileFormatError(f"{path} is a blueprint of checkpoint format {_shown(version)}; "
                              f"this pokerlab reads versions 1 to {CHECKPOINT_VERSION}")
    return header


def _parse_header(path: Path, first: bytes, second: bytes) -> dict[str, Any]:
    """The header of a file of the former container (its first two lines)."""
    words = first.decode("latin-1").split()
    if len(words) != 2 or words[0] != MAGIC:
        raise FileFormatError(f"{path} is not a pokerlab blueprint file (no '{MAGIC}' line)")
    if words[1] != str(VERSION):
        raise FileFormatError(
            f"{path} is a blueprint of format version {words[1][:20]!r}; this pokerlab reads "
            f"{VERSION}"
        )
    if not second.endswith(b"\n"):
        raise FileFormatError(
            f"{path}: the blueprint header is cut short or over {MAX_HEADER_BYTES} bytes "
            "(truncated or corrupted?)"
        )
    parsed = parse_json(second, where=f"{path}: the blueprint", max_bytes=MAX_HEADER_BYTES)
    if not isinstance(parsed, dict):
        raise FileFormatError(f"{path}: the blueprint header is not a JSON object")
    return parsed


def check_header(header: dict[str, Any], path: Path) -> None:
    """Check the types and ranges of a blueprint header's fields.

    Raises:
        FileFormatError: naming the first field missing or of the wrong kind.
    """
    fields = {**HEADER_FIELDS, **{k: v for k, v in OPTIONAL_FIELDS.items() if k in header}}
    for name, kinds in fields.items():
        if name not in header:
            raise FileFormatError(f"{path}: the blueprint header has no {name!r} field")
        value = header[name]
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            allowed = " or ".join("null" if k is type(None) else k.__name__ for k in kinds)
            raise FileFormatError(
                f"{path}: the blueprint header's {name!r} is {_shown(value)}, not {allowed}"
            )
        if isinstance(value, int | float) and not _counter_ok(value, name):
            raise FileFormatError(
                f"{path}: the blueprint header's {name!r} is {_shown(value)}; it must be a "
                f"finite number from 0 to {LARGEST_COUNT}"
            )
    batch = header.get("batch", 1)
    if not 1 <= batch <= LARGEST_BATCH:
        raise FileFormatError(
            f"{path}: the blueprint header's 'batch' is {_shown(batch)}; deals per kernel "
            f"call go from 1 to {LARGEST_BATCH}"
        )
    counts = header["bucket_counts"]
    if not counts or not all(
        isinstance(c, int) and not isinstance(c, bool) and 1 <= c <= LARGEST_COUNT
        for c in counts
    ):
        raise FileFormatError(
            f"{path}: the blueprint header's 'bucket_counts' is {_shown(counts)}, not a list "
            "of positive integers"
        )
    cards = header["cards"]
    if cards.get("kind") not in ("lossless", "holdem"):
        raise FileFormatError(
            f"{path}: the blueprint header's card abstraction kind is "
            f"{_shown(cards.get('kind'))}; 'lossless' or 'holdem'"
        )
    if cards["kind"] == "holdem":
        for name in ("seed", "n_bins", "sample"):
            value = cards.get(name)
            if not isinstance(value, int) or isinstance(value, bool) or not _counter_ok(
                value, name
            ):
                raise FileFormatError(
                    f"{path}: the blueprint header's cards {name!r} is {_shown(value)}, not a "
                    f"count from 0 to {LARGEST_COUNT}"
                )
        boards = cards.get("boards")
        if boards is not None and (
            not isinstance(boards, int) or isinstance(boards, bool) or boards < 1
        ):
            raise FileFormatError(
                f"{path}: the blueprint header's cards 'boards' is {_shown(boards)}, not null "
                "or a positive count"
            )


def _counter_ok(value: float, name: str) -> bool:
    if name == "seed":
        return -LARGEST_COUNT <= value <= LARGEST_COUNT
    return math.isfinite(value) and 0 <= value <= LARGEST_COUNT


def _shown(value: object) -> str:
    text = json.dumps(value) if isinstance(value, str | int | float | bool | None) else (
        type(value).__name__)
    return text if len(text) <= 40 else text[:37] + "..."


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
    """The betting rules a header records.

    A header written before the one rounding rule has no ``rounding``: its menu rounded
    halves to even, and its tree is rebuilt that way.

    Raises:
        FileFormatError: the header's ``rules`` are not betting rules.
        SpecError: rules that :class:`BettingRules` refuses (naming what is allowed).
    """
    rules = header.get("rules")
    if not isinstance(rules, dict):
        raise FileFormatError(f"the blueprint header's 'rules' is {_shown(rules)}, not an object")
    fields = dict(rules)
    for name, value in fields.items():
        if isinstance(value, list):
            fields[name] = tuple(value)
    if "rounding" not in fields and fields.get("bet_menu") is not None:
        fields["rounding"] = "half_even"
    try:
        return BettingRules(**fields)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, OverflowError) as error:
        if isinstance(error, PokerlabError):
            raise
        raise FileFormatError(
            f"the blueprint header's 'rules' are not betting rules ({type(error).__name__}: "
            f"{str(error)[:120]})"
        ) from None


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
        game = _header_game(header, path)
    check_game(header, game, path)
    storage = header.get("storage", "float64")
    if storage not in STORAGES:
        raise FileFormatError(f"{path}: the blueprint header's storage is {storage!r}; "
                              f"pokerlab reads {', '.join(STORAGES)}")
    try:
        if cards is None:
            cards = cards_from_spec(game, header["cards"], cache_dir=cache_dir)
        if list(cards.bucket_counts) != list(header["bucket_counts"]):
            raise SpecError(
                f"{path} was trained with buckets {header['bucket_counts']}; the card "
                f"abstraction given has {list(cards.bucket_counts)}"
            )
        trainer = BlueprintTrainer(
            game, cards, rules_from_header(header), seed=header["seed"],
            prune_after=header["prune_after"], prune_threshold=float(header["prune_threshold"]),
            threads=threads, batch=batch or header.get("batch", DEFAULT_BATCH),
            storage=storage,
        )  # fmt: skip
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, PokerlabError):
            raise
        raise FileFormatError(
            f"{path}: the blueprint header describes no trainer ({type(error).__name__}: "
            f"{str(error)[:120]})"
        ) from None
    _read_tables(path, trainer, "state." if "format_version" in header else "")
    trainer.restore_clock(header, repr(str(path)))
    try:
        trainer.rng.bit_generator.state = header["rng"]
    except (KeyError, TypeError, ValueError, OverflowError):
        kind = type(trainer.rng.bit_generator).__name__
        raise FileFormatError(
            f"{path}: the blueprint header's 'rng' is not a {kind} generator state"
        ) from None
    return trainer, header


def _header_game(header: dict[str, Any], path: Path) -> Game:
    try:
        return load(GameSpec.from_dict(header["spec_dict"]))
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        reason = str(error) if isinstance(error, PokerlabError) else type(error).__name__
        raise FileFormatError(
            f"{path}: the blueprint header's 'spec_dict' names no valid game ({reason[:160]})"
        ) from None


def _read_tables(path: Path, trainer: BlueprintTrainer, prefix: str) -> None:
    """Read the file's tables (either container) into ``trainer``, declared shapes first.

    ``prefix``: the tables' names' prefix (``"state."`` in a checkpoint).
    """
    where = str(path)
    with NpzArchive(path, where=where, contents="the blueprint tables") as archive:
        expected = trainer.regrets.shape
        for name in ("regrets", "strategy_sum"):
            info = archive.arrays.get(prefix + name)
            if info is None:
                raise FileFormatError(f"{where}: the blueprint tables are damaged (no {name!r})")
            if info.shape != expected or info.dtype != trainer.regrets.dtype:
                raise FileFormatError(
                    f"{where}: tables of shape {info.shape} ({info.dtype}), the abstract game "
                    f"needs {expected} of {trainer.storage} (the header's storage)"
                )
        archive.read_into(prefix + "regrets", trainer.regrets)
        archive.read_into(prefix + "strategy_sum", trainer.strategy_sum)


__all__ = [
    "MAGIC",
    "SUFFIX",
    "VERSION",
    "CardsSpec",
    "check_game",
    "check_header",
    "header_of",
    "load_blueprint",
    "read_header",
    "rules_from_header",
    "save_blueprint",
]
