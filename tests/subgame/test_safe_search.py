"""Safe search: the re-solving gadget never lets an opponent hand gain over its alternative.

On Leduc written as a Hold'em game, at real flop states, a blueprint's strategy in the
subgame is re-solved by :func:`~pokerlab.subgame.safe_search.search`; the opponent's best
response (the range solver's exact pass over the public tree) is then worth no more to any
of its hands than against the blueprint, and in all no more in total.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from pokerlab.agents.search_blueprint import BlueprintView
from pokerlab.blueprint.mccfr import BlueprintTrainer
from pokerlab.blueprint.policy import BlueprintPolicy
from pokerlab.errors import GameTooLargeError, SolverError
from pokerlab.games import load
from pokerlab.games.holdem_rules import CALL, RAISE
from pokerlab.games.holdem_state import HoldemState
from pokerlab.subgame.holdem_subgame import build_subgame, hole_combos
from pokerlab.subgame.public_tree import PublicGame
from pokerlab.subgame.range_solver import RangeSolver
from pokerlab.subgame.safe_search import (
    FIRST_PACE,
    RELAX_FLOOR,
    Pace,
    SearchResult,
    _run,
    compatible_total,
    gadget_game,
    opponent_values,
    search,
)

LEDUC_AS_HOLDEM = (
    'holdem(betting="limit", ranks=3, suits=2, hole=1, board="1", seat_blinds=(1, 1), '
    'raises="2,4", caps="2,2", first="0,0", stack=100)'
)


@pytest.fixture(scope="module")
def blueprints() -> dict[int, BlueprintPolicy]:
    game = load(LEDUC_AS_HOLDEM)
    out = {}
    for iterations in (200, 5000):  # a deliberately poor one, and a better one
        trainer = BlueprintTrainer(game, seed=0)
        trainer.run(iterations)
        out[iterations] = BlueprintPolicy(trainer, game=game)
    return out


def _flop_root(cards: tuple[int, int, int], preflop: tuple[int, ...]) -> HoldemState:
    """The first flop decision after ``preflop`` actions; ``cards`` index the sorted deck."""
    game = load(LEDUC_AS_HOLDEM)
    deck = sorted(game.rules.deck)  # type: ignore[attr-defined]
    state = game.initial_state()
    for action in (deck[cards[0]], deck[cards[1]], *preflop, deck[cards[2]]):
        state = state.child(action)
    assert isinstance(state, HoldemState)
    assert state.street == 1
    assert state.to_act >= 0
    return state


def _subgame(policy: BlueprintPolicy, root: HoldemState, seed: int):  # type: ignore[no-untyped-def]
    rules = root.game.rules
    rng = np.random.default_rng(seed)
    n = len(hole_combos(rules))
    weights = (rng.uniform(0.1, 1.0, n), rng.uniform(0.1, 1.0, n))  # any ranges will do
    view = BlueprintView(policy, root, ())
    sub = build_subgame(rules, root.betting_node, tuple(int(c) for c in root.board),
                        weights, view.menu)
    return sub, view


def _opponent_total(sub, strategies, opponent):  # type: ignore[no-untyped-def]
    values = opponent_values(sub.public, strategies, opponent)[0]
    return float(values.sum())


@pytest.mark.parametrize("iterations", [200, 5000])
@pytest.mark.parametrize(("cards", "preflop", "searcher"), [
    ((0, 3, 5), (CALL, CALL), 0),
    ((1, 4, 2), (RAISE, CALL), 1),
    ((2, 5, 0), (CALL, RAISE, CALL), 0),
])
def test_the_gadget_keeps_every_opponent_hand_at_its_alternative(
    blueprints: dict[int, BlueprintPolicy], iterations: int, cards: tuple[int, int, int],
    preflop: tuple[int, ...], searcher: int,
) -> None:
    root = _flop_root(cards, preflop)
    sub, view = _subgame(blueprints[iterations], root, seed=iterations + searcher)
    public = sub.public
    opponent = 1 - searcher
    reference = [np.zeros((public.tree.n_rows[p], public.n_hands[p])) for p in (0, 1)]
    reference[searcher] = view.reference(sub, searcher)
    before = opponent_values(public, (reference[0], reference[1]), opponent)[0]
    result = search(public, searcher, (reference[0], reference[1]), iterations=2000)
    assert isinstance(result, SearchResult)
    assert result.iterations == 2000
    np.testing.assert_allclose(result.alternative, before)
    after_profile = list(reference)
    after_profile[searcher] = result.strategy
    after = opponent_values(public, (after_profile[0], after_profile[1]), opponent)[0]
    scale = public.pot * compatible_total(public) / public.n_hands[opponent]
    # Per hand: no gain beyond the solve's inexactness (a small share of the pot).
    assert float((after - before).max()) <= 0.02 * scale
    assert result.max_gain <= 0.02 * public.pot
    # In all, the opponent's best response gains nothing against the re-solved play.
    assert after.sum() <= before.sum() + 1e-6 * abs(before).sum()
    # The rows are distributions at every decision of the searcher.
    tree = public.tree
    for n in tree.decision_nodes(searcher).tolist():
        k = len(tree.children(n))
        np.testing.assert_allclose(result.strategy[tree.row(n) : tree.row(n) + k].sum(axis=0),
                                   1.0, atol=1e-9)


def test_a_poor_blueprint_is_improved_and_unsafe_search_may_give_hands_away(
    blueprints: dict[int, BlueprintPolicy],
) -> None:
    root = _flop_root((0, 3, 5), (CALL, CALL))
    sub, view = _subgame(blueprints[200], root, seed=3)
    public = sub.public
    reference = [np.zeros((public.tree.n_rows[p], public.n_hands[p])) for p in (0, 1)]
    reference[0] = view.reference(sub, 0)
    before = opponent_values(public, (reference[0], reference[1]), 1)[0].sum()
    safe = search(public, 0, (reference[0], reference[1]), iterations=2000)
    improved = [safe.strategy, reference[1]]
    after = opponent_values(public, (improved[0], improved[1]), 1)[0].sum()
    assert after < before - 0.01 * abs(before)  # strictly better than a poor blueprint


def test_the_gadget_game_offers_terminate_or_follow() -> None:
    root = _flop_root((0, 3, 5), (CALL, CALL))
    trainer = BlueprintTrainer(load(LEDUC_AS_HOLDEM), seed=0)
    trainer.run(100)
    sub, _ = _subgame(BlueprintPolicy(trainer, game=load(LEDUC_AS_HOLDEM)), root, seed=0)
    values = np.arange(sub.public.n_hands[1], dtype=float)
    gadget, node_map = gadget_game(sub.public, 1, values)
    tree = gadget.tree
    assert tree.player(0) == 1
    assert len(tree.children(0)) == 2
    assert [tree.labels[c] for c in tree.children(0)] == ["terminate", "follow"]
    assert tree.n_nodes == sub.public.tree.n_nodes + 2
    assert node_map[0] == tree.children(0)[1]
    for n in range(sub.public.tree.n_nodes):  # the subgame is copied below "follow"
        assert tree.kind(node_map[n]) == sub.public.tree.kind(n)
        assert tree.chips(node_map[n]) == sub.public.tree.chips(n)


def _poor_search() -> tuple[PublicGame, tuple[np.ndarray, np.ndarray]]:
    """A flop subgame of a 100-iteration blueprint and the searcher's reference there."""
    root = _flop_root((0, 3, 5), (CALL, CALL))
    trainer = BlueprintTrainer(load(LEDUC_AS_HOLDEM), seed=0)
    trainer.run(100)
    sub, view = _subgame(BlueprintPolicy(trainer, game=load(LEDUC_AS_HOLDEM)), root, seed=0)
    public = sub.public
    return public, (view.reference(sub, 0),
                    np.zeros((public.tree.n_rows[1], public.n_hands[1])))


def test_a_search_without_budget_or_with_an_unknown_safety_is_refused() -> None:
    public, reference = _poor_search()
    with pytest.raises(SolverError, match="needs a budget"):
        search(public, 0, reference)
    with pytest.raises(SolverError, match="safety must be one of gadget, range, none"):
        search(public, 0, reference, safety="maybe", iterations=5)
    with pytest.raises(SolverError, match="reference rows of player 0 must have shape"):
        search(public, 0, (reference[0][:, :1], reference[1]), iterations=5)


def test_a_search_stops_at_its_target() -> None:
    public, reference = _poor_search()
    loose = search(public, 0, reference, iterations=5000, target=0.05)
    assert loose.exploitability <= 0.05
    assert loose.iterations < 5000  # stopped by the target, not the iterations
    tight = search(public, 0, reference, iterations=5000, target=0.001)
    assert tight.iterations > loose.iterations
    assert tight.exploitability <= 0.001
    with pytest.raises(SolverError, match="target must be an exploitability > 0"):
        search(public, 0, reference, iterations=5, target=0.0)


def test_the_gain_is_what_the_opponents_range_wins_over_its_alternatives() -> None:
    public, reference = _poor_search()
    weights, normalizer = public.hands[1].weights, public.normalizer
    before = opponent_values(public, reference, 1)[0]
    for iterations, sign in ((1, 1.0), (2000, -1.0)):  # cut short: worse than the blueprint
        result = search(public, 0, reference, iterations=iterations)
        after = opponent_values(public, (result.strategy, reference[1]), 1)[0]
        expected = float(weights @ (after - before)) / normalizer  # chips per hand
        assert result.gain == pytest.approx(expected, rel=1e-9, abs=1e-12)
        assert np.sign(result.gain) == sign


def test_a_time_budget_too_short_at_the_last_pace_is_refused_before_it_starts() -> None:
    public, reference = _poor_search()
    units = public.tree.n_nodes * sum(public.n_hands)
    pace = Pace()
    assert pace.needed(units) == pytest.approx(5 * FIRST_PACE * units)
    result = search(public, 0, reference, seconds=5.0, target=0.01, pace=pace)
    assert result.iterations > 0
    assert pace.seconds_per_unit is not None
    assert pace.seconds_per_unit > 0  # kept from the search just run
    pace.seconds_per_unit = 1.0  # as if the machine had been very slow
    with pytest.raises(GameTooLargeError, match=r"needs about .* s at the last search's pace"):
        search(public, 0, reference, seconds=5.0, pace=pace)
    assert pace.seconds_per_unit == pytest.approx(0.8)  # relaxed by each refusal
    measured = pace.measured
    assert measured is not None
    assert 0 < measured < 0.01
    pace.seconds_per_unit = measured * 1.2  # a slow spell: this subgame no longer fits
    for _ in range(50):  # refused again and again: relaxed, never below half the measure
        assert pace.refuse(units, 5 * measured * units * 0.4)
    assert pace.seconds_per_unit == pytest.approx(RELAX_FLOOR * measured)
    assert not pace.refuse(units, 5 * measured * units * 0.6)  # what half the pace affords
    assert search(public, 0, reference, seconds=5.0, target=0.01).iterations > 0  # no pace
    # an iteration budget alone keeps no pace (its batches are not timed to a budget)
    fresh = Pace()
    search(public, 0, reference, iterations=3, pace=fresh)
    assert fresh.seconds_per_unit is None


def test_a_target_out_of_reach_in_the_time_left_is_not_measured_on_the_way() -> None:
    public, _ = _poor_search()
    # out of reach: after the first batch's measurement, the rest of the time in one batch,
    # measured once at its end
    solver = RangeSolver(public)
    _run(solver, None, 0.3, time.perf_counter(), target=1e-12)
    assert [row.iteration for row in solver.history] == [2, solver.iterations]
    assert solver.iterations > 10  # past the batches of 2, 4, 8 without measuring them
    # within reach: batches of 2, 4, 8, ... each measured at its end, until the target
    solver = RangeSolver(public)
    _run(solver, None, 30.0, time.perf_counter(), target=0.001)
    assert [row.iteration for row in solver.history][:3] == [2, 6, 14]
    assert solver.last_exploitability <= 0.001
