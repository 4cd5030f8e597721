"""Simple built-in agents: random, always-call, always-raise and a rule-based player.

Each is an :class:`~pokerlab.agents.Agent`; the random one draws from its own seeded
generator and implements the ``seed(value)`` hook, so matches replay exactly.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from pokerlab._types import Action
from pokerlab.errors import PokerlabError
from pokerlab.games import Game, load
from pokerlab.games.observation import Observation
from pokerlab.strategy import Strategy
from pokerlab.tree import compile


def _named(observation: Observation, *names: str) -> Action | None:
    for name in names:
        if name in observation.action_names:
            return observation.legal_actions[observation.action_names.index(name)]
    return None


def passive_action(observation: Observation) -> Action:
    """Check if possible, else call, else the first legal action."""
    found = _named(observation, "check", "call")
    return observation.legal_actions[0] if found is None else found


def _rows_by_names(game: Game, preferences: tuple[str, ...]) -> Strategy:
    """A pure strategy: at every infoset the first legal action named in ``preferences``.

    The contextual names (check/call/bet/raise/fold) depend on the history, so the rows
    are found by walking the game once.
    """
    tree = compile(game)
    probs = np.zeros((tree.n_infosets, tree.max_actions))
    done = np.zeros(tree.n_infosets, dtype=bool)
    stack = [game.initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal:
            continue
        if state.player >= 0:
            i = tree.infoset_id(state.infoset_key(state.player))
            if not done[i]:
                legal = state.legal_actions()
                names = [state.action_name(a) for a in legal]
                slot = next((names.index(n) for n in preferences if n in names), 0)
                probs[i, slot] = 1.0
                done[i] = True
        stack.extend(child for _, child in state.children())
    return Strategy.from_array(game, probs, metadata={"algorithm": "/".join(preferences)})


class RandomAgent:
    """Plays a uniformly random legal action.

    Args:
        rng: the generator or its seed; reseeded per hand by matches (``seed`` hook).
    """

    name = "random"

    def __init__(self, rng: np.random.Generator | int | None = None) -> None:
        self._rng = np.random.default_rng(rng)

    def seed(self, value: int) -> None:
        """Restart the generator from ``value`` (called by matches before each hand)."""
        self._rng = np.random.default_rng(value)

    def act(self, observation: Observation) -> Action:
        """A uniformly random legal action."""
        legal = observation.legal_actions
        return legal[int(self._rng.integers(len(legal)))]

    @staticmethod
    def as_strategy(game: Game) -> Strategy:
        """The same behaviour as a :class:`Strategy` (uniform over legal actions)."""
        return Strategy.uniform(game)


class AlwaysCall:
    """Never folds, never raises: checks when nothing is owed, calls otherwise."""

    name = "always-call"

    def act(self, observation: Observation) -> Action:
        """Check or call."""
        return passive_action(observation)

    @staticmethod
    def as_strategy(game: Game) -> Strategy:
        """The same behaviour as a pure :class:`Strategy`."""
        return _rows_by_names(game, ("check", "call"))


class AlwaysRaise:
    """Bets or raises whenever it may; calls when raising is not allowed."""

    name = "always-raise"

    def act(self, observation: Observation) -> Action:
        """Bet or raise, else call or check."""
        found = _named(observation, "raise", "bet", "call", "check")
        return observation.legal_actions[0] if found is None else found

    @staticmethod
    def as_strategy(game: Game) -> Strategy:
        """The same behaviour as a pure :class:`Strategy`."""
        return _rows_by_names(game, ("raise", "bet", "call", "check"))


@lru_cache(maxsize=32)
def _rank_order(game_text: str) -> tuple[str, ...]:
    """Card (rank) names of a Kuhn or Leduc game, lowest first."""
    game = load(game_text)
    names = getattr(game, "card_names", None) or getattr(game, "rank_names", None)
    if names is None:
        raise PokerlabError(
            f"RuleBased plays Kuhn and Leduc games (cards ranked by name); got {game_text}"
        )
    return tuple(names)


class RuleBased:
    """Bets strong hands, calls medium ones, folds weak ones (Kuhn and Leduc).

    Strength is the rank of the private card scaled to ``[0, 1]`` (lowest rank 0,
    highest 1); in Leduc a card pairing the board counts as 1. Then:

    - strength >= ``raise_at``: bet or raise (call if raising is not allowed);
    - strength >= ``call_at``: check, or call a bet;
    - otherwise: check, or fold to a bet.

    With the defaults on 3-card Kuhn this bets the A, checks and calls with the K,
    and checks and folds the Q; on Leduc it raises with a K or a pair, plays the Q
    passively, and folds the J to a bet.

    Args:
        raise_at: the strength from which it bets and raises.
        call_at: the strength from which it calls.
    """

    name = "rule-based"

    def __init__(self, *, raise_at: float = 0.75, call_at: float = 0.4) -> None:
        if not 0 <= call_at <= raise_at <= 1:
            raise PokerlabError(
                f"RuleBased needs 0 <= call_at <= raise_at <= 1; got call_at={call_at}, "
                f"raise_at={raise_at}"
            )
        self.raise_at = raise_at
        self.call_at = call_at

    def check_game(self, game: Game) -> None:
        """Refuse, before a match, a game whose hands this bot cannot rate.

        Raises:
            PokerlabError: for games other than Kuhn and Leduc.
        """
        if game.spec.name not in ("kuhn", "leduc"):
            raise PokerlabError(
                f"RuleBased rates Kuhn and Leduc cards only; it cannot play {game.spec} "
                "(for Hold'em, use the Easy AI: pokerlab.agents.easy.EasyAI)"
            )

    def strength(self, observation: Observation) -> float:
        """The hand strength in ``[0, 1]`` (see the class docstring)."""
        ranks = _rank_order(observation.game)
        card = observation.private_cards
        if observation.board and observation.board == card:
            return 1.0
        if card not in ranks:
            raise PokerlabError(f"RuleBased does not know the card {card!r}; cards: {ranks}")
        return ranks.index(card) / max(len(ranks) - 1, 1)

    def act(self, observation: Observation) -> Action:
        """Raise, call or fold by hand strength."""
        strength = self.strength(observation)
        if strength >= self.raise_at:
            found = _named(observation, "raise", "bet", "call", "check")
        elif strength >= self.call_at:
            found = _named(observation, "check", "call")
        else:
            found = _named(observation, "check", "fold")
        return observation.legal_actions[0] if found is None else found


__all__ = ["AlwaysCall", "AlwaysRaise", "RandomAgent", "RuleBased", "passive_action"]
