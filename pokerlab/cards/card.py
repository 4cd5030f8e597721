"""Cards as small integers, their text forms, and a seeded deck.

Encoding: a card is the int ``rank * 4 + suit`` in 0..51, where ``rank`` is 0..12 for
``2 3 4 5 6 7 8 9 T J Q K A`` and ``suit`` is 0..3 for clubs, diamonds, hearts, spades
(``c d h s``). So ``2c`` is 0, ``2d`` is 1, ``3c`` is 4 and ``As`` is 51. This is the
encoding phevaluator uses as well; ``card >> 2`` is the rank and ``card & 3`` the suit.

Text forms: ``"As"`` (rank letter, suit letter), ``"AsKd"`` or ``"As Kd"`` for several cards,
and a pretty form with suit symbols for terminals (``"A♠ K♦"``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TypeAlias

import numpy as np

from pokerlab.errors import CardError

Card: TypeAlias = int
"""A card id in 0..51 (``rank * 4 + suit``)."""

CardsLike: TypeAlias = str | Iterable[int]
"""Cards given as text (``"AsKd"``, ``"As Kd"``) or as card ids."""

RANKS = "23456789TJQKA"
"""Rank letters, lowest first: the index of a letter is its rank 0..12."""

SUITS = "cdhs"
"""Suit letters: the index of a letter is its suit 0..3."""

SUIT_SYMBOLS = "♣♦♥♠"
"""Suit symbols in suit order, for :func:`card_pretty`."""

RANK_NAMES = (
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)
"""Rank names in rank order, used in hand descriptions."""

N_CARDS = 52
"""Number of cards in the standard deck."""

_CARD_PATTERN = re.compile(r"(10|[2-9TJQKA])([cdhs])", re.IGNORECASE | re.ASCII)
"""ASCII only: Unicode case folding would read the Kelvin sign as K and a long s as s."""
_SEPARATORS = re.compile(r"[\s,]+")
_ALLOWED = "a rank 2-9, T, J, Q, K, A (or 10) followed by a suit c, d, h, s, e.g. 'As', 'Td'"


def make_card(rank: int, suit: int) -> Card:
    """Return the card of `rank` (0..12, 2..A) and `suit` (0..3, c d h s).

    Raises:
        CardError: if `rank` or `suit` is out of range.

    Example:
        >>> make_card(12, 3)
        51
    """
    if not 0 <= rank < len(RANKS) or not 0 <= suit < len(SUITS):
        raise CardError(f"no card with rank {rank} and suit {suit}; allowed: rank 0..12, suit 0..3")
    return rank * 4 + suit


def rank_of(card: Card) -> int:
    """Return the rank 0..12 (2..A) of `card`."""
    return card >> 2


def suit_of(card: Card) -> int:
    """Return the suit 0..3 (c d h s) of `card`."""
    return card & 3


def _check_card(card: int) -> Card:
    if isinstance(card, bool) or not isinstance(card, int | np.integer):
        raise CardError(f"card {card!r} is not an int; allowed: ints 0..51 or text like 'As'")
    value = int(card)
    if not 0 <= value < N_CARDS:
        raise CardError(f"card id {value} is out of range; allowed: 0..51")
    return value


def parse_card(text: str) -> Card:
    """Return the card id of `text`, such as ``"As"`` or ``"td"``.

    Ranks are ``2-9 T J Q K A`` (``10`` also works), suits ``c d h s``; case is ignored.

    Raises:
        CardError: if `text` is not exactly one card.

    Example:
        >>> parse_card("As"), parse_card("2c")
        (51, 0)
    """
    match = _CARD_PATTERN.fullmatch(text.strip())
    if match is None:
        raise CardError(f"cannot read {text!r} as a card; allowed: {_ALLOWED}")
    rank_text = match.group(1).upper()
    rank = RANKS.index("T" if rank_text == "10" else rank_text)
    return rank * 4 + SUITS.index(match.group(2).lower())


def parse_cards(text: str, *, allow_duplicates: bool = False) -> tuple[Card, ...]:
    """Return the cards written in `text`, in order.

    Cards may be written together (``"AsKd"``) or separated by spaces or commas
    (``"As Kd, Qh"``). An empty string gives no cards.

    Args:
        text: the cards.
        allow_duplicates: accept the same card twice (off: a repeated card is an error).

    Raises:
        CardError: naming the text that is not a card, or the repeated card.

    Example:
        >>> parse_cards("AsKd QhJh")
        (51, 45, 42, 38)
    """
    cards: list[Card] = []
    for chunk in _SEPARATORS.split(text.strip()):
        position = 0
        while position < len(chunk):
            match = _CARD_PATTERN.match(chunk, position)
            if match is None:
                raise CardError(
                    f"cannot read {chunk[position:]!r} in {text!r} as cards; allowed: {_ALLOWED}"
                )
            cards.append(parse_card(match.group(0)))
            position = match.end()
    if not allow_duplicates:
        check_distinct(cards, what=repr(text))
    return tuple(cards)


def to_cards(cards: CardsLike, *, what: str = "cards") -> tuple[Card, ...]:
    """Return `cards` (text or card ids) as a tuple of distinct card ids.

    Args:
        cards: text such as ``"AsKd"`` or an iterable of ints 0..51.
        what: how to name these cards in an error message (``"board"``, ``"dead cards"``).

    Raises:
        CardError: if a card is invalid or appears twice.
    """
    if isinstance(cards, str):
        return parse_cards(cards)
    result = tuple(_check_card(card) for card in cards)
    check_distinct(result, what=what)
    return result


def check_distinct(cards: Sequence[Card], *, what: str = "cards") -> None:
    """Raise :class:`CardError` if a card appears twice in `cards`.

    Args:
        cards: card ids.
        what: how to name these cards in the message.
    """
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise CardError(
                f"card {card_str(card)} appears twice in {what}; each card may be used once"
            )
        seen.add(card)


def card_str(card: Card) -> str:
    """Return the two-letter text of `card`, such as ``"As"``.

    Raises:
        CardError: if `card` is not an int in 0..51.

    Example:
        >>> card_str(51)
        'As'
    """
    value = _check_card(card)
    return RANKS[value >> 2] + SUITS[value & 3]


def cards_str(cards: Iterable[Card], *, sep: str = "") -> str:
    """Return the text of `cards`, such as ``"AsKd"`` (or ``"As Kd"`` with ``sep=" "``).

    Example:
        >>> cards_str([51, 45])
        'AsKd'
    """
    return sep.join(card_str(card) for card in cards)


def card_pretty(card: Card) -> str:
    """Return `card` with a suit symbol, such as ``"A♠"``, for terminals.

    Example:
        >>> card_pretty(51)
        'A♠'
    """
    value = _check_card(card)
    return RANKS[value >> 2] + SUIT_SYMBOLS[value & 3]


def cards_pretty(cards: Iterable[Card], *, sep: str = " ") -> str:
    """Return `cards` with suit symbols, separated by spaces: ``"A♠ K♦"``.

    Example:
        >>> cards_pretty(parse_cards("AsKd"))
        'A♠ K♦'
    """
    return sep.join(card_pretty(card) for card in cards)


def full_deck() -> tuple[Card, ...]:
    """Return all 52 card ids in order (``2c 2d 2h 2s 3c ... As``)."""
    return tuple(range(N_CARDS))


class Deck:
    """A deck of cards shuffled by a seeded generator, dealt from the top.

    The deck is shuffled when it is made; known cards (a hand, a board) can be left out
    when it is made (`exclude`) or removed later (:meth:`remove`). A deck is mutable:
    dealing takes cards out of it.

    Args:
        rng: the random generator, or a seed for ``np.random.default_rng``.
        exclude: cards to leave out of the deck (text or card ids).

    Example:
        >>> deck = Deck(rng=7, exclude="AsKd")
        >>> len(deck)
        50
        >>> hand = deck.deal(2)
        >>> len(deck), len(hand)
        (48, 2)
    """

    def __init__(
        self, *, rng: np.random.Generator | int | None = None, exclude: CardsLike = ()
    ) -> None:
        self._rng = np.random.default_rng(rng)
        excluded = set(to_cards(exclude, what="excluded cards"))
        self._cards: list[Card] = [card for card in range(N_CARDS) if card not in excluded]
        self.shuffle()

    def __len__(self) -> int:
        return len(self._cards)

    def __repr__(self) -> str:
        return f"Deck({len(self._cards)} cards)"

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards still in the deck, top first."""
        return tuple(self._cards)

    def shuffle(self) -> None:
        """Shuffle the cards still in the deck."""
        order = self._rng.permutation(len(self._cards))
        self._cards = [self._cards[index] for index in order]

    def deal(self, count: int = 1) -> tuple[Card, ...]:
        """Take `count` cards from the top of the deck and return them.

        Raises:
            CardError: if the deck holds fewer than `count` cards, or `count` < 0.
        """
        if count < 0 or count > len(self._cards):
            raise CardError(
                f"cannot deal {count} cards; allowed: 0..{len(self._cards)} "
                f"(the cards left in the deck)"
            )
        dealt = tuple(self._cards[:count])
        del self._cards[:count]
        return dealt

    def remove(self, cards: CardsLike) -> None:
        """Take the known `cards` out of the deck, wherever they are.

        Raises:
            CardError: if one of the cards is not in the deck (already dealt or removed).
        """
        wanted = to_cards(cards, what="cards to remove")
        present = set(self._cards)
        for card in wanted:
            if card not in present:
                raise CardError(
                    f"card {card_str(card)} is not in the deck (already dealt or removed); "
                    f"only cards still in the deck can be removed"
                )
        removed = set(wanted)
        self._cards = [card for card in self._cards if card not in removed]


__all__ = [
    "N_CARDS",
    "RANKS",
    "RANK_NAMES",
    "SUITS",
    "SUIT_SYMBOLS",
    "Card",
    "CardsLike",
    "Deck",
    "card_pretty",
    "card_str",
    "cards_pretty",
    "cards_str",
    "check_distinct",
    "full_deck",
    "make_card",
    "parse_card",
    "parse_cards",
    "rank_of",
    "suit_of",
    "to_cards",
]
