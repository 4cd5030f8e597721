"""Helpers shared by the CLI modules: the consoles, loading games, JSON, paths and counts.

Both consoles soft-wrap: a line of text is printed whole and the terminal folds it, so a
path is never broken by a newline in the middle (a user copies it; a test greps it).
Tables and panels still fit the terminal's width.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import numpy as np
import typer
from rich.console import Console

from pokerlab.errors import FileFormatError, PokerlabError, SpecError
from pokerlab.games import Game, load, matrix_from_file

if TYPE_CHECKING:
    from pokerlab.agents.resolve import Entrant

JsonOption = Annotated[bool, typer.Option("--json", help="Print the result as JSON on stdout.")]
"""The ``--json`` flag of the commands that can print their result as JSON."""

UnsafeInProcessOption = Annotated[
    bool,
    typer.Option(
        "--unsafe-in-process",
        help="UNSAFE, for debugging your own bot: import entrant .py files into this process "
        "instead of a sandbox (the file can then do anything this process can: read your "
        "files, use the network, change pokerlab).",
    ),
]
"""The flag that runs entrant files in process; without it they are always sandboxed."""

TrustEntrantsOption = Annotated[
    bool,
    typer.Option(
        "--trust-entrants",
        help="Run entrant files and programs even where this machine cannot isolate them "
        "(not root, no user namespaces or cgroups): they then run in plain processes with "
        "resource limits only, and can read and write what you can. Without it they are "
        "refused there, naming what is missing.",
    ),
]
"""The flag that accepts weaker isolation of entrants where the machine lacks a mechanism."""

DropCachesOption = Annotated[
    bool,
    typer.Option(
        "--drop-caches",
        help="Require dropping the machine's page, dentry and inode caches between the legs "
        "of each match with an entrant file or program (root): an entrant's first-leg process "
        "could leave its cards in them for its second-leg process, which then holds the other "
        "seat of the same deals. Done by default wherever the machine allows it (default: "
        "$POKERLAB_DROP_CACHES, yes, no or auto); with this flag a machine that cannot is "
        "refused. Every process on the machine reads its files "
        "again (about 2 s a leg on a 2-core VM).",
    ),
]
"""``--drop-caches``: refuse a machine where the caches cannot be dropped between legs."""

NoDropCachesOption = Annotated[
    bool,
    typer.Option(
        "--no-drop-caches",
        help="Never drop the machine's caches between legs (faster; the caches then stay a "
        "channel from an entrant's first leg to its second: see docs/entrants.md).",
    ),
]
"""``--no-drop-caches``: keep the machine's caches between legs."""


def drop_caches_choice(drop: bool, keep: bool, entrants: Sequence[Entrant]) -> bool | None:
    """The ``drop_caches`` of ``--drop-caches``/``--no-drop-caches`` (None: where possible).

    Says on standard error, once, when entrants that may learn will play legs whose
    caches stay shared because the machine cannot drop them (and no flag chose that).

    Raises:
        PokerlabError: both flags given.
    """
    from pokerlab.play.containment import can_drop_host_caches, drop_caches_setting

    if drop and keep:
        raise PokerlabError("--drop-caches and --no-drop-caches exclude each other; give one")
    if drop or keep:
        return drop
    learning = any(e.may_learn and e.sandboxed for e in entrants)
    if learning and drop_caches_setting() is None and not can_drop_host_caches():
        err_console.print("note: the machine's caches cannot be dropped between legs here "
                          "(not root): an entrant's first-leg process can pass what it saw "
                          "to its second-leg process through them (docs/entrants.md); "
                          "--no-drop-caches silences this")
    return None


SecretSeedOption = Annotated[
    int | None,
    typer.Option(
        "--seed",
        min=0,
        help="Seed of the deals, for reproducible research (default: a secret one drawn "
        "from the operating system, reported at the end so the deals can be replayed). "
        "Entrants who know a seed can predict the cards: never give one to a contest.",
    ),
]
"""``--seed``: None draws a fresh secret seed (:func:`~pokerlab.play.deals.fresh_seed`)."""

GameArgument = Annotated[
    str,
    typer.Argument(
        metavar="GAME",
        help="A game spec: 'kuhn', 'leduc(stack=50, raise_cap=None)', "
        "'holdem(betting=\"limit\")' (pokerlab games list shows every game and parameter).",
    ),
]
"""The game argument of every command that takes one."""

CacheDirOption = Annotated[
    Path | None,
    typer.Option(
        "--cache-dir",
        help="Cache root: solver bots and default blueprints go in its bots/ folder, card "
        "tables in abstraction/ (default $POKERLAB_CACHE, else ~/.cache/pokerlab).",
    ),
]
"""``--cache-dir``: the cache root (:func:`pokerlab._cache.cache_root`), in every command."""


def _width(stream: object) -> int | None:
    """The terminal's width, or 160 columns when output goes to a pipe or a file.

    Rich falls back to 80 columns without a terminal, which squeezes wide tables into
    ellipses exactly when a user saves the output.
    """
    isatty = getattr(stream, "isatty", None)
    if os.environ.get("COLUMNS") or (callable(isatty) and isatty()):
        return None
    return 160


console = Console(width=_width(sys.stdout), soft_wrap=True, markup=False, emoji=False)
"""Results go to stdout. Text is printed as it is, never read as rich markup or emoji codes:
names, paths and errors come from users and entrants (``[/]`` in a name made rich raise
out of a tournament; ``[bold]alice.py`` showed as ``alice``). Styles come from rich's
objects (``Text``, a column's ``style``), not from markup in strings."""

err_console = Console(stderr=True, width=_width(sys.stderr), soft_wrap=True, markup=False,
                      emoji=False)
"""Progress and logs go to stderr (plain text, as :data:`console`)."""


def path_text(path: Path | str) -> str:
    r"""``path`` as the text a console prints (the consoles read no markup: nothing to escape).

    Example:
        >>> print(path_text("runs/[best]/a.npz"))
        runs/[best]/a.npz
    """
    return str(path)


def plural(count: int, noun: str, plural_noun: str | None = None) -> str:
    """``count`` and ``noun`` in agreement: ``"1 hand"``, ``"2 hands"``, ``"1,000 hands"``.

    The plural adds "s", or "es" after s, x, z, ch and sh, and turns a final consonant + y
    into "ies"; pass ``plural_noun`` for any other.

    Example:
        >>> plural(1, "hand"), plural(0, "hand"), plural(12000, "iteration")
        ('1 hand', '0 hands', '12,000 iterations')
        >>> plural(2, "match"), plural(3, "history"), plural(2, "day"), plural(1, "match")
        ('2 matches', '3 histories', '2 days', '1 match')
    """
    if count == 1:
        return f"{count:,} {noun}"
    if plural_noun is None:
        if noun.endswith(("s", "x", "z", "ch", "sh")):
            plural_noun = noun + "es"
        elif noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u"):
            plural_noun = noun[:-1] + "ies"
        else:
            plural_noun = noun + "s"
    return f"{count:,} {plural_noun}"


def load_game(text: str) -> Game:
    """A game from a spec string (``"leduc(stack=50)"``) or a matrix file path.

    Raises:
        FileFormatError: if ``text`` is a folder, or a ``.csv`` / ``.json`` file that does
            not exist or cannot be read.
        SpecError: if ``text`` is not a game the registry knows.
    """
    if not text.strip():
        raise SpecError("the game is empty; a game is a spec like 'leduc(stack=50)' or a "
                        "matrix file (.csv or .json): pokerlab games list shows them")
    path = Path(text)
    if text.endswith((".csv", ".json")) and not path.is_dir():
        return matrix_from_file(path)
    try:
        return load(text)
    except SpecError:
        if not path.exists():
            raise
        kind = "a folder" if path.is_dir() else "a file but not a .csv or .json matrix file"
        raise FileFormatError(
            f"{text} is {kind}; a game is a spec like 'leduc(stack=50)' or a matrix file "
            "(.csv or .json)"
        ) from None


def resolve_entrant(
    text: str, game: Game, *, seed: int | np.random.Generator | None = None,
    in_process: bool = False,
    cache_dir: Path | None = None, option: str = "agent", trust: bool = False,
) -> Entrant:
    """The entrant ``text`` names, through the one resolver (:mod:`pokerlab.agents.resolve`).

    Raises:
        SpecError: a text that names nothing, or an entrant that does not load; the
            message starts with ``option`` (``--opponent``, ``agent``).
    """
    from pokerlab.agents.resolve import resolve_agent
    from pokerlab.play.names import printable

    try:
        entrant = resolve_agent(text, game, seed=seed, in_process=in_process,
                                cache_dir=cache_dir, trust=trust)
        if entrant.factory is None:
            raise SpecError(f"agent {text!r}: {entrant.error}")
    except SpecError as error:
        message = str(error)
        if option != "agent" and message.startswith(f"agent {text!r}"):
            message = f"{option} {printable(text)}" + message[len(f"agent {text!r}"):]
        raise SpecError(message) from None
    return entrant


def build_agent(
    text: str, game: Game, *, seed: int | np.random.Generator | None = None,
    in_process: bool = False,
    cache_dir: Path | None = None, option: str = "agent", trust: bool = False,
) -> object:
    """The agent ``text`` names, through the one resolver (:mod:`pokerlab.agents.resolve`).

    Raises:
        SpecError: a text that names nothing, or an entrant that does not load; the
            message starts with ``option`` (``--opponent``, ``agent``).
    """
    return resolve_entrant(text, game, seed=seed, in_process=in_process, cache_dir=cache_dir,
                           option=option, trust=trust).build(game)


def close_agents(agents: list[object]) -> None:
    """Close the agents that are transports (sandboxed entrants hold a process)."""
    from pokerlab.play.dealer import AgentConnection

    for agent in agents:
        if isinstance(agent, AgentConnection):
            agent.close()


def print_json(data: Any) -> None:
    """Print ``data`` as indented JSON on stdout."""
    sys.stdout.write(json.dumps(data, indent=2, default=_default) + "\n")


def _default(value: Any) -> Any:
    import numpy as np

    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def check_input_file(path: Path, what: str = "strategy file") -> None:
    """Refuse an input path that is missing or a folder, naming which.

    Raises:
        FileFormatError: if ``path`` does not exist or is a folder.
    """
    if path.is_dir():
        raise FileFormatError(f"{path} is a folder; give the {what} to read")
    if not path.exists():
        raise FileFormatError(f"{what} {path} does not exist")


def check_output_path(path: Path, *, option: str = "--out", folder: bool = False) -> None:
    """Refuse an output path that cannot be written, before any work is done.

    A file to write must not be a folder; a folder to write into must not be a file; and
    no existing ancestor may be a file (``notes.txt/out.npz``).

    Raises:
        FileFormatError: naming the path and what is in the way.
    """
    if folder and path.exists() and not path.is_dir():
        raise FileFormatError(f"{option} {path} is a file; give a folder to write into")
    if not folder and path.is_dir():
        raise FileFormatError(f"{option} {path} is a folder; give the name of a file to write")
    for parent in ([path] if folder else []) + list(path.parents):
        if parent.exists():
            if not parent.is_dir():
                raise FileFormatError(f"{option} {path}: {parent} is a file, not a folder")
            _check_writable(parent, option, path)
            break


def _check_writable(folder: Path, option: str, path: Path) -> None:
    """Create and remove a file in ``folder``, or refuse the path.

    The only test that read-only mounts and permissions both answer truly (``os.access``
    says yes to root on a read-only disk).
    """
    try:
        handle, probe = tempfile.mkstemp(prefix=".pokerlab-probe-", dir=folder)
    except OSError as exc:
        raise FileFormatError(
            f"{option} {path}: cannot write in {folder} ({exc.strerror or exc})"
        ) from None
    os.close(handle)
    os.unlink(probe)
