"""Tic-tac-toe solved by minimax with alpha-beta, and played by Monte Carlo tree search.

The tutorial's section on game trees (5) uses tic-tac-toe to show search on a game of
perfect information: every subgame can be solved on its own, so minimax reaches the
value (a draw) and MCTS's visit counts approach the minimax moves. Poker breaks this,
since a player's infoset spans several states; that half of the lesson is the Kuhn
determinized-MCTS study. The game is not poker, so it lives here as a study aid, not
among pokerlab.games.

A board is a tuple of 9 cells, 0 empty, 1 for X (who moves first), -1 for O; values
are from X's point of view: +1 X wins, -1 O wins, 0 a draw.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from pokerlab.errors import PokerlabError

Board = tuple[int, ...]

EMPTY: Board = (0,) * 9
LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
)  # fmt: skip


def check_board(board: Board) -> None:
    """Raise a clear error unless the board is 9 cells of 0/1/-1 reachable by alternating moves."""
    if len(board) != 9 or any(cell not in (0, 1, -1) for cell in board):
        raise PokerlabError(f"a tic-tac-toe board is 9 cells of 0, 1 (X) or -1 (O); got {board!r}")
    xs, os_ = board.count(1), board.count(-1)
    if xs - os_ not in (0, 1):
        raise PokerlabError(
            f"X moves first, so X has as many marks as O or one more; got {board!r}"
        )


def to_move(board: Board) -> int:
    """The player to move: 1 (X) when the counts are equal, else -1 (O)."""
    return 1 if board.count(1) == board.count(-1) else -1


def winner(board: Board) -> int:
    """1 or -1 when that player has three in a line, else 0."""
    for a, b, c in LINES:
        if board[a] != 0 and board[a] == board[b] == board[c]:
            return board[a]
    return 0


def is_over(board: Board) -> bool:
    """Whether someone has won or the board is full."""
    return winner(board) != 0 or 0 not in board


def moves(board: Board) -> list[int]:
    """The empty cells, in index order."""
    return [i for i, cell in enumerate(board) if cell == 0]


def play(board: Board, cell: int) -> Board:
    """The board after the player to move marks the given empty cell."""
    if not 0 <= cell < 9 or board[cell] != 0:
        raise PokerlabError(f"cell {cell} is not an empty cell 0..8 of {board!r}")
    return (*board[:cell], to_move(board), *board[cell + 1 :])


@dataclass
class SearchStats:
    """How many positions a search visited: alpha-beta's point is to visit fewer."""

    nodes: int = 0


def minimax(board: Board, *, alpha_beta: bool = True, stats: SearchStats | None = None) -> int:
    """The game value for X from this board, by full-depth minimax (optionally alpha-beta).

    No transposition table, so the node counts show what pruning alone saves.
    """
    check_board(board)
    counter = stats if stats is not None else SearchStats()
    return _search(board, -2, 2, alpha_beta, counter)


def _search(board: Board, alpha: int, beta: int, prune: bool, stats: SearchStats) -> int:
    stats.nodes += 1
    won = winner(board)
    if won != 0 or 0 not in board:
        return won
    maximizing = to_move(board) == 1
    best = -2 if maximizing else 2
    for cell in moves(board):
        value = _search(play(board, cell), alpha, beta, prune, stats)
        if maximizing:
            best = max(best, value)
            alpha = max(alpha, value)
        else:
            best = min(best, value)
            beta = min(beta, value)
        if prune and alpha >= beta:
            break
    return best


def best_moves(board: Board) -> list[int]:
    """Every move that keeps the minimax value for the player to move."""
    check_board(board)
    if is_over(board):
        return []
    target = minimax(board)
    return [cell for cell in moves(board) if minimax(play(board, cell)) == target]


@dataclass
class _Node:
    board: Board
    untried: list[int]
    children: dict[int, _Node] = field(default_factory=dict)
    visits: int = 0
    total: float = 0.0  # sum of results from the view of the player who moved INTO this node


def _uct_child(node: _Node, c: float) -> _Node:
    """The child with the highest UCB1 score: mean result plus an exploration bonus."""
    log_visits = math.log(node.visits)

    def score(child: _Node) -> float:
        return child.total / child.visits + c * math.sqrt(log_visits / child.visits)

    return max(node.children.values(), key=score)


def mcts_move(board: Board, iterations: int, *, seed: int = 0, c: float = 1.4) -> int:
    """The move UCT search picks (most visited) after the given number of playouts.

    Selection by UCB1, expansion of one child, a uniformly random playout, and
    backpropagation of the result from each mover's point of view.
    """
    check_board(board)
    if is_over(board):
        raise PokerlabError(f"the game is over on {board!r}; there is no move to search")
    if iterations < 1:
        raise PokerlabError(f"iterations must be at least 1; got {iterations}")
    rng = random.Random(seed)
    root = _Node(board, moves(board))
    for _ in range(iterations):
        node, path = root, [root]
        while not node.untried and node.children:
            node = _uct_child(node, c)
            path.append(node)
        if node.untried:
            cell = node.untried.pop(rng.randrange(len(node.untried)))
            child = _Node(play(node.board, cell), [])
            child.untried = [] if is_over(child.board) else moves(child.board)
            node.children[cell] = child
            node = child
            path.append(node)
        playout = node.board
        while not is_over(playout):
            playout = play(playout, rng.choice(moves(playout)))
        result = winner(playout)
        for visited in path:
            visited.visits += 1
            mover = -to_move(visited.board)  # who made the move into this node
            visited.total += 1.0 if result == mover else 0.0 if result == -mover else 0.5
    return max(root.children, key=lambda cell: root.children[cell].visits)


def mcts_self_play(iterations: int, *, seed: int = 0) -> tuple[Board, int]:
    """Both sides play MCTS moves from the empty board; the final board and its winner."""
    board = EMPTY
    turn = 0
    while not is_over(board):
        board = play(board, mcts_move(board, iterations, seed=seed + turn))
        turn += 1
    return board, winner(board)
