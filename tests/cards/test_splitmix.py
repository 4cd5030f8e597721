"""SplitMix64: the one implementation against the textbook algorithm, and every stream on it.

The reference below is SplitMix64 as published (Steele, Lea and Flood 2014; Vigna's
``splitmix64.c``), written here in plain Python integers. Every user of the generator
(the equity sampler, the MCCFR kernels and walks, Deep CFR's traversals, the blueprint's
pruning draw, the dealer's ``mix64`` and ``reseed``) is checked against it on many inputs,
so a stream that changes, bit for bit, fails here; stored checkpoints, tutorial tables and
exact-value tests depend on these streams.
"""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.cards.splitmix import GAMMA, mix, uniform, unit

_MASK = (1 << 64) - 1


def _ref_mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def _ref_stream(seed: int, count: int) -> list[float]:
    """``count`` doubles of the stream seeded with ``seed``: top 53 bits over 2**53."""
    state, out = seed, []
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        out.append((_ref_mix(state) >> 11) / 2**53)
    return out


@pytest.fixture(scope="module")
def words() -> list[int]:
    rng = np.random.default_rng(2026)
    drawn = rng.integers(0, 2**64, size=1000, dtype=np.uint64).tolist()
    return [0, 1, 2**63 - 1, 2**63, _MASK, int(GAMMA), *drawn]


def test_the_published_first_outputs_of_seed_zero() -> None:
    # Vigna's splitmix64.c seeded with 0 (the values every port checks against).
    state, outputs = 0, []
    for _ in range(3):
        state = (state + int(GAMMA)) & _MASK
        outputs.append(mix(state))
    assert outputs == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_mix_and_unit_equal_the_reference(words: list[int]) -> None:
    assert [mix(z) for z in words] == [_ref_mix(z) for z in words]
    assert [unit(z) for z in words] == [(_ref_mix(z) >> 11) / 2**53 for z in words]
    assert all(0.0 <= unit(z) < 1.0 for z in words)


def test_bad_words_are_refused_not_wrapped() -> None:
    with pytest.raises(OverflowError):
        mix(-1)
    with pytest.raises(OverflowError):
        mix(2**64)


def test_the_kernel_stream_equals_the_reference(words: list[int]) -> None:
    from pokerlab.solvers import _deep_cfr_kernels, _mccfr_kernels

    for seed in words[:200]:
        rng = np.array([seed], dtype=np.uint64)
        assert [uniform(rng) for _ in range(5)] == _ref_stream(seed, 5)
        assert int(rng[0]) == (seed + 5 * int(GAMMA)) & _MASK
    assert _mccfr_kernels.uniform is uniform
    assert _deep_cfr_kernels.uniform is uniform


def test_the_walks_stream_equals_the_reference(words: list[int]) -> None:
    from pokerlab.solvers._mccfr_walk import SplitMix64

    for seed in words:
        stream = SplitMix64(seed)
        assert [stream.uniform() for _ in range(3)] == _ref_stream(seed, 3)


def test_the_blueprints_pruning_draw_equals_the_reference(words: list[int]) -> None:
    from pokerlab.blueprint.mccfr import _unit

    rng = np.random.default_rng(5)
    seeds = rng.integers(0, 2**31 - 64, size=1000).tolist()  # the trainer's seeds
    counters = rng.integers(1, 2**40, size=1000).tolist()
    for seed, t in zip(seeds, counters, strict=True):
        z = (seed * 0x9E3779B97F4A7C15 + t) & _MASK
        assert _unit(seed, t) == (_ref_mix(z) >> 11) / 2**53


def test_the_dealers_mix64_and_reseed_equal_the_reference(words: list[int]) -> None:
    from pokerlab.play.dealer import mix64, reseed

    def ref_mix64(*ws: int) -> int:
        z = 0x6A09E667F3BCC909
        for w in ws:
            z = _ref_mix((z + (w & _MASK) * 0x9E3779B97F4A7C15 + 0xD1B54A32D192ED03) & _MASK)
        return z

    samples = [(), (-1,), (2**70, 3), (42, 0, 1, 0x5EA7)]
    samples += [(a, b, 7) for a, b in zip(words, reversed(words), strict=True)]
    assert [mix64(*ws) for ws in samples] == [ref_mix64(*ws) for ws in samples]
    generator = reseed(np.random.default_rng(0), 12345)
    h = ref_mix64(12345)
    assert generator.bit_generator.state["state"]["state"] == h << 64 | (h ^ 0x5851F42D4C957F2D)


def test_equity_samples_are_the_recorded_ones() -> None:
    # Integer counts of wins recorded before SplitMix64 became one module: the draws of
    # both sampling kernels (two players and more) are unchanged, seed for seed.
    from pokerlab.cards.equity import equity

    two = equity(["AsKs", "QQ+, AKs:0.5"], samples=50_000, seed=11, exact_threshold=0)
    assert [round(w * 50_000) for w in two.win] == [15570, 29355]
    three = equity(["AhKh", "TT+", "72o, 88"], "2c7d3s", samples=50_000, seed=11,
                   exact_threshold=0)
    assert [round(w * 50_000) for w in three.win] == [5902, 22612, 21362]
