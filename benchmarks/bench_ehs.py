"""The 1999 Alberta bot (``ehs``): weighted hand strength and potential, and decision time.

Hand strength and one-card potentials (HS, PPOT, NPOT) of one hand against a weighted
1,326-hand range on a flop: ours through the public ``hand_potential`` (the board's value
table built anew each call: its cache is cleared before every timing) against a plain
enumeration of the 48,645 (opposing hand, next card) pairs with eval7's compiled evaluator
(the cards converted beforehand, not timed). Every hand of the flop at once
(``range_strengths``, what the opponent model needs once per board) has no peer: the row
gives its time. The bot's decision time is the mean over the decisions of a heads-up limit
match against always-call (hand follow-up, re-weighting and strength included).
"""

from __future__ import annotations

import time
from itertools import combinations

import numpy as np

from benchmarks._harness import Row, best_time
from pokerlab.agents import ehs_strength
from pokerlab.agents.ehs_bot import EHSBot
from pokerlab.agents.ehs_strength import combo_of, hand_potential, range_strengths
from pokerlab.agents.simple import AlwaysCall
from pokerlab.cards import card_str, parse_cards
from pokerlab.eval.matches import play_match
from pokerlab.games import holdem


def _eval7_potential(hole: list[int], board: list[int], weights: np.ndarray) -> float:
    import eval7

    deck7 = [eval7.Card(card_str(card)) for card in range(52)]
    evaluate = eval7.evaluate
    ours_now = evaluate([deck7[c] for c in (*hole, *board)])
    deck = [c for c in range(52) if c not in {*hole, *board}]
    ours_next = {c: evaluate([deck7[x] for x in (*hole, *board, c)]) for c in deck}
    counts = np.zeros((3, 3))
    for opp in combinations(deck, 2):
        weight = weights[combo_of(opp)]
        theirs = evaluate([deck7[x] for x in (*opp, *board)])
        now = 0 if ours_now > theirs else (1 if ours_now == theirs else 2)
        for card in deck:
            if card in opp:
                continue
            later = evaluate([deck7[x] for x in (*opp, *board, card)])
            mine = ours_next[card]
            counts[now, 0 if mine > later else (1 if mine == later else 2)] += weight
    return float(counts.sum())


def run(quick: bool) -> list[Row]:
    hole, board = parse_cards("AhKh"), parse_cards("Qh7h2c")
    weights = np.random.default_rng(1).random(1326)
    hand_potential(hole, board, weights)  # compile (or load the cached machine code)

    def ours() -> None:
        ehs_strength._board_table.cache_clear()
        hand_potential(hole, board, weights)

    def everything() -> None:
        ehs_strength._board_table.cache_clear()
        range_strengths(board, weights)

    rows = [
        Row(
            name="HS/PPOT/NPOT of a hand vs a weighted range (flop)",
            unit="ms",
            ours=1000 * best_time(ours, repeat=5),
            peer_name="eval7 enumeration",
            peer=1000 * best_time(lambda: _eval7_potential(hole, board, weights),
                                  repeat=1 if quick else 3),
            target="tens of ms a decision",
            note="48,645 (opposing hand, next card) pairs, weights random; board table "
                 "rebuilt each call",
        ),
        Row(
            name="HS/PPOT/NPOT of all 1,176 hands vs a range (flop)",
            unit="ms",
            ours=1000 * best_time(everything, repeat=5),
            note="once per board: the opponent model's view of his hands",
        ),
    ]
    ehs_strength.preflop_strengths()  # the once-per-process table, built before timing
    game = holdem(betting="limit")
    bot = EHSBot(game, seed=1)
    decisions = 0
    spent = 0.0
    act = bot.act

    def timed_act(observation: object) -> int:
        nonlocal decisions, spent
        start = time.perf_counter()
        action = act(observation)  # type: ignore[arg-type]
        spent += time.perf_counter() - start
        decisions += 1
        return action

    bot.act = timed_act  # type: ignore[method-assign]
    play_match(game, bot, AlwaysCall(game), hands=20 if quick else 200, seed=3)
    rows.append(Row(
        name="ehs decision, heads-up limit vs always-call",
        unit="ms",
        ours=1000 * spent / decisions,
        target="tens of ms",
        note=f"mean over {decisions} decisions; the preflop equity table (once per process) "
             "built before",
    ))
    return rows
