"""Hold'em card abstraction: river hand strength, canonical indexing, the full table build.

River strength: ours computes the strength of every hole pair on each canonical river board
(the sorted sweep of :mod:`pokerlab.abstraction.holdem_features`, writing each at its
canonical index), on both cores; the peer is eval7's compiled exact equity of one hand
against the full random range on the same board (``py_hand_vs_range_exact``), called per
hand. Rates are (hand, board) strengths per second; a few hands are checked equal first.

Indexing has no peer installed (Waugh's C library is not packaged); the full build (not in
``--quick``) builds the 169/50/50/50 tables into a temporary cache folder.
"""

from __future__ import annotations

import tempfile
import time

import numpy as np

from benchmarks._harness import Row, best_time
from pokerlab.abstraction.holdem_features import STRENGTH_SCALE, board_weights, river_strengths
from pokerlab.abstraction.holdem_iso import street_indexer

RANK_LETTERS = "23456789TJQKA"
SUIT_LETTERS = "cdhs"


def run(quick: bool) -> list[Row]:
    rows = [_river_row(quick), _index_row(quick), _buckets_row(quick)]
    if not quick:
        rows.append(_build_row())
    return rows


def _river_row(quick: bool) -> Row:
    import eval7

    n_boards = 2_000 if quick else 10_000
    boards = np.arange(n_boards, dtype=np.int64)
    river_strengths(boards=boards[:2])  # load the kernels
    seconds = best_time(lambda: river_strengths(boards=boards), repeat=3)
    ours = n_boards * 1081 / seconds
    deck = [eval7.Card(rank + suit) for rank in RANK_LETTERS for suit in SUIT_LETTERS]
    everything = eval7.HandRange("22+, A2+, K2+, Q2+, J2+, T2+, 92+, 82+, 72+, 62+, 52+, 42+, 32")
    reps, _ = board_weights(5)
    rng = np.random.default_rng(0)
    n_peer = 300 if quick else 2_000
    cases = []
    for _ in range(n_peer):
        board = reps[rng.integers(n_boards)].tolist()
        rest = [c for c in range(52) if c not in board]
        hole = rng.choice(rest, size=2, replace=False).tolist()
        cases.append(([deck[c] for c in hole], [deck[c] for c in board], hole, board))
    exact = eval7.py_hand_vs_range_exact

    def run_eval7() -> None:
        for hole, board, _, _ in cases:
            exact(hole, everything, board)

    peer = n_peer / best_time(run_eval7, repeat=3)
    strengths = river_strengths(boards=boards)
    indexer = street_indexer(3)
    for hole7, board7, hole, board in cases[:20]:  # the same answers
        ours_value = strengths.numerators[indexer.index([[*hole, *board]])[0]] / STRENGTH_SCALE
        assert abs(ours_value - exact(hole7, everything, board7)) < 1e-6  # eval7: float32
    return Row(
        name="river hand strength, every canonical hand",
        unit="hands/s",
        ours=ours,
        peer_name="eval7.py_hand_vs_range_exact per hand",
        peer=peer,
        higher_is_better=True,
        target=">= 10x",
        note=f"ours: all 1,081 pairs on {n_boards:,} canonical boards, indexed, 2 threads; "
        f"eval7: {n_peer:,} hands vs the random range, 1 thread",
    )


def _index_row(quick: bool) -> Row:
    indexer = street_indexer(3)
    n = 200_000 if quick else 2_000_000
    rng = np.random.default_rng(1)
    hands = np.argsort(rng.random((n, 52)), axis=1)[:, :7].astype(np.int64)
    indexer.index(hands[:10])
    ours = n / best_time(lambda: indexer.index(hands), repeat=3)
    return Row(
        name="canonical river index (hole + board)",
        unit="hands/s",
        ours=ours,
        higher_is_better=True,
        note=f"{n:,} random hands, 2 threads; no peer installed",
    )


def _buckets_row(quick: bool) -> Row:
    from pokerlab.abstraction.holdem_cards import build_holdem_abstraction

    # Full-size tables (their contents, from a few boards, do not change the lookup cost).
    cards = build_holdem_abstraction((169, 8, 8, 8), boards=3, n_bins=8, sample=5_000)
    n = 100_000 if quick else 1_000_000
    rng = np.random.default_rng(2)
    deals = np.argsort(rng.random((n, 52)), axis=1)[:, :9].astype(np.int64)
    hole, board = deals[:, :4].reshape(n, 2, 2), deals[:, 4:]
    cards.buckets(hole[:10], board[:10])
    ours = n / best_time(lambda: cards.buckets(hole, board), repeat=3)
    return Row(
        name="buckets of heads-up deals, 4 streets",
        unit="deals/s",
        ours=ours,
        higher_is_better=True,
        note=f"{n:,} random deals, 8 indices and table lookups each, 2 threads; no peer",
    )


def _build_row() -> Row:
    import resource

    from pokerlab.abstraction.holdem_cards import load_or_build

    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        abstraction, _, _ = load_or_build((169, 50, 50, 50), 0, cache_dir=folder)
        seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
    return Row(
        name="build the 169/50/50/50 tables",
        unit="s",
        ours=seconds,
        target="minutes (< 10 min)",
        note=f"peak memory {peak:.2f} GB, tables {abstraction.nbytes / 1e6:.0f} MB, save included",
    )
