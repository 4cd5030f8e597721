"""PolicyAgent: plays any :class:`~pokerlab.strategy.Policy` by sampling its probabilities.

Matches recognise policy-backed agents (the ``policy`` attribute) and, when the game
compiles, sample whole hands on the compiled tree and report the exact expected value.
"""

from __future__ import annotations

import bisect
from pathlib import Path

import numpy as np

from pokerlab._types import Action
from pokerlab.errors import PokerlabError, StrategyError
from pokerlab.games import Game
from pokerlab.games.observation import Observation
from pokerlab.play.dealer import reseed
from pokerlab.strategy import Policy, Strategy, check_distribution, load_policy


class PolicyAgent:
    """Samples each action from its policy's probabilities at the observed infoset.

    Args:
        policy: the policy played (a Strategy, an InfosetTable, a FunctionPolicy...), in
            whichever seat the agent sits.
        seed: the generator or its seed; matches reseed it per hand (``seed`` hook).
        name: a display name (default: from the policy's metadata or name).

    Raises:
        PolicyError: from :meth:`act`, when the policy's answer is not a distribution over
            the legal actions (the dealer records it as a fault).

    Example:
        >>> from pokerlab.games import kuhn
        >>> agent = PolicyAgent(Strategy.uniform(kuhn()), seed=0)
        >>> agent.name
        'strategy(uniform)'
    """

    def __init__(
        self,
        policy: Policy,
        *,
        seed: np.random.Generator | int | None = None,
        name: str | None = None,
    ) -> None:
        if not isinstance(policy, Policy):
            raise PokerlabError(
                f"PolicyAgent needs a policy (game, action_probabilities); got "
                f"{type(policy).__name__}"
            )
        self.policy = policy
        self._rng = np.random.default_rng(seed)
        metadata = getattr(policy, "metadata", None)
        label = metadata.get("algorithm", "?") if isinstance(metadata, dict) else None
        default = f"strategy({label})" if label else str(getattr(policy, "name", "policy"))
        self.name = name or default
        # Strategy rows as Python lists, built on first use: (legal actions, running sums).
        self._rows: dict[str, tuple[list[int], list[float]]] | None = (
            {} if isinstance(policy, Strategy) else None
        )

    @classmethod
    def from_file(
        cls,
        path: str | Path,
        game: Game,
        *,
        seed: np.random.Generator | int | None = None,
        name: str | None = None,
    ) -> PolicyAgent:
        """Load a policy file (a strategy or an infoset table) and play it.

        Raises:
            StrategyMismatchError: if the file was made for another game.
            FileFormatError: if the file is missing or damaged.
        """
        policy = load_policy(path, game=game)
        return cls(policy, seed=seed, name=name or Path(path).stem)

    @property
    def game(self) -> Game:
        """The game of the policy."""
        return self.policy.game

    def _strategy_row(self, observation: Observation) -> tuple[list[int], list[float]]:
        assert isinstance(self.policy, Strategy)
        assert self._rows is not None
        tree = self.policy.tree
        i = tree._key_index.get(observation.infoset_key)
        if i is None:
            raise StrategyError(
                f"the strategy ({self.policy.game.spec}) has no infoset "
                f"{observation.infoset_key!r}; was it made for {observation.game}?"
            )
        n = int(tree.infoset_n_actions[i])
        row = ([int(a) for a in tree.infoset_actions[i, :n]],
               np.cumsum(self.policy.probs[i, :n]).tolist())
        self._rows[observation.infoset_key] = row
        return row

    def seed(self, value: int) -> None:
        """Restart the generator from ``value`` (called by matches before each hand)."""
        self._rng = reseed(self._rng, value)

    def act(self, observation: Observation) -> Action:
        """Sample an action from the policy's probabilities at ``observation``.

        Raises:
            StrategyError: if a strategy has no row for the infoset (another game).
            PolicyError: if the policy's answer is not a distribution over the legal actions.
        """
        if self._rows is not None:
            row = self._rows.get(observation.infoset_key)
            if row is None:
                row = self._strategy_row(observation)
            actions, cumulative = row
            slot = bisect.bisect_right(cumulative, self._rng.random() * cumulative[-1])
            return actions[min(slot, len(actions) - 1)]
        probs = check_distribution(
            self.policy.action_probabilities(observation),
            observation.legal_actions,
            where=f"policy of {self.name}",
        )
        u = self._rng.random()
        total = 0.0
        last = observation.legal_actions[-1]
        for action, prob in probs.items():
            if prob > 0:
                last = action
                total += prob
                if u < total:
                    return action
        return last


__all__ = ["PolicyAgent"]
