"""Leduc poker, standard and its variants (more ranks, no raise cap, short stacks).

Standard Leduc (Southey et al. 2005; OpenSpiel's ``leduc_poker``): a deck of two suits of
three ranks; each player antes 1 and gets one private card; a betting round with bets of
2; one public (board) card; a betting round with bets of 4. At most a bet and a raise per
round (``raise_cap=2``). At showdown a pair with the board beats any unpaired hand,
otherwise the higher private card wins; equal hands split the pot. Player 0 (P1) acts
first in both rounds.

Variants: ``ranks`` (more ranks, still two suits), ``raise_cap=None`` (no cap), ``stack``
(each player's chips, ante included: a raise bigger than what is left is an all-in for
what is left, and a player facing an all-in may only fold or call), ``pair_counts=False``
(high-card-only showdown), ``players=3`` (OpenSpiel's 3-player rules).
``leduc(stack=50, raise_cap=None)`` is the 50-chip challenge variant.

Actions are OpenSpiel's: ``0`` fold, ``1`` call (check when nothing is owed), ``2`` raise
(bet when nothing is owed). Fold is legal only when facing a bet. Cards are ids
``rank * 2 + suit``; chance actions are card ids.

Infoset keys name ranks, not suits (suits never matter in Leduc): ``"K|rc"`` in round 1
(private K, history raise-call so far... of round 1), ``"K|Q|rc|r"`` in round 2 (board
Q, round-1 history ``rc``, round-2 history ``r``). Letters: ``f`` fold, ``c`` check or
call, ``r`` bet or raise (the ACPC convention).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from pokerlab._types import CHANCE, TERMINAL, Action, Player
from pokerlab.errors import SpecError
from pokerlab.games.base import Game, State, count_subtree
from pokerlab.games.registry import load
from pokerlab.games.spec import GameSpec

FOLD: Action = 0
CALL: Action = 1
RAISE: Action = 2
SUITS = 2
_LETTERS = "fcr"
_RANK_NAMES = "23456789TJQKA"


def leduc_rank_names(ranks: int) -> tuple[str, ...]:
    """Names of the ranks, lowest first: the top ``ranks`` of 2..A, else 1..N."""
    if ranks <= len(_RANK_NAMES):
        return tuple(_RANK_NAMES[len(_RANK_NAMES) - ranks :])
    return tuple(str(r + 1) for r in range(ranks))


class LeducGame(Game):
    """Leduc poker; build it with :func:`leduc` or ``games.load("leduc", ...)``."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        p = spec.as_kwargs()
        self.n_players = int(p["players"])  # type: ignore[arg-type]
        if self.n_players not in (2, 3):
            raise SpecError(f"leduc supports players=2 or players=3; got players={self.n_players}")
        self.ranks = int(p["ranks"])  # type: ignore[arg-type]
        if self.ranks < 2 or 2 * self.ranks < self.n_players + 1:
            raise SpecError(
                f"leduc needs ranks >= 2 and enough cards for {self.n_players} players and "
                f"the board; got ranks={self.ranks}"
            )
        self.ante = int(p["ante"])  # type: ignore[arg-type]
        if self.ante < 1:
            raise SpecError(f"leduc needs ante >= 1; got ante={self.ante}")
        bets = p["bets"]
        if (
            not isinstance(bets, tuple)
            or len(bets) != 2
            or not all(isinstance(b, int) and not isinstance(b, bool) and b > 0 for b in bets)
        ):
            raise SpecError(
                f"leduc bets must be two positive integers (round 1, round 2); got {bets!r}"
            )
        self.bet_sizes: tuple[int, int] = (int(bets[0]), int(bets[1]))  # type: ignore[arg-type]
        cap = p["raise_cap"]
        self.raise_cap = None if cap is None else int(cap)  # type: ignore[arg-type]
        if self.raise_cap is not None and self.raise_cap < 0:
            raise SpecError(f"leduc raise_cap must be >= 0 or None; got {self.raise_cap}")
        stack = p["stack"]
        self.stack = None if stack is None else int(stack)  # type: ignore[arg-type]
        if self.stack is not None and self.stack <= self.ante:
            raise SpecError(
                f"leduc stack must be larger than the ante ({self.ante}) so a player can act; "
                f"got stack={self.stack}"
            )
        if self.stack is None and self.raise_cap is None:
            raise SpecError(
                "leduc with raise_cap=None needs a finite stack (the game would be infinite); "
                "e.g. leduc(stack=50, raise_cap=None)"
            )
        if self.stack is not None and self.n_players != 2:
            raise SpecError("leduc with a finite stack supports players=2 only")
        self.pair_counts = bool(p["pair_counts"])
        self.n_cards = SUITS * self.ranks

    @cached_property
    def rank_names(self) -> tuple[str, ...]:
        """The ranks' names, lowest first (built on first use)."""
        return leduc_rank_names(self.ranks)

    @property
    def max_actions(self) -> int:
        """Three actions: fold, call, raise."""
        return 3

    def action_name(self, action: Action) -> str:
        """``"fold"``, ``"call"`` or ``"raise"``."""
        return ("fold", "call", "raise")[action]

    def initial_state(self) -> LeducState:
        """The state before the deal."""
        n = self.n_players
        return LeducState(
            self, (), -1, 0, ((), ()), (self.ante,) * n, (False,) * n, self.ante, 0, 0, CHANCE
        )

    def count_histories(self) -> int:
        """The number of histories, counted without building the tree (for size checks).

        The betting does not depend on the cards, so one deal's betting tree is walked and
        multiplied by the number of deals (private cards, then board cards).
        """
        n, cards = self.n_players, self.n_cards
        dealing, ways = 0, 1
        for k in range(n):
            dealing += ways
            ways *= cards - k
        boards = cards - n
        state: LeducState = self.initial_state()
        for card in range(n):
            state = state._apply(card)

        def children(node: State) -> list[tuple[State, int]]:
            assert isinstance(node, LeducState)
            # The rules never read the betting so far, only the chips and counters: forget
            # it, so that deep trees (no raise cap, deep stacks) cost no more per node.
            node = replace(node, sequences=((), ()), letters=("", ""))
            if node.to_act == CHANCE:  # the board: every board card gives the same betting
                return [(node._apply(n), boards)]
            return [(node._apply(a), 1) for a in node.legal_actions()]

        def key(node: State) -> tuple[object, ...]:
            assert isinstance(node, LeducState)
            return (node.round, node.board >= 0, node.committed, node.folded, node.stakes,
                    node.n_raises, node.n_calls, node.to_act)

        return dealing + ways * count_subtree(state, key, children)

    def rank(self, card: int) -> int:
        """The rank (0 = lowest) of card id ``card``."""
        return card // SUITS

    def card_name(self, card: int) -> str:
        """A card's readable name: its rank, then ``a``/``b`` for its suit (``"Ka"``)."""
        return self.rank_names[card // SUITS] + "ab"[card % SUITS]

    def describe(self) -> str:
        """One line of rules."""
        cap = "no raise cap" if self.raise_cap is None else f"raise cap {self.raise_cap}"
        stack = "unlimited stacks" if self.stack is None else f"stacks of {self.stack}"
        pairs = "" if self.pair_counts else ", high card only"
        return (
            f"{self.n_players}-player Leduc, {self.ranks} ranks x 2 suits, ante {self.ante}, "
            f"bets {self.bet_sizes[0]}/{self.bet_sizes[1]}, {cap}, {stack}{pairs}"
        )


@dataclass(frozen=True, slots=True)
class LeducState(State):
    """A Leduc history. Fields are the public and private facts the rules need."""

    leduc: LeducGame
    private: tuple[int, ...]  # card id per player, dealt so far
    board: int  # card id, -1 before it is dealt
    round: int  # 0 or 1
    sequences: tuple[tuple[Action, ...], tuple[Action, ...]]  # betting of each round
    committed: tuple[int, ...]  # chips each player has put in, ante included
    folded: tuple[bool, ...]
    stakes: int  # the contribution every active player must match
    n_raises: int  # bets + raises this round
    n_calls: int  # calls (checks) since the last raise this round
    to_act: Player  # 0..n-1, CHANCE or TERMINAL
    letters: tuple[str, str] = ("", "")  # `sequences` as f/c/r letters, kept for infoset keys

    @property
    def game(self) -> LeducGame:
        """The game."""
        return self.leduc

    @property
    def player(self) -> Player:
        """The player to act, CHANCE while dealing, TERMINAL at the end."""
        return self.to_act

    @property
    def history(self) -> tuple[Action, ...]:
        """Private cards, round-1 betting, board, round-2 betting."""
        head = self.private + self.sequences[0]
        if self.board < 0:
            return head
        return (*head, self.board, *self.sequences[1])

    def _dealt(self) -> set[int]:
        dealt = set(self.private)
        if self.board >= 0:
            dealt.add(self.board)
        return dealt

    def legal_actions(self) -> tuple[Action, ...]:
        """Undealt cards at chance; fold (only facing a bet), call, raise (when allowed)."""
        player = self.to_act
        if player == CHANCE:
            dealt = self._dealt()
            return tuple(c for c in range(self.leduc.n_cards) if c not in dealt)
        if player == TERMINAL:
            return ()
        actions: tuple[Action, ...] = (
            (FOLD, CALL) if self.stakes > self.committed[player] else (CALL,)
        )
        if self._can_raise():
            actions += (RAISE,)
        return actions

    def _can_raise(self) -> bool:
        cap = self.leduc.raise_cap
        if cap is not None and self.n_raises >= cap:
            return False
        stack = self.leduc.stack
        return stack is None or self.stakes < stack

    def chance_outcomes(self) -> tuple[tuple[Action, float], ...]:
        """Each undealt card, uniformly."""
        if self.to_act != CHANCE:
            return ()
        cards = self.legal_actions()
        return tuple((c, 1.0 / len(cards)) for c in cards)

    def _next_active(self, after: Player, folded: tuple[bool, ...]) -> Player:
        n = self.leduc.n_players
        for i in range(1, n + 1):
            candidate = (after + i) % n
            if not folded[candidate]:
                return candidate
        raise AssertionError("no active player left")

    def _apply(self, action: Action) -> LeducState:
        game = self.leduc
        n = game.n_players
        if self.to_act == CHANCE:
            if len(self.private) < n:
                private = (*self.private, action)
                to_act = 0 if len(private) == n else CHANCE
                return LeducState(
                    game,
                    private,
                    -1,
                    0,
                    self.sequences,
                    self.committed,
                    self.folded,
                    self.stakes,
                    0,
                    0,
                    to_act,
                    self.letters,
                )
            # The board: round 2 starts with the first active player from seat 0, unless
            # everyone still in is all-in, in which case the hand goes to showdown.
            all_in = game.stack is not None and self.stakes >= game.stack
            to_act = TERMINAL if all_in else self._next_active(n - 1, self.folded)
            return LeducState(
                game,
                self.private,
                action,
                1,
                self.sequences,
                self.committed,
                self.folded,
                self.stakes,
                0,
                0,
                to_act,
                self.letters,
            )
        player = self.to_act
        folded = self.folded
        stakes, n_raises, n_calls = self.stakes, self.n_raises, self.n_calls
        committed = self.committed
        if action == FOLD:
            folded = (*folded[:player], True, *folded[player + 1 :])
        else:
            if action == CALL:
                n_calls += 1
            else:
                stakes += game.bet_sizes[self.round]
                if game.stack is not None and stakes > game.stack:
                    stakes = game.stack
                n_raises += 1
                n_calls = 0
            committed = (*committed[:player], stakes, *committed[player + 1 :])
        first, second = self.sequences
        first_letters, second_letters = self.letters
        if self.round == 0:
            first = (*first, action)
            first_letters += _LETTERS[action]
        else:
            second = (*second, action)
            second_letters += _LETTERS[action]
        remaining = n - folded.count(True)
        round_over = n_calls == remaining if n_raises == 0 else n_calls == remaining - 1
        if remaining == 1 or (round_over and self.round == 1):
            to_act = TERMINAL
        elif round_over:
            to_act = CHANCE
            n_raises, n_calls = 0, 0
        elif n == 2:
            to_act = 1 - player
        else:
            to_act = self._next_active(player, folded)
        return LeducState(
            game,
            self.private,
            self.board,
            self.round,
            (first, second),
            committed,
            folded,
            stakes,
            n_raises,
            n_calls,
            to_act,
            (first_letters, second_letters),
        )

    def infoset_key(self, player: Player | None = None) -> str:
        """Rank of the private card, the board rank, and each round's betting."""
        if player is None:
            player = self.to_act
        names = self.leduc.rank_names
        card = names[self.private[player] // SUITS] if player < len(self.private) else "?"
        first, second = self.letters
        if self.board < 0:
            return f"{card}|{first}"
        return f"{card}|{names[self.board // SUITS]}|{first}|{second}"

    def action_name(self, action: Action) -> str:
        """``check``/``bet`` when nothing is owed, ``fold``/``call``/``raise`` otherwise."""
        if self.to_act == CHANCE:
            return f"deal {self.leduc.card_name(action)}"
        owed = self.to_act >= 0 and self.stakes > self.committed[self.to_act]
        if action == FOLD:
            return "fold"
        if action == CALL:
            return "call" if owed else "check"
        if action == RAISE:
            return "raise" if owed else "bet"
        raise SpecError(f"leduc has actions 0 (fold), 1 (call), 2 (raise); got {action}")

    def public_event(self, action: Action, child: State) -> tuple[Player, str] | None:
        """Players' actions, and the board card (``"board Q"``) once the private cards are out."""
        if self.to_act >= 0:
            return (self.to_act, self.action_name(action))
        if len(self.private) == self.leduc.n_players:
            return (-1, f"board {self.leduc.rank_names[action // SUITS]}")
        return None

    def private_cards(self, player: Player) -> str:
        """The rank of the player's card."""
        if player >= len(self.private):
            return ""
        return self.leduc.rank_names[self.private[player] // SUITS]

    def board_cards(self) -> str:
        """The rank of the board card, once dealt."""
        return self.leduc.rank_names[self.board // SUITS] if self.board >= 0 else ""

    def contributions(self) -> tuple[float, ...]:
        """Chips each player has put in, ante included."""
        return tuple(float(c) for c in self.committed)

    def stacks(self) -> tuple[float, ...] | None:
        """Chips left behind, or None with unlimited stacks."""
        if self.leduc.stack is None:
            return None
        return tuple(float(self.leduc.stack - c) for c in self.committed)

    def hand_strength(self, player: Player) -> int:
        """A number that orders showdown hands: a pair with the board beats any high card."""
        rank = self.private[player] // SUITS
        if self.leduc.pair_counts and rank == self.board // SUITS:
            return 1000 + rank
        return rank

    def _terminal_returns(self) -> tuple[float, ...]:
        n = self.leduc.n_players
        if n == 2:  # written out: compiling the 50-chip variant visits 164k terminals
            first, second = self.committed
            if self.folded[0]:
                return (-float(first), float(first))
            if self.folded[1]:
                return (float(second), -float(second))
            mine, theirs = self.hand_strength(0), self.hand_strength(1)
            if mine == theirs:
                return (0.0, 0.0)
            return (
                (float(second), -float(second)) if mine > theirs else (-float(first), float(first))
            )
        pot = sum(self.committed)
        active = [p for p in range(n) if not self.folded[p]]
        if len(active) == 1:
            winners = active
        else:
            strengths = {p: self.hand_strength(p) for p in active}
            best = max(strengths.values())
            winners = [p for p in active if strengths[p] == best]
        share = pot / len(winners)
        return tuple((share if p in winners else 0.0) - self.committed[p] for p in range(n))

    def __str__(self) -> str:
        cards = " ".join(self.leduc.card_name(c) for c in self.private)
        board = self.leduc.card_name(self.board) if self.board >= 0 else "-"
        seqs = "/".join("".join(_LETTERS[a] for a in s) for s in self.sequences)
        return f"leduc[{cards} | {board} | {seqs}]"


def leduc(
    *,
    ranks: int | None = None,
    raise_cap: int | None = 2,
    stack: int | None = None,
    pair_counts: bool = True,
    players: int = 2,
) -> LeducGame:
    """Return Leduc poker; ``leduc(stack=50, raise_cap=None)`` is the 50-chip variant.

    Example:
        >>> game = leduc()
        >>> state = game.initial_state().child(4).child(0)   # P1 holds an A, P2 a Q
        >>> state.legal_actions(), state.infoset_key()
        ((1, 2), 'A|')
    """
    params: dict[str, object] = {
        "raise_cap": raise_cap,
        "stack": stack,
        "pair_counts": pair_counts,
        "players": players,
    }
    if ranks is not None:
        params["ranks"] = ranks
    game = load("leduc", **params)
    assert isinstance(game, LeducGame)
    return game
