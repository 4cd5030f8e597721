"""A 2-player Kuhn strategy as one row per card: the Kuhn CFR repository's matrices.

The repository (the tutorial's sources, "HOW STRATEGIES ARE REPRESENTED") keeps each
player's strategy as a matrix with one row per card, lowest card first, and four columns:

- P1: ``[check, bet, fold, call]``: the opening move, then the answer to a bet after
  checking (the repository's ``fold_when_bet_to_after_check``, ``call_when_bet_to_after_check``);
- P2: ``[check_check, bet_check, bet_fold, bet_call]``: checking or betting when checked
  to, then folding or calling when bet into.

The first two and the last two columns each sum to 1. ``pokerlab show FILE --by-card``
prints these matrices; :func:`kuhn_card_matrix` computes them from infoset rows
(``"K|"``, ``"K|pb"``, ``"K|p"``, ``"K|b"``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerlab._types import FloatArray
from pokerlab.errors import SpecError
from pokerlab.games.kuhn import BET, PASS, KuhnGame
from pokerlab.strategy.strategy import Strategy

P1_COLUMNS = ("check", "bet", "fold", "call")
"""P1's columns: opening check or bet; after check-bet, fold or call."""

P2_COLUMNS = ("check_check", "bet_check", "bet_fold", "bet_call")
"""P2's columns (the repository's names): checked to, check or bet; bet into, fold or call."""

_P1_HISTORIES = ("", "pb")
_P2_HISTORIES = ("p", "b")


@dataclass(frozen=True)
class KuhnCardMatrix:
    """Both players' per-card matrices of a 2-player Kuhn strategy.

    Attributes:
        cards: the card names, lowest first (the rows).
        p1: ``[cards, 4]`` P1's probabilities, columns :data:`P1_COLUMNS`.
        p2: ``[cards, 4]`` P2's probabilities, columns :data:`P2_COLUMNS`.
    """

    cards: tuple[str, ...]
    p1: FloatArray
    p2: FloatArray


def kuhn_card_matrix(strategy: Strategy) -> KuhnCardMatrix:
    """Return the per-card matrices of a 2-player Kuhn strategy (any deck, ante and bet).

    Raises:
        SpecError: if the strategy is not for 2-player Kuhn poker.

    Example:
        >>> from pokerlab.strategy import kuhn_equilibrium
        >>> table = kuhn_card_matrix(kuhn_equilibrium(0.6))
        >>> table.cards, table.p1[0].round(3).tolist(), table.p2[1].round(3).tolist()
        (('Q', 'K', 'A'), [0.8, 0.2, 1.0, 0.0], [1.0, 0.0, 0.667, 0.333])
    """
    game = strategy.game
    if not isinstance(game, KuhnGame) or game.n_players != 2:
        raise SpecError(
            f"the per-card matrix is for 2-player Kuhn strategies (kuhn, kuhn(cards=N), "
            f"kuhn(ante=..., bet=...)); this strategy is for {game.spec}"
        )
    cards = game.card_names
    matrices = []
    for histories in (_P1_HISTORIES, _P2_HISTORIES):
        rows = np.zeros((len(cards), 4))
        for r, card in enumerate(cards):
            for k, history in enumerate(histories):
                probs = strategy.probabilities(f"{card}|{history}")
                rows[r, 2 * k] = probs[PASS]
                rows[r, 2 * k + 1] = probs[BET]
        matrices.append(rows)
    return KuhnCardMatrix(cards, matrices[0], matrices[1])


__all__ = ["P1_COLUMNS", "P2_COLUMNS", "KuhnCardMatrix", "kuhn_card_matrix"]
