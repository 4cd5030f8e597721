"""The EHS rule bot: hand strength and potentials against brute force, its rules, legal play."""

from __future__ import annotations

from itertools import combinations

import pytest

from pokerlab.agents.ehs_bot import (
    BET_THRESHOLD,
    CALL_THRESHOLD,
    EHSBot,
    HandPotential,
    decide,
    hand_potential,
    preflop_strength,
)
from pokerlab.agents.registry import make_agent
from pokerlab.cards import evaluate_value, parse_cards
from pokerlab.errors import SpecError
from pokerlab.games import holdem, kuhn
from pokerlab.games.holdem import CALL, FOLD, RAISE, HoldemGame, HoldemState


def _brute_force(hole: str, board: str) -> tuple[float, float, float]:
    """HS, PPOT, NPOT by plain loops over every opposing pair and next card."""
    ours_cards = parse_cards(hole)
    board_cards = parse_cards(board)
    known = {*ours_cards, *board_cards}
    deck = [c for c in range(52) if c not in known]
    ours = evaluate_value((*ours_cards, *board_cards))
    now_score = 0.0
    pairs = 0
    counts = [[0.0] * 3 for _ in range(3)]

    def where(a: int, b: int) -> int:
        return 0 if a > b else (1 if a == b else 2)

    for opp in combinations(deck, 2):
        theirs = evaluate_value((*opp, *board_cards))
        now = where(ours, theirs)
        now_score += (1.0, 0.5, 0.0)[now]
        pairs += 1
        if len(board_cards) == 5:
            continue
        for card in deck:
            if card in opp:
                continue
            later = where(evaluate_value((*ours_cards, *board_cards, card)),
                          evaluate_value((*opp, *board_cards, card)))
            counts[now][later] += 1
    hs = now_score / pairs
    if len(board_cards) == 5:
        return hs, 0.0, 0.0
    totals = [sum(row) for row in counts]
    ppot = (counts[2][0] + counts[2][1] / 2 + counts[1][0] / 2) / (totals[2] + totals[1] / 2)
    npot = (counts[0][2] + counts[1][2] / 2 + counts[0][1] / 2) / (totals[0] + totals[1] / 2)
    return hs, ppot, npot


@pytest.mark.parametrize(("hole", "board"), [("5h6h", "7c8d2s3s8h"), ("AcKd", "AhKh2h9h3c")])
def test_river_strength_against_brute_force(hole: str, board: str) -> None:
    potential = hand_potential(parse_cards(hole), parse_cards(board))
    hs, ppot, npot = _brute_force(hole, board)
    assert potential.hs == pytest.approx(hs)
    assert potential.ppot == ppot == 0.0
    assert potential.npot == npot == 0.0


@pytest.mark.slow
@pytest.mark.parametrize(("hole", "board"), [("AhKh", "Qh7h2c9s"), ("7c7d", "Ks8s4d7h")])
def test_potentials_against_brute_force(hole: str, board: str) -> None:
    potential = hand_potential(parse_cards(hole), parse_cards(board))
    hs, ppot, npot = _brute_force(hole, board)
    assert potential.hs == pytest.approx(hs)
    assert potential.ppot == pytest.approx(ppot)
    assert potential.npot == pytest.approx(npot)


def test_flop_strength_against_brute_force() -> None:
    for hole, board in (("AhKh", "Qh7h2c"), ("9c9d", "Ks8s4d")):
        potential = hand_potential(parse_cards(hole), parse_cards(board))
        ours = evaluate_value(parse_cards(hole + board))
        deck = [c for c in range(52) if c not in parse_cards(hole + board)]
        values = [evaluate_value((*opp, *parse_cards(board))) for opp in combinations(deck, 2)]
        expected = sum(1.0 if ours > v else 0.5 if ours == v else 0.0 for v in values)
        assert potential.hs == pytest.approx(expected / len(values))
        assert 0.0 <= potential.ppot <= 1.0
        assert 0.0 <= potential.npot <= 1.0
    # A flush draw with overcards has real positive potential; a set has little negative.
    draw = hand_potential(parse_cards("AhKh"), parse_cards("Qh7h2c"))
    assert draw.ppot > 0.2
    nuts = hand_potential(parse_cards("AsAd"), parse_cards("Ac7h2c"))
    assert nuts.hs > 0.99
    assert nuts.npot < 0.05


def test_ehs_formula() -> None:
    potential = HandPotential(hs=0.6, ppot=0.3, npot=0.1)
    assert potential.ehs() == pytest.approx(0.6 * 0.9 + 0.4 * 0.3)
    assert potential.ehs(2) == pytest.approx(0.36 * 0.9 + 0.64 * 0.3)  # HS_n = HS ** n


def test_preflop_strength_is_an_equity() -> None:
    aces = preflop_strength(tuple(parse_cards("AsAd")))
    seven_deuce = preflop_strength(tuple(parse_cards("7c2d")))
    assert aces == pytest.approx(0.852, abs=0.02)  # the known all-in equity of AA vs random
    assert seven_deuce == pytest.approx(0.346, abs=0.025)
    assert preflop_strength(tuple(parse_cards("AsAd"))) == aces


def _deal(game: HoldemGame, cards: str) -> HoldemState:
    state = game.initial_state()
    for card in parse_cards(cards):
        state = state.child(card)
    return state


def test_the_betting_rules() -> None:
    assert (BET_THRESHOLD, CALL_THRESHOLD) == (0.85, 0.5)
    game = holdem(players=2, betting="limit")
    # Cards go round the table; seat 1 (small blind) acts first preflop.
    assert decide(_deal(game, "7cAs2dAd").observation()) == RAISE  # AA: 0.85
    assert decide(_deal(game, "AsKcAdQd").observation()) == CALL  # KQo: about 0.6
    assert decide(_deal(game, "As7cAd2d").observation()) == FOLD  # 72o: 0.35, no potential
    # On the flop seat 0 acts first, nothing owed: a set bets, a weak hand checks.
    strong = _deal(game, "AsKcAdQd").child(CALL).child(CALL)
    weak = _deal(game, "7cKd2d3c").child(CALL).child(CALL)
    for card in parse_cards("Ac8h4s"):
        strong = strong.child(card)
    for card in parse_cards("AhQs9h"):
        weak = weak.child(card)
    assert decide(strong.observation()) == RAISE
    assert hand_potential(parse_cards("7c2d"), parse_cards("AhQs9h")).ehs() < CALL_THRESHOLD
    assert decide(weak.observation()) == CALL  # a check
    # Seat 1 (K3) faces a bet on A Q 9: EHS below 0.5 and PPOT below the pot odds 2/8.
    facing = weak.child(RAISE).observation()
    potential = hand_potential(parse_cards("Kd3c"), parse_cards("AhQs9h"))
    assert potential.ehs() < CALL_THRESHOLD
    assert potential.ppot < 2 / 8
    assert decide(facing) == FOLD


def test_bot_and_registry() -> None:
    game = holdem(players=4, betting="nolimit", stack=100)
    bot = make_agent("ehs", game)
    assert isinstance(bot, EHSBot)
    observation = _deal(game, "AsAdKcKdQcQd2c3d").observation()
    probs = bot.probabilities(observation)
    assert sum(probs.values()) == 1.0
    assert bot.act(observation) in observation.legal_actions
    with pytest.raises(SpecError, match="holdem only"):
        EHSBot(kuhn())
