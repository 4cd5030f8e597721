"""Hold'em's game and states: who acts, what is legal, and what each action leads to.

The rules (seats, blinds, action ids, betting) are described in
:mod:`pokerlab.games.holdem_rules`, the pots in :mod:`pokerlab.games.holdem_pots`.

Chance. Cards are dealt one at a time, uniformly from the cards not yet dealt (chance
outcomes are card ids 0..51, ``rank * 4 + suit``, see :mod:`pokerlab.cards`): the hole
cards round robin (one card to each player from player 0, then the second card to each),
then the three flop cards, the turn, the river. There are no burn cards (they change
nothing in distribution).

Infoset keys: ``"AsKd|r6c"`` preflop (own hole cards as dealt, then the preflop betting),
``"AsKd|Qh7c2d|r6c|c"`` after the flop (board in dealt order, then each street's
betting). Letters: ``f`` fold, ``c`` check or call, ``r6`` raise to 6 (no-limit), ``r``
bet or raise (limit).

States are immutable: a state is its cards (hole, board, and the undealt cards once
listed) and a betting node of :mod:`pokerlab.games.holdem_betting`, which holds the chips
and the betting and is shared by every state with the same betting history. The node
works out the legal actions, the raise bounds, the next node of each action and the
returns of each way a showdown can go once, so :meth:`HoldemState.child` is a look-up and
two small tuples; this is what makes random playouts as fast as OpenSpiel's C++
``universal_poker`` driven from Python (docs/benchmarks.md). Built by keyword, a state
names its fields (the betting-round ones default to "no round in progress").
"""

from __future__ import annotations

from collections.abc import Hashable
from itertools import repeat
from operator import attrgetter

import numpy as np

from pokerlab._cache import SpecCache
from pokerlab._types import CHANCE, TERMINAL, Action, Player
from pokerlab.cards import cards_str
from pokerlab.errors import IllegalActionError, PokerlabError, SpecError
from pokerlab.games.base import Game, State
from pokerlab.games.holdem_betting import BettingNode, BettingNodeCache, betting_letters
from pokerlab.games.holdem_pots import Settlement, hand_values, settle, showdown_tables
from pokerlab.games.holdem_public import replay_observation
from pokerlab.games.holdem_rules import CALL, FOLD, RAISE, STREET_NAMES, HoldemRules
from pokerlab.games.holdem_size import HoldemSize, count_call_down, count_holdem
from pokerlab.games.observation import Observation
from pokerlab.games.spec import GameSpec

_SIZES: SpecCache[HoldemSize] = SpecCache("games.holdem_size", maxsize=64)
"""Counted sizes by spec (counting takes up to about a second)."""
_NODES: SpecCache[BettingNodeCache] = SpecCache("games.holdem_betting", maxsize=8)
"""Betting node caches by spec: games loaded again with one spec share the nodes built so far."""


class HoldemGame(Game):
    """Texas Hold'em; build it with :func:`~pokerlab.games.holdem.holdem` or ``load``.

    Attributes:
        rules: the checked numbers the engine plays by (:class:`HoldemRules`).
        n_players: players at the table.
        betting: ``"limit"`` or ``"nolimit"``.
        no_limit: True for no-limit.
        small_blind: the small blind, chips.
        big_blind: the big blind, chips.
        ante: every player's ante, chips.
        starting_stacks: each player's chips before the hand.
        cap: limit: bets and raises per round, the big blind counting preflop.
    """

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        rules = HoldemRules.from_spec(spec)
        self.rules = rules
        self.n_players = rules.n_players
        self.betting = rules.betting
        self.no_limit = rules.no_limit
        self.small_blind = rules.small_blind
        self.big_blind = rules.big_blind
        self.ante = rules.ante
        self.starting_stacks = rules.starting_stacks
        self.cap = rules.cap
        nodes = _NODES.get(spec)
        if nodes is None:
            nodes = BettingNodeCache(rules)
            _NODES.put(spec, nodes)
        self.nodes = nodes
        self._initial = _new_state(self, (), (), self.nodes.root, rules.deck)

    def __reduce__(self) -> tuple[object, ...]:
        # Rebuilt from the spec: the betting nodes it keeps are a cache.
        return (HoldemGame, (self.spec,))

    @property
    def max_actions(self) -> int:
        """Limit: 3 (fold, call, raise). No-limit: ``3 + largest stack`` (raise to 0..stack)."""
        if self.no_limit:
            return RAISE + max(self.starting_stacks) + 1
        return 3

    def action_name(self, action: Action) -> str:
        """``"fold"``, ``"call"``, ``"raise"`` (limit) or ``"raise to X"`` (no-limit)."""
        if action == FOLD:
            return "fold"
        if action == CALL:
            return "call"
        if action == RAISE and not self.no_limit:
            return "raise"
        if self.no_limit and action >= RAISE:
            return f"raise to {action - RAISE}"
        raise SpecError(
            f"holdem actions are 0 (fold), 1 (call), {self._raise_text()}; got {action}"
        )

    def _raise_text(self) -> str:
        return "2 + X (raise to X)" if self.no_limit else "2 (raise)"

    def initial_state(self) -> HoldemState:
        """The state after antes and blinds, before the first card is dealt."""
        return self._initial

    def public_state(self, observation: Observation) -> HoldemState:
        """Rebuild the state an observation was taken in, as its seat may know it.

        The public betting and board are replayed with the observer's own hole cards and
        stand-in cards for the others (never shown), so the chips, the bets of the street
        and the legal raises are exact: renderers and agents can use them.

        Raises:
            SpecError: if the observation is not of this game or its history is not one.
        """
        state = replay_observation(self, self.rules, observation)
        assert isinstance(state, HoldemState)
        return state

    def size(self) -> HoldemSize:
        """How big this game is: exact counts where they can be made, else lower bounds.

        Counted once per spec (cached); see :mod:`pokerlab.games.holdem_size` for what
        each figure counts. Heads-up limit: 3.162e17 game states and 3.194e14 infosets
        in the convention of the papers, 2.049e19 histories in this engine.
        """
        cached = _SIZES.get(self.spec)
        if cached is None:
            cached = count_holdem(self._initial, self.rules)
            _SIZES.put(self.spec, cached)
        return cached

    def count_histories(self) -> int:
        """The number of histories of this engine's tree, exact or a lower bound.

        ``size().histories``: exact when the betting could be walked (limit heads-up and
        three-handed, small no-limit stacks); otherwise a lower bound, and
        :attr:`history_count_is_exact` is False.
        """
        return self.size().histories

    @property
    def history_count_is_exact(self) -> bool:
        """False when :meth:`count_histories` is a lower bound."""
        return self.size().exact

    def min_histories(self) -> int:
        """A lower bound on the histories, found at once: the deals of the check-down line.

        :func:`pokerlab.tree.compile` refuses Hold'em with it before counting anything.
        """
        return count_call_down(self._initial, self.rules).histories

    def describe(self) -> str:
        """One line of rules."""
        stacks = (
            f"stacks of {self.starting_stacks[0]}"
            if len(set(self.starting_stacks)) == 1
            else f"stacks {self.starting_stacks}"
        )
        ante = f", ante {self.ante}" if self.ante else ""
        rules = self.rules
        texas = (rules.deck_size, rules.hole_size, rules.board_sizes) == (52, 2, (0, 3, 4, 5))
        cap = (
            ""
            if self.no_limit
            else f", {self.cap} bets per round"
            if texas
            else f", raises {list(rules.raise_caps)} per street"
        )
        cards = (
            "Texas Hold'em"
            if texas
            else f"Hold'em ({rules.n_ranks} ranks x {rules.n_suits} suits, {rules.hole_size} "
            f"hole, board {list(rules.board_sizes)})"
        )
        return (
            f"{self.n_players}-player {'no-limit' if self.no_limit else 'limit'} {cards}, "
            f"blinds {self.small_blind}/{self.big_blind}{ante}, {stacks}{cap}"
        )


class HoldemState(State):
    """A Hold'em history: the cards dealt, each street's betting and the chips.

    Fields mirror pokerkit's betting state, so the rules (who acts, who may raise) are
    theirs; states are immutable (their fields are read-only properties) and
    :meth:`child` builds the next one. A state is its cards and its betting node
    (:mod:`pokerlab.games.holdem_betting`), shared by every state with the same betting,
    where the legal actions and the transitions are worked out once.

    ``HoldemState(holdem=..., hole=..., board=..., street=..., ...)`` builds a state from
    its fields by keyword (the betting-round fields default to "no round in progress").

    Two vocabularies, one for each kind of reader: code written for any game reads the
    State API (``player``, ``game``, ``contributions()`` and ``stacks()``, in floats);
    Hold'em code reads the engine's fields, exact chips as the betting node holds them
    (``to_act``, ``committed``, ``behind``, ``bets``). The pairs agree by construction
    (the API reads the fields), and a test holds them equal.
    """

    __slots__ = ("_board", "_holdem", "_hole", "_node", "_undealt")

    _holdem: HoldemGame
    _hole: tuple[int, ...]
    _board: tuple[int, ...]
    _node: BettingNode
    _undealt: tuple[int, ...] | None  # the undealt cards, once listed (chance nodes)

    def __init__(
        self,
        *,
        holdem: HoldemGame,
        hole: tuple[int, ...],
        board: tuple[int, ...],
        street: int,
        betting: tuple[tuple[Action, ...], ...],
        behind: tuple[int, ...],
        bets: tuple[int, ...],
        committed: tuple[int, ...],
        folded: tuple[bool, ...],
        to_act: Player,
        actors: tuple[Player, ...] = (),
        raise_amount: int = 0,
        raise_count: int = 0,
        acted: int = 0,
        short_all_ins: tuple[int, ...] = (),
        runout: bool = False,
    ) -> None:
        self._holdem = holdem
        self._hole = hole
        self._board = board
        self._node = BettingNode(
            holdem.nodes, street, betting, behind, bets, committed, folded, to_act, actors,
            raise_amount, raise_count, acted, short_all_ins, runout,
        )  # fmt: skip
        self._undealt = None

    # -- fields (read-only) -------------------------------------------------------------------

    @property
    def betting_node(self) -> BettingNode:
        """The betting node this state plays on (shared by every state with its betting)."""
        return self._node

    @property
    def hole(self) -> tuple[int, ...]:
        """Hole cards in deal order: player ``p`` holds ``hole[p]``, ``hole[p + n]``..."""
        return self._hole

    @property
    def board(self) -> tuple[int, ...]:
        """The board cards, in dealt order."""
        return self._board

    @property
    def street(self) -> int:
        """0 preflop .. 3 river: the street being dealt or bet."""
        return self._node.street

    @property
    def betting(self) -> tuple[tuple[Action, ...], ...]:
        """Each street's betting so far."""
        return self._node.betting

    @property
    def behind(self) -> tuple[int, ...]:
        """Chips each player has left."""
        return self._node.behind

    @property
    def bets(self) -> tuple[int, ...]:
        """Chips each player has bet this street."""
        return self._node.bets

    @property
    def committed(self) -> tuple[int, ...]:
        """Chips each player has put in this hand, ante included."""
        return self._node.committed

    @property
    def folded(self) -> tuple[bool, ...]:
        """Whether each player has folded."""
        return self._node.folded

    @property
    def to_act(self) -> Player:
        """The player to act, CHANCE or TERMINAL."""
        return self._node.to_act

    @property
    def actors(self) -> tuple[Player, ...]:
        """Players still to act this round, in order."""
        return self._node.actors

    @property
    def raise_amount(self) -> int:
        """The largest bet or raise increment this street."""
        return self._node.raise_amount

    @property
    def raise_count(self) -> int:
        """Bets and raises this street."""
        return self._node.raise_count

    @property
    def acted(self) -> int:
        """Bit mask of the players who acted since the last full raise."""
        return self._node.acted

    @property
    def short_all_ins(self) -> tuple[int, ...]:
        """Consecutive all-in raise increments short of a full one."""
        return self._node.short_all_ins

    @property
    def runout(self) -> bool:
        """True when at most one player still in has chips: the rest is dealt, no betting."""
        return self._node.runout

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HoldemState):
            return NotImplemented
        return (
            self._holdem == other._holdem
            and self._hole == other._hole
            and self._board == other._board
            and self._node == other._node
        )

    def __hash__(self) -> int:
        return hash((self._holdem, self._hole, self._board, self._node))

    def __repr__(self) -> str:
        node = self._node
        fields = ", ".join(
            f"{name}={value!r}" for name, value in zip(_NODE_FIELDS, node.fields(), strict=True)
        )
        return (
            f"HoldemState(holdem={self._holdem!r}, hole={self._hole!r}, "
            f"board={self._board!r}, {fields})"
        )

    def __reduce__(self) -> tuple[object, ...]:
        # The node's caches stay behind: the copy gets a node of its own.
        return (_restore_state, (self._holdem, self._hole, self._board, self._node.fields()))

    # -- State API ---------------------------------------------------------------------------

    @property
    def game(self) -> HoldemGame:
        """The game."""
        return self._holdem

    player = property(
        attrgetter("_node.to_act"),  # a C getter: this is read at every step of every hand
        doc="The player to act, CHANCE while dealing, TERMINAL at the end.",
    )

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action so far: the hole cards, then betting and board cards in order.

        Rebuilt from the cards and each street's betting (the order is fixed: all hole
        cards, the preflop betting, then each street's board cards and its betting), so
        no state carries the same actions twice.
        """
        sizes = self.game.rules.board_sizes
        actions = list(self.hole)
        for street, betting in enumerate(self.betting):
            if street:
                actions.extend(self.board[sizes[street - 1] : sizes[street]])
            actions.extend(betting)
        return tuple(actions)

    def legal_actions(self) -> tuple[Action, ...]:
        """Undealt cards at chance; fold (facing a bet), call, and the legal raises."""
        node = self._node
        legal = node._legal  # kept by the node once worked out
        if legal is not None:
            return legal
        player = node.to_act
        if player >= 0:
            return node.legal_actions()
        if player == CHANCE:
            cards = self._undealt
            if cards is None:
                remaining = list(self._holdem.rules.deck)
                for card in self._hole:  # a few C-level removals beat a scan of the deck
                    remaining.remove(card)
                for card in self._board:
                    remaining.remove(card)
                cards = self._undealt = tuple(remaining)
            return cards
        return ()

    def is_legal(self, action: Action) -> bool:
        """True when ``action`` may be taken here (without listing every raise)."""
        node = self._node
        player = node.to_act
        if player == CHANCE:
            try:
                in_deck = action in self._holdem.nodes.deck_set
            except TypeError:  # an unhashable action
                return False
            return in_deck and action not in self._hole and action not in self._board
        if player == TERMINAL:
            return False
        return node.is_legal(action)

    def child(self, action: Action) -> HoldemState:
        """Return the state after ``action``.

        Raises:
            IllegalActionError: if ``action`` is not legal here; the message lists the legal
                ones (raises as a range).
        """
        # This runs at every step of every hand: the common cases are inlined.
        node = self._node
        if node.to_act >= 0:
            try:
                following = node._children.get(action)  # kept children are legal
            except TypeError:  # an unhashable action
                following = None
            if following is None:
                if not node.is_legal(action):
                    raise IllegalActionError(self._illegal_message(action))
                following = node.child(action)
            state = _new(HoldemState)
            state._holdem = self._holdem
            state._hole = self._hole
            state._board = self._board
            state._node = following
            state._undealt = self._undealt
            return state
        if node.to_act != CHANCE:
            raise IllegalActionError(self._illegal_message(action))
        # Deal ``action`` (_deal, inlined).
        undealt = self._undealt
        if undealt is None:
            undealt = self.legal_actions()
        try:
            at = undealt.index(action)  # one scan checks the card and finds it
        except ValueError:
            raise IllegalActionError(self._illegal_message(action)) from None
        card = undealt[at]  # the deck's int (not a numpy int or a 5.0 that equals it)
        state = _new(HoldemState)
        state._holdem = self._holdem
        state._undealt = undealt[:at] + undealt[at + 1 :]
        # Concatenation: twice as fast as unpacking into a new tuple.
        if node.street:
            board = state._board = self._board + (card,)  # noqa: RUF005
            state._hole = hole = self._hole
        else:  # no board card before the first betting round: these are hole cards
            hole = state._hole = self._hole + (card,)  # noqa: RUF005
            state._board = board = self._board
        if len(hole) + len(board) < node.deal_until:
            state._node = node
        else:
            state._node = node.after_deal()
        return state

    def _illegal_message(self, action: Action) -> str:
        if self.to_act == TERMINAL:
            return f"no action is legal: the hand is over ({self})"
        if self.to_act == CHANCE:
            return (
                f"card {action} cannot be dealt here; legal: the undealt cards "
                f"{cards_str(self.legal_actions())}"
            )
        legal = [f"{self.action_name(a)} ({a})" for a in self.legal_actions() if a < RAISE]
        bounds = self.raise_range()
        if bounds is not None:
            if self.game.no_limit:
                legal.append(f"raise to X ({RAISE}+X) for X in {bounds[0]}..{bounds[1]}")
            else:
                legal.append(f"{self.action_name(RAISE)} ({RAISE})")
        shown = self.action_name(action) if self._nameable(action) else str(action)
        return f"{shown!r} ({action}) is not legal here; legal: {', '.join(legal)}"

    def chance_outcomes(self) -> tuple[tuple[Action, float], ...]:
        """Each undealt card, uniformly."""
        if self._node.to_act != CHANCE:
            return ()
        cards = self.legal_actions()
        return tuple(zip(cards, repeat(1.0 / len(cards)), strict=False))

    def action_name(self, action: Action) -> str:
        """``fold``, ``check``/``call``, ``bet``/``raise`` (limit), ``bet X``/``raise to X``."""
        # Named at every decision a dealer plays (the action, the observation's legal
        # actions, the public history): the node's fields are read once, no card is checked.
        game = self._holdem
        node = self._node
        to_act = node.to_act
        if to_act == CHANCE:
            in_deck = action in game.rules.deck
            return f"deal {cards_str((action,))}" if in_deck else f"deal {action}"
        if action == FOLD:
            return "fold"
        bets = node.bets
        if action == CALL:
            owed = to_act >= 0 and bets[to_act] < max(bets)
            return "call" if owed else "check"
        facing = to_act >= 0 and max(bets) > 0
        if action >= RAISE and game.no_limit:
            amount = action - RAISE
            return f"raise to {amount}" if facing else f"bet {amount}"
        if action == RAISE:
            return "raise" if facing else "bet"
        return game.action_name(action)

    def infoset_key(self, player: Player | None = None) -> str:
        """Own hole cards, the board, and each street's betting: ``"AsKd|Qh7c2d|r6c|c"``."""
        if player is None:
            player = self._node.to_act
        text = _CARD_TEXT
        own = "".join([text[c] for c in self.hole_cards(player)]) if player >= 0 else ""
        if not self._board:
            return f"{own}|{self._node.letters()}"
        board = "".join([text[c] for c in self._board])
        return f"{own}|{board}|{self._node.letters()}"

    def _letters(self, actions: tuple[Action, ...]) -> str:
        return betting_letters(actions, no_limit=self._holdem.no_limit)

    def public_event(self, action: Action, child: State) -> tuple[Player, str] | None:
        """The betting, and ``(-1, "flop Qh7c2d")`` once a street's board cards are all out."""
        if self.to_act >= 0:
            return (self.to_act, self.action_name(action))
        rules = self.game.rules
        if len(self.hole) < rules.n_hole_cards:
            return None
        assert isinstance(child, HoldemState)
        sizes = rules.board_sizes
        size = len(child.board)
        if size not in sizes[1:]:
            return None
        street = sizes.index(size)
        first = sizes[street - 1] if street > 1 else 0
        text = _CARD_TEXT
        return (-1, f"{STREET_NAMES[street]} {''.join([text[c] for c in child.board[first:]])}")

    def private_cards(self, player: Player) -> str:
        """The player's hole cards dealt so far (``"AsKd"``)."""
        text = _CARD_TEXT
        return "".join([text[c] for c in self._hole[player :: self._holdem.n_players]])

    def board_cards(self) -> str:
        """The board dealt so far (``"Qh7c2d"``)."""
        text = _CARD_TEXT
        return "".join([text[c] for c in self._board])

    def contributions(self) -> tuple[float, ...]:
        """Chips each player has put in this hand, ante and blinds included."""
        return tuple(float(c) for c in self.committed)

    def stacks(self) -> tuple[float, ...]:
        """Chips each player has left behind."""
        return tuple(float(b) for b in self.behind)

    def returns(self) -> tuple[float, ...]:
        """The chips each player wins (negative: loses) in this finished hand.

        Raises:
            PokerlabError: if the hand is not over.
        """
        if self._node.to_act != TERMINAL:
            raise PokerlabError("returns() needs a finished hand; this state is not terminal")
        return self._terminal_returns()

    def _terminal_returns(self) -> tuple[float, ...]:
        # settle()'s returns, worked out once per betting node and order of the hands.
        node = self._node
        returns = node._fold_returns
        if returns is not None:
            return returns
        folded = node.folded
        if folded.count(False) == 1:
            return node.fold_returns()
        game = self._holdem
        n = game.n_players
        board = self._board
        hole = self._hole
        if game.rules.hole_size + len(board) < 5:
            values = [0] * n
            live = [p for p in range(n) if not folded[p]]
            hands = np.array([(*hole[p::n], *board) for p in live], dtype=np.uint8)
            for p, value in zip(live, hand_values(hands), strict=True):
                values[p] = value
            return node.showdown_returns(tuple(values))
        evaluate = showdown_tables().value
        return node.showdown_returns(
            tuple([0 if folded[p] else evaluate(hole[p::n] + board) for p in range(n)])
        )

    def hole_cards(self, player: Player) -> tuple[int, ...]:
        """The player's hole cards dealt so far, as card ids."""
        return self._hole[player :: self._holdem.n_players]

    @property
    def n_dealt(self) -> int:
        """Cards dealt so far, hole cards and board."""
        return len(self.hole) + len(self.board)

    @property
    def pot(self) -> int:
        """Chips in the middle, this street's bets included."""
        return sum(self.committed)

    def to_call(self, player: Player | None = None) -> int:
        """Chips ``player`` (default: the player to act) must add to call (0: a check)."""
        if player is None:
            player = self.to_act
        if player < 0:
            return 0
        return min(self.behind[player], max(self.bets) - self.bets[player])

    def raise_range(self) -> tuple[int, int] | None:
        """The legal raise-to amounts ``(min, max)`` of the player to act, or None.

        Amounts are the player's total bet on this street after the raise; in limit
        ``min == max``. An all-in for less than a full raise is the whole range.
        """
        node = self._node
        if node.to_act < 0:
            return None
        return node.raise_bounds()

    def action_for_raise_to(self, amount: int) -> Action:
        """The action id that raises (or bets) to ``amount`` chips on this street.

        Raises:
            IllegalActionError: if no raise to ``amount`` is legal here (says the range).
        """
        bounds = self.raise_range()
        if bounds is None:
            raise IllegalActionError(
                f"raising is not legal here; legal: "
                f"{', '.join(self.action_name(a) for a in self.legal_actions())}"
            )
        if not bounds[0] <= amount <= bounds[1]:
            allowed = str(bounds[0]) if bounds[0] == bounds[1] else f"{bounds[0]}..{bounds[1]}"
            raise IllegalActionError(f"cannot raise to {amount}; allowed: raise to {allowed}")
        return RAISE + amount if self.game.no_limit else RAISE

    def raise_to_amount(self, action: Action) -> int:
        """The raise-to amount of a legal raise ``action`` (limit: the fixed amount)."""
        if self.game.no_limit:
            return action - RAISE
        bounds = self.raise_range()
        if bounds is None:
            raise IllegalActionError("raising is not legal here")
        return bounds[0]

    def betting_key(self) -> Hashable:
        """What the rest of the betting depends on: equal keys, equal betting subtrees.

        Everything but the cards, the past actions and the chips already in (which only
        the payoffs read); :func:`~pokerlab.games.holdem_size.count_holdem` merges the
        states of one key.
        """
        return (
            self.to_act, len(self.hole) + len(self.board), self.street, self.behind, self.bets,
            self.folded, self.actors, self.raise_amount, self.raise_count, self.acted,
            self.short_all_ins, self.runout,
        )  # fmt: skip

    def _raise_bounds(self, player: Player) -> tuple[int, int] | None:
        """Pokerkit's ``_verify_completion_betting_or_raising`` and the min/max amounts."""
        node = self._node
        if player == node.to_act:
            return node.raise_bounds()
        return node._work_out_bounds(player)

    # -- transitions -------------------------------------------------------------------------

    def _apply(self, action: Action) -> HoldemState:
        if self._node.to_act == CHANCE:
            return self._deal(action)
        state = _new(HoldemState)
        state._holdem = self._holdem
        state._hole = self._hole
        state._board = self._board
        state._node = self._node.child(action)
        state._undealt = self._undealt
        return state

    def _deal(self, card: int) -> HoldemState:
        """Deal ``card`` (checked: an undealt card of the deck) at a chance node."""
        undealt = self._undealt
        if undealt is None:
            undealt = self.legal_actions()
        try:
            at = undealt.index(card)  # one scan checks the card and finds it
        except ValueError:
            raise IllegalActionError(self._illegal_message(card)) from None
        card = undealt[at]
        node = self._node
        state = _new(HoldemState)
        state._holdem = self._holdem
        state._undealt = undealt[:at] + undealt[at + 1 :]
        # Concatenation: twice as fast as unpacking into a new tuple.
        if node.street:
            board = state._board = self._board + (card,)  # noqa: RUF005
            state._hole = hole = self._hole
        else:  # no board card before the first betting round: these are hole cards
            hole = state._hole = self._hole + (card,)  # noqa: RUF005
            state._board = board = self._board
        if len(hole) + len(board) < node.deal_until:
            state._node = node
        else:
            state._node = node.after_deal()
        return state

    # -- settlement --------------------------------------------------------------------------

    def settle(self) -> Settlement:
        """The pots of this finished hand, who won them, and the final stacks.

        Raises:
            PokerlabError: if the hand is not over.
        """
        node = self._node
        if node.to_act != TERMINAL:
            raise PokerlabError("settle() needs a finished hand; this state is not terminal")
        return settle(
            self._holdem.rules,
            hole_cards=[self.hole_cards(i) for i in range(self._holdem.n_players)],
            board=self._board,
            committed=node.committed,
            behind=node.behind,
            folded=node.folded,
        )

    def __str__(self) -> str:
        n = self.game.n_players
        holes = " ".join(cards_str(self.hole_cards(p)) or "-" for p in range(n))
        board = cards_str(self.board) or "-"
        streets = "/".join(self._letters(s) for s in self.betting)
        return f"holdem[{holes} | {board} | {streets}]"


_new = object.__new__

_CARD_TEXT = tuple(cards_str((card,)) for card in range(52))
"""Each card id's text (``"As"``): infoset keys are built at every decision of a walk."""

_NODE_FIELDS = (
    "street", "betting", "behind", "bets", "committed", "folded", "to_act", "actors",
    "raise_amount", "raise_count", "acted", "short_all_ins", "runout",
)  # fmt: skip
"""The fields a state reads from its betting node, in :meth:`BettingNode.fields`' order."""


def _new_state(
    game: HoldemGame,
    hole: tuple[int, ...],
    board: tuple[int, ...],
    node: BettingNode,
    undealt: tuple[int, ...] | None,
) -> HoldemState:
    """A state from its parts, without checks (the engine's own constructor)."""
    state: HoldemState = _new(HoldemState)
    state._holdem = game
    state._hole = hole
    state._board = board
    state._node = node
    state._undealt = undealt
    return state


def _restore_state(
    game: HoldemGame, hole: tuple[int, ...], board: tuple[int, ...], fields: tuple[object, ...]
) -> HoldemState:
    """Unpickle a state (see :meth:`HoldemState.__reduce__`)."""
    return HoldemState(
        holdem=game,
        hole=hole,
        board=board,
        **dict(zip(_NODE_FIELDS, fields, strict=True)),  # type: ignore[arg-type]
    )


__all__ = ["HoldemGame", "HoldemState"]
