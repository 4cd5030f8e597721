"""Kuhn poker with N cards and 2 or more players.

Rules (Kuhn 1950; N cards as in the tutorial's 100-card variant; more players as
OpenSpiel's ``kuhn_poker``): every player antes ``ante`` chips (1 by default) and is dealt
one card from a deck of ``cards`` distinct ranks; the highest card wins. One betting round
with one bet size, ``bet`` chips (1 by default): players act in order and may pass (check)
or bet; once someone bets, every other player acts once more, in order, and may pass
(fold) or bet (call). The pot goes to the highest card among the players who did not fold.
``kuhn(ante=2, bet=1)`` is the game of section 3.2's remark that with another pot than $2
P1 should always bet or always check the A (:mod:`pokerlab.strategy.kuhn_solution`).

Actions: ``0`` = pass (check or fold), ``1`` = bet (bet or call), as in OpenSpiel.
Infoset keys are the tutorial's: the player's card, ``|``, then the betting in ``p``/``b``
letters, e.g. ``"K|pb"`` (P1 holding the K, who checked and faces a bet). Cards are named
``Q, K, A`` with three cards, ``J, Q, K, A`` with four, and ``1..N`` otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from pokerlab._types import CHANCE, TERMINAL, Action, Player
from pokerlab.errors import SpecError
from pokerlab.games.base import Game, State, count_subtree
from pokerlab.games.registry import load
from pokerlab.games.spec import GameSpec

PASS: Action = 0
BET: Action = 1
_LETTERS = "pb"


def kuhn_card_names(cards: int) -> tuple[str, ...]:
    """The names of the cards of an N-card Kuhn deck, lowest first."""
    if cards <= 4:
        return tuple("JQKA"[4 - cards :])
    return tuple(str(c + 1) for c in range(cards))


class KuhnGame(Game):
    """Kuhn poker; build it with :func:`kuhn` or ``games.load("kuhn", cards=100)``."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.cards = int(spec.get("cards"))  # type: ignore[arg-type]
        self.n_players = int(spec.get("players"))  # type: ignore[arg-type]
        self.ante = int(spec.get("ante"))  # type: ignore[arg-type]
        self.bet = int(spec.get("bet"))  # type: ignore[arg-type]
        for name, value in (("ante", self.ante), ("bet", self.bet)):
            if value < 1:
                raise SpecError(f"kuhn needs {name} >= 1 chip; got {name}={value}")
        if self.n_players < 2:
            raise SpecError(f"kuhn needs players >= 2; got players={self.n_players}")
        if self.cards < self.n_players + 1:
            raise SpecError(
                f"kuhn needs cards >= players + 1 = {self.n_players + 1} (so a card is left "
                f"undealt); got cards={self.cards}"
            )

    @cached_property
    def card_names(self) -> tuple[str, ...]:
        """The cards' names, lowest first.

        Built on first use: a huge deck is refused by ``tree.compile`` before anything
        this size is needed.
        """
        return kuhn_card_names(self.cards)

    @property
    def max_actions(self) -> int:
        """Two actions: pass and bet."""
        return 2

    def action_name(self, action: Action) -> str:
        """``"pass"`` for 0, ``"bet"`` for 1."""
        return ("pass", "bet")[action]

    def initial_state(self) -> KuhnState:
        """The state before the deal."""
        return KuhnState(self, (), (), -1, CHANCE)

    def count_histories(self) -> int:
        """The number of histories, counted without building the tree (for size checks)."""
        n, cards = self.n_players, self.cards
        dealing = 0
        ways = 1
        for k in range(n):
            dealing += ways  # chance nodes dealing the k-th card
            ways *= cards - k
        state: State = self.initial_state()
        for card in range(n):
            state = state._apply(card)
        return dealing + ways * count_subtree(
            state,
            lambda node: (len(node.bets), node.first_bet),  # type: ignore[attr-defined]
            lambda node: [(child, 1) for _, child in node.children()],
        )

    def describe(self) -> str:
        """One line of rules."""
        return (
            f"{self.n_players}-player Kuhn poker with {self.cards} cards: ante {self.ante}, "
            f"one bet of {self.bet}"
        )


@dataclass(frozen=True, slots=True)
class KuhnState(State):
    """A Kuhn history: the cards dealt so far and the betting (0 = pass, 1 = bet)."""

    kuhn: KuhnGame
    cards: tuple[int, ...]
    bets: tuple[Action, ...]
    first_bet: int = -1  # index in `bets` of the first bet, -1 before any
    to_act: Player = CHANCE  # kept up to date by _apply (states are walked millions of times)

    @property
    def game(self) -> KuhnGame:
        """The game."""
        return self.kuhn

    @property
    def history(self) -> tuple[Action, ...]:
        """Cards dealt, then the betting."""
        return self.cards + self.bets

    def _first_bet(self) -> int:
        return self.first_bet

    @property
    def player(self) -> Player:
        """The player to act, CHANCE while dealing, TERMINAL at the end."""
        return self.to_act

    @staticmethod
    def _next_player(n: int, n_bets: int, first_bet: int) -> Player:
        if first_bet < 0:
            return TERMINAL if n_bets == n else n_bets
        return TERMINAL if n_bets == first_bet + n else n_bets % n

    def legal_actions(self) -> tuple[Action, ...]:
        """Undealt cards at a chance node; pass and bet otherwise."""
        player = self.player
        if player == CHANCE:
            return tuple(c for c in range(self.kuhn.cards) if c not in self.cards)
        if player == TERMINAL:
            return ()
        return (PASS, BET)

    def chance_outcomes(self) -> tuple[tuple[Action, float], ...]:
        """Each undealt card, uniformly."""
        outcomes = self.legal_actions() if self.player == CHANCE else ()
        return tuple((c, 1.0 / len(outcomes)) for c in outcomes)

    def _apply(self, action: Action) -> KuhnState:
        n = self.kuhn.n_players
        if len(self.cards) < n:
            cards = (*self.cards, action)
            return KuhnState(self.kuhn, cards, self.bets, -1, 0 if len(cards) == n else CHANCE)
        bets = (*self.bets, action)
        first_bet = self.first_bet
        if first_bet < 0 and action == BET:
            first_bet = len(self.bets)
        return KuhnState(
            self.kuhn, self.cards, bets, first_bet, self._next_player(n, len(bets), first_bet)
        )

    def infoset_key(self, player: Player | None = None) -> str:
        """The player's card, ``|``, then the betting: ``"K|pb"``."""
        if player is None:
            player = self.player
        card = self.kuhn.card_names[self.cards[player]] if player < len(self.cards) else "?"
        return card + "|" + "".join(_LETTERS[a] for a in self.bets)

    def action_name(self, action: Action) -> str:
        """``check``/``bet`` before a bet, ``fold``/``call`` after; ``deal X`` at chance."""
        if self.player == CHANCE:
            return f"deal {self.kuhn.card_names[action]}"
        facing_bet = self._first_bet() >= 0
        if action == PASS:
            return "fold" if facing_bet else "check"
        if action == BET:
            return "call" if facing_bet else "bet"
        raise SpecError(f"kuhn has actions 0 (pass) and 1 (bet); got {action}")

    def private_cards(self, player: Player) -> str:
        """The player's card name."""
        return self.kuhn.card_names[self.cards[player]] if player < len(self.cards) else ""

    def contributions(self) -> tuple[float, ...]:
        """The ante each, plus the bet for each bet or call."""
        n = self.kuhn.n_players
        ante = float(self.kuhn.ante)
        chips = [ante] * n
        for i, action in enumerate(self.bets):
            if action == BET:
                chips[i % n] = ante + self.kuhn.bet
        return tuple(chips)

    def _terminal_returns(self) -> tuple[float, ...]:
        n = self.kuhn.n_players
        first_bet = self.first_bet
        ante = self.kuhn.ante
        if n == 2:  # the common case, written out: compiling kuhn(cards=1000) visits 5M of these
            bets = self.bets
            if first_bet < 0:
                stake = float(ante)
            elif bets[-1] == PASS:  # the bet was folded to: the bettor wins the folder's ante
                won = float(ante)
                return (won, -won) if first_bet % 2 == 0 else (-won, won)
            else:
                stake = float(ante + self.kuhn.bet)
            return (stake, -stake) if self.cards[0] > self.cards[1] else (-stake, stake)
        contributions = [ante] * n
        if first_bet < 0:
            contenders = list(range(n))
        else:
            contenders = []
            for i in range(first_bet, len(self.bets)):
                if self.bets[i] == BET:
                    player = i % n
                    contributions[player] = ante + self.kuhn.bet
                    contenders.append(player)
        winner = max(contenders, key=lambda p: self.cards[p])
        pot = sum(contributions)
        return tuple(float((pot if p == winner else 0) - contributions[p]) for p in range(n))

    def __str__(self) -> str:
        cards = " ".join(self.kuhn.card_names[c] for c in self.cards)
        return f"kuhn[{cards}|{''.join(_LETTERS[a] for a in self.bets)}]"


def kuhn(cards: int | None = None, players: int = 2, *, ante: int = 1, bet: int = 1) -> KuhnGame:
    """Return Kuhn poker with ``cards`` cards (default ``players + 1``) and ``players`` players.

    Args:
        cards: the deck size, at least ``players + 1`` (default ``players + 1``).
        players: the number of players, at least 2.
        ante: chips each player antes (default 1, the tutorial's).
        bet: the one bet size, in chips (default 1, the tutorial's).

    Example:
        >>> game = kuhn()
        >>> state = game.initial_state().child(2).child(1)   # P1 holds A, P2 holds K
        >>> state.infoset_key(), state.child(0).infoset_key(1)
        ('A|', 'K|p')
        >>> str(kuhn(ante=2, bet=1).spec), kuhn(ante=2).initial_state().child(2).child(1).child(
        ...     1).child(1).returns()                       # A bets, K calls: wins ante + bet
        ('kuhn(ante=2)', (3.0, -3.0))
    """
    params: dict[str, int] = {"players": players}
    if cards is not None:
        params["cards"] = cards
    if ante != 1:
        params["ante"] = ante
    if bet != 1:
        params["bet"] = bet
    game = load("kuhn", **params)
    assert isinstance(game, KuhnGame)
    return game
