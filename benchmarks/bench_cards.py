"""Seven-card hand evaluation: pokerlab's batch evaluator against eval7 and pokerkit.

Every peer gets its fastest Python-level use: eval7.evaluate and phevaluator.evaluate_cards
called in a loop over hands whose cards were converted beforehand (the conversion is not
timed), pokerkit.StandardHighHand.from_game on pre-parsed pokerkit Cards. The peers are
timed on fewer hands (they are slower); rates are hands per second.
"""

from __future__ import annotations

import numpy as np

from benchmarks._harness import Row, best_time
from pokerlab.cards import evaluate_batch

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
    return rows
