"""Rhode Island Hold'em on its public tree: exact against the compiled tree on small decks.

The public tree's values and exploitability are checked against pokerlab's compiled-tree
evaluators (an independent implementation: every history enumerated), for random
strategies without isomorphism and for the solver's suit-symmetric strategies with it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pokerlab.eval import expected_value, exploitability
from pokerlab.games import RhodeIslandGame, RhodeIslandState, rhode_island
from pokerlab.strategy import Strategy, tabulate
from pokerlab.subgame.checkpoint import save_range_checkpoint
from pokerlab.subgame.public_tree import estimate_solver_bytes
from pokerlab.subgame.range_solver import RangeSolver, evaluate_profile, uniform_arrays
from pokerlab.subgame.rhode_island import (
    RhodeIslandStrategy,
    load_rhode_island,
    policy_arrays,
    public_size,
    rhode_island_public_game,
    symmetric_arrays,
)
from pokerlab.tree import compile

TINY = rhode_island(ranks=3, suits=2, raises=0)  # Q K A of two suits: straights, flushes
SMALL = [
    TINY,
    pytest.param(rhode_island(ranks=3, suits=2, raises=1), marks=pytest.mark.slow),
    pytest.param(rhode_island(ranks=4, suits=2, raises=0), marks=pytest.mark.slow),
    # three suits: both isomorphism steps act (the turn's too)
    pytest.param(rhode_island(ranks=3, suits=3, raises=0), marks=pytest.mark.slow),
]


def _ids(game: object) -> str:
    return str(getattr(game, "spec", game))


def _random_strategy(game: RhodeIslandGame, seed: int) -> Strategy:
    tree = compile(game)
    rng = np.random.default_rng(seed)
    probs = rng.random((tree.n_infosets, tree.max_actions)) ** 3 * tree.legal_mask
    return Strategy.from_array(game, probs, normalize=True)


@pytest.mark.parametrize("game", SMALL, ids=_ids)
def test_random_strategies_evaluate_as_on_the_compiled_tree(game: RhodeIslandGame) -> None:
    built = rhode_island_public_game(game, isomorphism=False)
    for seed in range(2):
        strategy = _random_strategy(game, seed)
        ours = evaluate_profile(built.public, policy_arrays(built, strategy))
        assert ours.exploitability == pytest.approx(exploitability(game, strategy), abs=1e-9)
        values = expected_value(game, strategy)
        assert ours.values[0] == pytest.approx(values[0], abs=1e-9)
        assert ours.values[1] == pytest.approx(values[1], abs=1e-9)


@pytest.mark.parametrize("game", [*SMALL, pytest.param(rhode_island(ranks=3, suits=4, raises=0),
                                                     marks=pytest.mark.slow)], ids=_ids)
def test_the_isomorphic_solution_is_exact_on_the_whole_tree(game: RhodeIslandGame) -> None:
    # The isomorphic tree's values, against the same profile spelled out deal by deal on
    # the tree without isomorphism (exact for every profile: the test above).
    built = rhode_island_public_game(game)
    plain = rhode_island_public_game(game, isomorphism=False)
    assert built.public.tree.n_nodes < plain.public.tree.n_nodes
    solver = RangeSolver(built.public).run(iterations=60, check_every=60)
    ours = solver.evaluate()
    policy = RhodeIslandStrategy(built, solver.average_arrays())
    spelled = evaluate_profile(plain.public, policy_arrays(plain, policy))
    assert spelled.exploitability == pytest.approx(ours.exploitability, abs=1e-9)
    assert spelled.values[0] == pytest.approx(ours.values[0], abs=1e-9)
    assert spelled.best_response_values == pytest.approx(ours.best_response_values, abs=1e-9)


@pytest.mark.parametrize("game", [rhode_island(ranks=3, suits=3, raises=0),
                                  pytest.param(rhode_island(ranks=3, suits=4, raises=0),
                                               marks=pytest.mark.slow)], ids=_ids)
def test_any_symmetrized_profile_is_evaluated_exactly(game: RhodeIslandGame) -> None:
    # Random (asymmetric) rows, made suit-symmetric: the isomorphic tree's values are then
    # exactly those of the profile spelled out deal by deal.
    built = rhode_island_public_game(game)
    plain = rhode_island_public_game(game, isomorphism=False)
    rng = np.random.default_rng(4)
    raw = []
    for p, uniform in enumerate(uniform_arrays(built.public)):
        rows = rng.random(uniform.shape) ** 3 * (uniform > 0)
        tree = built.public.tree
        for node in tree.decision_nodes(p):
            row, width = tree.row(int(node)), len(tree.children(int(node)))
            rows[row : row + width] /= rows[row : row + width].sum(axis=0)
        raw.append(rows)
    profile = symmetric_arrays(built, (raw[0], raw[1]))
    assert not np.allclose(profile[0], raw[0])  # the random rows were not symmetric
    again = symmetric_arrays(built, profile)
    assert all(np.allclose(a, b) for a, b in zip(again, profile, strict=True))
    ours = evaluate_profile(built.public, profile)
    spelled = evaluate_profile(plain.public,
                               policy_arrays(plain, RhodeIslandStrategy(built, profile)))
    assert spelled.values[0] == pytest.approx(ours.values[0], abs=1e-9)
    assert spelled.best_response_values == pytest.approx(ours.best_response_values, abs=1e-9)
    # The symmetry is needed: the raw rows, spelled out, are another profile.
    lifted = RhodeIslandStrategy(built, (raw[0], raw[1]))
    raw_spelled = evaluate_profile(plain.public, policy_arrays(plain, lifted))
    raw_ours = evaluate_profile(built.public, (raw[0], raw[1]))
    assert abs(raw_spelled.exploitability - raw_ours.exploitability) > 1e-6


@pytest.mark.slow
def test_the_isomorphic_solution_is_exact_in_the_compiled_game() -> None:
    game = TINY
    built = rhode_island_public_game(game)
    solver = RangeSolver(built.public).run(iterations=60, check_every=60)
    ours = solver.evaluate()
    strategy = tabulate(RhodeIslandStrategy(built, solver.average_arrays()), game)
    assert ours.exploitability == pytest.approx(exploitability(game, strategy), abs=1e-9)
    assert ours.values[0] == pytest.approx(expected_value(game, strategy)[0], abs=1e-9)


def test_canonical_boards_land_on_representative_nodes() -> None:
    built = rhode_island_public_game(rhode_island(ranks=4, suits=4, raises=0))
    rng = np.random.default_rng(0)
    deck = built.game.deck
    for _ in range(200):
        flop, turn, hole = (int(c) for c in rng.choice(deck, size=3, replace=False))
        perm = built.canonical((flop, turn))
        assert sorted(perm) == [0, 1, 2, 3]
        assert perm[flop % 4] == 0  # the flop goes to the first suit
        assert perm[turn % 4] in (0, 1)  # the turn to the first two
        key = built.public_key(("cc", "cc", ""), (flop, turn))
        assert key in built.node_of_key  # a representative board of the tree
        state = built.game.initial_state()
        for action in (hole, next(c for c in deck if c not in (hole, flop, turn)), 1, 1, flop,
                       1, 1, turn):
            state = state.child(action)  # type: ignore[assignment]
        node, hand = built.locate(state)  # type: ignore[arg-type]
        assert node == built.node_of_key[key]
        mapped = built.game.deck[hand]
        assert mapped >> 2 == hole >> 2  # the card keeps its rank ...
        assert mapped % 4 == perm[hole % 4]  # ... and its suit follows the board's


def test_full_game_size_before_building() -> None:
    size = public_size(rhode_island())
    assert size.n_nodes == 27 + 9 * 13 * (27 + 9 * 25 * 27) == 713_961
    # rows: 13 actions per player in a round's betting tree, once per public board
    assert size.n_rows == (13 * (1 + 9 * 13 + 81 * 13 * 25),) * 2 == (343_759, 343_759)
    assert size.n_hands == 52
    # regrets and strategy sums of each player, reach and values (every node counted)
    assert size.bytes == 8 * (2 * 2 * 343_759 * 52 + 2 * 713_961 * 52)
    plain = public_size(rhode_island(), isomorphism=False)
    assert plain.n_nodes == 27 + 9 * 52 * (27 + 9 * 51 * 27)


@pytest.mark.parametrize("game", SMALL, ids=_ids)
def test_public_size_matches_the_built_tree(game: RhodeIslandGame) -> None:
    for isomorphism in (True, False):
        size = public_size(game, isomorphism=isomorphism)
        built = rhode_island_public_game(game, isomorphism=isomorphism)
        assert size.n_nodes == built.public.tree.n_nodes
        assert size.n_rows == built.public.tree.n_rows
        # the count gives every node work rows of its own: an upper bound of the solver's
        public = built.public
        assert size.bytes == estimate_solver_bytes(public.tree.n_nodes, public.tree.n_rows,
                                                   public.n_hands)
        assert size.bytes >= public.memory_bytes()


def test_the_solver_converges_on_a_small_deck() -> None:
    game = rhode_island(ranks=3, suits=2, raises=0)
    solver = RangeSolver(rhode_island_public_game(game).public)
    solver.run(target_exploitability=5e-3, iterations=2000, check_every=25)
    values = [row.exploitability for row in solver.history]
    assert values[-1] <= 5e-3
    assert values[0] > 10 * values[-1]
    low, high = solver.evaluate().value_bounds
    assert low <= solver.evaluate().values[0] <= high
    assert high - low <= 2 * 5e-3 + 1e-12


@pytest.mark.slow
def test_the_solver_converges_on_three_suits_with_raises() -> None:
    # 12 cards in three suits (both isomorphism steps act), one raise a round.
    game = rhode_island(ranks=4, suits=3, raises=1)
    solver = RangeSolver(rhode_island_public_game(game).public)
    solver.run(target_exploitability=5e-3, iterations=1500, check_every=50)
    assert solver.last_exploitability <= 5e-3
    assert solver.history[0].exploitability > 20 * solver.last_exploitability


def test_the_solution_file_round_trips(tmp_path: Path) -> None:
    game = rhode_island(ranks=3, suits=2, raises=0)
    built = rhode_island_public_game(game)
    solver = RangeSolver(built.public).run(iterations=30, check_every=30)
    path = save_range_checkpoint(solver, tmp_path / "ri.npz")
    loaded_built, loaded = load_rhode_island(path)
    assert loaded_built.game == game
    assert loaded.iterations == 30
    for ours, theirs in zip(solver.average_arrays(), loaded.average_arrays(), strict=True):
        assert np.array_equal(ours, theirs)
    loaded.run(iterations=10, check_every=10)
    solver.run(iterations=10, check_every=10)
    assert loaded.last_exploitability == solver.last_exploitability  # resumes exactly


@pytest.mark.slow
def test_the_solution_plays_the_full_game_through_the_dealer() -> None:
    from pokerlab.agents import PolicyAgent
    from pokerlab.eval import play_match

    game = rhode_island(ranks=3, suits=2, raises=0)
    built = rhode_island_public_game(game)
    solver = RangeSolver(built.public).run(iterations=200, check_every=200)
    policy = RhodeIslandStrategy(built, solver.average_arrays())
    state = _play_to_flop(game)
    answer = policy.action_probabilities(state.observation(0))
    assert set(answer) == set(state.legal_actions())
    assert sum(answer.values()) == pytest.approx(1.0)
    result = play_match(game, PolicyAgent(policy, seed=1, name="solved"),
                        PolicyAgent(Strategy.uniform(game), seed=2, name="uniform"),
                        hands=300, seed=3)
    assert result.agent_returns.shape[0] >= 300
    assert result.exact_values is not None  # the small deck compiles: exact values too
    assert result.exact_values[0] > 0  # the solution beats uniform play


def _play_to_flop(game: RhodeIslandGame) -> RhodeIslandState:
    state = game.initial_state()
    for action in (game.deck[0], game.deck[3], 1, 1, game.deck[5]):
        state = state.child(action)  # type: ignore[assignment]
    assert isinstance(state, RhodeIslandState)
    return state
