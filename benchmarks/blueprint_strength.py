"""Study: how strong is the hard AI's default blueprint? (docs/hard_ai.md).

``python -m benchmarks.blueprint_strength GAME [--hands N] [--lbr-hands M] [--cache DIR]``
trains (or reads from the cache) GAME's default blueprint, then plays duplicate matches of N
deals per seat against random, always-call, always-raise, easy and hard-seed, printing the
hard AI's chips per hand with the 95% interval, and local best response's winnings against
it over M hands (mbb/hand). Defaults: ``holdem(betting="limit")``, N = 2,000, M = 400.
"""

from __future__ import annotations

import argparse
import time

from pokerlab.agents.hard import HardAI
from pokerlab.agents.registry import make_agent
from pokerlab.blueprint.lbr import run_lbr
from pokerlab.eval.matches import play_match
from pokerlab.games import load

BASELINES = ("random", "always-call", "always-raise", "easy", "hard-seed")
"""The opponents the study plays."""


def main() -> None:
    """Run the study and print one line per measurement."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game", nargs="?", default='holdem(betting="limit")')
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--lbr-hands", type=int, default=400)
    parser.add_argument("--cache", default=None)
    args = parser.parse_args()
    game = load(args.game)
    start = time.perf_counter()
    hard = HardAI(game, seed=0, cache_dir=args.cache)
    print(f"default blueprint ready in {time.perf_counter() - start:.1f} s: {hard.blueprint_path}")
    for name in BASELINES:
        start = time.perf_counter()
        result = play_match(game, hard, make_agent(name, game, seed=1), hands=args.hands, seed=5)
        estimate = result.estimates[0]
        print(f"vs {name}: {estimate.mean:+.4f} chips/hand for hard over {result.n_hands} "
              f"hands, 95% interval {estimate} ({time.perf_counter() - start:.1f} s)")
    start = time.perf_counter()
    lbr = run_lbr(game, hard.policy, args.lbr_hands, seed=0)  # type: ignore[arg-type]
    print(f"LBR vs hard: {lbr.mbb_per_hand:+.1f} +- {lbr.ci95:.1f} mbb/hand over {lbr.hands} "
          f"hands ({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
