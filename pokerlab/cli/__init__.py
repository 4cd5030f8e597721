"""The ``pokerlab`` command: parse arguments, call the library, render with rich.

Each command group lives in its own module under ``pokerlab/cli/`` and exposes
``register(app)``; :data:`COMMAND_MODULES` lists them. The CLI holds no logic of its own.
Errors the library raises on purpose (:class:`~pokerlab.errors.PokerlabError`) become one
line on stderr and exit status 1; usage errors exit 2.
"""

from __future__ import annotations

import importlib
import sys

import typer

from pokerlab.errors import PokerlabError

COMMAND_MODULES: tuple[str, ...] = (
    "games",
    "matrix",
    "plot",
    "equity",
    "demo",
    "lp",
    "solve",
    "abstract",
    "inspect",
    "arena",
    "study",
    "play",
    "spot",
)

app = typer.Typer(
    name="pokerlab",
    help="Define, solve, evaluate and play poker games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

_registered = False


def build_app() -> typer.Typer:
    """Return the app with every command module registered (once)."""
    global _registered
    if not _registered:
        _registered = True
        for name in COMMAND_MODULES:
            module = importlib.import_module(f"pokerlab.cli.{name}")
            module.register(app)
    return app


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; return the exit status (also the console script's entry point)."""
    command = typer.main.get_command(build_app())
    try:
        result = command.main(args=argv, prog_name="pokerlab", standalone_mode=False)
    except PokerlabError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except typer.Exit as exc:
        return int(exc.exit_code or 0)
    except typer.Abort:
        print("aborted", file=sys.stderr)
        return 1
    except Exception as exc:
        # Usage errors (typer ships its own copy of click, so match them by behaviour).
        show = getattr(exc, "show", None)
        code = getattr(exc, "exit_code", None)
        if callable(show) and isinstance(code, int):
            show(file=sys.stderr)
            return code
        raise
    return result if isinstance(result, int) else 0


def entry_point() -> None:
    """Console-script entry point."""
    sys.exit(main())
