import pytest

from pokerlab.cards import HandRange, cards_str, parse_range
from pokerlab.errors import CardError


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("QQ+", 18),
        ("AKs", 4),
        ("AKo", 12),
        ("AK", 16),
        ("KA", 16),
        ("98s-65s", 16),
        ("65s-98s", 16),
        ("22+", 78),
        ("22-55", 24),
        ("A2s+", 48),
        ("KTo+", 36),
        ("KT+", 48),
        ("A5s-A2s", 16),
        ("AsKs", 1),
        ("QQ+, AKs, AKo", 34),
        ("AK, AKs", 16),
        ("qq+,aks", 22),
        ("random", 1326),
    ],
)
def test_range_counts(text: str, count: int) -> None:
    assert len(parse_range(text)) == count


def test_range_contents() -> None:
    combos = {cards_str(combo) for combo in parse_range("98s-76s").combos}
    assert "9s8s" in combos
    assert "7h6h" in combos
    assert "6h5h" not in combos
    assert all(combo[0] > combo[1] for combo in parse_range("random").combos)
    assert parse_range("AsKs").combos == parse_range("KsAs").combos


def test_card_removal() -> None:
    kings_up = parse_range("KK+")
    assert isinstance(kings_up, HandRange)
    assert len(kings_up.without({51})) == 9  # As removes 3 combos of AA
    assert kings_up.as_array().shape == (12, 2)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("QQs", "pair cannot be suited"),
        ("AKx", "cannot read range item"),
        ("98s-65o", "both ends must be alike"),
        ("98s-64s", "same gap"),
        ("AKs:0.5", "weights are not supported"),
        ("", "empty"),
        ("AsAs", "twice"),
        ("ZZ", "cannot read range item"),
    ],
)
def test_bad_ranges(text: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        parse_range(text)
