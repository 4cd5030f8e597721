"""Exact figures of the searching Hard AI on Leduc written as a Hold'em game.

``python -m benchmarks.search_exactness``: for blueprints of 300, 3,000 and 30,000
iterations, the exploitability of the blueprint and of the searcher over it (a search at
every decision of every public history, 200 solver iterations each, from the flop or from
preflop, with the re-solving gadget or without), measured on the compiled tree, and the
searcher's exact value against its blueprint (both seats averaged), in chips per hand.
docs/hard_search.md records the table.
"""

from __future__ import annotations

import time

from pokerlab.agents.search_policy import SearchPolicy, SearchSettings
from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.blueprint.policy import BlueprintPolicy
from pokerlab.eval.expected_value import expected_value
from pokerlab.eval.exploitability import exploitability
from pokerlab.games import load
from pokerlab.subgame.safe_search import SAFETIES

LEDUC_AS_HOLDEM = (
    'holdem(betting="limit", ranks=3, suits=2, hole=1, board="1", seat_blinds=(1, 1), '
    'raises="2,4", caps="2,2", first="0,0", stack=100)'
)


def main() -> None:
    """Print one markdown row per blueprint, starting street and safety."""
    game = load(LEDUC_AS_HOLDEM)
    print("| blueprint iterations | blueprint exploitability | search from | safety | "
          "searcher exploitability | searcher vs blueprint | seconds |")
    print("|---|---|---|---|---|---|---|")
    for iterations in (300, 3000, 30000):
        trainer = BlueprintTrainer(game, seed=0)
        trainer.run(iterations)
        blueprint = BlueprintPolicy(trainer, game=game)
        before = exploitability(game, blueprint)
        for street, name in ((1, "flop"), (0, "preflop")):
            for safety in SAFETIES:
                started = time.perf_counter()
                searcher = SearchPolicy(blueprint, SearchSettings(
                    think=None, iterations=200, from_street=street, safety=safety))
                after = exploitability(game, searcher)
                head = (expected_value(game, [searcher, blueprint])[0]
                        + expected_value(game, [blueprint, searcher])[1]) / 2
                print(f"| {iterations:,} | {before:.4f} | {name} | {safety} | {after:.4f} | "
                      f"{head:+.4f} | {time.perf_counter() - started:.0f} |", flush=True)


if __name__ == "__main__":
    main()
