"""An example entrant for Kuhn, Leduc and Hold'em: raises the best cards, folds the worst.

It calls with the middle ones.

It shows every part of the contract: the constructor receiving the game, ``reset``, ``seed``
(its only randomness, so a resumed run replays it exactly), ``observe`` (updates during the
hand and the result at the end) and ``act``.
"""

import random

from pokerlab.games import HandResult

RANKS = "23456789TJQKA"


class Agent:
    """Plays by the rank of its card; bluffs now and then."""

    def __init__(self, game):
        names = getattr(game, "card_names", None) or getattr(game, "rank_names", None)
        rules = getattr(game, "rules", None)  # Hold'em: cards such as "Qd", top ranks dealt
        if not names and rules is not None:
            names = RANKS[len(RANKS) - rules.n_ranks:]
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

    def strength(self, observation):
        """0 (the worst cards) to 1 (the best): the hole ranks; 1 when the board pairs one."""
        mine = self.card_ranks(observation.private_cards)
        board = self.card_ranks(observation.board)
        if any(rank in board for rank in mine):
            return 1.0
        top = max(len(self.ranks) - 1, 1)
        values = sorted((self.ranks.index(rank) / top for rank in mine), reverse=True)
        if len(values) > 1 and values[0] == values[1]:  # a pocket pair
            return 0.75 + 0.25 * values[0]
        return sum(values) / len(values)

    def card_ranks(self, cards):
        """The ranks of a text of cards: "K" (Kuhn, Leduc), "QdKs" or "Qd Ks" (Hold'em)."""
        if cards in self.ranks:
            return [cards]
        text = cards.replace(" ", "")
        return [text[i] for i in range(0, len(text), 2)] if len(text) % 2 == 0 else list(text)

    def act(self, observation):
        """Raise the best cards (or a bluff), call the middle ones, check or fold the rest."""
        strength = self.strength(observation)
        if strength >= 0.75 or self.bluffing:
            wanted = ("raise", "bet", "call", "check")
        elif strength >= 0.4:
            wanted = ("check", "call")
        else:
            wanted = ("check", "fold")
        for name in wanted:  # no-limit names its raises "raise to 6"...: the smallest one
            for action, action_name in zip(observation.legal_actions, observation.action_names,
                                           strict=True):
                if action_name.split()[0] == name:
                    return action
        return observation.legal_actions[0]
