"""Simple built-in agents: random, always-call, always-raise and a rule-based player.

Each is an :class:`~pokerlab.agents.Agent` and, built with the game, a policy-backed one
(its ``policy`` is a :class:`~pokerlab.strategy.FunctionPolicy` of the observation), so
matches on games that compile sample it on the tree. The random one draws from its own
seeded generator and implements the ``seed(value)`` hook, so matches replay exactly.
"""

from __future__ import annotations

import numpy as np

from pokerlab._cache import SpecCache
from pokerlab._types import Action
from pokerlab.errors import PokerlabError
from pokerlab.games import Game, load
from pokerlab.games.observation import Observation
from pokerlab.play.dealer import reseed
from pokerlab.strategy import FunctionPolicy, Strategy, tabulate


def _named(observation: Observation, *names: str) -> Action | None:
    """The first legal action called ``name``, or ``name X`` (the smallest size).

    No-limit names its sizes ("raise to 6", "bet 4"): always-raise must find them too.
    """
    for name in names:
        for action, action_name in zip(observation.legal_actions, observation.action_names,
                                       strict=True):
            if action_name == name or action_name.startswith(name + " "):
                return action
    return None


def passive_action(observation: Observation) -> Action:
    """Check if possible, else call, else the first legal action."""
    found = _named(observation, "check", "call")
    return observation.legal_actions[0] if found is None else found


def passive_probabilities(observation: Observation) -> dict[Action, float]:
    """Always-call's policy: check or call for sure (else the first legal action)."""
    return {passive_action(observation): 1.0}


def aggressive_probabilities(observation: Observation) -> dict[Action, float]:
    """Always-raise's policy: bet or raise, else call or check, for sure.

    In no-limit it takes the smallest size, the minimum raise ("raise to 4" facing the big
    blind of 2, "bet 2" on an unopened flop): the legal actions list sizes in increasing
    order and the first one named "raise ..." or "bet ..." is chosen.
    """
    found = _named(observation, "raise", "bet", "call", "check")
    return {observation.legal_actions[0] if found is None else found: 1.0}


def uniform_probabilities(observation: Observation) -> dict[Action, float]:
    """The random agent's policy: every legal action equally likely."""
    legal = observation.legal_actions
    return {a: 1.0 / len(legal) for a in legal}


class _PolicyBacked:
    """An agent whose ``act`` samples a function-backed policy (exposed when given a game)."""

    name = "policy"

    def _probabilities(self, observation: Observation) -> dict[Action, float]:
        raise NotImplementedError

    def _set_policy(self, game: Game | None) -> None:
        self.policy: FunctionPolicy | None = (
            None if game is None else FunctionPolicy(game, self._probabilities, name=self.name)
        )

    def as_strategy(self, game: Game) -> Strategy:
        """The same behaviour as a :class:`Strategy` (the game must compile)."""
        return tabulate(FunctionPolicy(game, self._probabilities, name=self.name), game)


class RandomAgent(_PolicyBacked):
    """Plays a uniformly random legal action.

    Args:
        game: the game, when known: the agent then exposes its ``policy`` (uniform), so that
            matches may sample it on the compiled tree.
        seed: the generator or its seed; reseeded per hand by matches (``seed`` hook).
    """

    name = "random"

    def __init__(
        self, game: Game | None = None, *, seed: np.random.Generator | int | None = None
    ) -> None:
        self._rng = np.random.default_rng(seed)
        self._set_policy(game)

    def _probabilities(self, observation: Observation) -> dict[Action, float]:
        return uniform_probabilities(observation)

    def seed(self, value: int) -> None:
        """Restart the generator from ``value`` (called by matches before each hand)."""
        self._rng = reseed(self._rng, value)

    def act(self, observation: Observation) -> Action:
        """A uniformly random legal action."""
        legal = observation.legal_actions
        return legal[int(self._rng.integers(len(legal)))]


class AlwaysCall(_PolicyBacked):
    """Never folds, never raises: checks when nothing is owed, calls otherwise.

    Args:
        game: the game, when known (the agent then exposes its ``policy``).
    """

    name = "always-call"

    def __init__(self, game: Game | None = None) -> None:
        self._set_policy(game)

    def _probabilities(self, observation: Observation) -> dict[Action, float]:
        return passive_probabilities(observation)

    def act(self, observation: Observation) -> Action:
        """Check or call."""
        return passive_action(observation)


class AlwaysRaise(_PolicyBacked):
    """Bets or raises whenever it may; calls when raising is not allowed.

    Limit games have one raise size; in no-limit it always makes the minimum raise (or
    minimum bet), the smallest legal size, so hands between two of them escalate by the
    smallest steps until someone is all-in.

    Args:
        game: the game, when known (the agent then exposes its ``policy``).
    """

    name = "always-raise"

    def __init__(self, game: Game | None = None) -> None:
        self._set_policy(game)

    def _probabilities(self, observation: Observation) -> dict[Action, float]:
        return aggressive_probabilities(observation)

    def act(self, observation: Observation) -> Action:
        """Bet or raise, else call or check."""
        return next(iter(aggressive_probabilities(observation)))


_RANK_ORDERS: SpecCache[tuple[str, ...]] = SpecCache("agents.rank_order", maxsize=32)


def _rank_order(game_text: str) -> tuple[str, ...]:
    """Card (rank) names of a Kuhn or Leduc game, lowest first."""
    cached = _RANK_ORDERS.get(game_text)
    if cached is not None:
        return cached
    game = load(game_text)
    names = getattr(game, "card_names", None) or getattr(game, "rank_names", None)
    if names is None:
        raise PokerlabError(
            f"RuleBased plays Kuhn and Leduc games (cards ranked by name); got {game_text}"
        )
    order = tuple(names)
    _RANK_ORDERS.put(game_text, order)
    return order


class RuleBased(_PolicyBacked):
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
        game: the game, when known (the agent then exposes its ``policy``).
        raise_at: the strength from which it bets and raises.
        call_at: the strength from which it calls.
    """

    name = "rule-based"

    def __init__(
        self, game: Game | None = None, *, raise_at: float = 0.75, call_at: float = 0.4
    ) -> None:
        if not 0 <= call_at <= raise_at <= 1:
            raise PokerlabError(
                f"RuleBased needs 0 <= call_at <= raise_at <= 1; got call_at={call_at}, "
                f"raise_at={raise_at}"
            )
        self.raise_at = raise_at
        self.call_at = call_at
        if game is not None:
            self.check_game(game)
        self._set_policy(game)

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

    def _probabilities(self, observation: Observation) -> dict[Action, float]:
        return {self.act(observation): 1.0}

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


__all__ = [
    "AlwaysCall",
    "AlwaysRaise",
    "RandomAgent",
    "RuleBased",
    "aggressive_probabilities",
    "passive_action",
    "passive_probabilities",
    "uniform_probabilities",
]
