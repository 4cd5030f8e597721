"""Blueprint ES-MCCFR against OpenSpiel's C++ ES-MCCFR on the same small Hold'em game.

The game is Leduc written as Hold'em (``holdem(betting="limit", ranks=3, suits=2, hole=1,
board="1", ...)``) loaded in OpenSpiel's ``universal_poker`` from its ACPC game definition
(:func:`pokerlab.protocols.acpc_gamedef.format_gamedef`), with no abstraction on either
side. An iteration is one traversal per player in both. Only the iterations are timed; the
exploitability of each average strategy is measured at the same iteration counts (ours with
pokerlab.eval on the average strategy, OpenSpiel's with ``pyspiel.exploitability``), means
over seeds.

Note: universal_poker's information states name the suits, pokerlab's blueprint buckets
hold ranks only (suits cannot matter below five cards: lossless), so each of our rows
gathers more samples per iteration.

Also: the blueprint trainer on heads-up limit Texas Hold'em with a small clustered
abstraction (169/8/8/8; no peer), with pruning, and with 2 kernel threads against 1.
"""

from __future__ import annotations

import time

import numpy as np
import pyspiel

from benchmarks._harness import Row
from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.eval import exploitability
from pokerlab.games import load
from pokerlab.protocols.acpc_gamedef import format_gamedef

SMALL = (
    'holdem(betting="limit", ranks=3, suits=2, hole=1, board="1", seat_blinds=(1, 1), '
    'raises="2,4", caps="2,2", first="0,0", stack=100)'
)
"""Leduc as a Hold'em game: the small game both solvers train."""
TEXAS_CARDS = {"kind": "holdem", "bucket_counts": [169, 8, 8, 8], "seed": 0, "n_bins": 8,
               "sample": 5000, "boards": 3}
"""The hard AI's default Texas abstraction."""


def _curve_ours(seed: int, counts: list[int]) -> tuple[list[float], float]:
    game = load(SMALL)
    BlueprintTrainer(game, seed=seed).run(10)  # load the kernels outside the timing
    trainer = BlueprintTrainer(game, seed=seed)
    values: list[float] = []
    done = 0
    for count in counts:
        trainer.run(count - done)
        done = count
        values.append(float(exploitability(game, trainer.average_strategy())))
    return values, counts[-1] / trainer.seconds


def _curve_openspiel(seed: int, counts: list[int]) -> tuple[list[float], float]:
    game = pyspiel.universal_poker.load_universal_poker_from_acpc_gamedef(
        format_gamedef(load(SMALL))  # type: ignore[arg-type]
    )
    solver = pyspiel.ExternalSamplingMCCFRSolver(game, seed=seed + 1)
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


def _texas_rows(quick: bool) -> list[Row]:
    from pokerlab.blueprint.cards import cards_from_spec

    game = load('holdem(betting="limit")')
    cards = cards_from_spec(game, TEXAS_CARDS)
    warm, timed = (20_000, 40_000) if quick else (100_000, 200_000)
    rates: dict[str, float] = {}
    for label, options in (
        ("1 thread", {}),
        ("2 threads", {"threads": 2}),
        ("1 thread, pruning", {"prune_after": warm // 2, "prune_threshold": 0.05}),
        ("2 threads, pruning", {"threads": 2, "prune_after": warm // 2,
                                "prune_threshold": 0.05}),
    ):
        trainer = BlueprintTrainer(game, cards, seed=0, **options)
        trainer.run(warm)
        before = trainer.seconds
        trainer.run(timed)
        rates[label] = timed / (trainer.seconds - before)
    rows = [
        Row(name="blueprint limit Texas 169/8/8/8, iterations/s (1 thread)", unit="it/s",
            ours=rates["1 thread"], note=f"after {warm:,} warm-up iterations"),
    ]
    for label in ("2 threads", "1 thread, pruning", "2 threads, pruning"):
        rows.append(Row(
            name=f"blueprint limit Texas 169/8/8/8, iterations/s ({label})", unit="it/s",
            ours=rates[label], peer_name="the same, 1 thread, no pruning",
            peer=rates["1 thread"], higher_is_better=True,
            note="pruning: 95% of iterations after half the warm-up, threshold 0.05",
        ))
    return rows


def run(quick: bool) -> list[Row]:
    counts = [10_000, 100_000] if quick else [10_000, 100_000, 400_000]
    seeds = [0] if quick else [0, 1, 2]
    ours = [_curve_ours(seed, counts) for seed in seeds]
    theirs = [_curve_openspiel(seed, counts) for seed in seeds]
    rows = [
        Row(
            name="blueprint ES-MCCFR small Hold'em (Leduc-like), iterations/s",
            unit="it/s",
            ours=float(np.mean([rate for _, rate in ours])),
            peer_name="pyspiel.ExternalSamplingMCCFRSolver on universal_poker",
            peer=float(np.mean([rate for _, rate in theirs])),
            higher_is_better=True,
            target=">= 20x",
            note=f"{counts[-1]:,} iterations, {len(seeds)} seed(s), no abstraction",
        )
    ]
    for k, count in enumerate(counts):
        rows.append(
            Row(
                name=f"blueprint small Hold'em exploitability @ {count:,} it",
                unit="chips/hand",
                ours=float(np.mean([values[k] for values, _ in ours])),
                peer_name="pyspiel.ExternalSamplingMCCFRSolver",
                peer=float(np.mean([values[k] for values, _ in theirs])),
                higher_is_better=False,
                target="<= peer",
                note="OpenSpiel's infosets name suits; ours are lossless by rank",
            )
        )
    rows.extend(_texas_rows(quick))
    return rows
