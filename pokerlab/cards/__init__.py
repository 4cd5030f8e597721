"""Cards, hand ranking and equity: the leftmost layer of pokerlab.

- :mod:`~pokerlab.cards.card`: cards as ints 0..51 (``rank * 4 + suit``), text forms, a seeded
  :class:`Deck`;
- :mod:`~pokerlab.cards.evaluator`: 5-7 card hand values 1..7462 (higher is better), one at
  a time (:func:`evaluate`) or as a compiled batch (:func:`evaluate_batch`);
- :mod:`~pokerlab.cards.ranges`: weighted range notation (``"QQ+, AKs:0.5, 98s-65s"``), the
  13x13 grid;
- :mod:`~pokerlab.cards.equity`: exact or Monte Carlo equity of hands and ranges.

Importing this package is cheap: the lookup tables are built, and numba loaded, on first use.
"""

from __future__ import annotations

from pokerlab.cards.card import (
    N_CARDS,
    RANK_NAMES,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    CardsLike,
    Deck,
    card_pretty,
    card_str,
    cards_pretty,
    cards_str,
    full_deck,
    make_card,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from pokerlab.cards.equity import EquityResult, PlayerHand, equity
from pokerlab.cards.evaluator import (
    CATEGORY_NAMES,
    N_HAND_VALUES,
    HandCategory,
    HandRank,
    best_five,
    category_of,
    describe,
    evaluate,
    evaluate_batch,
    evaluate_value,
    hand_rank,
)
from pokerlab.cards.ranges import (
    GRID_LABELS,
    N_COMBOS,
    Combo,
    HandRange,
    combo_index,
    combo_str,
    hand_class,
    parse_range,
)

__all__ = [
    "CATEGORY_NAMES",
    "GRID_LABELS",
    "N_CARDS",
    "N_COMBOS",
    "N_HAND_VALUES",
    "RANKS",
    "RANK_NAMES",
    "SUITS",
    "SUIT_SYMBOLS",
    "Card",
    "CardsLike",
    "Combo",
    "Deck",
    "EquityResult",
    "HandCategory",
    "HandRange",
    "HandRank",
    "PlayerHand",
    "best_five",
    "card_pretty",
    "card_str",
    "cards_pretty",
    "cards_str",
    "category_of",
    "combo_index",
    "combo_str",
    "describe",
    "equity",
    "evaluate",
    "evaluate_batch",
    "evaluate_value",
    "full_deck",
    "hand_class",
    "hand_rank",
    "make_card",
    "parse_card",
    "parse_cards",
    "parse_range",
    "rank_of",
    "suit_of",
]
