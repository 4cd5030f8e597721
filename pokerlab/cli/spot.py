"""``pokerlab spot solve ...`` and ``pokerlab spot show FILE``: Hold'em spots, range vs range.

``solve`` builds the spot's tree (its size and memory shown before anything large is
allocated), runs Discounted CFR with a progress bar (iterations, exploitability in % of
the pot) until a stopping rule holds, and saves the solution; Ctrl-C saves a checkpoint
beside ``--out`` and prints the command that resumes it. ``--lock`` / ``--locks`` fix a
player's strategy at some nodes (node locking, :mod:`pokerlab.subgame.node_lock`).
``show`` prints a node of a solution: each hand's strategy, weight, EV and equity, the
13x13 grid as text (and as a PNG with ``--png``), and the node's locks. The library does
the work (:mod:`pokerlab.subgame`); heavy imports (numba kernels, matplotlib) happen
inside the commands.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from pokerlab.cli._common import (
    check_output_path,
    console,
    err_console,
    path_text,
    print_json,
)
from pokerlab.cli._spot_options import (
    AddAllInOption,
    BetsOption,
    CheckEveryOption,
    DonksOption,
    ForceAllInOption,
    IpOption,
    IsomorphismOption,
    IterationsOption,
    MemoryLimitOption,
    MergingOption,
    OopOption,
    PotOption,
    RaiseCapOption,
    RaisesOption,
    SecondsOption,
    StackOption,
    TargetOption,
    ThreadsOption,
    VariantOption,
    parse_target,
)
from pokerlab.cli.spot_flops import report_command
from pokerlab.errors import SolverError, SpecError

spot_app = typer.Typer(help="Hold'em spots: solve range vs range, show the solution, "
                       "report over many flops.", no_args_is_help=True)

_PLAYERS = {"oop": 0, "ip": 1, "0": 0, "1": 1}


def register(app: typer.Typer) -> None:
    """Add the ``spot`` command group."""
    app.add_typer(spot_app, name="spot")




@spot_app.command("solve")
def solve_command(
    board: Annotated[str, typer.Option("--board", help="3, 4 or 5 cards: 'Td9d6hQc2s'.")],
    oop: OopOption,
    ip: IpOption,
    pot: PotOption,
    stack: StackOption,
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Save the solution to this file (.npz).")] = None,
    bets: BetsOption = "50%,100%",
    raises: RaisesOption = "2.5x",
    donks: DonksOption = None,
    add_all_in_threshold: AddAllInOption = 0.0,
    force_all_in_threshold: ForceAllInOption = 0.0,
    merging_threshold: MergingOption = 0.0,
    raise_cap: RaiseCapOption = None,
    isomorphism: IsomorphismOption = True,
    target: TargetOption = None,
    iterations: IterationsOption = None,
    seconds: SecondsOption = None,
    check_every: CheckEveryOption = 10,
    variant: VariantOption = "dcfr",
    memory_limit: MemoryLimitOption = 8000,
    threads: ThreadsOption = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Continue the interrupted run of --out from its checkpoint.")] = False,
    checkpoint: Annotated[Path | None, typer.Option(
        "--checkpoint", help="The checkpoint file (default: beside --out, "
        "OUT.checkpoint.npz, or spot.checkpoint.npz here).")] = None,
    lock: Annotated[list[str] | None, typer.Option(
        "--lock", help="Fix the strategy at a node: 'x-b100:call=1', 'x-b100:call=0.7,"
        "fold=0.3', per hands 'x-b100@QQ+,AKs:call=1' (repeatable; later locks win).")
    ] = None,
    locks_file: Annotated[Path | None, typer.Option(
        "--locks", help="A file of locks, one a line ('#' comments); before the --lock ones."
    )] = None,
    compress: Annotated[bool, typer.Option(
        "--compress", help="Store regrets and strategy sums in 16 bits, scaled per node (a "
        "quarter of float64's memory; without it, only where float32 would not fit "
        "--memory-limit).")] = False,
    json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Solve a Hold'em spot range vs range; print the summary; save it to --out.

    --iterations and --seconds (wall-clock) count from the start of the run, resumed
    runs included. Ctrl-C saves a checkpoint within a second and prints the command
    that resumes it (--resume). With locks, the locked nodes play their lock and the
    rest is solved against it; the exploitability is then the locked game's (a best
    response plays the locks where it is locked).
    """
    from pokerlab.cards.ranges import check_ranges_meet
    from pokerlab.cli import _spot_report as report
    from pokerlab.solvers.run_console import Budget, run_to_budget
    from pokerlab.subgame.node_lock import parse_lock, read_locks
    from pokerlab.subgame.range_solver import RangeSolver
    from pokerlab.subgame.range_table import range_frequencies
    from pokerlab.subgame.result import SpotSolution
    from pokerlab.subgame.spot import Spot
    from pokerlab.subgame.storage import ITEMSIZES, STORAGE_NAMES

    if out is not None:
        check_output_path(out)
    if target is None and iterations is None and seconds is None:
        raise SolverError("spot solve needs a stopping rule: --target (e.g. 0.5%), "
                          "--iterations or --seconds")
    spot = Spot(board=board, oop=oop, ip=ip, pot=pot, stack=stack, bets=bets, raises=raises,
                donks=donks, add_all_in_threshold=add_all_in_threshold,
                force_all_in_threshold=force_all_in_threshold,
                merging_threshold=merging_threshold, raise_cap=raise_cap,
                isomorphism=isomorphism)
    check_ranges_meet(oop, ip, spot.board_cards)  # else no deal exists to solve
    locks = (*(read_locks(locks_file) if locks_file is not None else ()),
             *(parse_lock(text) for text in lock or ()))
    goal = None if target is None else parse_target(target, pot)
    limit = memory_limit * 10**6
    size = spot.size()
    err_console.print(f"{spot.describe()}\n{size.describe()}", soft_wrap=True)
    saved_at = checkpoint or (Path("spot.checkpoint.npz") if out is None
                              else out.with_name(out.stem + ".checkpoint.npz"))
    if resume and not saved_at.exists():
        raise SolverError(f"--resume: there is no checkpoint {saved_at} to resume; run without "
                          "--resume (or name it with --checkpoint)")
    built = spot.build(memory_limit=limit)
    if resume:
        solver = RangeSolver.load_checkpoint(saved_at, game=built.public, memory_limit=limit,
                                             locks=locks, threads=threads)
        if compress and solver.precision != "compressed":
            raise SolverError(f"--compress: the checkpoint {saved_at} stores "
                              f"{solver.precision}; resume it without --compress, or start "
                              "afresh without --resume")
    else:
        solver = RangeSolver(built.public, variant=variant, memory_limit=limit,
                             precision="compressed" if compress else built.precision,
                             locks=locks, threads=threads)
    if solver.precision != "float64":
        err_console.print(f"storage: {STORAGE_NAMES[solver.precision]}")
    finished = run_to_budget(solver, Budget(iterations, seconds, goal), description="solving",
                             check_every=check_every,
                             save=lambda: solver.save_checkpoint(saved_at), quiet=json,
                             console=err_console)
    if not finished:
        command = _resume_command(spot, out=out, target=target, iterations=iterations,
                                  seconds=seconds, check_every=check_every, variant=variant,
                                  memory_limit=memory_limit, locks=lock or (),
                                  locks_file=locks_file, compress=compress)
        named = "" if checkpoint is None else f" --checkpoint {shlex.quote(str(checkpoint))}"
        err_console.print(f"interrupted after {solver.iterations:,} iterations; checkpoint "
                          f"saved to {saved_at}\nresume with: {command}{named} --resume",
                          soft_wrap=True, markup=False, highlight=False)
        raise typer.Exit(130)
    if resume:
        saved_at.unlink(missing_ok=True)  # the run it belonged to is finished
    solution = SpotSolution.from_solver(solver, built, finish=True)
    path = None if out is None else solution.save(out)
    root = solution.node("")
    frequency, label = report.grid_values(root, None)
    grid, weights = root.grid(frequency)
    data = {
        "spot": spot.to_dict(),
        "nodes": size.n_nodes,
        "hands": list(size.n_hands),
        "memory_mb": size.peak_in(ITEMSIZES[solver.precision], solver.threads) / 1e6,
        "precision": solver.precision,
        "iterations": solution.iterations,
        "seconds": solution.seconds,
        "wall_seconds": solver.wall_seconds,
        "compile_seconds": solver.compile_seconds,
        "exploitability": solution.exploitability,
        "percent_of_pot": solution.percent_of_pot,
        "ev": report.ev_json(solution.ev, spot.pot),
        "locks": solver.locks.texts,
        "root": {
            "player": root.player, "actions": list(root.actions),
            "frequencies": [float(x) for x in range_frequencies(root)],
            "grid": {"label": label, "values": [[None if x != x else float(x) for x in row]
                                                for row in grid],
                     "weights": weights.tolist()},
        },
        "out": None if path is None else str(path),
    }
    if json:
        print_json(data)
        return
    console.print(f"solved in {solution.seconds:.3f} s, {solution.iterations:,} iterations")
    if solver.compile_seconds >= 0.05:
        console.print(f"compiled kernels in {solver.compile_seconds:.1f} s first (not solving "
                      "time; cached for the next runs)")
    console.print(f"exploitability: {solution.percent_of_pot:.4f}% of the pot "
                  f"({solution.exploitability:.4f} chips)"
                  + (" in the locked game (best responses play the locks)" if locks else ""))
    if locks:
        console.print(f"{len(locks)} lock{'s' if len(locks) > 1 else ''}: "
                      + ", ".join(repr(text) for text in solver.locks.texts),
                      soft_wrap=True, markup=False, highlight=False)
    console.print(report.ev_line(solution.ev, pot))
    console.print(report.frequencies_line(root, "at the root"))
    console.print(report.grid_text(grid, weights, label))
    if path is not None:
        console.print(f"saved to {path_text(path)}; each hand class and node: pokerlab spot "
                      f"show {shlex.quote(str(path))} [--by combo] [--node x]")
    else:
        console.print("not saved: add --out FILE to keep it and read each hand class and node "
                      "with 'pokerlab spot show FILE'")


def _resume_command(spot: Any, *, out: Path | None, target: str | None, iterations: int | None,
                    seconds: float | None, check_every: int, variant: str,
                    memory_limit: int, locks: Sequence[str] = (),
                    locks_file: Path | None = None, compress: bool = False) -> str:
    parts = ["pokerlab spot solve", f"--board {spot.board}", f"--oop {shlex.quote(spot.oop)}",
             f"--ip {shlex.quote(spot.ip)}", f"--pot {spot.pot}", f"--stack {spot.stack}",
             f"--bets {shlex.quote(spot.bets)}", f"--raises {shlex.quote(spot.raises)}",
             f"--check-every {check_every}", f"--variant {variant}",
             f"--memory-limit {memory_limit}"]
    if spot.donks is not None:
        parts.append(f"--donks {shlex.quote(spot.donks)}")
    for flag, threshold in (("--add-all-in-threshold", spot.add_all_in_threshold),
                            ("--force-all-in-threshold", spot.force_all_in_threshold),
                            ("--merging-threshold", spot.merging_threshold)):
        if threshold:
            parts.append(f"{flag} {threshold:g}")
    if out is not None:
        parts.append(f"--out {shlex.quote(str(out))}")
    if spot.raise_cap is not None:
        parts.append(f"--raise-cap {spot.raise_cap}")
    if not spot.isomorphism:
        parts.append("--no-isomorphism")
    if compress:
        parts.append("--compress")
    for flag, value in (("--target", target), ("--iterations", iterations),
                        ("--seconds", seconds)):
        if value is not None:
            parts.append(f"{flag} {shlex.quote(str(value))}")
    if locks_file is not None:
        parts.append(f"--locks {shlex.quote(str(locks_file))}")
    parts.extend(f"--lock {shlex.quote(text)}" for text in locks)
    return " ".join(parts)


@spot_app.command("show")
def show_command(
    solution_file: Annotated[Path, typer.Argument(help="A solution saved by 'spot solve'.")],
    node: Annotated[str, typer.Option("--node", help="The node's key: '', 'x-b100', "
                                      "'x-x/7c/b50' (a card's closing '/' is optional).")] = "",
    player: Annotated[str | None, typer.Option(
        "--player", help="oop or ip (default: the player to act).")] = None,
    by: Annotated[str, typer.Option(
        "--by", help="One row per hand 'class' (AKs) or per 'combo' (AhKh), sorted by class."
    )] = "class",
    hands: Annotated[int | None, typer.Option(
        "--hands", min=0, help="Rows to list (default: all of the range at the node).")
    ] = None,
    action: Annotated[str | None, typer.Option(
        "--action", help="The grid shows this action's frequency (default: bets and raises)."
    )] = None,
    png: Annotated[Path | None, typer.Option("--png", help="Write the grid as an image.")
                   ] = None,
    json: Annotated[bool, typer.Option("--json", help="Print the node as JSON.")] = False,
) -> None:
    """Show a node of a solved spot: its range, each hand class or combo, the grid.

    The range's action frequencies and EV, then each hand class (or combo, --by combo)
    with its strategy, weight, EV and equity, and the 13x13 grid. EV is a share of the
    pot, in chips (the players' EVs add up to the pot).
    """
    from pokerlab.cli import _spot_report as report
    from pokerlab.subgame.result import SpotSolution

    if by not in ("class", "combo"):
        raise SpecError(f"--by must be class or combo; got {by!r}")
    solution = SpotSolution.load(solution_file)
    who = None
    if player is not None:
        if player.lower() not in _PLAYERS:
            raise SpecError(f"--player must be oop or ip; got {player!r}")
        who = _PLAYERS[player.lower()]
    shown = solution.node(node, player=who)
    frequency, label = report.grid_values(shown, action)
    grid, weights = shown.grid(frequency)
    locked = solution.locks_at(node)
    if json:
        data = report.report_json(solution, shown, grid, weights, label)
        data["locks"] = [str(one) for one in locked]
        data["spot_locks"] = [str(one) for one in solution.locks]
        print_json(data)
    else:
        spot = solution.spot
        console.print(f"{spot.describe()}; exploitability {solution.percent_of_pot:.3f}% of "
                      f"the pot after {solution.iterations:,} iterations", soft_wrap=True)
        console.print(report.ev_line(solution.ev, spot.pot), soft_wrap=True)
        for line in report.node_lines(shown):
            console.print(line, soft_wrap=True)
        for line in report.lock_lines(solution, locked):
            console.print(line, soft_wrap=True, markup=False, highlight=False)
        table = report.class_table if by == "class" else report.combo_table
        console.print(table(shown, hands))
        console.print(report.grid_text(grid, weights, label))
    if png is not None:
        check_output_path(png)
        report.grid_png(shown, png, title=f"{solution.spot.describe()}\nnode '{shown.key}'")
        if not json:
            console.print(f"grid image saved to {png}")


spot_app.command("report")(report_command)
