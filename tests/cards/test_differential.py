"""The evaluator orders hands exactly as eval7 and phevaluator do (reference evaluators)."""

import numpy as np
import pytest

from pokerlab.cards import evaluate_batch

eval7 = pytest.importorskip("eval7")
phevaluator = pytest.importorskip("phevaluator")

RANK_LETTERS = "23456789TJQKA"
SUIT_LETTERS = "cdhs"


def random_hands(rng: np.random.Generator, count: int, size: int) -> np.ndarray:
    """`count` hands of `size` distinct cards, uniformly (rejection of repeated cards)."""
    hands = np.empty((0, size), dtype=np.int64)
    while len(hands) < count:
        draw = rng.integers(0, 52, size=(2 * count, size))
        ordered = np.sort(draw, axis=1)
        distinct = np.all(np.diff(ordered, axis=1) != 0, axis=1)
        hands = np.concatenate([hands, draw[distinct]])
    return hands[:count]


def assert_same_order(ours: np.ndarray, reference: np.ndarray) -> None:
    """ours(a) < ours(b) exactly when reference(a) < reference(b), for every pair."""
    order = np.argsort(ours, kind="stable")
    ours_sorted = np.diff(ours[order])
    reference_sorted = np.diff(reference[order])
    # Adjacent in our order: equal stays equal, a step up is a step up in the reference.
    assert np.array_equal(ours_sorted == 0, reference_sorted == 0)
    assert np.all(reference_sorted[ours_sorted > 0] > 0)


def eval7_values(hands: np.ndarray) -> np.ndarray:
    deck = [eval7.Card(rank + suit) for rank in RANK_LETTERS for suit in SUIT_LETTERS]
    evaluate = eval7.evaluate
    return np.array([evaluate([deck[card] for card in row]) for row in hands.tolist()])


def test_million_seven_card_hands_match_eval7() -> None:
    hands = random_hands(np.random.default_rng(2024), 1_000_000, 7)
    assert_same_order(evaluate_batch(hands), eval7_values(hands))


@pytest.mark.parametrize("size", [5, 6])
def test_five_and_six_card_hands_match_eval7(size: int) -> None:
    hands = random_hands(np.random.default_rng(size), 200_000, size)
    assert_same_order(evaluate_batch(hands), eval7_values(hands))


@pytest.mark.parametrize("size", [5, 6, 7])
def test_hands_match_phevaluator(size: int) -> None:
    # phevaluator uses our card encoding (rank * 4 + suit) and ranks 1 = best: negate it.
    hands = random_hands(np.random.default_rng(100 + size), 50_000, size)
    evaluate_cards = phevaluator.evaluate_cards
    reference = -np.array([evaluate_cards(*row) for row in hands.tolist()])
    assert_same_order(evaluate_batch(hands), reference)
