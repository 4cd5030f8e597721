from __future__ import annotations

import numpy as np
import pytest

from pokerlab.abstraction.bet_menu import (
    BetSize,
    menu_actions,
    menu_raises,
    parse_bet_menu,
    raise_fraction,
    translate_raise_probabilities,
    translate_state,
)
from pokerlab.errors import SpecError
from pokerlab.games.holdem import CALL, FOLD, RAISE, holdem

DEAL = [51, 50, 47, 46]  # P0: As Ks, P1: Ah Kh


def formula(x: float, a: float, b: float) -> float:
    return (b - x) * (1 + a) / ((b - a) * (1 + x))


def test_parse_one_list_for_every_street() -> None:
    menu = parse_bet_menu("33%,75%,a")
    assert len(menu.streets) == 4
    assert menu.streets[2] == (BetSize("pot", 0.33), BetSize("pot", 0.75), BetSize("all_in"))
    assert str(menu) == "33%,75%,a/33%,75%,a/33%,75%,a/33%,75%,a"


def test_parse_per_street_and_list_form() -> None:
    text = "2.5x,a/33%,75%,a/75%,a/a"
    assert parse_bet_menu(text) == parse_bet_menu(text.split("/"))
    assert parse_bet_menu(text).streets[0] == (BetSize("times", 2.5), BetSize("all_in"))
    assert parse_bet_menu("a/a//a").streets[2] == ()
    assert parse_bet_menu("a", all_in_threshold=0.6).all_in_threshold == 0.6


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("33", "cannot read bet size '33'"),
        ("33%,,a", "empty bet size"),
        ("0%", "above 0%"),
        ("1x", "above 1x"),
        ("a,a", "repeat"),
        ("a/a", "1 list of sizes"),
        ("-5%", "cannot read"),
    ],
)
def test_parse_errors_name_the_problem(text: str, needle: str) -> None:
    with pytest.raises(SpecError, match=needle):
        parse_bet_menu(text)


def test_parse_a_game_with_fewer_streets() -> None:
    menu = parse_bet_menu("2.5x,a/50%,a", n_streets=2)
    assert menu.streets == ((BetSize("times", 2.5), BetSize("all_in")),
                            (BetSize("pot", 0.5), BetSize("all_in")))
    assert len(parse_bet_menu("a", n_streets=3).streets) == 3
    with pytest.raises(SpecError, match=r"or 2 \(preflop/flop\); got 4"):
        parse_bet_menu("a/a/a/a", n_streets=2)
    with pytest.raises(SpecError, match="n_streets must be 1 to 4"):
        parse_bet_menu("a", n_streets=5)


def test_a_postflop_street_of_multiples_only_is_refused() -> None:
    assert parse_bet_menu("2.5x/50%/a/a").streets[0] == (BetSize("times", 2.5),)  # preflop ok
    with pytest.raises(SpecError, match=r"the flop sizes '2\.5x,3x' could never bet"):
        parse_bet_menu("2.5x,a/2.5x,3x/a/a")
    with pytest.raises(SpecError, match="the flop sizes '2x' could never bet"):
        parse_bet_menu("2x")  # one list for every street: the flop too


@pytest.mark.parametrize("threshold", [0, 1.5, float("nan"), True, "0.5"])
def test_bad_threshold(threshold: object) -> None:
    with pytest.raises(SpecError, match="all_in_threshold"):
        parse_bet_menu("a", all_in_threshold=threshold)  # type: ignore[arg-type]


def test_menu_on_the_preflop_open() -> None:
    game = holdem(stack=100)  # blinds 1/2, SB (player 1) acts first
    state = game.initial_state().apply_sequence(DEAL)
    menu = parse_bet_menu("2.5x,50%,a")
    # 2.5x of the big blind: 5; 50% pot: max_bet 2 + 0.5 * (pot 3 + to_call 1) = 4; all-in 100
    assert menu_raises(menu, state) == (4, 5, 100)
    assert menu_actions(menu, state) == (FOLD, CALL, RAISE + 4, RAISE + 5, RAISE + 100)


def test_menu_clips_to_the_legal_range_and_dedupes() -> None:
    game = holdem(stack=100)
    state = game.initial_state().apply_sequence([*DEAL, CALL, CALL, 10, 11, 12])  # flop, pot 4
    assert state.raise_range() == (2, 98)
    # 10% pot = 0.4 -> clipped up to the min bet 2; 1% too; 5000% -> all-in 98; 2x: no bet
    menu = parse_bet_menu("1%,10%,100%,5000%,2x,a")
    assert menu_raises(menu, state) == (2, 4, 98)
    assert menu_actions(menu, state) == (CALL, RAISE + 2, RAISE + 4, RAISE + 98)


def test_all_in_threshold() -> None:
    game = holdem(stack=20)
    state = game.initial_state().apply_sequence(DEAL)
    # 300% pot: 2 + 3 * (3 + 1) = 14 of the 20 chips
    assert menu_raises(parse_bet_menu("300%"), state) == (14,)
    assert menu_raises(parse_bet_menu("300%", all_in_threshold=0.75), state) == (14,)
    assert menu_raises(parse_bet_menu("300%", all_in_threshold=0.6), state) == (20,)


def test_limit_menu_is_the_legal_actions() -> None:
    state = holdem(betting="limit").initial_state().apply_sequence(DEAL)
    assert menu_actions(parse_bet_menu("a"), state) == state.legal_actions()


def test_translation_probabilities_follow_pseudo_harmonic() -> None:
    game = holdem(stack=1000)
    state = game.initial_state().apply_sequence([*DEAL, CALL, CALL, 10, 11, 12])  # pot 4
    menu = parse_bet_menu("50%,100%,a")
    # menu bets 2 and 4 chips = fractions 0.5 and 1.0
    for bet in (2, 4):
        fraction = raise_fraction(state, bet)
        assert translate_raise_probabilities(menu, state, fraction) == {RAISE + bet: 1.0}
    for x in np.linspace(0.5, 1.0, 11)[1:-1]:
        probabilities = translate_raise_probabilities(menu, state, float(x))
        assert probabilities[RAISE + 2] == pytest.approx(formula(x, 0.5, 1.0), abs=1e-12)
        assert probabilities[RAISE + 4] == pytest.approx(1 - formula(x, 0.5, 1.0), abs=1e-12)


def test_translate_state_maps_real_bets_onto_the_menu() -> None:
    game = holdem(stack=1000)
    menu = parse_bet_menu("50%,100%,a")
    # SB raises to 7 (fraction (7-2)/(3+1) = 1.25: between 100% (raise to 6) and all-in)
    real = game.initial_state().apply_sequence([*DEAL, RAISE + 7, CALL, 10, 11, 12, RAISE + 14])
    counts: dict[tuple[int, ...], int] = {}
    for seed in range(200):
        abstract = translate_state(menu, real, rng=seed)
        key = abstract.history[4:]
        counts[key] = counts.get(key, 0) + 1
        assert abstract.to_act in (real.to_act, -1)  # -1: chance, an abstract all-in called
        assert abstract.board == real.board
        replay = game.initial_state()
        for action in abstract.history:  # every abstract raise is a menu raise
            if replay.to_act >= 0:
                assert action in menu_actions(menu, replay)
            replay = replay.child(action)
    # preflop: f(1.25) between 1.0 and all-in's fraction, nearly always the pot raise
    assert all(k[0] in (RAISE + 6, RAISE + 1000) for k in counts)
    assert sum(v for k, v in counts.items() if k[0] == RAISE + 6) > 150


def test_translate_state_exact_menu_history_is_unchanged() -> None:
    game = holdem(stack=100)
    menu = parse_bet_menu("50%,100%,a")
    real = game.initial_state().apply_sequence([*DEAL, RAISE + 6, CALL, 10, 11, 12, RAISE + 6])
    assert translate_state(menu, real, rng=0).history == real.history


def test_translate_state_after_an_abstract_all_in() -> None:
    game = holdem(stack=100)
    menu = parse_bet_menu("a")
    real = game.initial_state().apply_sequence([*DEAL, RAISE + 50, CALL, 10, 11, 12])
    abstract = translate_state(menu, real, rng=0)
    assert abstract.betting[0] == (RAISE + 100, CALL)
    assert abstract.board == real.board
