import itertools

import numpy as np
import pytest

from pokerlab.cards import EquityResult, equity, evaluate_value, parse_cards, parse_range
from pokerlab.errors import CardError


def brute_force(players: list[str], board: str, dead: str = "") -> list[float]:
    """Equity by enumerating deals and runouts in plain Python."""
    board_cards = list(parse_cards(board))
    known = set(board_cards) | set(parse_cards(dead))
    ranges = [[c for c in parse_range(p).combos if not set(c) & known] for p in players]
    totals = [0.0] * len(players)
    count = 0
    for deal in itertools.product(*ranges):
        held = [card for combo in deal for card in combo]
        if len(set(held)) != len(held):
            continue
        rest = [c for c in range(52) if c not in known and c not in held]
        for runout in itertools.combinations(rest, 5 - len(board_cards)):
            full = board_cards + list(runout)
            values = [evaluate_value(list(combo) + full) for combo in deal]
            best = max(values)
            winners = values.count(best)
            for player, value in enumerate(values):
                if value == best:
                    totals[player] += 1 / winners
            count += 1
    return [total / count for total in totals]


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
    sampled = equity(["AsKs", "QdQh", "7c7d"], exact_threshold=0, samples=100_000, rng=5)
    assert not sampled.exact
    assert sampled.samples == 100_000
    for player in range(3):
        assert 0 < sampled.ci95[player] < 0.01
        assert abs(sampled.equity[player] - exact.equity[player]) <= sampled.ci95[player]


def test_range_vs_range_monte_carlo_and_same_seed_same_result() -> None:
    first = equity(["QQ+", "AKs, AKo"], exact_threshold=0, samples=20_000, rng=9)
    second = equity(["QQ+", "AKs, AKo"], exact_threshold=0, samples=20_000, rng=9)
    assert first == second
    assert first != equity(["QQ+", "AKs, AKo"], exact_threshold=0, samples=20_000, rng=10)
    assert sum(first.equity) == pytest.approx(1.0)
    # Exact by enumeration of all 328,762,368 showdowns (12 s): 0.682100 for QQ+.
    assert abs(first.equity[0] - 0.682100) <= first.ci95[0]


def test_monte_carlo_never_deals_a_card_twice() -> None:
    result = equity(["AsAh", "AA"], exact_threshold=0, samples=5_000, rng=1)
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
