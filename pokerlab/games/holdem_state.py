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

States are frozen and built by keyword only: the betting-round fields default to "no
round in progress", so a state between rounds names only the hand's fields.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from pokerlab._cache import SpecCache
from pokerlab._types import CHANCE, TERMINAL, Action, Player
from pokerlab.cards import cards_str
from pokerlab.errors import IllegalActionError, PokerlabError, SpecError
from pokerlab.games.base import Game, State
from pokerlab.games.holdem_pots import Settlement, settle
from pokerlab.games.holdem_public import replay_observation
from pokerlab.games.holdem_rules import CALL, FOLD, RAISE, STREET_NAMES, HoldemRules
from pokerlab.games.holdem_size import HoldemSize, count_call_down, count_holdem
from pokerlab.games.observation import Observation
from pokerlab.games.spec import GameSpec

_SIZES: SpecCache[HoldemSize] = SpecCache("games.holdem_size", maxsize=64)
"""Counted sizes by spec (counting takes up to about a second)."""


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
        committed = tuple(a + b for a, b in zip(rules.antes_paid, rules.blinds_paid, strict=True))
        self._initial = HoldemState(
            holdem=self,
            hole=(),
            board=(),
            street=0,
            betting=((),),
            behind=tuple(s - c for s, c in zip(rules.starting_stacks, committed, strict=True)),
            bets=rules.blinds_paid,
            committed=committed,
            folded=(False,) * rules.n_players,
            to_act=CHANCE,
        )

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


@dataclass(frozen=True, slots=True, kw_only=True)
class HoldemState(State):
    """A Hold'em history: the cards dealt, each street's betting and the chips.

    Fields mirror pokerkit's betting state, so the rules (who acts, who may raise) are
    theirs; states are immutable and :meth:`child` builds the next one.
    """

    holdem: HoldemGame
    hole: tuple[int, ...]  # hole cards in deal order: player p holds hole[p], hole[p + n]
    board: tuple[int, ...]
    street: int  # 0 preflop .. 3 river (the street being dealt or bet)
    betting: tuple[tuple[Action, ...], ...]  # each street's betting so far
    behind: tuple[int, ...]  # chips each player has left
    bets: tuple[int, ...]  # chips each player has bet this street
    committed: tuple[int, ...]  # chips each player has put in this hand, ante included
    folded: tuple[bool, ...]
    to_act: Player  # the player to act, CHANCE or TERMINAL
    # -- the betting round in progress (the defaults: none)
    actors: tuple[Player, ...] = ()  # players still to act this round, in order
    raise_amount: int = 0  # the largest bet or raise increment this street
    raise_count: int = 0  # bets + raises this street
    acted: int = 0  # bit mask of players who acted since the last full raise
    short_all_ins: tuple[int, ...] = ()  # consecutive all-in raise increments short of a full one
    runout: bool = False  # at most one player still in has chips: deal the rest, no betting

    # -- State API ---------------------------------------------------------------------------

    @property
    def game(self) -> HoldemGame:
        """The game."""
        return self.holdem

    @property
    def player(self) -> Player:
        """The player to act, CHANCE while dealing, TERMINAL at the end."""
        return self.to_act

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action so far: the hole cards, then betting and board cards in order.

        Rebuilt from the cards and each street's betting (the order is fixed: all hole
        cards, the preflop betting, then each street's board cards and its betting), so
        no state carries the same actions twice.
        """
        sizes = self.holdem.rules.board_sizes
        actions = list(self.hole)
        for street, betting in enumerate(self.betting):
            if street:
                actions.extend(self.board[sizes[street - 1] : sizes[street]])
            actions.extend(betting)
        return tuple(actions)

    def legal_actions(self) -> tuple[Action, ...]:
        """Undealt cards at chance; fold (facing a bet), call, and the legal raises."""
        player = self.to_act
        if player == CHANCE:
            cards = list(self.holdem.rules.deck)
            for card in self.hole:  # a few C-level removals beat a scan of the deck
                cards.remove(card)
            for card in self.board:
                cards.remove(card)
            return tuple(cards)
        if player == TERMINAL:
            return ()
        bets = self.bets
        actions: tuple[Action, ...] = (FOLD, CALL) if bets[player] < max(bets) else (CALL,)
        bounds = self._raise_bounds(player)
        if bounds is None:
            return actions
        if not self.holdem.no_limit:
            return (*actions, RAISE)
        return actions + tuple(range(RAISE + bounds[0], RAISE + bounds[1] + 1))

    def is_legal(self, action: Action) -> bool:
        """True when ``action`` may be taken here (without listing every raise)."""
        player = self.to_act
        if player == CHANCE:
            return (
                action in self.holdem.rules.deck
                and action not in self.hole
                and action not in self.board
            )
        if player == TERMINAL:
            return False
        if action == CALL:
            return True
        if action == FOLD:
            return self.bets[player] < max(self.bets)
        bounds = self._raise_bounds(player)
        if bounds is None:
            return False
        if self.holdem.no_limit:
            return bounds[0] <= action - RAISE <= bounds[1]
        return action == RAISE

    def child(self, action: Action) -> HoldemState:
        """Return the state after ``action``.

        Raises:
            IllegalActionError: if ``action`` is not legal here; the message lists the legal
                ones (raises as a range).
        """
        if not self.is_legal(action):
            raise IllegalActionError(self._illegal_message(action))
        if self.to_act == CHANCE:  # (_apply, inlined: this runs at every step of every hand)
            return self._deal(action)
        return self._bet(action)

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
            if self.holdem.no_limit:
                legal.append(f"raise to X ({RAISE}+X) for X in {bounds[0]}..{bounds[1]}")
            else:
                legal.append(f"{self.action_name(RAISE)} ({RAISE})")
        shown = self.action_name(action) if self._nameable(action) else str(action)
        return f"{shown!r} ({action}) is not legal here; legal: {', '.join(legal)}"

    def chance_outcomes(self) -> tuple[tuple[Action, float], ...]:
        """Each undealt card, uniformly."""
        if self.to_act != CHANCE:
            return ()
        cards = self.legal_actions()
        probability = 1.0 / len(cards)
        return tuple((c, probability) for c in cards)

    def action_name(self, action: Action) -> str:
        """``fold``, ``check``/``call``, ``bet``/``raise`` (limit), ``bet X``/``raise to X``."""
        game = self.holdem
        if self.to_act == CHANCE:
            in_deck = action in game.rules.deck
            return f"deal {cards_str((action,))}" if in_deck else f"deal {action}"
        facing = self.to_act >= 0 and max(self.bets) > 0
        if action == FOLD:
            return "fold"
        if action == CALL:
            owed = self.to_act >= 0 and self.bets[self.to_act] < max(self.bets)
            return "call" if owed else "check"
        if action >= RAISE and game.no_limit:
            amount = action - RAISE
            return f"raise to {amount}" if facing else f"bet {amount}"
        if action == RAISE:
            return "raise" if facing else "bet"
        return game.action_name(action)

    def infoset_key(self, player: Player | None = None) -> str:
        """Own hole cards, the board, and each street's betting: ``"AsKd|Qh7c2d|r6c|c"``."""
        if player is None:
            player = self.to_act
        own = self.hole_cards(player) if player >= 0 else ()
        streets = "|".join(self._letters(s) for s in self.betting)
        if not self.board:
            return f"{cards_str(own)}|{streets}"
        return f"{cards_str(own)}|{cards_str(self.board)}|{streets}"

    def _letters(self, actions: tuple[Action, ...]) -> str:
        out = []
        for a in actions:
            if a == FOLD:
                out.append("f")
            elif a == CALL:
                out.append("c")
            elif self.holdem.no_limit:
                out.append(f"r{a - RAISE}")
            else:
                out.append("r")
        return "".join(out)

    def public_event(self, action: Action, child: State) -> tuple[Player, str] | None:
        """The betting, and ``(-1, "flop Qh7c2d")`` once a street's board cards are all out."""
        if self.to_act >= 0:
            return (self.to_act, self.action_name(action))
        rules = self.holdem.rules
        if len(self.hole) < rules.n_hole_cards:
            return None
        assert isinstance(child, HoldemState)
        sizes = rules.board_sizes
        size = len(child.board)
        if size not in sizes[1:]:
            return None
        street = sizes.index(size)
        first = sizes[street - 1] if street > 1 else 0
        return (-1, f"{STREET_NAMES[street]} {cards_str(child.board[first:])}")

    def private_cards(self, player: Player) -> str:
        """The player's hole cards dealt so far (``"AsKd"``)."""
        return cards_str(self.hole_cards(player))

    def board_cards(self) -> str:
        """The board dealt so far (``"Qh7c2d"``)."""
        return cards_str(self.board)

    def contributions(self) -> tuple[float, ...]:
        """Chips each player has put in this hand, ante and blinds included."""
        return tuple(float(c) for c in self.committed)

    def stacks(self) -> tuple[float, ...]:
        """Chips each player has left behind."""
        return tuple(float(b) for b in self.behind)

    def _terminal_returns(self) -> tuple[float, ...]:
        return tuple(float(r) for r in self.settle().returns)

    # -- Hold'em helpers ---------------------------------------------------------------------

    def hole_cards(self, player: Player) -> tuple[int, ...]:
        """The player's hole cards dealt so far, as card ids."""
        return self.hole[player : len(self.hole) : self.holdem.n_players]

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
        if self.to_act < 0:
            return None
        return self._raise_bounds(self.to_act)

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
        return RAISE + amount if self.holdem.no_limit else RAISE

    def raise_to_amount(self, action: Action) -> int:
        """The raise-to amount of a legal raise ``action`` (limit: the fixed amount)."""
        if self.holdem.no_limit:
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
        bets, behind = self.bets, self.behind
        max_bet = max(bets)
        owed = max_bet - bets[player]
        stack = behind[player]
        if min(stack, owed) < self.raise_amount:
            return None  # facing a short all-in it may not re-raise
        game = self.holdem
        rules = game.rules
        cap = rules.raise_caps[self.street]
        if cap is not None and self.raise_count >= cap:
            return None
        if (
            self.short_all_ins
            and sum(self.short_all_ins) < self.raise_amount
            and self.acted >> player & 1
        ):
            return None  # a short all-in does not reopen the betting
        if stack <= owed:
            return None
        folded = self.folded
        for i in range(game.n_players):
            if i != player and not folded[i] and behind[i] + bets[i] > max_bet:
                break
        else:
            return None  # everyone else still in is all-in
        all_in = stack + bets[player]
        low = min(all_in, max(self.raise_amount, rules.street_bets[self.street]) + max_bet)
        return (low, all_in if game.no_limit else low)

    # -- transitions -------------------------------------------------------------------------

    def _apply(self, action: Action) -> HoldemState:
        if self.to_act == CHANCE:
            return self._deal(action)
        return self._bet(action)

    def _deal(self, card: int) -> HoldemState:
        game = self.holdem
        rules = game.rules
        if len(self.hole) < rules.n_hole_cards:
            hole = (*self.hole, card)
            if len(hole) < rules.n_hole_cards:
                return HoldemState(
                    holdem=game, hole=hole, board=(), street=0, betting=self.betting,
                    behind=self.behind, bets=self.bets, committed=self.committed,
                    folded=self.folded, to_act=CHANCE,
                )
            return _begin_betting(
                game, hole, (), 0, self.betting, self.behind, self.bets, self.committed,
                self.folded,
            )
        board = (*self.board, card)
        street = self.street
        if len(board) < rules.board_sizes[street]:
            return HoldemState(
                holdem=game, hole=self.hole, board=board, street=street,
                betting=self.betting, behind=self.behind, bets=self.bets,
                committed=self.committed, folded=self.folded, to_act=CHANCE, runout=self.runout,
            )
        if not self.runout:
            return _begin_betting(
                game, self.hole, board, street, self.betting, self.behind, self.bets,
                self.committed, self.folded,
            )
        done = street == rules.n_streets - 1
        return HoldemState(
            holdem=game, hole=self.hole, board=board,
            street=street if done else street + 1,
            betting=self.betting if done else (*self.betting, ()), behind=self.behind,
            bets=self.bets, committed=self.committed, folded=self.folded,
            to_act=TERMINAL if done else CHANCE, runout=True,
        )

    def _bet(self, action: Action) -> HoldemState:
        game = self.holdem
        n = game.n_players
        player = self.to_act
        behind = list(self.behind)
        bets = list(self.bets)
        committed = list(self.committed)
        folded = self.folded
        actors = self.actors[1:]
        acted = self.acted | (1 << player)
        raise_amount, raise_count, short_all_ins = (
            self.raise_amount, self.raise_count, self.short_all_ins
        )
        if action == FOLD:
            folded = (*folded[:player], True, *folded[player + 1 :])
        elif action == CALL:
            amount = min(behind[player], max(bets) - bets[player])
            bets[player] += amount
            behind[player] -= amount
            committed[player] += amount
        else:
            to = action - RAISE if game.no_limit else self.raise_to_amount(action)
            max_bet = max(bets)
            increment = to - max_bet
            delta = to - bets[player]
            bets[player] = to
            behind[player] -= delta
            committed[player] += delta
            actors = tuple(
                i
                for i in ((player + k) % n for k in range(1, n))
                if not folded[i] and behind[i] > 0
            )
            if increment >= raise_amount:
                acted = 1 << player
            raise_amount = max(raise_amount, increment)
            raise_count += 1
            short_all_ins = () if behind[player] else (*short_all_ins, increment)
            if sum(short_all_ins) >= raise_amount:
                short_all_ins = ()
        betting = (*self.betting[:-1], (*self.betting[-1], action))
        if not actors or folded.count(False) <= 1:
            return _end_betting(
                game, self.hole, self.board, self.street, betting, behind, bets,
                committed, folded,
            )
        return HoldemState(
            holdem=game, hole=self.hole, board=self.board, street=self.street,
            betting=betting, behind=tuple(behind), bets=tuple(bets), committed=tuple(committed),
            folded=folded, to_act=actors[0], actors=actors, raise_amount=raise_amount,
            raise_count=raise_count, acted=acted, short_all_ins=short_all_ins,
        )

    # -- settlement --------------------------------------------------------------------------

    def settle(self) -> Settlement:
        """The pots of this finished hand, who won them, and the final stacks.

        Raises:
            PokerlabError: if the hand is not over.
        """
        if self.to_act != TERMINAL:
            raise PokerlabError("settle() needs a finished hand; this state is not terminal")
        return settle(
            self.holdem.rules,
            hole_cards=[self.hole_cards(i) for i in range(self.holdem.n_players)],
            board=self.board,
            committed=self.committed,
            behind=self.behind,
            folded=self.folded,
        )

    def __str__(self) -> str:
        n = self.holdem.n_players
        holes = " ".join(cards_str(self.hole_cards(p)) or "-" for p in range(n))
        board = cards_str(self.board) or "-"
        streets = "/".join(self._letters(s) for s in self.betting)
        return f"holdem[{holes} | {board} | {streets}]"


def _begin_betting(
    game: HoldemGame,
    hole: tuple[int, ...],
    board: tuple[int, ...],
    street: int,
    betting: tuple[tuple[Action, ...], ...],
    behind: tuple[int, ...],
    bets: tuple[int, ...],
    committed: tuple[int, ...],
    folded: tuple[bool, ...],
) -> HoldemState:
    """Start the betting of ``street`` (pokerkit's ``_begin_betting``).

    Arguments are the hand so far, as :class:`HoldemState` names its fields (passed by
    position: this runs at every street of every hand).
    """
    n = game.n_players
    # Preflop the bets are still the blinds, so the opener is the rules' (precomputed).
    opener = game.rules.preflop_opener if street == 0 else game.rules.openers[street]
    assert opener is not None
    totals = sorted(bets[i] + behind[i] for i in range(n) if not folded[i])
    second = totals[-2]
    actors = tuple(
        i
        for i in ((opener + k) % n for k in range(n))
        if not folded[i] and behind[i] > 0 and min(behind[i], second - bets[i]) > 0
    )
    if not actors or (len(actors) == 1 and bets[actors[0]] >= max(bets)):
        return _end_betting(
            game, hole, board, street, betting, list(behind), bets, list(committed),
            folded,
        )
    return HoldemState(
        holdem=game, hole=hole, board=board, street=street, betting=betting,
        behind=behind, bets=bets, committed=committed, folded=folded, to_act=actors[0],
        actors=actors,
    )


def _end_betting(
    game: HoldemGame,
    hole: tuple[int, ...],
    board: tuple[int, ...],
    street: int,
    betting: tuple[tuple[Action, ...], ...],
    behind: list[int],
    bets: Sequence[int],
    committed: list[int],
    folded: tuple[bool, ...],
) -> HoldemState:
    """Close a betting round: return uncalled chips, then deal on, show down or stop.

    Arguments as :func:`_begin_betting`'s; ``behind`` and ``committed`` are updated in place.
    """
    n = game.n_players
    cutoff = sorted(bets)[-2]
    for i in range(n):
        if bets[i] > cutoff:
            behind[i] += bets[i] - cutoff
            committed[i] -= bets[i] - cutoff
    live = [i for i in range(n) if not folded[i]]
    if len(live) <= 1 or street == game.rules.n_streets - 1:
        return HoldemState(
            holdem=game, hole=hole, board=board, street=street, betting=betting,
            behind=tuple(behind), bets=(0,) * n, committed=tuple(committed), folded=folded,
            to_act=TERMINAL,
        )
    return HoldemState(
        holdem=game, hole=hole, board=board, street=street + 1,
        betting=(*betting, ()), behind=tuple(behind), bets=(0,) * n,
        committed=tuple(committed), folded=folded, to_act=CHANCE,
        runout=sum(1 for i in live if behind[i] > 0) <= 1,
    )


__all__ = ["HoldemGame", "HoldemState"]
