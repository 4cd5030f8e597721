"""A match is played in legs, one per rotation, each by fresh agents (issue 23).

In a duplicate match every deal is played again with the seats rotated; an agent that
played both would know, the second time, the cards its opponent holds (its own, the first
time). The arena plays each rotation as a leg of its own with agents built afresh, so that
no agent object (no entrant process) ever meets a deal twice.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pokerlab.agents import RandomAgent
from pokerlab.agents.resolve import Entrant
from pokerlab.arena import ArenaStore, run_tournament
from pokerlab.eval.matches import hand_schedule, iter_hands, schedule_arrays
from pokerlab.games import Game, kuhn, load
from pokerlab.games.observation import Observation


class Witness:
    """An agent (no policy: it plays through the dealer) that counts the hands it plays."""

    def __init__(self) -> None:
        self.hands = 0

    def reset(self) -> None:
        self.hands += 1

    def act(self, observation: Observation) -> int:
        return observation.legal_actions[-1]


def test_each_leg_is_played_by_fresh_agents_that_meet_every_deal_once(tmp_path: Path) -> None:
    game = kuhn()
    built: list[Witness] = []

    def factory(game: Game) -> object:
        built.append(Witness())
        return built[-1]

    entrants = [Entrant(name, f"builtin:{name}", factory, kind="builtin")
                for name in ("one", "two")]
    db = tmp_path / "arena.db"
    run_tournament(game, entrants, db=db, hands=40, seed=3, batch_size=6)
    assert len(built) == 4  # two agents in each of the two legs
    with ArenaStore(db) as store:
        (match,) = store.matches(1)
        records = store.hands(match.id)
    assert [r.deal for r in records] == list(range(40)) * 2
    assert [r.seats for r in records] == [(0, 1)] * 40 + [(1, 0)] * 40
    assert [agent.hands for agent in built] == [40] * 4  # one leg each: every deal once


def test_the_leg_schedule_and_its_arrays_agree() -> None:
    index = np.arange(0, 30)
    deals, rows = schedule_arrays(index, 3, "rotate", True, leg=10)
    for i in index:
        deal, seating = hand_schedule(int(i), n_agents=3, leg=10)
        assert deal == deals[i] == i % 10
        assert seating == tuple(rows[i])
    assert len({tuple(r) for r in rows}) == 3


def test_a_leg_deals_the_cards_of_the_deal_in_the_same_seats() -> None:
    game = load("leduc")
    agents = [RandomAgent(game, seed=1), RandomAgent(game, seed=2)]
    hands = list(iter_hands(game, agents, hands=20, seed=11, leg=10))
    for first, second in zip(hands[:10], hands[10:], strict=True):
        assert first.deal == second.deal
        assert first.history[:2] == second.history[:2]  # the same cards, seat by seat
        assert first.seats == (0, 1)
        assert second.seats == (1, 0)
