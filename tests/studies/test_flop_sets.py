"""Flop sets: the 1,755 canonical flops and their weights, subsets, lists and textures."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import pytest

from pokerlab.cards.card import parse_cards
from pokerlab.errors import CardError, FileFormatError, SpecError
from pokerlab.studies.flop_sets import (
    ALL_FLOPS,
    RAW_FLOPS,
    canonical_flops,
    flop_set,
    flop_subset,
    parse_flops,
    texture,
)

PERMUTATIONS = list(itertools.permutations(range(4)))


def _brute_canonical(cards: tuple[int, ...]) -> tuple[int, ...]:
    """The least sorted form of a flop over the 24 renamings of suits (independent of the
    package's indexer)."""
    return min(tuple(sorted((c & ~3) | perm[c & 3] for c in cards)) for perm in PERMUTATIONS)


def test_the_canonical_flops_and_weights_match_a_brute_force_count() -> None:
    orbits = Counter(_brute_canonical(flop) for flop in itertools.combinations(range(52), 3))
    flops = canonical_flops()
    assert len(orbits) == len(flops) == ALL_FLOPS
    assert sum(flop.weight for flop in flops) == RAW_FLOPS
    by_class = {_brute_canonical(flop.cards): flop.weight for flop in flops}
    assert by_class == {key: float(count) for key, count in orbits.items()}


def test_texture_shares_of_all_flops_are_the_known_counts() -> None:
    weight: Counter[str] = Counter()
    for flop in canonical_flops():
        shape = texture(flop.cards)
        weight[shape.suits] += flop.weight
        weight[shape.pairing] += flop.weight
    assert weight["monotone"] == 4 * 286  # 4 suits x C(13, 3) ranks
    assert weight["trips"] == 13 * 4  # 13 ranks x C(4, 3) suits
    assert weight["paired"] == 13 * 6 * 12 * 4  # the pair's rank and suits, the kicker
    assert weight["rainbow"] == 286 * 24 + 13 * 6 * 12 * 2 + 13 * 4  # unpaired, paired, trips


@pytest.mark.parametrize(
    ("flop", "suits", "pairing", "high", "connected"),
    [
        ("AsKd2c", "rainbow", "unpaired", "A", "disconnected"),
        ("5s4d3c", "rainbow", "unpaired", "5", "connected"),
        ("As2d3d", "two-tone", "unpaired", "A", "connected"),  # the wheel
        ("AsKsTs", "monotone", "unpaired", "A", "connected"),  # broadway
        ("AsKd9c", "rainbow", "unpaired", "A", "disconnected"),
        ("9s9d8c", "rainbow", "paired", "9", "disconnected"),
        ("7c7d7h", "rainbow", "trips", "7", "disconnected"),
    ],
)
def test_textures(flop: str, suits: str, pairing: str, high: str, connected: str) -> None:
    shape = texture(parse_cards(flop))
    assert (shape.suits, shape.pairing, shape.high, shape.connected) == (
        suits, pairing, high, connected)


@pytest.mark.parametrize("count", [1, 7, 25, 184, ALL_FLOPS])
def test_a_subset_keeps_every_weight_and_each_texture_s_share(count: int) -> None:
    subset = flop_subset(count)
    assert len({flop.text for flop in subset}) == count
    assert sum(flop.weight for flop in subset) == RAW_FLOPS
    assert flop_subset(count) == subset  # the same count, the same flops
    full = Counter[str]()
    for flop in canonical_flops():
        full[texture(flop.cards).suits] += flop.weight
    part = Counter[str]()
    for flop in subset:
        part[texture(flop.cards).suits] += flop.weight
    stretch = max(flop.weight for flop in subset)
    for suits in ("rainbow", "two-tone", "monotone"):
        assert abs(part[suits] - full[suits]) <= stretch
    if count == ALL_FLOPS:
        assert subset == canonical_flops()


@pytest.mark.parametrize("count", [0, ALL_FLOPS + 1])
def test_a_subset_out_of_range_is_refused(count: int) -> None:
    with pytest.raises(SpecError, match="1 to 1,755 flops"):
        flop_subset(count)


def test_flops_written_out_with_weights_and_comments() -> None:
    flops = parse_flops("AsKd2c, Td9d6h 12\n# a comment\n7c 7d 7h  # trips\n")
    assert [(flop.text, flop.weight) for flop in flops] == [
        ("AsKd2c", 1.0), ("Td9d6h", 12.0), ("7h7d7c", 1.0)]


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("AsKd2c, Kd2cAs", SpecError, "listed twice"),
        ("AsKd", CardError, "a flop is three cards"),
        ("AsKd2c -3", SpecError, "not a positive number"),
        ("AsKd2c nan", SpecError, "not a positive number"),
        ("AsXd2c", CardError, "is not a flop"),
        ("# nothing", SpecError, "no flop is listed"),
    ],
)
def test_bad_flop_lists_are_refused(text: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        parse_flops(text)


def test_the_flops_option_reads_all_counts_files_and_lists(tmp_path: Path) -> None:
    assert flop_set("all") == canonical_flops()
    assert flop_set(" 25 ") == flop_subset(25)
    listed = tmp_path / "flops.txt"
    listed.write_text("AsKd2c 3\nTd9d6h\n")
    assert [flop.text for flop in flop_set(str(listed))] == ["AsKd2c", "Td9d6h"]
    assert [flop.text for flop in flop_set("Td9d6h")] == ["Td9d6h"]
    with pytest.raises(FileFormatError, match="is a folder"):
        flop_set(str(tmp_path))
    with pytest.raises(SpecError, match="--flops is 'all', a count"):
        flop_set("rainbow")
    huge = tmp_path / "huge.txt"
    huge.write_text("AsKd2c\n" * 200_000)
    with pytest.raises(FileFormatError, match="longer than"):
        flop_set(str(huge))
