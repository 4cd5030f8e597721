"""Hold'em sizes: the published heads-up limit figures, exact counts, labeled lower bounds."""

from __future__ import annotations

import json
import math

import pytest

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.cli import main
from pokerlab.errors import GameTooLargeError
from pokerlab.games import HoldemGame, holdem
from pokerlab.games.holdem_size import CALL_DOWN, count_holdem
from pokerlab.games.holdem_state import HoldemState
from pokerlab.tree import compile


def _plain_walk(state: HoldemState, n_streets: int = 4) -> tuple[int, list[int]]:
    """Histories and decisions per street by plain recursion: no memo, no betting keys.

    Chance nodes are walked through one card and counted once per card left, which is
    right because the betting never depends on the cards.
    """
    if state.player == TERMINAL:
        return 1, [0] * n_streets
    if state.player == CHANCE:
        cards = state.legal_actions()
        histories, decisions = _plain_walk(state._apply(cards[0]), n_streets)
        return 1 + len(cards) * histories, decisions
    histories, decisions = 1, [0] * n_streets
    decisions[state.street] += 1
    for action in state.legal_actions():
        below, per_street = _plain_walk(state._apply(action), n_streets)
        histories += below
        decisions = [a + b for a, b in zip(decisions, per_street, strict=True)]
    return histories, decisions


def test_heads_up_limit_has_the_published_size() -> None:
    # Bowling, Burch, Johanson, Tammelin 2015, "Heads-up limit hold'em poker is solved":
    # 3.16e17 game states and 3.19e14 infosets (Johanson 2013's tech report: 3.162e17 and
    # 3.194e14): decision points, hole cards and flop as unordered sets.
    size = holdem(betting="limit").size()
    assert size.exact
    assert size.method == "exact"
    assert size.betting_decisions == (8, 70, 630, 5_670)
    assert size.betting_sequences == 6_378
    assert size.game_states == 316_207_058_696_146_800
    assert size.infosets == 319_365_922_522_608
    assert f"{size.game_states:.3e}" == "3.162e+17"
    assert f"{size.infosets:.3e}" == "3.194e+14"
    # By hand: 8 * C(52,2)C(50,2) + 70 * ...C(48,3) + 630 * ...45 + 5670 * ...44.
    deals = math.comb(52, 2) * math.comb(50, 2)
    flops = deals * math.comb(48, 3)
    assert size.game_states == 8 * deals + 70 * flops + 630 * flops * 45 + 5670 * flops * 45 * 44


@pytest.mark.parametrize("params", [{"betting": "limit"}, {"stack": 6}, {"stack": 5, "players": 3}])
def test_the_memoized_count_equals_a_plain_walk(params: dict[str, object]) -> None:
    game = holdem(**params)  # type: ignore[arg-type]
    size = game.size()
    histories, decisions = _plain_walk(game.initial_state())
    assert size.exact
    assert size.histories == histories
    assert list(size.betting_decisions) == decisions
    assert game.count_histories() == histories
    assert game.history_count_is_exact


def test_this_engines_infoset_keys_count_cards_in_dealt_order() -> None:
    size = holdem(betting="limit").size()
    by_street = [math.perm(52, 2) * math.perm(50, board) for board in (0, 3, 4, 5)]
    assert size.engine_infosets == sum(
        n * keys for n, keys in zip(size.betting_decisions, by_street, strict=True)
    )


def test_deep_no_limit_gives_labeled_lower_bounds() -> None:
    game = holdem()
    size = game.size()
    assert not size.exact
    assert size.method.startswith("lower bound")
    assert not game.history_count_is_exact
    # Even the weakest bound counts every deal of the nine cards of a showdown.
    assert size.histories >= game.min_histories() > math.perm(52, 9)


def test_every_fallback_is_below_the_exact_count() -> None:
    game = holdem(stack=10)
    exact = game.size()
    assert exact.exact
    for budget in (0, 50, 500):
        bound = count_holdem(game.initial_state(), game.rules, budget=budget)
        assert not bound.exact
        assert bound.histories <= exact.histories
        assert bound.game_states <= exact.game_states
        assert bound.infosets <= exact.infosets
    fallback = count_holdem(game.initial_state(), game.rules, budget=0)
    assert fallback.method == CALL_DOWN
    assert fallback.histories == game.min_histories()


def test_compile_refuses_holdem_without_counting() -> None:
    game = holdem(players=9, stack=1000)
    with pytest.raises(GameTooLargeError, match=r"has at least .* histories"):
        compile(game)


def test_games_info_prints_the_published_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "info", 'holdem(betting="limit")']) == 0
    out = capsys.readouterr().out
    assert "316,207,058,696,146,800 (3.162e+17)" in out
    assert "319,365,922,522,608 (3.194e+14)" in out
    assert "exactly" in out
    assert "at least" not in out
    assert "8 / 70 / 630 / 5,670" in out


def test_games_info_labels_lower_bounds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "info", "holdem(players=3)", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["compiled"] is False
    assert data["exact"] is False
    assert data["method"].startswith("lower bound")
    game = holdem(players=3)
    assert isinstance(game, HoldemGame)
    assert data["histories"] == game.size().histories >= game.min_histories()
