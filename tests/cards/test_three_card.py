"""The three-card ranking of Rhode Island Hold'em: counts by category, order, ties."""

from __future__ import annotations

import itertools
from collections import Counter
from math import comb

import numpy as np
import pytest

from pokerlab.cards import parse_cards
from pokerlab.cards.three_card import (
    N_THREE_CARD_VALUES,
    ThreeCardCategory,
    describe_three_card,
    three_card_category,
    three_card_value,
    three_card_values,
)
from pokerlab.errors import CardError

ALL_HANDS = np.array(list(itertools.combinations(range(52), 3)), dtype=np.int64)


def test_every_three_card_hand_counted_by_category_matches_combinatorics() -> None:
    values = three_card_values(ALL_HANDS)
    counts = Counter(three_card_category(int(v)) for v in values)
    sequences = 12  # A-2-3, 2-3-4, ..., Q-K-A
    suit_patterns = 4**3  # a suit for each of three cards
    rank_sets = comb(13, 3) - sequences  # three distinct ranks, not in sequence
    expected = {
        ThreeCardCategory.STRAIGHT_FLUSH: sequences * 4,  # 48
        ThreeCardCategory.THREE_OF_A_KIND: 13 * comb(4, 3),  # 52
        ThreeCardCategory.STRAIGHT: sequences * (suit_patterns - 4),  # 720
        ThreeCardCategory.FLUSH: 4 * rank_sets,  # 1,096
        ThreeCardCategory.PAIR: 13 * comb(4, 2) * 12 * 4,  # 3,744
        ThreeCardCategory.HIGH_CARD: rank_sets * (suit_patterns - 4),  # 16,440
    }
    assert dict(counts) == expected
    assert sum(expected.values()) == comb(52, 3) == 22_100
    # Gilpin and Sandholm's table gives the straight flush probability as 0.00217.
    assert round(expected[ThreeCardCategory.STRAIGHT_FLUSH] / 22_100, 5) == 0.00217


def test_rarer_categories_rank_higher_and_classes_number_741() -> None:
    values = three_card_values(ALL_HANDS)
    assert values.min() == 1
    assert values.max() == N_THREE_CARD_VALUES == 741
    assert len(np.unique(values)) == 741  # 12 + 13 + 12 + 274 + 156 + 274 classes
    # A better category always has a higher value; and fewer hands (the rule's reason).
    by_category: dict[int, list[int]] = {}
    for v in values:
        by_category.setdefault(int(three_card_category(int(v))), []).append(int(v))
    for low, high in itertools.pairwise(sorted(by_category)):
        assert max(by_category[low]) < min(by_category[high])
        if low >= ThreeCardCategory.FLUSH:
            assert len(by_category[high]) < len(by_category[low])


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("2s3s4s", "AcAdAh"),  # the lowest straight flush beats the best trips
        ("2c2d2h", "QcKdAh"),  # trips beat the best straight
        ("2c3d4h", "AsKsJs"),  # the lowest true straight beats the best flush
        ("As2d3c", "KsQsTs"),  # A-2-3 is a straight, above any flush
        ("2c3d4h", "As2d3c"),  # ... but A-2-3 is the lowest straight (Three-high)
        ("QcKdAh", "JcQdKh"),
        ("5c3c2c", "AsAdKh"),  # the lowest flush beats the best pair
        ("2c2d3h", "AsKdJh"),  # the lowest pair beats the best high card
        ("KcKd2h", "QcQdAh"),  # the pair first, then the odd card
        ("KcKd3h", "KhKs2c"),
        ("AsJd9c", "AsTd9c"),  # high cards: highest first, then the next
        ("AsJd9c", "AsJd8c"),
    ],
)
def test_hand_checked_pairs(better: str, worse: str) -> None:
    assert three_card_value(better) > three_card_value(worse)


def test_equal_hands_of_other_suits_tie() -> None:
    assert three_card_value("AsKd7c") == three_card_value("AhKc7d")
    assert three_card_value("As2d3c") == three_card_value("Ah2c3d")
    assert three_card_value("KsQsJs") == three_card_value("KhQhJh")
    assert three_card_value("KsQsJs") != three_card_value("KsQsJh")


def _reference_key(cards: str) -> tuple[int, ...]:
    """An independent ordering key written from the rules, not from the module."""
    hand = parse_cards(cards)
    ranks = sorted((c >> 2 for c in hand), reverse=True)
    suited = len({c & 3 for c in hand}) == 1
    counts = Counter(ranks)
    if ranks == [12, 1, 0]:
        straight_top = 1
    elif ranks[0] - ranks[1] == 1 and ranks[1] - ranks[2] == 1:
        straight_top = ranks[0]
    else:
        straight_top = -1
    if straight_top >= 0 and suited:
        return (5, straight_top)
    if len(counts) == 1:
        return (4, ranks[0])
    if straight_top >= 0:
        return (3, straight_top)
    if suited:
        return (2, *ranks)
    if len(counts) == 2:
        pair = next(r for r, n in counts.items() if n == 2)
        odd = next(r for r, n in counts.items() if n == 1)
        return (1, pair, odd)
    return (0, *ranks)


def test_many_random_pairs_order_like_an_independent_reference() -> None:
    rng = np.random.default_rng(3)
    names = [f"{'23456789TJQKA'[c >> 2]}{'cdhs'[c & 3]}" for c in range(52)]
    for _ in range(3000):
        a, b = (rng.choice(52, size=3, replace=False) for _ in range(2))
        text_a = "".join(names[c] for c in a)
        text_b = "".join(names[c] for c in b)
        mine = np.sign(three_card_value(text_a) - three_card_value(text_b))
        key_a, key_b = _reference_key(text_a), _reference_key(text_b)
        reference = (key_a > key_b) - (key_a < key_b)
        assert mine == reference, (text_a, text_b)


def test_descriptions() -> None:
    assert describe_three_card("As2d3c") == "Straight, Three-high"
    assert describe_three_card("KsKd7c") == "Pair of Kings (Seven kicker)"
    assert describe_three_card("AsKsQs") == "Straight flush, Ace-high"
    assert describe_three_card("6c6d6h") == "Three of a kind, Sixes"
    assert describe_three_card("9hQh2h") == "Flush, Queen-Nine-Two"
    assert describe_three_card("2c3d5h") == "High card, Five-Three-Two"


def test_bad_input_is_refused() -> None:
    with pytest.raises(CardError, match="appears twice"):
        three_card_value("AsAs2c")
    with pytest.raises(CardError, match="3 distinct cards"):
        three_card_value("AsKs")
    with pytest.raises(CardError, match=r"\[N, 3\]"):
        three_card_values(np.zeros((4, 2), dtype=np.int64))
    with pytest.raises(CardError, match=r"0\.\.51"):
        three_card_values(np.array([[0, 1, 52]]))
    with pytest.raises(CardError, match=r"1\.\.741"):
        three_card_category(0)
    # A row with a card twice is no hand: value 0.
    assert three_card_values(np.array([[5, 5, 9]]))[0] == 0
