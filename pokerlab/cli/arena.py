"""``pokerlab arena``: run a tournament, check an entrant, print a leaderboard.

``pokerlab arena run GAME --agents DIR --builtins solver,random --hands 1000 --db arena.db``
plays every table of entrants (the ``*.py`` files of DIR defining class ``Agent``, each in
a sandboxed process of its own, plus the built-ins) with the seats rotated over shared
deals, ``hands`` hands per seat, storing every hand in the SQLite database; ``--resume``
continues the latest run of the database after a crash, Ctrl-C or SIGTERM. ``--backend ray``
plays the matches on Ray workers (``--address``, ``--workers``; docs/scaling.md), the
database written here alone, with the same hands.
``--exec NAME=PATH`` (repeatable) adds a program in any language that speaks the ACPC
protocol on its standard streams (docs/acpc.md), on Hold'em games, sandboxed the same way.
``pokerlab arena check-agent FILE --game GAME`` tries an entrant as the arena would.
``pokerlab arena leaderboard --db arena.db`` prints the standings (``--json`` for machines);
``--aivat`` adds each agent's AIVAT-corrected score (``--policy NAME=FILE.npz`` names the
policy an entrant truly played, for AIVAT's action terms).
"""

from __future__ import annotations

import dataclasses
import math
import shlex
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from pokerlab.arena import (
    Entrant,
    Leaderboard,
    TournamentProgress,
    builtin_entrants,
    file_entrants,
    leaderboard,
    run_tournament,
)
from pokerlab.cli._common import (
    CacheDirOption,
    DropCachesOption,
    GameArgument,
    JsonOption,
    NoDropCachesOption,
    SecretSeedOption,
    TrustEntrantsOption,
    console,
    drop_caches_choice,
    err_console,
    load_game,
    path_text,
    plural,
    print_json,
)
from pokerlab.cli._progress import StageProgress
from pokerlab.errors import PokerlabError

DbOption = Annotated[Path, typer.Option("--db", help="The SQLite database of the arena.")]
TimeLimitOption = Annotated[
    float,
    typer.Option(
        "--time-limit",
        min=0.001,
        max=604_800.0,
        help="Seconds allowed per decision (at most a week); a slower agent gets the default "
        "action.",
    ),
]


def register(app: typer.Typer) -> None:
    """Add the ``arena`` command group to ``app``."""
    group = typer.Typer(
        name="arena",
        help="Round-robin tournaments stored in SQLite, and their leaderboard.",
        no_args_is_help=True,
    )
    group.command("run")(run_command)
    group.command("leaderboard")(leaderboard_command)
    group.command("check-agent")(check_agent_command)
    app.add_typer(group, name="arena")


@contextmanager
def _interrupts() -> Iterator[None]:
    """SIGTERM stops a run like Ctrl-C (KeyboardInterrupt), between two stored batches."""

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_command(
    game: GameArgument,
    agents: Annotated[
        Path | None, typer.Option("--agents", help="A folder of agent files (.py defining "
                                   "Agent) and policy files (.npz, .bp, .pt).")
    ] = None,
    builtins: Annotated[
        str,
        typer.Option(
            "--builtins",
            help="Comma-separated built-in agents (pokerlab bots list): random, always-call, "
            "always-raise, rule-based, easy, hard-seed, hard, hard-search, hard-offmenu, ehs, "
            "ehs-threshold, exploitative, "
            "solver (CFR+ 10,000 it.), solvers (all five), cfr+N.",
        ),
    ] = "",
    executables: Annotated[
        list[str] | None,
        typer.Option("--exec", metavar="NAME=PATH", help="An executable that speaks the ACPC "
                     "protocol on stdin/stdout (any language; Hold'em games); NAME= is "
                     "optional (default: the file's name). Repeatable."),
    ] = None,
    hands: Annotated[int, typer.Option("--hands", min=1, help="Hands per seat per table.")] = 1000,
    db: DbOption = Path("arena.db"),
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue the latest run of the database.")
    ] = False,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", min=0,
            help="The run's seed, for reproducible research. Default: a fresh secret seed "
            "from the operating system, stored in the database (resume and audits read it "
            "back). A seed that is known lets every entrant that knows it predict the cards: "
            "never give one to a contest.",
        ),
    ] = None,
    time_limit: TimeLimitOption = 10.0,
    batch: Annotated[
        int | None,
        typer.Option("--batch", help="Hands per transaction, whole deals (default about 100)."),
    ] = None,
    cache_dir: CacheDirOption = None,
    backend: Annotated[
        str,
        typer.Option("--backend", help="Where matches play: local (this process) or ray "
                     "(Ray workers; pip install 'pokerlab[ray]')."),
    ] = "local",
    address: Annotated[
        str | None,
        typer.Option("--address", help="With --backend ray: the cluster, auto or HOST:PORT "
                     "(default: start Ray on this machine)."),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option("--workers", min=1, help="With --backend ray: worker processes "
                     "(default: the cluster's CPUs)."),
    ] = None,
    json: JsonOption = False,
    trust: TrustEntrantsOption = False,
    drop_caches: DropCachesOption = False,
    keep_caches: NoDropCachesOption = False,
) -> None:
    """Play every table of agents, seats rotated over shared deals, and store every hand.

    Entrant files play from sandboxed processes of their own (see docs/entrants.md).
    Ctrl-C or SIGTERM stops the run between two stored batches and prints the command
    that resumes it; a killed run resumes the same way.
    """
    from pokerlab.play.sandbox import SandboxLimits

    runner = _runner(backend, address, workers)
    the_game = load_game(game)
    entrants: list[Entrant] = []
    limits = SandboxLimits(decision_seconds=time_limit, trusted=trust)
    if agents is not None:
        entrants += file_entrants(agents, the_game, limits=limits)
    if executables:
        entrants += _executable_entrants(executables, the_game, limits)
    for name in (n.strip() for n in builtins.split(",")):
        if name:
            entrants += builtin_entrants(name, game=the_game, cache_dir=cache_dir)
    for entrant in entrants:
        if entrant.error is not None:
            err_console.print(Text.assemble(("left out", "red"), f" {entrant.source}: "
                                            f"{entrant.error}"))
    interactive = sys.stderr.isatty() and not json
    drop = drop_caches_choice(drop_caches, keep_caches, entrants)
    try:
        with _interrupts():
            result = _run(the_game, entrants, interactive, db=db, hands=hands, seed=seed,
                          resume=resume, batch_size=batch, time_limit=time_limit,
                          runner=runner, drop_caches=drop)
    except KeyboardInterrupt:
        command = ["pokerlab", "arena", "run", game]
        if agents is not None:
            command += ["--agents", str(agents)]
        for item in executables or []:
            command += ["--exec", item]
        if builtins:
            command += ["--builtins", builtins]
        command += ["--hands", str(hands), "--db", str(db)]
        command += ["--seed", str(seed)] if seed is not None else []  # else: stored, secret
        command += ["--time-limit", f"{time_limit:g}"]
        command += ["--trust-entrants"] if trust else []
        command += ["--drop-caches"] if drop_caches else []
        command += ["--no-drop-caches"] if keep_caches else []
        if cache_dir is not None:
            command += ["--cache-dir", str(cache_dir)]
        if runner is not None:
            command += ["--backend", backend]
            command += ["--address", address] if address is not None else []
            command += ["--workers", str(workers)] if workers is not None else []
        err_console.print(
            f"interrupted: every finished batch is stored in {path_text(db)}\n"
            f"resume with: {path_text(shlex.join([*command, '--resume']))}"
        )
        raise typer.Exit(130) from None
    board = leaderboard(db, run_id=result.run_id)
    if json:
        print_json({"run": result.run_id, "hands_played": result.hands_played,
                    "leaderboard": board.to_dict()})
        return
    err_console.print(
        f"run {result.run_id}: {plural(result.matches, 'match')}, "
        f"{plural(result.hands_played, 'hand')} played now, stored in {path_text(result.db)}"
    )
    _print_board(board)


def _executable_entrants(items: list[str], game: Any, limits: Any) -> list[Entrant]:
    """The entrants of ``--exec [NAME=]PATH`` options: ACPC programs, each probed once.

    A program that does not start or announce ``VERSION:2.0`` becomes an entrant with its
    error set (reported and left out), as a Python file that does not load.

    Raises:
        SpecError: an empty name or path, or a game that is not Hold'em (the protocol
            carries Hold'em match states only).
    """
    from pokerlab.agents.resolve import resolve_agent
    from pokerlab.errors import SpecError
    from pokerlab.games.holdem_state import HoldemGame
    from pokerlab.play.names import check_name, printable

    if not isinstance(game, HoldemGame):
        raise SpecError(f"--exec entrants play ACPC match states, so Hold'em games only; "
                        f"got {game.spec}")
    out = []
    for item in items:
        name, sep, path = item.partition("=")
        if not sep:
            name, path = "", item
        if not path or (sep and not name):
            raise SpecError(f"--exec takes NAME=PATH or PATH; got {item!r}")
        if name:  # shown and stored as a file's name is: the same rule
            check_name(name, f"--exec {printable(item)!r}")
        try:
            entrant = resolve_agent(path, game, limits=limits)
            if entrant.kind != "executable":
                raise SpecError(f"{path!r} is not an executable program (a file with the "
                                "execute permission, or a script starting with #!)")
        except SpecError as error:  # like a Python file that does not load: left out
            entrant = Entrant(printable(Path(path).name), printable(path), None, str(error),
                              kind="executable", sandboxed=True)
        out.append(dataclasses.replace(entrant, name=name) if name else entrant)
    return out


def _runner(backend: str, address: str | None, workers: int | None) -> Any:
    """The match runner of ``--backend`` (None: local); Ray is imported only for ``ray``."""
    if backend not in ("local", "ray"):
        raise PokerlabError(f"--backend must be local or ray; got {backend!r}")
    if backend == "local":
        if address is not None or workers is not None:
            raise PokerlabError("--address and --workers go with --backend ray; add it, or "
                                "drop them to play here")
        return None
    from pokerlab.arena.ray_backend import ray_runner

    return ray_runner(address=address, workers=workers)


def _run(game: Any, entrants: list[Entrant], interactive: bool, **options: Any) -> Any:
    """Run the tournament with a progress bar on a terminal, a line per match elsewhere."""
    if not interactive:
        def line(p: TournamentProgress) -> None:
            if p.hands_done == p.hands_total:
                err_console.print(f"match {p.match_index + 1}/{p.n_matches} "
                                  f"{' vs '.join(p.names)}: {plural(p.hands_total, 'hand')} "
                                  "stored")

        return run_tournament(game, entrants, progress=line, **options)
    with StageProgress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
        TimeRemainingColumn(), transient=True,
    ) as bar:
        task = bar.add_task("arena", total=None)

        def report(p: TournamentProgress) -> None:
            bar.update(
                task,
                description=f"match {p.match_index + 1}/{p.n_matches} {' vs '.join(p.names)}",
                completed=p.hands_done,
                total=p.hands_total,
            )

        return run_tournament(game, entrants, progress=report, **options)


def check_agent_command(
    file: Annotated[Path, typer.Argument(help="The entrant's Python file (class Agent).")],
    game: Annotated[str, typer.Option("--game", help="The game to try it on.")] = "leduc",
    hands: Annotated[int, typer.Option("--hands", min=1, help="Hands to play.")] = 300,
    time_limit: TimeLimitOption = 1.0,
    seed: SecretSeedOption = None,
    json: JsonOption = False,
    trust: TrustEntrantsOption = False,
) -> None:
    """Try an entrant as the arena would: its own process, its limits, random opponents."""
    from pokerlab.play.names import printable
    from pokerlab.testing import check_agent

    report = check_agent(file, load_game(game), hands=hands, seed=seed, time_limit=time_limit,
                         trust=trust)
    if json:
        print_json({**{k: v for k, v in vars(report).items() if k != "log"},
                    "log": report.log[:4000]})
    else:
        # The path, the faults and the entrant's own output may hold escapes: shown escaped.
        console.print("\n".join(printable(line) for line in str(report).splitlines()),
                      soft_wrap=True, markup=False)
        if report.log:
            console.print("what it printed (first lines):", markup=False)
            console.print("\n".join(printable(line) for line in report.log.splitlines()[:10]),
                          soft_wrap=True, markup=False)
    if not report.ok:
        raise typer.Exit(1)


def leaderboard_command(
    db: DbOption = Path("arena.db"),
    run: Annotated[int | None, typer.Option("--run", help="The run (default: the latest).")] = None,
    json: JsonOption = False,
    aivat: Annotated[
        bool, typer.Option("--aivat", help="Add AIVAT-corrected scores with their intervals "
                           "(games that compile, Texas Hold'em with 2 to 6 seats).")
    ] = False,
    policy: Annotated[
        list[str] | None,
        typer.Option("--policy", metavar="NAME=FILE.npz", help="The strategy an agent truly "
                     "played, for AIVAT's action terms (repeatable)."),
    ] = None,
    reference: Annotated[
        str | None,
        typer.Option("--reference", metavar="AGENT", help="With --aivat on games that "
                     "compile: the profile of unknown agents in AIVAT's values, a built-in "
                     "with a policy (e.g. cfr+1000) or a strategy .npz (default: uniform)."),
    ] = None,
) -> None:
    """Print the standings (shared places when not significantly different) and head to head."""
    policies = _policies(db, run, policy or []) if policy else None
    profile = _reference(db, run, reference) if reference else None
    if aivat or policy or reference:
        with StageProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), transient=True) as bar:
            task = bar.add_task("AIVAT estimates", total=None)
            board = leaderboard(
                db, run_id=run, aivat=True, policies=policies, reference=profile,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
    else:
        board = leaderboard(db, run_id=run)
    if json:
        print_json(board.to_dict())
        return
    _print_board(board)


def _policies(db: Path, run: int | None, items: list[str]) -> dict[str, Any]:
    """``--policy NAME=FILE.npz`` options as name -> strategy on the run's game.

    Raises:
        SpecError: an option without ``=``, or a file that is missing or of another game.
    """
    from pokerlab.agents.resolve import load_file_policy
    from pokerlab.arena.store import ArenaStore
    from pokerlab.errors import SpecError

    with ArenaStore(db, readonly=True) as store:
        game = load_game(store.run(run).game)
    out: dict[str, Any] = {}
    for item in items:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            raise SpecError(f"--policy takes NAME=FILE.npz; got {item!r}")
        if not Path(path).is_file():
            raise SpecError(f"--policy {item}: the strategy file does not exist")
        out[name] = load_file_policy(path, game)
    return out


def _reference(db: Path, run: int | None, text: str) -> Any:
    """``--reference``: a strategy file or a built-in's policy, on the run's game.

    Raises:
        SpecError: a missing file, or a built-in without a fixed policy on the game.
    """
    from pokerlab.agents.policy_agent import PolicyAgent
    from pokerlab.agents.resolve import resolve_policy
    from pokerlab.arena.store import ArenaStore
    from pokerlab.errors import SpecError
    from pokerlab.eval.aivat import known_policy
    from pokerlab.play.names import printable

    with ArenaStore(db, readonly=True) as store:
        game = load_game(store.run(run).game)
    try:
        agent = PolicyAgent(resolve_policy(text, game), seed=0)
    except SpecError as error:
        raise SpecError(f"--reference {printable(text)}: {error}") from None
    if known_policy(game, agent) is None:
        raise SpecError(f"--reference {printable(text)}: it exposes no fixed policy on "
                        f"{game.spec}")
    return agent.policy


def _print_board(board: Leaderboard) -> None:
    title = f"run {board.run_id}: {board.game}" + ("" if board.complete else " (incomplete)")
    if board.empty:
        console.print(f"{title}: no hand has been played yet")
        return
    table = Table(title=title, caption="ranked by the mean of each agent's results at its "
                  "tables")
    columns = ["place", "agent", board.unit, f"{board.confidence:.0%} interval"]
    if board.aivat is not None:
        columns += ["AIVAT", "AIVAT interval"]
    for column in (*columns, "matches", "hands", "faults"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    digits = 1 if board.unit == "mbb/hand" else 4
    for s in board.standings:
        e = s.estimate
        interval = "-" if not e.n else f"[{e.low:+.{digits}f}, {e.high:+.{digits}f}]"
        mean = "-" if not e.n else f"{e.mean:+.{digits}f}"
        corrected = []
        if board.aivat is not None:
            a = s.aivat
            ok = a is not None and a.n > 0
            corrected = [f"{a.mean:+.{digits}f}" if ok and a else "-",
                         f"[{a.low:+.{digits}f}, {a.high:+.{digits}f}]" if ok and a else "-"]
        table.add_row(str(s.place), s.name, mean, interval, *corrected, str(s.matches),
                      str(s.hands), str(s.faults))
    console.print(table)
    if board.aivat is not None:
        known = ", ".join(board.aivat_known) or "none"
        console.print(f"AIVAT ({board.aivat} values): chance terms for every hand; action terms "
                      f"for the agents whose policy is known: {known}", soft_wrap=True)
    heads_up = bool(board.tables) and len(board.tables[0].names) == 2
    if heads_up:
        h2h = Table(title=f"head to head (row's {board.unit} against column)")
        h2h.add_column("")
        for name in board.names:
            h2h.add_column(name, justify="right")
        for i, name in enumerate(board.names):
            cells = []
            for j in range(len(board.names)):
                mean, se = board.head_to_head[i, j], board.head_to_head_error[i, j]
                cells.append("" if math.isnan(mean) else f"{mean:+.3f} ±{1.96 * se:.3f}")
            h2h.add_row(name, *cells)
        console.print(h2h)
    else:
        tables = Table(title=f"tables ({board.unit} of each agent)")
        tables.add_column("match", justify="right")
        tables.add_column("agents and results")
        tables.add_column("hands", justify="right")
        for t in board.tables:
            results = ", ".join(
                f"{name} {'-' if math.isnan(mean) else f'{mean:+.{digits}f}'}"
                for name, mean in zip(t.names, t.means, strict=True)
            )
            tables.add_row(str(t.match_index + 1), results, str(t.hands))
        console.print(tables)
    for name, source, error in board.failed:
        console.print(Text.assemble(("not loaded", "red"), f" {name} ({source}): {error}"),
                      soft_wrap=True)
