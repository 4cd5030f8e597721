"""Betting trees and blueprint iterations on several checkouts, alternated (an A/B).

Each figure is measured in a fresh interpreter per checkout (``PYTHONPATH`` set to it) in
CPU time (``time.process_time``: a shared machine's load changes wall time far more), the
checkouts alternating row by row; each row prints every checkout's figure and its ratio to
the first one's. Rows: building the blueprint's betting tree (heads-up limit Hold'em,
no-limit ``holdem(stack=200)`` with ``50%,100%,a`` and with ``2.5x,a/33%,75%,a/75%,a/a``,
three-handed limit with ``cap=2``), counting and building the issue's turn spot tree, and
blueprint iterations per second (a trainer built, then ES-MCCFR on Leduc and on heads-up
limit Hold'em with lossless cards):

    PYTHONPATH=. python -m benchmarks.checkout_ab_trees [--rounds N] DIR [DIR ...]

Only APIs both sides of the A/B have are used (``rules_for``, ``build_tree``, ``Spot``,
``clear_caches``: every timed build starts from empty caches, so a kept plan is not timed
as a build).
Make an older checkout with ``git worktree add --detach /tmp/old COMMIT``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

TREE = """
import sys, time
from pokerlab.games import load
from pokerlab.blueprint.nolimit import rules_for
from pokerlab.blueprint.betting_tree import build_tree
from pokerlab._cache import clear_caches
game_text, menu = sys.argv[1], sys.argv[2] or None
rules = rules_for(load(game_text), menu)
build_tree(rules)  # compile and warm what the first call needs
best = float("inf")
for _ in range(3):
    clear_caches()  # each build enumerates its betting situations again
    start = time.process_time()
    tree = build_tree(rules)
    best = min(best, time.process_time() - start)
print(tree.n_nodes, best)
"""

SPOT = """
import time
from pokerlab.subgame.spot import Spot
def spot():
    return Spot(board="Td9d6hQc", oop="AA, KK, QQ, JJ, TT, AK, AQs, KQs, T9s, 98s, 87s",
                ip="QQ-22, AJs+, KTs+, QTs+, JTs, T9s, 98s, 87s, 76s", pot=200, stack=900,
                bets="50%, 100%", raises="2.5x")
from pokerlab._cache import clear_caches
spot().build()
best = float("inf")
for _ in range(3):
    clear_caches()
    start = time.process_time()
    built = spot().build()
    best = min(best, time.process_time() - start)
print(built.public.tree.n_nodes, best)
"""

TRAIN = """
import sys, time
from pokerlab.games import load
from pokerlab.blueprint.mccfr import BlueprintTrainer
game = load(sys.argv[1])
start = time.process_time()
trainer = BlueprintTrainer(game, seed=0)
built = time.process_time() - start
trainer.run(2000)
start, done = time.process_time(), 0
while time.process_time() - start < float(sys.argv[2]):
    trainer.run(2000)
    done += 2000
print(built, done / (time.process_time() - start))
"""

TREES = (
    ('holdem(betting="limit")', ""),
    ("holdem(stack=200)", "50%,100%,a"),
    ("holdem(stack=200)", "2.5x,a/33%,75%,a/75%,a/a"),
    ('holdem(players=3, betting="limit", stack=1000, cap=2)', ""),
)
TRAINERS = ("leduc", 'holdem(betting="limit", ranks=4, suits=2, board="1")')


def _run(code: str, checkout: Path, *args: str) -> list[float]:
    """The numbers the code prints on ``checkout`` (NaNs where it cannot run)."""
    environment = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=checkout, env=environment,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return [float("nan")] * 2
    return [float(x) for x in done.stdout.split()[-2:]]


def _print(label: str, unit: str, figures: dict[Path, float], first: Path) -> None:
    parts = [f"{c}: {v:.4g} {unit} ({v / figures[first]:.2f}x)" for c, v in figures.items()]
    print(f"{label}: " + "; ".join(parts))


def main(argv: list[str] | None = None) -> None:
    """Print each row for every checkout, round by round, with ratios to the first."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("checkouts", nargs="+", type=Path)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args(argv)
    checkouts = [c.resolve() for c in args.checkouts]
    first = checkouts[0]
    print(f"load average {os.getloadavg()[0]:.1f} at the start")
    for round_ in range(args.rounds):
        for game_text, menu in TREES:
            runs = {c: _run(TREE, c, game_text, menu) for c in checkouts}
            nodes = int(runs[first][0])
            _print(f"round {round_ + 1} tree {game_text} {menu or '(limit)'} ({nodes:,} nodes)",
                   "s CPU", {c: r[1] for c, r in runs.items()}, first)
        runs = {c: _run(SPOT, c) for c in checkouts}
        _print(f"round {round_ + 1} turn spot Td9d6hQc ({int(runs[first][0]):,} nodes) build",
               "s CPU", {c: r[1] for c, r in runs.items()}, first)
        for game_text in TRAINERS:
            runs = {c: _run(TRAIN, c, game_text, str(args.seconds)) for c in checkouts}
            _print(f"round {round_ + 1} trainer {game_text} set-up", "s CPU",
                   {c: r[0] for c, r in runs.items()}, first)
            _print(f"round {round_ + 1} trainer {game_text} iterations", "it/s CPU",
                   {c: r[1] for c, r in runs.items()}, first)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
