"""``pokerlab study kuhn-lp | kuhn-deals | rm-runs | ... | figures``: the tutorial's aids.

- ``kuhn-lp``: the tutorial's MATLAB LP on Kuhn, ``x``, ``y``, ``p`` and ``q`` side by side,
  and the payoff matrix reduced by removing dominated strategies;
- ``kuhn-deals``: the Kuhn expected value of each of the 6 deals (the tutorial's Cases 1-6);
- ``rm-runs``: regret matching against (0.4, 0.3, 0.3) over many sampled runs, learning times;
- ``rps-dynamics``: RM, RM+ and CFR+ on RPS from a non-uniform start, exploitabilities;
- ``last-regret``: the Kuhn CFR repository's last-iteration-regret variant beside CFR;
- ``es-walkthrough``: external-sampling MCCFR on Kuhn step by step, with the regret trace;
- ``figures``: every drawing of the tutorial's aids into a folder (Kuhn's tree, a Leduc
  subtree, regret-matching runs, RPS dynamics, the regret trace).

See :mod:`pokerlab.studies.kuhn_lp`, :mod:`pokerlab.studies.es_walkthrough`,
:mod:`pokerlab.studies.tree_drawing`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
from rich.table import Table

from pokerlab.cli._common import JsonOption, check_output_path, console, print_json
from pokerlab.cli._progress import StageProgress


def _progress() -> StageProgress:
    return StageProgress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        transient=True,
    )


def kuhn_lp_command(json: JsonOption = False) -> None:
    """The tutorial's Kuhn LP: x, y, p and q side by side; the reduced payoff matrix."""
    from pokerlab.studies import kuhn_lp

    program = kuhn_lp.tutorial_program()
    m = program.matrices
    dominated = kuhn_lp.dominated_sequences()
    reduced = kuhn_lp.reduced_matrix()
    reduced_program = kuhn_lp.tutorial_program(
        removed_rows=kuhn_lp.TUTORIAL_REMOVED_ROWS, removed_columns=kuhn_lp.TUTORIAL_REMOVED_COLUMNS
    )
    if json:
        print_json(
            {
                "x": dict(zip(m.x_labels, program.x, strict=True)),
                "y": dict(zip(m.y_labels, program.y, strict=True)),
                "p": dict(zip(m.e_rows, program.p, strict=True)),
                "q": dict(zip(m.f_rows, program.q, strict=True)),
                "value": program.value,
                "dominated": {"P1": list(dominated[0]), "P2": list(dominated[1])},
                "reduced": {
                    "rows": list(reduced.rows),
                    "columns": list(reduced.columns),
                    "A_times_6": reduced.A_times_6,
                    "value": reduced_program.value,
                },
            }
        )
        return
    plans = Table(title="The tutorial's LP (HiGHS): plans x, y; P1's rows p, P2's rows q")
    for column in ("P1 sequence", "x", "P2 sequence", "y", "E row", "p", "F row", "q"):
        plans.add_column(column, justify="right" if len(column) == 1 else "left")
    for k in range(len(m.x_labels)):
        row = [m.x_labels[k], f"{program.x[k]:.4f}", m.y_labels[k], f"{program.y[k]:.4f}"]
        if k < len(m.e_rows):
            row += [m.e_rows[k], f"{program.p[k]:.4f}", m.f_rows[k], f"{program.q[k]:.4f}"]
        else:
            row += ["", "", "", ""]
        plans.add_row(*row)
    console.print(plans)
    console.print(
        f"game value p[0] = {program.value:.4f}; q is one of several optimal duals "
        "(the tutorial's MATLAB q is another; both pass the optimality check)"
    )
    console.print(
        f"weakly dominated (iterated): P1 {', '.join(dominated[0])}; P2 {', '.join(dominated[1])}"
    )
    table = Table(
        title="Payoff matrix x 6 without the tutorial's dominated sequences "
        f"(P1 {', '.join(kuhn_lp.TUTORIAL_REMOVED_ROWS)}; "
        f"P2 {', '.join(kuhn_lp.TUTORIAL_REMOVED_COLUMNS)})"
    )
    table.add_column("P1/P2")
    for column in reduced.columns:
        table.add_column(column, justify="right")
    for label, values in zip(reduced.rows, reduced.A_times_6, strict=True):
        table.add_row(label, *(f"{v:g}" if v else "" for v in values))
    console.print(table)
    console.print(f"value of the reduced LP: {reduced_program.value:.6f} (the full game's too)")


def kuhn_deals_command(
    y: Annotated[
        float, typer.Option("--y", min=0.0, max=1.0, help="P1's probability of betting the A.")
    ] = 1.0 / 3.0,
    json: JsonOption = False,
) -> None:
    """The Kuhn expected value of each of the 6 deals (the tutorial's Cases 1-6)."""
    from pokerlab.studies.kuhn_deals import deal_values

    deals = deal_values(y)
    average = sum(d.total for d in deals) / len(deals)
    if json:
        print_json(
            {
                "y": y,
                "deals": [
                    {"cards": list(d.cards), "net": d.net, "total": d.total, "formula": d.formula}
                    for d in deals
                ],
                "average_total": average,
            }
        )
        return
    table = Table(title=f"Kuhn deals under the equilibrium with y = {y:.4f} (P1's view)")
    for column in ("case", "P1", "P2", "net chips", "back for the ante", "tutorial's formula"):
        table.add_column(column)
    for k, d in enumerate(deals, start=1):
        table.add_row(str(k), *d.cards, f"{d.net:+.4f}", f"{d.total:.4f}", d.formula)
    console.print(table)
    console.print(f"average back for the ante: {average:.6f} (17/18 = {17 / 18:.6f})")


def rm_runs_command(
    runs: Annotated[int, typer.Option("--runs", min=1, help="Sampled runs.")] = 10000,
    plays: Annotated[int, typer.Option("--plays", min=1, help="Plays per run.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Run k uses seed + k.")] = 0,
    threshold: Annotated[
        float, typer.Option("--threshold", min=0.0, max=1.0, help="Paper probability to reach.")
    ] = 0.99,
    json: JsonOption = False,
) -> None:
    """Regret matching against (0.4, 0.3, 0.3), many sampled runs: how fast each learns Paper."""
    import numpy as np

    from pokerlab.studies.rm_runs import learning_times

    times = learning_times(runs, plays, seed=seed, threshold=threshold)
    learned = times[times > 0]
    summary: dict[str, Any] = {
        "runs": runs,
        "plays": plays,
        "threshold": threshold,
        "never": int((times == 0).sum()),
        "fastest": int(learned.min()) if learned.size else None,
        "median": float(np.median(learned)) if learned.size else None,
        "slowest": int(learned.max()) if learned.size else None,
    }
    if json:
        print_json(summary)
        return
    console.print(
        f"{runs} runs of {plays} plays (seed {seed}): {learned.size} reach Paper >= {threshold} "
        f"({summary['never']} never do)"
    )
    if learned.size:
        console.print(
            f"first play at Paper >= {threshold}: fastest {summary['fastest']}, "
            f"median {summary['median']:g}, slowest {summary['slowest']}"
        )


def rps_dynamics_command(
    iterations: Annotated[int, typer.Option("--iterations", min=1, help="Iterations.")] = 1000,
    json: JsonOption = False,
) -> None:
    """RM, RM+ and CFR+ on RPS from a non-uniform start: the average's exploitability."""
    from pokerlab.studies.rps_dynamics import VARIANTS, run_dynamics

    final = {v: float(run_dynamics(v, iterations).exploitability[-1]) for v in VARIANTS}
    if json:
        print_json({"iterations": iterations, "exploitability": final})
        return
    for variant, value in final.items():
        console.print(
            f"{variant:>5}: exploitability of the average after {iterations} iterations "
            f"{value:.4f}"
        )


def last_regret_command(
    iterations: Annotated[int, typer.Option("--iterations", min=1, help="Iterations.")] = 1000,
    json: JsonOption = False,
) -> None:
    """The Kuhn CFR repository's last-iteration-regret variant beside cumulative regrets (CFR)."""
    from pokerlab.games import kuhn
    from pokerlab.studies.last_regret import VARIANTS, run_variant

    game = kuhn()
    final = {v: float(run_variant(game, v, (iterations,)).exploitability[-1]) for v in VARIANTS}
    if json:
        print_json({"iterations": iterations, "exploitability": final})
        return
    for variant, value in final.items():
        console.print(
            f"{variant:>14}: exploitability of the average after {iterations} iterations "
            f"{value:.4f} chips a hand"
        )


def es_walkthrough_command(
    iterations: Annotated[
        int, typer.Option("--iterations", min=1, help="ES-MCCFR iterations.")
    ] = 2000,
    seed: Annotated[int, typer.Option("--seed", min=0, help="The sampling seed.")] = 0,
    show: Annotated[
        int, typer.Option("--show", min=0, help="Iterations printed update by update.")
    ] = 2,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the regret-trace figure here.")
    ] = None,
    json: JsonOption = False,
) -> None:
    """External-sampling MCCFR on Kuhn, step by step, with a regret trace."""
    from pokerlab.studies.es_walkthrough import regret_trace_figure, walkthrough

    if out is not None:
        check_output_path(out)
    with _progress() as bar:
        task = bar.add_task("ES-MCCFR on Kuhn", total=iterations)
        result = walkthrough(
            iterations,
            seed=seed,
            record_iterations=show,
            progress=lambda t: bar.update(task, completed=t),
        )
    figure = regret_trace_figure(result, str(out)) if out is not None else None
    if json:
        data: dict[str, Any] = {
            "updates": [u.__dict__ for u in result.updates],
            "trace_final": {k: v[-1] for k, v in result.trace.items()},
            "checkpoints": result.checkpoints,
            "exploitability": result.exploitability,
            "figure": figure,
        }
        print_json(data)
        return
    table = Table(title="Regret updates (traverser's infosets; values are sampled)")
    for column in ("iteration", "traverser", "infoset", "strategy", "v(a)", "v", "regrets after"):
        table.add_column(column)
    for u in result.updates:
        table.add_row(
            str(u.iteration),
            f"P{u.traverser + 1}",
            u.infoset,
            " ".join(f"{p:.2f}" for p in u.strategy),
            " ".join(f"{v:+.2f}" for v in u.action_values),
            f"{u.value:+.3f}",
            " ".join(f"{r:+.3f}" for r in u.regrets),
        )
    console.print(table)
    trace = Table(title=f"Cumulative regrets after {iterations} iterations (pass, bet)")
    trace.add_column("infoset")
    trace.add_column("regrets")
    for key in result.traced:
        trace.add_row(key, " ".join(f"{r:+.2f}" for r in result.trace[key][-1]))
    console.print(trace)
    for t, e in zip(result.checkpoints, result.exploitability, strict=True):
        console.print(f"iteration {t:>7}: exploitability of the average {e:.4f} chips per hand")
    if figure is not None:
        console.print(f"wrote {figure}")


def figures_command(
    out: Annotated[Path, typer.Option("--out", help="Folder to write the figures into.")] = Path(
        "figures"
    ),
    runs: Annotated[int, typer.Option("--runs", min=1, help="Regret-matching sample runs.")] = 200,
    plays: Annotated[
        int, typer.Option("--plays", min=1, help="Plays per regret-matching run.")
    ] = 1000,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the sampled runs.")] = 0,
) -> None:
    """Write the tutorial's drawings: trees, regret-matching runs, RPS dynamics, regret trace."""
    from pokerlab.games import kuhn, leduc
    from pokerlab.studies import rm_runs, rps_dynamics
    from pokerlab.studies.es_walkthrough import regret_trace_figure, walkthrough
    from pokerlab.studies.tree_drawing import draw_tree, layout

    check_output_path(out, folder=True)
    out.mkdir(parents=True, exist_ok=True)
    steps = ["kuhn-tree", "leduc-subtree", "rm-runs", "rps-dynamics", "es-regret-trace"]
    written = []
    with _progress() as bar:
        task = bar.add_task("figures", total=len(steps))
        for step in steps:
            bar.update(task, description=step)
            path = str(out / f"{step}.png")
            if step == "kuhn-tree":
                written.append(draw_tree(layout(kuhn()), path, title="Kuhn poker"))
            elif step == "leduc-subtree":
                # P1 holds a Q, P2 a K: the first betting round and the public card, then cut.
                tree = layout(leduc(), actions=(0, 3), max_depth=4)
                written.append(draw_tree(tree, path, title="Leduc: P1 Q, P2 K, first round"))
            elif step == "rm-runs":
                paths = rm_runs.paper_trajectories(runs, plays, seed=seed)
                written.append(rm_runs.runs_figure(paths, path))
            elif step == "rps-dynamics":
                dynamics = [rps_dynamics.run_dynamics(v, 1000) for v in rps_dynamics.VARIANTS]
                written.append(rps_dynamics.dynamics_figure(dynamics, path))
            else:
                written.append(regret_trace_figure(walkthrough(2000, seed=seed), path))
            bar.advance(task)
    for path in written:
        console.print(f"wrote {path}")


def add_command(group: typer.Typer) -> None:
    """Add the tutorial's aids (``kuhn-lp`` ... ``figures``) to the ``study`` command group."""
    group.command("kuhn-lp")(kuhn_lp_command)
    group.command("kuhn-deals")(kuhn_deals_command)
    group.command("rm-runs")(rm_runs_command)
    group.command("rps-dynamics")(rps_dynamics_command)
    group.command("last-regret")(last_regret_command)
    group.command("es-walkthrough")(es_walkthrough_command)
    group.command("figures")(figures_command)
