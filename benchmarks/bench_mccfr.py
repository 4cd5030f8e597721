"""Monte Carlo CFR on Leduc: pokerlab's compiled samplers against OpenSpiel's C++ solvers.

For external and outcome sampling, both solvers run the same numbers of iterations (an
iteration is one walk per player in both); we time the iterations only (measurements
excluded) and measure the average strategy's exploitability at each count: ours with
pokerlab.eval, OpenSpiel's with ``pyspiel.exploitability`` on ``average_policy()``.
Exploitabilities are means over seeds.

Note: OpenSpiel's Leduc information states name the suits (936 infosets) where pokerlab's
name only ranks (288, suit-isomorphic histories merged), so pokerlab's infosets gather
more samples per iteration and its exploitability per iteration is lower. On Kuhn, where
the infosets are the same, the two agree within noise (checked when writing this).
"""

from __future__ import annotations

import time

import numpy as np
import pyspiel

from benchmarks._harness import Row
from pokerlab.eval import exploitability_array
from pokerlab.games import leduc
from pokerlab.solvers.mccfr import ExternalSamplingMCCFR, OutcomeSamplingMCCFR
from pokerlab.tree import compile


def _curve_ours(
    cls: type[ExternalSamplingMCCFR] | type[OutcomeSamplingMCCFR], seed: int, counts: list[int]
) -> tuple[list[float], float]:
    game = leduc()
    tree = compile(game)
    solver = cls(game, seed=seed)
    solver._advance(1)  # load the compiled kernel outside the timing
    solver = cls(game, seed=seed)
    values: list[float] = []
    spent = 0.0
    done = 0
    for count in counts:
        tick = time.perf_counter()
        solver._advance(count - done)
        spent += time.perf_counter() - tick
        done = count
        values.append(float(exploitability_array(tree, solver.average_probs())))
    return values, counts[-1] / spent


def _curve_openspiel(kind: str, seed: int, counts: list[int]) -> tuple[list[float], float]:
    game = pyspiel.load_game("leduc_poker")
    if kind == "es":
        solver = pyspiel.ExternalSamplingMCCFRSolver(game, seed=seed + 1)
    else:
        solver = pyspiel.OutcomeSamplingMCCFRSolver(game, seed=seed + 1)
    values: list[float] = []
    spent = 0.0
    done = 0
    for count in counts:
        tick = time.perf_counter()
        for _ in range(count - done):
            solver.run_iteration()
        spent += time.perf_counter() - tick
        done = count
        values.append(float(pyspiel.exploitability(game, solver.average_policy())))
    return values, counts[-1] / spent


def run(quick: bool) -> list[Row]:
    counts = [1_000, 10_000] if quick else [1_000, 10_000, 100_000]
    seeds = [0] if quick else [0, 1, 2]
    rows: list[Row] = []
    for kind, cls, peer_name in (
        ("es", ExternalSamplingMCCFR, "pyspiel.ExternalSamplingMCCFRSolver"),
        ("os", OutcomeSamplingMCCFR, "pyspiel.OutcomeSamplingMCCFRSolver"),
    ):
        ours = [_curve_ours(cls, seed, counts) for seed in seeds]
        theirs = [_curve_openspiel(kind, seed, counts) for seed in seeds]
        label = kind.upper()
        rows.append(
            Row(
                name=f"{label}-MCCFR Leduc iterations/s",
                unit="it/s",
                ours=float(np.mean([rate for _, rate in ours])),
                peer_name=peer_name,
                peer=float(np.mean([rate for _, rate in theirs])),
                higher_is_better=True,
                target=">= peer" if kind == "es" else "",
                note=f"{counts[-1]:,} iterations, {len(seeds)} seed(s)",
            )
        )
        for k, count in enumerate(counts):
            rows.append(
                Row(
                    name=f"{label}-MCCFR Leduc exploitability @ {count:,} it",
                    unit="chips/hand",
                    ours=float(np.mean([values[k] for values, _ in ours])),
                    peer_name=peer_name,
                    peer=float(np.mean([values[k] for values, _ in theirs])),
                    higher_is_better=False,
                    target="<= peer" if kind == "es" else "",
                    note="OpenSpiel's infosets name suits (936 vs 288)",
                )
            )
    return rows
