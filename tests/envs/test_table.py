"""The table: deals as chance does, replays from a seed, steps, settles, renders."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.envs.table import DECKS_AT_ONCE, PokerTable
from pokerlab.errors import IllegalActionError, PokerlabError
from pokerlab.games import load


@pytest.mark.parametrize(
    "spec", ["kuhn(players=3)", "kuhn(cards=9)", "leduc(players=3)", "holdem(players=4)",
             'holdem(betting="limit", ranks=4, suits=2, hole=1, board="1,1")'],
)
def test_every_chance_node_deals_uniformly_from_the_cards_not_yet_dealt(spec: str) -> None:
    """The property that lets the table deal from a shuffled deck."""
    game = load(spec)
    rng = np.random.default_rng(3)
    deck = set(game.initial_state().legal_actions())
    for _ in range(60):
        state = game.initial_state()
        dealt: set[int] = set()
        while state.player != TERMINAL:
            legal = state.legal_actions()
            if state.player == CHANCE:
                outcomes = dict(state.chance_outcomes())
                assert set(outcomes) == deck - dealt
                assert np.allclose(list(outcomes.values()), 1 / len(outcomes))
                action = legal[int(rng.integers(len(legal)))]
                dealt.add(action)
            else:
                action = legal[int(rng.integers(len(legal)))]
            state = state.child(action)


def test_deals_are_uniform() -> None:
    table = PokerTable("kuhn(cards=4)")  # 12 ordered deals of two cards
    rng = np.random.default_rng(0)
    counts: Counter[tuple[int, ...]] = Counter()
    hands = 12_000
    for _ in range(hands):
        table.deal(rng)
        counts[table.state.cards] += 1  # type: ignore[attr-defined]
    assert len(counts) == 12
    expected = hands / 12
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 35  # 11 degrees of freedom: P(chi2 > 35) < 0.001


def test_a_seed_gives_the_same_hands_across_batches_of_decks() -> None:
    def hands(seed: int) -> list[tuple[int, ...]]:
        table = PokerTable("holdem")
        rng = np.random.default_rng(seed)
        out = []
        for _ in range(DECKS_AT_ONCE + 10):
            table.deal(rng)
            out.append(table.state.history)
        return out

    assert hands(4) == hands(4)
    assert hands(4) != hands(5)
    first = hands(4)
    assert len(set(first)) == len(first)  # the second batch is not the first again


def test_a_new_generator_starts_a_new_batch() -> None:
    table = PokerTable("leduc")
    table.deal(np.random.default_rng(1))
    again = table.state.history
    table.deal(np.random.default_rng(2))
    table.deal(np.random.default_rng(1))
    assert table.state.history == again


def test_stepping_plays_to_the_end_and_settles() -> None:
    table = PokerTable("leduc")
    rng = np.random.default_rng(2)
    for _ in range(200):
        table.deal(rng)
        while not table.is_over:
            legal = np.flatnonzero(table.mask(table.player))
            table.step(int(legal[rng.integers(len(legal))]))
        assert sum(table.returns()) == pytest.approx(0)
        assert table.returns() == table.state.returns()
    with pytest.raises(PokerlabError, match="the hand is over"):
        table.step(1)


def test_play_checks_game_actions_and_step_checks_indices() -> None:
    table = PokerTable("holdem")
    table.deal(np.random.default_rng(0))
    with pytest.raises(IllegalActionError, match="raise to X"):
        table.play(2 + 1)  # a raise to 1 chip
    with pytest.raises(IllegalActionError, match="legal: 0 \\(fold\\), 1 \\(call\\)"):
        table.step(9)
    table.step(np.int64(1))  # numpy ints are indices too
    assert table.state.history[-1] == 1


def test_the_public_history_is_kept_when_asked() -> None:
    table = PokerTable("leduc", track_public=True)
    rng = np.random.default_rng(6)
    for _ in range(50):
        table.deal(rng)
        while not table.is_over:
            legal = np.flatnonzero(table.mask(table.player))
            table.step(int(legal[rng.integers(len(legal))]))
            assert tuple(table.public_history) == table.state.public_history()


def test_render_shows_the_cards_the_chips_and_the_betting() -> None:
    table = PokerTable("leduc(stack=20, raise_cap=None)")
    game = table.game
    table.state = game.initial_state().apply_sequence([4, 0, 2, 0])  # P1 A, P2 Q; bet; fold
    text = table.render(("me", "you"))
    assert "me   A        in 3, behind 17" in text
    assert "you  Q        in 1, behind 19, folded" in text
    assert "betting: me:bet you:fold" in text
    assert "returns: me +1, you -1" in text
    table.state = game.initial_state().apply_sequence([4, 0])
    assert "<- to act: 1=check, 2=bet" in table.render()
