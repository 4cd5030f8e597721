"""``pokerlab study bandits | regret-bound | q-learning``: learning beside equilibrium.

- ``bandits``: epsilon-greedy, UCB1, Thompson sampling and regret matching on a Bernoulli
  bandit, then on Rock-Paper-Scissors against a fixed, a uniform, a fictitious-play and a
  best-responding opponent (exploitation against equilibrium); ``--out`` draws both;
- ``regret-bound``: the measured average regret of regret matching (RPS) and CFR (Kuhn,
  Leduc) against the theorems' bounds, on log-log axes with ``--out``;
- ``q-learning``: tabular Q-learning in self-play on Kuhn or Leduc beside CFR, with the
  exact exploitability of what each has learned over time.

See :mod:`pokerlab.studies.bandits`, :mod:`pokerlab.studies.regret_bound` and
:mod:`pokerlab.studies.q_learning_study`.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from pokerlab.cli._common import GameArgument, JsonOption, check_output_path, console, print_json
from pokerlab.cli._progress import StageProgress
from pokerlab.errors import SpecError

OutOption = Annotated[Path | None, typer.Option("--out", help="Write the figure here (.png).")]
SeedOption = Annotated[int, typer.Option("--seed", min=0, help="The seed of every random draw.")]


def _progress() -> StageProgress:
    return StageProgress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        transient=True,
    )


def _floats(text: str, option: str) -> tuple[float, ...]:
    try:
        return tuple(float(v) for v in text.split(","))
    except ValueError:
        raise SpecError(f"{option} must be numbers separated by commas; got {text!r}") from None


def bandits_command(
    means: Annotated[
        str, typer.Option("--means", help="The arms' Bernoulli means, comma-separated.")
    ] = "0.2,0.4,0.5,0.6",
    horizon: Annotated[int, typer.Option("--horizon", min=1, help="Pulls per bandit run.")] = 5000,
    games: Annotated[int, typer.Option("--games", min=1, help="Games per RPS run.")] = 2000,
    runs: Annotated[int, typer.Option("--runs", min=2, help="Independent runs of each.")] = 100,
    epsilon: Annotated[
        float, typer.Option("--epsilon", min=0.0, max=1.0, help="Epsilon-greedy's exploration.")
    ] = 0.1,
    gamma: Annotated[
        float, typer.Option("--gamma", min=0.0, max=1.0,
                            help="Bandit regret matching's uniform exploration.")
    ] = 0.1,
    seed: SeedOption = 0,
    out: OutOption = None,
    json: JsonOption = False,
) -> None:
    """Bandits (epsilon-greedy, UCB1, Thompson, regret matching); exploitation on RPS."""
    from pokerlab.studies import bandits as b

    arms = _floats(means, "--means")
    if out is not None:
        check_output_path(out)
    bandit_runs, rps_runs = [], []
    with _progress() as bar:
        total = len(b.BANDIT_LEARNERS) + len(b.RPS_LEARNERS) * len(b.RPS_OPPONENTS)
        task = bar.add_task("bandits", total=total)
        for learner in b.BANDIT_LEARNERS:
            bar.update(task, description=f"bandit: {learner}")
            bandit_runs.append(b.run_bandit(learner, arms, horizon=horizon, runs=runs, seed=seed,
                                            epsilon=epsilon, gamma=gamma))
            bar.advance(task)
        for opponent in b.RPS_OPPONENTS:
            for learner in b.RPS_LEARNERS:
                bar.update(task, description=f"RPS: {learner} against {opponent}")
                rps_runs.append(b.run_rps(learner, opponent, horizon=games, runs=runs, seed=seed,
                                          epsilon=epsilon))
                bar.advance(task)
    figure = b.study_figure(bandit_runs, rps_runs, str(out)) if out is not None else None
    bound, constant = b.ucb1_bound(arms, horizon), b.lai_robbins_constant(arms)
    rate = b.epsilon_greedy_rate(arms, epsilon)
    if json:
        data: dict[str, Any] = {
            "means": list(arms), "horizon": horizon, "games": games, "runs": runs, "seed": seed,
            "ucb1_bound": bound, "lai_robbins_constant": constant,
            "epsilon_greedy_rate": rate,
            "bandit": {
                r.learner: {"regret": float(r.regret[-1]), "ci95": float(r.regret_ci95[-1]),
                            "best_arm_share": r.best_arm_share}
                for r in bandit_runs
            },
            "rps": {
                f"{r.learner} vs {r.opponent}": {
                    "payoff": float(r.final_payoffs.mean()), "ci95": r.ci95,
                    "paper_share": r.paper_share,
                    **({"mixed_payoff": float(r.mixed_payoffs.mean()),
                        "worst_regret": float((r.hindsight_payoffs - r.mixed_payoffs).max()),
                        "regret_bound": b.rm_bound(games)}
                       if r.mixed_payoffs is not None and r.hindsight_payoffs is not None
                       else {}),
                }
                for r in rps_runs
            },
            "figure": figure,
        }
        print_json(data)
        return
    table = Table(title=f"Bandit {arms}: {runs} runs of {horizon:,} pulls (seed {seed})")
    for column in ("learner", "regret", "95% CI", "regret / ln n", "best arm, last 10%"):
        table.add_column(column, justify="left" if column == "learner" else "right")
    for r in bandit_runs:
        table.add_row(r.learner, f"{r.regret[-1]:.1f}", f"±{r.regret_ci95[-1]:.1f}",
                      f"{r.regret[-1] / math.log(horizon):.2f}", f"{r.best_arm_share:.3f}")
    console.print(table)
    console.print(
        f"UCB1's bound at n = {horizon:,}: {bound:.1f}; Lai-Robbins: {constant:.3f} ln n = "
        f"{constant * math.log(horizon):.1f} (asymptotic); epsilon-greedy's long-run regret "
        f"per pull: {rate:.4f}"
    )
    grid = Table(title=f"Rock-Paper-Scissors: the learner's average payoff per game, {runs} runs "
                       f"of {games:,} games (95% CI)")
    grid.add_column("learner")
    for opponent in b.RPS_OPPONENTS:
        grid.add_column(f"vs {opponent}", justify="right")
    for learner in b.RPS_LEARNERS:
        cells = [next(r for r in rps_runs if r.learner == learner and r.opponent == o)
                 for o in b.RPS_OPPONENTS]
        grid.add_row(learner, *(f"{r.final_payoffs.mean():+.4f} ±{r.ci95:.4f}" for r in cells))
    console.print(grid)
    console.print(
        f"Regret matching's no-regret bound at T = {games:,}: 2 sqrt(3/T) = "
        f"{b.rm_bound(games):.4f} "
        "(its mixed strategy's payoff is never further below the best fixed action's)."
    )
    if figure is not None:
        console.print(f"wrote {figure}")


def regret_bound_command(
    rps_iterations: Annotated[
        int, typer.Option("--rps-iterations", min=1, help="Regret-matching rounds on RPS.")
    ] = 100_000,
    kuhn_iterations: Annotated[
        int, typer.Option("--kuhn-iterations", min=1, help="CFR iterations on Kuhn.")
    ] = 10_000,
    leduc_iterations: Annotated[
        int, typer.Option("--leduc-iterations", min=0, help="CFR iterations on Leduc (0: skip).")
    ] = 1000,
    out: OutOption = None,
    json: JsonOption = False,
) -> None:
    """Average regret of regret matching (RPS) and CFR (Kuhn, Leduc) against the bounds."""
    from pokerlab.games import Game, kuhn, leduc
    from pokerlab.studies import regret_bound as rb

    if out is not None:
        check_output_path(out)
    curves = []
    with _progress() as bar:
        task = bar.add_task("regret matching on RPS", total=None)
        for opponent in rb.RPS_OPPONENTS:
            bar.update(task, description=f"regret matching on RPS vs {opponent}")
            curves.append(rb.rps_regret(opponent, rps_iterations))
        games: list[tuple[Game, int]] = [(kuhn(), kuhn_iterations)]
        if leduc_iterations:
            games.append((leduc(), leduc_iterations))
        for game, iterations in games:
            bar.update(task, description=f"CFR on {game.spec}", total=iterations, completed=0)
            curves.append(rb.cfr_regret(
                game, iterations, progress=lambda t: bar.update(task, completed=t)
            ))
    figure = rb.regret_figure(curves, str(out)) if out is not None else None
    if json:
        print_json(
            {
                "curves": [
                    {
                        "label": c.label,
                        "constant": c.constant,
                        "iterations": c.iterations.tolist(),
                        "average_regret": c.average_regret.tolist(),
                        "bound": c.bound.tolist(),
                        "nash_conv": c.nash_conv.tolist(),
                    }
                    for c in curves
                ],
                "figure": figure,
            }
        )
        return
    for c in curves:
        table = Table(title=f"{c.label}: average regret R/T against the bound {c.constant:.4g} / "
                            "sqrt(T)")
        table.add_column("T", justify="right")
        players = c.average_regret.shape[1]
        for p in range(players):
            table.add_column("measured" if players == 1 else f"P{p + 1} measured", justify="right")
        table.add_column("bound", justify="right")
        table.add_column("bound / measured", justify="right")
        if c.nash_conv.size:
            table.add_column("NashConv (= sum)", justify="right")
        for k, t in enumerate(c.iterations):
            worst = float(c.average_regret[k].max())
            row = [f"{int(t):,}", *(f"{v:.3e}" for v in c.average_regret[k]),
                   f"{c.bound[k]:.3e}", f"{c.bound[k] / worst:,.0f}" if worst > 0 else "inf"]
            if c.nash_conv.size:
                row.append(f"{c.nash_conv[k]:.3e}")
            table.add_row(*row)
        console.print(table)
    if figure is not None:
        console.print(f"wrote {figure}")


def q_learning_command(
    game: GameArgument = "kuhn",
    hands: Annotated[
        int, typer.Option("--hands", min=1, help="Q-learning hands per seed.")
    ] = 100_000,
    seeds: Annotated[int, typer.Option("--seeds", min=1, help="Q-learning runs (seeds 0..).")] = 3,
    cfr_iterations: Annotated[
        int, typer.Option("--cfr-iterations", min=1, help="CFR iterations beside it.")
    ] = 1000,
    learning_rate: Annotated[
        float, typer.Option("--learning-rate", min=0.0, max=1.0, help="Q-learning's alpha.")
    ] = 0.1,
    epsilon: Annotated[
        float, typer.Option("--epsilon", min=0.0, max=1.0, help="Its exploration probability.")
    ] = 0.1,
    out: OutOption = None,
    json: JsonOption = False,
) -> None:
    """Q-learning in self-play beside CFR: exact exploitability of what each learned."""
    from pokerlab.cli._common import load_game
    from pokerlab.errors import SolverError
    from pokerlab.studies.q_learning_study import (
        pure_profile_floor,
        q_learning_figure,
        run_cfr,
        run_q_learning,
    )

    loaded = load_game(game)
    if out is not None:
        check_output_path(out)
    with _progress() as bar:
        task = bar.add_task(f"Q-learning on {loaded.spec}", total=hands * seeds)
        q = run_q_learning(loaded, hands, seeds=tuple(range(seeds)), learning_rate=learning_rate,
                           epsilon=epsilon, progress=lambda done: bar.update(task, completed=done))
        bar.update(task, description=f"CFR on {loaded.spec}", total=cfr_iterations, completed=0)
        cfr = run_cfr(loaded, cfr_iterations, progress=lambda done: bar.update(task,
                                                                               completed=done))
    try:
        floor: float | None = pure_profile_floor(loaded)
    except SolverError:  # too many pure strategies to enumerate (Leduc)
        floor = None
    figure = q_learning_figure(loaded, q, cfr, str(out), floor=floor) if out is not None else None
    if json:
        print_json(
            {
                "game": str(loaded.spec),
                "q_learning": {
                    "seeds": list(q.seeds), "learning_rate": learning_rate, "epsilon": epsilon,
                    "hands": q.hands.tolist(), "states": q.states.tolist(),
                    "greedy": q.greedy.tolist(), "epsilon_greedy": q.behaviour.tolist(),
                    "average": q.average.tolist(), "churn": q.churn.tolist(),
                },
                "cfr": {"iterations": cfr.iterations.tolist(), "states": cfr.states.tolist(),
                        "average": cfr.average.tolist(), "current": cfr.current.tolist()},
                "pure_profile_floor": floor,
                "figure": figure,
            }
        )
        return
    table = Table(title=f"Q-learning by self-play on {loaded.spec} (alpha {learning_rate}, "
                        f"epsilon {epsilon}): exploitability, chips per hand, mean of "
                        f"{seeds} seeds [min, max]")
    for column in ("hands", "states visited", "greedy", "epsilon-greedy", "average",
                   "greedy changes"):
        table.add_column(column, justify="right")

    def cell(values: Any, k: int) -> str:
        column = values[:, k]
        return f"{column.mean():.4f} [{column.min():.4f}, {column.max():.4f}]"

    for k, h in enumerate(q.hands):
        table.add_row(f"{int(h):,}", f"{int(q.states[:, k].mean()):,}", cell(q.greedy, k),
                      cell(q.behaviour, k), cell(q.average, k), f"{q.churn[:, k].mean():.1f}")
    console.print(table)
    cfr_table = Table(title=f"CFR on {loaded.spec}: exploitability, chips per hand")
    for column in ("iterations", "states visited", "average", "current"):
        cfr_table.add_column(column, justify="right")
    for k, t in enumerate(cfr.iterations):
        cfr_table.add_row(f"{int(t):,}", f"{int(cfr.states[k]):,}", f"{cfr.average[k]:.5f}",
                          f"{cfr.current[k]:.5f}")
    console.print(cfr_table)
    if floor is not None:
        console.print(f"No profile of pure strategies (what greedy Q-learning plays) is less than "
                      f"{floor:.6f} chips a hand exploitable on {loaded.spec}.")
    if figure is not None:
        console.print(f"wrote {figure}")


def add_command(group: typer.Typer) -> None:
    """Add ``bandits``, ``regret-bound`` and ``q-learning`` to the ``study`` command group."""
    group.command("bandits")(bandits_command)
    group.command("regret-bound")(regret_bound_command)
    group.command("q-learning")(q_learning_command)
