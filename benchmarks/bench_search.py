"""The searching Hard AI's decision time per street on heads-up Texas Hold'em.

A tiny no-limit blueprint (buckets 10/4/4/3, menu ``50%,100%,a``, 3,000 iterations) and
``think=1.0`` s; random turn and river spots after calls on every street (4 each with
``--quick``, else 12); the searcher's earlier decisions of the hand are made first,
untimed, as in play. Rows: median and 95th percentile wall seconds per street against
the issue's target (median at most 1 s on 2 cores, never over 1.2 s), with how many
spots were searched (the others fell back to the blueprint) in the note. Wall time: the
budget is a wall-clock one.
"""

from __future__ import annotations

import time
from pathlib import Path
from tempfile import TemporaryDirectory

import numpy as np

from benchmarks._harness import Row
from pokerlab._types import CHANCE
from pokerlab.agents.search_policy import SearchPolicy, SearchSettings
from pokerlab.blueprint.cards import cards_from_spec
from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.blueprint.nolimit import rules_for
from pokerlab.blueprint.policy import BlueprintPolicy
from pokerlab.games import load
from pokerlab.games.holdem_rules import CALL

TINY = {"kind": "holdem", "bucket_counts": [10, 4, 4, 3], "seed": 0, "n_bins": 4,
        "sample": 500, "boards": 2}
THINK = 1.0


def run(quick: bool) -> list[Row]:
    game = load("holdem(stack=200)")
    with TemporaryDirectory() as folder:
        cards = cards_from_spec(game, TINY, cache_dir=Path(folder))
        trainer = BlueprintTrainer(game, cards, rules_for(game, "50%,100%,a"), seed=0)
        trainer.run(3000)
        blueprint = BlueprintPolicy(trainer, game=game)
        rng = np.random.default_rng(0)
        rows = []
        for street, name in ((2, "turn"), (3, "river")):
            seconds, searched = [], 0
            for _ in range(4 if quick else 12):
                policy = SearchPolicy(blueprint, SearchSettings(think=THINK))
                state = game.initial_state()
                while not (state.to_act >= 0 and state.street == street):  # type: ignore[attr-defined]
                    if state.to_act == CHANCE:
                        outcomes = state.chance_outcomes()
                        state = state.child(outcomes[int(rng.integers(len(outcomes)))][0])
                    else:
                        if state.street >= 2:  # type: ignore[attr-defined]
                            # as in a hand: its earlier decisions were made (and kept)
                            policy.decide(state.observation(state.to_act))
                        state = state.child(CALL)
                started = time.perf_counter()
                decision = policy.decide(state.observation(state.to_act))
                seconds.append(time.perf_counter() - started)
                searched += decision.searched and decision.iterations > 0
            values = np.array(seconds)
            note = f"{searched} of {len(seconds)} solved; max {values.max():.2f} s"
            rows.append(Row(f"hard-search {name} decision, median (think 1 s)", "s",
                            float(np.median(values)), target="<= 1.0", note=note))
            rows.append(Row(f"hard-search {name} decision, p95 (think 1 s)", "s",
                            float(np.percentile(values, 95)), target="<= 1.2", note=note))
    return rows
