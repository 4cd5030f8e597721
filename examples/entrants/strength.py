"""An example entrant for Kuhn and Leduc: raises its best cards, calls the middle, folds the rest.

It shows every part of the contract: the constructor receiving the game, ``reset``, ``seed``
(its only randomness, so a resumed run replays it exactly), ``observe`` (updates during the
hand and the result at the end) and ``act``.
"""

import random

from pokerlab.games import HandResult


class Agent:
    """Plays by the rank of its card; bluffs now and then."""

    def __init__(self, game):
        names = getattr(game, "card_names", None) or getattr(game, "rank_names", None)
        self.ranks = list(names or [])
        self.random = random.Random(0)
        self.won = 0.0

    def reset(self):
        """A new hand begins."""
        self.bluffing = False

    def seed(self, value):
        """The arena's seed for this hand: draw every random number from it."""
        self.random = random.Random(value)
        self.bluffing = self.random.random() < 0.1

    def observe(self, update):
        """Keep a tally of the chips won; ignore updates during the hand."""
        if isinstance(update, HandResult):
            self.won += update.returns[update.seat]

    def act(self, observation):
        """Raise the best cards (or a bluff), call the middle ones, check or fold the rest."""
        card = observation.private_cards
        paired = bool(observation.board) and observation.board == card
        strength = 1.0 if paired else self.ranks.index(card) / max(len(self.ranks) - 1, 1)
        if strength >= 0.75 or self.bluffing:
            wanted = ("raise", "bet", "call", "check")
        elif strength >= 0.4:
            wanted = ("check", "call")
        else:
            wanted = ("check", "fold")
        for name in wanted:
            if name in observation.action_names:
                return observation.action_named(name)
        return observation.legal_actions[0]
