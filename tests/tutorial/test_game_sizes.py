"""The game sizes the tutorial and the challenge text state, one test per number."""

from __future__ import annotations

from collections import Counter

from pokerlab.games import kuhn, leduc
from pokerlab.tree import compile


def test_kuhn_has_six_infosets_per_player() -> None:
    tree = compile(kuhn())
    assert len(tree.infosets_of(0)) == 6
    assert len(tree.infosets_of(1)) == 6


def test_kuhn_has_five_betting_sequences_per_deal() -> None:
    # pp, pbp, pbb, bp, bb for each of the 6 deals.
    tree = compile(kuhn())
    assert tree.n_terminals == 5 * 6


def test_kuhn_infosets_hold_two_states() -> None:
    tree = compile(kuhn())
    sizes = Counter(int(i) for i in tree.infoset[tree.infoset >= 0])
    assert set(sizes.values()) == {2}


def test_hundred_card_kuhn_has_400_infosets() -> None:
    assert compile(kuhn(cards=100)).n_infosets == 400


def test_hundred_card_kuhn_infosets_hold_99_states() -> None:
    tree = compile(kuhn(cards=100))
    sizes = Counter(int(i) for i in tree.infoset[tree.infoset >= 0])
    assert set(sizes.values()) == {99}


def test_leduc_has_288_infosets() -> None:
    assert compile(leduc()).n_infosets == 288


def test_leduc_has_9457_histories() -> None:
    assert compile(leduc()).n_histories == 9_457


def test_leduc_has_337_sequences_per_player() -> None:
    assert compile(leduc()).n_sequences == (337, 337)


def test_fifty_chip_leduc_has_256477_histories() -> None:
    assert leduc(stack=50, raise_cap=None).count_histories() == 256_477


def test_thousand_card_kuhn_has_8992001_histories() -> None:
    assert kuhn(cards=1000).count_histories() == 8_992_001
