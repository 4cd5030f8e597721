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

import os
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
from pokerlab.cards import parse_cards
from pokerlab.games import load
from pokerlab.games.bet_sizes import parse_bet_menu
from pokerlab.games.betting_sequences import node_actions
from pokerlab.games.holdem_rules import CALL
from pokerlab.games.holdem_state import HoldemState
from pokerlab.subgame.holdem_subgame import build_subgame
from pokerlab.subgame.range_solver import uniform_arrays
from pokerlab.subgame.safe_search import search

TINY = {"kind": "holdem", "bucket_counts": [10, 4, 4, 3], "seed": 0, "n_bins": 4,
        "sample": 500, "boards": 2}
THINK = 1.0


def _turn_root(game: object) -> HoldemState:
    """Heads-up no-limit at 100 big blinds: a limped pot checked to the turn of Td9d6hQc."""
    state = game.initial_state()  # type: ignore[attr-defined]
    board = list(parse_cards("Td9d6hQc"))
    while not (state.to_act >= 0 and state.street == 2):
        if state.to_act == CHANCE:
            options = [a for a, _ in state.chance_outcomes()]
            wanted = next((c for c in board if c in options), None)
            if len(state.board) < len(board) and len(state.history) >= 4 and wanted is not None:
                state = state.child(wanted)
            else:
                state = state.child(next(a for a in options if a not in board))
        else:
            state = state.child(CALL)
    return state


def turn_subgame_rows(threads: tuple[int, ...] = (1, 2)) -> list[Row]:
    """The issue's speed case: a turn subgame, one bet size and one raise size, to 1%.

    Both players hold every hand (1,128 each on the turn), a limped pot of 4 chips checked
    to the turn with 198 chips behind, bets 75% of the pot and raises 2.5x; the searcher
    re-solves behind the gadget against a uniform reference, to 1% of the pot (measured
    after batches of 2, 4, 8... iterations), wall clock with the gadget's alternative
    values, on one thread and on two. The build of the subgame is timed apart.
    """
    game = load("holdem(stack=200)")
    root = _turn_root(game)
    menu = parse_bet_menu("75%", "2.5x")
    started = time.perf_counter()
    sub = build_subgame(game.rules, root.betting_node,  # type: ignore[attr-defined]
                        tuple(int(c) for c in root.board),
                        (np.ones(1326), np.ones(1326)),
                        lambda node, events: node_actions(node, menu), max_nodes=200_000)
    built = time.perf_counter() - started
    public = sub.public
    reference = uniform_arrays(public)
    search(public, 0, reference, iterations=1, threads=1)  # compile
    rows, walls = [], {}
    for count in threads:
        started = time.perf_counter()
        result = search(public, 0, reference, target=0.01 * public.pot, iterations=300,
                        threads=count)
        walls[count] = time.perf_counter() - started
        rows.append(Row(
            f"turn subgame (1 bet, 1 raise size, full ranges) to 1% of the pot, {count} "
            f"thread{'s' * (count > 1)}", "s", walls[count],
            "the same on one thread" if count > 1 else "", walls[threads[0]] if count > 1
            else None, target="<= 1.0 (think)",
            note=f"{result.iterations} its, {100 * result.exploitability / public.pot:.2f}% "
            f"of the pot; {public.tree.n_nodes:,} nodes, {public.n_hands[0]:,} x "
            f"{public.n_hands[1]:,} hands, built in {built:.2f} s; load "
            f"{os.getloadavg()[0]:.1f}"))
    return rows


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
    if not quick:
        rows += turn_subgame_rows()
    return rows
