"""Secret deal streams: ChaCha20 as RFC 8439 defines it, keyed by the seed, one stream per use."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from pokerlab._types import TERMINAL
from pokerlab.cards.splitmix import GAMMA, unit
from pokerlab.errors import PokerlabError
from pokerlab.eval.matches import agent_seed, play_match
from pokerlab.games import kuhn, leduc
from pokerlab.play._deal_kernels import chacha20_block, deal_uniforms
from pokerlab.play.dealer import (
    DealStream,
    InProcessConnection,
    chance_uniforms,
    deal_hand,
    mix64,
)
from pokerlab.play.deals import _deal_key_words, derive_seed, fresh_seed
from pokerlab.play.records import FAULT_DETAIL_LIMIT, bounded_text

M32 = 0xFFFFFFFF


def _rotl(x: int, n: int) -> int:
    return ((x << n) | (x >> (32 - n))) & M32


def _reference_block(key: list[int], counter: int, nonce: list[int]) -> list[int]:
    """ChaCha20's block function written from RFC 8439 section 2.3, word by word."""
    state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574, *key, counter, *nonce]
    x = list(state)

    def quarter(a: int, b: int, c: int, d: int) -> None:
        x[a] = (x[a] + x[b]) & M32
        x[d] = _rotl(x[d] ^ x[a], 16)
        x[c] = (x[c] + x[d]) & M32
        x[b] = _rotl(x[b] ^ x[c], 12)
        x[a] = (x[a] + x[b]) & M32
        x[d] = _rotl(x[d] ^ x[a], 8)
        x[c] = (x[c] + x[d]) & M32
        x[b] = _rotl(x[b] ^ x[c], 7)

    for _ in range(10):
        for a, b, c, d in ((0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15),
                           (0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14)):
            quarter(a, b, c, d)
    return [(x[i] + state[i]) & M32 for i in range(16)]


def test_the_block_function_gives_rfc_8439s_test_vector() -> None:
    # RFC 8439 section 2.3.2: key 00:01:..:1f, nonce 00:00:00:09:00:00:00:4a:00:00:00:00,
    # block count 1.
    key = np.array([int.from_bytes(bytes(range(4 * j, 4 * j + 4)), "little") for j in range(8)],
                   dtype=np.uint64)
    nonce = np.array([0x09000000, 0x4A000000, 0], dtype=np.uint64)
    out = np.empty(16, dtype=np.uint64)
    chacha20_block(key, 1, nonce, out)
    assert [f"{int(w):08x}" for w in out] == [
        "e4e7f110", "15593bd1", "1fdd0f50", "c47120a3",
        "c7f4d1c7", "0368c033", "9aaa2204", "4e6cd4c3",
        "466482d2", "09aa9f07", "05d7c214", "a2028bd9",
        "d19c12b5", "b94e16de", "e883d0cb", "4e3c50a2",
    ]  # fmt: skip


def test_the_kernel_equals_a_word_by_word_reference_on_random_keys() -> None:
    rng = np.random.default_rng(0)
    for _ in range(50):
        key = [int(w) for w in rng.integers(0, 2**32, 8)]
        nonce = [int(w) for w in rng.integers(0, 2**32, 3)]
        counter = int(rng.integers(0, 2**32))
        out = np.empty(16, dtype=np.uint64)
        chacha20_block(np.array(key, dtype=np.uint64), counter, np.array(nonce, dtype=np.uint64),
                       out)
        assert [int(w) for w in out] == _reference_block(key, counter, nonce)


def test_uniform_k_of_deal_d_is_block_k_div_8_of_the_deal_nonce() -> None:
    seed, deal = 12345, 2**40 + 7
    key = _deal_key_words(seed)
    words = _reference_block([int(w) for w in key], 1, [0, deal & M32, deal >> 32])
    # Uniform 8 + j: the 64-bit word (words 2j, 2j+1), its top 53 bits.
    expected = [((words[2 * j] | words[2 * j + 1] << 32) >> 11) / 2**53 for j in range(8)]
    assert chance_uniforms(seed, np.array([deal]), 16)[0, 8:].tolist() == expected
    stream = DealStream(seed, deal)
    assert [stream() for _ in range(16)][8:] == expected


def test_the_streams_are_the_same_one_deal_at_a_time_and_many_at_once() -> None:
    deals = np.array([0, 1, 2, 5, 99, 2**31, 2**33 + 1, 2**62])
    for seed in (0, 7, fresh_seed(), -3):
        table = chance_uniforms(seed, deals, 20)
        for row, deal in enumerate(deals):
            stream = DealStream(seed, int(deal))
            assert [stream() for _ in range(20)] == table[row].tolist()
        assert np.array_equal(deal_uniforms(_deal_key_words(seed), deals, 3, 5), table[:, 3:8])


def test_uniforms_are_uniform_and_seeds_give_unrelated_streams() -> None:
    u = chance_uniforms(fresh_seed(), np.arange(20_000), 8).ravel()
    counts = np.histogram(u, bins=20, range=(0.0, 1.0))[0]
    assert stats.chisquare(counts).pvalue > 1e-4
    assert u.min() >= 0.0
    assert u.max() < 1.0
    one = chance_uniforms(1, np.arange(5000), 2).ravel()
    two = chance_uniforms(2, np.arange(5000), 2).ravel()
    assert abs(np.corrcoef(one, two)[0, 1]) < 0.05


def test_derived_seeds_depend_on_everything_and_reveal_no_card() -> None:
    seed = fresh_seed()
    values = {derive_seed(seed, purpose, *words)
              for purpose in ("hook", "match", "bot") for words in ((0,), (1,), (0, 1), (1, 0))}
    assert len(values) == 12
    assert derive_seed(seed, "hook", 3, 1) == derive_seed(seed, "hook", 3, 1)
    assert derive_seed(seed, "hook", 3, 1) != derive_seed(seed + 1, "hook", 3, 1)
    assert 0 <= derive_seed(seed, "hook", 0, bits=64) < 2**64
    assert agent_seed(seed, 5, 1) == derive_seed(seed, "hook", 5, 1, bits=64)
    with pytest.raises(PokerlabError, match="must be an integer"):
        derive_seed(1.5, "hook")  # type: ignore[arg-type]
    with pytest.raises(PokerlabError, match="64-bit"):
        derive_seed(seed, "hook", 2**70)
    with pytest.raises(PokerlabError, match="must be an integer"):
        DealStream(True, 0)


def test_fresh_seeds_are_128_bits_from_the_operating_system() -> None:
    seeds = [fresh_seed() for _ in range(200)]
    assert len(set(seeds)) == 200
    assert max(seeds).bit_length() > 120
    assert max(s.bit_length() for s in seeds) <= 128


def _old_public_uniform(seed: int, deal: int, k: int) -> float:
    """Uniform ``k`` (1-based) of deal ``deal`` as pokerlab computed it before issue 23."""
    words = np.random.SeedSequence([seed, 0xC4A5CE]).generate_state(1, np.uint64)
    z = (int(words[0]) + deal * int(GAMMA) + k * 0xD1B54A32D192ED03) & (2**64 - 1)
    return unit(z)


def test_the_previous_attack_recomputing_the_public_stream_fails() -> None:
    # The attack of issue 23: recompute the deal stream of the run's (known) seed with the
    # old public function. Even for the seed itself, the keyed stream is another one.
    for seed in (0, 42):
        ours = chance_uniforms(seed, np.arange(200), 3)
        old = np.array([[_old_public_uniform(seed, d, k) for k in (1, 2, 3)] for d in range(200)])
        assert not np.any(np.isclose(ours, old))


def test_a_hook_value_is_not_the_public_mix_of_the_seed() -> None:
    # Before, the hook got mix64(seed, hand, agent, 0x5EA7): a bot recovered --seed 42 by
    # trying small seeds. The keyed value matches none of them.
    value = agent_seed(42, 0, 0)
    assert value not in {mix64(s, 0, a, 0x5EA7) for s in range(1000) for a in (0, 1)}


def test_matches_replay_and_duplicate_rotations_share_cards() -> None:
    game = leduc()
    from pokerlab.agents import RandomAgent

    a = play_match(game, RandomAgent(game, seed=1), RandomAgent(game, seed=2), hands=50,
                   seed=9, fast=False)
    b = play_match(game, RandomAgent(game, seed=1), RandomAgent(game, seed=2), hands=50,
                   seed=9, fast=False)
    assert [r.history for r in a.hands] == [r.history for r in b.hands]
    first, second = a.hands[0], a.hands[1]  # one deal, both seatings
    assert first.deal == second.deal
    assert first.history[:2] == second.history[:2]  # the same cards in the same seats


class Loud:
    """An agent whose exception carries a megabyte of text."""

    def act(self, observation: object) -> int:
        raise ValueError("x" * 1_000_000)


class Passer:
    def act(self, observation: object) -> int:
        return observation.legal_actions[0]  # type: ignore[attr-defined]


def test_a_megabyte_fault_text_is_cut_once_with_a_marker() -> None:
    record, _ = deal_hand(kuhn(), [InProcessConnection(Loud()), InProcessConnection(Passer())],
                          chance=DealStream(1, 0))
    (event,) = [e for e in record.events if e.kind == "exception"]
    assert len(event.detail) <= FAULT_DETAIL_LIMIT
    assert "characters cut ...]" in event.detail
    assert event.detail.startswith("ValueError('xxx")
    assert bounded_text(event.detail, FAULT_DETAIL_LIMIT) == event.detail  # cut once


def test_bounded_text_keeps_head_and_tail_and_counts_the_cut() -> None:
    text = "head" + "-" * 100_000 + "tail"
    cut = bounded_text(text, 1000)
    assert len(cut) <= 1000
    assert cut.startswith("head")
    assert cut.endswith("tail")
    marker = cut[cut.index(" [... ") : cut.index("cut ...] ") + 9]
    counted = int(marker.split()[1].replace(",", ""))
    assert len(cut) - len(marker) + counted == len(text)
    assert bounded_text("short", 1000) == "short"
    assert bounded_text("x" * 100, 10) == "x" * 10  # no room for a marker


def _loop_sample(state: object, u: float) -> int:
    """sample_chance's general path: the running sum over chance_outcomes, written out."""
    outcomes = state.chance_outcomes()  # type: ignore[attr-defined]
    total = 0.0
    for outcome, prob in outcomes:
        total += prob
        if u < total:
            return int(outcome)
    return int(outcomes[-1][0])


def test_holdem_chance_by_bisection_picks_the_running_sums_card() -> None:
    # Hold'em's chance nodes are sampled by bisection over the running sums (no pairs
    # built): the card must be the general loop's for every uniform, the edges included
    # (each running sum itself, the floats just below and above it, 0 and just below 1).
    from pokerlab.games import holdem
    from pokerlab.play.deals import _uniform_sums, sample_chance

    rng = np.random.default_rng(3)
    game = holdem(betting="limit", blinds=(5, 10), stack=1000)
    state = game.initial_state()
    checked = 0
    while state.player != TERMINAL:  # down to the river's last card, each street's undealt deck
        if state.is_chance:
            sums = _uniform_sums(len(state.legal_actions()))
            edges = [x for s in sums for x in (s, np.nextafter(s, 0.0), np.nextafter(s, 2.0))]
            for u in [*edges, *rng.random(200), 0.0, np.nextafter(1.0, 0.0)]:
                assert sample_chance(state, float(u)) == _loop_sample(state, float(u))
                checked += 1
            state = state.child(sample_chance(state, float(rng.random())))
        else:
            state = state.child(state.legal_actions()[1])  # check or call
    assert checked > 9 * 300
