from __future__ import annotations

import numpy as np
import pytest

from pokerlab.abstraction import (
    cap_raises,
    pseudo_harmonic,
    translate,
    translate_leduc_key,
    translation_probabilities,
)
from pokerlab.errors import SpecError

SIZES = (0.5, 1.0, 2.0)


def formula(x: float, a: float, b: float) -> float:
    return (b - x) * (1 + a) / ((b - a) * (1 + x))


def test_pseudo_harmonic_matches_the_formula_on_a_grid() -> None:
    for a, b in ((0.0, 1.0), (0.5, 1.0), (1.0, 2.0), (0.25, 4.0)):
        for x in np.linspace(a, b, 41):
            assert pseudo_harmonic(float(x), a, b) == pytest.approx(formula(x, a, b), abs=1e-12)
    assert pseudo_harmonic(0.1, 0.5, 1.0) == 1.0
    assert pseudo_harmonic(3.0, 0.5, 1.0) == 0.0


def test_pseudo_harmonic_probabilities_between_neighbours() -> None:
    for x in np.linspace(0.5, 2.0, 31):
        probs = translation_probabilities(float(x), SIZES, "pseudo_harmonic")
        assert sum(probs.values()) == pytest.approx(1.0)
        a = max(s for s in SIZES if s <= x)
        b = min(s for s in SIZES if s >= x)
        if a == b:
            assert probs == {a: 1.0}
        else:
            assert probs[a] == pytest.approx(formula(float(x), a, b))


@pytest.mark.parametrize("method", ["nearest", "pseudo_harmonic"])
def test_a_bet_on_an_abstract_size_maps_to_it(method: str) -> None:
    for size in SIZES:
        assert translation_probabilities(size, SIZES, method) == {size: 1.0}
        assert all(translate(size, SIZES, method, rng=seed) == size for seed in range(20))


def test_nearest_picks_the_nearer_size() -> None:
    assert translate(0.7, SIZES) == 0.5
    assert translate(0.8, SIZES) == 1.0
    assert translate(0.75, SIZES) == 0.5  # a tie goes to the smaller
    assert translate(1.9, SIZES) == 2.0
    assert translate(5.0, SIZES) == 2.0
    assert translate(0.1, SIZES) == 0.5


def test_pseudo_harmonic_sampling_follows_its_probability() -> None:
    rng = np.random.default_rng(0)
    draws = [translate(0.75, SIZES, "pseudo_harmonic", rng=rng) for _ in range(4000)]
    share = draws.count(0.5) / len(draws)
    assert share == pytest.approx(formula(0.75, 0.5, 1.0), abs=0.03)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: translate(0.7, SIZES, "closest"), "allowed: nearest, pseudo_harmonic"),
        (lambda: translate(0.7, []), "at least one"),
        (lambda: translate(0.7, [1.0, 1.0]), "distinct"),
        (lambda: translate(-1.0, SIZES), ">= 0"),
        (lambda: pseudo_harmonic(0.7, 1.0, 0.5), "a < b"),
    ],
)
def test_bad_translation_input(call: object, match: str) -> None:
    with pytest.raises(SpecError, match=match):
        call()  # type: ignore[operator]


def test_cap_raises_keeps_the_player_to_act() -> None:
    assert cap_raises("rr", 2) == "rr"
    assert cap_raises("rrr", 2) == "r"  # P2 faces raise 3 -> P2 facing raise 1
    assert cap_raises("rrrr", 2) == "rr"
    assert cap_raises("crrr", 2) == "cr"
    assert cap_raises("rrrrc", 2) == "rrc"  # a finished round keeps the cap
    assert cap_raises("cc", 1) == "cc"
    assert cap_raises("", 3) == ""
    for m in range(1, 12):
        mapped = cap_raises("r" * m, 3)
        assert len(mapped) <= 3
        assert len(mapped) % 2 == m % 2
    with pytest.raises(SpecError, match="raise_cap >= 1"):
        cap_raises("rr", 0)


def test_translate_leduc_key_maps_both_rounds() -> None:
    assert translate_leduc_key("K|rrrr", 2) == "K|rr"
    assert translate_leduc_key("K|Q|rrrc|rrr", 2) == "K|Q|rrc|r"
    with pytest.raises(SpecError, match="not a Leduc infoset key"):
        translate_leduc_key("K|Q|r", 2)
