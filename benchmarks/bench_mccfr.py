"""Monte Carlo CFR on Leduc: pokerlab's compiled samplers against OpenSpiel's C++ solvers.

For external and outcome sampling, both solvers run the same numbers of iterations (an
iteration is one walk per player in both); we time the iterations only (measurements
excluded) and measure the average strategy's exploitability at each count: ours with
pokerlab.eval, OpenSpiel's with ``pyspiel.exploitability`` on ``average_policy()``.
Exploitabilities are means over seeds.

Walking states (games too big to compile): ours with ``compiled=False`` on Leduc, and on
heads-up limit Hold'em (which does not compile), against OpenSpiel's Python
``ExternalSamplingSolver`` (the same kind of walker: Python over a game's states) and, on
Hold'em, its C++ ``ExternalSamplingMCCFRSolver``, on ``universal_poker`` with the same
rules (blinds 1/2, stacks 200, bets 2/2/4/4, 3 raises preflop and 4 after). Rates are
iterations per second over a fixed wall time, after a warm-up.

Note: OpenSpiel's Leduc information states name the suits (936 infosets) where pokerlab's
name only ranks (288, suit-isomorphic histories merged), so pokerlab's infosets gather
more samples per iteration and its exploitability per iteration is lower. On Kuhn, where
the infosets are the same, the two agree within noise (checked when writing this).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

import numpy as np
import pyspiel
from open_spiel.python.algorithms import external_sampling_mccfr as os_es

from benchmarks._harness import Row
from pokerlab.eval import exploitability_array
from pokerlab.games import Game, leduc, load
from pokerlab.solvers.mccfr import ExternalSamplingMCCFR, OutcomeSamplingMCCFR
from pokerlab.tree import compile

HOLDEM = 'holdem(betting="limit")'
HOLDEM_GAMEDEF = """GAMEDEF
limit
numPlayers = 2
numRounds = 4
blind = 2 1
raiseSize = 2 2 4 4
firstPlayer = 2 1 1 1
maxRaises = 3 4 4 4
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 0 3 1 1
stack = 200 200
END GAMEDEF
"""
"""OpenSpiel's universal_poker with pokerlab's ``holdem(betting="limit")`` rules."""


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


def _rate(step: Callable[[], object], seconds: float) -> float:
    """Iterations per second of ``step`` (one iteration a call) over about ``seconds``."""
    step()  # warm up: first infosets, imports
    start = time.perf_counter()
    done = 0
    while time.perf_counter() - start < seconds:
        step()
        done += 1
    return done / (time.perf_counter() - start)


def _walking_rows(quick: bool) -> list[Row]:
    seconds = 3.0 if quick else 15.0
    rows: list[Row] = []
    cases: list[tuple[str, Game, pyspiel.Game]] = [
        ("Leduc", leduc(), pyspiel.load_game("leduc_poker")),
        (
            "limit Hold'em",
            load(HOLDEM),
            pyspiel.universal_poker.load_universal_poker_from_acpc_gamedef(HOLDEM_GAMEDEF),
        ),
    ]
    for label, game, os_game in cases:
        ours = ExternalSamplingMCCFR(game, seed=0, compiled=False)
        rate = _rate(partial(ours._advance, 1), seconds)
        python = os_es.ExternalSamplingSolver(os_game, os_es.AverageType.SIMPLE)
        rows.append(
            Row(
                name=f"ES-MCCFR {label} walking states, iterations/s",
                unit="it/s",
                ours=rate,
                peer_name="OpenSpiel Python ExternalSamplingSolver",
                peer=_rate(python.iteration, seconds),
                higher_is_better=True,
                target=">= peer",
                note=f"{ours.infosets_touched():,} infosets met, "
                f"{(ours.memory_bytes() or 0) / 1e6:.1f} MB",
            )
        )
        if label != "Leduc":
            cpp = pyspiel.ExternalSamplingMCCFRSolver(os_game, seed=1)
            rows.append(
                Row(
                    name=f"ES-MCCFR {label} walking states, iterations/s",
                    unit="it/s",
                    ours=rate,
                    peer_name="pyspiel.ExternalSamplingMCCFRSolver (C++)",
                    peer=_rate(cpp.run_iteration, seconds),
                    higher_is_better=True,
                    note="a game-specific kernel is a later issue",
                )
            )
    return rows


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
    rows.extend(_walking_rows(quick))
    return rows
