from __future__ import annotations

import numpy as np
import pytest

from pokerlab.abstraction import (
    Bucketing,
    abstract_game,
    boundary_buckets,
    identity_buckets,
    parse_bucketing,
    percentile_buckets,
    uniform_buckets,
)
from pokerlab.errors import SpecError
from pokerlab.games import kuhn


def test_uniform_is_the_tutorial_formula() -> None:
    for n, b in ((100, 10), (100, 3), (37, 7), (5, 5), (9, 1)):
        bucketing = uniform_buckets(n, b)
        assert bucketing.n_buckets == b
        assert bucketing.assignment.tolist() == [c * b // n for c in range(n)]


def test_percentile_equals_uniform_when_b_divides_n_and_spreads_the_remainder_otherwise() -> None:
    assert percentile_buckets(np.ones(100), 10) == uniform_buckets(100, 10)
    assert uniform_buckets(100, 3).sizes() == [34, 33, 33]
    assert percentile_buckets(np.ones(100), 3).sizes() == [33, 34, 33]


def test_percentile_follows_the_probability_mass() -> None:
    weights = np.array([0.5, 0.1, 0.1, 0.1, 0.1, 0.1])
    assert percentile_buckets(weights, 2).starts == (0, 1)


def test_boundaries_text_and_round_trip() -> None:
    bucketing = parse_bucketing("boundaries:0,5,17", 20)
    assert bucketing.starts == (0, 5, 17)
    assert bucketing.sizes() == [5, 12, 3]
    assert list(bucketing.members(1)) == list(range(5, 17))
    assert parse_bucketing(bucketing.to_text(), 20) == bucketing
    with pytest.raises(SpecError, match="must start at 0"):
        parse_bucketing("boundaries:5,17", 20)  # refused, not silently given a bucket
    assert parse_bucketing("identity", 4) == identity_buckets(4)
    assert identity_buckets(4).to_text() == "identity"


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("uniform:0", "between 1 and the number of cards"),
        ("uniform:101", "between 1 and the number of cards"),
        ("percentile:0", "between 1 and the number of cards"),
        ("uniform:ten", "needs a number of buckets"),
        ("boundaries:0,17,5", "strictly increasing"),
        ("boundaries:0,5,5", "strictly increasing"),
        ("boundaries:0,5,100", r"lie in 0\.\.99"),
        ("boundaries:-1,5", r"lie in 0\.\.99"),
        ("boundaries:", "lists no boundaries"),
        ("boundaries:a,b", "comma-separated integers"),
        ("equal:10", "allowed: identity, uniform:B, percentile:B"),
        ("optimized:10", "optimize_buckets"),
    ],
)
def test_bad_bucketings_name_what_is_allowed(text: str, match: str) -> None:
    with pytest.raises(SpecError, match=match):
        parse_bucketing(text, 100)


def test_bad_bucketings_through_the_abstract_game() -> None:
    with pytest.raises(SpecError, match=r"cards: .*between 1 and the number of cards"):
        abstract_game(kuhn(cards=10), "uniform:11")
    with pytest.raises(SpecError, match="unknown bucketing"):
        abstract_game(kuhn(cards=10), "kmeans:3")
    with pytest.raises(SpecError, match="buckets are for 20 items"):
        abstract_game(kuhn(cards=10), uniform_buckets(20, 4))
    with pytest.raises(SpecError, match="strictly increasing"):
        Bucketing(10, (0, 4, 2))


def test_describe_names_the_ranges() -> None:
    names = [str(c + 1) for c in range(100)]
    assert boundary_buckets(100, [0, 50, 99]).describe(names) == "1-50 | 51-99 | 100"
