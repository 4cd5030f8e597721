import itertools

import numpy as np
import pytest

from pokerlab.cards import (
    EquityResult,
    HandRange,
    equity,
    evaluate_batch,
    evaluate_value,
    parse_cards,
    parse_range,
)
from pokerlab.errors import CardError


def brute_force(players: list[str], board: str, dead: str = "") -> list[float]:
    """Equity by enumerating weighted deals and runouts in plain Python."""
    board_cards = list(parse_cards(board))
    known = set(board_cards) | set(parse_cards(dead))
    ranges = []
    for notation in players:
        hand_range = parse_range(notation)
        ranges.append(
            [
                (combo, weight)
                for combo, weight in zip(hand_range.combos, hand_range.weights, strict=True)
                if not set(combo) & known
            ]
        )
    totals = [0.0] * len(players)
    mass = 0.0
    for deal in itertools.product(*ranges):
        held = [card for combo, _ in deal for card in combo]
        if len(set(held)) != len(held):
            continue
        weight = float(np.prod([w for _, w in deal]))
        rest = [c for c in range(52) if c not in known and c not in held]
        for runout in itertools.combinations(rest, 5 - len(board_cards)):
            full = board_cards + list(runout)
            values = [evaluate_value(list(combo) + full) for combo, _ in deal]
            best = max(values)
            winners = values.count(best)
            for player, value in enumerate(values):
                if value == best:
                    totals[player] += weight / winners
            mass += weight
    return [total / mass for total in totals]


def batch_brute_force(
    ranges: list[list[tuple[tuple[int, int], float]]], board: list[int]
) -> list[float]:
    """Weighted equity over every deal and runout, valued by evaluate_batch (the evaluator's
    own kernel, not the equity tables), for random differential cases."""
    deals = [
        deal
        for deal in itertools.product(*ranges)
        if len({card for combo, _ in deal for card in combo}) == 2 * len(ranges)
    ]
    totals = np.zeros(len(ranges))
    mass = 0.0
    for deal in deals:
        held = {card for combo, _ in deal for card in combo}
        rest = [c for c in range(52) if c not in held and c not in board]
        listed = list(itertools.combinations(rest, 5 - len(board)))
        runouts = np.array(listed, dtype=np.int64).reshape(len(listed), 5 - len(board))
        weight = float(np.prod([w for _, w in deal]))
        values = []
        for combo, _ in deal:
            hands = np.concatenate(
                [np.tile(list(combo) + board, (len(runouts), 1)), runouts], axis=1
            )
            values.append(evaluate_batch(hands))
        table = np.stack(values, axis=1)
        best = table == table.max(axis=1, keepdims=True)
        totals += weight * (best / best.sum(axis=1, keepdims=True)).sum(axis=0)
        mass += weight * len(runouts)
    if not deals:
        raise ZeroDivisionError("no deal without a shared card")
    return (totals / mass).tolist()


def test_aks_vs_queens_preflop_exact() -> None:
    result = equity(["AsKs", "QdQh"])
    assert isinstance(result, EquityResult)
    assert result.exact
    assert result.samples == 1_712_304  # C(48, 5) boards
    assert result.equity[0] == pytest.approx(0.4621, abs=1e-4)  # the known ~46% / 54%
    assert result.equity[1] == pytest.approx(0.5379, abs=1e-4)
    assert sum(result.equity) == pytest.approx(1.0)
    for player in range(2):
        total = result.win[player] + result.tie[player] + result.lose[player]
        assert total == pytest.approx(1.0)
    assert result.ci95 == (0.0, 0.0)


@pytest.mark.parametrize(
    ("players", "board", "dead"),
    [
        (["AsKs", "QdQh"], "Qs7s2d", ""),
        (["AhKh", "QQ", "JTs"], "Qh7h2c", ""),
        (["QQ+", "AhKh"], "Qc7d2h", "3c"),
        (["AK", "22-44", "9h8h"], "2c3d4h5s", ""),
        (["AsKd", "AcKh"], "QsJs2d3c", ""),
    ],
)
def test_exact_equals_brute_force(players: list[str], board: str, dead: str) -> None:
    result = equity(players, board, dead)
    assert result.exact
    assert list(result.equity) == pytest.approx(brute_force(players, board, dead), abs=1e-12)


def test_monte_carlo_within_its_interval_of_exact() -> None:
    exact = equity(["AsKs", "QdQh", "7c7d"])
    sampled = equity(["AsKs", "QdQh", "7c7d"], exact_threshold=0, samples=100_000, seed=5)
    assert not sampled.exact
    assert sampled.samples == 100_000
    for player in range(3):
        assert 0 < sampled.ci95[player] < 0.01
        assert abs(sampled.equity[player] - exact.equity[player]) <= sampled.ci95[player]


def test_range_vs_range_monte_carlo_and_same_seed_same_result() -> None:
    first = equity(["QQ+", "AKs, AKo"], exact_threshold=0, samples=20_000, seed=9)
    second = equity(["QQ+", "AKs, AKo"], exact_threshold=0, samples=20_000, seed=9)
    assert first == second
    assert first != equity(["QQ+", "AKs, AKo"], exact_threshold=0, samples=20_000, seed=10)
    assert sum(first.equity) == pytest.approx(1.0)
    # Exact by enumeration of all 328,762,368 showdowns (12 s): 0.682100 for QQ+.
    assert abs(first.equity[0] - 0.682100) <= first.ci95[0]


def test_monte_carlo_never_deals_a_card_twice() -> None:
    result = equity(["AsAh", "AA"], exact_threshold=0, samples=5_000, seed=1)
    assert result.tie[0] > 0.9  # AA vs the one AA combo left: nearly always split


def test_players_given_as_card_ids() -> None:
    assert equity([[51, 47], [42, 38]], board=[0, 5, 10]) == equity(["AsKs", "QhJh"], "2c3d4h")


@pytest.mark.parametrize(
    ("players", "board", "dead", "message"),
    [
        (["AsKs"], "", "", "at least 2 players"),
        (["AsKs", "AsQd"], "", "", "share cards"),
        (["AsKs", "QdQh"], "2c3c", "", "0, 3, 4 or 5"),
        (["AsKs", "QdQh"], "AsQc2d", "", "no combo left"),
        (["AsKs", "QdQh"], "2c3c4c", "2c", "both on the board and dead"),
        (["AsKs", "QdQh"], "2c3c4c2c", "", "appears twice"),
        (["AsKs", "Q"], "", "", "cannot read range item"),
        ([[51], [42, 38]], "", "", "2 hole cards"),
    ],
)
def test_bad_input(players: list[str], board: str, dead: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        equity(players, board, dead)


def test_result_values_are_probabilities() -> None:
    result = equity(["AA", "KK", "QQ"], board="2c7d9h", rng=0)
    assert np.all(np.array(result.equity) >= 0)
    assert result.n_players == 3


def test_the_older_rng_name_still_seeds() -> None:
    assert equity(["QQ+", "AK"], exact_threshold=0, samples=5_000, rng=3) == equity(
        ["QQ+", "AK"], exact_threshold=0, samples=5_000, seed=3
    )
    generator = np.random.default_rng(4)
    assert equity(["QQ+", "AK"], exact_threshold=0, samples=5_000, seed=generator).samples == 5_000
    with pytest.raises(CardError, match="give the seed once"):
        equity(["QQ+", "AK"], exact_threshold=0, seed=1, rng=1)


@pytest.mark.parametrize(
    ("players", "board", "dead"),
    [
        (["AsKs", "QQ+, AKo:0.5"], "Qs7s2d", ""),
        (["AhKh:0.5, QQ", "JJ:0.25, AsKs"], "Qh7h2c9d", ""),
        (["KK:0.3, AsKd:0.9", "QQ:0.7, JhTh"], "Qc7d2h", "3c"),
        (["AK:0.5, 22", "33:0.2, 9h8h", "44"], "2c3d4h5s", ""),
        (["AsKd:0.5", "AcKh:0.25"], "QsJs2d3c", ""),
    ],
)
def test_weighted_exact_equals_brute_force(players: list[str], board: str, dead: str) -> None:
    result = equity(players, board, dead)
    assert result.exact
    assert result.method == "exact"
    assert list(result.equity) == pytest.approx(brute_force(players, board, dead), abs=1e-12)


def random_range(
    rng: np.random.Generator, size: int, used: set[int]
) -> list[tuple[tuple[int, int], float]]:
    """`size` random combos avoiding `used`, with random weights in (0, 1]."""
    combos: dict[tuple[int, int], float] = {}
    while len(combos) < size:
        first, second = (int(card) for card in rng.choice(52, size=2, replace=False))
        if first in used or second in used:
            continue
        combos[(max(first, second), min(first, second))] = float(rng.uniform(0.05, 1.0))
    return list(combos.items())


@pytest.mark.parametrize("case", range(24))
def test_random_exact_cases_equal_a_batch_brute_force(case: int) -> None:
    rng = np.random.default_rng(1000 + case)
    n_players = 2 if case < 16 else 3
    board_size = (5, 4, 3)[case % 3] if n_players == 2 else (5, 4)[case % 2]
    board = [int(card) for card in rng.choice(52, size=board_size, replace=False)]
    sizes = [int(rng.integers(1, 5 if n_players == 2 else 3)) for _ in range(n_players)]
    ranges = [random_range(rng, size, set(board)) for size in sizes]
    hand_ranges = [
        HandRange(combos=tuple(c for c, _ in r), weights=tuple(w for _, w in r)) for r in ranges
    ]
    try:
        expected = batch_brute_force(ranges, board)
    except ZeroDivisionError:  # every deal shares a card
        with pytest.raises(CardError, match="share cards"):
            equity(hand_ranges, board)
        return
    result = equity(hand_ranges, board)
    assert result.exact
    assert list(result.equity) == pytest.approx(expected, abs=1e-9)
    assert sum(result.equity) == pytest.approx(1.0, abs=1e-12)


def test_wide_ranges_on_the_flop_are_exact_and_fast_enough() -> None:
    result = equity(["22+, A2s+, K9o+, QTo+:0.5", "QQ+, AK, 76s:0.25"], board="2c7dTh")
    assert result.exact  # 1,081 runouts x ~600 hands: well under the default threshold
    sampled = equity(
        ["22+, A2s+, K9o+, QTo+:0.5", "QQ+, AK, 76s:0.25"],
        board="2c7dTh",
        exact_threshold=0,
        samples=200_000,
        seed=2,
    )
    assert abs(sampled.equity[0] - result.equity[0]) <= sampled.ci95[0]


def test_scaling_every_weight_changes_nothing() -> None:
    whole = equity(["QQ+, AKs", "JJ, AQo"], board="Kd8h3c")
    halved = equity(["QQ+:0.5, AKs:0.5", "JJ:0.5, AQo:0.5"], board="Kd8h3c")
    assert list(halved.equity) == pytest.approx(list(whole.equity), abs=1e-12)


def test_weights_change_the_mix_of_hands() -> None:
    # AA against KK alone or AsKs alone, and a range mixing them at known weights: the
    # mixed equity is the weighted mean of the two, each weighted by weight x its combos.
    board = "7c8d2h"
    against_kk = equity(["AhAd", "KK"], board).equity[0]
    against_aks = equity(["AhAd", "AsKs"], board).equity[0]
    mixed = equity(["AhAd", "KK:0.25, AsKs"], board).equity[0]
    expected = (6 * 0.25 * against_kk + 1 * against_aks) / (6 * 0.25 + 1)
    assert mixed == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(
    ("players", "board"),
    [
        (["AsKs", "QQ+, AKo:0.5, 76s:0.3"], ""),
        (["QQ+:0.5, AK", "22-99, A2s+:0.4"], "Jc8d3h"),
        (["AsKs", "QQ:0.5, JhTh"], ""),
        (["AhKh:0.5, QQ", "JJ:0.25, AsKs", "TT, 9c9d:0.6"], "Qh7h2c"),
        (["random", "random:0.5, AA"], "5c6d7h"),
        # AsAh leaves 3 of villain's 5 combos possible, 2c2d all 5: dealt 3:5, not 1:1
        (["AsAh, 2c2d", "AKs, 3c3d"], ""),
        (["AsAh, 2c2d:0.3", "AKs:0.5, 3c3d"], "4h5h6s"),
    ],
)
def test_weighted_monte_carlo_within_its_interval_of_exact(players: list[str], board: str) -> None:
    exact = equity(players, board, exact_threshold=10**10)
    sampled = equity(players, board, exact_threshold=0, samples=200_000, seed=11)
    assert exact.exact
    assert not sampled.exact
    assert sampled.method == "monte carlo"
    for player in range(len(players)):
        # 2.05 x the 95% half-width is 4 standard errors: a fixed seed, never flaky.
        assert abs(sampled.equity[player] - exact.equity[player]) <= 2.05 * sampled.ci95[player]
        assert abs(sampled.win[player] - exact.win[player]) < 0.01
        assert abs(sampled.tie[player] - exact.tie[player]) < 0.01


def test_monte_carlo_draws_in_proportion_to_weight() -> None:
    # AA holds 6 combos at weight 0.1, 72o 12 at weight 1: AA is dealt 0.6 / 12.6 of the
    # time. Against KhKd on a blank board the equity is close to P(72o) * eq(72o) + ...
    players = ["AA:0.1, 72o", "KhKd"]
    exact = equity(players, "", exact_threshold=10**10)
    sampled = equity(players, "", exact_threshold=0, samples=400_000, seed=3)
    assert abs(sampled.equity[0] - exact.equity[0]) <= 2.05 * sampled.ci95[0]
    unweighted = equity(["AA, 72o", "KhKd"], "", exact_threshold=10**10)
    assert abs(unweighted.equity[0] - exact.equity[0]) > 0.1  # the weights matter


def test_exact_where_it_fits() -> None:
    assert equity(["AsKs", "QdQh"]).exact  # hand vs hand before the flop
    assert equity(["AsKs", "QdQh"], "2c7dTh").exact
    assert equity(["AsKs", "QQ+, AK"], "2c7dTh").exact  # hand vs range on the flop
    assert equity(["AsKs", "QQ"]).exact  # a small range before the flop
    assert equity(["random", "random"], "2c7dTh9s").exact  # every combo on the turn
    assert not equity(["AsKs", "22+, A2+"], samples=1_000).exact  # wide, preflop


def test_counts_of_showdowns() -> None:
    assert equity(["AsKs", "QdQh"], "2c7dTh").samples == 990  # C(45, 2)
    assert equity(["AsKs", "QQ"], "2c7dTh").samples == 6 * 990
    assert equity(["AsKs", "QsQh"], "2c7dTh").samples == 0 + 990


@pytest.mark.parametrize(
    ("players", "board", "dead", "message"),
    [
        (["AsKs", "QQ+"], "Qs7s2dQs", "", "appears twice"),
        (["AsKs", "QQ+"], "Qs7s2d", "Qs", "both on the board and dead"),
        (["AsKs", "QsQh"], "Qs7s2d", "", "player 1's hand or range 'QsQh' has no combo left"),
        (["AsKs", "AsAh, AsAd"], "", "", "share cards in every possible deal"),
        (["AsKs", "KsQs:0.5, AsQs"], "", "", "share cards in every possible deal"),
        (["AA:0.5", "AA", "AA"], "", "", "share cards in every possible deal"),
        (["AsKs", "QQ:2"], "", "", r"outside \[0, 1\]"),
        (["AsKs", "QQ:x"], "", "", "cannot read the weight"),
        (["AsKs", "QQ:0"], "", "", "holds no combo"),
    ],
)
def test_bad_input_is_one_line(players: list[str], board: str, dead: str, message: str) -> None:
    with pytest.raises(CardError, match=message) as error:
        equity(players, board, dead)
    assert "\n" not in str(error.value)


def test_bad_counts() -> None:
    with pytest.raises(CardError, match="samples must be at least 1"):
        equity(["AsKs", "QQ"], samples=0)
    with pytest.raises(CardError, match="exact_threshold must be 0 or more"):
        equity(["AsKs", "QQ"], exact_threshold=-1)


def test_equity_kernel_evaluator_matches_evaluate_batch() -> None:
    from pokerlab.cards import _kernels
    from pokerlab.cards.equity import _card_keys, _equity_tables

    rng = np.random.default_rng(7)
    hands = np.argsort(rng.random((100_000, 52)), axis=1)[:, :7]
    keys = _card_keys()[hands]  # [n, 7, 3]
    values = _kernels.evaluate_keys(
        keys[:, :, 0].sum(axis=1),
        np.bitwise_or.reduce(keys[:, :, 1], axis=1),
        keys[:, :, 2].sum(axis=1),
        _equity_tables(),
    )
    assert np.array_equal(values, evaluate_batch(hands))
    # every rank multiset of seven cards (counts up to 4), each rank's cards in distinct suits
    rows = np.array(list(itertools.combinations_with_replacement(range(13), 7)))
    counts = np.apply_along_axis(np.bincount, 1, rows, minlength=13)
    rows = rows[counts.max(axis=1) <= 4]
    occurrence = np.zeros_like(rows)
    group = np.zeros_like(rows)
    for column in range(1, 7):
        repeated = rows[:, column] == rows[:, column - 1]
        occurrence[:, column] = np.where(repeated, occurrence[:, column - 1] + 1, 0)
        group[:, column] = group[:, column - 1] + ~repeated
    cards = rows * 4 + (occurrence + group) % 4
    keys = _card_keys()[cards]
    values = _kernels.evaluate_keys(
        keys[:, :, 0].sum(axis=1),
        np.bitwise_or.reduce(keys[:, :, 1], axis=1),
        keys[:, :, 2].sum(axis=1),
        _equity_tables(),
    )
    assert len(cards) == 49_205
    assert np.array_equal(values, evaluate_batch(cards))


def test_card_removal_weighs_each_hand_by_the_combos_it_leaves() -> None:
    # AsAh leaves 3 of villain's 5 combos possible, 2c2d all 5: dealt 3:5, not 1:1.
    villain = "AKs, 3c3d"
    mixed = equity(["AsAh, 2c2d", villain], exact_threshold=10**10).equity[0]
    aces = equity(["AsAh", villain]).equity[0]
    deuces = equity(["2c2d", villain]).equity[0]
    assert mixed == pytest.approx(3 / 8 * aces + 5 / 8 * deuces, abs=1e-12)
    assert abs(mixed - (aces + deuces) / 2) > 0.05
