import hashlib
import itertools
from math import comb

import numpy as np
import pytest

from pokerlab.cards import (
    CATEGORY_NAMES,
    N_HAND_VALUES,
    HandCategory,
    best_five,
    cards_str,
    category_of,
    evaluate,
    evaluate_batch,
    evaluate_value,
    hand_rank,
    parse_cards,
)
from pokerlab.errors import CardError

# sha256 of the value (int16, little endian) of every five-card hand, hands in the
# lexicographic order of itertools.combinations(range(52), 5): pins the whole ranking.
GOLDEN_SHA256 = "f726a3c1a70fe2965ba5d4a1fd254dc0de9de79c9beea030ffc21e09972370c1"


@pytest.fixture(scope="module")
def all_five_card_values() -> np.ndarray:
    flat = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(52), 5)),
        dtype=np.uint8,
        count=5 * comb(52, 5),
    )
    return evaluate_batch(flat.reshape(-1, 5))


def test_all_five_card_hands_golden(all_five_card_values: np.ndarray) -> None:
    values = all_five_card_values
    assert len(values) == 2_598_960
    distinct = np.unique(values)
    assert len(distinct) == N_HAND_VALUES == 7462
    assert distinct[0] == 1
    assert distinct[-1] == 7462
    distinct_per_category = np.bincount(category_of(distinct), minlength=9).tolist()
    assert distinct_per_category == [1277, 2860, 858, 858, 10, 1277, 156, 156, 10]
    hands_per_category = np.bincount(category_of(values), minlength=9).tolist()
    assert hands_per_category == [
        1_302_540,
        1_098_240,
        123_552,
        54_912,
        10_200,
        5_108,
        3_744,
        624,
        40,
    ]
    # Categories occupy consecutive blocks of values, weakest first.
    assert np.all(np.diff(category_of(distinct)) >= 0)
    digest = hashlib.sha256(values.astype("<i2").tobytes()).hexdigest()
    assert digest == GOLDEN_SHA256


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("2s3d4c5h6s", "As2d3c4h5s"),  # six-high straight beats the wheel
        ("As2d3c4h5s", "AsAdKcQhJs"),  # the wheel beats a pair
        ("AsKdQcJhTs", "KsQdJcTh9s"),  # broadway is the best straight
        ("2h3h4h5h7h", "AsKdQcJhTs"),  # flush beats straight
        ("AhAdAc2s2d", "2h3h4h5h7h"),  # full house beats flush
        ("5s4s3s2sAs", "AhAdAcAs2d"),  # steel wheel beats four of a kind
        ("AsAdKcQh9s", "AsAdKcQh8s"),  # last kicker decides
        ("AsAdKcKh3s", "AsAdKcKh2s"),  # two pair kicker
        ("KsKdKc2h2s", "QsQdQcAhAs"),  # trips decide a full house
        ("AsKdQcJh9s", "AsKdQcJh8s"),  # high card fifth kicker
    ],
)
def test_pairwise_order(better: str, worse: str) -> None:
    assert evaluate(better) > evaluate(worse)


def test_ties_and_suits_do_not_matter() -> None:
    assert evaluate_value("AsKdQcJh9s") == evaluate_value("AhKcQdJs9h")
    assert evaluate_value("As2d3c4h5s") == evaluate_value("Ac2h3d4s5c")


@pytest.mark.parametrize(
    ("hand", "category", "description"),
    [
        ("As2d3c4h5s", HandCategory.STRAIGHT, "Straight, Five high"),
        ("AsKdQcJhTs", HandCategory.STRAIGHT, "Straight, Ace high"),
        ("5s4s3s2sAs", HandCategory.STRAIGHT_FLUSH, "Straight flush, Five high"),
        ("AsKsQsJsTs", HandCategory.STRAIGHT_FLUSH, "Straight flush, Ace high (royal flush)"),
        ("AhAd7s7cKh", HandCategory.TWO_PAIR, "Two pair, Aces and Sevens (King kicker)"),
        ("KhKdKs7c7h", HandCategory.FULL_HOUSE, "Full house, Kings full of Sevens"),
        ("6h6d6s6cAh", HandCategory.FOUR_OF_A_KIND, "Four of a kind, Sixes (Ace kicker)"),
        ("9h9d9sAc4h", HandCategory.THREE_OF_A_KIND, "Three of a kind, Nines (Ace, Four kickers)"),
        ("QhQdAsTc4h", HandCategory.PAIR, "Pair, Queens (Ace, Ten, Four kickers)"),
        ("Ah9h7h4h2h", HandCategory.FLUSH, "Flush, Ace high (Nine, Seven, Four, Two)"),
        ("7s5d4c3h2s", HandCategory.HIGH_CARD, "High card, Seven (Five, Four, Three, Two)"),
    ],
)
def test_categories_and_descriptions(hand: str, category: int, description: str) -> None:
    rank = evaluate(hand)
    assert rank.category == category
    assert rank.category_name == CATEGORY_NAMES[category]
    assert rank.description == description
    assert hand_rank(rank.value) == rank


def test_extreme_values() -> None:
    assert evaluate_value("7s5d4c3h2s") == 1
    assert evaluate_value("AsKsQsJsTs") == 7462
    assert CATEGORY_NAMES == (
        "High card",
        "Pair",
        "Two pair",
        "Three of a kind",
        "Straight",
        "Flush",
        "Full house",
        "Four of a kind",
        "Straight flush",
    )


def test_seven_cards_pick_the_best_five() -> None:
    seven = parse_cards("2h3h4h5h9h6s7c")  # a straight to the seven, and a nine-high flush
    assert evaluate(seven).category == HandCategory.FLUSH
    assert evaluate(seven).value == max(
        evaluate_value(five) for five in itertools.combinations(seven, 5)
    )
    board_plays = parse_cards("AsKsQsJsTs2d3d")
    assert cards_str(best_five(board_plays)) == "AsKsQsJsTs"
    assert evaluate("AsAdAhKsKdKh2c").description == "Full house, Aces full of Kings"
    assert evaluate("AsAdKsKdQsQd2c").description == "Two pair, Aces and Kings (Queen kicker)"


def test_batch_matches_single_and_best_subset() -> None:
    rng = np.random.default_rng(11)
    for size in (5, 6, 7):
        hands = np.array([rng.choice(52, size, replace=False) for _ in range(400)])
        batch = evaluate_batch(hands)
        assert batch.dtype == np.int32
        single = [evaluate_value(row.tolist()) for row in hands]
        assert batch.tolist() == single
        best_subset = [
            max(evaluate_value(five) for five in itertools.combinations(row.tolist(), 5))
            for row in hands[:100]
        ]
        assert batch[:100].tolist() == best_subset


def test_batch_accepts_any_integer_dtype_and_empty() -> None:
    hand = parse_cards("AsKsQsJsTs")
    for dtype in (np.int8, np.int16, np.int64, np.uint8):
        assert evaluate_batch(np.array([hand], dtype=dtype)).tolist() == [7462]
    assert evaluate_batch(np.zeros((0, 7), dtype=np.int64)).shape == (0,)


def test_bad_input_errors() -> None:
    with pytest.raises(CardError, match="5, 6 or 7 cards"):
        evaluate("AsKs")
    with pytest.raises(CardError, match="appears twice"):
        evaluate("AsKsQsJsAs")
    with pytest.raises(CardError, match="shape"):
        evaluate_batch(np.zeros((3, 4), dtype=np.int64))
    with pytest.raises(CardError, match=r"0\.\.51"):
        evaluate_batch(np.full((2, 5), 52))
    with pytest.raises(CardError, match=r"hand 1 \(2c2d3c3d2c\) repeats"):
        evaluate_batch(np.array([[0, 1, 2, 3, 4], [0, 1, 4, 5, 0]]))
    with pytest.raises(CardError, match=r"1\.\.7462"):
        category_of([0])
