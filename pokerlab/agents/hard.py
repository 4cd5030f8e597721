"""The Hard AI: plays a Hold'em blueprint (ES-MCCFR on an abstraction), any opponent.

``HardAI(game, blueprint="hulhe.bp")`` plays a blueprint file trained by ``pokerlab blueprint
train``; without a file it plays the game's *default blueprint*, trained on first use and
cached (never committed) in the ``bots`` folder of the cache root (``cache_dir``, else
``$POKERLAB_CACHE``, else ``~/.cache/pokerlab``). The default recipe (:func:`default_recipe`):

- Texas Hold'em cards (52, two hole cards, boards 0/3/4/5): the full card abstraction, 169
  preflop classes and 50 buckets per later street over every canonical board (the tables
  ``pokerlab abstract 'holdem(betting="limit")' --cards 169,50,50,50`` builds: about 80 s and
  2.5 GB once, then read from the shared cache), no-limit with the bet menu ``50%,100%,a``;
  :data:`DEFAULT_ITERATIONS` iterations with pruning after a fifth of them (a few minutes
  once). The command that trains the same file is :func:`default_command`, e.g. for heads-up
  limit::

      pokerlab blueprint train 'holdem(betting="limit")' --buckets 169,50,50,50 \
          --iterations 2000000 --seed 0 --prune-after 400000 --prune-threshold 0.05 \
          --out hard-limit.bp

- three to six players: no-limit with the smaller menus of :data:`MULTIWAY_MENUS` and the
  same cards; three-handed limit with the buckets :data:`THREE_HANDED_LIMIT_COUNTS` (its
  betting tree has 24 million nodes); more players, or limit with four or more, have no
  default blueprint;
- small decks whose lossless buckets stay under :data:`LOSSLESS_LIMIT` per street: lossless
  cards, 300,000 iterations.

It exposes ``policy`` (a :class:`~pokerlab.blueprint.policy.BlueprintPolicy`, with a batch
path) so LBR and matches can query it; off-menu no-limit bets are translated
pseudo-harmonically into the blueprint's menu.
"""

from __future__ import annotations

import hashlib
import json
import math
import shlex
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TaskID, TextColumn, TimeElapsedColumn

from pokerlab._cache import cache_folder
from pokerlab._progress import StageProgress
from pokerlab._types import Action, StageCallback
from pokerlab.abstraction.holdem_cards import cache_path as tables_path
from pokerlab.blueprint.cards import DEFAULT_COUNTS, FULL_BUILD, cards_from_spec, parse_buckets
from pokerlab.blueprint.deals import lossless_holdem
from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.blueprint.nolimit import DEFAULT_MENU, rules_for
from pokerlab.blueprint.policy import BlueprintPolicy, check_similar
from pokerlab.blueprint.store import load_blueprint, read_header, save_blueprint
from pokerlab.errors import FileFormatError, SpecError
from pokerlab.games.base import Game
from pokerlab.games.observation import Observation
from pokerlab.play.dealer import reseed
from pokerlab.strategy.policy import sample_action

DEFAULT_ITERATIONS = 2_000_000
"""Training iterations of the default Texas Hold'em blueprint (single-threaded)."""
MULTIWAY_MENUS = {3: "100%,a", 4: "100%,a", 5: "a", 6: "a"}
"""The no-limit bet menus of the default blueprints with 3 to 6 players: the heads-up menu's
tree grows too fast with the players (three-handed: 1,393,119 nodes with ``50%,100%,a``,
34,837 with ``100%,a``; with 200-chip stacks, five-handed ``100%,a``: 2,009,621, six-handed
9,484,735)."""
THREE_HANDED_LIMIT_COUNTS = (169, 10, 5, 3)
"""The card buckets of three-handed limit Texas Hold'em's default blueprint: its betting
tree has 9,501,342 river decisions, so 50 buckets a street would need 485,601,010 rows
(23 GB of tables); these give 29,593,166 rows (1.4 GB) beside the 1.9 GB tree."""
TRAINING_RATES = {(2, False): 104_678, (2, True): 17_036, (3, False): 4_548, (3, True): 16_300,
                  (4, True): 12_977, (5, True): 39_237, (6, True): 28_681}
"""Iterations per second of the default Texas Hold'em recipes, ``(players, no-limit)``, on 2
cores (docs/hard_ai.md): heads-up limit (2026-12-02, idle: the file's own training
seconds; 5,990 at load 4-8 on 2026-11-24), no-limit (load about 1) and three-handed
no-limit (load 1.5-3.5) from their whole 2,000,000-iteration default runs (three-handed
no-limit's first 200,000 ran at 37,948/s); the others from runs of 60 s or 100,000
iterations, which may overstate a whole run's rate."""
LOSSLESS_LIMIT = 100_000
"""The most lossless buckets per street a default blueprint trains on."""
CHUNK = 4096
"""Iterations per kernel call, as ``pokerlab blueprint train`` runs them (the default
command then writes the same tables)."""


@dataclass(frozen=True)
class Recipe:
    """How a default blueprint is trained.

    Attributes:
        cards: the cards spec (:mod:`pokerlab.blueprint.cards`).
        bet_menu: the no-limit bet menu, None in limit.
        iterations: training iterations.
        prune_after: iterations before negative-regret pruning.
        prune_threshold: the pruning threshold (0: off).
        seed: the seed of the deals.
    """

    cards: dict[str, Any]
    bet_menu: str | None
    iterations: int
    prune_after: int = 0
    prune_threshold: float = 0.0
    seed: int = 0


def default_recipe(game: Game) -> Recipe:
    """The default blueprint's recipe for ``game`` (see the module docstring).

    Raises:
        SpecError: a game that is not Hold'em, or one without a default recipe.
    """
    rules = getattr(game, "rules", None)
    if game.spec.name != "holdem" or rules is None:
        raise SpecError(f"the hard AI plays holdem games; got {game.spec}")
    menu = DEFAULT_MENU if rules.no_limit else None
    n = rules.n_players
    texas = rules.deck_size == 52 and rules.hole_size == 2
    full = texas and tuple(rules.board_sizes) == (0, 3, 4, 5)
    counts = tuple(DEFAULT_COUNTS)
    if texas and n > 2:
        if full and rules.no_limit and n in MULTIWAY_MENUS:
            menu = MULTIWAY_MENUS[n]
        elif full and not rules.no_limit and n == 3:
            counts = THREE_HANDED_LIMIT_COUNTS
        else:
            raise SpecError(
                f"no default blueprint for {game.spec}: the betting tree of Texas Hold'em "
                f"with {n} players is too large; the hard AI plays Texas Hold'em heads-up, "
                "three-handed limit and no-limit with 3 to 6 players (or a blueprint you "
                "train for a smaller game)"
            )
    if full:
        cards = parse_buckets(",".join(str(c) for c in counts))
        return Recipe(cards, menu, DEFAULT_ITERATIONS, prune_after=DEFAULT_ITERATIONS // 5,
                      prune_threshold=0.05)
    if lossless_holdem(game).bucket_counts[-1] <= LOSSLESS_LIMIT:
        return Recipe({"kind": "lossless"}, menu, 300_000)
    raise SpecError(
        f"no default blueprint for {game.spec}: its cards are neither Texas Hold'em's nor "
        f"small enough for lossless buckets; train one (pokerlab blueprint train) and pass it"
    )


def default_command(game: Game, out: str | Path) -> str:
    """The ``pokerlab blueprint train`` command that trains ``game``'s default blueprint."""
    recipe = default_recipe(game)
    cards = recipe.cards
    words = ["pokerlab", "blueprint", "train", str(game.spec)]
    if cards["kind"] == "lossless":
        words += ["--buckets", "lossless"]
    else:
        if cards.get("boards") is not None:
            raise SpecError(
                f"the recipe's cards {cards} use the test-only board subset, which "
                "pokerlab blueprint train does not offer"
            )
        words += ["--buckets", ",".join(str(c) for c in cards["bucket_counts"])]
        if cards["n_bins"] != FULL_BUILD["n_bins"]:
            words += ["--bins", str(cards["n_bins"])]
        if cards["sample"] != FULL_BUILD["sample"]:
            words += ["--sample", str(cards["sample"])]
    if recipe.bet_menu is not None:
        words += ["--bets", recipe.bet_menu]
    words += ["--iterations", str(recipe.iterations), "--seed", str(recipe.seed)]
    if recipe.prune_threshold > 0:
        words += ["--prune-after", str(recipe.prune_after),
                  "--prune-threshold", str(recipe.prune_threshold)]
    words += ["--out", str(out)]
    return " ".join(shlex.quote(w) for w in words)


def default_blueprint_path(game: Game, cache_dir: str | Path | None = None) -> Path:
    """Where ``game``'s default blueprint is cached (named by the spec and the recipe)."""
    recipe = default_recipe(game)
    key = json.dumps([str(game.spec), asdict(recipe)], sort_keys=True)
    digest = hashlib.sha256(key.encode()).hexdigest()[:12]
    return cache_folder("bots", cache_dir) / f"hard-{game.spec.name}-{digest}.bp"


TABLES_COST = "about 90 s and 2.5 GB of memory on 2 cores"
"""What building the 169/50/50/50 card tables costs, as measured (docs/benchmarks.md)."""


def prepare_command(game: Game) -> str:
    """The command that prepares ``game``'s default blueprint ahead of time."""
    return f"pokerlab bots prepare hard --game {shlex.quote(str(game.spec))}"


def missing_tables(cards: dict[str, Any], cache_dir: str | Path | None = None) -> Path | None:
    """The card tables file a blueprint's ``cards`` spec needs and the cache lacks (else None).

    ``cards`` as a recipe or a blueprint file's header gives it.
    """
    if cards.get("kind") != "holdem" or cards.get("boards") is not None:
        return None  # lossless cards, or the small test build: nothing long to build
    path = tables_path(tuple(cards["bucket_counts"]), int(cards["seed"]),
                       n_bins=int(cards["n_bins"]), sample=int(cards["sample"]),
                       cache_dir=cache_dir)
    return None if path.exists() else path


def default_blueprint_ready(game: Game, cache_dir: str | Path | None = None) -> bool:
    """Whether ``game``'s default blueprint and its card tables are in the cache, readable."""
    path = default_blueprint_path(game, cache_dir)
    if not path.exists():
        return False
    try:
        header = read_header(path)
    except FileFormatError:
        return False
    if header.get("spec") != str(game.spec):
        return False  # a blueprint of another game there: HardAI would train over it
    return missing_tables(header["cards"], cache_dir) is None  # the tables this file reads


def check_trainable(game: Game) -> None:
    """Refuse, before any card table is built, a game whose default blueprint cannot train.

    The recipe, the betting rules and the betting tree's count (quick: from its distinct
    situations) are worked out first, and the tables checked against the memory limit, so
    an unsupported game (antes in no-limit, stacks too short or too deep for the menu,
    tables past the limit) is refused at once, not after minutes of building tables.

    Raises:
        SpecError: naming what is wrong with the game.
        GameTooLargeError: a betting tree or tables past the memory limit.
    """
    from pokerlab.blueprint.betting_tree import check_tree, tree_size
    from pokerlab.blueprint.mccfr import check_tables

    recipe = default_recipe(game)
    rules = rules_for(game, recipe.bet_menu)
    try:
        size = tree_size(rules)
    except (OverflowError, ValueError) as exc:
        raise SpecError(f"no default blueprint for {game.spec}: its betting tree cannot be "
                        f"built ({exc})") from None
    check_tree(size)
    counts = (recipe.cards["bucket_counts"] if recipe.cards.get("kind") == "holdem"
              else lossless_holdem(game).bucket_counts)
    check_tables(size, counts)


def preparation_plan(game: Game, cache_dir: str | Path | None = None) -> list[str]:
    """What preparing ``game``'s default blueprint will do, one line a stage, with costs."""
    recipe = default_recipe(game)
    lines = []
    tables = missing_tables(default_recipe(game).cards, cache_dir)
    if tables is not None:
        counts = "/".join(str(c) for c in recipe.cards["bucket_counts"])
        shared = list(recipe.cards["bucket_counts"]) == list(DEFAULT_COUNTS)
        lines.append(f"build the {counts} card tables into {tables.parent} ("
                     + (f"{TABLES_COST}, once for every Texas Hold'em blueprint)" if shared
                        else "not timed alone: three-handed limit's betting tree and these "
                        "tables took about 4 min and 4.6 GB of memory on 2 cores)"))
    rules = getattr(game, "rules", None)
    rate = None if rules is None else TRAINING_RATES.get((rules.n_players, rules.no_limit))
    if recipe.cards.get("kind") != "holdem":
        cost = "a small deck's lossless cards"
    elif rate is not None:
        cost = (f"measured at {rate:,} iterations/s on 2 cores: about "
                f"{math.ceil(recipe.iterations / rate / 60)} min")
    else:
        cost = "not measured for this game"
    lines.append(f"train {recipe.iterations:,} iterations ({cost}) into "
                 f"{default_blueprint_path(game, cache_dir)}")
    return lines


def train_default_blueprint(
    game: Game, cache_dir: str | Path | None = None, *, show_progress: bool = True,
    announce: bool = True,
) -> Path:
    """Train ``game``'s default blueprint into the cache; its path.

    With ``show_progress``, it first says on stderr what it will build and what that costs
    (:func:`preparation_plan`; not with ``announce=False``: the caller said it), then
    shows the card tables' stages and the training
    through the one console runner (:func:`pokerlab.solvers.run_console.run_to_budget`):
    bars on a terminal, a line per long stage elsewhere. Ctrl-C or SIGTERM saves what is
    trained so far beside the cache file (``*.partial.bp``), from which the next first use
    resumes.

    Raises:
        KeyboardInterrupt: when interrupted (after saving the partial blueprint).
    """
    from pokerlab.solvers.run_console import Budget, run_to_budget

    recipe = default_recipe(game)
    path = default_blueprint_path(game, cache_dir)
    partial = path.with_name(path.stem + ".partial.bp")
    check_trainable(game)
    if show_progress and announce:
        _say(f"the Hard AI's default blueprint for {game.spec} is not prepared: preparing "
             f"it now, once ({prepare_command(game)} does it ahead of time):")
        for line in preparation_plan(game, cache_dir):
            _say(f"  - {line}")
    with _table_stages(disable=not show_progress) as report:
        cards = cards_from_spec(game, recipe.cards, cache_dir=cache_dir, progress=report)
    trainer: BlueprintTrainer | None = None
    if partial.exists():
        try:
            trainer, _ = load_blueprint(partial, game=game, cards=cards, cache_dir=cache_dir)
        except (FileFormatError, SpecError):
            trainer = None  # a damaged partial file: start again
    if trainer is None:
        trainer = BlueprintTrainer(
            game, cards, rules_for(game, recipe.bet_menu), seed=recipe.seed,
            prune_after=recipe.prune_after, prune_threshold=recipe.prune_threshold,
            batch=CHUNK,
        )  # fmt: skip
    done = trainer

    def save_partial() -> None:
        save_blueprint(done, partial, cards=recipe.cards, bet_menu=recipe.bet_menu)

    finished = run_to_budget(
        trainer, Budget(iterations=recipe.iterations),
        description=f"training the hard AI's default blueprint for {game.spec} (once)",
        save=save_partial, quiet=not show_progress,
    )  # fmt: skip
    if not finished:
        raise KeyboardInterrupt(f"interrupted; the next use resumes from {partial}")
    saved = save_blueprint(trainer, path, cards=recipe.cards, bet_menu=recipe.bet_menu)
    partial.unlink(missing_ok=True)
    return saved


def _say(text: str) -> None:
    Console(stderr=True, soft_wrap=True).print(text, markup=False, highlight=False)


@contextmanager
def _table_stages(*, disable: bool) -> Iterator[StageCallback]:
    """A bar per stage of a card tables build (a line per long stage off a terminal)."""
    with StageProgress(TextColumn("{task.description}", style="bold", markup=False), BarColumn(),
                       MofNCompleteColumn(), TimeElapsedColumn(), disable=disable) as bar:
        tasks: dict[str, TaskID] = {}

        def report(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(f"card tables: {stage}", total=total)
            bar.update(tasks[stage], completed=done, total=total)

        yield report


class HardAI:
    """Plays a blueprint's average strategy (see the module docstring).

    Args:
        game: the Hold'em game.
        blueprint: a ``.bp`` file for ``game`` (or for the same game with other stacks or
            blinds); None: the default blueprint (trained and cached on first use).
        seed: its randomness; matches reseed it per hand.
        cache_dir: the cache root (default blueprints and their bucket tables; None:
            ``$POKERLAB_CACHE``, else ``~/.cache/pokerlab``).

    Raises:
        SpecError: another game than Hold'em, or a blueprint of a game with other players,
            cards or betting.
        FileFormatError: a missing or damaged blueprint file.
    """

    name = "hard"

    def __init__(
        self,
        game: Game,
        *,
        blueprint: str | Path | None = None,
        seed: np.random.Generator | int | None = None,
        cache_dir: str | Path | None = None,
    ) -> None:
        if game.spec.name != "holdem":
            raise SpecError(f"the hard AI plays holdem games; got {game.spec}")
        if blueprint is None:
            path = default_blueprint_path(game, cache_dir)
            trainer = None
            if path.exists():
                try:
                    trainer, _ = load_blueprint(path, game=game, cache_dir=cache_dir)
                except (FileFormatError, SpecError):
                    trainer = None  # a damaged cache file: train it again
            if trainer is None:
                train_default_blueprint(game, cache_dir)
                trainer, _ = load_blueprint(path, game=game, cache_dir=cache_dir)
            self.blueprint_path = path
        else:
            self.blueprint_path = Path(blueprint)
            trainer, _ = load_blueprint(self.blueprint_path, cache_dir=cache_dir)
            check_similar(trainer.game, game)
        self.game = game
        self.policy = BlueprintPolicy(trainer, game=game,
                                      name=f"hard({self.blueprint_path.stem})")
        self.rng = np.random.default_rng(seed)

    def seed(self, value: int) -> None:
        """Restart the generator from ``value`` (called by matches before each hand)."""
        self.rng = reseed(self.rng, value)

    def check_game(self, game: Game) -> None:
        """Refuse, before a match, a game other than the blueprint's (stacks may differ).

        Raises:
            SpecError: naming both games and what differs.
        """
        if game.spec.name != "holdem":
            raise SpecError(f"the hard AI plays holdem games; it cannot play {game.spec}")
        check_similar(self.game, game)

    def act(self, observation: Observation) -> Action:
        """Sample an action from the blueprint's probabilities at ``observation``."""
        return sample_action(self.policy.action_probabilities(observation), self.rng)


__all__ = [
    "CHUNK",
    "DEFAULT_ITERATIONS",
    "LOSSLESS_LIMIT",
    "MULTIWAY_MENUS",
    "THREE_HANDED_LIMIT_COUNTS",
    "HardAI",
    "Recipe",
    "default_blueprint_path",
    "default_blueprint_ready",
    "default_command",
    "default_recipe",
    "missing_tables",
    "preparation_plan",
    "prepare_command",
    "train_default_blueprint",
]
