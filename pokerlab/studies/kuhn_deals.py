"""The Kuhn expected value of each of the 6 deals under the tutorial's equilibrium family.

The tutorial (Kuhn section, Cases 1-6) adds up, deal by deal, what P1 gets back for its
1-chip ante when P1 bets the A with probability ``y``: ``y/3 + 2``, ``(7 - y)/3``,
``-(y + 1)/3``, ``(y + 5)/3``, ``-y/3``, ``y/3``, averaging 17/18. This module computes
those totals exactly from the game tree, so the closed forms can be checked, not trusted.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerlab.errors import PokerlabError
from pokerlab.games import kuhn
from pokerlab.games.base import State
from pokerlab.strategy import Strategy, kuhn_equilibrium

# The tutorial's closed forms (chips back for the ante), in its order of Cases 1 to 6.
TUTORIAL_CASES: tuple[tuple[tuple[str, str], str], ...] = (
    (("A", "K"), "y/3 + 2"),
    (("A", "Q"), "(7 - y)/3"),
    (("K", "A"), "-(y + 1)/3"),
    (("K", "Q"), "(y + 5)/3"),
    (("Q", "A"), "-y/3"),
    (("Q", "K"), "y/3"),
)


@dataclass(frozen=True)
class DealValue:
    """One deal: the cards (P1, P2), P1's expected net chips, and the tutorial's total (net + 1)."""

    cards: tuple[str, str]
    net: float
    formula: str

    @property
    def total(self) -> float:
        """What P1 gets back for the 1-chip ante: the tutorial's way of counting."""
        return self.net + 1.0


def _deal_state(cards: tuple[str, str]) -> State:
    state: State = kuhn().initial_state()
    while state.is_chance:
        seat = len(state.history)
        matches = [
            child
            for child in (state.child(a) for a, _ in state.chance_outcomes())
            if child.private_cards(seat) == cards[seat]
        ]
        if not matches:
            raise PokerlabError(f"no Kuhn deal gives P{seat + 1} the card {cards[seat]!r}")
        state = matches[0]
    return state


def deal_value(strategy: Strategy, cards: tuple[str, str]) -> float:
    """P1's exact expected net chips on one deal ``(P1's card, P2's card)`` under ``strategy``."""

    def value(node: State) -> float:
        if node.is_terminal:
            return float(node.returns()[0])
        probs = strategy.probabilities(node.infoset_key())
        return sum(p * value(node.child(a)) for a, p in probs.items() if p > 0)

    return value(_deal_state(cards))


def deal_values(y: float = 1.0 / 3.0) -> list[DealValue]:
    """The 6 deals' values under the tutorial's equilibrium with P1 betting the A with ``y``."""
    if not 0.0 <= y <= 1.0:
        raise PokerlabError(f"y (P1's probability of betting the A) must be in [0, 1]; got {y}")
    strategy = kuhn_equilibrium(y)
    return [DealValue(cards, deal_value(strategy, cards), f) for cards, f in TUTORIAL_CASES]
