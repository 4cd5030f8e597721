"""Texas Hold'em's rules as numbers: action ids, the deck and streets, blinds and bets.

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
  in the preflop bets, antes do not). The legal ``(min, max)`` of ``X``: the minimum is
  the bet faced plus the largest bet or raise increment so far this street (at least a
  big blind), or all-in when the stack is smaller; the maximum is all-in.

Betting rules follow pokerkit (Tournament mode), which the differential tests replay hand
by hand: a raise all-in for less than a full raise does not reopen the betting to players
who already acted (consecutive short all-ins that add up to a full raise do); a player
facing a short all-in that is less than the last full raise cannot raise; nobody raises
when every other player still in is all-in; once at most one player still in has chips,
the remaining cards are dealt without betting.

The deck and the streets (52 cards, two hole cards each, a board of 0, 3, 4 and 5 cards
during the four betting rounds) are fields of :class:`HoldemRules`, in this one place.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pokerlab._types import Action
from pokerlab.errors import SpecError
from pokerlab.games.spec import GameSpec

FOLD: Action = 0
"""Fold (legal only when facing a bet)."""
CALL: Action = 1
"""Check, or call what is owed."""
RAISE: Action = 2
"""Limit: bet or raise by the fixed size. No-limit: ``RAISE + X`` raises to ``X``."""

N_DECK = 52
"""Cards in the deck."""
MAX_PLAYERS = 9
"""The most players at a table."""
STREET_NAMES = ("preflop", "flop", "turn", "river")
"""The betting rounds, in order."""
BOARD_SIZES = (0, 3, 4, 5)
"""Board cards out during the betting of each street."""
HOLE_SIZE = 2
"""Hole cards each player is dealt."""
BETTINGS = ("limit", "nolimit")
"""The betting structures."""


@dataclass(frozen=True, slots=True)
class HoldemRules:
    """The numbers of one Hold'em game, checked: what the engine reads to deal and bet.

    Attributes:
        n_players: players at the table, 2..9.
        no_limit: True for no-limit betting, False for limit.
        small_blind: the small blind, in chips.
        big_blind: the big blind, in chips.
        ante: chips every player antes.
        starting_stacks: each player's chips before the hand.
        cap: limit only: bets and raises per round, the big blind counting preflop.
        posts_blind: whether each player owes a blind.
        antes_paid: the ante each player could post (a short stack posts what it has).
        blinds_paid: the blind each player could post after the ante.
        street_bets: the minimum bet (no-limit) or the fixed bet size (limit) of each street.
        raise_caps: bets and raises allowed on each street (None: no cap).
        deck_size: cards in the deck.
        hole_size: hole cards each player is dealt.
        board_sizes: board cards out during the betting of each street.
        n_hole_cards: hole cards dealt in all, ``hole_size * n_players`` (derived).
        n_streets: betting rounds, ``len(board_sizes)`` (derived).
        preflop_opener: the first player to act preflop: the one after the last player to
            post the largest blind (derived; pokerkit's rule, heads-up the button).
    """

    n_players: int
    no_limit: bool
    small_blind: int
    big_blind: int
    ante: int
    starting_stacks: tuple[int, ...]
    cap: int
    posts_blind: tuple[bool, ...]
    antes_paid: tuple[int, ...]
    blinds_paid: tuple[int, ...]
    street_bets: tuple[int, ...]
    raise_caps: tuple[int | None, ...]
    deck_size: int = N_DECK
    hole_size: int = HOLE_SIZE
    board_sizes: tuple[int, ...] = BOARD_SIZES
    # Derived, stored because the engine reads them at every card.
    n_hole_cards: int = field(init=False)
    n_streets: int = field(init=False)
    preflop_opener: int = field(init=False)

    def __post_init__(self) -> None:
        n = self.n_players
        last = max(range(n), key=lambda i: (self.blinds_paid[i] if self.posts_blind[i] else 0, i))
        object.__setattr__(self, "n_hole_cards", self.hole_size * n)
        object.__setattr__(self, "n_streets", len(self.board_sizes))
        object.__setattr__(self, "preflop_opener", (last + 1) % n)

    @property
    def betting(self) -> str:
        """``"limit"`` or ``"nolimit"``."""
        return "nolimit" if self.no_limit else "limit"

    @staticmethod
    def from_spec(spec: GameSpec) -> HoldemRules:
        """Check a ``holdem`` spec's parameters and work out the numbers they imply.

        Raises:
            SpecError: a parameter out of range or of the wrong type (says what is allowed).
        """
        p: dict[str, object] = dict(spec.as_kwargs())
        n = _int_param(p, "players")
        if not 2 <= n <= MAX_PLAYERS:
            raise SpecError(f"holdem supports players=2..{MAX_PLAYERS}; got players={n}")
        betting = p["betting"]
        if betting not in BETTINGS:
            raise SpecError(f"holdem betting must be 'limit' or 'nolimit'; got {betting!r}")
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
        small, big = int(blinds[0]), int(blinds[1])
        ante = _int_param(p, "ante")
        if ante < 0:
            raise SpecError(f"holdem ante must be >= 0; got ante={ante}")
        stacks = _stacks(p["stack"], n)
        cap = _int_param(p, "cap")
        if cap < 1:
            raise SpecError(f"holdem cap (bets per round in limit) must be >= 1; got {cap}")
        # The blind each player owes (heads-up: player 1, the button, posts the small one).
        nominal = (big, small) if n == 2 else (small, big) + (0,) * (n - 2)
        antes_paid = tuple(min(ante, s) for s in stacks)
        no_limit = betting == "nolimit"
        if no_limit:
            street_bets: tuple[int, ...] = (big,) * 4
            raise_caps: tuple[int | None, ...] = (None,) * 4
        else:
            street_bets = (big, big, 2 * big, 2 * big)
            raise_caps = (cap - 1, cap, cap, cap)
        return HoldemRules(
            n_players=n,
            no_limit=no_limit,
            small_blind=small,
            big_blind=big,
            ante=ante,
            starting_stacks=stacks,
            cap=cap,
            posts_blind=tuple(b > 0 for b in nominal),
            antes_paid=antes_paid,
            blinds_paid=tuple(
                min(b, s - a) for b, s, a in zip(nominal, stacks, antes_paid, strict=True)
            ),
            street_bets=street_bets,
            raise_caps=raise_caps,
        )


def _int_param(params: dict[str, object], name: str) -> int:
    value = params[name]
    if not isinstance(value, int) or isinstance(value, bool):
        raise SpecError(f"holdem parameter {name} must be an int; got {value!r}")
    return value


def _stacks(stack: object, n_players: int) -> tuple[int, ...]:
    if isinstance(stack, int) and not isinstance(stack, bool):
        stacks: tuple[int, ...] = (stack,) * n_players
    elif (
        isinstance(stack, tuple)
        and len(stack) == n_players
        and all(isinstance(s, int) and not isinstance(s, bool) for s in stack)
    ):
        stacks = tuple(int(s) for s in stack)
    else:
        raise SpecError(
            f"holdem stack must be an int or one int per player ({n_players}); got {stack!r}"
        )
    if min(stacks) < 1:
        raise SpecError(f"holdem stacks must be at least 1 chip; got {stack!r}")
    return stacks


__all__ = [
    "BETTINGS",
    "BOARD_SIZES",
    "CALL",
    "FOLD",
    "HOLE_SIZE",
    "MAX_PLAYERS",
    "N_DECK",
    "RAISE",
    "STREET_NAMES",
    "HoldemRules",
]
