"""Hold'em spots: a board, two weighted ranges, a pot, a stack and bet sizes, as a public game.

A spot starts on the flop, turn or river with ``pot`` chips in the middle (half from each
player) and ``stack`` chips behind each; OOP (player 0) acts first on every street. The
sizes are a :class:`~pokerlab.games.bet_sizes.BetMenu` (the Rust postflop solver's
notation and options: bets, raises, donk bets, add-all-in, force-all-in and merging
thresholds, a raise cap) and the betting is the engine's: the tree's sequences come from
:func:`pokerlab.games.betting_sequences.enumerate_betting` on Hold'em's own betting nodes
(a heads-up no-limit game with a 1-chip minimum bet, started on the spot's street). When a
street ends before the river, a chance node deals the next card, uniformly among the cards
that neither the board nor the two hands hold (``1 / (52 - board - 4)`` each); after an
all-in is called the remaining cards are dealt without betting.

Suit isomorphism: at a chance node, a card whose suit is interchangeable with a lower suit
(the board holds the same ranks in both, and swapping them leaves both ranges unchanged)
gets no subtree of its own: it reuses the subtree of the same rank in the lower suit,
through the swap of the hands (:mod:`pokerlab.subgame.holdem_hands`). A rainbow flop
rarely allows it; two-tone and monotone flops, and turns that pair no suit, often do.

The size of the tree and of the solver's arrays are computed before anything large is
built (:meth:`Spot.size`), so that a spot that will not fit is refused with the figure.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pokerlab._types import Action
from pokerlab.cards import cards_str, parse_cards
from pokerlab.errors import CardError, GameTooLargeError, SpecError
from pokerlab.games import betting_sequences as sequences
from pokerlab.games.bet_sizes import BetMenu, parse_bet_menu
from pokerlab.games.betting_sequences import BettingGraph, enumerate_betting
from pokerlab.games.holdem_betting import BettingNodeCache
from pokerlab.games.holdem_rules import CALL, FOLD, RAISE, STREET_NAMES, HoldemRules
from pokerlab.subgame.holdem_hands import (
    board_strengths,
    holdem_hands,
    representative,
    suit_swaps,
)
from pokerlab.subgame.public_tree import (
    CHANCE_NODE,
    DECISION,
    FOLD_NODE,
    SHOWDOWN,
    HandSpace,
    NodeSpec,
    PublicGame,
    build_public_tree,
    estimate_solver_bytes,
    make_public_game,
)
from pokerlab.subgame.storage import ITEMSIZES

DEFAULT_MEMORY_LIMIT = 8 * 1024**3
"""Spots whose solver would need more than this (bytes) are refused unless a limit is given."""

BYTES_PER_BOARD_HAND = 30
"""Showdown tables per board and hand: strength (8 bytes), then 16-bit indices: order,
entries by card (two) and eight cuts."""

BYTES_PER_BOARD = 36_500
"""Memory per board beside its tables, while building and after (fitted with
:data:`BYTES_PER_KEPT_NODE` on the flop spots of 100,170 and 1,073,542 nodes, 1,466 boards
each, measured in fresh processes with float64, float32 and compressed storage; a flop
spot of a tiny range keeps 10 MB more for its 1,454 boards than a river). Refitted when
the tables went to 16-bit indices: the tables' share of the peak fell by their 66 bytes
a board and hand, what building a board holds besides did not (the 100,170-node flop's
compressed estimate had fallen to 0.90 of its peak)."""

PROCESS_BYTES = 200 * 10**6
"""A solving process before it builds anything: Python, numpy, numba, its compiled
kernels and pokerlab's command line (measured: 197 MB at the peak of a river spot)."""

BYTES_PER_BUILT_NODE = 800
"""Memory per public node while the tree is built (the node objects, then the arrays)."""

BYTES_PER_KEPT_NODE = 300
"""Memory per public node once built: the tree's arrays and packed names, the solver's
per-node index arrays, and what a report of the root reads (measured on a flop spot of a
million nodes in float32: 2,367 MB at the peak, of which 1,745 MB solver arrays, 64 MB
showdown tables and about 185 MB the process; see :data:`BYTES_PER_BOARD`)."""

STREET_OF_BOARD = {3: 0, 4: 1, 5: 2}
SPOT_STREETS = STREET_NAMES[1:]
"""The streets a spot's sizes may name (the engine's streets 1..3)."""

_NEXT, _FOLD, _END = 0, 1, 2


MAX_BETTING_SITUATIONS = 200_000
"""A spot whose betting alone has more situations than this is refused while it is counted
(before any card: real menus have hundreds; 29 sizes and deep stacks would have billions)."""


@dataclass(frozen=True)
class SpotSize:
    """What solving a spot will take, computed before building it.

    Attributes:
        n_nodes: public nodes (decisions, chances, terminals).
        n_rows: node-action rows of each player's regret arrays.
        n_hands: hands of each player (after card removal by the board).
        n_boards: distinct boards (partial and full) in the tree.
        solver_bytes: regrets, strategy sums and work vectors on one thread (float64; half
            that with float32 storage).
        scratch_bytes: the work vectors each further thread adds (float64).
        table_bytes: showdown tables (strength, order and cuts per board and hand) and
            what else each board holds.
        build_bytes: the peak while the tree is built (node objects and arrays).
        kept_bytes: what stays once it is built, beside the solver's arrays.
    """

    n_nodes: int
    n_rows: tuple[int, int]
    n_hands: tuple[int, int]
    n_boards: int
    solver_bytes: int
    table_bytes: int
    build_bytes: int
    kept_bytes: int
    scratch_bytes: int = 0

    @property
    def bytes(self) -> int:
        """The spot's memory in float64 (see :meth:`bytes_in`)."""
        return self.bytes_in(8)

    def bytes_in(self, itemsize: int, threads: int = 1) -> int:
        """The spot's memory with ``itemsize`` bytes per stored number (8, 4 or 2).

        The larger of the build and the solve (the tree, its tables and the solver's
        arrays on ``threads`` threads, to the report): what memory limits are checked
        against (with one thread: the solver itself checks its own count). 2 is
        compressed storage: 16-bit regrets and sums, float32 work vectors and a float32
        scale per row for each (:func:`~pokerlab.subgame.public_tree.estimate_solver_bytes`).
        """
        solving = self.kept_bytes + self.table_bytes + self.arrays_in(itemsize, threads)
        return max(self.build_bytes, solving)

    def arrays_in(self, itemsize: int, threads: int = 1) -> int:
        """The solver's arrays alone with ``itemsize`` bytes per stored number (8, 4, 2)."""
        work = self.solver_bytes - self.stored_bytes + (max(1, threads) - 1) * self.scratch_bytes
        if itemsize == 2:
            return self.stored_bytes // 4 + work // 2 + 8 * sum(self.n_rows)
        return (self.stored_bytes + work) * itemsize // 8

    @property
    def stored_bytes(self) -> int:
        """The regrets and strategy sums in float64 (the rest of ``solver_bytes`` is work)."""
        return 16 * sum(rows * hands for rows, hands in zip(self.n_rows, self.n_hands,
                                                            strict=True))

    def peak_in(self, itemsize: int, threads: int = 1) -> int:
        """The peak of a process that solves the spot: itself, then :meth:`bytes_in`.

        As ``pokerlab spot solve`` runs it from start to its report (a test checks it
        against a fresh process's measured peak).
        """
        return PROCESS_BYTES + self.bytes_in(itemsize, threads)

    def precision(self, memory_limit: int) -> str | None:
        """The first storage that fits ``memory_limit`` (float64, float32, compressed), or None.

        The same choice as :class:`RangeSolver`'s ``"auto"`` precision.
        """
        for name, itemsize in ITEMSIZES.items():
            if self.bytes_in(itemsize) <= memory_limit:
                return name
        return None

    def describe(self) -> str:
        """One line: nodes, hands and the process's peak with each storage, like for like."""
        return (f"{self.n_nodes:,} public nodes, {self.n_hands[0]:,} x {self.n_hands[1]:,} "
                f"hands, {self.n_boards:,} boards; peak memory about "
                f"{_megabytes(self.peak_in(8))} with float64 storage, "
                f"{_megabytes(self.peak_in(4))} with float32 storage, "
                f"{_megabytes(self.peak_in(2))} compressed to 16 bits "
                f"(of which solver arrays {_megabytes(self.arrays_in(8))}, "
                f"{_megabytes(self.arrays_in(4))} and {_megabytes(self.arrays_in(2))})")


def _megabytes(size: int) -> str:
    if size >= 10**7:
        return f"{size / 1e6:,.0f} MB"
    return f"{size / 1e6:.1f} MB" if size >= 10**6 else f"{size / 1e6:.2f} MB"


@dataclass(frozen=True)
class Spot:
    """A Hold'em spot to solve: board, ranges, pot, stack and the bet tree.

    Args:
        board: 3, 4 or 5 distinct cards, ``"Td9d6hQc2s"``.
        oop: the out-of-position player's (player 0's) weighted range.
        ip: the in-position player's (player 1's) weighted range.
        pot: chips in the pot at the start (half from each player), at least 1.
        stack: chips behind each player at the start, at least 1.
        bets: bet sizes (:mod:`pokerlab.games.bet_sizes`), ``"50%, 100%"``.
        raises: raise sizes, ``"2.5x"``.
        donks: donk-bet sizes (OOP leading after calling the previous street's bet);
            None: OOP's bet sizes.
        add_all_in_threshold: add an all-in where it is at most this many pots (0: never).
        force_all_in_threshold: a size leaving at most this many pots behind after a call
            becomes all-in (0: never).
        merging_threshold: merge sizes closer than this (PioSOLVER's rule; 0: never).
        raise_cap: bets and raises allowed per street (None: until the stacks are in).
        isomorphism: share the subtrees of suit-isomorphic chance cards.

    Raises:
        CardError: a board that cannot be read, repeats a card or has the wrong size; a
            range that cannot be read or has no hand left on the board.
        SpecError: a pot or stack below 1, a bet string that cannot be read, a negative
            threshold or a raise cap below 1.

    ``from_dict`` also reads ``allin_threshold``, the name files written before the force
    and merging thresholds gave ``add_all_in_threshold``.

    Example:
        >>> spot = Spot(board="Td9d6hQc2s", oop="AA, KK", ip="QQ, JJ", pot=100, stack=100,
        ...             bets="100%", raises="")
        >>> spot.size().n_nodes, spot.size().n_hands
        (9, (12, 9))
    """

    board: str
    oop: str
    ip: str
    pot: int
    stack: int
    bets: str = "50%, 100%"
    raises: str = "2.5x"
    donks: str | None = None
    add_all_in_threshold: float = 0.0
    force_all_in_threshold: float = 0.0
    merging_threshold: float = 0.0
    raise_cap: int | None = None
    isomorphism: bool = True
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        cards = parse_cards(self.board)  # CardError names a bad or repeated card
        if len(cards) not in STREET_OF_BOARD:
            raise CardError(f"a spot's board has 3 (flop), 4 (turn) or 5 (river) cards; "
                            f"got {len(cards)} in {self.board!r}")
        for name in ("pot", "stack"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise SpecError(f"a spot's {name} must be a whole number of chips, at least 1; "
                                f"got {value!r}")
        for name in ("raises", "donks"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise SpecError(f"a spot's {name} are a string of sizes; got {value!r}")
        self._cache["menu"] = parse_bet_menu(
            self.bets, self.raises, donks=self.donks, names=SPOT_STREETS, first=1,
            add_all_in_threshold=self.add_all_in_threshold,
            force_all_in_threshold=self.force_all_in_threshold,
            merging_threshold=self.merging_threshold, raise_cap=self.raise_cap,
        )  # fmt: skip
        self._cache["hands"] = (
            holdem_hands(self.oop, cards, who="OOP"),
            holdem_hands(self.ip, cards, who="IP"),
        )

    # -- reading --------------------------------------------------------------------------
    @property
    def board_cards(self) -> tuple[int, ...]:
        """The board's card ids."""
        return parse_cards(self.board)

    @property
    def street(self) -> int:
        """0 for a flop spot, 1 for a turn spot, 2 for a river spot."""
        return STREET_OF_BOARD[len(self.board_cards)]

    @property
    def hands(self) -> tuple[HandSpace, HandSpace]:
        """Each player's hands (combos off the board, with their weights)."""
        hands: tuple[HandSpace, HandSpace] = self._cache["hands"]
        return hands

    def to_dict(self) -> dict[str, Any]:
        """The spot as JSON-ready values (``Spot(**spot.to_dict())`` rebuilds it)."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__
                if not name.startswith("_")}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Spot:
        """Rebuild a spot from :meth:`to_dict`.

        Raises:
            SpecError: if a field is missing or unknown.
        """
        names = {f for f in cls.__dataclass_fields__ if not f.startswith("_")}
        fields = dict(data)
        if "allin_threshold" in fields and "add_all_in_threshold" not in fields:
            fields["add_all_in_threshold"] = fields.pop("allin_threshold")  # older files
        unknown = sorted(set(fields) - names)
        missing = sorted({"board", "oop", "ip", "pot", "stack"} - set(fields))
        if unknown or missing:
            optional = ", ".join(sorted(names - {"board", "oop", "ip", "pot", "stack"}))
            raise SpecError(f"a spot needs board, oop, ip, pot, stack (and may have "
                            f"{optional}); unknown {unknown}, missing {missing}")
        return cls(**fields)

    def describe(self) -> str:
        """One line naming the spot."""
        street = SPOT_STREETS[self.street]
        options = [f"donks {self.donks or '-'}"] if self.donks is not None else []
        options += [f"{name.replace('_', ' ')} {value:g}" for name, value in (
            ("add_all_in_threshold", self.add_all_in_threshold),
            ("force_all_in_threshold", self.force_all_in_threshold),
            ("merging_threshold", self.merging_threshold)) if value]
        return (f"{street} spot {cards_str(self.board_cards)}, pot {self.pot}, stack "
                f"{self.stack}, bets {self.bets or '-'}, raises {self.raises or '-'}"
                + "".join(f", {option}" for option in options))

    # -- the betting ----------------------------------------------------------------------
    @property
    def menu(self) -> BetMenu:
        """The parsed bet sizes and options."""
        menu: BetMenu = self._cache["menu"]
        return menu

    def engine_rules(self) -> HoldemRules:
        """The spot's betting as the engine's numbers: heads-up no-limit, 1-chip minimum bet.

        OOP's share of the pot takes its odd chip (only the total is ever read: sizes and
        the minimum raise; the spot's own chips are ``pot / 2`` each).
        """
        committed = self._start_committed()
        return HoldemRules(
            n_players=2, no_limit=True, small_blind=1, big_blind=1, ante=0,
            starting_stacks=tuple(c + self.stack for c in committed), cap=0,
            posts_blind=(False, False), antes_paid=(0, 0), blinds_paid=(0, 0),
            street_bets=(1,) * len(STREET_NAMES), raise_caps=(None,) * len(STREET_NAMES),
        )  # fmt: skip

    def _start_committed(self) -> tuple[int, int]:
        half = self.pot // 2
        return (self.pot - half, half)

    @property
    def graph(self) -> BettingGraph:
        """The spot's betting situations (the one enumerator on the engine's nodes)."""
        graph: BettingGraph | None = self._cache.get("graph")
        if graph is None:
            cache = BettingNodeCache(self.engine_rules(), budget=0)
            start = cache.street_start(self.street + 1, self._start_committed(),
                                       (self.stack, self.stack))
            graph = self._cache["graph"] = enumerate_betting(
                start, self.menu, max_situations=MAX_BETTING_SITUATIONS)
        return graph

    def _transitions(self, situation: int) -> list[tuple[str, str, int, int]]:
        """``(token, label, kind, next situation)`` for each action at a decision."""
        graph = self.graph
        p = graph.player[situation]
        bets = graph.bets[situation]
        faced = max(bets)
        all_in = bets[p] + graph.behind[situation][p]
        out = []
        action: Action
        for action, child in zip(graph.actions[situation], graph.children[situation],
                                 strict=True):
            if action == FOLD:
                token, label = "f", "fold"
            elif action == CALL:
                token, label = ("c", "call") if faced > bets[p] else ("x", "check")
            else:
                amount = action - RAISE
                token = f"b{amount}" if faced == 0 else f"r{amount}"
                label = (f"all-in {amount}" if amount == all_in
                         else f"bet {amount}" if faced == 0 else f"raise to {amount}")
            kind = graph.kind[child]
            step = (_NEXT if kind == sequences.DECISION
                    else _FOLD if kind == sequences.FOLDED_OUT else _END)
            out.append((token, label, step, child))
        return out

    def _chance_cards(self, board: tuple[int, ...]) -> list[tuple[int, int, int]]:
        """``(card, representative, transposition)`` for each card that can come next."""
        allowed = self._cache.get("allowed")
        if allowed is None:
            symmetric = [suit_swaps(hands)[1] for hands in self.hands]
            allowed = tuple(a and b for a, b in zip(*symmetric, strict=True))
            if not self.isomorphism:
                allowed = (False,) * len(allowed)
            self._cache["allowed"] = allowed
        out = []
        for card in range(52):
            if card not in board:
                rep, swap = representative(card, board, allowed)
                out.append((card, rep, swap))
        return out

    def _n_representatives(self, board: tuple[int, ...]) -> int:
        return sum(1 for _, _, swap in self._chance_cards(board) if swap < 0)

    # -- size -----------------------------------------------------------------------------
    def size(self) -> SpotSize:
        """Count the tree and estimate the memory, without building anything large."""
        cached: SpotSize | None = self._cache.get("size")
        if cached is not None:
            return cached
        memo: dict[tuple[Any, ...], tuple[int, int, int]] = {}
        board = self.board_cards
        nodes, rows0, rows1 = self._count(self.graph.root, board, memo)
        static, span = self._count_layout(self.graph.root, board, memo)
        boards = self._count_boards(board)
        n_hands = (self.hands[0].n_hands, self.hands[1].n_hands)
        size = SpotSize(
            n_nodes=nodes,
            n_rows=(rows0, rows1),
            n_hands=n_hands,
            n_boards=len(boards),
            solver_bytes=estimate_solver_bytes(static + span, (rows0, rows1), n_hands),
            scratch_bytes=estimate_solver_bytes(span, (0, 0), n_hands),
            table_bytes=len(boards) * (BYTES_PER_BOARD_HAND * sum(n_hands) + 2 * 8 * 53
                                       + BYTES_PER_BOARD),
            build_bytes=BYTES_PER_BUILT_NODE * nodes,
            kept_bytes=BYTES_PER_KEPT_NODE * nodes,
        )
        self._cache["size"] = size
        return size

    def _count_boards(self, board: tuple[int, ...]) -> list[int]:
        """The sizes of the boards the tree will hold (one entry per board)."""
        out = [len(board)]
        if len(board) < 5:
            for card, _, swap in self._chance_cards(board):
                if swap < 0:
                    out.extend(self._count_boards((*board, card)))
        return out

    def _count(self, situation: int, board: tuple[int, ...],
               memo: dict[tuple[Any, ...], tuple[int, int, int]]) -> tuple[int, int, int]:
        """(nodes, rows of player 0, rows of player 1) of the subtree at a decision."""
        street = self.graph.street[situation] - 1  # the spot's: 0 flop, 1 turn, 2 river
        key = (situation, board if street == 0 else self._n_representatives(board)
               if street == 1 else None)
        found = memo.get(key)
        if found is not None:
            return found
        nodes, rows = 1, [0, 0]
        transitions = self._transitions(situation)
        rows[self.graph.player[situation]] += len(transitions)
        for _, _, kind, nxt in transitions:
            if kind == _NEXT:
                sub = self._count(nxt, board, memo)
            elif kind == _FOLD:
                sub = (1, 0, 0)
            else:
                sub = self._count_end(nxt, board, memo)
            nodes += sub[0]
            rows[0] += sub[1]
            rows[1] += sub[2]
        memo[key] = (nodes, rows[0], rows[1])
        return memo[key]

    def _count_layout(self, situation: int, board: tuple[int, ...],
                      memo: dict[tuple[Any, ...], tuple[int, int, int]]) -> tuple[int, int]:
        """``(rows of their own, rows of a scratch area)`` of the solver's work arrays.

        As :meth:`~pokerlab.subgame.public_tree.PublicTree.work_rows` will count them on
        one thread: the nodes of the spot's first street and its first chance nodes, one
        row per card dealt there (the units' roots), and the largest unit less its root.
        """
        static, span = 1, 0
        for _, _, kind, nxt in self._transitions(situation):
            if kind == _NEXT:
                below = self._count_layout(nxt, board, memo)
                static, span = static + below[0], max(span, below[1])
            elif kind == _FOLD or len(board) == 5:
                static += 1
            else:
                static += 1  # the chance node
                runout = self.graph.kind[nxt] != sequences.DEAL
                for card, _, swap in self._chance_cards(board):
                    if swap >= 0:
                        continue
                    child_board = (*board, card)
                    unit = (self._count_end(nxt, child_board, memo) if runout
                            else self._count(self.graph.children[nxt][0], child_board, memo))
                    static += 1
                    span = max(span, unit[0] - 1)
        return static, span

    def _count_end(self, situation: int, board: tuple[int, ...],
                   memo: dict[tuple[Any, ...], tuple[int, int, int]]) -> tuple[int, int, int]:
        if len(board) == 5:
            return 1, 0, 0
        graph = self.graph
        runout = graph.kind[situation] != sequences.DEAL
        nodes, rows0, rows1 = 1, 0, 0
        for card, _, swap in self._chance_cards(board):
            if swap >= 0:
                continue
            child_board = (*board, card)
            if runout:
                sub = self._count_end(situation, child_board, memo)
            else:
                sub = self._count(graph.children[situation][0], child_board, memo)
            nodes += sub[0]
            rows0 += sub[1]
            rows1 += sub[2]
        return nodes, rows0, rows1

    # -- building -------------------------------------------------------------------------
    def build(self, *, memory_limit: int = DEFAULT_MEMORY_LIMIT) -> BuiltSpot:
        """Build the public game (after checking the size against ``memory_limit``).

        The spot fits if it does with compressed storage (the solver's ``"auto"``
        precision then stores in float32, or compressed to 16 bits, what float64 would
        not fit; :attr:`BuiltSpot.precision` names it).

        Raises:
            GameTooLargeError: if the estimate exceeds ``memory_limit`` even compressed;
                the message gives the figures, and nothing large has been allocated.
        """
        size = self.size()
        precision = size.precision(memory_limit)
        if precision is None:
            raise GameTooLargeError(
                f"the {self.describe()} needs {size.describe()}, over the limit of "
                f"{memory_limit / 1e6:,.0f} MB; narrow the ranges, use fewer bet sizes, or "
                "start on a later street",
                found=size.bytes_in(2),
                limit=memory_limit,
            )
        boards: dict[tuple[int, ...], int] = {}
        root = self._build(self.graph.root, self.board_cards, "", "", boards)
        tree = build_public_tree(root)
        del root  # the node objects go now (the tree packs its keys: see NodeKeys)
        board_list = sorted(boards, key=boards.__getitem__)
        hands = self.hands
        strengths = (board_strengths(hands[0], board_list),
                     board_strengths(hands[1], board_list))
        swaps = (suit_swaps(hands[0])[0], suit_swaps(hands[1])[0])
        public = make_public_game(
            tree, hands, 52, strengths, swaps, pot=float(self.pot), description=self.describe(),
            source={"kind": "spot", "spot": self.to_dict()},
        )
        return BuiltSpot(self, public, tuple(board_list), precision)

    def _chips(self, situation: int) -> tuple[float, float]:
        half = self.pot / 2
        start = self._start_committed()
        oop, ip = self.graph.committed[situation]
        return (half + (oop - start[0]), half + (ip - start[1]))

    def _build(self, situation: int, board: tuple[int, ...], key: str, label: str,
               boards: dict[tuple[int, ...], int], card: int = -1,
               factor: float = 1.0) -> NodeSpec:
        player = self.graph.player[situation]
        chips = self._chips(situation)
        node = NodeSpec(DECISION, player=player, chips=chips,
                        board=boards.setdefault(board, len(boards)), label=label, card=card,
                        chance_factor=factor, key=key)
        for token, name, kind, nxt in self._transitions(situation):
            child_key = f"{key}-{token}" if key and not key.endswith("/") else key + token
            if kind == _NEXT:
                child = self._build(nxt, board, child_key, name, boards)
            elif kind == _FOLD:
                child = NodeSpec(FOLD_NODE, player=player, chips=chips, board=node.board,
                                 label=name, key=child_key)
            else:
                child = self._build_end(nxt, board, child_key, name, boards)
            node.children.append(child)
        return node

    def _build_end(self, situation: int, board: tuple[int, ...], key: str, label: str,
                   boards: dict[tuple[int, ...], int], card: int = -1,
                   factor: float = 1.0) -> NodeSpec:
        chips = self._chips(situation)
        index = boards.setdefault(board, len(boards))
        if len(board) == 5:
            return NodeSpec(SHOWDOWN, chips=chips, board=index, label=label, card=card,
                            chance_factor=factor, key=key)
        node = NodeSpec(CHANCE_NODE, chips=chips, board=index, label=label, card=card,
                        chance_factor=factor, key=key)
        graph = self.graph
        runout = graph.kind[situation] != sequences.DEAL
        deal = 1.0 / (52 - len(board) - 4)
        children: dict[int, NodeSpec] = {}
        cards = self._chance_cards(board)
        for dealt, _, swap in cards:
            if swap >= 0:
                continue
            name = cards_str((dealt,))
            child_board = (*board, dealt)
            child_key = f"{key}/{name}/"
            if runout:
                child = self._build_end(situation, child_board, child_key, name, boards, dealt,
                                        deal)
            else:
                child = self._build(graph.children[situation][0], child_board, child_key,
                                    name, boards, dealt, deal)
            children[dealt] = child
            node.children.append(child)
        for dealt, rep, swap in cards:
            if swap >= 0:
                node.isomorphic.append((dealt, swap, children[rep]))
        return node


@dataclass(frozen=True, eq=False)
class BuiltSpot:
    """A spot built into a public game.

    Attributes:
        spot: the spot.
        public: the public game the range solver runs on.
        boards: every board in the tree, by the index the nodes hold.
        precision: the storage the spot fits in under the limit it was built with
            (``"float64"`` or ``"float32"``; pass it to :class:`RangeSolver`: its own
            ``"auto"`` counts the solver arrays alone, not the peak of the build).
    """

    spot: Spot
    public: PublicGame
    boards: tuple[tuple[int, ...], ...]
    precision: str = "float64"

    @cached_property
    def node_of_key(self) -> dict[str, int]:
        """Node ids by their public-history key (``"x-b100-r250"``; the root is ``""``)."""
        return {key: n for n, key in enumerate(self.public.tree.keys)}

    def board_of(self, node: int) -> tuple[int, ...]:
        """The board at ``node``."""
        return self.boards[int(self.public.tree.nodes[node, 4])]


__all__ = ["DEFAULT_MEMORY_LIMIT", "BuiltSpot", "Spot", "SpotSize"]
