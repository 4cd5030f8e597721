"""Rhode Island Hold'em as a public game: suit isomorphism (lossless) plus the range solver.

The game has 14.2 billion histories, too many to compile; but its betting never depends
on the cards, and its private information is one card per player. So it factors into a
*public tree* (the betting and the two board cards, which both players see) times a
vector over each player's 52 possible cards, and the range solver
(:mod:`pokerlab.subgame.range_solver`) runs Discounted CFR on it, settling folds and
showdowns in ``O(cards)`` with card removal.

The card abstraction is lossless, in the sense of Gilpin and Sandholm's GameShrink: only
strategically identical deals are merged, namely those that differ by a permutation of
the suits (nothing in the rules names a suit; a flush only asks that three suits agree).

1. Before the flop, all four suits are interchangeable: the flop is dealt as one card of
   each rank in the first suit; a flop of rank ``r`` in suit ``s`` reuses that subtree
   through the suit transposition ``(0 s)`` applied to the hands (13 flops, not 52).
2. After a first-suit flop, the other three suits are interchangeable: the turn is one
   card of each rank in the first two suits; a turn in suit ``s >= 2`` reuses the
   second-suit subtree through ``(1 s)`` (25 turns per flop, not 51).

That cuts the public tree from 5.8 million nodes to 713,961 (the full game's 14.2e9
histories become 714k public nodes x 52 cards). Values computed this way are the full
game's exactly for strategies that treat isomorphic deals alike: the solver's do up to
rounding (every update is suit-symmetric), and :func:`symmetric_arrays` removes the
rounding. A state of the full game maps onto the tree through
:meth:`RhodeIslandPublic.canonical` (what :class:`RhodeIslandStrategy` does when it plays).

Exploitability is exact: each player's best response to the other's average strategy,
computed on the same tree by vectors over cards (the largest action value per card at the
player's nodes), in four passes.

References:
    A. Gilpin and T. Sandholm, "Lossless abstraction of imperfect information games",
    JACM 54(5), 2007 ("Finding equilibria in large sequential games of imperfect
    information", EC 2006). J. Shi and M. Littman, "Abstraction methods for game
    theoretic poker", CG 2000.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from pokerlab._types import CHANCE, TERMINAL, Action, FloatArray, IntArray
from pokerlab.cards.card import card_str, parse_card
from pokerlab.cards.three_card import three_card_values
from pokerlab.errors import FileFormatError
from pokerlab.games import GameSpec, load
from pokerlab.games.observation import Observation
from pokerlab.games.rhode_island import RhodeIslandGame, RhodeIslandState
from pokerlab.solvers.checkpoint import read_checkpoint
from pokerlab.strategy.policy import Policy
from pokerlab.strategy.strategy import Strategy
from pokerlab.subgame.checkpoint import load_range_checkpoint
from pokerlab.subgame.holdem_hands import TRANSPOSITIONS, swap_card
from pokerlab.subgame.public_tree import (
    CHANCE_NODE,
    COL_BOARD,
    COL_CARD,
    COL_CHIPS_0,
    COL_CHIPS_1,
    COL_COUNT,
    COL_FACTOR,
    COL_FIRST,
    COL_ISO_END,
    COL_ISO_START,
    COL_KIND,
    COL_PARENT,
    COL_PLAYER,
    COL_ROW,
    DECISION,
    FOLD_NODE,
    N_INT_COLUMNS,
    SHOWDOWN,
    HandSpace,
    PublicGame,
    PublicTree,
    estimate_solver_bytes,
    make_public_game,
)
from pokerlab.subgame.range_solver import RangeSolver

_LETTERS = "fcr"


@dataclass(frozen=True)
class _Skeleton:
    """One deal's betting tree (stand-in cards), each chance node with one child.

    Lists by skeleton node: kind, player (acting, or who folded), chips in, the betting
    letter and name of the edge in, the round (board cards out), children.
    """

    kind: list[int]
    player: list[int]
    chips: list[tuple[float, float]]
    letter: list[str]
    label: list[str]
    round: list[int]
    children: list[list[int]]


def _skeleton(game: RhodeIslandGame) -> _Skeleton:
    deck = game.deck
    out = _Skeleton([], [], [], [], [], [], [])

    def add(state: RhodeIslandState, letter: str, label: str) -> int:
        index = len(out.kind)
        player = state.to_act
        if player == TERMINAL:
            kind = FOLD_NODE if state.folded >= 0 else SHOWDOWN
            player = state.folded
        elif player == CHANCE:
            kind, player = CHANCE_NODE, -1
        else:
            kind = DECISION
        out.kind.append(kind)
        out.player.append(player)
        out.chips.append(state.contributions()[:2])  # type: ignore[arg-type]
        out.letter.append(letter)
        out.label.append(label)
        out.round.append(len(state.board))
        out.children.append([])
        if kind == CHANCE_NODE:  # the betting after it is the same whatever the card
            out.children[index].append(add(state._apply(deck[2 + len(state.board)]), "", ""))
        elif kind == DECISION:
            for action in state.legal_actions():
                child = add(state._apply(action), _LETTERS[action], state.action_name(action))
                out.children[index].append(child)
        return index

    add(game.initial_state()._apply(deck[0])._apply(deck[1]), "", "")
    return out


@dataclass(frozen=True, eq=False, repr=False)
class RhodeIslandPublic:
    """A Rhode Island game with its public game (what the range solver runs on).

    Attributes:
        game: the Rhode Island game.
        public: the public game: hands are the deck's cards, in deck order, for both players.
        isomorphism: True when suit-isomorphic flops and turns share subtrees.
        boards: ``[B, 2]`` the (flop, turn) of each showdown board index (row 0: none).
    """

    game: RhodeIslandGame
    public: PublicGame
    isomorphism: bool
    boards: IntArray

    def __repr__(self) -> str:
        iso = "" if self.isomorphism else ", no isomorphism"
        return (f"<RhodeIslandPublic {self.game.spec}: {self.public.tree.n_nodes:,} public "
                f"nodes{iso}>")

    @cached_property
    def hand_index(self) -> dict[int, int]:
        """The hand (row of the solver's arrays) of each card."""
        return {card: h for h, card in enumerate(self.game.deck)}

    @cached_property
    def node_of_key(self) -> dict[str, int]:
        """The public node of each public history key (decision nodes)."""
        kinds = self.public.tree.nodes[:, COL_KIND]
        keys = self.public.tree.keys
        return {keys[int(n)]: int(n) for n in np.flatnonzero(kinds == DECISION)}

    def canonical(self, board: tuple[int, ...]) -> tuple[int, ...]:
        """The suit permutation (``perm[suit]`` = its image) that maps ``board`` on the tree.

        The identity without isomorphism; otherwise it sends the flop to the first suit,
        then a turn outside the first two suits to the second (module docstring).
        """
        perm = [0, 1, 2, 3]
        if not self.isomorphism or not board:
            return tuple(perm)
        flop_suit = board[0] % 4
        perm[0], perm[flop_suit] = flop_suit, 0
        if len(board) > 1:
            turn_suit = perm[board[1] % 4]
            if turn_suit >= 2:  # then (1 turn_suit): the suit sent to 1 goes to turn_suit
                to_turn, to_one = perm.index(turn_suit), perm.index(1)
                perm[to_turn] = 1
                perm[to_one] = turn_suit
        return tuple(perm)

    def public_key(self, rounds: tuple[str, ...], board: tuple[int, ...]) -> str:
        """The key of the public node after ``rounds`` of betting and ``board`` (canonical)."""
        perm = self.canonical(board)
        key = rounds[0]
        for r, card in enumerate(board):
            mapped = card - card % 4 + perm[card % 4]
            key += f"|{card_str(mapped)}|" + (rounds[r + 1] if r + 1 < len(rounds) else "")
        return key

    def locate(self, state: RhodeIslandState) -> tuple[int, int]:
        """``(public node, hand)`` of the player to act at ``state`` (on the tree)."""
        perm = self.canonical(state.board)
        card = state.hole[state.to_act]
        mapped = card - card % 4 + perm[card % 4]
        return self.node_of_key[self.public_key(state.rounds, state.board)], \
            self.hand_index[mapped]


def symmetric_arrays(built: RhodeIslandPublic, probs: tuple[FloatArray, FloatArray]
                     ) -> tuple[FloatArray, FloatArray]:
    """``probs`` made exactly suit-symmetric (interchangeable cards get their mean row).

    Cards of one rank whose suits the board does not tell apart are interchangeable. The
    tree's values are the full game's exactly for suit-symmetric profiles (module
    docstring). The solver's own strategies are symmetric up to rounding (its updates are);
    this removes the rounding, so that an exploitability measured on the tree is exact for
    a well-defined strategy of the full game. Before the flop every suit is free; on a
    first-suit flop the other suits are; on the turn, the suits that are neither the flop's
    nor the turn's. Without isomorphism the arrays are returned as they are (copied).
    """
    out = (probs[0].copy(), probs[1].copy())
    if not built.isomorphism:
        return out
    game = built.game
    tree = built.public.tree
    ranks = sorted({card >> 2 for card in game.deck})
    groups: dict[tuple[int, ...], list[int]] = {}  # fixed suits -> rows of every node
    rows_of: tuple[dict[tuple[int, ...], list[int]], ...] = ({}, {})
    for p in (0, 1):
        for node in tree.decision_nodes(p):
            board = [parse_card(text) for text in tree.keys[int(node)].split("|")[1::2]]
            fixed = tuple(sorted({card % 4 for card in board}))
            row = tree.row(int(node))
            rows_of[p].setdefault(fixed, []).extend(
                range(row, row + len(tree.children(int(node)))))
            groups.setdefault(fixed, [])
    index = built.hand_index
    for fixed in groups:
        free = [suit for suit in range(game.suits) if suit not in fixed]
        if len(free) < 2:
            continue
        classes = [[index[rank * 4 + suit] for suit in free] for rank in ranks]
        for p in (0, 1):
            rows = np.asarray(rows_of[p].get(fixed, []), dtype=np.int64)
            if rows.size == 0:
                continue
            block = out[p][rows]
            for hands in classes:
                block[:, hands] = block[:, hands].mean(axis=1, keepdims=True)
            out[p][rows] = block
    return out


# -- building -------------------------------------------------------------------------------
def _card_groups(game: RhodeIslandGame, isomorphism: bool, dealt: tuple[int, ...],
                 fixed_suits: int) -> tuple[list[int], list[tuple[int, int, int]]]:
    """The cards a chance node deals as children, and ``(card, representative, swap)``.

    With isomorphism the suits ``fixed_suits..`` are interchangeable: each rank keeps its
    card of suit ``fixed_suits`` (the others borrow its subtree by a transposition).
    """
    cards = [c for c in game.deck if c not in dealt]
    if not isomorphism:
        return cards, []
    reps = [c for c in cards if c % 4 <= fixed_suits]
    isomorphic = []
    for c in cards:
        if c % 4 > fixed_suits:
            swap = TRANSPOSITIONS.index((fixed_suits, c % 4))
            isomorphic.append((c, swap_card(c, swap), swap))
    return reps, isomorphic


def rhode_island_public_game(game: RhodeIslandGame, *, isomorphism: bool = True
                             ) -> RhodeIslandPublic:
    """Build the public game of a Rhode Island game (any deck, bets, raises).

    Example:
        >>> from pokerlab.games import rhode_island
        >>> built = rhode_island_public_game(rhode_island(ranks=4, suits=2))
        >>> built.public.tree.n_nodes, built.public.n_hands
        (62235, (8, 8))
        >>> public_size(rhode_island()).n_nodes   # the full game's, without building it
        713961
    """
    skeleton = _skeleton(game)
    deck_size = len(game.deck)
    factors = (1.0 / (deck_size - 2), 1.0 / (deck_size - 3))
    # Nodes in parent-first order, a node's children contiguous, a subtree's nodes close
    # together (depth first by blocks of siblings, as build_public_tree lays them out).
    skel: list[int] = [0]
    parent: list[int] = [-1]
    board: list[tuple[int, ...]] = [()]
    edge_card: list[int] = [-1]
    keys: list[str] = [""]
    labels: list[str] = [""]
    first: list[int] = [-1]
    count: list[int] = [0]
    iso_rows: list[tuple[int, int, int]] = []
    iso_span: dict[int, tuple[int, int]] = {}
    groups: dict[tuple[int, ...], tuple[list[int], list[tuple[int, int, int]]]] = {}
    stack = [0]
    while stack:
        node = stack.pop()
        s = skel[node]
        start = len(skel)
        if skeleton.kind[s] == CHANCE_NODE:
            dealt = board[node]
            if dealt not in groups:
                groups[dealt] = _card_groups(game, isomorphism, dealt, len(dealt))
            reps, isomorphic = groups[dealt]
            child = skeleton.children[s][0]
            for card in reps:
                name = card_str(card)
                skel.append(child)
                parent.append(node)
                board.append((*dealt, card))
                edge_card.append(card)
                keys.append(f"{keys[node]}|{name}|")
                labels.append(name)
                first.append(-1)
                count.append(0)
            where = {card: start + k for k, card in enumerate(reps)}
            iso_span[node] = (len(iso_rows), len(iso_rows) + len(isomorphic))
            iso_rows.extend((where[rep], card, swap) for card, rep, swap in isomorphic)
        else:
            for child in skeleton.children[s]:
                skel.append(child)
                parent.append(node)
                board.append(board[node])
                edge_card.append(-1)
                keys.append(keys[node] + skeleton.letter[child])
                labels.append(skeleton.label[child])
                first.append(-1)
                count.append(0)
        if len(skel) > start:
            first[node] = start
            count[node] = len(skel) - start
            stack.extend(range(len(skel) - 1, start - 1, -1))
    tree, boards = _flatten(game, skeleton, skel, parent, board, edge_card, first, count,
                            iso_rows, iso_span, keys, labels, factors)
    hands = HandSpace(np.array([[c, -1] for c in game.deck], dtype=np.int64),
                      np.ones(deck_size), tuple(card_str(c) for c in game.deck))
    strength = _strengths(game, boards)
    swaps = _swaps(game)
    public = make_public_game(
        tree, (hands, hands), 52, (strength, strength), (swaps, swaps),
        pot=float(2 * game.ante),
        description=str(game.spec) + ("" if isomorphism else " (no isomorphism)"),
        source={"kind": "rhode_island", "game": game.spec.to_dict(),
                "isomorphism": isomorphism},
    )
    return RhodeIslandPublic(game, public, isomorphism, boards)


def _flatten(game: RhodeIslandGame, skeleton: _Skeleton, skel: list[int], parent: list[int],
             board: list[tuple[int, ...]], edge_card: list[int], first: list[int],
             count: list[int], iso_rows: list[tuple[int, int, int]],
             iso_span: dict[int, tuple[int, int]], keys: list[str], labels: list[str],
             factors: tuple[float, float]) -> tuple[PublicTree, IntArray]:
    """The :class:`PublicTree` arrays of the laid-out nodes, and the showdown boards."""
    n = len(skel)
    ids = np.asarray(skel, dtype=np.int64)
    kind = np.asarray(skeleton.kind, dtype=np.int64)[ids]
    player = np.asarray(skeleton.player, dtype=np.int64)[ids]
    nodes = np.full((n, N_INT_COLUMNS), -1, dtype=np.int64)
    nodes[:, COL_KIND] = kind
    nodes[:, COL_PLAYER] = player
    nodes[:, COL_FIRST] = first
    nodes[:, COL_COUNT] = count
    nodes[:, COL_CARD] = edge_card
    nodes[:, COL_PARENT] = parent
    nodes[:, COL_BOARD] = 0
    board_ids: dict[tuple[int, ...], int] = {(): 0}
    for node in np.flatnonzero(kind == SHOWDOWN):
        nodes[node, COL_BOARD] = board_ids.setdefault(board[node], len(board_ids))
    boards = np.full((len(board_ids), 2), -1, dtype=np.int64)
    for cards, index in board_ids.items():
        boards[index, : len(cards)] = cards
    rows = [0, 0]
    for p in (0, 1):
        mine = np.flatnonzero((kind == DECISION) & (player == p))
        widths = nodes[mine, COL_COUNT]
        nodes[mine, COL_ROW] = np.concatenate([[0], np.cumsum(widths)[:-1]])
        rows[p] = int(widths.sum())
    for chance, (start, end) in iso_span.items():
        nodes[chance, COL_ISO_START] = start
        nodes[chance, COL_ISO_END] = end
    chips = np.asarray(skeleton.chips, dtype=np.float64)[ids]
    amounts = np.zeros((n, 3))
    amounts[:, COL_CHIPS_0] = chips[:, 0]
    amounts[:, COL_CHIPS_1] = chips[:, 1]
    amounts[:, COL_FACTOR] = 1.0
    dealt_here = np.asarray(edge_card) >= 0
    depth = np.asarray([len(b) for b in board], dtype=np.int64)
    amounts[dealt_here & (depth == 1), COL_FACTOR] = factors[0]
    amounts[dealt_here & (depth == 2), COL_FACTOR] = factors[1]
    isomorphic = np.asarray(iso_rows, dtype=np.int64).reshape(len(iso_rows), 3)
    for array in (nodes, amounts, isomorphic):
        array.setflags(write=False)
    tree = PublicTree(nodes=nodes, amounts=amounts, isomorphic=isomorphic, labels=tuple(labels),
                      keys=tuple(keys), n_rows=(rows[0], rows[1]))
    return tree, boards


def _strengths(game: RhodeIslandGame, boards: IntArray) -> IntArray:
    """``[B, H]``: each card's three-card value on each board (-1 where it is on the board)."""
    deck = np.asarray(game.deck, dtype=np.int64)
    out = np.full((boards.shape[0], deck.shape[0]), -1, dtype=np.int64)
    for b in range(1, boards.shape[0]):
        flop, turn = int(boards[b, 0]), int(boards[b, 1])
        hands = np.stack([deck, np.full_like(deck, flop), np.full_like(deck, turn)], axis=1)
        values = three_card_values(hands)
        out[b] = np.where((deck == flop) | (deck == turn), -1, values)
    return out


def _swaps(game: RhodeIslandGame) -> IntArray:
    """``[6, H]``: each hand's image under each suit transposition (itself off the deck)."""
    index = {card: h for h, card in enumerate(game.deck)}
    out = np.empty((len(TRANSPOSITIONS), len(game.deck)), dtype=np.int64)
    for t in range(len(TRANSPOSITIONS)):
        for h, card in enumerate(game.deck):
            out[t, h] = index.get(swap_card(card, t), h)
    return out


# -- size, before building --------------------------------------------------------------------
@dataclass(frozen=True)
class PublicSize:
    """The public tree's size and the solver's memory, known before anything is built.

    Attributes:
        n_nodes: public nodes.
        n_rows: rows (node-action pairs) of each player's arrays.
        n_hands: cards each player may hold.
        bytes: the solver's arrays in float64 (regrets, strategy sums, work vectors).
        abstract_infosets: per player, the (decision node, card) pairs of the tree whose
            card is off the board: the infosets of the abstracted game.
    """

    n_nodes: int
    n_rows: tuple[int, int]
    n_hands: int
    bytes: int
    abstract_infosets: tuple[int, int]

    def describe(self) -> str:
        """The size in one line."""
        return (f"public tree: {self.n_nodes:,} nodes, {self.n_rows[0]:,} + {self.n_rows[1]:,} "
                f"rows x {self.n_hands} cards; abstract infosets {self.abstract_infosets[0]:,} + "
                f"{self.abstract_infosets[1]:,}; solver memory at most {self.bytes / 1e6:,.0f} "
                "MB (float64)")


def public_size(game: RhodeIslandGame, *, isomorphism: bool = True) -> PublicSize:
    """The public tree's size without building it (one deal's betting tree, weighed)."""
    skeleton = _skeleton(game)
    flops, _ = _card_groups(game, isomorphism, (), 0)
    turns = sum(len(_card_groups(game, isomorphism, (f,), 1)[0]) for f in flops)
    boards = (1, len(flops), turns)
    nodes = 0
    rows = [0, 0]
    infosets = [0, 0]
    cards_left = (len(game.deck), len(game.deck) - 1, len(game.deck) - 2)
    for s, kind in enumerate(skeleton.kind):
        r = skeleton.round[s]
        nodes += boards[r]
        if kind == DECISION:
            p = skeleton.player[s]
            rows[p] += boards[r] * len(skeleton.children[s])
            infosets[p] += boards[r] * cards_left[r]
    hands = len(game.deck)
    # every node counted with work rows of its own: an upper bound of the compact layout
    memory = estimate_solver_bytes(nodes, (rows[0], rows[1]), (hands, hands))
    return PublicSize(nodes, (rows[0], rows[1]), hands, memory, (infosets[0], infosets[1]))


# -- playing the solution ---------------------------------------------------------------------
@dataclass(frozen=True, eq=False, repr=False)
class RhodeIslandStrategy:
    """A strategy of the full game from the range solver's arrays (a pokerlab policy).

    Each decision of the full game is answered by its isomorphic node and card of the
    public tree (:meth:`RhodeIslandPublic.locate`).

    Attributes:
        built: the public game the arrays belong to.
        probs: each player's strategy, ``[rows, hands]`` (``RangeSolver.average_arrays``).
    """

    built: RhodeIslandPublic
    probs: tuple[FloatArray, FloatArray]

    def __repr__(self) -> str:
        return f"<RhodeIslandStrategy of {self.built!r}>"

    @property
    def game(self) -> RhodeIslandGame:
        """The game the strategy plays."""
        return self.built.game

    def probabilities(self, state: RhodeIslandState) -> dict[Action, float]:
        """``{action: probability}`` over the legal actions of the player to act."""
        node, hand = self.built.locate(state)
        row = self.built.public.tree.row(node)
        legal = state.legal_actions()
        column = self.probs[state.to_act][row : row + len(legal), hand]
        return {action: float(p) for action, p in zip(legal, column, strict=True)}

    def action_probabilities(self, observation: Observation) -> Mapping[Action, float]:
        """``{action: probability}`` at an observation (parsed from its infoset key)."""
        return self.probabilities(state_of_key(self.game, observation.infoset_key,
                                               observation.seat))


def policy_arrays(built: RhodeIslandPublic, policy: Policy) -> tuple[FloatArray, FloatArray]:
    """A policy of the full game as the solver's arrays ``[rows, hands]`` (each player).

    Each (decision node, card) of the tree asks the policy at a state with that history
    and card (cards on the board get a uniform row: they are never held there). On a tree
    with isomorphism this is exact for suit-symmetric policies only (a representative's
    answer stands for its isomorphic deals); without, for every policy. One question per
    (node, card): meant for small decks.
    """
    game = built.game
    tree = built.public.tree
    out = []
    for p in (0, 1):
        probs = np.zeros((tree.n_rows[p], built.public.n_hands[p]))
        for node in tree.decision_nodes(p):
            row = tree.row(int(node))
            width = len(tree.children(int(node)))
            parts = tree.keys[int(node)].split("|")
            board = tuple(parse_card(text) for text in parts[1::2])
            for h, card in enumerate(game.deck):
                if card in board:
                    probs[row : row + width, h] = 1.0 / width
                    continue
                key = "|".join([card_str(card), *(["".join(parts[1::2])] if board else []),
                                *parts[0::2]])
                state = state_of_key(game, key, p)
                answer = _answer(policy, state)
                probs[row : row + width, h] = [answer.get(a, 0.0) for a in state.legal_actions()]
        out.append(probs)
    return out[0], out[1]


def _answer(policy: Policy, state: RhodeIslandState) -> Mapping[Action, float]:
    """The policy's distribution at ``state`` (tables are read by key, without replaying)."""
    if isinstance(policy, RhodeIslandStrategy):
        return policy.probabilities(state)
    if isinstance(policy, Strategy):
        return policy.probabilities(state.infoset_key(state.to_act))
    return policy.action_probabilities(state.observation(state.to_act))


def state_of_key(game: RhodeIslandGame, key: str, seat: int) -> RhodeIslandState:
    """A state of ``game`` with ``seat`` to act whose infoset key is ``key``.

    The other player's card is a stand-in (any card left): the answer depends only on what
    ``seat`` sees.
    """
    parts = key.split("|")
    hole = parse_card(parts[0])
    board: tuple[int, ...] = ()
    rounds = parts[1:]
    if len(parts) > 2:
        text = parts[1]
        board = tuple(parse_card(text[i : i + 2]) for i in range(0, len(text), 2))
        rounds = parts[2:]
    other = next(c for c in game.deck if c != hole and c not in board)
    state = game.initial_state()
    for card in (hole, other) if seat == 0 else (other, hole):
        state = state._apply(card)
    for r, letters in enumerate(rounds):
        if r > 0:
            state = state._apply(board[r - 1])
        for letter in letters:
            state = state._apply(_LETTERS.index(letter))
    return state


# -- files ------------------------------------------------------------------------------------
def load_rhode_island(path: str | Path) -> tuple[RhodeIslandPublic, RangeSolver]:
    """The public game and the solver saved in a range checkpoint of a Rhode Island game.

    ``pokerlab solve rhode_island --out FILE`` writes one: the regrets and strategy sums of
    both players (the average strategy is :meth:`RangeSolver.average_arrays`), resumable.

    Raises:
        FileFormatError: a missing or damaged file, or a checkpoint of another game.
    """
    header, _ = read_checkpoint(path, kind="range")
    source = header.get("source")
    if not isinstance(source, dict) or source.get("kind") != "rhode_island":
        raise FileFormatError(f"{str(path)!r} is not a checkpoint of a Rhode Island game "
                              f"(its source: {source!r})")
    game = load(GameSpec.from_dict(source["game"]))
    if not isinstance(game, RhodeIslandGame):
        raise FileFormatError(f"{str(path)!r} names {game.spec}, not a Rhode Island game")
    built = rhode_island_public_game(game, isomorphism=bool(source.get("isomorphism", True)))
    return built, load_range_checkpoint(path, game=built.public)


__all__ = [
    "PublicSize",
    "RhodeIslandPublic",
    "RhodeIslandStrategy",
    "load_rhode_island",
    "policy_arrays",
    "public_size",
    "rhode_island_public_game",
    "state_of_key",
    "symmetric_arrays",
]
