"""Two quick-table rows timed in CPU time on several checkouts, alternated (A/B in a minute).

The walking ES-MCCFR row on ``holdem(betting="limit")`` and the Leduc strategy-vs-strategy
fast path depend on the load of a shared machine when timed by wall clock; this script
runs each measurement in a fresh interpreter per checkout (``PYTHONPATH`` set to it),
timing ``time.process_time``, alternating the checkouts round by round, and prints each
figure with its ratio to the first checkout, plus OpenSpiel's Python
``ExternalSamplingSolver`` on ``universal_poker`` (the row's peer) timed the same way:

    PYTHONPATH=. python -m benchmarks.checkout_ab [--rounds N] [--seconds S] DIR [DIR ...]

Make older checkouts with ``git worktree add --detach /tmp/old COMMIT``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

WALK = """
import sys, time
from pokerlab.games import load
from pokerlab.solvers import ExternalSamplingMCCFR
solver = ExternalSamplingMCCFR(load('holdem(betting="limit")'), seed=0, compiled=False)
solver._advance(1)
start, done = time.process_time(), 0
while time.process_time() - start < float(sys.argv[1]):
    solver._advance(1)
    done += 1
print(done / (time.process_time() - start))
"""

PEER = """
import sys, time
import pyspiel
from open_spiel.python.algorithms import external_sampling_mccfr as es
from benchmarks.bench_mccfr import HOLDEM_GAMEDEF
game = pyspiel.universal_poker.load_universal_poker_from_acpc_gamedef(HOLDEM_GAMEDEF)
solver = es.ExternalSamplingSolver(game, es.AverageType.SIMPLE)
solver.iteration()
start, done = time.process_time(), 0
while time.process_time() - start < float(sys.argv[1]):
    solver.iteration()
    done += 1
print(done / (time.process_time() - start))
"""

MATCH = """
import time
from pokerlab.games import leduc
from pokerlab.strategy import Strategy
from pokerlab.eval.matches import play_match
try:
    from pokerlab.agents import PolicyAgent as Agent
except ImportError:  # checkouts before the policy contract
    from pokerlab.agents import StrategyAgent as Agent
game = leduc()
a, b = Agent(Strategy.uniform(game)), Agent(Strategy.uniform(game))
play_match(game, a, b, hands=1000, seed=0)
best = min(_time for _time in (
    (lambda s: (play_match(game, a, b, hands=100_000, seed=1), time.process_time() - s)[1])(
        time.process_time()) for _ in range(5)))
print(100_000 / best)
"""


def _measure(code: str, checkout: Path, seconds: float) -> float:
    """The figure the code prints on ``checkout``; NaN where that checkout cannot run it."""
    environment = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run([sys.executable, "-c", code, str(seconds)], cwd=checkout,
                          env=environment, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return float("nan")
    return float(done.stdout.split()[-1])


def main(argv: list[str] | None = None) -> None:
    """Print the rows for every checkout, round by round, with ratios to the first."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="+", type=Path)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=4.0)
    args = parser.parse_args(argv)
    first = args.checkouts[0].resolve()
    print(f"load average {os.getloadavg()[0]:.1f} at the start")
    for round_ in range(args.rounds):
        walk = {c: _measure(WALK, c.resolve(), args.seconds) for c in args.checkouts}
        peer = _measure(PEER, first, args.seconds)
        match = {c: _measure(MATCH, c.resolve(), args.seconds) for c in args.checkouts}
        for c in args.checkouts:
            print(f"round {round_ + 1} {c}: walking Hold'em {walk[c]:.0f} it/s CPU "
                  f"({walk[c] / peer:.2f}x the peer's {peer:.0f}); Leduc fast path "
                  f"{match[c]:,.0f} hands/s CPU ({match[c] / match[args.checkouts[0]]:.2f}x "
                  "the first)")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
