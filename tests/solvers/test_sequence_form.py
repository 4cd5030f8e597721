"""The sequence form: E, F, e, f, A from the compiled tree, plans <-> behaviour strategies."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.errors import GameTooLargeError, SolverError
from pokerlab.games import Game, State, kuhn, leduc, load
from pokerlab.solvers.sequence_form import (
    behaviour_to_plan,
    build_sequence_form,
    dense_matrices,
    estimate_lp_bytes,
    plan_to_behaviour,
    sequence_labels,
    tutorial_matrices,
)
from pokerlab.strategy import Strategy
from pokerlab.tree import compile
from tests.differential.lockstep import random_strategy


def brute_force_value(game: Game, strategy: Strategy) -> float:
    """P1's expected value by plain recursion over the State API (independent of the tree)."""

    def visit(state: State) -> float:
        if state.is_terminal:
            return state.returns()[0]
        if state.is_chance:
            return sum(p * visit(state.child(a)) for a, p in state.chance_outcomes())
        probs = strategy.probabilities(state.infoset_key(state.player))
        return sum(p * visit(state.child(a)) for a, p in probs.items() if p > 0)

    return visit(game.initial_state())


def test_kuhn_shapes() -> None:
    form = build_sequence_form(kuhn())
    assert form.E.shape == (7, 13)
    assert form.F.shape == (7, 13)
    assert form.A.shape == (13, 13)
    assert form.A.nnz == 30  # one entry per terminal: no two terminals share a sequence pair
    assert form.e.tolist() == [1, 0, 0, 0, 0, 0, 0]
    assert form.f.tolist() == [1, 0, 0, 0, 0, 0, 0]
    assert form.n_sequences == (13, 13)


def test_leduc_shapes() -> None:
    game = leduc()
    tree = compile(game)
    form = build_sequence_form(game)
    assert form.n_sequences == (337, 337)
    assert form.E.shape[0] == 1 + len(tree.infosets_of(0))
    assert form.F.shape[0] == 1 + len(tree.infosets_of(1))
    # Each E row but the first has one -1 (the parent sequence) and one +1 per action.
    dense = form.E.toarray()
    assert (dense[1:] == -1).sum(axis=1).tolist() == [1] * (dense.shape[0] - 1)
    n_actions = tree.infoset_n_actions[form.infosets[0]]
    np.testing.assert_array_equal((dense[1:] == 1).sum(axis=1), n_actions)
    # The payoffs of A add up to the chance-weighted payoff of every terminal.
    weights = tree.reach_chance[tree.terminal_ids] * tree.terminal_payoffs[:, 0]
    assert form.A.sum() == pytest.approx(weights.sum(), abs=1e-12)


@pytest.mark.parametrize("spec", ["kuhn", "leduc", "kuhn(cards=5)"])
def test_plans_satisfy_constraints_and_value_is_bilinear(spec: str) -> None:
    game = load(spec)
    tree = compile(game)
    form = build_sequence_form(game)
    rng = np.random.default_rng(7)
    for _ in range(3):
        strategy = random_strategy(game, rng)
        x = behaviour_to_plan(tree, 0, strategy.probs)
        y = behaviour_to_plan(tree, 1, strategy.probs)
        np.testing.assert_allclose(form.E @ x, form.e, atol=1e-12)
        np.testing.assert_allclose(form.F @ y, form.f, atol=1e-12)
        assert (x >= 0).all()
        assert (y >= 0).all()
        expected = brute_force_value(game, strategy)
        assert float(x @ (form.A @ y)) == pytest.approx(expected, abs=1e-12)


def test_plan_to_behaviour_round_trip() -> None:
    game = leduc()
    tree = compile(game)
    strategy = random_strategy(game, np.random.default_rng(11))
    probs = np.zeros_like(strategy.probs)
    for player in (0, 1):
        plan_to_behaviour(tree, player, behaviour_to_plan(tree, player, strategy.probs), probs)
    # Rows after a never-played sequence become uniform; every other row comes back.
    reach = np.ones(tree.n_infosets)
    for player in (0, 1):
        plan = behaviour_to_plan(tree, player, strategy.probs)
        mine = tree.infosets_of(player)
        reach[mine] = plan[tree.infoset_parent_seq[mine]]
    played = reach > 1e-12
    np.testing.assert_allclose(probs[played], strategy.probs[played], atol=1e-12)
    uniform = tree.legal_mask / tree.legal_mask.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(probs[~played], uniform[~played])


def test_plan_to_behaviour_clips_round_off() -> None:
    game = kuhn()
    tree = compile(game)
    plan = behaviour_to_plan(tree, 0, Strategy.uniform(game).probs)
    plan[1] = -1e-17  # a solver's round-off below zero
    probs = np.zeros((tree.n_infosets, tree.max_actions))
    plan_to_behaviour(tree, 0, plan, probs)
    mine = tree.infosets_of(0)
    np.testing.assert_allclose(probs[mine].sum(axis=1), 1.0)
    assert (probs >= 0).all()


@pytest.mark.parametrize("spec", ["kuhn(players=3)", "leduc(players=3)"])
def test_three_players_refused(spec: str) -> None:
    with pytest.raises(SolverError, match=r"two-player zero-sum.*3 players"):
        build_sequence_form(load(spec))


@pytest.mark.parametrize("spec", ["battle_of_sexes", "dominance"])
def test_general_sum_refused(spec: str) -> None:
    with pytest.raises(SolverError, match="general-sum"):
        build_sequence_form(load(spec))


def test_memory_limit() -> None:
    game = leduc()
    needed = estimate_lp_bytes(compile(game))
    with pytest.raises(GameTooLargeError, match="memory limit") as info:
        build_sequence_form(game, memory_limit=needed - 1)
    assert info.value.found == needed
    assert info.value.limit == needed - 1
    assert build_sequence_form(game, memory_limit=needed).n_sequences == (337, 337)


def test_rps_as_a_sequence_form() -> None:
    form = build_sequence_form(load("rps"))
    assert form.A.shape == (4, 4)
    np.testing.assert_allclose(form.A.toarray()[1:, 1:], load("rps").A)  # type: ignore[attr-defined]


def test_labels_and_dense_matrices() -> None:
    game = kuhn()
    tree = compile(game)
    labels = sequence_labels(tree, 0)
    assert labels[0] == "0"
    assert labels[int(tree.seq_offset[tree.infoset_id("K|pb")]) + 1] == "K|pb:bet"
    dense = dense_matrices(game)
    assert dense.E.shape == (7, 13)
    assert dense.e_rows[0] == "0"
    with pytest.raises(SolverError, match="dense matrices"):
        dense_matrices(leduc())


def test_tutorial_matrices_only_for_three_card_kuhn() -> None:
    for spec in ["kuhn(cards=4)", "leduc"]:
        with pytest.raises(SolverError, match="3-card Kuhn"):
            tutorial_matrices(load(spec))
