import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerlab.cards import GRID_LABELS, HandRange, cards_str, combo_index, hand_class, parse_range
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
        ("AKs:1.5", r"outside \[0, 1\]"),
        ("AKs:-0.5", r"outside \[0, 1\]"),
        ("AKs:abc", "cannot read the weight"),
        ("AKs:", "cannot read the weight"),
        ("AKs:0.5:0.5", "cannot read the weight"),
        ("AKs:nan", "cannot read the weight"),
        ("AKs:inf", "cannot read the weight"),
        ("AKs:0", "holds no combo"),
        ("AK, AK:0", "holds no combo"),
        (" , ", "empty"),
        ("", "empty"),
        ("AsAs", "twice"),
        ("ZZ", "cannot read range item"),
    ],
)
def test_bad_ranges(text: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        parse_range(text)


def test_weights_apply_to_every_combo_of_their_item() -> None:
    hand_range = parse_range("QQ+, AKs:0.5, AsKs:0.25")
    assert len(hand_range) == 22
    weights = {
        cards_str(combo): weight
        for combo, weight in zip(hand_range.combos, hand_range.weights, strict=True)
    }
    assert weights["AsKs"] == 0.25
    assert weights["AhKh"] == weights["AdKd"] == weights["AcKc"] == 0.5
    assert weights["QsQh"] == 1.0
    assert hand_range.total_weight == pytest.approx(18 + 3 * 0.5 + 0.25)
    assert hand_range.weight_array().tolist() == list(hand_range.weights)


def test_a_combo_named_twice_takes_the_later_weight() -> None:
    assert parse_range("AK, AKs:0.5") == HandRange(
        combos=parse_range("AKo").combos + parse_range("AKs").combos,
        weights=(1.0,) * 12 + (0.5,) * 4,
    )
    assert parse_range("AKs:0.5, AK") == parse_range("AK")
    assert parse_range("AK, AKs:0") == parse_range("AKo")  # weight 0 removes
    assert parse_range("AKs:0, AK") == parse_range("AK")  # ...until named again


def test_weight_number_forms() -> None:
    assert parse_range("AKs:1e-3").weights == (0.001,) * 4
    assert parse_range("AKs : .5").weights == (0.5,) * 4
    assert parse_range("AKs:1").weights == (1.0,) * 4
    assert parse_range("KQo:0.5").total_weight == 6.0


def test_canonical_order_and_equality_ignore_notation_order() -> None:
    first = parse_range("AKs, QQ, 7s6s")
    second = parse_range("7s6s, QQ, AKs")
    assert first == second
    assert first.combos == tuple(sorted(first.combos, reverse=True))
    assert first.text == "AKs, QQ, 7s6s"  # the text it came from is kept (not compared)


def test_arrays_for_public_tree_solvers() -> None:
    hand_range = parse_range("AA, KQs:0.5")
    combos = hand_range.as_array()
    assert combos.shape == (10, 2)
    assert combos.dtype == np.int64
    assert np.all(combos[:, 0] > combos[:, 1])
    assert hand_range.weight_array().shape == (10,)
    masks = hand_range.masks()
    assert np.all(masks == (1 << combos[:, 0]) | (1 << combos[:, 1]))
    indices = hand_range.combo_indices()
    assert indices.tolist() == [combo_index(tuple(row)) for row in combos.tolist()]
    assert sorted(combo_index((a, b)) for a in range(52) for b in range(a)) == list(range(1326))


def test_without_the_board() -> None:
    hand_range = parse_range("AA, AKs:0.5, KK")
    kept = hand_range.without("As2c3d")
    assert len(kept) == 3 + 3 + 6
    assert kept.weight_of((47 - 1, 51 - 1)) == 0.5  # AhKh keeps its weight
    assert kept.weight_of((51, 47)) == 0.0  # AsKs is gone
    assert hand_range.without([0, 1]) is hand_range  # nothing removed
    assert hand_range.without({51}) == hand_range.without("As")
    with pytest.raises(CardError, match="no combo left"):
        parse_range("AsKs, AsQs").without("As")


def test_grid_cells() -> None:
    grid = parse_range("AA, AKs:0.5, KQo, 7c2d").grid()
    assert grid.shape == (13, 13)
    assert GRID_LABELS[0][0] == "AA"
    assert GRID_LABELS[0][1] == "AKs"
    assert GRID_LABELS[1][0] == "AKo"
    assert GRID_LABELS[12][12] == "22"
    assert grid[0, 0] == 1.0
    assert grid[0, 1] == 0.5
    assert grid[2, 1] == 1.0  # KQo, below the diagonal
    assert grid[12, 7] == pytest.approx(1 / 12)  # one 72o combo of twelve
    assert grid.sum() == pytest.approx(1 + 0.5 + 1 + 1 / 12)
    for row in range(13):
        for column in range(13):
            label = GRID_LABELS[row][column]
            share = parse_range(label).grid()
            assert share[row, column] == 1.0
            assert share.sum() == 1.0
    text = parse_range("AA, AKs:0.5").grid_text().splitlines()
    assert len(text) == 13
    assert text[0].startswith("AA  100  AKs  50")


def test_hand_class_names() -> None:
    assert [hand_class(combo) for combo in parse_range("AKs").combos] == ["AKs"] * 4
    assert {hand_class(combo) for combo in parse_range("random").combos} == {
        label for row in GRID_LABELS for label in row
    }


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("QQ+", "QQ+"),
        ("22-55", "55-22"),
        ("A2s+", "A2s+"),
        ("KTo+", "KTo+"),
        ("KT+", "KT+"),
        ("A5s-A2s", "A5s-A2s"),
        ("AKs, AKo", "AK"),
        ("random", "random"),
        ("random:0.5", "random:0.5"),
        ("AA, KK:0.5, QQ", "AA, QQ, KK:0.5"),
        ("AK:0.25, AsKs", "AKo:0.25, AsKs, AhKh:0.25, AdKd:0.25, AcKc:0.25"),
        ("98s-65s", "98s, 87s, 76s, 65s"),
    ],
)
def test_text_form_is_compact(text: str, written: str) -> None:
    assert parse_range(text).to_text() == written
    assert parse_range(written) == parse_range(text)
    assert str(parse_range(text)) == text
    rebuilt = HandRange(combos=parse_range(text).combos, weights=parse_range(text).weights)
    assert str(rebuilt) == written


def test_direct_construction_is_checked() -> None:
    with pytest.raises(CardError, match="appears twice"):
        HandRange(combos=((51, 47), (47, 51)))
    with pytest.raises(CardError, match=r"allowed: a weight in \(0, 1\]"):
        HandRange(combos=((51, 47),), weights=(0.0,))
    with pytest.raises(CardError, match="one weight per combo"):
        HandRange(combos=((51, 47),), weights=(0.5, 0.5))
    with pytest.raises(CardError, match="uses card As twice"):
        HandRange(combos=((51, 51),))
    with pytest.raises(CardError, match="at least one combo"):
        HandRange(combos=())
    with pytest.raises(CardError, match=r"outside 0\.\.51"):
        HandRange(combos=((52, 1),))
    with pytest.raises(CardError, match="pairs of card ids"):
        HandRange(combos=((51, 47, 43),))
    with pytest.raises(CardError, match=r"weight nan"):
        HandRange(combos=((51, 47),), weights=(float("nan"),))


ALL_COMBOS = [(a, b) for a in range(52) for b in range(a)]
NICE_WEIGHTS = st.sampled_from([1.0, 1.0, 1.0, 0.5, 0.25, 0.75, 0.1])
ANY_WEIGHT = st.floats(min_value=0.0, max_value=1.0, exclude_min=True)
CLASSES = [label for row in GRID_LABELS for label in row]


@st.composite
def hand_ranges(draw: st.DrawFn) -> HandRange:
    """Whole classes at shared weights (so runs and merged items appear), minus a few combos,
    plus loose combos at arbitrary weights."""
    weights: dict[tuple[int, int], float] = {}
    for label in draw(st.lists(st.sampled_from(CLASSES), max_size=40)):
        weight = draw(NICE_WEIGHTS)
        for combo in parse_range(label).combos:
            weights[combo] = weight
    for combo in draw(st.lists(st.sampled_from(ALL_COMBOS), max_size=10)):
        weights.pop(combo, None)
    for combo in draw(st.lists(st.sampled_from(ALL_COMBOS), max_size=10)):
        weights[combo] = draw(st.one_of(NICE_WEIGHTS, ANY_WEIGHT))
    if not weights:
        weights[draw(st.sampled_from(ALL_COMBOS))] = draw(ANY_WEIGHT)
    return HandRange(combos=tuple(weights), weights=tuple(weights.values()))


@given(hand_ranges())
@settings(max_examples=150, deadline=None)
def test_text_form_round_trips(hand_range: HandRange) -> None:
    text = hand_range.to_text()
    parsed = parse_range(text)
    assert parsed == hand_range
    assert parsed.weights == hand_range.weights  # floats written exactly
    assert parsed.to_text() == text


ITEMS = st.one_of(
    st.sampled_from(CLASSES),
    st.sampled_from(["QQ+", "22-55", "A2s+", "KTo+", "KT+", "A5s-A2s", "98s-65s", "T9o-54o"]),
    st.sampled_from(ALL_COMBOS).map(cards_str),
)


@given(st.lists(st.tuples(ITEMS, st.one_of(st.none(), ANY_WEIGHT, st.just(0.0))), min_size=1))
@settings(max_examples=150, deadline=None)
def test_notation_parses_formats_and_parses_again(items: list[tuple[str, float | None]]) -> None:
    text = ", ".join(item if weight is None else f"{item}:{weight!r}" for item, weight in items)
    expected: dict[tuple[int, int], float] = {}
    for item, weight in items:  # the later-weight rule, applied item by item
        for combo in parse_range(item).combos:
            if weight == 0.0:
                expected.pop(combo, None)
            else:
                expected[combo] = 1.0 if weight is None else weight
    if not expected:
        with pytest.raises(CardError, match="holds no combo"):
            parse_range(text)
        return
    parsed = parse_range(text)
    assert parsed == HandRange(combos=tuple(expected), weights=tuple(expected.values()))
    assert parse_range(parsed.to_text()) == parsed
