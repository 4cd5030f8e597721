"""LBR valued exactly on a small no-limit Hold'em: below the best response, refined above paper.

The game (8 cards, preflop only, stacks of 3 big blinds) compiles, so LBR (a pure strategy:
every runout is enumerated, nothing is sampled) is tabulated at every infoset of its seat
and valued with the exact evaluator, beside the exact best response. The opponent folds
about 70% of its range to an all-in and calls with the pairs and ace-king, the hands that
beat most of LBR's: the paper's LBR values the all-in against the whole range and shoves
too often; the refined LBR values it against the callers.
"""

from __future__ import annotations

import pytest

from pokerlab.abstraction.lbr_actions import lbr_raises
from pokerlab.cards import parse_cards
from pokerlab.eval import best_response, expected_value
from pokerlab.eval.lbr import LocalBestResponse
from pokerlab.games import load
from pokerlab.games.holdem import CALL, FOLD, HoldemGame
from pokerlab.games.observation import Observation
from pokerlab.strategy.policy import FunctionPolicy, Strategy, tabulate

SMALL = 'holdem(stack=6, ranks=4, suits=2, board="")'


def folds_to_all_ins(observation: Observation) -> dict[int, float]:
    """Checks or calls; facing an all-in, calls with a pair or ace-king only."""
    seat = observation.seat
    if FOLD not in observation.legal_actions:
        return {CALL: 1.0}
    to_call = max(observation.committed) - observation.committed[seat]
    if to_call < observation.stacks[seat]:
        return {CALL: 1.0}
    ranks = sorted(card // 4 for card in parse_cards(observation.private_cards))
    return {CALL: 1.0} if ranks[0] == ranks[1] or ranks == [11, 12] else {FOLD: 1.0}


def lbr_values(game: HoldemGame, opponent: Strategy, variant: str) -> tuple[float, float]:
    """LBR's exact winnings as player 0 and as player 1 (chips per hand)."""
    lbr = LocalBestResponse(game, opponent, raises=lbr_raises("FCPA", game), variant=variant)
    table = tabulate(FunctionPolicy(game, lambda o: {lbr.act(o): 1.0}, name="lbr"), game)
    return (expected_value(game, [table, opponent])[0],
            expected_value(game, [opponent, table])[1])


@pytest.mark.slow
def test_refined_lbr_is_between_the_paper_lbr_and_the_best_response() -> None:
    game = load(SMALL)
    assert isinstance(game, HoldemGame)
    opponent = tabulate(FunctionPolicy(game, folds_to_all_ins, name="folder"), game)
    best = [best_response(game, opponent, seat).value for seat in (0, 1)]
    paper = lbr_values(game, opponent, "paper")
    refined = lbr_values(game, opponent, "refined")
    for seat in (0, 1):
        assert paper[seat] <= best[seat] + 1e-9
        assert refined[seat] <= best[seat] + 1e-9
        assert refined[seat] > paper[seat] + 0.2  # chips per hand, blinds of 1 and 2
