"""Hold'em sessions played by the dealer: the button moves, stacks carry over, seats bust."""

from __future__ import annotations

import pytest

from pokerlab.errors import PokerlabError
from pokerlab.games.holdem_session import HoldemSession
from pokerlab.games.observation import Observation
from pokerlab.play.session import play_session, play_session_hand


class Caller:
    def act(self, observation: Observation) -> int:
        return observation.action_named("call" if "call" in observation.action_names else "check")


class Shover:
    def act(self, observation: Observation) -> int:
        raises = [a for a in observation.legal_actions if a >= 2]
        return max(raises) if raises else 1


def test_session_moves_the_button_and_carries_stacks() -> None:
    session = HoldemSession(3, stack=20)
    setup = session.start_hand()
    assert setup.seats == (1, 2, 0)
    assert setup.button == 0
    # Three hands of calling down: the button goes round, chips move, none are made.
    outcomes = play_session(session, [Caller(), Caller(), Caller()], hands=3, seed=1)
    assert [o.setup.button for o in outcomes] == [0, 1, 2]
    assert outcomes[1].setup.seats == (2, 0, 1)
    assert all(sum(o.stacks) == 60 and sum(o.seat_returns) == 0 for o in outcomes)
    # Then everyone shoves: busted seats leave until one seat has every chip.
    shovers = [Shover(), Shover(), Shover()]
    while not session.is_over and session.hands_played < 50:
        outcome, record = play_session_hand(session, shovers, seed=1)
        assert sum(outcome.stacks) == 60
        assert record.seats == outcome.setup.seats  # agents are recorded by table seat
    assert session.is_over
    assert sorted(session.stacks) == [0, 0, 60]
    with pytest.raises(PokerlabError, match="session is over"):
        session.start_hand()


def test_session_without_carried_stacks_resets_them() -> None:
    session = HoldemSession(2, stack=50, carry_stacks=False)
    outcomes = play_session(session, [Caller(), Caller()], hands=4, seed=3)
    assert len(outcomes) == 4
    assert session.stacks == [50, 50]
    assert [o.setup.button for o in outcomes] == [0, 1, 0, 1]
    assert outcomes[0].setup.seats == (1, 0)


def test_session_needs_an_agent_per_seat() -> None:
    with pytest.raises(PokerlabError, match="3 seats; got 2 agents"):
        play_session_hand(HoldemSession(3), [Caller(), Caller()], seed=0)


def test_a_session_is_reproducible_by_seed() -> None:
    def run(seed: int) -> list[tuple[int, ...]]:
        session = HoldemSession(3, stack=40)
        return [o.seat_returns for o in play_session(session, [Caller()] * 3, hands=5, seed=seed)]

    assert run(7) == run(7)
    assert run(7) != run(8)
