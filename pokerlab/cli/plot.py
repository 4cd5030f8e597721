"""``pokerlab plot convergence`` and ``pokerlab plot regret-matching``: PNG figures."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pokerlab.cli._common import (
    GameArgument,
    check_output_path,
    console,
    err_console,
    load_game,
    path_text,
    plural,
)
from pokerlab.games import MatrixGame, load

if TYPE_CHECKING:  # the solvers load numba: imported when a command runs, not for --help
    from pokerlab.studies.convergence import ConvergenceCurve

plot_app = typer.Typer(help="Plots: convergence of solvers, regret matching.", no_args_is_help=True)


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def write_convergence_plot(curves: list[ConvergenceCurve], title: str, out: Path) -> Path:
    """Draw exploitability against iterations and against seconds, log-log, into ``out``."""
    plt = _pyplot()
    figure, (by_iterations, by_seconds) = plt.subplots(1, 2, figsize=(12, 4.5))
    for curve in curves:
        keep = curve.exploitability > 0
        by_iterations.loglog(
            curve.iterations[keep], curve.exploitability[keep], label=curve.algorithm
        )
        by_seconds.loglog(curve.seconds[keep], curve.exploitability[keep], label=curve.algorithm)
    by_iterations.set_xlabel("iterations")
    by_seconds.set_xlabel("seconds")
    for axis in (by_iterations, by_seconds):
        axis.set_ylabel("exploitability (chips per hand)")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend()
    figure.suptitle(title)
    figure.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out, dpi=110)
    plt.close(figure)
    return out


@plot_app.command("convergence")
def convergence(
    game: GameArgument,
    algorithms: Annotated[
        str, typer.Option("--algorithms", help="Comma-separated solver names.")
    ] = "cfr,cfr+,dcfr,es-mccfr",
    iterations: Annotated[
        int, typer.Option("--iterations", min=1, help="Iterations per algorithm.")
    ] = 1000,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the sampling solvers.")] = 0,
    out: Annotated[Path, typer.Option("--out", help="The PNG to write.")] = Path("convergence.png"),
) -> None:
    """Plot exploitability against iterations and seconds (log-log) for several solvers."""
    from pokerlab.studies.convergence import convergence_curves

    check_output_path(out)
    the_game = load_game(game)
    names = [a.strip() for a in algorithms.split(",") if a.strip()]
    with err_console.status("solving...") as status:
        curves = convergence_curves(
            the_game,
            names,
            iterations=iterations,
            seed=seed,
            progress=lambda name, p: status.update(
                f"{name}: iteration {p.iteration:,}, exploitability {p.exploitability:.3e}"
            ),
        )
    path = write_convergence_plot(
        curves, f"{the_game.spec}: exploitability of the average strategy", out
    )
    for curve in curves:
        console.print(
            f"{curve.algorithm}: {plural(int(curve.iterations[-1]), 'iteration')}, "
            f"{float(curve.seconds[-1]):.3f} s, "
            f"exploitability {float(curve.exploitability[-1]):.3e}"
        )
    console.print(f"wrote {path_text(path)}")


@plot_app.command("regret-matching")
def regret_matching(
    iterations: Annotated[
        int, typer.Option("--iterations", min=1, help="Iterations of self-play.")
    ] = 2000,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the sampled play.")] = 0,
    out: Annotated[Path, typer.Option("--out", help="The PNG to write.")] = Path(
        "regret_matching.png"
    ),
) -> None:
    """RPS self-play: the current strategy cycles around the equilibrium, the average converges."""
    from pokerlab.solvers.regret_matching import RegretMatching

    check_output_path(out)
    game = load("rps")
    assert isinstance(game, MatrixGame)
    learner = RegretMatching(game, sampled=True, seed=seed).run(iterations=iterations)
    history = learner.trajectory()
    plt = _pyplot()
    figure, (current, average) = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    steps = range(1, history.current_strategies[0].shape[0] + 1)
    for k, name in enumerate(game.row_names):
        current.plot(steps, history.current_strategies[0][:, k], label=name, lw=0.8)
        average.plot(steps, history.average_strategies[0][:, k], label=name)
    for axis, title in (
        (current, "current strategy (cycles)"),
        (average, "average strategy (converges)"),
    ):
        axis.axhline(1 / 3, color="gray", ls="--", lw=0.8)
        axis.set_title(f"P1 {title}")
        axis.set_xlabel("iteration")
        axis.legend()
    current.set_ylabel("probability")
    figure.suptitle(
        "Regret matching in Rock-Paper-Scissors self-play: the equilibrium is (1/3, 1/3, 1/3)"
    )
    figure.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out, dpi=110)
    plt.close(figure)
    final = [round(float(p), 4) for p in learner.average_vectors()[0]]
    console.print(f"P1 average strategy after {plural(iterations, 'iteration')}: {final}")
    console.print(f"wrote {path_text(out)}")


def register(app: typer.Typer) -> None:
    """Add the ``plot`` commands."""
    app.add_typer(plot_app, name="plot")
