"""Hold'em spots: the range solver against the sequence-form LP and the exact evaluators;
the O(hands) fold and showdown values against brute force over all combo pairs; bad input."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.cards import evaluate_batch
from pokerlab.errors import CardError, GameTooLargeError, PokerlabError, SpecError
from pokerlab.eval import exploitability
from pokerlab.solvers import solve_sequence_form
from pokerlab.subgame import RangeSolver
from pokerlab.subgame import _kernels as kernels
from pokerlab.subgame.spot import Spot
from pokerlab.subgame.spot_game import spot_game, spot_strategy
from pokerlab.tree import compile

SMALL = {"board": "Td9d6hQc2s", "oop": "AA, JJ, T9s, 87s, K8s", "ip": "KK, QQ, A9s, J8s, A2s",
         "pot": 100}


def test_a_small_river_spot_converges_to_the_lp_value_within_1e_6_of_the_pot() -> None:
    spot = Spot(**SMALL, stack=150, bets="100%", raises="a")
    assert (spot.hands[0].n_hands, spot.hands[1].n_hands) == (23, 19)
    game = spot_game(spot)
    value = solve_sequence_form(game).value
    solver = RangeSolver(game.public).run(target_exploitability=4e-7 * spot.pot,
                                          iterations=20_000, check_every=250)
    low, high = solver.evaluate().value_bounds
    assert low - 1e-9 <= value <= high + 1e-9
    assert high - low <= 1e-6 * spot.pot
    assert abs(0.5 * (low + high) - value) <= 1e-6 * spot.pot


def test_on_a_bigger_tree_the_lp_value_lies_in_the_exact_bracket() -> None:
    spot = Spot(**SMALL, stack=300, bets="50%, 100%", raises="2.5x")
    game = spot_game(spot)
    value = solve_sequence_form(game).value
    solver = RangeSolver(game.public).run(iterations=300, check_every=300)
    result = solver.evaluate()
    low, high = result.value_bounds
    assert low <= value <= high
    assert result.exploitability < 1e-3 * spot.pot
    # The exact evaluators on the compiled spot agree with the vectorized passes.
    strategy = spot_strategy(game, solver.average_arrays())
    assert exploitability(game, strategy) == pytest.approx(result.exploitability, abs=1e-9)


def _brute_force(spot: Spot, reach: np.ndarray, p: int) -> tuple[np.ndarray, np.ndarray]:
    """Fold and showdown values of p's hands by looping over every combo pair."""
    board = spot.board_cards
    mine, theirs = spot.hands[p], spot.hands[1 - p]
    fold = np.zeros(mine.n_hands)
    showdown = np.zeros(mine.n_hands)
    for i, (a, b) in enumerate(mine.cards):
        mine_value = evaluate_batch([[a, b, *board]])[0]
        for j, (c, d) in enumerate(theirs.cards):
            if {int(a), int(b)} & {int(c), int(d)}:
                continue
            fold[i] += reach[j]
            theirs_value = evaluate_batch([[c, d, *board]])[0]
            showdown[i] += reach[j] * np.sign(int(mine_value) - int(theirs_value))
    return fold, showdown


@pytest.mark.parametrize("seed", range(6))
def test_fold_and_showdown_values_equal_brute_force_over_all_pairs(seed: int) -> None:
    rng = np.random.default_rng(seed)
    cards = rng.choice(52, size=5, replace=False)
    board = "".join("23456789TJQKA"[c // 4] + "cdhs"[c % 4] for c in cards)
    # Random weighted ranges, with pairs and suited hands so that ties and shared cards occur.
    items = ["22+", "A2s+", "K9o+", "QTs+", "T8o", "65s", "54o"]
    oop = ", ".join(f"{item}:{rng.uniform(0.1, 1):.2f}" for item in rng.choice(items, 4))
    ip = ", ".join(f"{item}:{rng.uniform(0.1, 1):.2f}" for item in rng.choice(items, 4))
    spot = Spot(board=board, oop=oop, ip=ip, pot=10, stack=10, bets="", raises="")
    public = spot.build().public
    for p in (0, 1):
        mine, theirs = public.tables[p], public.tables[1 - p]
        reach = rng.random((1, spot.hands[1 - p].n_hands))
        scratch = np.zeros(3 * max(public.n_hands) + 60)
        fold = np.zeros((1, spot.hands[p].n_hands))
        showdown = np.zeros((1, spot.hands[p].n_hands))
        kernels.fold_values(reach, 0, theirs.fold_entries, theirs.fold_offsets,
                            theirs.cards.shape[0], mine.fold_cards, mine.same, 1.0, scratch,
                            fold, 0)
        kernels.showdown_values(reach, 0, 0, theirs.order, theirs.n_valid, theirs.entries,
                                theirs.offsets, mine.order, mine.n_valid, mine.cuts,
                                spot.hands[p].n_hands, 1.0, scratch, showdown, 0)
        expected_fold, expected_showdown = _brute_force(spot, reach[0], p)
        np.testing.assert_allclose(fold[0], expected_fold, rtol=0, atol=1e-9)
        np.testing.assert_allclose(showdown[0], expected_showdown, rtol=0, atol=1e-9)


def test_a_turn_spot_with_isomorphic_rivers_equals_the_one_without() -> None:
    # Board with two interchangeable suits (clubs and hearts hold no card): isomorphism
    # shares the rivers of one suit with the other's, which must not change any value.
    common = {"board": "AsKd7s2d", "oop": "AA, KK, 77, AKs, T9s", "ip": "QQ, JJ, AQs, 98s",
              "pot": 100, "stack": 100, "bets": "100%", "raises": ""}
    shared = Spot(**common).build().public
    plain = Spot(**common, isomorphism=False).build().public
    assert shared.tree.n_nodes < plain.tree.n_nodes
    assert shared.tree.isomorphic.shape[0] > 0
    for public in (shared, plain):
        assert public.normalizer == pytest.approx(plain.normalizer)
    results = []
    for public in (shared, plain):
        solver = RangeSolver(public).run(iterations=50, check_every=50)
        results.append(solver.evaluate())
    assert results[0].values[0] == pytest.approx(results[1].values[0], abs=1e-9)
    assert results[0].exploitability == pytest.approx(results[1].exploitability, abs=1e-9)


def test_bad_input_is_one_clear_line() -> None:
    cases: list[tuple[dict[str, object], type[PokerlabError], str]] = [
        ({"board": "AsAsKd"}, CardError, "twice|repeat|more than once"),
        ({"board": "AsKd"}, CardError, "3 \\(flop\\), 4 \\(turn\\) or 5"),
        ({"oop": "AsKs", "board": "AsKd7c"}, CardError, "no hand left"),
        ({"bets": "50%%"}, SpecError, "cannot read bet size"),
        ({"bets": "2.5x"}, SpecError, "for raises only"),
        ({"raises": "1x"}, SpecError, "more than 1x"),
        ({"bets": "flopp=50%"}, SpecError, "not a street"),
        ({"bets": "50%, 50%"}, SpecError, "repeat"),
        ({"donks": "2x"}, SpecError, "for raises only"),
        ({"add_all_in_threshold": -1.0}, SpecError, "add_all_in_threshold must be a number"),
        ({"force_all_in_threshold": float("nan")}, SpecError, "force_all_in_threshold must"),
        ({"merging_threshold": "0.1"}, SpecError, "merging_threshold must be a number"),
        ({"raise_cap": 0}, SpecError, "raise_cap must be an integer >= 1"),
        ({"stack": 0}, SpecError, "stack must be a whole number of chips, at least 1"),
        ({"pot": -5}, SpecError, "pot must be"),
        ({"oop": "AKs:2"}, CardError, "outside \\[0, 1\\]"),
    ]
    base: dict[str, object] = {"board": "Td9d6hQc2s", "oop": "AA", "ip": "KK", "pot": 100,
                               "stack": 100}
    for change, error, message in cases:
        with pytest.raises(error, match=message) as info:
            Spot(**{**base, **change})  # type: ignore[arg-type]
        assert "\n" not in str(info.value)


def test_a_spot_too_big_is_refused_before_building() -> None:
    spot = Spot(board="Td9d6h", oop="random", ip="random", pot=100, stack=1000,
                bets="33%, 50%, 75%, 100%", raises="2x, 3x")
    with pytest.raises(GameTooLargeError, match="MB") as info:
        spot.build(memory_limit=10**9)
    assert info.value.found > 10**9
    assert "\n" not in str(info.value)


def test_the_spot_game_compiles_and_names_its_actions() -> None:
    game = spot_game(Spot(**SMALL, stack=100, bets="100%", raises=""))
    tree = compile(game)
    assert tree.n_infosets > 0
    state = game.initial_state().child(0)
    assert [state.action_name(a) for a in state.legal_actions()] == ["check", "all-in 100"]
    assert state.infoset_key(0).endswith("|")


def test_a_turn_spot_agrees_with_the_exact_evaluators_of_its_compiled_game() -> None:
    # Turn bets are all-in (a runout follows the call); after checks the river is bet.
    spot = Spot(board="Td9d6hQc", oop="AA, T9s", ip="KK, 87s", pot=60, stack=60, bets="100%",
                raises="")
    game = spot_game(spot)
    solver = RangeSolver(game.public).run(iterations=40, check_every=40)
    strategy = spot_strategy(game, solver.average_arrays())
    assert exploitability(game, strategy) == pytest.approx(solver.exploitability(), abs=1e-9)
    value = solve_sequence_form(game).value
    low, high = solver.evaluate().value_bounds
    assert low <= value <= high
