"""The ``pokerlab`` command: parse arguments, call the library, render with rich.

Each command module under ``pokerlab/cli/`` exposes ``register(app)``, which adds its
commands to a typer app. :data:`COMMAND_MODULES` is the one place that lists them: for
each module, the top-level commands it adds and the one line ``pokerlab --help`` shows for
each. The top-level group reads that table and imports a module only when one of its
commands runs (or its own ``--help`` is asked), so ``pokerlab --help`` and ``pokerlab games
list`` start without loading numba, scipy or matplotlib (tests/cli/test_startup.py checks
it, and that the table says what the modules register).

The CLI holds no logic of its own. Errors the library raises on purpose
(:class:`~pokerlab.errors.PokerlabError`) become one line on stderr and exit status 1;
usage errors exit 2. Help is click's plain layout (wrapped to the terminal, never cut).
"""

from __future__ import annotations

import functools
import importlib
import signal
import sys
import threading
from difflib import get_close_matches
from inspect import cleandoc  # (not `import inspect`: pokerlab.cli.inspect would shadow it)

import typer
from typer import _click as click  # typer ships its own copy of click
from typer.core import TyperCommand, TyperGroup

from pokerlab.errors import PokerlabError

COMMAND_MODULES: dict[str, dict[str, str]] = {
    "games": {"games": "List the games and show their sizes."},
    "matrix": {"matrix": "Normal-form games: dominance, equilibria, zero-sum LP, regret matching."},
    "solve": {"solve": "Solve GAME with --algorithm; print the summary; save it to --out."},
    "lp": {"lp": "Solve GAME (two-player, zero-sum) exactly by the sequence-form LP."},
    "abstract": {"abstract": "Solve an abstraction of GAME and lift its strategy back to GAME."},
    "inspect": {
        "exploit": "Print FILE's exploitability and each seat's best-response value.",
        "value": "Print the exact value of each seat: FILE in every seat, or FILE as P1 and "
        "FILE2 as P2.",
        "show": "Print FILE's strategy as a table (or --json / --csv), optionally filtered.",
    },
    "equity": {
        "equity": "Print each player's equity (win + tie share), exact when cheap, else Monte "
        "Carlo."
    },
    "plot": {"plot": "Plots: convergence of solvers, regret matching."},
    "demo": {"demo": "Show the games, then the tutorial's results, solved on the spot."},
    "match": {
        "match": "Play a duplicate match; print each agent's mean, its interval and its AIVAT "
        "estimate."
    },
    "hands": {
        "hands": "Hand histories: export arena runs and ACPC logs to PHH, import PHH, AIVAT."
    },
    "arena": {"arena": "Round-robin tournaments stored in SQLite, and their leaderboard."},
    "study": {
        "study": "Studies: the challenge, (safe) exploitation, tree search, push/fold, the "
        "tutorial's aids, three players, AIVAT."
    },
    "play": {"play": "Play poker in the terminal against the AIs (Hold'em, Kuhn, Leduc)."},
    "spot": {
        "spot": "Hold'em spots: solve range vs range, show the solution, report over many flops."
    },
    "blueprint": {
        "blueprint": "Train Hold'em blueprints (ES-MCCFR on an abstraction) and describe them."
    },
    "lbr": {"lbr": "Play local best response against AGENT; print its winnings in mbb/hand."},
    "bots": {"bots": "The built-in agents (bots): list them, prepare them."},
    "acpc": {"acpc": "Play Hold'em over the ACPC protocol: a dealer on loopback, a client."},
    "serve": {
        "serve": "Serve the browser app: tables against the AIs, strategy explorer, arena, "
        "spots."
    },
}
"""Module name (``pokerlab/cli/<name>.py``) -> {command it registers: its one-line help}.

Add a command module here, and only here. The help is the first paragraph of the command's
own help; a test compares the two."""

HELP = "Define, solve, evaluate and play poker games."


@functools.cache
def module_commands(module_name: str) -> dict[str, click.Command]:
    """Import ``pokerlab.cli.<module_name>`` and return the commands its ``register`` adds.

    Cached: each module is imported and registered once per process.
    """
    module = importlib.import_module(f"pokerlab.cli.{module_name}")
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    module.register(app)
    group = typer.main.get_group(app)
    _plain_help(group)
    return dict(group.commands)


def _plain_help(command: click.Command) -> None:
    """Give ``command`` and its subcommands click's plain help layout, never cut.

    Typer's rich layout cuts long option names with an ellipsis at 80 columns; click's
    wraps the descriptions and never cuts a name. A group lists each subcommand with the
    first paragraph of its help, wrapped (click would cut it to one line with "...").
    """
    if hasattr(command, "rich_markup_mode"):
        command.rich_markup_mode = None
    if command.short_help is None and command.help:
        command.short_help = first_paragraph(command.help)
    for sub in getattr(command, "commands", {}).values():
        _plain_help(sub)


def first_paragraph(text: str) -> str:
    r"""The first paragraph of a help text, on one line.

    Example:
        >>> first_paragraph("Solve GAME.\n\n    Iterative solvers show a bar.")
        'Solve GAME.'
    """
    return " ".join(cleandoc(text).split("\n\n")[0].split())


def _print_version(value: bool) -> None:
    """``pokerlab --version``: print the version and stop."""
    if value:
        from pokerlab._version import __version__

        print(f"pokerlab {__version__}")
        raise typer.Exit(0)


def _version_options() -> list[click.core.Parameter]:
    """The ``--version`` option, as typer builds it (eager: it acts before any command)."""
    app = typer.Typer(add_completion=False)

    @app.callback()
    def version(
        show: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                  help="Show pokerlab's version and exit."),
    ) -> None:
        """Unused: only its option is taken."""

    @app.command()
    def unused() -> None:
        """Unused."""

    return list(typer.main.get_group(app).params)


class LazyGroup(TyperGroup):
    """The top-level ``pokerlab`` group: knows the commands from :data:`COMMAND_MODULES`.

    Listing them (``pokerlab --help``) imports no command module; running one, or asking
    for its own ``--help``, imports only its module.
    """

    def __init__(self, table: dict[str, dict[str, str]]) -> None:
        super().__init__(name="pokerlab", help=HELP, no_args_is_help=True, rich_markup_mode=None,
                         params=_version_options())
        self._module_of = {name: module for module, names in table.items() for name in names}
        self._summary = {name: text for names in table.values() for name, text in names.items()}
        self._listing = False

    def invoke(self, ctx: click.Context) -> object:
        """Run the command; Ctrl-C (or SIGTERM) that the command does not handle says so."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr)
            raise typer.Exit(130) from None

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The command names in the table's order."""
        return list(self._module_of)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The real command (its module imported), or a summary while the help is listed."""
        module = self._module_of.get(cmd_name)
        if module is None:
            return None
        if self._listing:
            summary = self._summary[cmd_name]
            return TyperCommand(cmd_name, help=summary, short_help=summary)
        commands = module_commands(module)
        if cmd_name not in commands:
            raise RuntimeError(
                f"pokerlab.cli.{module} does not register the command {cmd_name!r} that "
                "COMMAND_MODULES lists for it"
            )
        return commands[cmd_name]

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Print the help with the table's one-line summaries (no module imported)."""
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """Find the command named by ``args[0]``; suggest close names for a typo."""
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.UsageError as exc:
            matches = get_close_matches(args[0], self.list_commands(ctx)) if args else []
            if matches and "Did you mean" not in exc.message:
                suggestions = ", ".join(repr(m) for m in matches)
                exc.message = f"{exc.message.rstrip('.')}. Did you mean {suggestions}?"
            raise


def build_command() -> LazyGroup:
    """The top-level click group over :data:`COMMAND_MODULES` (read when called)."""
    return LazyGroup(COMMAND_MODULES)


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM stops a command as Ctrl-C does (commands that checkpoint catch both)."""
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; return the exit status (also the console script's entry point).

    SIGTERM is handled as Ctrl-C: a command that checkpoints on Ctrl-C (solve, arena,
    spot) does so on SIGTERM too, and any other stops with "interrupted" and status 130;
    files are written atomically, so none is left half written.
    """
    command = build_command()
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        return _run(command, argv)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _run(command: LazyGroup, argv: list[str] | None) -> int:
    try:
        result = command.main(args=argv, prog_name="pokerlab", standalone_mode=False)
    except PokerlabError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # a file the system refused: say which, in one line
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except SystemError as exc:
        # Ctrl-C or SIGTERM landing inside a compiled (numba) call surfaces as a SystemError
        # caused by the KeyboardInterrupt: the same interruption.
        if not isinstance(exc.__cause__, KeyboardInterrupt):
            raise
        print("interrupted", file=sys.stderr)
        return 130
    except typer.Exit as exc:
        return int(exc.exit_code or 0)
    except typer.Abort:
        print("aborted", file=sys.stderr)
        return 1
    except click.exceptions.ClickException as exc:
        exc.show(file=sys.stderr)
        return exc.exit_code
    return result if isinstance(result, int) else 0


def entry_point() -> None:
    """Console-script entry point."""
    sys.exit(main())
