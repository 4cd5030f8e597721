"""Deep CFR on Leduc beside tabular CFR+ and ES-MCCFR (and OpenSpiel's PyTorch Deep CFR).

Exploitability (exact, chips per hand) against traversals and against time, for each
algorithm and seed. Every run gets the same solving-time budget and is measured at
regular steps of it; for Deep CFR each point also pays for training the strategy network
there (that is the price of stopping at that point), and the figure's time axis includes
it. ES-MCCFR and Deep CFR count traversals alike (one walk per player per iteration is
two traversals); CFR+ walks the whole tree each iteration and is plotted against time.

    PYTHONPATH=. python examples/studies/deep_cfr_leduc.py --seconds 600 --seeds 0 1 2

writes ``--out`` (default ``docs/deep_cfr``): ``results.json`` (one record per run,
rewritten atomically after each, so an interrupted study resumes where it stopped: runs
already there are skipped) and ``deep_cfr_leduc.png``. Timings depend on the machine's
load: ``uptime`` is recorded in the results.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from pokerlab.eval import exploitability
from pokerlab.games import load
from pokerlab.solvers import CFRPlus, DeepCFR, ExternalSamplingMCCFR

Point = dict[str, float]

DEEP_SETTINGS: dict[str, Any] = {
    "traversals": 1000,
    "advantage_steps": 30,
    "policy_steps": 2000,
    "learning_rate": 3e-3,
    "reinitialize": False,
    "full_batch": True,
}
"""pokerlab's Deep CFR hyper-parameters for the study (the solver's defaults)."""

OPENSPIEL_SETTINGS: dict[str, Any] = {
    "policy_network_layers": (64, 64),
    "advantage_network_layers": (64, 64),
    "num_traversals": 400,
    "learning_rate": 1e-3,
    "batch_size_advantage": 512,
    "batch_size_strategy": 512,
    "memory_capacity": 1_000_000,
    "policy_network_train_steps": 2000,
    "advantage_network_train_steps": 200,
    "reinitialize_advantage_networks": False,
}
"""OpenSpiel's DeepCFRSolver arguments: the same network sizes as pokerlab's; its own
minibatch training (it has no full-batch option), with the traversals and steps of
pokerlab's earlier defaults (400, 200)."""


def run_deep(seed: int, seconds: float, step: float, tick: Callable[[float], None]) -> list[Point]:
    """Run pokerlab's Deep CFR: a point every ``step`` seconds of solving time."""
    game = load("leduc")
    solver = DeepCFR(game, seed=seed, **DEEP_SETTINGS)
    points: list[Point] = []
    while solver.seconds < seconds:
        policy_before = solver.policy_seconds
        solver.run(seconds=min(step, seconds - solver.seconds), check_every=10**9)
        row = solver.history[-1]
        points.append({
            "iteration": solver.iterations,
            "traversals": solver.iterations * DEEP_SETTINGS["traversals"] * game.n_players,
            "seconds": solver.seconds,
            "seconds_with_policy": solver.seconds + solver.policy_seconds - policy_before,
            "exploitability": float(row.exploitability or 0.0),
            "memory_average_exploitability": exploitability(
                game, solver.memory_average_strategy()
            ),
            "played_average_exploitability": exploitability(
                game, solver.played_average_strategy()
            ),
        })
        tick(solver.seconds)
    return points


def run_tabular(
    name: str, seed: int, seconds: float, step: float, tick: Callable[[float], None]
) -> list[Point]:
    """CFR+ or ES-MCCFR: points at doubling solving times up to ``seconds``.

    They converge in seconds, so their points are spread geometrically (``seconds / 2**k``)
    rather than every ``step`` (unused; kept for the callers' symmetry).
    """
    del step
    game = load("leduc")
    solver = CFRPlus(game) if name == "cfr+" else ExternalSamplingMCCFR(game, seed=seed)
    points: list[Point] = []
    marks = [seconds / 2**k for k in range(10, -1, -1)]
    for mark in marks:
        if solver.seconds >= mark:
            continue
        solver.run(seconds=mark - solver.seconds, check_every=10**9)
        row = solver.history[-1]
        traversals = solver.iterations * game.n_players if name == "es-mccfr" else None
        point: Point = {
            "iteration": solver.iterations,
            "seconds": solver.seconds,
            "seconds_with_policy": solver.seconds,
            "exploitability": float(row.exploitability or 0.0),
        }
        if traversals is not None:
            point["traversals"] = traversals
        points.append(point)
        tick(solver.seconds)
    return points


def run_openspiel(
    seed: int, seconds: float, step: float, tick: Callable[[float], None]
) -> list[Point]:
    """OpenSpiel's PyTorch Deep CFR, iterated by hand (its ``solve`` loop, measured)."""
    import pyspiel
    import torch
    from open_spiel.python import policy as os_policy
    from open_spiel.python.algorithms import exploitability as os_exploitability
    from open_spiel.python.pytorch import deep_cfr

    torch.set_num_threads(1)
    game = pyspiel.load_game("leduc_poker")
    solver = deep_cfr.DeepCFRSolver(game, seed=seed, **OPENSPIEL_SETTINGS)
    points: list[Point] = []
    spent = 0.0
    iterations = 0
    next_point = step
    while spent < seconds:
        start = time.perf_counter()
        for player in range(game.num_players()):
            for _ in range(OPENSPIEL_SETTINGS["num_traversals"]):
                solver._traverse_game_tree(solver._root_node, player)
            if OPENSPIEL_SETTINGS["reinitialize_advantage_networks"]:
                solver._reinitialize_advantage_network(player)
            solver._learn_advantage_network(player)
        solver._iteration += 1
        iterations += 1
        spent += time.perf_counter() - start
        if spent >= next_point or spent >= seconds:
            next_point += step
            start = time.perf_counter()
            solver._reinitialize_policy_network()
            solver._learn_strategy_network()
            policy_seconds = time.perf_counter() - start
            average = os_policy.tabular_policy_from_callable(game, solver.action_probabilities)
            points.append({
                "iteration": iterations,
                "traversals": iterations * OPENSPIEL_SETTINGS["num_traversals"] * 2,
                "seconds": spent,
                "seconds_with_policy": spent + policy_seconds,
                "exploitability": float(os_exploitability.exploitability(game, average)),
            })
            tick(spent)
    return points


def warm_up() -> None:
    """Compile the numba kernels (cached on disk) before any clock starts."""
    kuhn = load("kuhn")
    CFRPlus(kuhn).run(iterations=2)
    ExternalSamplingMCCFR(kuhn, seed=0).run(iterations=2)
    DeepCFR(kuhn, seed=0, traversals=10, advantage_steps=2, policy_steps=2).run(iterations=1)
    exploitability(load("leduc"), CFRPlus(load("leduc")).average_strategy())


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp's 0600 -> an ordinary file's permissions
    with os.fdopen(fd, "w") as handle:
        handle.write(text)
    os.replace(tmp, path)


def plot(runs: list[dict[str, Any]], path: Path) -> None:
    """Exploitability against traversals and against time, one line per run."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colours = {"deep-cfr": "C0", "openspiel-deep-cfr": "C3", "es-mccfr": "C2", "cfr+": "C1"}
    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    labelled: set[str] = set()
    for run in runs:
        name = run["algorithm"]
        points = run["points"]
        label = None if name in labelled else name
        labelled.add(name)
        values = [max(p["exploitability"], 1e-6) for p in points]  # log axis: 0 at 1e-6
        if "traversals" in points[0]:
            left.plot([p["traversals"] for p in points], values, color=colours[name],
                      marker=".", label=label, alpha=0.8)
        right.plot([p["seconds_with_policy"] for p in points], values, color=colours[name],
                   marker=".", label=label, alpha=0.8)
        if "played_average_exploitability" in points[0]:  # Deep CFR's second policy
            played = [max(p["played_average_exploitability"], 1e-6) for p in points]
            label = None if "played" in labelled else f"{name} (played average)"
            labelled.add("played")
            left.plot([p["traversals"] for p in points], played, color=colours[name],
                      linestyle="--", label=label, alpha=0.6)
            right.plot([p["seconds"] for p in points], played, color=colours[name],
                       linestyle="--", label=label, alpha=0.6)
    for axes, xlabel in ((left, "traversals"), (right, "seconds (solving + strategy network)")):
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.axhline(0.1, color="grey", linestyle=":", linewidth=1)
        axes.set_xlabel(xlabel)
        axes.set_ylabel("exploitability (chips per hand)")
        axes.grid(True, which="both", alpha=0.3)
        axes.legend()
    left.set_title("Leduc: exploitability against traversals")
    right.set_title("Leduc: exploitability against time")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def summary(runs: list[dict[str, Any]]) -> str:
    """A markdown table: per algorithm, the last point of each seed and when 0.1 was reached."""
    lines = [
        "| algorithm | seed | iterations | traversals | seconds | exploitability | "
        "first below 0.1 chips | played average | its first below 0.1 |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for run in runs:
        last = run["points"][-1]
        below = next((p for p in run["points"] if p["exploitability"] < 0.1), None)
        when = "not reached" if below is None else f"{below['seconds_with_policy']:.1f} s"
        traversals = last.get("traversals")
        played, played_when = "-", "-"
        if "played_average_exploitability" in last:
            played = f"{last['played_average_exploitability']:.4f}"
            hit = next((p for p in run["points"] if p["played_average_exploitability"] < 0.1),
                       None)
            played_when = "not reached" if hit is None else f"{hit['seconds']:.1f} s"
        lines.append(
            f"| {run['algorithm']} | {run['seed']} | {last['iteration']:,} | "
            f"{'-' if traversals is None else format(int(traversals), ',')} | "
            f"{last['seconds_with_policy']:.0f} | {last['exploitability']:.4f} | {when} | "
            f"{played} | {played_when} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the study (skipping runs already in the results) and draw the figure."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=600.0, help="solving time per run")
    parser.add_argument("--points", type=int, default=8, help="measurements per run")
    parser.add_argument("--tabular-seconds", type=float, default=None,
                        help="solving time of CFR+ and ES-MCCFR runs (default: --seconds)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--algorithms", nargs="+",
                        default=["cfr+", "es-mccfr", "deep-cfr", "openspiel-deep-cfr"])
    parser.add_argument("--openspiel-seeds", type=int, nargs="+", default=None,
                        help="seeds of OpenSpiel's Deep CFR (default: --seeds)")
    parser.add_argument("--out", type=Path, default=Path("docs/deep_cfr"))
    parser.add_argument("--merge", type=Path, nargs="+", default=[],
                        help="results.json files of other study processes (run in parallel, "
                        "each with its own --out) whose runs are added to --out's; "
                        "then only the figure and table are made")
    parser.add_argument("--threads", type=int, default=1,
                        help="torch threads of this process (1 when processes run in parallel)")
    args = parser.parse_args(argv)
    import torch

    torch.set_num_threads(args.threads)
    results_path = args.out / "results.json"
    results: dict[str, Any] = (
        json.loads(results_path.read_text()) if results_path.exists() else {"runs": []}
    )
    for other in args.merge:
        have = {(r["algorithm"], r["seed"]) for r in results["runs"]}
        merged = json.loads(other.read_text())
        results["runs"] += [
            r for r in merged["runs"] if (r["algorithm"], r["seed"]) not in have
        ]
        results.setdefault("settings", merged.get("settings"))
    if args.merge:
        write_atomic(results_path, json.dumps(results, indent=1))
        plot(results["runs"], args.out / "deep_cfr_leduc.png")
        print(summary(results["runs"]))
        return 0
    done = {(r["algorithm"], r["seed"]) for r in results["runs"]}
    plan = []
    for name in args.algorithms:
        seeds = args.seeds
        if name == "openspiel-deep-cfr" and args.openspiel_seeds is not None:
            seeds = args.openspiel_seeds
        seconds = args.seconds
        if name in ("cfr+", "es-mccfr") and args.tabular_seconds is not None:
            seconds = args.tabular_seconds
        plan += [(name, seed, seconds) for seed in seeds if (name, seed) not in done]
    warm_up()
    columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[info]}"),
               TimeElapsedColumn())
    with Progress(*columns) as progress:
        overall = progress.add_task("study", total=len(plan), info="")
        for name, seed, seconds in plan:
            task = progress.add_task(f"{name} seed {seed}", total=seconds, info="")

            def tick(spent: float, task: Any = task) -> None:
                progress.update(task, completed=spent)

            step = seconds / args.points
            if name == "deep-cfr":
                points = run_deep(seed, seconds, step, tick)
            elif name == "openspiel-deep-cfr":
                points = run_openspiel(seed, seconds, step, tick)
            else:
                points = run_tabular(name, seed, seconds, step, tick)
            last = points[-1]
            progress.update(task, info=f"exploitability {last['exploitability']:.4f}")
            progress.console.print(
                f"{name} seed {seed}: {last['exploitability']:.4f} chips after "
                f"{last['iteration']} iterations, {last['seconds_with_policy']:.0f} s"
            )
            load_text = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
            results["runs"].append({"algorithm": name, "seed": seed, "seconds": seconds,
                                    "uptime_after": load_text, "points": points})
            results["settings"] = {"deep-cfr": DEEP_SETTINGS, "openspiel-deep-cfr": {
                k: list(v) if isinstance(v, tuple) else v for k, v in OPENSPIEL_SETTINGS.items()
            }}
            write_atomic(results_path, json.dumps(results, indent=1))
            progress.advance(overall)
    plot(results["runs"], args.out / "deep_cfr_leduc.png")
    print(summary(results["runs"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
