"""The 169 x 169 preflop class-pair equity table behind AIVAT's hole-card term (issue 17 item 6)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from pokerlab.cards import equity, hand_class
from pokerlab.errors import PokerlabError
from pokerlab.eval import preflop_equity
from pokerlab.eval.preflop_equity import (
    N_CLASSES,
    class_label,
    class_pair_deal_counts,
    class_pair_equity,
    class_pair_mean,
    hand_class_id,
)


def test_class_ids_cover_the_169_classes() -> None:
    ids: Counter[int] = Counter()
    for a in range(52):
        for b in range(a):
            k = hand_class_id(a, b)
            assert k == hand_class_id(b, a)
            assert class_label(k) == hand_class((a, b))  # the card layer's names
            ids[k] += 1
    assert len(ids) == N_CLASSES
    assert sorted(Counter(ids.values()).items()) == [(4, 78), (6, 13), (12, 78)]
    with pytest.raises(PokerlabError, match="two different card ids"):
        hand_class_id(3, 3)
    with pytest.raises(PokerlabError, match="two different card ids"):
        hand_class_id(52, 0)


def test_deal_counts() -> None:
    counts = class_pair_deal_counts()
    assert counts.sum() == 1326 * 1225  # every ordered deal of two disjoint hands
    np.testing.assert_array_equal(counts, counts.T)
    aa, kk, aks = hand_class_id(51, 50), hand_class_id(47, 46), hand_class_id(51, 47)
    assert counts[aa, kk] == 36  # 6 x 6, no card shared
    assert counts[aa, aa] == 6  # AA against AA: the two remaining aces
    assert counts[aa, aks] == 3 * 4  # the ace of AKs leaves 3 AA combos


def test_table_is_antisymmetric_and_close_to_sampled_equity() -> None:
    table = class_pair_equity()
    assert table.shape == (N_CLASSES, N_CLASSES)
    np.testing.assert_allclose(table + table.T, 1.0, atol=1e-12)
    np.testing.assert_array_equal(np.diag(table), 0.5)
    assert class_pair_mean(table) == pytest.approx(0.5, abs=1e-12)
    for first, second in (("AA", "KK"), ("AKs", "QQ"), ("72o", "AA"), ("T9s", "A5o")):
        i = hand_class_id(*_combo_of(first))
        j = hand_class_id(*_combo_of(second))
        reference = equity([first, second], samples=200_000, exact_threshold=0, seed=7)
        assert table[i, j] == pytest.approx(reference.equity[0], abs=0.03)


def _combo_of(label: str) -> tuple[int, int]:
    for a in range(52):
        for b in range(a):
            if hand_class((a, b)) == label:
                return a, b
    raise AssertionError(label)


def test_table_cache_is_written_once_and_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[int] = []

    def fake_build(progress: object = None) -> np.ndarray:
        built.append(1)
        table = np.full((N_CLASSES, N_CLASSES), 0.5)
        table[0, 1], table[1, 0] = 0.25, 0.75
        return table

    monkeypatch.setattr(preflop_equity, "_build_table", fake_build)
    first = class_pair_equity(tmp_path)
    assert built == [1]
    assert not first.flags.writeable
    path = preflop_equity.cache_file(tmp_path)
    assert path.parent == tmp_path / "aivat"  # cache_dir is the cache root
    assert list(path.parent.iterdir()) == [path]  # no temp left
    preflop_equity._MEMORY.clear()  # a new process: read from the file, not rebuilt
    again = class_pair_equity(tmp_path)
    assert built == [1]
    np.testing.assert_array_equal(again, first)
    preflop_equity._MEMORY.clear()
    preflop_equity.cache_file(tmp_path).write_bytes(b"damaged")
    class_pair_equity(tmp_path)
    assert built == [1, 1]  # a damaged file is rebuilt
    with pytest.raises(PokerlabError, match="169 x 169"):
        class_pair_mean(np.zeros((13, 13)))
