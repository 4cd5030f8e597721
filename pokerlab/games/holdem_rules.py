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

OpenSpiel's ``universal_poker`` (the ACPC's rules) differs from these in no-limit when an
all-in is short of a full raise, which happens with unequal stacks: its minimum raise-to
becomes ``max(previous minimum, 2 * all-in - previous bet)`` (ours and pokerkit's: the
bet faced plus the last full raise, at least a big blind); a short all-in reopens the
betting to players who already acted; and it allows an all-in raise that no other player
still in can call. The lockstep test against it (tests/differential) names these three on
exact hands, checks pokerkit agrees with pokerlab there, and compares everything else.

The deck and the streets (52 cards, two hole cards each, a board of 0, 3, 4 and 5 cards
during the four betting rounds) are fields of :class:`HoldemRules`, in this one place.

Other Hold'em games. ``ranks`` (2..13) and ``suits`` (1..4) shrink the deck to the
``ranks`` highest ranks in the first ``suits`` suits (clubs, diamonds, hearts, spades);
``hole`` deals that many hole cards; ``board="3,1,1"`` gives the board cards dealt before
each street after the first (1 to 4 streets); in limit, ``raises="2,2,4,4"`` the raise size
of each street, ``caps="3,4,4,4"`` the raises allowed on each street (the blinds not
counting) and ``first="1,0,0,0"`` the first player of each street; ``seat_blinds`` posts
one blind per player in seat order (the ACPC's ``blind`` line) in place of ``blinds``.
These are the fields of an ACPC game definition, so OpenSpiel's ``universal_poker`` plays
the same game (the lockstep tests check it). ``holdem(betting="limit", hole=1,
board="1,1", ...)`` is a three-card Hold'em with blinds and this ranking
(:func:`~pokerlab.games.holdem.rhode_island_acpc`); Rhode Island Hold'em itself (antes,
three-card ranking) is :mod:`pokerlab.games.rhode_island`.

Hand ranking is the ACPC's (what ``universal_poker`` uses): the best hand that the hole
and board cards make, five cards at most, in the usual order; a straight or a flush needs
five cards, ranks count relative to the deck (a short deck's lowest rank is its deuce, so
an ace-to-five straight exists only with all 13 ranks), and with fewer than five cards the
pairs, two pairs, trips and quads that they make rank as usual, kickers being every other
card, highest first.
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
MAX_HAND = 7
"""The most cards (hole and board) one hand may hold: the evaluator's limit."""


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
        deck: the card ids in the deck, ascending (``rank * 4 + suit``).
        openers: the first player to act on each street (None: the preflop rule below).
        n_ranks: ranks in the deck (its highest ones).
        n_suits: suits in the deck (its first ones).
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
    deck: tuple[int, ...] = tuple(range(N_DECK))
    openers: tuple[int | None, ...] = (None, 0, 0, 0)
    n_ranks: int = 13
    n_suits: int = 4
    # Derived, stored because the engine reads them at every card.
    n_hole_cards: int = field(init=False)
    n_streets: int = field(init=False)
    preflop_opener: int = field(init=False)

    def __post_init__(self) -> None:
        n = self.n_players
        last = max(range(n), key=lambda i: (self.blinds_paid[i] if self.posts_blind[i] else 0, i))
        object.__setattr__(self, "n_hole_cards", self.hole_size * n)
        object.__setattr__(self, "n_streets", len(self.board_sizes))
        first = self.openers[0]
        object.__setattr__(self, "preflop_opener", (last + 1) % n if first is None else first)

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
        deck_shape = _deck(p, n)
        ranks, suits, hole, board_sizes = deck_shape
        n_streets = len(board_sizes)
        seat_blinds = p.get("seat_blinds")
        if seat_blinds is None:
            # The blind each player owes (heads-up: player 1, the button, posts the small one).
            nominal: tuple[int, ...] = (big, small) if n == 2 else (small, big) + (0,) * (n - 2)
        else:
            nominal = _seat_blinds(seat_blinds, n)
            big = max(nominal)
            small = min((b for b in nominal if b), default=big)
        antes_paid = tuple(min(ante, s) for s in stacks)
        no_limit = betting == "nolimit"
        if no_limit:
            street_bets: tuple[int, ...] = (big,) * n_streets
            raise_caps: tuple[int | None, ...] = (None,) * n_streets
            if p.get("raises", "") or p.get("caps", ""):
                raise SpecError(
                    "holdem raises and caps are for limit betting; got betting='nolimit'"
                )
        else:
            street_bets = _per_street(p, "raises", n_streets, 1) or tuple(
                big if s < 2 else 2 * big for s in range(n_streets)
            )
            caps = _per_street(p, "caps", n_streets, 0)
            raise_caps = caps or (cap - 1,) + (cap,) * (n_streets - 1)
        firsts = _per_street(p, "first", n_streets, 0)
        if any(f >= n for f in firsts):
            raise SpecError(
                f"holdem first players must be seats 0..{n - 1}; got first={p['first']!r}"
            )
        openers: tuple[int | None, ...] = firsts or (None,) + (0,) * (n_streets - 1)
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
            deck_size=ranks * suits,
            hole_size=hole,
            board_sizes=board_sizes,
            deck=tuple(r * 4 + s for r in range(13 - ranks, 13) for s in range(suits)),
            openers=openers,
            n_ranks=ranks,
            n_suits=suits,
        )


def _deck(params: dict[str, object], n_players: int) -> tuple[int, int, int, tuple[int, ...]]:
    """``(ranks, suits, hole, board sizes by street)``, checked: the cards must suffice."""
    ranks = _int_param(params, "ranks") if "ranks" in params else 13
    suits = _int_param(params, "suits") if "suits" in params else 4
    hole = _int_param(params, "hole") if "hole" in params else HOLE_SIZE
    if not 2 <= ranks <= 13:
        raise SpecError(f"holdem ranks must be 2..13; got ranks={ranks}")
    if not 1 <= suits <= 4:
        raise SpecError(f"holdem suits must be 1..4; got suits={suits}")
    if not 1 <= hole <= 4:
        raise SpecError(f"holdem hole (cards per player) must be 1..4; got hole={hole}")
    text = params.get("board", "3,1,1")
    if not isinstance(text, str):
        raise SpecError(f"holdem board must be a string like '3,1,1'; got {text!r}")
    new = _ints(text, "board", 1)
    if len(new) > len(STREET_NAMES) - 1:
        raise SpecError(f"holdem board deals before at most 3 streets; got board={text!r}")
    sizes = [0]
    for k in new:
        sizes.append(sizes[-1] + k)
    total = hole + sizes[-1]
    if total > MAX_HAND:
        raise SpecError(
            f"holdem hands hold hole + board <= {MAX_HAND} cards; got {hole} + {sizes[-1]}"
        )
    if hole * n_players + sizes[-1] > ranks * suits:
        raise SpecError(
            f"holdem deals {hole * n_players + sizes[-1]} cards but the deck has only "
            f"{ranks * suits} (ranks={ranks} x suits={suits})"
        )
    return ranks, suits, hole, tuple(sizes)


def _ints(text: str, name: str, low: int) -> tuple[int, ...]:
    if not text.strip():
        return ()
    try:
        values = tuple(int(v) for v in text.split(","))
    except ValueError:
        raise SpecError(
            f"holdem {name} must be comma-separated ints like '3,1,1'; got {text!r}"
        ) from None
    if any(v < low for v in values):
        raise SpecError(f"holdem {name} values must be >= {low}; got {text!r}")
    return values


def _per_street(params: dict[str, object], name: str, n_streets: int, low: int) -> tuple[int, ...]:
    """One int per street from a ``"2,2,4,4"`` parameter; () when it is empty (the default)."""
    text = params.get(name, "")
    if not isinstance(text, str):
        raise SpecError(f"holdem {name} must be a string of one int per street; got {text!r}")
    values = _ints(text, name, low)
    if values and len(values) != n_streets:
        raise SpecError(
            f"holdem {name} needs one value per street ({n_streets}); got {name}={text!r}"
        )
    return values


def _seat_blinds(value: object, n_players: int) -> tuple[int, ...]:
    if (
        not isinstance(value, tuple)
        or len(value) != n_players
        or not all(isinstance(b, int) and not isinstance(b, bool) and b >= 0 for b in value)
        or not any(value)
    ):
        raise SpecError(
            f"holdem seat_blinds must be one blind >= 0 per player ({n_players}), "
            f"not all 0; got {value!r}"
        )
    return tuple(int(b) for b in value)


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
    "MAX_HAND",
    "MAX_PLAYERS",
    "N_DECK",
    "RAISE",
    "STREET_NAMES",
    "HoldemRules",
]
