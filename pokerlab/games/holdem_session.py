"""A session of Hold'em: hand after hand at one table, the button moving round.

Each hand is a :class:`~pokerlab.games.holdem.HoldemGame` of its own, built for the seats
still playing, with their stacks: seats keep their numbers for the whole session, while
game players are numbered from the seat left of the button (see
:mod:`pokerlab.games.holdem`), so :attr:`HandSetup.seats` maps one to the other. After a
hand the button moves to the next seat still playing. With ``carry_stacks=True`` stacks
carry over from hand to hand and a seat with no chips left leaves the table (the session
ends when fewer than two seats have chips); with ``carry_stacks=False`` every hand starts
from the full stacks again.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerlab._types import TERMINAL, Player
from pokerlab.errors import PokerlabError, SpecError
from pokerlab.games.holdem import HoldemGame, HoldemState, holdem


@dataclass(frozen=True)
class HandSetup:
    """One hand of a session, before it is played.

    Attributes:
        number: the hand number, from 1.
        game: the hand's rules (players are the seats in play, in position order).
        seats: the seat of each game player: ``seats[player]``; the button is ``seats[-1]``.
        button: the button's seat.
    """

    number: int
    game: HoldemGame
    seats: tuple[int, ...]
    button: int

    def player_of(self, seat: int) -> Player | None:
        """The game player of ``seat`` in this hand, or None if the seat is out."""
        return self.seats.index(seat) if seat in self.seats else None


@dataclass(frozen=True)
class HandOutcome:
    """A finished hand of a session.

    Attributes:
        setup: the hand's setup.
        state: the final state of the hand.
        seat_returns: chips won (negative: lost) by each seat of the table (0 if out).
        stacks: each seat's stack after the hand.
    """

    setup: HandSetup
    state: HoldemState
    seat_returns: tuple[int, ...]
    stacks: tuple[int, ...]


class HoldemSession:
    """Hand after hand of Hold'em at one table.

    Args:
        seats: number of seats at the table, 2..9.
        betting: ``"limit"`` or ``"nolimit"``.
        blinds: ``(small, big)``.
        ante: chips each player antes.
        stack: each seat's starting stack.
        carry_stacks: carry stacks from hand to hand (busted seats leave) or start every
            hand from ``stack``.
        button: the button's seat in the first hand.

    The session keeps the table's books (who plays, stacks, the button); the hands are
    played by the dealer (:func:`pokerlab.play.session.play_session_hand`).

    Raises:
        SpecError: for rules the game refuses (checked by building the first hand).
    """

    def __init__(
        self,
        seats: int,
        *,
        betting: str = "nolimit",
        blinds: tuple[int, int] = (1, 2),
        ante: int = 0,
        stack: int = 200,
        carry_stacks: bool = True,
        button: int = 0,
    ) -> None:
        if not 0 <= button < seats:
            raise SpecError(f"button must be a seat 0..{seats - 1}; got {button}")
        self.n_seats = seats
        self.betting = betting
        self.blinds = (int(blinds[0]), int(blinds[1]))
        self.ante = ante
        self.stack = stack
        self.carry_stacks = carry_stacks
        self.button = button
        self.stacks: list[int] = [stack] * seats
        self.hands_played = 0
        holdem(players=seats, betting=betting, blinds=self.blinds, ante=ante, stack=stack)

    @property
    def active_seats(self) -> tuple[int, ...]:
        """Seats with chips, in seat order."""
        return tuple(s for s in range(self.n_seats) if self.stacks[s] > 0)

    @property
    def is_over(self) -> bool:
        """True when fewer than two seats have chips."""
        return len(self.active_seats) < 2

    def start_hand(self) -> HandSetup:
        """The next hand's setup: who plays, in which position, with which stacks.

        Raises:
            PokerlabError: if the session is over.
        """
        active = self.active_seats
        if len(active) < 2:
            raise PokerlabError("the session is over: fewer than two seats have chips")
        if self.button not in active:
            self.button = self._next_active(self.button)
        start = active.index(self.button) + 1
        seats = tuple(active[(start + k) % len(active)] for k in range(len(active)))
        game = holdem(
            players=len(seats), betting=self.betting, blinds=self.blinds, ante=self.ante,
            stack=tuple(self.stacks[s] for s in seats),
        )
        return HandSetup(self.hands_played + 1, game, seats, self.button)

    def finish_hand(self, setup: HandSetup, state: HoldemState) -> HandOutcome:
        """Record a finished hand: update the stacks and move the button.

        Raises:
            PokerlabError: if ``state`` is not a finished hand of ``setup``'s game.
        """
        if state.game != setup.game or state.player != TERMINAL:
            raise PokerlabError("finish_hand needs the finished state of the hand it started")
        settlement = state.settle()
        seat_returns = [0] * self.n_seats
        for player, seat in enumerate(setup.seats):
            seat_returns[seat] = settlement.returns[player]
            self.stacks[seat] = settlement.final_stacks[player]
        if not self.carry_stacks:
            self.stacks = [self.stack] * self.n_seats
        self.hands_played += 1
        self.button = self._next_active(setup.button)
        return HandOutcome(setup, state, tuple(seat_returns), tuple(self.stacks))

    def _next_active(self, seat: int) -> int:
        for k in range(1, self.n_seats + 1):
            candidate = (seat + k) % self.n_seats
            if self.stacks[candidate] > 0:
                return candidate
        return seat


__all__ = ["HandOutcome", "HandSetup", "HoldemSession"]
