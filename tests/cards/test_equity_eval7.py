"""Equity against eval7's calculator (a reference), on many random spots.

eval7 ignores weights and handles two players: its hand-vs-range Monte Carlo
(``py_hand_vs_range_monte_carlo``), its exact hand-vs-range on a complete board
(``py_hand_vs_range_exact``), and its per-hand equities against a range
(``py_all_hands_vs_range``), which a weighted range-vs-range equity combines: hero's hand h
is dealt with probability proportional to its weight times the number of villain combos it
leaves possible.
"""

import numpy as np
import pytest

from pokerlab.cards import HandRange, cards_str, equity, parse_range

eval7 = pytest.importorskip("eval7")

DECK = [eval7.Card(rank + suit) for rank in "23456789TJQKA" for suit in "cdhs"]
SAMPLES = 200_000
RANGES = [
    "22+, A2s+, K2s+, Q2s+, J7s+, T7s+, 97s+, 87s, A2o+, K9o+, QTo+, JTo",
    "QQ+, AK",
    "55-99, ATs+, KQs, 76s, 65s",
    "random",
    "TT+, AQ+, KJs+",
    "A2s-A5s, 22-44, T9s, 98s, 87s",
]


def to_eval7(combos: tuple[tuple[int, int], ...]) -> list[tuple[tuple[object, object], float]]:
    return [((DECK[high], DECK[low]), 1.0) for high, low in combos]


def random_spot(case: int) -> tuple[tuple[int, int], HandRange, list[int]]:
    rng = np.random.default_rng(500 + case)
    board_size = (0, 3, 4)[case % 3]
    cards = [int(card) for card in rng.choice(52, size=2 + board_size, replace=False)]
    hero = (max(cards[:2]), min(cards[:2]))
    villain = parse_range(RANGES[case % len(RANGES)])
    return hero, villain, cards[2:]


def tolerance(result_ci95: float, samples: int) -> float:
    """Four standard errors of the difference: ours (from its interval) and eval7's (a pot
    share varies at most 0.5 around its mean, so its standard error is at most that)."""
    ours = result_ci95 / 1.96
    theirs = 0.5 / np.sqrt(samples)
    return float(4 * np.hypot(ours, theirs))


@pytest.mark.parametrize("case", range(36))
def test_hand_vs_range_matches_eval7_monte_carlo(case: int) -> None:
    hero, villain, board = random_spot(case)
    ours = equity([list(hero), villain], board, samples=SAMPLES, seed=case)
    theirs = eval7.py_hand_vs_range_monte_carlo(
        [DECK[card] for card in hero], to_eval7(villain.combos), [DECK[c] for c in board], SAMPLES
    )
    assert abs(ours.equity[0] - theirs) <= tolerance(ours.ci95[0], SAMPLES), (
        cards_str(hero),
        str(villain),
        cards_str(board),
        ours.method,
    )


@pytest.mark.parametrize("case", range(30))
def test_hand_vs_range_on_the_river_matches_eval7_exact(case: int) -> None:
    rng = np.random.default_rng(900 + case)
    cards = [int(card) for card in rng.choice(52, size=7, replace=False)]
    hero, board = (max(cards[:2]), min(cards[:2])), cards[2:]
    villain = parse_range(RANGES[case % len(RANGES)])
    ours = equity([list(hero), villain], board)
    theirs = eval7.py_hand_vs_range_exact(
        [DECK[card] for card in hero], to_eval7(villain.combos), [DECK[c] for c in board]
    )
    assert ours.exact
    assert ours.equity[0] == pytest.approx(theirs, abs=1e-6)  # eval7 answers in float32


@pytest.mark.parametrize("case", range(12))
def test_weighted_range_vs_range_matches_eval7_per_hand(case: int) -> None:
    rng = np.random.default_rng(700 + case)
    board_size = (0, 3, 4)[case % 3]
    board = [int(card) for card in rng.choice(52, size=board_size, replace=False)]
    hero = parse_range(RANGES[(case + 1) % len(RANGES)]).without(board)
    hero_weights = rng.uniform(0.1, 1.0, size=len(hero))
    hero = HandRange(combos=hero.combos, weights=tuple(hero_weights.tolist()))
    villain = parse_range(RANGES[(case + 4) % len(RANGES)]).without(board)
    villain_options = to_eval7(villain.combos)
    villain_masks = villain.masks()
    eval7_board = [DECK[c] for c in board]
    numerator = 0.0
    mass = 0.0
    variance = 0.0
    for (high, low), weight in zip(hero.combos, hero.weights, strict=True):
        possible = int(np.count_nonzero(villain_masks & ((1 << high) | (1 << low)) == 0))
        if not possible:
            continue
        # eval7 walks villain's combos in order, one per iteration: a multiple of the
        # combos it keeps weights them all alike (else the first ones weigh more, the same
        # ones for every hand, a bias that does not average out).
        iterations = possible * -(-4_000 // possible)
        share = eval7.py_hand_vs_range_monte_carlo(
            [DECK[high], DECK[low]], villain_options, eval7_board, iterations
        )
        numerator += weight * possible * share
        mass += weight * possible
        variance += (weight * possible) ** 2 * 0.25 / iterations
    theirs = numerator / mass
    theirs_error = np.sqrt(variance) / mass
    ours = equity([hero, villain], board, samples=SAMPLES, seed=case)
    bound = 4 * np.hypot(ours.ci95[0] / 1.96, theirs_error)
    assert abs(ours.equity[0] - theirs) <= bound, (ours.method, ours.equity[0], theirs)
