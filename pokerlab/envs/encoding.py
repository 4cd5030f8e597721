"""The observation tensor: what one player knows, as a fixed-size vector of floats in [0, 1].

One layout for Kuhn, Leduc and Hold'em (any variant, 2 to 9 players), read from the state
directly (no compiled tree, so games of any size are encoded). Blocks, in order:

1. ``seat`` (``n``): one-hot of the observer's seat (player 0 is P1, who acts first in
   Kuhn and Leduc; in Hold'em the seats are numbered from left of the button).
2. ``hand`` (``C``): the observer's private cards, multi-hot. Kuhn: the ``cards`` ranks;
   Leduc: the ranks (suits never matter in Leduc, and pokerlab's infoset keys name ranks);
   Hold'em: the deck's cards in deck order (52 for Texas Hold'em, ``rank * 4 + suit``).
3. ``board`` (``C``): the public cards, multi-hot, in the same columns (Kuhn: none, size 0).
4. ``street`` (``S``): one-hot of the betting round (Kuhn 1, Leduc 2, Hold'em its streets).
5. ``committed`` (``n``): chips each player has put in, ante and blinds included.
6. ``behind`` (``n``): chips each player has left (zeros where stacks are unlimited).
7. ``folded`` (``n``): 1 for each player who has folded.
8. ``to_call`` (1): chips the observer must add to call (0: a check).
9. ``history`` (``S * H * W``): each round's betting, one slot of width ``W`` per action in
   order: a one-hot of its kind (fold; check or call; bet or raise), and in no-limit a
   fourth column, the raise-to amount of a raise (the player's total bet on the street).
   Slots past the round's last action are zeros. ``H`` is the most actions a round can
   hold where the rules bound it (Kuhn ``2n - 1``; Leduc and limit Hold'em ``(c + 1) * n``
   with ``c`` the raises a round allows); in no-limit it is ``history_length`` (default
   24) and a longer round keeps its last ``H`` actions.

Blocks 5, 6 and 7 list the players in seat order *from the observer*: column ``k`` is the
player ``k`` seats after the observer (column 0 is the observer), so one network can play
every seat. Chip amounts are divided by ``chip_scale``, the most chips one player can put
in (Kuhn 2, Leduc its stack or what the raise caps allow, Hold'em the largest stack), so
every entry lies in [0, 1].

The vector is a function of the observer's infoset (its cards, the board and the betting),
so a policy over vectors is a strategy of the game; blocks 5 to 8 restate what the betting
implies, because networks learn from them faster than from the history slots alone. Where
a no-limit round outgrows ``H``, the chips still say where the betting stands.

Deep CFR's encoder (:class:`pokerlab.solvers.deep_networks.InfosetEncoder`) reads its
vocabularies off a compiled tree, so it exists only for games that compile; this one is
defined by the rules, for every game an environment plays.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pokerlab._types import Player
from pokerlab.errors import SpecError
from pokerlab.games import Game, HoldemGame, KuhnGame, LeducGame, State
from pokerlab.games.holdem_rules import RAISE
from pokerlab.games.holdem_state import HoldemState
from pokerlab.games.kuhn import BET, KuhnState
from pokerlab.games.leduc import SUITS, LeducState

CACHE_BYTES = 32 * 2**20
"""Memory an encoder may keep for the betting parts of vectors it has made (then it
starts over)."""
NO_LIMIT_HISTORY = 24
"""Actions kept per round in no-limit, where the rules do not bound them (the default)."""

KINDS = ("fold", "check/call", "bet/raise")
"""The kinds of action a history slot tells apart (its first three columns)."""

SUPPORTED = ("kuhn", "leduc", "holdem")
"""The games an encoder (and an environment) is defined for."""


@dataclass(frozen=True)
class Block:
    """One named block of the vector: where it starts, how long it is, what it holds."""

    name: str
    offset: int
    size: int
    meaning: str


class ObservationEncoder(ABC):
    """Turns a state, seen by one player, into the vector described in the module docstring.

    Attributes:
        game: the game encoded.
        n_players: seats.
        n_cards: columns of the ``hand`` and ``board`` blocks.
        n_streets: betting rounds.
        history_length: action slots per round (``H``).
        slot_width: columns per slot (``W``: 3, or 4 in no-limit).
        chip_scale: what chip amounts are divided by.
    """

    game: Game
    cards_in_key: bool = False
    n_players: int
    n_cards: int
    n_streets: int
    history_length: int
    slot_width: int
    chip_scale: float

    def _build_layout(self, *, board: bool) -> None:
        n = self.n_players
        sizes = (
            ("seat", n, "one-hot of the observer's seat"),
            ("hand", self.n_cards, "the observer's private cards, multi-hot"),
            ("board", self.n_cards if board else 0, "the public cards, multi-hot"),
            ("street", self.n_streets, "one-hot of the betting round"),
            ("committed", n, "chips put in, from the observer on, / chip_scale"),
            ("behind", n, "chips left, from the observer on, / chip_scale (0: unlimited)"),
            ("folded", n, "1 where the player (from the observer on) has folded"),
            ("to_call", 1, "chips the observer must add to call, / chip_scale"),
            (
                "history",
                self.n_streets * self.history_length * self.slot_width,
                f"per round, {self.history_length} slots of "
                + ("(fold, check/call, bet/raise, raise-to / chip_scale)"
                   if self.slot_width == 4 else "(fold, check/call, bet/raise)"),
            ),
        )
        blocks = []
        offset = 0
        for name, size, meaning in sizes:
            blocks.append(Block(name, offset, size, meaning))
            offset += size
        self.layout = tuple(blocks)
        self.size = offset
        self._offsets = {block.name: block.offset for block in blocks}
        self._cache: dict[Hashable, NDArray[np.float32]] = {}
        self._cache_limit = max(1, CACHE_BYTES // (4 * offset))

    def block(self, name: str) -> Block:
        """The block called ``name`` (see :data:`layout`).

        Raises:
            SpecError: for an unknown name (lists the blocks).
        """
        for block in self.layout:
            if block.name == name:
                return block
        raise SpecError(
            f"no block {name!r}; blocks: {', '.join(b.name for b in self.layout)}"
        )

    def encode(self, state: State, player: Player) -> NDArray[np.float32]:
        """The vector of ``state`` as ``player`` sees it (float32, length :attr:`size`).

        Everything but the cards depends on the betting only, and the same betting recurs
        hand after hand: that part is worked out once per ``(player, betting)`` and kept
        (up to :data:`CACHE_BYTES`), the cards are written into a copy of it. Kuhn and
        Leduc have so few cards that their keys hold the cards too (whole vectors kept).
        """
        key = self._betting_key(state, player)
        base = self._cache.get(key)
        if base is None:
            base = np.zeros(self.size, dtype=np.float32)
            self._fill_betting(base, state, player)
            if self.cards_in_key:
                self._fill_cards(base, state, player)
            cache = self._cache
            if len(cache) >= self._cache_limit:
                cache.clear()
            cache[key] = base
        out = base.copy()
        if not self.cards_in_key:
            self._fill_cards(out, state, player)
        return out

    @abstractmethod
    def _betting_key(self, state: State, player: Player) -> Hashable:
        """What the non-card part of ``player``'s vector depends on."""

    @abstractmethod
    def _fill_betting(self, out: NDArray[np.float32], state: State, player: Player) -> None:
        """Write the seat, street, chips and history entries into ``out`` (zeros)."""

    @abstractmethod
    def _fill_cards(self, out: NDArray[np.float32], state: State, player: Player) -> None:
        """Write the hand and board entries into ``out``."""

    def _fill_chips(
        self,
        out: NDArray[np.float32],
        player: Player,
        committed: tuple[int, ...] | tuple[float, ...],
        behind: tuple[int, ...] | None,
        folded: tuple[bool, ...],
        to_call: float,
    ) -> None:
        n = self.n_players
        scale = self.chip_scale
        at_committed = self._offsets["committed"]
        at_behind = self._offsets["behind"]
        at_folded = self._offsets["folded"]
        for k in range(n):
            seat = (player + k) % n
            out[at_committed + k] = committed[seat] / scale
            if behind is not None:
                out[at_behind + k] = behind[seat] / scale
            if folded[seat]:
                out[at_folded + k] = 1.0
        out[self._offsets["to_call"]] = to_call / scale

    def _fill_round(
        self, out: NDArray[np.float32], street: int, kinds: list[int], amounts: list[int] | None
    ) -> None:
        """One round's slots: ``kinds`` (0 fold, 1 check/call, 2 bet/raise), amounts in chips."""
        width = self.slot_width
        length = self.history_length
        start = 0 if len(kinds) <= length else len(kinds) - length
        base = self._offsets["history"] + street * length * width
        scale = self.chip_scale
        for slot, k in enumerate(range(start, len(kinds))):
            at = base + slot * width
            kind = kinds[k]
            out[at + kind] = 1.0
            if amounts is not None and kind == 2:
                out[at + 3] = amounts[k] / scale


class KuhnEncoder(ObservationEncoder):
    """Kuhn poker: cards by rank, one round, at most ``2n - 1`` actions."""

    cards_in_key = True

    def __init__(self, game: KuhnGame) -> None:
        self.game = game
        self.n_players = game.n_players
        self.n_cards = game.cards
        self.n_streets = 1
        self.history_length = 2 * game.n_players - 1
        self.slot_width = 3
        self.chip_scale = 2.0
        self._build_layout(board=False)

    def _betting_key(self, state: State, player: Player) -> Hashable:
        assert isinstance(state, KuhnState)
        return (player, state.bets, state.cards[player])

    def _fill_cards(self, out: NDArray[np.float32], state: State, player: Player) -> None:
        assert isinstance(state, KuhnState)
        if player < len(state.cards):
            out[self._offsets["hand"] + state.cards[player]] = 1.0

    def _fill_betting(self, out: NDArray[np.float32], state: State, player: Player) -> None:
        assert isinstance(state, KuhnState)
        n = self.n_players
        out[player] = 1.0
        out[self._offsets["street"]] = 1.0
        bets = state.bets
        first = state.first_bet
        committed = [1] * n
        folded = [False] * n
        kinds = []
        for i, action in enumerate(bets):
            seat = i % n
            if action == BET:
                committed[seat] = 2
                kinds.append(2 if i == first else 1)
            elif 0 <= first < i:
                folded[seat] = True
                kinds.append(0)
            else:
                kinds.append(1)
        to_call = 1 if first >= 0 and committed[player] == 1 and not folded[player] else 0
        self._fill_chips(out, player, tuple(committed), None, tuple(folded), to_call)
        self._fill_round(out, 0, kinds, None)


class LeducEncoder(ObservationEncoder):
    """Leduc poker: cards by rank, two rounds, ``(c + 1) * n`` slots per round."""

    cards_in_key = True

    def __init__(self, game: LeducGame) -> None:
        self.game = game
        n = self.n_players = game.n_players
        self.n_cards = game.ranks
        self.n_streets = 2
        raises = []
        for bet in game.bet_sizes:
            by_stack = None if game.stack is None else math.ceil((game.stack - game.ante) / bet)
            cap = game.raise_cap
            raises.append(by_stack if cap is None else cap if by_stack is None
                          else min(cap, by_stack))
        most = max(r for r in raises if r is not None)
        self.history_length = (most + 1) * n
        self.slot_width = 3
        self.chip_scale = float(
            game.stack if game.stack is not None
            else game.ante + sum(most * bet for bet in game.bet_sizes)
        )
        self._build_layout(board=True)

    def _betting_key(self, state: State, player: Player) -> Hashable:
        assert isinstance(state, LeducState)
        return (player, state.sequences, state.private[player], state.board)

    def _fill_cards(self, out: NDArray[np.float32], state: State, player: Player) -> None:
        assert isinstance(state, LeducState)
        offsets = self._offsets
        if player < len(state.private):
            out[offsets["hand"] + state.private[player] // SUITS] = 1.0
        if state.board >= 0:
            out[offsets["board"] + state.board // SUITS] = 1.0

    def _fill_betting(self, out: NDArray[np.float32], state: State, player: Player) -> None:
        assert isinstance(state, LeducState)
        out[player] = 1.0
        out[self._offsets["street"] + state.round] = 1.0
        game = self.game
        assert isinstance(game, LeducGame)
        committed = state.committed
        behind = None if game.stack is None else tuple(game.stack - c for c in committed)
        owed = max(0, state.stakes - committed[player]) if not state.folded[player] else 0
        self._fill_chips(out, player, committed, behind, state.folded, owed)
        for street, actions in enumerate(state.sequences):
            if actions:
                self._fill_round(out, street, list(actions), None)


class HoldemEncoder(ObservationEncoder):
    """Hold'em: cards by deck position, one round per street, chips from the betting node."""

    def __init__(self, game: HoldemGame, *, history_length: int | None = None) -> None:
        self.game = game
        rules = game.rules
        n = self.n_players = game.n_players
        self.n_cards = rules.deck_size
        self.n_streets = rules.n_streets
        self._column = {card: k for k, card in enumerate(rules.deck)}
        if game.no_limit:
            self.history_length = NO_LIMIT_HISTORY if history_length is None else history_length
            self.slot_width = 4
        else:
            caps = [c if c is not None else 0 for c in rules.raise_caps]
            self.history_length = (max(caps) + 1) * n if history_length is None else history_length
            self.slot_width = 3
        self.chip_scale = float(max(rules.starting_stacks))
        self._build_layout(board=True)

    def _betting_key(self, state: State, player: Player) -> Hashable:
        assert isinstance(state, HoldemState)
        return (player, state.betting)

    def _fill_cards(self, out: NDArray[np.float32], state: State, player: Player) -> None:
        assert isinstance(state, HoldemState)
        column = self._column
        at = self._offsets["hand"]
        for card in state.hole[player :: self.n_players]:
            out[at + column[card]] = 1.0
        at = self._offsets["board"]
        for card in state.board:
            out[at + column[card]] = 1.0

    def _fill_betting(self, out: NDArray[np.float32], state: State, player: Player) -> None:
        assert isinstance(state, HoldemState)
        out[player] = 1.0
        out[self._offsets["street"] + state.street] = 1.0
        bets, behind, folded = state.bets, state.behind, state.folded
        to_call = 0 if folded[player] else min(behind[player], max(bets) - bets[player])
        self._fill_chips(out, player, state.committed, behind, folded, to_call)
        no_limit = self.slot_width == 4
        for street, actions in enumerate(state.betting):
            if actions:
                kinds = [a if a < RAISE else 2 for a in actions]
                amounts = [a - RAISE for a in actions] if no_limit else None
                self._fill_round(out, street, kinds, amounts)


def observation_encoder(game: Game, *, history_length: int | None = None) -> ObservationEncoder:
    """The encoder of ``game`` (Kuhn, Leduc or Hold'em, any variant).

    Args:
        game: the game.
        history_length: action slots per round in Hold'em (default: the rules' bound in
            limit, :data:`NO_LIMIT_HISTORY` in no-limit). Kuhn and Leduc always use the
            rules' bound.

    Raises:
        SpecError: a game of another family, or a ``history_length`` below 1.

    Example:
        >>> from pokerlab.games import leduc
        >>> encoder = observation_encoder(leduc())
        >>> encoder.size, [(b.name, b.size) for b in encoder.layout][:4]
        (53, [('seat', 2), ('hand', 3), ('board', 3), ('street', 2)])
    """
    if history_length is not None and (
        isinstance(history_length, bool) or not isinstance(history_length, int)
        or history_length < 1
    ):
        raise SpecError(f"history_length must be an int >= 1; got {history_length!r}")
    if isinstance(game, KuhnGame):
        return KuhnEncoder(game)
    if isinstance(game, LeducGame):
        return LeducEncoder(game)
    if isinstance(game, HoldemGame):
        return HoldemEncoder(game, history_length=history_length)
    raise SpecError(
        f"environments play {', '.join(SUPPORTED)} (any variant); got {game.spec}"
    )


__all__ = [
    "CACHE_BYTES",
    "KINDS",
    "NO_LIMIT_HISTORY",
    "SUPPORTED",
    "Block",
    "HoldemEncoder",
    "KuhnEncoder",
    "LeducEncoder",
    "ObservationEncoder",
    "observation_encoder",
]
