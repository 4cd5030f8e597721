"""Hand-written Hold'em hands: side pots, split pots, odd chips, folds, uncalled bets."""

from __future__ import annotations

from collections.abc import Sequence

from pokerlab._types import CHANCE, TERMINAL
from pokerlab.cards import parse_cards
from pokerlab.games.holdem import CALL, FOLD, HoldemGame, HoldemState, Pot, holdem


def run_hand(
    game: HoldemGame, holes: Sequence[str], board: str, moves: str = ""
) -> HoldemState:
    """Deal ``holes`` (one string per player) and ``board``, then play ``moves``.

    Moves are space-separated: ``f`` fold, ``c`` check or call, ``r50`` raise to 50 (limit:
    ``r``). Chance nodes in between deal the given cards in order.
    """
    n = game.n_players
    cards = [parse_cards(h) for h in holes]
    deck = [cards[p][0] for p in range(n)] + [cards[p][1] for p in range(n)]
    deck += list(parse_cards(board))
    state = game.initial_state()
    for move in [*moves.split(), None]:
        while state.player == CHANCE:
            state = state.child(deck[len(state.hole) + len(state.board)])
        if move is None:
            break
        if move == "f":
            state = state.child(FOLD)
        elif move == "c":
            state = state.child(CALL)
        else:
            amount = move[1:]
            if amount:
                state = state.child(state.action_for_raise_to(int(amount)))
            else:
                bounds = state.raise_range()
                assert bounds is not None
                state = state.child(state.action_for_raise_to(bounds[0]))
    return state


def test_heads_up_uncalled_bet_is_returned() -> None:
    game = holdem(stack=100)
    # Player 1 (button) raises to 6, player 0 calls; flop: check, bet 10, fold.
    state = run_hand(game, ["2c3d", "AhAd"], "7s8s9h", "r6 c c r10 f")
    assert state.player == TERMINAL
    assert state.committed == (6, 6)
    settlement = state.settle()
    assert settlement.pots == (Pot(12, (1,), (1,), (12,)),)
    assert state.returns() == (-6.0, 6.0)


def test_heads_up_all_in_for_less_returns_the_excess() -> None:
    game = holdem(stack=(50, 100))
    state = run_hand(game, ["AhAd", "KcKd"], "2c7d9hTsJc", "r100 c")
    assert state.player == TERMINAL
    settlement = state.settle()
    # Player 1's beaten hand is dead (it cannot win any pot), so only player 0 contends.
    assert settlement.pots == (Pot(100, (0,), (0,), (100,)),)
    assert settlement.final_stacks == (100, 50)
    assert state.returns() == (50.0, -50.0)


def test_three_player_side_pot() -> None:
    # Players: 0 small blind (20 chips), 1 big blind (50), 2 button (100).
    game = holdem(players=3, stack=(20, 50, 100))
    # Button shoves, both blinds call all-in; best hand: 0, then 1, then 2.
    state = run_hand(game, ["AhAd", "KhKd", "QhQd"], "2c7s9cTs3d", "r100 c c")
    assert state.player == TERMINAL
    settlement = state.settle()
    # The button's queens win nothing, so its hand is dead and contends for no pot.
    assert settlement.pots == (
        Pot(60, (0, 1), (0,), (60,)),  # main pot: 20 from each
        Pot(60, (1,), (1,), (60,)),  # side pot: 30 more from players 1 and 2
    )
    assert settlement.final_stacks == (60, 60, 50)  # 50 of the button's 100 were uncalled
    assert state.returns() == (40.0, 10.0, -50.0)


def test_three_player_side_pot_won_by_the_big_stack() -> None:
    game = holdem(players=3, stack=(20, 50, 100))
    state = run_hand(game, ["AhAd", "KhKd", "QhQd"], "Qc7s9cTs3d", "r100 c c")
    settlement = state.settle()
    # The button's set of queens wins both pots; the dead hands take nothing.
    assert [pot.winners for pot in settlement.pots] == [(2,)]
    assert settlement.pots[0].amount == 120
    assert state.returns() == (-20.0, -50.0, 70.0)


def test_fold_to_an_all_in() -> None:
    game = holdem(players=3, stack=100)
    state = run_hand(game, ["2c3d", "4h5s", "AhAd"], "", "r100 f f")
    assert state.player == TERMINAL
    settlement = state.settle()
    assert settlement.showdown == ()
    # 98 of the button's 100 were uncalled and came back; the pot holds 1 + 2 + 2.
    assert state.committed == (1, 2, 2)
    assert settlement.pots == (Pot(5, (2,), (2,), (5,)),)
    assert state.returns() == (-1.0, -2.0, 3.0)
    assert len(state.board) == 0


def test_split_pot_odd_chip_goes_left_of_the_button() -> None:
    # The board is a royal flush: everyone still in splits. The small blind folds, so the
    # pot is 5: 3 to player 1 (first winner left of the button), 2 to the button.
    game = holdem(players=3, stack=100)
    state = run_hand(
        game, ["2c3d", "4h5h", "6c8d"], "AsKsQsJsTs", "c f c c c c c c c"
    )
    settlement = state.settle()
    assert settlement.pots == (Pot(5, (1, 2), (1, 2), (3, 2)),)
    assert state.returns() == (-1.0, 1.0, 0.0)


def test_three_way_split_gives_every_odd_chip_to_the_first_winner() -> None:
    # pokerkit's rule: the whole remainder goes to the first winner left of the button.
    game = holdem(players=4, stack=100, ante=1)
    moves = "c c f c " + "c c c " * 3
    state = run_hand(game, ["2c3d", "4h5h", "6c8d", "7c9d"], "AsKsQsJsTs", moves)
    settlement = state.settle()
    assert settlement.pots == (Pot(11, (1, 2, 3), (1, 2, 3), (5, 3, 3)),)
    assert state.returns() == (-2.0, 2.0, 0.0, 0.0)


def test_heads_up_split_pot() -> None:
    game = holdem(stack=100)
    state = run_hand(game, ["2c3d", "2h3h"], "AsKsQsJs9d", "r7 c c c c c c c")
    settlement = state.settle()
    assert settlement.pots == (Pot(14, (0, 1), (0, 1), (7, 7)),)
    assert state.returns() == (0.0, 0.0)


def test_short_all_in_raise_does_not_reopen_the_betting() -> None:
    # Player 2 (button, 100) raises to 10; player 0 (small blind, 14 chips) goes all-in to
    # 14, 4 more: less than a full raise of 8. Player 1 has not acted and may re-raise;
    # once it only calls, the button, who already acted, may only call or fold.
    game = holdem(players=3, stack=(14, 100, 100))
    state = run_hand(game, ["2c3d", "4h5h", "6c8d"], "", "r10 r14")
    assert state.player == 1
    assert state.raise_range() == (22, 100)
    state = state.child(CALL)
    assert state.player == 2
    assert state.raise_range() is None
    assert state.legal_actions() == (FOLD, CALL)


def test_blinds_posted_all_in() -> None:
    # The big blind has one chip: it posts it all-in; the small blind may still complete.
    game = holdem(players=3, stack=(100, 1, 100))
    state = run_hand(game, ["AhAd", "KhKd", "QhQd"], "2c7s9cTs3d", "c c c")
    assert state.committed[1] == 1
    assert state.to_call(0) == 0
    settlement = state.settle() if state.player == TERMINAL else None
    assert settlement is None  # the others still bet the flop
