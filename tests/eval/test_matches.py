from __future__ import annotations

import time
from collections import Counter

import numpy as np
import pytest
from scipy import stats

from pokerlab.agents import AlwaysCall, PolicyAgent, RandomAgent, solver_strategy
from pokerlab.arena.tournament import sample_batch
from pokerlab.errors import PokerlabError
from pokerlab.eval.matches import iter_hands, play_match, replay_hands
from pokerlab.eval.sampling import play_strategies
from pokerlab.eval.statistics import control_variate_estimate, mean_estimate
from pokerlab.games import kuhn, leduc
from pokerlab.games.observation import Observation
from pokerlab.strategy import Strategy
from pokerlab.strategy.kuhn_solution import kuhn_equilibrium
from pokerlab.tree import compile


@pytest.fixture(scope="module")
def leduc_equilibrium(tmp_path_factory: pytest.TempPathFactory) -> Strategy:
    return solver_strategy(leduc(), 1000, cache_dir=tmp_path_factory.mktemp("bots"))


def _terminal_probabilities(game, s1: Strategy, s2: Strategy) -> dict[tuple[int, ...], float]:
    """Exact probability of each full history (terminal) with s1 in seat 0, s2 in seat 1."""
    tree = compile(game)
    profile = s1.combine([s1, s2]).probs
    reach = np.ones(tree.n_histories)
    for d in range(1, len(tree.level_offsets) - 1):
        lo, hi = tree.level_offsets[d], tree.level_offsets[d + 1]
        for h in range(lo, hi):
            p = tree.parent[h]
            if tree.player[p] < 0:
                reach[h] = reach[p] * tree.chance_prob[h]
            else:
                reach[h] = reach[p] * profile[tree.infoset[p], tree.slot[h]]
    result = {}
    for t in tree.terminal_ids:
        path = []
        node = int(t)
        while node > 0:
            path.append(int(tree.action[node]))
            node = int(tree.parent[node])
        result[tuple(reversed(path))] = float(reach[t])
    return result


# -- equilibrium against itself --------------------------------------------------------------


@pytest.mark.parametrize("fast", [True, False])
def test_kuhn_equilibrium_self_play_is_zero(fast: bool) -> None:
    game = kuhn()
    eq = kuhn_equilibrium()
    result = play_match(game, PolicyAgent(eq), PolicyAgent(eq), hands=2000, seed=1, fast=fast)
    assert result.exact_value == 0.0
    assert abs(result.estimate.mean) < 3.3 * result.estimate.std_error  # 99.9%: unbiased
    assert result.duplicate
    assert result.estimate.n == 2000  # pairs are the units
    assert result.sampled is fast


def test_leduc_equilibrium_self_play_is_zero(leduc_equilibrium: Strategy) -> None:
    game = leduc()
    a, b = PolicyAgent(leduc_equilibrium), PolicyAgent(leduc_equilibrium)
    result = play_match(game, a, b, hands=20_000, seed=5)
    assert result.exact_value == pytest.approx(0.0, abs=1e-12)
    # Both estimates are unbiased: 0 lies within 3.3 standard errors (a 99.9% interval;
    # a 95% one misses 0 on 1 seed in 20, as this one does for the control variate).
    for estimate in (result.estimate, result.control_variate.estimate):  # type: ignore[union-attr]
        assert abs(estimate.mean) < 3.3 * estimate.std_error
    assert result.control_variate.estimate.std_error < result.estimate.std_error  # type: ignore[union-attr]


def test_monte_carlo_converges_to_the_exact_value(leduc_equilibrium: Strategy) -> None:
    game = leduc()
    weak = Strategy.uniform(game)
    result = play_match(game, PolicyAgent(leduc_equilibrium), PolicyAgent(weak),
                        hands=20_000, seed=11)
    assert result.exact_value is not None
    assert result.exact_value > 0.5
    pairs = result.returns.reshape(-1, 2).mean(axis=1)
    assert mean_estimate(pairs, confidence=0.99).contains(result.exact_value)
    # the generic path too, on fewer hands
    slow = play_match(game, PolicyAgent(leduc_equilibrium), PolicyAgent(weak),
                      hands=3000, seed=11, fast=False)
    pairs = slow.returns.reshape(-1, 2).mean(axis=1)
    assert mean_estimate(pairs, confidence=0.99).contains(result.exact_value)


# -- the fast path agrees with the generic path ----------------------------------------------


@pytest.mark.parametrize("game", [kuhn(), leduc()], ids=["kuhn", "leduc"])
def test_fast_path_and_generic_path_agree_in_distribution(game) -> None:
    rng = np.random.default_rng(0)
    tree = compile(game)
    raw = rng.random((tree.n_infosets, tree.max_actions)) * tree.legal_mask
    s1 = Strategy.from_array(game, raw, normalize=True)
    s2 = Strategy.uniform(game)
    exact = _terminal_probabilities(game, s1, s2)
    n_fast, n_slow = 40_000, 3000
    fast = Counter(
        r.history for r in play_match(game, PolicyAgent(s1), PolicyAgent(s2), hands=n_fast,
                                      seats="fixed", seed=1).hands
    )
    slow = Counter(
        r.history for r in play_match(game, PolicyAgent(s1), PolicyAgent(s2), hands=n_slow,
                                      seats="fixed", seed=2, fast=False).hands
    )
    assert set(fast) <= set(exact)
    assert set(slow) <= set(exact)
    # chi-square goodness of fit of both samples to the exact distribution, on outcome
    # classes (the returns of seat 0) so that every class has enough hands
    returns_of = _returns_by_history(game)
    for counts, n in ((fast, n_fast), (slow, n_slow)):
        observed: Counter[float] = Counter()
        expected: Counter[float] = Counter()
        for history, p in exact.items():
            expected[returns_of[history]] += p * n
        for history, c in counts.items():
            observed[returns_of[history]] += c
        keys = sorted(k for k in expected if expected[k] >= 5)
        obs = np.array([observed[k] for k in keys], dtype=float)
        exp = np.array([expected[k] for k in keys])
        exp *= obs.sum() / exp.sum()
        assert stats.chisquare(obs, exp).pvalue > 1e-3


def _returns_by_history(game) -> dict[tuple[int, ...], float]:
    tree = compile(game)
    out = {}
    for row, t in enumerate(tree.terminal_ids):
        path = []
        node = int(t)
        while node > 0:
            path.append(int(tree.action[node]))
            node = int(tree.parent[node])
        out[tuple(reversed(path))] = float(tree.terminal_payoffs[row, 0])
    return out


def test_play_strategies_is_seeded() -> None:
    game = leduc()
    s = Strategy.uniform(game)
    one = play_strategies(game, [s, s], 1000, seed=4)
    two = play_strategies(game, [s, s], 1000, seed=4)
    assert np.array_equal(one.terminals, two.terminals)
    assert one.returns.sum(axis=1) == pytest.approx(np.zeros(1000))


# -- duplicate dealing -------------------------------------------------------------------------


@pytest.mark.parametrize("fast", [True, False])
def test_duplicate_pairs_share_the_cards(fast: bool) -> None:
    game = kuhn()
    s = Strategy.uniform(game)
    result = play_match(game, PolicyAgent(s), PolicyAgent(s), hands=200, seed=0, fast=fast)
    hands = list(result.hands)
    for first, second in zip(hands[::2], hands[1::2], strict=True):
        assert first.deal == second.deal
        assert first.history[:2] == second.history[:2]  # the two private cards
        assert first.seats == (0, 1)
        assert second.seats == (1, 0)


def test_fixed_seats() -> None:
    game = kuhn()
    result = play_match(game, RandomAgent(), AlwaysCall(), hands=50, seats=(1, 0), seed=0)
    assert all(r.seats == (1, 0) for r in result.hands)
    assert not result.duplicate


def test_bad_arguments() -> None:
    game = kuhn()
    with pytest.raises(PokerlabError, match="per seat"):
        play_match(game, RandomAgent(), RandomAgent(), hands=0)
    with pytest.raises(PokerlabError, match="time_limit"):
        play_match(game, RandomAgent(), RandomAgent(), hands=2, time_limit=-1)
    with pytest.raises(PokerlabError, match="seats"):
        play_match(game, RandomAgent(), RandomAgent(), hands=4, seats="left")  # type: ignore[arg-type]
    with pytest.raises(PokerlabError, match="3 seats; play_match got 2 agents"):
        play_match(kuhn(players=3), RandomAgent(), RandomAgent(), hands=4)


# -- robustness --------------------------------------------------------------------------------


class Raising:
    name = "raising"

    def act(self, observation: Observation) -> int:
        raise RuntimeError("boom")


class Illegal:
    name = "illegal"

    def act(self, observation: Observation) -> int:
        return 7


class Slow:
    name = "slow"

    def act(self, observation: Observation) -> int:
        time.sleep(0.6)
        return observation.legal_actions[-1]


@pytest.mark.parametrize(("agent", "kind"), [(Raising(), "exception"), (Illegal(), "illegal"),
                                             (Slow(), "timeout")])
def test_faults_get_the_default_action_and_are_recorded(agent: object, kind: str) -> None:
    game = leduc()
    # A limit the random opponent never comes near, even on a loaded machine; the slow
    # agent is given up on after it (so the test costs about 0.25 s per slow decision).
    hands = 2 if kind == "timeout" else 10
    result = play_match(game, agent, RandomAgent(), hands=hands, seed=0, time_limit=0.25)
    assert result.n_hands == 2 * hands  # hands in each seat
    assert result.events
    assert all(e.kind == kind and e.agent == 0 for e in result.events)
    for event in result.events:
        record = result.hands[event.hand]
        assert event in record.events
        assert event.action in (0, 1)  # check (call with nothing owed) or fold


def test_default_action_checks_when_possible() -> None:
    game = kuhn()
    result = play_match(game, Raising(), AlwaysCall(), hands=10, seats="fixed", seed=0)
    # P1 raising always checks (pass); AlwaysCall checks behind: every hand is a showdown of 1
    assert all(r.history[2:] == (0, 0) for r in result.hands)
    assert all(e.detail == "RuntimeError('boom')" for e in result.events)


# -- resumption building blocks ----------------------------------------------------------------


def test_iter_hands_from_the_middle_equals_a_full_run() -> None:
    from pokerlab.agents import ExploitativeAgent

    game = kuhn()
    full = list(iter_hands(game, [ExploitativeAgent(game, recompute_every=10), RandomAgent()],
                           hands=120, seed=9))
    a, b = ExploitativeAgent(game, recompute_every=10), RandomAgent()
    assert replay_hands(game, [a, b], full[:70], seed=9) == 0
    rest = list(iter_hands(game, [a, b], hands=120, seed=9, start=70))
    assert [r.history for r in rest] == [r.history for r in full[70:]]
    assert [r.returns for r in rest] == [r.returns for r in full[70:]]


def test_sampled_batches_are_reproducible() -> None:
    game = leduc()
    s = Strategy.uniform(game)
    first = sample_batch(game, [s, s], start=100, stop=200, seed=3)
    again = sample_batch(game, [s, s], start=100, stop=200, seed=3)
    assert first == again
    assert [r.hand for r in first] == list(range(100, 200))
    with pytest.raises(PokerlabError, match="whole deals"):
        sample_batch(game, [s, s], start=1, stop=10, seed=3)


# -- statistics ----------------------------------------------------------------------------------


def test_control_variate_reduces_variance() -> None:
    game = leduc()
    result = play_match(game, RandomAgent(), AlwaysCall(), hands=2000, seed=1, duplicate=False,
                        reference=Strategy.uniform(game))
    assert result.control_variate is not None
    assert result.control_variate.variance_reduction > 2
    assert result.control_variate.estimate.std_error < result.estimate.std_error


def test_control_variate_estimate_with_a_perfect_control() -> None:
    rng = np.random.default_rng(0)
    noise = rng.normal(size=1000)
    estimate = control_variate_estimate(0.5 + noise, noise)
    assert estimate.coefficient == pytest.approx(1.0)
    assert estimate.estimate.mean == pytest.approx(0.5)
    assert estimate.variance_reduction > 1e6


def test_mean_estimate_interval() -> None:
    e = mean_estimate([1.0, 2.0, 3.0, 4.0])
    assert e.mean == 2.5
    assert e.low < 2.5 < e.high
    assert e.scaled(100).mean == 250


def test_hands_counts_hands_in_each_seat() -> None:
    # The challenge: "1000 hands as P1 and 1000 hands as P2".
    game = kuhn()
    result = play_match(game, RandomAgent(), AlwaysCall(), hands=25, seed=3, fast=False)
    seats = [r.seats for r in result.hands]
    assert result.n_hands == 50
    assert seats.count(seats[0]) == 25
    one_seat = play_match(game, RandomAgent(), AlwaysCall(), hands=25, seats="fixed", seed=3)
    assert one_seat.n_hands == 25
