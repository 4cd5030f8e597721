"""The numbers the challenge text states (100-card Kuhn and 50-chip Leduc), from the trees."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pokerlab.games import kuhn, leduc
from pokerlab.studies.challenge import (
    histories_per_infoset,
    pair_probability,
    same_card_probability,
)
from pokerlab.tree import compile


def test_three_card_kuhn_has_12_infosets_of_2_states() -> None:
    tree = compile(kuhn())
    assert tree.n_infosets == 12
    assert [len(tree.infosets_of(p)) for p in (0, 1)] == [6, 6]
    assert set(histories_per_infoset(kuhn()).values()) == {2}


def test_hundred_card_kuhn_has_400_infosets_of_99_states() -> None:
    game = kuhn(cards=100)
    tree = compile(game)
    assert tree.n_infosets == 400
    # four per card: P1 first, P2 facing a bet, P2 after a check, P1 after check-bet
    bettings = {key.split("|")[1] for key in tree.infoset_keys}
    assert bettings == {"", "b", "p", "pb"}
    assert set(histories_per_infoset(game).values()) == {99}


def test_leduc_same_card_probability_is_one_fifth() -> None:
    value = same_card_probability(leduc())
    assert Fraction(value).limit_denominator(100) == Fraction(3, 15)
    assert value == pytest.approx(0.2)


@pytest.mark.parametrize("rank", [0, 1, 2])
def test_leduc_pair_given_the_flop_is_one_fifth(rank: int) -> None:
    assert pair_probability(leduc(), rank) == pytest.approx(0.2)


def test_fifty_chip_leduc_has_no_raise_cap_and_a_larger_tree() -> None:
    big = compile(leduc(stack=50, raise_cap=None))
    assert big.n_infosets > compile(leduc()).n_infosets
    assert any(key.endswith("rrrrrrrr") for key in big.infoset_keys)
