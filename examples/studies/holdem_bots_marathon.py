"""Play many hands of Hold'em between the built-in Hold'em bots and count the faults.

The issue's "Must hold": the Easy AI and the Hard AIs never crash over 100,000 hands of
2 to 9 players. Every table (2..9 seats, limit and no-limit) seats the Hold'em bots
beside random and always-raise players; a bot that raises an exception, answers an
illegal action or a non-distribution is a fault that the dealer records.

    PYTHONPATH=. python examples/studies/holdem_bots_marathon.py --hands 100000

prints one line per table and the totals; the exit status is 1 if any fault happened.
"""

from __future__ import annotations

import argparse
import sys
import time

from pokerlab.agents.registry import make_agent
from pokerlab.agents.simple import AlwaysRaise, RandomAgent
from pokerlab.eval.matches import play_match
from pokerlab.games import holdem


def main(argv: list[str] | None = None) -> int:
    """Play the marathon; return 1 when any fault happened."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--hands", type=int, default=100_000, help="hands in all")
    parser.add_argument("--bots", default="easy,hard-seed,ehs", help="the Hold'em bots")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    bots = args.bots.split(",")
    tables = [(players, betting) for players in range(2, 10) for betting in ("limit", "nolimit")]
    per_table = -(-args.hands // len(tables))  # rounded up: at least --hands in all
    total = faults = 0
    start = time.perf_counter()
    for index, (players, betting) in enumerate(tables):
        game = holdem(players=players, betting=betting, stack=100 * players)
        agents: list[object] = []
        for seat in range(players):
            kind = seat % (len(bots) + 2)
            seed = args.seed * 1000 + index * 10 + seat
            if kind < len(bots):
                agents.append(make_agent(bots[kind], game, seed=seed))
            elif kind == len(bots):
                agents.append(RandomAgent(game, seed=seed))
            else:
                agents.append(AlwaysRaise(game))
        result = play_match(game, *agents, hands=-(-per_table // players),
                            seed=args.seed + index, duplicate=False)
        total += result.n_hands
        faults += len(result.events)
        print(f"{players} seats {betting:8s} {result.n_hands:7,d} hands "
              f"{len(result.events)} faults  ({time.perf_counter() - start:.0f} s)", flush=True)
    print(f"total: {total:,} hands, {faults} faults, {time.perf_counter() - start:.0f} s "
          f"(bots: {', '.join(bots)})")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
