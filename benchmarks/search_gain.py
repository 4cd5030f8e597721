"""The searcher's exact gain over its blueprint, spot by spot (issue 24's diagnosis).

``python -m benchmarks.search_gain [--spots 40] [--street 3] [--seed 7] [--game SPEC]
[--bets 75% --raises 2.5x --raise-cap 2]``:
on decisions of ``street`` (3: the river) dealt by the game's default blueprint playing
itself, ``hard-search``'s search (1 s, stopping at 0.1% of the pot) with each safety
(the blueprint's menu, or the sizes given), valued exactly over both real ranges
(:func:`pokerlab.agents.search_gain.spot_gain`): against the blueprint (projected onto
the sizes given), and against a best response. The rows average over the spots that
every safety searched. docs/hard_search.md records the tables.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from pokerlab.agents.hard import HardAI
from pokerlab.agents.search_gain import SpotGain, blueprint_spots, spot_gain
from pokerlab.agents.search_name import DEFAULT_TARGET, DEFAULT_THINK
from pokerlab.agents.search_policy import SearchPolicy, SearchSettings
from pokerlab.games import load
from pokerlab.subgame.safe_search import SAFETIES


def _mean(values: list[float]) -> str:
    """``mean [low, high]`` (95%, normal) of ``values``."""
    array = np.asarray(values, dtype=np.float64)
    half = 1.96 * float(array.std(ddof=1)) / math.sqrt(len(array)) if len(array) > 1 else 0.0
    mean = float(array.mean())
    return f"{mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]"


def main() -> None:
    """Print one markdown row per safety."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spots", type=int, default=40)
    parser.add_argument("--street", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--game", default="holdem()")
    parser.add_argument("--bets", default=None, help="the search's own sizes, e.g. 75%%")
    parser.add_argument("--raises", default=None)
    parser.add_argument("--raise-cap", type=int, default=None)
    args = parser.parse_args()
    game = load(args.game)
    blueprint = HardAI(game).policy
    spots = blueprint_spots(blueprint, args.street, args.spots, seed=args.seed)
    found: dict[str, list[SpotGain | None]] = {}
    seconds: dict[str, float] = {}
    for safety in SAFETIES:
        started = time.perf_counter()
        found[safety] = [spot_gain(SearchPolicy(blueprint, SearchSettings(
            think=DEFAULT_THINK, target=DEFAULT_TARGET, safety=safety, bets=args.bets,
            raises=args.raises, raise_cap=args.raise_cap)), state) for state in spots]
        seconds[safety] = time.perf_counter() - started
    # the rows compare the spots every safety searched (the others ran out of time)
    common = [k for k in range(len(spots)) if all(found[s][k] is not None for s in SAFETIES)]
    print(f"{len(common)} of {len(spots)} spots searched by every safety")
    print()
    print("| safety | searched | rejected | gain, chips per spot | gain, % of the pot "
          "| vs a best response: blueprint | vs a best response: search | seconds |")
    print("|---|---|---|---|---|---|---|---|")
    for safety in SAFETIES:
        gains = [g for k in common if (g := found[safety][k]) is not None]
        if not gains:
            continue
        searched = sum(g is not None for g in found[safety])
        print(f"| {safety} | {searched} of {len(spots)} | {sum(g.rejected for g in gains)} "
              f"| {_mean([g.played_gain for g in gains])} "
              f"| {_mean([100 * g.played_gain / g.pot for g in gains])} "
              f"| {np.mean([g.worst_before for g in gains]):+.3f} "
              f"| {np.mean([g.worst_after for g in gains]):+.3f} "
              f"| {seconds[safety]:.0f} |", flush=True)


if __name__ == "__main__":
    main()
