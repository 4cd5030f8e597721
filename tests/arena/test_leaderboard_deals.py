"""The leaderboard's intervals account for the seats being played on the same deals.

A deal played in both seatings is one sample (the mean of its hands), not two: the luck of
the cards cancels within it. Constructed results where the two give very different
intervals show that the leaderboard uses the per-deal one.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from pokerlab.arena import ArenaStore, leaderboard
from pokerlab.eval.statistics import mean_estimate
from pokerlab.play.records import HandRecord

SKILL = 0.1  # what agent a wins per hand beyond the luck of the cards
DEALS = 60


def _store(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """A finished run of one match where each deal is played in both seatings.

    Returns agent a's chips per hand and per deal.
    """
    rng = np.random.default_rng(7)
    luck = rng.choice([-2.0, -1.0, 1.0, 2.0], size=DEALS)
    noise = rng.normal(0.0, 0.01, size=(DEALS, 2))
    records = []
    for deal in range(DEALS):
        for turn, seats in enumerate(((0, 1), (1, 0))):
            # the same cards in swapped seats: the luck changes sides, the skill stays
            a = (luck[deal] if turn == 0 else -luck[deal]) + SKILL + noise[deal, turn]
            by_seat = (a, -a) if seats == (0, 1) else (-a, a)
            records.append(HandRecord(hand=2 * deal + turn, deal=deal, seats=seats,
                                      returns=by_seat, history=()))
    with ArenaStore(path) as store:
        run = store.create_run(game="kuhn", players=2, hands=2 * DEALS, seed=0, batch_size=10,
                               time_limit=None, config={},
                               agents=[("a", "builtin:random", None),
                                       ("b", "builtin:always-call", None)],
                               matches=[((0, 1), 0, 2 * DEALS)])
        (match,) = store.matches(run)
        store.write_hands(match.id, records)
        store.finish_match(match.id)
        store.finish_run(run)
    per_hand = np.array([r.agent_returns()[0] for r in records])
    return per_hand, per_hand.reshape(DEALS, 2).mean(axis=1)


def test_intervals_are_computed_on_deals_not_hands(tmp_path: Path) -> None:
    path = tmp_path / "arena.db"
    per_hand, per_deal = _store(path)
    by_deal = mean_estimate(per_deal)
    by_hand = mean_estimate(per_hand)
    assert by_hand.std_error > 20 * by_deal.std_error  # the construction separates them
    board = leaderboard(path)
    a = next(s for s in board.standings if s.name == "a")
    assert math.isclose(a.estimate.mean, by_deal.mean, rel_tol=1e-9)
    assert math.isclose(a.estimate.std_error, by_deal.std_error, rel_tol=1e-9)
    assert a.estimate.high - a.estimate.low < 0.2 * (by_hand.high - by_hand.low)
    assert a.estimate.low > 0  # a's skill is resolved, as per hand it would not be
    assert by_hand.low < 0
    (table,) = board.tables
    assert math.isclose(table.std_errors[0], by_deal.std_error, rel_tol=1e-9)
    assert math.isclose(float(board.head_to_head_error[0, 1]), by_deal.std_error, rel_tol=1e-9)
    assert board.standings[0].name == "a"
