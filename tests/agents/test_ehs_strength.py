"""Weighted hand strength and potentials against brute force with an independent evaluator."""

from __future__ import annotations

from itertools import combinations

import eval7
import numpy as np
import pytest

from pokerlab.agents.ehs_strength import (
    COMBO_CARDS,
    HandPotential,
    board_table,
    combo_of,
    hand_potential,
    preflop_equity,
    preflop_strength,
    preflop_strengths,
    range_strengths,
    uniform_weights,
)
from pokerlab.cards import card_str, equity, parse_cards
from pokerlab.cards.ranges import HandRange
from pokerlab.errors import SpecError

_EVAL7 = [eval7.Card(card_str(card)) for card in range(52)]


def _value(cards: tuple[int, ...]) -> int:
    return int(eval7.evaluate([_EVAL7[card] for card in cards]))


def _brute_force(hole: tuple[int, ...], board: tuple[int, ...],
                 weights: np.ndarray) -> tuple[float, float, float]:
    """HS, PPOT, NPOT by plain loops over every opposing pair and next card (eval7)."""
    deck = [c for c in range(52) if c not in {*hole, *board}]
    ours = _value((*hole, *board))
    score = total = 0.0
    counts = np.zeros((3, 3))  # [now, later]: 0 ahead, 1 tied, 2 behind

    def where(a: int, b: int) -> int:
        return 0 if a > b else (1 if a == b else 2)

    for opp in combinations(deck, 2):
        weight = float(weights[combo_of(opp)])
        now = where(ours, _value((*opp, *board)))
        score += weight * (1.0, 0.5, 0.0)[now]
        total += weight
        if len(board) == 5:
            continue
        for card in deck:
            if card not in opp:
                later = where(_value((*hole, *board, card)), _value((*opp, *board, card)))
                counts[now, later] += weight
    if len(board) == 5:
        return score / total, 0.0, 0.0
    sums = counts.sum(axis=1)
    behind, ahead = sums[2] + sums[1] / 2, sums[0] + sums[1] / 2  # never behind: no PPOT
    ppot = (counts[2, 0] + counts[2, 1] / 2 + counts[1, 0] / 2) / behind if behind else 0.0
    npot = (counts[0, 2] + counts[1, 2] / 2 + counts[0, 1] / 2) / ahead if ahead else 0.0
    return score / total, ppot, npot


def _random_weights(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    weights = rng.random(1326)
    weights[rng.random(1326) < 0.3] = 0.0
    return weights


@pytest.mark.parametrize(("hole", "board"), [
    ("AhKh", "Qh7h2c"), ("7c7d", "Ks8s4d7h"), ("5h6h", "7c8d2s3s8h"), ("2s9d", "2c2d2h"),
])
@pytest.mark.parametrize("seed", [None, 1])
def test_potentials_against_brute_force(hole: str, board: str, seed: int | None) -> None:
    weights = uniform_weights() if seed is None else _random_weights(seed)
    ours, table = parse_cards(hole), parse_cards(board)
    potential = hand_potential(ours, table, weights)
    hs, ppot, npot = _brute_force(ours, table, weights)
    assert potential.hs == pytest.approx(hs, abs=1e-12)
    assert potential.ppot == pytest.approx(ppot, abs=1e-12)
    assert potential.npot == pytest.approx(npot, abs=1e-12)


def test_penas_example() -> None:
    # Pena's thesis (3.1): Ah8h on 9h8c2c, uniform: 903 hands lose, 6 tie, 172 win.
    potential = hand_potential(parse_cards("Ah8h"), parse_cards("9h8c2c"))
    assert potential.hs == pytest.approx((903 + 6 / 2) / 1081)
    assert round(potential.hs, 2) == 0.84
    assert round(potential.hs ** 3, 2) == 0.59  # HS_n with three opponents


@pytest.mark.parametrize("board", ["Qh7h2c", "Ks8s4d7h", "2c2d2h", "AsKsQsJs", "9c8c7c6c5c"])
def test_every_hand_at_once_matches_hand_by_hand(board: str) -> None:
    # Many rows go through the sorted sums (Fenwick tree, per-card corrections), a few rows
    # hand against hand: the two paths must agree on every hand.
    weights = _random_weights(7)
    cards = parse_cards(board)
    everything = range_strengths(cards, weights)
    alive = np.flatnonzero(~np.isnan(everything.hs))
    assert len(alive) == len(list(combinations(range(52 - len(cards)), 2)))
    sample = np.random.default_rng(3).choice(alive, 48, replace=False)
    for start in range(0, 48, 16):
        rows = sample[start:start + 16]
        some = range_strengths(cards, weights, rows=rows)
        for name in ("hs", "ppot", "npot"):
            assert np.allclose(getattr(some, name)[rows], getattr(everything, name)[rows],
                               atol=1e-12, rtol=0), name
    for combo in sample[:3]:
        hole = tuple(int(c) for c in COMBO_CARDS[combo])
        hs, ppot, npot = _brute_force(hole, cards, weights)
        assert everything.hs[combo] == pytest.approx(hs, abs=1e-12)
        assert everything.ppot[combo] == pytest.approx(ppot, abs=1e-12)
        assert everything.npot[combo] == pytest.approx(npot, abs=1e-12)


def test_the_1998_form_is_the_strength_after_the_next_card() -> None:
    # HS (1 - NPOT) + (1 - HS) PPOT = the hand's strength averaged over the next card.
    hole, board = parse_cards("AhKh"), parse_cards("Qh7h2c")
    weights = _random_weights(5)
    potential = hand_potential(hole, board, weights)
    deck = [c for c in range(52) if c not in {*hole, *board}]
    total = 0.0
    mass = 0.0
    for card in deck:
        later = range_strengths((*board, card), weights, rows=[combo_of(hole)])
        # The opposing hands holding `card` are out of the later board: weight the card by
        # the compatible opposing weight it leaves.
        left = sum(weights[combo_of(o)] for o in combinations(deck, 2) if card not in o)
        total += later.hs[combo_of(hole)] * left
        mass += left
    assert potential.ehs(negative_potential=True) == pytest.approx(total / mass, abs=1e-12)


def test_ehs_forms() -> None:
    potential = HandPotential(hs=0.6, ppot=0.3, npot=0.1)
    assert potential.ehs() == pytest.approx(0.6 + 0.4 * 0.3)  # the 1999 papers
    assert potential.ehs(negative_potential=True) == pytest.approx(0.6 * 0.9 + 0.4 * 0.3)
    assert potential.ehs(2) == pytest.approx(0.36 + 0.64 * 0.3)  # HS_n = HS ** n


def test_preflop_strength_is_an_equity() -> None:
    table = preflop_strengths()
    assert table.shape == (1326,)
    aces = preflop_strength(tuple(parse_cards("AsAd")))
    assert aces == pytest.approx(0.852, abs=0.01)  # the known all-in equity of AA vs random
    assert preflop_strength(tuple(parse_cards("7c2d"))) == pytest.approx(0.346, abs=0.01)
    assert preflop_strength(tuple(parse_cards("AhAc"))) == aces  # one figure per class
    assert table.min() > 0.29
    assert table.max() == aces


def test_preflop_equity_against_a_weighted_range() -> None:
    weights = np.zeros(1326)
    for combo in ((51, 47), (50, 46), (43, 42)):  # AsKs AhKh QsQh
        weights[combo_of(combo)] = 1.0
    weights[combo_of((43, 42))] = 0.5
    ours = parse_cards("JcJd")
    villain = HandRange(combos=((51, 47), (50, 46), (43, 42)), weights=(1.0, 1.0, 0.5))
    exact = equity([list(ours), villain]).equity[0]
    assert preflop_equity(ours, weights) == pytest.approx(exact, abs=0.015)


def test_board_table_and_bad_input() -> None:
    table = board_table(parse_cards("Qh7h2c"))
    assert len(table.alive) == 1176
    assert table.lookahead == 45
    assert table.later.shape == (49, 1176)
    assert board_table(parse_cards("Qh7h2c5d9s")).lookahead == 0
    with pytest.raises(SpecError, match="3, 4 or 5 distinct cards"):
        board_table([1, 2])
    with pytest.raises(SpecError, match="repeated cards"):
        hand_potential(parse_cards("AhKh"), parse_cards("Ah7h2c"))
    with pytest.raises(SpecError, match="1326 finite weights"):
        range_strengths(parse_cards("Qh7h2c"), np.ones(10))
    empty = np.zeros(1326)
    empty[combo_of(parse_cards("AhKh"))] = 1.0
    with pytest.raises(SpecError, match="no hand compatible"):
        hand_potential(parse_cards("AhKh"), parse_cards("Qh7h2c"), empty)
