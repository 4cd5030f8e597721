"""Texas Hold'em, limit and no-limit, 2 to 9 players, one hand per game.

Seats. Players are numbered in position order, starting left of the button: player
``n - 1`` holds the button. With three or more players, player 0 posts the small blind
and player 1 the big blind; preflop the action starts with player 2 (left of the big
blind; the button when ``n = 3``), postflop with player 0.
Heads-up the button (player 1) posts the small blind and acts first preflop and last
after the flop; player 0 posts the big blind. These are pokerkit's (and the ACPC's)
player indices, so hands replay one to one against them.

Chips. ``stack`` is what each player has before the hand (one int for all, or one per
player); antes (``ante``, posted by every player and kept out of the blinds and bets) and
the blinds ``blinds=(small, big)`` come out of it; a player who cannot cover them posts
what they have. Every amount is an integer number of chips; ``returns()`` are chips won.

Actions (ids):

- ``0`` fold: legal only when facing a bet (a free check is never folded);
- ``1`` check or call (a call for less than owed when the stack is short: all-in);
- limit: ``2`` bet or raise by the fixed size: the small bet (the big blind) preflop and
  on the flop, the big bet (twice the big blind) on the turn and river. ``cap`` bets per
  round (default 4: a bet and three raises; preflop the big blind counts as the bet, so
  three raises follow it). A short stack raises all-in for less;
- no-limit: ``2 + X`` raises (or bets) *to* ``X``: the player's total bet on this street
  becomes ``X`` chips (what pokerkit's ``complete_bet_or_raise_to(X)`` does; blinds count
  in the preflop bets, antes do not). :meth:`HoldemState.raise_range` gives the legal
  ``(min, max)`` of ``X`` and :meth:`HoldemState.action_for_raise_to` the id; the minimum
  is the bet faced plus the largest bet or raise increment so far this street (at least a
  big blind), or all-in when the stack is smaller; the maximum is all-in.

Betting rules follow pokerkit (Tournament mode), which the differential tests replay hand
by hand: a raise all-in for less than a full raise does not reopen the betting to players
who already acted (consecutive short all-ins that add up to a full raise do); a player
facing a short all-in that is less than the last full raise cannot raise; nobody raises
when every other player still in is all-in; once at most one player still in has chips,
the remaining cards are dealt without betting.

Chance. Cards are dealt one at a time, uniformly from the cards not yet dealt (chance
outcomes are card ids 0..51, ``rank * 4 + suit``, see :mod:`pokerlab.cards`): the hole
cards round robin (one card to each player from player 0, then the second card to each),
then the three flop cards, the turn, the river. There are no burn cards (they change
nothing in distribution).

Pots. Uncalled chips go back to the bettor at the end of each round. At showdown the
pots are built from the chips each player put in (antes form part of the main pot); hands
that cannot win any pot are dead (as pokerkit's hand killing), pots with the same players
left in merge, each pot goes to its best hand(s) by :func:`pokerlab.cards.evaluate_batch`
and a split pot's odd chips all go to the first winner left of the button (the lowest
player index), as in pokerkit.

Infoset keys: ``"AsKd|r6c"`` preflop (own hole cards as dealt, then the preflop betting),
``"AsKd|Qh7c2d|r6c|c"`` after the flop (board in dealt order, then each street's
betting). Letters: ``f`` fold, ``c`` check or call, ``r6`` raise to 6 (no-limit), ``r``
bet or raise (limit).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pokerlab._types import CHANCE, TERMINAL, Action, Player
from pokerlab.cards import cards_str, evaluate_batch, parse_cards
from pokerlab.errors import IllegalActionError, PokerlabError, SpecError
from pokerlab.games.base import Game, State
from pokerlab.games.observation import Observation
from pokerlab.games.spec import GameSpec

FOLD: Action = 0
"""Fold (legal only when facing a bet)."""
CALL: Action = 1
"""Check, or call what is owed."""
RAISE: Action = 2
"""Limit: bet or raise by the fixed size. No-limit: ``RAISE + X`` raises to ``X``."""

N_DECK = 52
MAX_PLAYERS = 9
STREET_NAMES = ("preflop", "flop", "turn", "river")
BOARD_SIZES = (0, 3, 4, 5)
"""Board cards out during the betting of each street."""
BETTINGS = ("limit", "nolimit")


@dataclass(frozen=True)
class Pot:
    """One pot of a finished hand and where it went.

    Attributes:
        amount: chips in the pot.
        eligible: the players who could win it (still in, hand alive), lowest index first.
        winners: the players it went to.
        shares: chips each winner got, aligned with ``winners`` (odd chips to the first).
    """

    amount: int
    eligible: tuple[Player, ...]
    winners: tuple[Player, ...]
    shares: tuple[int, ...]


@dataclass(frozen=True)
class Settlement:
    """How a finished hand was settled.

    Attributes:
        pots: the main pot first, then the side pots (one pot when the hand was won by a fold).
        final_stacks: each player's chips after the hand.
        returns: chips won (negative: lost) by each player.
        showdown: the players whose hands were compared (empty when everyone folded to one).
        hand_values: each player's hand value 1..7462 at showdown (0 if not shown).
    """

    pots: tuple[Pot, ...]
    final_stacks: tuple[int, ...]
    returns: tuple[int, ...]
    showdown: tuple[Player, ...]
    hand_values: tuple[int, ...]


def _int_param(params: dict[str, object], name: str) -> int:
    value = params[name]
    if not isinstance(value, int) or isinstance(value, bool):
        raise SpecError(f"holdem parameter {name} must be an int; got {value!r}")
    return value


class HoldemGame(Game):
    """Texas Hold'em; build it with :func:`holdem` or ``games.load("holdem", ...)``."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        p: dict[str, object] = dict(spec.as_kwargs())
        self.n_players = _int_param(p, "players")
        if not 2 <= self.n_players <= MAX_PLAYERS:
            raise SpecError(
                f"holdem supports players=2..{MAX_PLAYERS}; got players={self.n_players}"
            )
        betting = p["betting"]
        if betting not in BETTINGS:
            raise SpecError(f"holdem betting must be 'limit' or 'nolimit'; got {betting!r}")
        self.betting = str(betting)
        self.no_limit = self.betting == "nolimit"
        blinds = p["blinds"]
        if (
            not isinstance(blinds, tuple)
            or len(blinds) != 2
            or not all(isinstance(b, int) and not isinstance(b, bool) for b in blinds)
            or not 0 < int(blinds[0]) <= int(blinds[1])
        ):
            raise SpecError(
                f"holdem blinds must be (small, big) with 0 < small <= big; got {blinds!r}"
            )
        self.small_blind = int(blinds[0])
        self.big_blind = int(blinds[1])
        self.ante = _int_param(p, "ante")
        if self.ante < 0:
            raise SpecError(f"holdem ante must be >= 0; got ante={self.ante}")
        stack = p["stack"]
        if isinstance(stack, int) and not isinstance(stack, bool):
            stacks: tuple[int, ...] = (stack,) * self.n_players
        elif (
            isinstance(stack, tuple)
            and len(stack) == self.n_players
            and all(isinstance(s, int) and not isinstance(s, bool) for s in stack)
        ):
            stacks = tuple(int(s) for s in stack)
        else:
            raise SpecError(
                f"holdem stack must be an int or one int per player ({self.n_players}); "
                f"got {stack!r}"
            )
        if min(stacks) < 1:
            raise SpecError(f"holdem stacks must be at least 1 chip; got {stack!r}")
        self.starting_stacks = stacks
        self.cap = _int_param(p, "cap")
        if self.cap < 1:
            raise SpecError(f"holdem cap (bets per round in limit) must be >= 1; got {self.cap}")
        n = self.n_players
        # The blind each player owes (heads-up: player 1, the button, posts the small one).
        if n == 2:
            nominal: tuple[int, ...] = (self.big_blind, self.small_blind)
        else:
            nominal = (self.small_blind, self.big_blind) + (0,) * (n - 2)
        self.posts_blind = tuple(b > 0 for b in nominal)
        self.antes_paid = tuple(min(self.ante, s) for s in stacks)
        self.blinds_paid = tuple(
            min(b, s - a) for b, s, a in zip(nominal, stacks, self.antes_paid, strict=True)
        )
        # Minimum bet / fixed bet size of each street, and raises allowed per street.
        if self.no_limit:
            self.street_bets = (self.big_blind,) * 4
            self.raise_caps: tuple[int | None, ...] = (None,) * 4
        else:
            big = 2 * self.big_blind
            self.street_bets = (self.big_blind, self.big_blind, big, big)
            self.raise_caps = (self.cap - 1, self.cap, self.cap, self.cap)
        self._initial = self._make_initial()

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

    def _make_initial(self) -> HoldemState:
        n = self.n_players
        bets = self.blinds_paid
        committed = tuple(a + b for a, b in zip(self.antes_paid, bets, strict=True))
        behind = tuple(s - c for s, c in zip(self.starting_stacks, committed, strict=True))
        return HoldemState(
            self, (), (), (), 0, ((),), behind, bets, committed, (False,) * n,
            (), 0, 0, 0, (), False, CHANCE,
        )

    def public_state(self, observation: Observation) -> HoldemState:
        """Rebuild the state an observation was taken in, as its seat may know it.

        The public betting and board are replayed with the observer's own hole cards and
        stand-in cards for the others (never shown), so the chips, the bets of the street
        and the legal raises are exact: renderers and agents can use them.

        Raises:
            SpecError: if the observation is not of this game or its history is not one.
        """
        if observation.game != str(self.spec):
            raise SpecError(f"the observation is of {observation.game}, not of {self.spec}")
        board = list(parse_cards(observation.board))
        own = parse_cards(observation.private_cards)
        n = self.n_players
        spare = [c for c in range(N_DECK) if c not in board and c not in own]
        holes: list[list[int]] = []
        for player in range(n):
            holes.append(list(own) if player == observation.seat else [spare.pop(), spare.pop()])
        state = self.initial_state()
        try:
            for player, name in observation.public_history:
                while state.to_act == CHANCE and len(state.hole) < 2 * n:
                    k = len(state.hole)
                    state = state.child(holes[k % n][k // n])
                if player == -1:
                    for card in parse_cards(name.split(" ", 1)[1]):
                        state = state.child(card)
                else:
                    state = state.child(self._action_of_name(name))
            while state.to_act == CHANCE and len(state.hole) < 2 * n:
                k = len(state.hole)
                state = state.child(holes[k % n][k // n])
        except (IllegalActionError, IndexError, ValueError) as exc:
            raise SpecError(f"the observation's history is not a {self.spec} hand: {exc}") from exc
        return state

    def _action_of_name(self, name: str) -> Action:
        words = name.split()
        if words[0] == "fold":
            return FOLD
        if words[0] in ("check", "call"):
            return CALL
        if words[0] in ("bet", "raise"):
            return RAISE + int(words[-1]) if self.no_limit else RAISE
        raise SpecError(f"unknown holdem action name {name!r}")

    def count_histories(self) -> int:
        """A lower bound on the number of histories: the deal orders of all the cards.

        Far too many to compile; :func:`pokerlab.tree.compile` refuses the game with it.
        """
        dealt = 2 * self.n_players + 5
        return math.perm(N_DECK, dealt)

    def describe(self) -> str:
        """One line of rules."""
        stacks = (
            f"stacks of {self.starting_stacks[0]}"
            if len(set(self.starting_stacks)) == 1
            else f"stacks {self.starting_stacks}"
        )
        ante = f", ante {self.ante}" if self.ante else ""
        cap = "" if self.no_limit else f", {self.cap} bets per round"
        return (
            f"{self.n_players}-player {'no-limit' if self.no_limit else 'limit'} Texas Hold'em, "
            f"blinds {self.small_blind}/{self.big_blind}{ante}, {stacks}{cap}"
        )


@dataclass(frozen=True, slots=True)
class HoldemState(State):
    """A Hold'em history: the cards dealt, each street's betting and the chips.

    Fields mirror pokerkit's betting state, so the rules (who acts, who may raise) are
    theirs; states are immutable and :meth:`child` builds the next one.
    """

    holdem: HoldemGame
    hist: tuple[Action, ...]  # every action, chance included
    hole: tuple[int, ...]  # hole cards in deal order: player p holds hole[p], hole[p + n]
    board: tuple[int, ...]
    street: int  # 0 preflop .. 3 river (the street being dealt or bet)
    betting: tuple[tuple[Action, ...], ...]  # each street's betting so far
    behind: tuple[int, ...]  # chips each player has left
    bets: tuple[int, ...]  # chips each player has bet this street
    committed: tuple[int, ...]  # chips each player has put in this hand, ante included
    folded: tuple[bool, ...]
    actors: tuple[Player, ...]  # players still to act this round, in order
    raise_amount: int  # the largest bet or raise increment this street
    raise_count: int  # bets + raises this street
    acted: int  # bit mask of players who acted since the last full raise
    short_all_ins: tuple[int, ...]  # consecutive all-in raise increments short of a full one
    runout: bool  # at most one player still in has chips: deal the rest, no betting
    to_act: Player

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
        """Every action so far: the hole cards, then betting and board cards in order."""
        return self.hist

    def legal_actions(self) -> tuple[Action, ...]:
        """Undealt cards at chance; fold (facing a bet), call, and the legal raises."""
        player = self.to_act
        if player == CHANCE:
            dealt = set(self.hole) | set(self.board)
            return tuple(c for c in range(N_DECK) if c not in dealt)
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
            return 0 <= action < N_DECK and action not in self.hole and action not in self.board
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
        return self._apply(action)

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
                legal.append(
                    f"raise to X ({RAISE}+X) for X in {bounds[0]}..{bounds[1]}"
                )
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
        if self.to_act == CHANCE:
            return f"deal {cards_str((action,))}" if 0 <= action < N_DECK else f"deal {action}"
        game = self.holdem
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
        n = self.holdem.n_players
        own = [self.hole[i] for i in (player, player + n) if player >= 0 and i < len(self.hole)]
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
        if len(self.hole) < 2 * self.holdem.n_players:
            return None
        assert isinstance(child, HoldemState)
        size = len(child.board)
        if size not in BOARD_SIZES[1:]:
            return None
        street = BOARD_SIZES.index(size)
        first = BOARD_SIZES[street - 1] if street > 1 else 0
        return (-1, f"{STREET_NAMES[street]} {cards_str(child.board[first:])}")

    def public_history(self) -> tuple[tuple[Player, str], ...]:
        """The betting, with one ``(-1, "flop Qh7c2d")`` event per street of board cards."""
        events: list[tuple[Player, str]] = []
        state: HoldemState = self.holdem.initial_state()
        n_hole = 2 * self.holdem.n_players
        for action in self.hist:
            if state.to_act >= 0:
                events.append((state.to_act, state.action_name(action)))
            dealing_board = state.to_act == CHANCE and len(state.hole) == n_hole
            state = state._apply(action)
            size = len(state.board)
            if dealing_board and size in BOARD_SIZES[1:]:
                street = BOARD_SIZES.index(size)
                first = BOARD_SIZES[street - 1] if street > 1 else 0
                events.append((-1, f"{STREET_NAMES[street]} {cards_str(state.board[first:])}"))
        return tuple(events)

    def private_cards(self, player: Player) -> str:
        """The player's hole cards dealt so far (``"AsKd"``)."""
        n = self.holdem.n_players
        return cards_str(self.hole[i] for i in (player, player + n) if i < len(self.hole))

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
        n = self.holdem.n_players
        return tuple(self.hole[i] for i in (player, player + n) if i < len(self.hole))

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

    def _raise_bounds(self, player: Player) -> tuple[int, int] | None:
        """Pokerkit's ``_verify_completion_betting_or_raising`` and the min/max amounts."""
        bets, behind = self.bets, self.behind
        max_bet = max(bets)
        owed = max_bet - bets[player]
        stack = behind[player]
        if min(stack, owed) < self.raise_amount:
            return None  # facing a short all-in it may not re-raise
        game = self.holdem
        cap = game.raise_caps[self.street]
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
        low = min(all_in, max(self.raise_amount, game.street_bets[self.street]) + max_bet)
        return (low, all_in if game.no_limit else low)

    # -- transitions -------------------------------------------------------------------------

    def _apply(self, action: Action) -> HoldemState:
        if self.to_act == CHANCE:
            return self._deal(action)
        return self._bet(action)

    def _deal(self, card: int) -> HoldemState:
        game = self.holdem
        hist = (*self.hist, card)
        n_hole = 2 * game.n_players
        if len(self.hole) < n_hole:
            hole = (*self.hole, card)
            if len(hole) < n_hole:
                return HoldemState(
                    game, hist, hole, (), 0, self.betting, self.behind, self.bets,
                    self.committed, self.folded, (), 0, 0, 0, (), False, CHANCE,
                )
            return _begin_betting(
                game, hist, hole, (), 0, self.betting, self.behind, self.bets, self.committed,
                self.folded,
            )
        board = (*self.board, card)
        street = self.street
        if len(board) < BOARD_SIZES[street]:
            return HoldemState(
                game, hist, self.hole, board, street, self.betting, self.behind, self.bets,
                self.committed, self.folded, (), 0, 0, 0, (), self.runout, CHANCE,
            )
        if not self.runout:
            return _begin_betting(
                game, hist, self.hole, board, street, self.betting, self.behind, self.bets,
                self.committed, self.folded,
            )
        done = street == 3
        return HoldemState(
            game, hist, self.hole, board, street if done else street + 1,
            self.betting if done else (*self.betting, ()), self.behind, self.bets,
            self.committed, self.folded, (), 0, 0, 0, (), True, TERMINAL if done else CHANCE,
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
            folded = tuple(f or i == player for i, f in enumerate(folded))
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
        hist = (*self.hist, action)
        if not actors or folded.count(False) <= 1:
            return _end_betting(
                game, hist, self.hole, self.board, self.street, betting, behind, bets,
                committed, folded,
            )
        return HoldemState(
            game, hist, self.hole, self.board, self.street, betting, tuple(behind),
            tuple(bets), tuple(committed), folded, actors, raise_amount, raise_count, acted,
            short_all_ins, False, actors[0],
        )

    # -- settlement --------------------------------------------------------------------------

    def settle(self) -> Settlement:
        """The pots of this finished hand, who won them, and the final stacks.

        Raises:
            PokerlabError: if the hand is not over.
        """
        if self.to_act != TERMINAL:
            raise PokerlabError("settle() needs a finished hand; this state is not terminal")
        game = self.holdem
        n = game.n_players
        final = list(self.behind)
        live = [i for i in range(n) if not self.folded[i]]
        if len(live) == 1:
            winner = live[0]
            total = sum(self.committed)
            final[winner] += total
            pots: tuple[Pot, ...] = (Pot(total, (winner,), (winner,), (total,)),)
            values = (0,) * n
            showdown: tuple[Player, ...] = ()
        else:
            hands = np.array([(*self.hole_cards(i), *self.board) for i in live], dtype=np.uint8)
            value_list = [0] * n
            for i, value in zip(live, evaluate_batch(hands).tolist(), strict=True):
                value_list[i] = value
            values = tuple(value_list)
            contributions = [c - a for c, a in zip(self.committed, game.antes_paid, strict=True)]
            antes = sum(game.antes_paid)
            # A hand that cannot win any pot is dead (pokerkit kills it before pushing).
            first = _build_pots(contributions, antes, live)
            alive = [
                i
                for i in live
                if any(
                    i in eligible and values[i] >= max(values[j] for j in eligible)
                    for _, eligible in first
                )
            ]
            pot_list = []
            for amount, eligible in _build_pots(contributions, antes, alive):
                if not eligible:  # pragma: no cover - chips nobody may win; pokerkit burns them
                    pot_list.append(Pot(amount, (), (), ()))
                    continue
                best = max(values[i] for i in eligible)
                winners = tuple(i for i in eligible if values[i] == best)
                share, odd = divmod(amount, len(winners))
                shares = tuple(share + (odd if k == 0 else 0) for k in range(len(winners)))
                for w, s in zip(winners, shares, strict=True):
                    final[w] += s
                pot_list.append(Pot(amount, eligible, winners, shares))
            pots = tuple(pot_list)
            showdown = tuple(live)
        returns = tuple(f - s for f, s in zip(final, game.starting_stacks, strict=True))
        return Settlement(pots, tuple(final), returns, showdown, values)

    def __str__(self) -> str:
        n = self.holdem.n_players
        holes = " ".join(cards_str(self.hole_cards(p)) or "-" for p in range(n))
        board = cards_str(self.board) or "-"
        streets = "/".join(self._letters(s) for s in self.betting)
        return f"holdem[{holes} | {board} | {streets}]"


def _begin_betting(
    game: HoldemGame,
    hist: tuple[Action, ...],
    hole: tuple[int, ...],
    board: tuple[int, ...],
    street: int,
    betting: tuple[tuple[Action, ...], ...],
    behind: tuple[int, ...],
    bets: tuple[int, ...],
    committed: tuple[int, ...],
    folded: tuple[bool, ...],
) -> HoldemState:
    """Start the betting of ``street`` (pokerkit's ``_begin_betting``)."""
    n = game.n_players
    if street == 0:
        posts = game.posts_blind
        last = max(range(n), key=lambda i: (bets[i] if posts[i] else 0, i))
        opener = (last + 1) % n
    else:
        opener = 0
    totals = sorted(bets[i] + behind[i] for i in range(n) if not folded[i])
    second = totals[-2]
    actors = tuple(
        i
        for i in ((opener + k) % n for k in range(n))
        if not folded[i] and behind[i] > 0 and min(behind[i], second - bets[i]) > 0
    )
    if not actors or (len(actors) == 1 and bets[actors[0]] >= max(bets)):
        return _end_betting(
            game, hist, hole, board, street, betting, list(behind), bets, list(committed),
            folded,
        )
    return HoldemState(
        game, hist, hole, board, street, betting, behind, bets, committed, folded, actors,
        0, 0, 0, (), False, actors[0],
    )


def _end_betting(
    game: HoldemGame,
    hist: tuple[Action, ...],
    hole: tuple[int, ...],
    board: tuple[int, ...],
    street: int,
    betting: tuple[tuple[Action, ...], ...],
    behind: list[int],
    bets: Sequence[int],
    committed: list[int],
    folded: tuple[bool, ...],
) -> HoldemState:
    """Close a betting round: return uncalled chips, then deal on, show down or stop."""
    n = game.n_players
    cutoff = sorted(bets)[-2]
    for i in range(n):
        if bets[i] > cutoff:
            behind[i] += bets[i] - cutoff
            committed[i] -= bets[i] - cutoff
    live = [i for i in range(n) if not folded[i]]
    zeros = (0,) * n
    if len(live) <= 1 or street == 3:
        return HoldemState(
            game, hist, hole, board, street, betting, tuple(behind), zeros, tuple(committed),
            folded, (), 0, 0, 0, (), False, TERMINAL,
        )
    runout = sum(1 for i in live if behind[i] > 0) <= 1
    return HoldemState(
        game, hist, hole, board, street + 1, (*betting, ()), tuple(behind), zeros,
        tuple(committed), folded, (), 0, 0, 0, (), runout, CHANCE,
    )


def _build_pots(
    contributions: Sequence[int], antes: int, eligible_players: Sequence[Player]
) -> list[tuple[int, tuple[Player, ...]]]:
    """Pokerkit's pots: layers of contributions, antes in the first, equal layers merged."""
    eligible_set = set(eligible_players)
    n = len(contributions)
    pots: list[tuple[int, tuple[Player, ...]]] = []
    amount = antes
    previous = 0
    for level in sorted(set(contributions)):
        amount += sum(level - previous for c in contributions if c >= level)
        eligible = tuple(i for i in range(n) if contributions[i] >= level and i in eligible_set)
        while pots and pots[-1][1] == eligible:
            amount += pots.pop()[0]
        if amount:
            pots.append((amount, eligible))
        amount = 0
        previous = level
    return pots


def holdem(
    *,
    players: int = 2,
    betting: str = "nolimit",
    blinds: tuple[int, int] = (1, 2),
    ante: int = 0,
    stack: int | Sequence[int] = 200,
    cap: int = 4,
) -> HoldemGame:
    """Return Texas Hold'em; ``holdem(players=6, betting="limit")`` is 6-max limit.

    Example:
        >>> game = holdem(stack=100)
        >>> state = game.initial_state().apply_sequence([51, 50, 47, 46])  # P0: As Ks, P1: Ah Kh
        >>> state.player, state.raise_range(), state.infoset_key()
        (1, (4, 100), 'AhKh|')
    """
    from pokerlab.games.registry import load

    stack_value: object = stack if isinstance(stack, int) else tuple(stack)
    game = load(
        "holdem", players=players, betting=betting, blinds=tuple(blinds), ante=ante,
        stack=stack_value, cap=cap,
    )
    assert isinstance(game, HoldemGame)
    return game


__all__ = [
    "BOARD_SIZES",
    "CALL",
    "FOLD",
    "RAISE",
    "STREET_NAMES",
    "HoldemGame",
    "HoldemState",
    "Pot",
    "Settlement",
    "holdem",
]
