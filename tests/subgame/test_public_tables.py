"""The public game's derived tables against plain, board-by-board reference versions.

:func:`~pokerlab.subgame.public_tree.make_public_game` derives the showdown tables in a
compiled loop (counting sorts) and the identical-hand index by sorted keys. Here each is
compared, on many random hand spaces (ties, hands off the board, one-card hands, hands
both players hold, repeated hands), with the direct version it replaced: one numpy sort and
search per board, one dict lookup per hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.errors import SpecError
from pokerlab.subgame.public_tree import HandSpace, HandTables, _hand_tables, same_hand_index


def _reference_same(mine: HandSpace, theirs: HandSpace) -> np.ndarray:
    out = np.full(mine.n_hands, -1, dtype=np.int64)
    lookup = {(int(a), int(b)): j for j, (a, b) in enumerate(theirs.cards) if b >= 0}
    for i, (a, b) in enumerate(mine.cards):
        if b >= 0:
            out[i] = lookup.get((int(a), int(b)), lookup.get((int(b), int(a)), -1))
    return out


def _reference_showdown(mine: HandSpace, theirs: HandSpace, strength: np.ndarray,
                        other_strength: np.ndarray, n_cards: int) -> dict[str, np.ndarray]:
    """The tables as public_tree built them board by board (before they were compiled)."""
    n_hands, n_boards = mine.n_hands, strength.shape[0]
    order = np.zeros((n_boards, n_hands), dtype=np.uint16)
    n_valid = np.zeros(n_boards, dtype=np.int64)
    entries = np.zeros((n_boards, 2 * n_hands), dtype=np.uint16)
    offsets = np.zeros((n_boards, n_cards + 1), dtype=np.int64)
    cuts = np.zeros((n_boards, n_hands, 8), dtype=np.uint16)
    for b in range(n_boards):
        valid = np.flatnonzero(strength[b] >= 0)
        ranked = valid[np.argsort(strength[b, valid], kind="stable")]
        count = ranked.shape[0]
        order[b, :count] = ranked
        n_valid[b] = count
        pair_card = np.concatenate([mine.cards[ranked, 0], mine.cards[ranked, 1]])
        pair_position = np.concatenate([np.arange(count)] * 2)
        pair_label = np.concatenate([ranked, ranked])
        keep = pair_card >= 0
        by = np.lexsort((pair_position[keep], pair_card[keep]))
        entries[b, : by.shape[0]] = pair_label[keep][by]
        offsets[b, 1:] = np.cumsum(np.bincount(pair_card[keep], minlength=n_cards))
        other_valid = np.flatnonzero(other_strength[b] >= 0)
        other_ranked = other_valid[np.argsort(other_strength[b, other_valid], kind="stable")]
        other_sorted = other_strength[b, other_ranked]
        low = np.searchsorted(other_sorted, strength[b, ranked], side="left")
        high = np.searchsorted(other_sorted, strength[b, ranked], side="right")
        other_cards = theirs.cards[other_ranked]
        keys_card = np.concatenate([other_cards[:, 0], other_cards[:, 1]])
        keys_position = np.concatenate([np.arange(other_ranked.shape[0])] * 2)
        stride = other_ranked.shape[0] + 1
        keys = np.sort(keys_card[keys_card >= 0] * stride + keys_position[keys_card >= 0])
        spare = keys.shape[0] + n_cards
        row = cuts[b, :count]
        row[:, 0], row[:, 1] = low, high
        for column, card_column in ((2, 0), (3, 1)):
            held = mine.cards[ranked, card_column]
            safe = np.where(held >= 0, held, 0)
            for offset, rank in ((0, low), (2, high), (4, stride)):
                at = np.searchsorted(keys, safe * stride + rank) + safe
                row[:, column + offset] = np.where(held >= 0, at, spare)
    return {"order": order, "n_valid": n_valid, "entries": entries, "offsets": offsets,
            "cuts": cuts}


def _random_space(rng: np.random.Generator, n_cards: int, n_hands: int,
                  one_card: bool) -> HandSpace:
    if one_card:
        cards = np.full((n_hands, 2), -1, dtype=np.int64)
        cards[:, 0] = rng.integers(0, n_cards, n_hands)
    else:
        cards = np.array([rng.choice(n_cards, 2, replace=False) for _ in range(n_hands)],
                         dtype=np.int64)
    return HandSpace(cards, rng.random(n_hands), tuple(str(i) for i in range(n_hands)))


@pytest.mark.parametrize("seed", range(12))
def test_showdown_tables_match_the_board_by_board_version(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n_cards = int(rng.choice([6, 13, 52]))
    one_card = seed % 4 == 3
    hands = [_random_space(rng, n_cards, int(rng.integers(1, 120)), one_card)
             for _ in range(2)]
    n_boards = int(rng.integers(1, 9))
    strengths = []
    for space in hands:  # few distinct values (ties), about a fifth off the board (-1)
        values = rng.integers(0, 6 if seed % 2 else 4000, (n_boards, space.n_hands))
        strengths.append(np.where(rng.random(values.shape) < 0.2, -1, values))
    for q in (0, 1):
        same = same_hand_index(hands[0], hands[1])[q]
        values = rng.random((2, hands[q].n_hands))  # value nodes' payoffs pass through
        tables = _hand_tables(hands[q], hands[1 - q], strengths[q], strengths[1 - q], same,
                              n_cards, np.zeros((0, hands[q].n_hands), dtype=np.int64), values)
        np.testing.assert_array_equal(tables.values, values)
        np.testing.assert_array_equal(tables.same, same)
        expected = _reference_showdown(hands[q], hands[1 - q], strengths[q],
                                       strengths[1 - q], n_cards)
        for name, array in expected.items():
            np.testing.assert_array_equal(getattr(tables, name), array, err_msg=name)


@pytest.mark.parametrize("seed", range(10))
def test_the_identical_hand_index_matches_a_lookup_per_hand(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    n_cards = int(rng.choice([5, 8, 52]))  # few cards: many hands both players hold
    first = _random_space(rng, n_cards, int(rng.integers(1, 60)), seed == 7)
    second = _random_space(rng, n_cards, int(rng.integers(1, 60)), seed == 8)
    if seed == 9:  # a padding card in either column: -1 is matched as the dict matched it
        cards = first.cards.copy()
        cards[::3, 0] = -1
        first = HandSpace(cards, first.weights, first.names)
    for mine, theirs, found in zip((first, second), (second, first),
                                   same_hand_index(first, second), strict=True):
        np.testing.assert_array_equal(found, _reference_same(mine, theirs))


def _tables(mine: HandSpace, theirs: HandSpace, strength: np.ndarray,
            other_strength: np.ndarray, n_cards: int = 6) -> HandTables:
    return _hand_tables(mine, theirs, strength, other_strength,
                        np.zeros(mine.n_hands, dtype=np.int64), n_cards,
                        np.zeros((0, mine.n_hands), dtype=np.int64), np.zeros((0, mine.n_hands)))


def test_what_the_compiled_tables_cannot_index_is_refused() -> None:
    # The kernel does not check bounds: a card past the deck or a table of the wrong shape
    # would write outside its arrays, so each is refused first.
    one = HandSpace(np.array([[0, 1]]), np.ones(1), ("x",))
    two = HandSpace(np.array([[2, 3], [4, 5]]), np.ones(2), ("y", "z"))
    past = HandSpace(np.array([[0, 7]]), np.ones(1), ("x",))
    zeros = np.zeros((1, 1), dtype=np.int64)
    with pytest.raises(SpecError, match="card 7; the game has 6 cards"):
        _tables(past, one, zeros, zeros)
    with pytest.raises(SpecError, match="card 7; the game has 6 cards"):
        _tables(one, past, zeros, zeros)
    with pytest.raises(SpecError, match=r"theirs: strengths must be \[boards, hands\]"):
        _tables(one, two, zeros, zeros)  # theirs has 2 hands
    with pytest.raises(SpecError, match=r"mine: strengths must be \[boards, hands\]"):
        _tables(one, one, np.zeros((1, 3), dtype=np.int64), zeros)
    with pytest.raises(SpecError, match=r"theirs: strengths must be"):
        _tables(one, one, np.zeros((2, 1), dtype=np.int64), zeros)  # boards differ


def test_a_game_without_boards_or_hands_gets_empty_tables() -> None:
    one = HandSpace(np.array([[0, 1]]), np.ones(1), ("x",))
    none = HandSpace(np.zeros((0, 2), dtype=np.int64), np.zeros(0), ())
    tables = _tables(one, one, np.zeros((0, 1), dtype=np.int64),
                     np.zeros((0, 1), dtype=np.int64))
    assert tables.cuts.shape == (0, 1, 8)
    tables = _tables(none, one, np.zeros((2, 0), dtype=np.int64),
                     np.zeros((2, 1), dtype=np.int64))
    assert tables.order.shape == (2, 0)
    assert tables.offsets.tolist() == [[0] * 7] * 2
