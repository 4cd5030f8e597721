"""Rhode Island Hold'em: the rules as Gilpin and Sandholm state them, and the game's size."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from pokerlab.cards import parse_card
from pokerlab.errors import GameTooLargeError, IllegalActionError, SpecError
from pokerlab.games import RhodeIslandGame, RhodeIslandState, load, rhode_island
from pokerlab.games.rhode_island import CALL, FOLD, RAISE
from pokerlab.tree import compile


def _deal(game: RhodeIslandGame, p1: str, p2: str) -> RhodeIslandState:
    state = game.initial_state().child(parse_card(p1)).child(parse_card(p2))
    assert isinstance(state, RhodeIslandState)
    return state


def _play(state: RhodeIslandState, moves: str) -> RhodeIslandState:
    """Apply f/c/r letters and card names separated by spaces: ``"rc 7h cc 2d"``."""
    for token in moves.split():
        if token[0] in "fcr":  # betting letters (no rank is f, c or r)
            for letter in token:
                state = state.child("fcr".index(letter))  # type: ignore[assignment]
        else:
            state = state.child(parse_card(token))  # type: ignore[assignment]
    return state


def test_the_default_game_is_gilpin_and_sandholms() -> None:
    game = load("rhode_island")
    assert game == rhode_island()
    assert str(game.spec) == "rhode_island"
    assert isinstance(game, RhodeIslandGame)
    assert game.ante == 5
    assert game.bet_sizes == (10, 20, 20)
    assert game.raises == 3
    assert game.max_bets == 4
    assert len(game.deck) == 52
    assert "three-card ranking" in game.describe()
    assert load(str(rhode_island(ranks=4, suits=2).spec)) == rhode_island(ranks=4, suits=2)


def test_antes_not_blinds_and_p1_acts_first_every_round() -> None:
    game = rhode_island()
    root = game.initial_state()
    assert root.is_chance
    assert root.contributions() == (5.0, 5.0)
    state = _deal(game, "As", "Kd")
    assert state.player == 0
    assert state.legal_actions() == (CALL, RAISE)  # check or bet; no fold without a bet
    assert state.action_name(CALL) == "check"
    assert state.action_name(RAISE) == "bet"
    state = _play(state, "cr")  # P1 checks, P2 bets 10
    assert state.player == 0
    assert state.contributions() == (5.0, 15.0)
    assert state.legal_actions() == (FOLD, CALL, RAISE)
    state = _play(state, "c")  # P1 calls: round over, the flop is dealt
    assert state.is_chance
    state = _play(state, "7h")
    assert state.player == 0
    assert state.board == (parse_card("7h"),)
    state = _play(state, "r")
    assert state.contributions() == (35.0, 15.0)  # round 2 bets are 20
    state = _play(state, "c 2c r")
    assert state.player == 1
    assert state.contributions() == (55.0, 35.0)


def test_three_raises_after_the_bet_then_only_fold_or_call() -> None:
    game = rhode_island()
    state = _play(_deal(game, "As", "Kd"), "rrrr")  # bet, raise, raise, raise
    assert state.contributions() == (35.0, 45.0)
    assert state.legal_actions() == (FOLD, CALL)
    with pytest.raises(IllegalActionError, match="legal: fold"):
        state.child(RAISE)
    after_check = _play(_deal(game, "As", "Kd"), "crrr")  # check, then 3 bets
    assert after_check.legal_actions() == (FOLD, CALL, RAISE)
    assert _play(after_check, "r").legal_actions() == (FOLD, CALL)
    assert _play(_deal(rhode_island(raises=0), "As", "Kd"), "r").legal_actions() == (FOLD, CALL)


def test_a_fold_loses_what_the_folder_put_in() -> None:
    game = rhode_island()
    state = _play(_deal(game, "2c", "Ad"), "rrf")
    assert state.is_terminal
    assert state.returns() == (-15.0, 15.0)
    state = _play(_deal(game, "2c", "Ad"), "rc 7h rf")
    assert state.returns() == (15.0, -15.0)


@pytest.mark.parametrize(
    ("p1", "p2", "flop", "turn", "p1_wins"),
    [
        ("6c", "Td", "7c", "Qc", 1),  # a flush beats Q-T-7
        ("6c", "8d", "7c", "9c", -1),  # a straight (7-8-9) beats a flush (6-7-9 clubs)
        ("9d", "8d", "7c", "9c", -1),  # 7-8-9 is a straight for P2: it beats P1's nines
        ("7d", "8s", "7c", "7h", 1),  # trips beat a straight draw and any straight
        ("As", "Ah", "2c", "3d", 0),  # A-2-3 both: a split pot
        ("Kh", "4h", "2h", "3h", -1),  # the straight flush 2-3-4 beats the K-high flush
        ("Ks", "2d", "Kd", "3c", 1),  # a pair of kings beats high card
    ],
)
def test_showdowns_rank_three_card_hands(p1: str, p2: str, flop: str, turn: str,
                                         p1_wins: int) -> None:
    state = _play(_deal(rhode_island(), p1, p2), f"cc {flop} cc {turn} cc")
    assert state.is_terminal
    assert state.returns() == (5.0 * p1_wins, -5.0 * p1_wins)


def test_infoset_keys_history_and_public_events() -> None:
    game = rhode_island()
    state = _play(_deal(game, "Ks", "7d"), "rc 7h cr")
    assert state.infoset_key(0) == "Ks|7h|rc|cr"
    assert state.infoset_key(1) == "7d|7h|rc|cr"
    assert state.infoset_key() == "Ks|7h|rc|cr"
    final = _play(state, "c 2c")
    assert final.infoset_key(0) == "Ks|7h2c|rc|crc|"
    assert game.initial_state().apply_sequence(final.history) == final
    events = final.public_history()
    assert (-1, "flop 7h") in events
    assert (-1, "turn 2c") in events
    assert all(name != "deal Ks" for _, name in events)  # the private cards stay private
    assert final.private_cards(1) == "7d"
    assert final.board_cards() == "7h 2c"


def test_random_playouts_are_zero_sum_and_replay() -> None:
    game = rhode_island()
    rng = random.Random(5)
    for _ in range(300):
        state = game.initial_state()
        while not state.is_terminal:
            if state.is_chance:
                outcomes = state.chance_outcomes()
                assert math.isclose(sum(p for _, p in outcomes), 1.0)
                state = state.child(rng.choice(outcomes)[0])
            else:
                state = state.child(rng.choice(state.legal_actions()))
        assert sum(state.returns()) == 0
        assert max(abs(r) for r in state.returns()) <= 5 + 40 + 80 + 80
        assert game.initial_state().apply_sequence(state.history).returns() == state.returns()


def _round_counts(bets: int) -> tuple[int, int, int, int]:
    """(decisions, P1 decisions, folds, round ends) of one limit betting round, by hand."""
    # Sequences: c (check), then b, br, brr... up to `bets` bets, each answered by f or c.
    decisions = 1 + 1  # the opener, and the player after a check
    p1 = 1
    for opened_after_check in (False, True):
        for k in range(1, bets + 1):  # facing the k-th bet
            decisions += 1
            # after "b" P2 faces it; after "cb" P1 does; parity alternates with k
            p1 += 1 if (k + opened_after_check) % 2 == 0 else 0
    folds = 2 * bets
    ends = 1 + 2 * bets  # check-check, and a call of each bet in either line
    return decisions, p1, folds, ends


def test_size_counts_follow_from_one_round_of_betting() -> None:
    game = rhode_island()
    size = game.size
    decisions, p1_decisions, folds, ends = _round_counts(4)
    assert (decisions, p1_decisions, folds, ends) == (10, 5, 8, 9)
    per_round = decisions + folds + ends  # 27 nodes, the round ends being chance nodes
    deals = [math.perm(52, k) for k in (2, 3, 4)]  # the cards out in rounds 1, 2, 3
    histories = 1 + 52 + deals[0] * per_round + deals[1] * ends * per_round \
        + deals[2] * ends**2 * per_round
    assert size.histories == histories == 14_242_107_257
    assert size.decision_points == sum(d * ends**r * decisions for r, d in enumerate(deals))
    assert size.decision_points == 5_274_854_520
    assert size.terminals == (deals[0] * folds + deals[1] * ends * folds
                              + deals[2] * ends**2 * (folds + ends))
    assert size.terminals == 8_956_488_216
    views = [52, 52 * 51, 52 * 51 * 50]  # own card, then the board
    assert size.infosets[0] == sum(v * ends**r * p1_decisions for r, v in enumerate(views))
    assert size.infosets == (53_822_600, 53_822_600)
    assert size.betting_decisions == (10, 90, 810)
    # Two raises after the bet (three bets): Gilpin and Sandholm's "over 3.1 billion nodes"
    # fits either reading; this engine's counts for it:
    assert rhode_island(raises=2).size.histories == 6_705_372_545
    assert game.count_histories() == size.histories


def test_the_full_game_is_refused_by_compile_with_its_count() -> None:
    with pytest.raises(GameTooLargeError, match="14,242,107,257 histories"):
        compile(rhode_island())


def test_a_small_deck_compiles_to_exactly_its_counted_size() -> None:
    game = rhode_island(ranks=3, suits=2, raises=1)
    tree = compile(game)
    size = game.size
    assert tree.n_histories == size.histories
    assert tree.n_terminals == size.terminals
    assert int((tree.player >= 0).sum()) == size.decision_points
    for p in (0, 1):
        assert int((tree.infoset_player == p).sum()) == size.infosets[p]
    payoffs = tree.terminal_payoffs
    assert np.allclose(payoffs.sum(axis=1), 0.0)


def test_a_small_deck_keeps_straights_and_flushes() -> None:
    game = rhode_island(ranks=3, suits=2)  # Q K A in clubs and diamonds
    assert game.deck == tuple(parse_card(c) for c in ("Qc", "Qd", "Kc", "Kd", "Ac", "Ad"))
    state = _play(_deal(game, "Qc", "Qd"), "cc Kc cc Ac cc")
    assert state.returns() == (5.0, -5.0)  # Q-K-A of clubs, a straight flush, beats a straight
    assert "3 ranks x 2 suits" in game.describe()


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("rhode_island(ante=0)", "ante must be a positive integer"),
        ("rhode_island(bets=(10, 20))", "three positive integers"),
        ("rhode_island(raises=-1)", "integer >= 0"),
        ("rhode_island(ranks=14)", "at most 13 ranks and 4 suits"),
        ("rhode_island(ranks=1, suits=3)", "at least 4"),
        ("rhode_island(players=3)", "has no parameter players"),
    ],
)
def test_bad_parameters_say_what_is_allowed(spec: str, words: str) -> None:
    with pytest.raises(SpecError, match=words.replace("(", r"\(").replace(")", r"\)")):
        load(spec)
