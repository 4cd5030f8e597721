"""``kuhn(ante=..., bet=...)``: the ante and the bet size as game parameters (issue 29)."""

from __future__ import annotations

import pytest

from pokerlab.errors import SpecError
from pokerlab.games import GameSpec, kuhn, load
from pokerlab.strategy import Strategy
from pokerlab.tree import compile


def _play(game, cards: tuple[int, ...], bets: str):  # type: ignore[no-untyped-def]
    state = game.initial_state()
    for card in cards:
        state = state.child(card)
    for letter in bets:
        state = state.child("pb".index(letter))
    return state


def test_the_default_game_is_unchanged() -> None:
    game = kuhn()
    assert str(game.spec) == "kuhn"
    assert kuhn(ante=1, bet=1) == game
    assert load("kuhn(ante=1, bet=1)") == game
    assert game.describe() == "2-player Kuhn poker with 3 cards: ante 1, one bet of 1"
    # A strategy file written before the parameters existed names only cards and players.
    old = GameSpec.from_dict({"name": "kuhn", "params": {"cards": 3, "players": 2}})
    assert load(old) == game
    assert str(kuhn(cards=100).spec) == "kuhn(cards=100)"


def test_spec_strings_round_trip() -> None:
    game = kuhn(ante=2, bet=3)
    assert str(game.spec) == "kuhn(ante=2, bet=3)"
    assert load(str(game.spec)) == game
    assert load("kuhn(bet=2)").spec.get("ante") == 1
    assert game.describe() == "2-player Kuhn poker with 3 cards: ante 2, one bet of 3"


@pytest.mark.parametrize(("bets", "returns", "chips_in"), [
    ("pp", (-2.0, 2.0), (2.0, 2.0)),   # check-check: the higher card (P2's K) wins the ante
    ("bp", (2.0, -2.0), (5.0, 2.0)),   # P1 bets, P2 folds: P1 wins P2's ante
    ("bb", (-5.0, 5.0), (5.0, 5.0)),   # bet-call: ante + bet
    ("pbp", (-2.0, 2.0), (2.0, 5.0)),  # check, bet, fold: P2 wins P1's ante
    ("pbb", (-5.0, 5.0), (5.0, 5.0)),  # check, bet, call
])
def test_returns_follow_ante_and_bet(
    bets: str, returns: tuple[float, float], chips_in: tuple[float, float]
) -> None:
    state = _play(kuhn(ante=2, bet=3), (0, 1), bets)  # P1 holds Q, P2 holds K
    assert state.is_terminal
    assert state.returns() == returns
    assert state.contributions() == chips_in


def test_three_players_with_an_ante_and_a_bet() -> None:
    # 4 cards, P1 J P2 Q P3 K: P1 bets, P2 folds, P3 calls: P3's K takes the pot of 19.
    state = _play(kuhn(cards=4, players=3, ante=3, bet=5), (0, 1, 2), "bpb")
    assert state.is_terminal
    assert state.contributions() == (8.0, 3.0, 8.0)
    assert state.returns() == (-8.0, -3.0, 11.0)
    assert sum(state.returns()) == 0.0


def test_the_tree_has_the_same_shape_and_scaled_payoffs() -> None:
    base, scaled = compile(kuhn()), compile(kuhn(ante=2, bet=2))
    assert scaled.n_histories == base.n_histories == 58
    assert scaled.infoset_keys == base.infoset_keys
    assert (scaled.terminal_payoffs == 2 * base.terminal_payoffs).all()


def test_a_strategy_file_records_the_parameters(tmp_path) -> None:  # type: ignore[no-untyped-def]
    game = kuhn(ante=2, bet=1)
    path = Strategy.uniform(game).save(tmp_path / "k.npz")
    again = Strategy.load(path)
    assert again.game == game
    assert str(again.game.spec) == "kuhn(ante=2)"  # the bet left at its default


@pytest.mark.parametrize(("text", "match"), [
    ("kuhn(ante=0)", "ante >= 1"),
    ("kuhn(bet=-1)", "bet >= 1"),
    ("kuhn(ante=1.5)", "ante"),
    ("kuhn(bet='1')", "bet"),
])
def test_bad_parameters_are_named(text: str, match: str) -> None:
    with pytest.raises(SpecError, match=match):
        load(text)
