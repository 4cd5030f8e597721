"""``pokerlab spot solve ...`` and ``pokerlab spot show FILE``: Hold'em spots, range vs range.

``solve`` builds the spot's tree (its size and memory shown before anything large is
allocated), runs Discounted CFR with a progress bar (iterations, exploitability in % of
the pot) until a stopping rule holds, and saves the solution; Ctrl-C saves a checkpoint
beside ``--out`` and prints the command that resumes it. ``show`` prints a node of a
solution: each hand's strategy, weight, EV and equity, and the 13x13 grid as text (and as
a PNG with ``--png``). The library does the work (:mod:`pokerlab.subgame`); heavy imports
(numba kernels, matplotlib) happen inside the commands.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pokerlab.cli._common import (
    check_output_path,
    console,
    err_console,
    path_text,
    print_json,
)
from pokerlab.errors import SolverError, SpecError

if TYPE_CHECKING:
    from pokerlab.subgame.result import NodeReport, SpotSolution

spot_app = typer.Typer(help="Hold'em spots: solve range vs range, show the solution.",
                       no_args_is_help=True)

_PLAYERS = {"oop": 0, "ip": 1, "0": 0, "1": 1}


def register(app: typer.Typer) -> None:
    """Add the ``spot`` command group."""
    app.add_typer(spot_app, name="spot")




def parse_target(text: str, pot: int) -> float:
    """``"0.5%"`` (of the pot) or ``"1.2"`` (chips) as chips per hand.

    Raises:
        SpecError: if the text is not a positive number, with or without ``%``.
    """
    body = text.strip()
    percent = body.endswith("%")
    try:
        value = float(body.rstrip("%"))
    except ValueError:
        raise SpecError(f"--target {text!r}: write a percentage of the pot ('0.5%') or chips "
                        "('1.2')") from None
    if not value > 0:
        raise SpecError(f"--target must be positive; got {text!r}")
    return value / 100 * pot if percent else value


@spot_app.command("solve")
def solve_command(
    board: Annotated[str, typer.Option("--board", help="3, 4 or 5 cards: 'Td9d6hQc2s'.")],
    oop: Annotated[str, typer.Option("--oop", help="OOP's range: '66+,A8s+,KQo:0.5'.")],
    ip: Annotated[str, typer.Option("--ip", help="IP's range.")],
    pot: Annotated[int, typer.Option("--pot", help="Chips in the pot at the start.")],
    stack: Annotated[int, typer.Option("--stack", help="Chips behind each player.")],
    out: Annotated[Path | None, typer.Option(
        "--out", "-o", help="Save the solution to this file (.npz).")] = None,
    bets: Annotated[str, typer.Option("--bets", help="Bet sizes: '50%,100%', 'river=75%,a'."
                                      )] = "50%,100%",
    raises: Annotated[str, typer.Option("--raises", help="Raise sizes: '2.5x', '60%', 'a'."
                                        )] = "2.5x",
    donks: Annotated[str | None, typer.Option(
        "--donks", help="Donk-bet sizes (OOP leading after calling a bet; default: its bet "
        "sizes): '33%', 'river=50%'.")] = None,
    add_all_in_threshold: Annotated[float, typer.Option(
        "--add-all-in-threshold", min=0.0,
        help="Add all-in where it is at most this many pots (0: never).")] = 0.0,
    force_all_in_threshold: Annotated[float, typer.Option(
        "--force-all-in-threshold", min=0.0, help="A size leaving at most this many pots "
        "behind after a call becomes all-in (0: never; 0.1-0.2 is usual).")] = 0.0,
    merging_threshold: Annotated[float, typer.Option(
        "--merging-threshold", min=0.0, help="Merge sizes whose (1 + pot fraction) differ by "
        "less than this factor, keeping the larger (PioSOLVER's rule; 0: never).")] = 0.0,
    raise_cap: Annotated[int | None, typer.Option(
        "--raise-cap", help="Bets and raises per street (default: until the stacks are in).")
    ] = None,
    isomorphism: Annotated[bool, typer.Option(
        "--isomorphism/--no-isomorphism", help="Share suit-isomorphic turn and river cards.")
    ] = True,
    target: Annotated[str | None, typer.Option(
        "--target", help="Stop at this exploitability: '0.5%' of the pot, or chips.")] = None,
    iterations: Annotated[int | None, typer.Option(
        "--iterations", help="Stop at this many iterations in all.")] = None,
    seconds: Annotated[float | None, typer.Option(
        "--seconds", help="Stop after this many wall-clock seconds in all.")] = None,
    check_every: Annotated[int, typer.Option(
        "--check-every", min=1, help="Iterations between exploitability checks.")] = 10,
    variant: Annotated[str, typer.Option("--variant", help="dcfr, cfr+ or cfr.")] = "dcfr",
    memory_limit: Annotated[int, typer.Option(
        "--memory-limit", min=1, help="Refuse spots needing more than this, in MB.")] = 8000,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Continue the interrupted run of --out from its checkpoint.")] = False,
    checkpoint: Annotated[Path | None, typer.Option(
        "--checkpoint", help="The checkpoint file (default: beside --out, "
        "OUT.checkpoint.npz, or spot.checkpoint.npz here).")] = None,
    json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Solve a Hold'em spot range vs range; print the summary; save it to --out.

    --iterations and --seconds (wall-clock) count from the start of the run, resumed
    runs included. Ctrl-C saves a checkpoint within a second and prints the command
    that resumes it (--resume).
    """
    from pokerlab.cards.ranges import check_ranges_meet
    from pokerlab.solvers.run_console import Budget, run_to_budget
    from pokerlab.subgame.range_solver import RangeSolver
    from pokerlab.subgame.result import SpotSolution
    from pokerlab.subgame.spot import Spot

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
        solver = RangeSolver.load_checkpoint(saved_at, game=built.public, memory_limit=limit)
    else:
        solver = RangeSolver(built.public, variant=variant, memory_limit=limit,
                             precision=built.precision)
    finished = run_to_budget(solver, Budget(iterations, seconds, goal), description="solving",
                             check_every=check_every,
                             save=lambda: solver.save_checkpoint(saved_at), quiet=json,
                             console=err_console)
    if not finished:
        command = _resume_command(spot, out=out, target=target, iterations=iterations,
                                  seconds=seconds, check_every=check_every, variant=variant,
                                  memory_limit=memory_limit)
        named = "" if checkpoint is None else f" --checkpoint {shlex.quote(str(checkpoint))}"
        err_console.print(f"interrupted after {solver.iterations:,} iterations; checkpoint "
                          f"saved to {saved_at}\nresume with: {command}{named} --resume",
                          soft_wrap=True, markup=False, highlight=False)
        raise typer.Exit(130)
    if resume:
        saved_at.unlink(missing_ok=True)  # the run it belonged to is finished
    solution = SpotSolution.from_solver(solver, built)
    path = None if out is None else solution.save(out)
    values = solution.values
    data = {
        "spot": spot.to_dict(),
        "nodes": size.n_nodes,
        "hands": list(size.n_hands),
        "memory_mb": size.bytes / 1e6,
        "iterations": solution.iterations,
        "seconds": solution.seconds,
        "wall_seconds": solver.wall_seconds,
        "compile_seconds": solver.compile_seconds,
        "exploitability": solution.exploitability,
        "percent_of_pot": solution.percent_of_pot,
        "oop_value": values[0],
        "ip_value": values[1],
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
                  f"({solution.exploitability:.4f} chips)")
    console.print(f"OOP expects {values[0] + pot / 2:.3f} chips of the pot of {pot}, IP "
                  f"{values[1] + pot / 2:.3f}")
    if path is not None:
        console.print(f"saved to {path_text(path)}")


def _resume_command(spot: Any, *, out: Path | None, target: str | None, iterations: int | None,
                    seconds: float | None, check_every: int, variant: str,
                    memory_limit: int) -> str:
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
    for flag, value in (("--target", target), ("--iterations", iterations),
                        ("--seconds", seconds)):
        if value is not None:
            parts.append(f"{flag} {shlex.quote(str(value))}")
    return " ".join(parts)


@spot_app.command("show")
def show_command(
    solution_file: Annotated[Path, typer.Argument(help="A solution saved by 'spot solve'.")],
    node: Annotated[str, typer.Option("--node", help="The node's key: '', 'x-b100', "
                                      "'x-x/7c/b50'.")] = "",
    player: Annotated[str | None, typer.Option(
        "--player", help="oop or ip (default: the player to act).")] = None,
    hands: Annotated[int, typer.Option("--hands", min=0, help="Hands to list (by weight).")
                     ] = 20,
    action: Annotated[str | None, typer.Option(
        "--action", help="The grid shows this action's frequency (default: bets and raises)."
    )] = None,
    png: Annotated[Path | None, typer.Option("--png", help="Write the grid as an image.")
                   ] = None,
    json: Annotated[bool, typer.Option("--json", help="Print the node as JSON.")] = False,
) -> None:
    """Show a node of a solved spot: strategy, weight, EV and equity per hand, the grid."""
    from pokerlab.subgame.result import SpotSolution

    solution = SpotSolution.load(solution_file)
    who = None
    if player is not None:
        if player.lower() not in _PLAYERS:
            raise SpecError(f"--player must be oop or ip; got {player!r}")
        who = _PLAYERS[player.lower()]
    report = solution.node(node, player=who)
    frequency, label = _grid_values(report, action)
    grid, weights = report.grid(frequency)
    if json:
        print_json(_report_json(solution, report, grid, weights, label))
    else:
        _print_report(solution, report, hands, grid, weights, label)
    if png is not None:
        check_output_path(png)
        _grid_png(report, png, title=f"{solution.spot.describe()}\nnode '{report.key}'")
        if not json:
            console.print(f"grid image saved to {png}")


def _grid_values(report: NodeReport, action: str | None) -> tuple[Any, str]:
    import numpy as np

    if report.strategy.shape[0] == 0:
        return None, "weight"
    if action is not None:
        matches = [k for k, name in enumerate(report.actions) if name.startswith(action)]
        if not matches:
            raise SpecError(f"--action {action!r} is not an action here; actions: "
                            f"{', '.join(report.actions)}")
        return report.strategy[matches].sum(axis=0), f"% {action}"
    aggressive = [k for k, name in enumerate(report.actions)
                  if name.split()[0] in ("bet", "raise", "all-in")]
    if not aggressive:
        return report.strategy[0], f"% {report.actions[0]}"
    return np.asarray(report.strategy[aggressive].sum(axis=0)), "% bet or raise"


def _print_report(solution: SpotSolution, report: NodeReport, hands: int, grid: Any,
                  weights: Any, label: str) -> None:
    import numpy as np
    from rich.table import Table

    spot = solution.spot
    console.print(f"{spot.describe()}; exploitability {solution.percent_of_pot:.3f}% of the "
                  f"pot after {solution.iterations:,} iterations", soft_wrap=True)
    who = ("OOP", "IP")[report.player]
    acting = "" if report.acting < 0 else f", {('OOP', 'IP')[report.acting]} to act"
    console.print(f"node '{report.key}': {report.kind}{acting}; board {report.board}; pot "
                  f"{report.pot:g}; showing {who}'s hands")
    if report.children:
        console.print("children: " + ", ".join(repr(k) for k in report.children),
                      soft_wrap=True)
    # Heaviest first; among equals, the best cards first (hands are stored lowest first).
    reverse = np.arange(len(report.hands))[::-1]
    order = reverse[np.argsort(-report.weights[::-1], kind="stable")][:hands]
    table = Table(title=f"{who}'s hands at '{report.key}' (by weight)")
    for column in ("hand", "weight", "EV", "equity", *report.actions):
        table.add_column(column, justify="right")
    for h in order:
        if report.weights[h] <= 0:
            continue
        row = [report.hands[h], f"{report.weights[h]:.3f}", f"{report.ev[h]:.2f}",
               f"{100 * report.equity[h]:.1f}%"]
        row += [f"{100 * report.strategy[k, h]:.1f}%" for k in range(report.strategy.shape[0])]
        table.add_row(*row)
    console.print(table)
    console.print(_grid_text(grid, weights, label))


def _grid_text(grid: Any, weights: Any, label: str) -> str:
    """The 13x13 grid as text: each class's value in percent ('.' outside the range)."""
    import numpy as np

    from pokerlab.subgame.result import GRID_RANKS

    as_percent = label != "weight"
    lines = [f"13x13 grid ({label}; upper right suited, lower left offsuit):",
             "     " + "".join(f"{r:>5}" for r in GRID_RANKS)]
    for i, rank in enumerate(GRID_RANKS):
        cells = []
        for j in range(13):
            if weights[i, j] <= 0 or not np.isfinite(grid[i, j]):
                cells.append("    .")
            elif as_percent:
                cells.append(f"{100 * grid[i, j]:5.0f}")
            else:
                cells.append(f"{grid[i, j]:5.2f}")
        lines.append(f"{rank:>5}" + "".join(cells))
    return "\n".join(lines)


def _report_json(solution: SpotSolution, report: NodeReport, grid: Any, weights: Any,
                 label: str) -> dict[str, Any]:
    import numpy as np

    def clean(values: Any) -> Any:
        return [[float(x) if np.isfinite(x) else None for x in row] for row in values]

    return {
        "spot": solution.spot.to_dict(),
        "exploitability": solution.exploitability,
        "percent_of_pot": solution.percent_of_pot,
        "node": report.key, "kind": report.kind, "player": report.player,
        "acting": report.acting, "board": report.board, "pot": report.pot,
        "actions": list(report.actions), "children": list(report.children),
        "hands": [
            {"hand": name, "weight": float(report.weights[h]),
             "ev": None if not np.isfinite(report.ev[h]) else float(report.ev[h]),
             "equity": None if not np.isfinite(report.equity[h]) else float(report.equity[h]),
             "strategy": [float(x) for x in report.strategy[:, h]]}
            for h, name in enumerate(report.hands)
        ],
        "grid": {"label": label, "values": clean(grid), "weights": weights.tolist()},
    }


def _grid_png(report: NodeReport, path: Path, *, title: str) -> None:
    """Each class a cell; its actions as stacked bands of colour, widths by frequency."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.patches import Rectangle

    from pokerlab.strategy.io import write_file_atomic
    from pokerlab.subgame.result import GRID_RANKS

    n_actions = report.strategy.shape[0]
    colours = plt.get_cmap("tab10")
    figure, axes = plt.subplots(figsize=(9, 9.6))
    weights = report.grid()[1]
    top = weights.max() if weights.max() > 0 else 1.0
    frequencies = [report.grid(report.strategy[k])[0] for k in range(n_actions)]
    for i in range(13):
        for j in range(13):
            x, y = j, 12 - i
            axes.add_patch(Rectangle((x, y), 1, 1, facecolor="#eeeeee", edgecolor="white"))
            if weights[i, j] <= 0:
                continue
            height = 0.1 + 0.65 * weights[i, j] / top
            left = float(x)
            for k in range(n_actions):
                share = frequencies[k][i, j]
                if np.isfinite(share) and share > 0:
                    axes.add_patch(Rectangle((left, y), share, height,
                                             facecolor=colours(k % 10), edgecolor="none"))
                    left += share
            if n_actions == 0:
                axes.add_patch(Rectangle((x, y), 1, height, facecolor="#4477aa"))
    for i, high in enumerate(GRID_RANKS):
        for j, low in enumerate(GRID_RANKS):
            name = high + low if i == j else (high + low + "s" if j > i else low + high + "o")
            axes.text(j + 0.5, 12 - i + 0.88, name, ha="center", va="center", fontsize=7)
    handles = [Rectangle((0, 0), 1, 1, facecolor=colours(k % 10)) for k in range(n_actions)]
    if handles:
        axes.legend(handles, report.actions, loc="upper center", bbox_to_anchor=(0.5, -0.01),
                    ncol=min(n_actions, 5), fontsize=8, frameon=False)
    axes.set_xlim(0, 13)
    axes.set_ylim(0, 13)
    axes.set_aspect("equal")
    axes.axis("off")
    axes.set_title(title, fontsize=9)
    figure.tight_layout()
    write_file_atomic(path, lambda handle: figure.savefig(handle, format="png", dpi=110))
    plt.close(figure)
