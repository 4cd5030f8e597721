"""The searching Hard AI's decision time per street on heads-up Texas Hold'em.

A tiny no-limit blueprint (buckets 10/4/4/3, menu ``50%,100%,a``, 3,000 iterations),
searched with its own menu at ``think=1.0`` s and with the search's own sizes (75% bets,
2.5x raises) at 1 s and 3 s (:data:`CONFIGS`); random turn and river spots after calls on
every street (4 each with ``--quick``, else 12); the searcher's earlier decisions of the
hand are made first, untimed, as in play. Rows: median and 95th percentile wall seconds
per street against the budget (the issue: median at most the budget, never over 1.2
times it), with how many spots were solved (the others fell back to the blueprint) in
the note. Wall time: the budget is a wall-clock one. Without ``--quick``, the issue's
turn subgame solved to 1% of the pot on one and two threads
(:func:`turn_subgame_rows`).
"""

from __future__ import annotations

import math
import os
import time
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import numpy as np

from benchmarks._harness import Row
from pokerlab._types import CHANCE
from pokerlab.agents.search_name import DEFAULT_TARGET
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


CONFIGS = (
    ("blueprint sizes, think 1 s", 1.0, {}),
    ("sizes 75%/2.5x, think 1 s", 1.0, {"bets": "75%", "raises": "2.5x"}),
    ("sizes 75%/2.5x, 2 a street, think 1 s", 1.0,
     {"bets": "75%", "raises": "2.5x", "raise_cap": 2}),
    ("sizes 75%/2.5x, think 3 s", 3.0, {"bets": "75%", "raises": "2.5x"}),
)
"""(label, seconds per decision, the search's own sizes): the settings timed, each as
``hard-search`` with that budget (stopping at :data:`DEFAULT_TARGET` % of the pot)."""


def _decision_times(game: Any, blueprint: BlueprintPolicy, settings: SearchSettings,
                    street: int, count: int, rng: np.random.Generator
                    ) -> tuple[np.ndarray, int, float, int]:
    """Wall seconds of ``count`` decisions at the start of ``street``, how many solved, the
    median exploitability of the solved ones' gadget games (% of the pot; NaN: none), and
    how many searches were rejected (more exploitable than the blueprint: not played).

    Each hand is called down to the street; the searcher's earlier decisions of the hand
    are made first, untimed, as in play.
    """
    seconds, searched, percents, rejected = [], 0, [], 0
    for _ in range(count):
        policy = SearchPolicy(blueprint, settings)
        state = game.initial_state()
        while not (state.to_act >= 0 and state.street == street):
            if state.to_act == CHANCE:
                outcomes = state.chance_outcomes()
                state = state.child(outcomes[int(rng.integers(len(outcomes)))][0])
            else:
                if state.street >= 2:
                    policy.decide(state.observation(state.to_act))
                state = state.child(CALL)
        started = time.perf_counter()
        decision = policy.decide(state.observation(state.to_act))
        seconds.append(time.perf_counter() - started)
        rejected += decision.rejected
        if decision.searched and decision.iterations > 0 and not decision.rejected:
            searched += 1
            percents.append(100 * decision.exploitability / sum(state.contributions()))
    return (np.array(seconds), searched, float(np.median(percents)) if percents else math.nan,
            rejected)


def _median(percent: float) -> str:
    """`` (median exploitability X% of the pot)``, or nothing when none was solved."""
    return "" if math.isnan(percent) else f" (median exploitability {percent:.2f}% of the pot)"


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


def turn_subgame_rows(threads: tuple[int, ...] = (1, 2),
                      caps: tuple[int | None, ...] = (None, 3, 2)) -> list[Row]:
    """The issue's speed case: a turn subgame, one bet size and one raise size, to 1%.

    Both players hold every hand (1,128 each on the turn), a limped pot of 4 chips checked
    to the turn with 198 chips behind, bets 75% of the pot and raises 2.5x, raised until
    the stacks are in or at most ``cap`` bets and raises a street (``caps``); the searcher
    re-solves behind the gadget against a uniform reference, to 1% of the pot (measured
    after batches of 2, 4, 8... iterations), in the search's default storage, wall clock
    with the gadget's alternative values, on one thread and on two. The build of the
    subgame is timed apart (in the note).
    """
    game = load("holdem(stack=200)")
    root = _turn_root(game)
    precision = SearchSettings().precision
    rows = []
    for cap in caps:
        menu = parse_bet_menu("75%", "2.5x", raise_cap=cap)
        started = time.perf_counter()
        sub = build_subgame(game.rules, root.betting_node,  # type: ignore[attr-defined]
                            tuple(int(c) for c in root.board),
                            (np.ones(1326), np.ones(1326)),
                            lambda node, events, menu=menu: node_actions(node, menu),
                            max_nodes=200_000)
        built = time.perf_counter() - started
        public = sub.public
        reference = uniform_arrays(public)
        search(public, 0, reference, iterations=1, threads=1, precision=precision)  # compile
        walls: dict[int, float] = {}
        label = "" if cap is None else f", {cap} a street"
        for count in threads:
            started = time.perf_counter()
            result = search(public, 0, reference, target=0.01 * public.pot, iterations=300,
                            threads=count, precision=precision)
            walls[count] = time.perf_counter() - started
            rows.append(Row(
                f"turn subgame (1 bet, 1 raise size{label}, full ranges) to 1% of the pot, "
                f"{count} thread{'s' * (count > 1)}", "s", walls[count],
                "the same on one thread" if count > 1 else "",
                walls[threads[0]] if count > 1 else None, target="<= 1.0 (think)",
                note=f"{result.iterations} its, {100 * result.exploitability / public.pot:.2f}%"
                f" of the pot; {public.tree.n_nodes:,} nodes, {public.n_hands[0]:,} x "
                f"{public.n_hands[1]:,} hands, built in {built:.2f} s; {precision}; load "
                f"{os.getloadavg()[0]:.1f}"))
    return rows


DEFAULT_CONFIGS = (
    ("sizes 75%/2.5x, 2 a street, think 1 s", 1.0, (2, 3)),
    ("sizes 75%/2.5x, 2 a street, think 2 s", 2.0, (2,)),
    ("sizes 75%/2.5x, 2 a street, think 3 s", 3.0, (2,)),
)
"""(label, seconds per decision, streets) timed on the default no-limit blueprint."""


def default_blueprint_rows(count: int = 10) -> list[Row]:
    """Turn (and river) decisions searched over the default heads-up no-limit blueprint.

    The blueprint ``hard`` plays (169/50/50/50 buckets, ``50%,100%,a``, 2,000,000
    iterations) must be prepared (``pokerlab bots prepare hard --game 'holdem()'``, about
    2 minutes); without it, one row says so. Its buckets make the blueprint's reads over a
    subgame dearer than the tiny blueprint's of :func:`run`, so the search's share of a
    budget is smaller. Own sizes 75%/2.5x, two bets a street; ``count`` spots a street.
    """
    from pokerlab.agents.hard import HardAI, default_blueprint_path, prepare_command

    game = load("holdem()")
    if not default_blueprint_path(game).exists():
        return [Row("hard-search on the default no-limit blueprint", "s", math.nan,
                    note=f"not prepared: {prepare_command(game)}")]
    blueprint = HardAI(game).policy
    rows = []
    for label, think, streets in DEFAULT_CONFIGS:
        settings = SearchSettings(think=think, target=DEFAULT_TARGET, bets="75%",
                                  raises="2.5x", raise_cap=2)
        for street in streets:
            name = "turn" if street == 2 else "river"
            values, searched, percent, rejected = _decision_times(
                game, blueprint, settings, street, count, np.random.default_rng(street))
            rows.append(Row(
                f"hard-search {name} decision, median (default no-limit blueprint, {label})",
                "s", float(np.median(values)), target=f"<= {think:g}",
                note=f"{searched} of {len(values)} solved{_median(percent)}, {rejected} "
                "rejected; p95 "
                f"{np.percentile(values, 95):.2f} s, max {values.max():.2f} s; load "
                f"{os.getloadavg()[0]:.1f}"))
    return rows


def run(quick: bool) -> list[Row]:
    game = load("holdem(stack=200)")
    with TemporaryDirectory() as folder:
        cards = cards_from_spec(game, TINY, cache_dir=Path(folder))
        trainer = BlueprintTrainer(game, cards, rules_for(game, "50%,100%,a"), seed=0)
        trainer.run(3000)
        blueprint = BlueprintPolicy(trainer, game=game)
        rows = []
        for label, think, sizes in CONFIGS:
            rng = np.random.default_rng(0)
            settings = SearchSettings(think=think, target=DEFAULT_TARGET, **sizes)
            for street, name in ((2, "turn"), (3, "river")):
                values, searched, percent, rejected = _decision_times(
                    game, blueprint, settings, street, 4 if quick else 12, rng)
                note = (f"{searched} of {len(values)} solved{_median(percent)}, {rejected} "
                        "rejected; max "
                        f"{values.max():.2f} s; load {os.getloadavg()[0]:.1f}")
                rows.append(Row(f"hard-search {name} decision, median ({label})", "s",
                                float(np.median(values)), target=f"<= {think:g}",
                                note=note))
                rows.append(Row(f"hard-search {name} decision, p95 ({label})", "s",
                                float(np.percentile(values, 95)),
                                target=f"<= {1.2 * think:g}", note=note))
    if not quick:
        rows += turn_subgame_rows()
        rows += default_blueprint_rows()
    return rows
