"""Cards: pokerlab's batch evaluator and equity calculator against eval7 (and pokerkit).

Evaluation: every peer gets its fastest Python-level use: eval7.evaluate and
phevaluator.evaluate_cards called in a loop over hands whose cards were converted beforehand
(the conversion is not timed), pokerkit.StandardHighHand.from_game on pre-parsed pokerkit
Cards. The peers are timed on fewer hands (they are slower); rates are hands per second.

Equity: Monte Carlo showdowns per second, ours through the public ``equity()`` call (parsing,
tables and result included) against eval7's compiled calculators given pre-built eval7 cards
and ranges, each drawing one showdown (a deal and a runout) per sample, on one thread.
eval7 ignores weights, so the ranges here are unweighted.
"""

from __future__ import annotations

import numpy as np

from benchmarks._harness import Row, best_time
from pokerlab.cards import equity, evaluate_batch, parse_range

RANK_LETTERS = "23456789TJQKA"
SUIT_LETTERS = "cdhs"


def _random_hands(count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    hands = np.empty((0, 7), dtype=np.int64)
    while len(hands) < count:
        draw = rng.integers(0, 52, size=(2 * count, 7))
        distinct = np.all(np.diff(np.sort(draw, axis=1), axis=1) != 0, axis=1)
        hands = np.concatenate([hands, draw[distinct]])
    return hands[:count].astype(np.uint8)


def run(quick: bool) -> list[Row]:
    n_ours = 200_000 if quick else 2_000_000
    n_eval7 = 50_000 if quick else 300_000
    n_pokerkit = 300 if quick else 2_000
    hands = _random_hands(n_ours, seed=0)
    evaluate_batch(hands[:10])  # compile (or load the cached machine code) before timing
    ours = n_ours / best_time(lambda: evaluate_batch(hands), repeat=5)
    rows: list[Row] = []
    target = ">= 10x"
    note_ours = f"evaluate_batch on {n_ours:,} random 7-card hands, 1 thread"

    import eval7

    deck = [eval7.Card(rank + suit) for rank in RANK_LETTERS for suit in SUIT_LETTERS]
    eval7_hands = [[deck[card] for card in row] for row in hands[:n_eval7].tolist()]
    evaluate7 = eval7.evaluate

    def run_eval7() -> None:
        for hand in eval7_hands:
            evaluate7(hand)

    peer = n_eval7 / best_time(run_eval7, repeat=3)
    rows.append(
        Row(
            name="7-card eval vs eval7",
            unit="hands/s",
            ours=ours,
            peer_name="eval7.evaluate loop",
            peer=peer,
            higher_is_better=True,
            target=target,
            note=f"{note_ours}; eval7 on {n_eval7:,} pre-converted hands",
        )
    )

    import phevaluator

    evaluate_cards = phevaluator.evaluate_cards
    ph_hands = hands[:n_eval7].tolist()

    def run_phevaluator() -> None:
        for hand in ph_hands:
            evaluate_cards(*hand)

    peer = n_eval7 / best_time(run_phevaluator, repeat=3)
    rows.append(
        Row(
            name="7-card eval vs phevaluator",
            unit="hands/s",
            ours=ours,
            peer_name="phevaluator.evaluate_cards loop",
            peer=peer,
            higher_is_better=True,
            note=f"phevaluator on {n_eval7:,} hands",
        )
    )

    import pokerkit

    all_cards = [
        next(iter(pokerkit.Card.parse(rank + suit)))
        for rank in RANK_LETTERS
        for suit in SUIT_LETTERS
    ]
    kit_hands = [[all_cards[card] for card in row] for row in hands[:n_pokerkit].tolist()]
    from_game = pokerkit.StandardHighHand.from_game

    def run_pokerkit() -> None:
        for hand in kit_hands:
            from_game(hand[:2], hand[2:])

    peer = n_pokerkit / best_time(run_pokerkit, repeat=3)
    rows.append(
        Row(
            name="7-card eval vs pokerkit",
            unit="hands/s",
            ours=ours,
            peer_name="pokerkit StandardHighHand.from_game",
            peer=peer,
            higher_is_better=True,
            target=">= 1000x",
            note=f"pokerkit on {n_pokerkit:,} pre-parsed hands",
        )
    )
    rows += _equity_rows(quick)
    return rows


WIDE = "22+, A2s+, K2s+, Q2s+, J7s+, T7s+, 97s+, 87s, A2o+, K9o+, QTo+, JTo"  # ~45% of hands
NARROW = "QQ+, AK, 76s"


def _equity_rows(quick: bool) -> list[Row]:
    import eval7

    deck = [eval7.Card(rank + suit) for rank in RANK_LETTERS for suit in SUIT_LETTERS]

    def to_eval7(text: str) -> list[tuple[tuple[object, object], float]]:
        return [((deck[high], deck[low]), 1.0) for high, low in parse_range(text).combos]

    n_samples = 1_000_000 if quick else 5_000_000
    repeat = 3 if quick else 5
    equity(["AsKs", WIDE], exact_threshold=0, samples=1_000)  # load the kernels first
    equity([NARROW, WIDE], exact_threshold=0, samples=1_000)
    rows: list[Row] = []

    hero = [deck[51], deck[47]]  # AsKs
    villain = to_eval7(WIDE)
    ours = n_samples / best_time(
        lambda: equity(["AsKs", WIDE], exact_threshold=0, samples=n_samples, seed=1),
        repeat=repeat,
    )
    peer = n_samples / best_time(
        lambda: eval7.py_hand_vs_range_monte_carlo(hero, villain, [], n_samples), repeat=repeat
    )
    rows.append(
        Row(
            name="equity Monte Carlo, hand vs wide range, preflop",
            unit="showdowns/s",
            ours=ours,
            peer_name="eval7.py_hand_vs_range_monte_carlo",
            peer=peer,
            higher_is_better=True,
            target=">= 1x",
            note=f"AsKs vs {len(parse_range(WIDE))} combos, {n_samples:,} samples, 1 thread",
        )
    )

    narrow = to_eval7(NARROW)
    per_hand = max(1, n_samples // len(narrow))
    ours = n_samples / best_time(
        lambda: equity([NARROW, WIDE], exact_threshold=0, samples=n_samples, seed=1),
        repeat=repeat,
    )
    peer = (
        per_hand
        * len(narrow)
        / best_time(
            lambda: eval7.py_all_hands_vs_range(narrow, villain, [], per_hand), repeat=repeat
        )
    )
    rows.append(
        Row(
            name="equity Monte Carlo, range vs range, preflop",
            unit="showdowns/s",
            ours=ours,
            peer_name="eval7.py_all_hands_vs_range",
            peer=peer,
            higher_is_better=True,
            target=">= 1x",
            note=(
                f"{NARROW} ({len(narrow)} combos) vs the wide range; eval7 samples each of "
                f"hero's combos {per_hand:,} times"
            ),
        )
    )

    flop = "2c7dTh"
    seconds = best_time(lambda: equity([NARROW, WIDE], board=flop), repeat=repeat)
    result = equity([NARROW, WIDE], board=flop)
    peer_iterations = 20_000
    peer = best_time(
        lambda: eval7.py_all_hands_vs_range(
            narrow, villain, [deck[0], deck[21], deck[34]], peer_iterations
        ),
        repeat=1,
    )
    rows.append(
        Row(
            name="equity range vs range on the flop",
            unit="s",
            ours=seconds,
            peer_name=f"eval7.py_all_hands_vs_range, {peer_iterations:,} samples per hand",
            peer=peer,
            higher_is_better=False,
            note=(
                f"ours {result.method} ({result.samples:,} showdowns); eval7 Monte Carlo "
                f"(about ±0.2% per hand): not the same answer, shown for scale"
            ),
        )
    )
    return rows
