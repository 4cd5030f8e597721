"""The tutorial's section 5 (trees in games): tic-tac-toe solved by search is a draw."""

from __future__ import annotations

import pytest

from pokerlab.errors import PokerlabError
from pokerlab.studies import tictactoe as ttt


def test_empty_board_is_a_draw_and_alpha_beta_agrees_with_fewer_nodes() -> None:
    plain, pruned = ttt.SearchStats(), ttt.SearchStats()
    assert ttt.minimax(ttt.EMPTY, alpha_beta=False, stats=plain) == 0
    assert ttt.minimax(ttt.EMPTY, alpha_beta=True, stats=pruned) == 0
    assert plain.nodes == 549946  # the full tic-tac-toe game tree, every position once per path
    assert pruned.nodes < plain.nodes / 10
    assert pruned.nodes == 18297  # docs/tutorial.md section 5: alpha-beta visits 18297 positions


def test_minimax_finds_wins_and_the_only_block() -> None:
    # X to move with two in the top row wins at once; O must block there.
    x_wins = (1, 1, 0, -1, -1, 0, 0, 0, 0)
    assert ttt.minimax(x_wins) == 1
    assert ttt.best_moves(x_wins) == [2]
    o_blocks = (1, 1, 0, 0, -1, 0, 0, 0, 0)
    assert ttt.best_moves(o_blocks) == [2]


@pytest.mark.parametrize("board", [(0,) * 8, (2,) + (0,) * 8, (-1,) + (0,) * 8, (1, 1) + (0,) * 7])
def test_impossible_boards_are_refused(board: tuple[int, ...]) -> None:
    with pytest.raises(PokerlabError, match=r"tic-tac-toe|X moves first"):
        ttt.minimax(board)


def test_mcts_takes_the_win_and_blocks() -> None:
    assert ttt.mcts_move((1, 1, 0, -1, -1, 0, 0, 0, 0), 300) == 2
    assert ttt.mcts_move((1, 1, 0, 0, -1, 0, 0, 0, 0), 600) == 2


@pytest.mark.slow
def test_mcts_self_play_draws() -> None:
    board, won = ttt.mcts_self_play(1500, seed=3)
    assert won == 0
    assert 0 not in board
