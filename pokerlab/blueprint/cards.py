"""The card abstraction of a blueprint, named by a small dict and cached on disk.

A blueprint file records how its buckets were made (``{"kind": "lossless"}`` or ``{"kind":
"holdem", "bucket_counts": [169, 50, 50, 50], "seed": 0, "n_bins": 50, "sample": 200000,
"boards": None}``) rather than the tables themselves: the tables are rebuilt, or read from
the cache, when the file is loaded. Tables over every canonical board (``"boards": None``,
what ``pokerlab blueprint train`` and the default ``hard`` blueprint use) come from
:func:`pokerlab.abstraction.holdem_cards.load_or_build`: the cache ``pokerlab abstract``
fills, shared. ``"boards": N`` is **for tests only**: the first N canonical boards of each
street are computed and every hand on any other board gets bucket 0, so a blueprint on it
plays card-blind after the flop on almost every board; the command line does not offer it.
Those test builds are cached in the ``blueprint-cards`` folder of the cache root
(``cache_dir``, else ``$POKERLAB_CACHE``, else ``~/.cache/pokerlab``).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from pokerlab._cache import cache_folder
from pokerlab._types import StageCallback
from pokerlab.abstraction.card_abstraction import CardAbstraction
from pokerlab.abstraction.holdem_cards import (
    DEFAULT_COUNTS,
    build_holdem_abstraction,
    check_bucket_counts,
    load_or_build,
)
from pokerlab.abstraction.holdem_cards import load as load_tables
from pokerlab.blueprint.deals import dealer_for
from pokerlab.errors import FileFormatError, SpecError
from pokerlab.games import Game

FULL_BUILD = {"n_bins": 50, "sample": 200_000, "boards": None}
"""The parameters of :func:`load_or_build`'s tables (its cache)."""


def parse_buckets(text: str) -> dict[str, Any]:
    """``"lossless"`` or ``"169,50,50,50"`` as a cards spec (seed 0, full build parameters).

    Raises:
        SpecError: for anything else.
    """
    text = text.strip()
    if text == "lossless":
        return {"kind": "lossless"}
    try:
        counts = [int(v) for v in text.split(",")]
    except ValueError:
        raise SpecError(
            f"--buckets must be 'lossless' or four counts like '169,50,50,50'; got {text!r}"
        ) from None
    check_bucket_counts(counts)
    return {"kind": "holdem", "bucket_counts": counts, "seed": 0, **FULL_BUILD}


def check_clustered_game(game: Game) -> None:
    """Refuse clustered buckets for a game without Texas Hold'em's cards.

    Raises:
        SpecError: naming the game and what to use instead.
    """
    rules = getattr(game, "rules", None)
    if rules is None or rules.deck_size != 52 or rules.hole_size != 2 or tuple(
        rules.board_sizes
    ) != (0, 3, 4, 5):
        raise SpecError(
            f"clustered Hold'em buckets need Texas Hold'em's cards (52, 2 hole, boards "
            f"0/3/4/5); {game.spec} has other cards: use --buckets lossless"
        )


def cards_from_spec(
    game: Game, spec: dict[str, Any], *, cache_dir: str | Path | None = None,
    progress: StageCallback | None = None,
) -> CardAbstraction:
    """The card abstraction ``spec`` names, for ``game`` (built and cached when missing).

    ``spec["boards"]`` other than None builds the test-only, card-blind-elsewhere tables
    (see the module docstring). ``progress`` hears the stages of a full build of the
    clustered tables (:func:`~pokerlab.abstraction.holdem_cards.load_or_build`).

    Raises:
        SpecError: an unknown kind, or clustered buckets for a game that is not Texas
            Hold'em's deck (52 cards, 2 hole cards, boards 0/3/4/5).
    """
    kind = spec.get("kind")
    if kind == "lossless":
        return dealer_for(game).cards
    if kind != "holdem":
        raise SpecError(f"card abstraction kind must be 'lossless' or 'holdem'; got {kind!r}")
    check_clustered_game(game)
    counts = check_bucket_counts(spec["bucket_counts"])
    seed, n_bins, sample = int(spec["seed"]), int(spec["n_bins"]), int(spec["sample"])
    boards = spec.get("boards")
    if boards is None:
        return load_or_build(counts, seed, n_bins=n_bins, sample=sample, cache_dir=cache_dir,
                             progress=progress)[0]
    name = "-".join(str(c) for c in counts)
    path = (
        cache_folder("blueprint-cards", cache_dir)
        / f"holdem-{name}-bins{n_bins}-sample{sample}-boards{boards}-seed{seed}.npz"
    )  # fmt: skip
    if path.exists():
        with contextlib.suppress(FileFormatError):
            return load_tables(path)
    tables = build_holdem_abstraction(counts, seed, n_bins=n_bins, sample=sample, boards=boards)
    path.parent.mkdir(parents=True, exist_ok=True)
    tables.save(path)
    return tables


__all__ = ["DEFAULT_COUNTS", "FULL_BUILD", "cards_from_spec", "check_clustered_game",
           "parse_buckets"]
