"""The dealer: hooks, events, one way to sample chance, faults contained (bad policies too)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pokerlab.agents import AlwaysCall, PolicyAgent, RandomAgent
from pokerlab.eval.matches import play_match
from pokerlab.games import HandResult, Observation, kuhn, leduc
from pokerlab.play.dealer import (
    ActionTaken,
    ChanceDealt,
    DealerStop,
    DealStream,
    HandEnded,
    HandStarted,
    InProcessConnection,
    chance_uniforms,
    deal_hand,
)
from pokerlab.strategy import FunctionPolicy, Strategy


class Recorder:
    """Remembers every hook call."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.updates: list[Observation | HandResult] = []

    def reset(self) -> None:
        self.calls.append("reset")

    def seed(self, value: int) -> None:
        self.calls.append("seed")

    def act(self, observation: Observation) -> int:
        self.calls.append("act")
        return observation.legal_actions[-1]

    def observe(self, update: Observation | HandResult) -> None:
        self.calls.append("observe")
        self.updates.append(update)


def test_hooks_are_called_in_order_with_updates_after_every_action() -> None:
    game = leduc()
    one, two = Recorder(), Recorder()
    events: list[object] = []
    record, state = deal_hand(
        game, [InProcessConnection(one), InProcessConnection(two)], chance=DealStream(0, 0),
        agent_seeds=[1, 2], listeners=[events.append],
    )
    assert one.calls[:2] == ["reset", "seed"]
    actions = [e for e in events if isinstance(e, ActionTaken)]
    # every action but the last is followed by an update to each seat; the end by a result
    assert one.calls.count("observe") == len(actions) - 1 + 1
    assert isinstance(one.updates[-1], HandResult)
    assert all(isinstance(u, Observation) for u in one.updates[:-1])
    assert one.updates[-1].returns == state.returns()
    # seat 0's updates never show seat 1's card
    hidden = state.private_cards(1)
    assert all(u.private_cards != hidden or u.private_cards == state.private_cards(0)
               for u in one.updates[:-1])
    assert isinstance(events[0], HandStarted)
    assert isinstance(events[-1], HandEnded)
    assert events[-1].record == record
    assert sum(isinstance(e, ChanceDealt) for e in events) == 3  # two private cards, one board


def test_the_dealer_stops_when_a_person_quits() -> None:
    class Quitter:
        def act(self, observation: Observation) -> int:
            raise DealerStop("bye")

    with pytest.raises(DealerStop):
        deal_hand(kuhn(), [InProcessConnection(Quitter()), InProcessConnection(AlwaysCall())],
                  chance=DealStream(0, 0))


class Answers:
    """Answers a fixed garbage value at every decision."""

    def __init__(self, answer: object) -> None:
        self.answer = answer
        self.name = f"answers {answer!r}"

    def act(self, observation: Observation) -> object:
        return self.answer


@pytest.mark.parametrize("answer", [True, "1", 1.99, 1.0, None, 7, -1, np.float64(1.0)])
def test_garbage_answers_are_illegal_faults(answer: object) -> None:
    result = play_match(kuhn(), Answers(answer), AlwaysCall(), hands=5, seed=0)
    assert result.n_hands == 10
    faults = [e for e in result.events if e.agent == 0]
    assert faults
    assert all(e.kind == "illegal" for e in faults)
    assert all(e.action in (0, 1) for e in faults)


def test_numpy_integers_are_legal_answers() -> None:
    class Numpy:
        def act(self, observation: Observation) -> object:
            return np.int64(observation.legal_actions[0])

    result = play_match(kuhn(), Numpy(), AlwaysCall(), hands=5, seed=0)
    assert not result.events


BAD_POLICIES = {
    "not summing to 1": lambda obs: {obs.legal_actions[0]: 0.5},
    "negative": lambda obs: {obs.legal_actions[0]: 1.5, obs.legal_actions[-1]: -0.5},
    "NaN": lambda obs: {obs.legal_actions[0]: math.nan, obs.legal_actions[-1]: 1.0},
    "illegal action": lambda obs: {99: 1.0},
    "not a distribution": lambda obs: "call",
}


@pytest.mark.parametrize("name", sorted(BAD_POLICIES))
def test_bad_policies_are_refused_by_the_dealer(name: str) -> None:
    game = kuhn()
    bad = PolicyAgent(FunctionPolicy(game, BAD_POLICIES[name], name=name))
    result = play_match(game, bad, RandomAgent(), hands=20, seed=1, fast=False)
    assert result.n_hands == 40  # the match went on
    faults = [e for e in result.events if e.agent == 0]
    assert len(faults) == sum(r.decisions[0] for r in result.hands)  # every decision refused
    assert {e.kind for e in faults} == {"policy"}
    assert all(e.action in (0, 1) for e in faults)  # the default action was played
    assert "policy" in faults[0].detail


def test_a_bad_policy_is_played_by_the_dealer_not_sampled() -> None:
    game = kuhn()
    bad = PolicyAgent(FunctionPolicy(game, BAD_POLICIES["negative"]))
    result = play_match(game, bad, RandomAgent(game), hands=5)  # fast=True by default
    assert not result.sampled
    assert result.events
    assert {e.kind for e in result.events} == {"policy"}
    assert "must be finite and >= 0" in result.events[0].detail


@pytest.mark.parametrize("game", [kuhn(), leduc(), kuhn(players=3)], ids=str)
def test_both_paths_deal_the_same_cards(game) -> None:
    n = game.n_players
    uniform = Strategy.uniform(game)
    agents = [PolicyAgent(uniform) for _ in range(n)]
    fast = play_match(game, *agents, hands=50, seed=11)
    slow = play_match(game, *agents, hands=50, seed=11, fast=False)
    assert fast.sampled
    assert not slow.sampled
    dealt = n  # the private cards come first in Kuhn and Leduc
    for one, two in zip(fast.hands, slow.hands, strict=True):
        assert one.deal == two.deal
        assert one.seats == two.seats
        assert one.history[:dealt] == two.history[:dealt]


def test_chance_uniforms_match_the_deal_stream() -> None:
    deals = np.array([0, 5, 1_000_000_007])
    table = chance_uniforms(42, deals, 20)
    for row, deal in enumerate(deals):
        stream = DealStream(42, int(deal))
        assert [stream() for _ in range(20)] == table[row].tolist()
    assert table.min() >= 0
    assert table.max() < 1


def test_reseed_depends_only_on_the_value() -> None:
    from pokerlab.play.dealer import reseed

    one = reseed(np.random.default_rng(1), 77).random(5)
    two = reseed(np.random.default_rng(2), 77).random(5)
    other = reseed(np.random.default_rng(1), 78).random(5)
    assert one.tolist() == two.tolist()
    assert one.tolist() != other.tolist()
    philox = reseed(np.random.Generator(np.random.Philox(3)), 77)  # other generators: rebuilt
    assert philox.random() == np.random.default_rng(77).random()


@pytest.mark.parametrize(
    "spec",
    ["kuhn", "leduc", "kuhn(players=3)", "leduc(players=3)", "holdem(players=3)",
     "holdem(betting='limit')", "abstract leduc"],
)
def test_public_events_rebuild_the_public_history(spec: str) -> None:
    from pokerlab.abstraction import abstract_game
    from pokerlab.games import load

    game = abstract_game(leduc(), "uniform:2") if spec == "abstract leduc" else load(spec)
    rng = np.random.default_rng(0)
    for _ in range(30):
        state = game.initial_state()
        public: list[tuple[int, str]] = []
        while not state.is_terminal:
            legal = state.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
            child = state._apply(action)
            event = state.public_event(action, child)
            if event is not None:
                public.append(event)
            state = child
            assert tuple(public) == state.public_history()


def test_results_carry_the_dealers_public_history() -> None:
    one, two = Recorder(), Recorder()
    _, state = deal_hand(leduc(), [InProcessConnection(one), InProcessConnection(two)],
                         chance=DealStream(3, 1))
    result = one.updates[-1]
    assert isinstance(result, HandResult)
    assert result.public_history == state.public_history()
    assert any(player == -1 and name.startswith("board") for player, name in
               result.public_history)


class Unobserved:
    """A transport whose agent follows the hand elsewhere: it always passes (Kuhn's 0)."""

    name = "unobserved"
    wants_updates = False

    def __init__(self) -> None:
        self.decisions = 0

    def reset(self) -> None:
        """Nothing before a hand."""

    def seed(self, value: int) -> None:
        """No randomness."""

    def observe(self, update: Observation | HandResult) -> None:
        """Nothing to follow."""

    def act(self, observation: Observation) -> object:
        raise AssertionError("the dealer must call act_unobserved, not act")

    def act_unobserved(self) -> object:
        self.decisions += 1
        return 0

    def close(self) -> None:
        """Nothing held."""


class Passer:
    def act(self, observation: Observation) -> int:
        return observation.legal_actions[0]


def test_a_transport_with_act_unobserved_plays_without_an_observation() -> None:
    game = kuhn()
    ours, reference, other = (
        Unobserved(),
        InProcessConnection(Passer()),
        InProcessConnection(Passer()),
    )
    for hand in range(12):
        record, _ = deal_hand(game, [ours, other], chance=DealStream(3, hand), hand=hand)
        expected, _ = deal_hand(game, [reference, other], chance=DealStream(3, hand), hand=hand)
        assert record.history == expected.history
        assert record.returns == expected.returns
        assert record.events == ()
    assert ours.decisions >= 12


def test_an_illegal_answer_from_act_unobserved_is_a_fault_and_the_default_plays() -> None:
    class Illegal(Unobserved):
        def act_unobserved(self) -> object:
            return 99

    record, _ = deal_hand(
        kuhn(), [Illegal(), InProcessConnection(Passer())], chance=DealStream(1, 0)
    )
    assert [e.kind for e in record.events][:1] == ["illegal"]
    assert "legal: (0, 1)" in record.events[0].detail


def test_seeds_are_asked_only_for_seats_that_want_them() -> None:
    """``wants_seed = False`` (no hook): the dealer neither reads the value nor calls seed."""

    asked: list[int] = []

    class Counting(list[int]):
        def __getitem__(self, index: int) -> int:  # type: ignore[override]
            asked.append(index)
            return int(super().__getitem__(index))

    class Seeded(Passer):
        def __init__(self) -> None:
            self.values: list[int] = []

        def seed(self, value: int) -> None:
            self.values.append(value)

    seeded = Seeded()
    seats = [InProcessConnection(Passer()), InProcessConnection(seeded)]
    assert [c.wants_seed for c in seats] == [False, True]
    seeds = Counting([11, 22])
    deal_hand(kuhn(), seats, chance=DealStream(1, 0), agent_seeds=seeds)
    assert asked == [1]
    assert seeded.values == [22]


def test_the_lazy_hook_seeds_are_agent_seed() -> None:
    from pokerlab.eval.matches import _HookSeeds, agent_seed

    lazy = _HookSeeds(7, 3, (2, 0, 1))
    expected = [agent_seed(7, 3, a) for a in (2, 0, 1)]
    assert len(lazy) == 3
    assert list(lazy) == expected
    assert [lazy[i] for i in range(3)] == expected
    assert lazy[1:] == expected[1:]
